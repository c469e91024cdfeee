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

    use ts_rs::{Config, TS, TypeVisitor};

    const GENERATED: &str = "frontend/src/extensions/adplatform/generated";

    /// Collects a type's file and, through its dependencies, theirs.
    struct Collect {
        cfg: Config,
        files: BTreeMap<PathBuf, String>,
    }

    impl TypeVisitor for Collect {
        fn visit<T: TS + 'static + ?Sized>(&mut self) {
            let Some(path) = T::output_path() else {
                return;
            };
            if self.files.contains_key(&path) {
                return;
            }
            let text = T::export_to_string(&self.cfg).expect("the structs export");
            self.files.insert(path, text);
            T::visit_dependencies(self);
        }
    }

    fn bindings() -> BTreeMap<PathBuf, String> {
        let mut files = Collect {
            cfg: Config::new(),
            files: BTreeMap::new(),
        };
        files.visit::<crate::bidrules::compiled::BidRules>();
        files.visit::<crate::SiteValidator>();
        files.files
    }

    #[test]
    fn typescript_bindings_are_up_to_date() {
        let dir = Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("../..")
            .join(GENERATED);
        let wanted = bindings();
        if std::env::var_os("DOCGEN_WRITE_BINDINGS").is_some() {
            if dir.exists() {
                std::fs::remove_dir_all(&dir).expect("remove the old bindings");
            }
            std::fs::create_dir_all(&dir).expect("create the bindings folder");
            for (path, text) in &wanted {
                std::fs::write(dir.join(path), text).expect("write a binding");
            }
            return;
        }
        let committed: BTreeMap<PathBuf, String> = std::fs::read_dir(&dir)
            .map(|entries| {
                entries
                    .filter_map(Result::ok)
                    .map(|e| {
                        let text = std::fs::read_to_string(e.path()).unwrap_or_default();
                        (PathBuf::from(e.file_name()), text)
                    })
                    .collect()
            })
            .unwrap_or_default();
        let stale: std::collections::BTreeSet<String> = wanted
            .keys()
            .chain(committed.keys())
            .filter(|p| wanted.get(*p) != committed.get(*p))
            .map(|p| p.display().to_string())
            .collect();
        assert!(
            stale.is_empty(),
            "{GENERATED} differs from the structs in {stale:?}: run \
             `DOCGEN_WRITE_BINDINGS=1 cargo test --release -p docgen-adplatform typescript_bindings` \
             and commit the result"
        );
    }
}
