//! The TypeScript types of what the extension publishes (the compiled rules and its entry of
//! the site view), generated from its structs into
//! `frontend/src/extensions/adplatform/generated/` (committed), as docgen's own are into
//! `frontend/src/generated/`. Write them with
//!
//! ```sh
//! DOCGEN_WRITE_BINDINGS=1 cargo test --release -p docgen-adplatform typescript_bindings
//! ```
//!
//! Without the variable the test fails when the committed files differ from the structs.

#[cfg(test)]
mod tests {
    use std::collections::BTreeMap;
    use std::path::{Path, PathBuf};

    use docgen::view::typescript::{Collect, stale_bindings};
    use ts_rs::TypeVisitor;

    const GENERATED: &str = "frontend/src/extensions/adplatform/generated";

    fn bindings() -> BTreeMap<PathBuf, String> {
        let mut files = Collect::default();
        files.visit::<crate::bidrules::compiled::BidRules>();
        files.visit::<crate::SiteValidator>();
        files.files
    }

    #[test]
    fn typescript_bindings_are_up_to_date() {
        let dir = Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("../..")
            .join(GENERATED);
        let stale = stale_bindings(&dir, &bindings());
        assert!(
            stale.is_empty(),
            "{GENERATED} differs from the structs in {stale:?}: run \
             `DOCGEN_WRITE_BINDINGS=1 cargo test --release -p docgen-adplatform typescript_bindings` \
             and commit the result"
        );
    }
}
