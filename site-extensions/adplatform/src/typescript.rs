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
    use std::path::PathBuf;

    use docgen::view::typescript::{Collect, assert_bindings_current};
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
        assert_bindings_current(
            GENERATED,
            &bindings(),
            "DOCGEN_WRITE_BINDINGS=1 cargo test --release -p docgen-adplatform typescript_bindings",
        );
    }
}
