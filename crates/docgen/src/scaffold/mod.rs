//! `docgen init`: writes a small, working site into an empty folder. The files are real files
//! under `src/scaffold/site/`, embedded at compile time, so they are edited as they are.

use std::path::{Path, PathBuf};

use crate::diagnostics::Diagnostic;

/// Every file of the new site: its path in the site and its bytes.
pub const FILES: &[(&str, &[u8])] = &[
    ("site.yaml", include_bytes!("site/site.yaml")),
    ("content/index.md", include_bytes!("site/content/index.md")),
    (
        "content/guide/_category_.yaml",
        include_bytes!("site/content/guide/_category_.yaml"),
    ),
    (
        "content/guide/install.md",
        include_bytes!("site/content/guide/install.md"),
    ),
    (
        "content/guide/architecture.md",
        include_bytes!("site/content/guide/architecture.md"),
    ),
    (
        "content/guide/pipeline.svg",
        include_bytes!("site/content/guide/pipeline.svg"),
    ),
    ("static/logo.svg", include_bytes!("site/static/logo.svg")),
    // Kept without its dot in the repository, so it does not apply to the repository itself.
    (".gitignore", include_bytes!("site/gitignore")),
];

/// Writes the site into `dir` (made when missing). A folder that holds anything is refused
/// (a `usage.` diagnostic: exit code 2), so nothing is ever overwritten. Returns the paths
/// written, relative to `dir`.
pub fn init(dir: &Path) -> Result<Vec<PathBuf>, Diagnostic> {
    if dir.exists() {
        if !dir.is_dir() {
            return Err(Diagnostic::new(
                "usage.init-target",
                format!("{} exists and is not a folder", dir.display()),
            )
            .hint("pass the path of a new or empty folder"));
        }
        let mut entries = std::fs::read_dir(dir).map_err(|e| io_error(dir, &e))?;
        if let Some(first) = entries.next() {
            let first = first.map_err(|e| io_error(dir, &e))?;
            return Err(Diagnostic::new(
                "usage.init-target",
                format!(
                    "{} is not empty (it holds {}); docgen init never overwrites files",
                    dir.display(),
                    first.file_name().to_string_lossy()
                ),
            )
            .hint("pass a new or empty folder: `docgen init my-docs`; for an existing mdBook or Docusaurus site use `docgen import`"));
        }
    }
    let mut written = Vec::new();
    for (rel, bytes) in FILES {
        let path = dir.join(rel);
        if let Some(parent) = path.parent() {
            std::fs::create_dir_all(parent).map_err(|e| io_error(parent, &e))?;
        }
        write_new(&path, bytes)?;
        written.push(PathBuf::from(rel));
    }
    Ok(written)
}

/// Writes a file that must not exist yet: an existing one is never replaced, even when it
/// appears between a check and the write.
pub fn write_new(path: &Path, bytes: &[u8]) -> Result<(), Diagnostic> {
    use std::io::Write;
    let mut file = std::fs::OpenOptions::new()
        .write(true)
        .create_new(true)
        .open(path)
        .map_err(|e| {
            if e.kind() == std::io::ErrorKind::AlreadyExists {
                Diagnostic::new(
                    "usage.file-exists",
                    format!("{} exists; docgen never overwrites a file", path.display()),
                )
                .hint("move the file away, or write into another folder")
            } else {
                io_error(path, &e)
            }
        })?;
    file.write_all(bytes).map_err(|e| io_error(path, &e))
}

fn io_error(path: &Path, e: &std::io::Error) -> Diagnostic {
    Diagnostic::new("usage.io", format!("{}: {e}", path.display()))
        .hint("check that the folder can be written")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn writes_every_file_into_a_new_folder() {
        let tmp = tempfile::tempdir().unwrap();
        let dir = tmp.path().join("site");
        let written = init(&dir).unwrap();
        assert_eq!(written.len(), FILES.len());
        for (rel, bytes) in FILES {
            assert_eq!(std::fs::read(dir.join(rel)).unwrap(), *bytes, "{rel}");
        }
    }

    #[test]
    fn refuses_a_folder_that_holds_anything() {
        let tmp = tempfile::tempdir().unwrap();
        std::fs::write(tmp.path().join("notes.txt"), "mine").unwrap();
        let e = init(tmp.path()).unwrap_err();
        assert_eq!(e.code, "usage.init-target");
        assert!(e.message.contains("notes.txt"), "{}", e.message);
        assert_eq!(
            std::fs::read_to_string(tmp.path().join("notes.txt")).unwrap(),
            "mine"
        );
        assert!(!tmp.path().join("site.yaml").exists());
    }

    #[test]
    fn write_new_never_replaces() {
        let tmp = tempfile::tempdir().unwrap();
        let p = tmp.path().join("a");
        std::fs::write(&p, "old").unwrap();
        assert_eq!(write_new(&p, b"new").unwrap_err().code, "usage.file-exists");
        assert_eq!(std::fs::read_to_string(&p).unwrap(), "old");
    }

    /// The names of a struct's fields, as serde sees them (camelCase): a deserializer that
    /// records the list serde hands to `deserialize_struct` and then gives up.
    fn field_names<'de, T: serde::Deserialize<'de>>() -> Vec<&'static str> {
        use serde::de::{self, Visitor};
        struct Fields(Vec<&'static str>);
        #[derive(Debug)]
        struct Stop;
        impl std::fmt::Display for Stop {
            fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str("stop")
            }
        }
        impl std::error::Error for Stop {}
        impl de::Error for Stop {
            fn custom<M: std::fmt::Display>(_: M) -> Self {
                Stop
            }
        }
        impl<'de> de::Deserializer<'de> for &mut Fields {
            type Error = Stop;
            fn deserialize_any<V: Visitor<'de>>(self, _: V) -> Result<V::Value, Stop> {
                Err(Stop)
            }
            fn deserialize_struct<V: Visitor<'de>>(
                self,
                _: &'static str,
                fields: &'static [&'static str],
                _: V,
            ) -> Result<V::Value, Stop> {
                self.0 = fields.to_vec();
                Err(Stop)
            }
            serde::forward_to_deserialize_any! {
                bool i8 i16 i32 i64 i128 u8 u16 u32 u64 u128 f32 f64 char str string bytes
                byte_buf option unit unit_struct newtype_struct seq tuple tuple_struct map enum
                identifier ignored_any
            }
        }
        let mut fields = Fields(Vec::new());
        let _ = T::deserialize(&mut fields);
        fields.0
    }

    #[test]
    fn the_config_template_documents_every_key() {
        let text = std::str::from_utf8(FILES[0].1).unwrap();
        let keys = field_names::<crate::config::site::SiteConfig>();
        assert!(keys.contains(&"editUrl"), "{keys:?}");
        for key in keys {
            let line = text
                .lines()
                .position(|l| l.trim_start_matches("# ").starts_with(&format!("{key}:")))
                .unwrap_or_else(|| panic!("site.yaml key `{key}` is not in the template"));
            let above = text.lines().nth(line.saturating_sub(1)).unwrap_or("");
            assert!(above.starts_with('#'), "`{key}` has no comment above it");
        }
    }

    #[test]
    fn the_config_template_is_a_valid_site_yaml() {
        let text = std::str::from_utf8(FILES[0].1).unwrap();
        let tmp = tempfile::tempdir().unwrap();
        crate::config::from_texts(tmp.path(), Some(text), None, &Default::default())
            .unwrap_or_else(|e| panic!("{:?}", e.0));
    }
}
