//! What docgen may write and delete. The output folder is claimed before anything is written:
//! it must be a folder docgen made (it holds the marker file) or an empty one, and it may not
//! be, hold or sit inside any of the site's sources. Every path written under it is proven to
//! stay inside it.

use std::path::{Path, PathBuf};

use crate::diagnostics::Diagnostic;
// Shared with the stages before the output, which must not import it.
pub use crate::paths::{MARKER, is_confined, resolve};

/// The marker's text, for anyone who wonders what the file is.
pub const MARKER_TEXT: &str =
    "This folder is the output of `docgen build`; docgen replaces it on the next build.\n";

/// The sources of the site at `root` (existing or not): what the output may never touch.
fn sources(root: &Path) -> Vec<(PathBuf, &'static str)> {
    let mut list = vec![
        (root.join("static"), "the static/ folder"),
        (root.join("templates"), "the templates/ folder"),
        (root.join("site.yaml"), "site.yaml"),
        (root.join("redirects.yaml"), "redirects.yaml"),
    ];
    // A Hugo-style tree is its own content folder; its root is guarded below anyway.
    if root.join("content").exists() || !root.join("_index.md").is_file() {
        list.push((root.join("content"), "the content/ folder"));
    }
    list
}

fn refused(out: &Path, why: String, hint: &str) -> Diagnostic {
    Diagnostic::new(
        "usage.out-dir",
        format!("refusing to write the output into {}: {why}", out.display()),
    )
    .hint(hint)
}

const CHOOSE: &str =
    "choose a new or empty folder outside the sources, e.g. ROOT/dist (the default)";

/// Checks that `out` may receive the build of the site at `root` and returns it resolved.
/// With `force`, a non-empty folder that docgen did not make may be replaced too; the
/// sources are never given up.
pub fn claim(root: &Path, out: &Path, force: bool) -> Result<PathBuf, Diagnostic> {
    let root = resolve(root);
    let out = resolve(out);
    if out.parent().is_none() {
        return Err(refused(&out, "it is a file system root".into(), CHOOSE));
    }
    if out == root || root.starts_with(&out) {
        return Err(refused(
            &out,
            format!("it would replace the site root {}", root.display()),
            CHOOSE,
        ));
    }
    for (source, name) in sources(&root) {
        let source = resolve(&source);
        let clash = if out == source {
            Some("it is")
        } else if out.starts_with(&source) {
            Some("it is inside")
        } else if source.starts_with(&out) {
            Some("it holds")
        } else {
            None
        };
        if let Some(how) = clash {
            return Err(refused(&out, format!("{how} {name} of the site"), CHOOSE));
        }
    }
    match std::fs::symlink_metadata(&out) {
        Err(_) => Ok(out),
        Ok(meta) if !meta.is_dir() => {
            Err(refused(&out, "it is a file, not a folder".into(), CHOOSE))
        }
        Ok(_) if force || is_ours(&out) || is_empty(&out) => Ok(out),
        Ok(_) => Err(refused(
            &out,
            format!("the folder holds files that docgen did not make (it has no {MARKER})"),
            "choose a new or empty folder, or pass --force to replace this folder and everything in it",
        )),
    }
}

/// Whether a folder carries docgen's marker.
/// An advisory lock on an output folder, held for as long as a build or the preview server
/// writes it: a second writer of the same folder stops at once instead of mixing its files
/// with the first one's. The system releases it when the process ends, even on a crash.
#[derive(Debug)]
pub struct OutputLock {
    _file: std::fs::File,
}

/// The lock file of `out`: a sibling, `.<name>.docgen-lock`, since the folder itself is
/// replaced by a rename when a new build is swapped in. It is created once and left in place
/// (removing a lock file would let two writers lock two different files).
pub fn lock_path(out: &Path) -> Option<PathBuf> {
    let name = out.file_name()?.to_string_lossy();
    Some(out.parent()?.join(format!(".{name}.docgen-lock")))
}

/// Takes the lock of the output folder `out` (already claimed), or says who holds it.
pub fn lock(out: &Path) -> Result<OutputLock, Diagnostic> {
    let path =
        lock_path(out).ok_or_else(|| refused(out, "it is a file system root".into(), CHOOSE))?;
    let cannot = |e: std::io::Error| {
        Diagnostic::new(
            "usage.output-lock",
            format!("cannot lock the output folder {}: {e}", out.display()),
        )
        .hint("check the permissions of the folder that holds it")
    };
    if let Some(parent) = path.parent() {
        std::fs::create_dir_all(parent).map_err(cannot)?;
    }
    if std::fs::symlink_metadata(&path).is_ok_and(|m| !m.is_file()) {
        return Err(refused(
            out,
            format!("{} is not a plain file", path.display()),
            "remove it: docgen keeps its lock there",
        ));
    }
    let file = std::fs::OpenOptions::new()
        .create(true)
        .truncate(false)
        .write(true)
        .open(&path)
        .map_err(cannot)?;
    match file.try_lock() {
        Ok(()) => Ok(OutputLock { _file: file }),
        Err(std::fs::TryLockError::WouldBlock) => Err(Diagnostic::new(
            "usage.output-busy",
            format!(
                "another docgen (a build or `docgen serve`) is writing {} right now",
                out.display()
            ),
        )
        .hint(
            "wait for it to finish or stop it, or write this build to another folder with --out",
        )),
        Err(std::fs::TryLockError::Error(e)) => Err(cannot(e)),
    }
}

pub fn is_ours(dir: &Path) -> bool {
    std::fs::symlink_metadata(dir.join(MARKER)).is_ok_and(|m| m.is_file())
}

fn is_empty(dir: &Path) -> bool {
    std::fs::read_dir(dir).is_ok_and(|mut entries| entries.next().is_none())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn site() -> tempfile::TempDir {
        let tmp = tempfile::tempdir().unwrap();
        let root = tmp.path().join("site");
        for dir in ["content", "static", "templates"] {
            std::fs::create_dir_all(root.join(dir)).unwrap();
        }
        std::fs::write(root.join("site.yaml"), "title: T\n").unwrap();
        tmp
    }

    #[test]
    fn the_default_and_new_folders_are_accepted() {
        let tmp = site();
        let root = tmp.path().join("site");
        assert!(claim(&root, &root.join("dist"), false).is_ok());
        assert!(claim(&root, &tmp.path().join("elsewhere/out"), false).is_ok());
    }

    #[test]
    fn sources_are_refused_however_they_are_spelled() {
        let tmp = site();
        let root = tmp.path().join("site");
        let spelled = tmp.path().join("x/../site");
        for out in [
            root.clone(),
            tmp.path().to_path_buf(),
            root.join("static"),
            root.join("templates"),
            root.join("content"),
            root.join("content/sub"),
            root.join("static/../content"),
            root.join("site.yaml"),
            PathBuf::from("/"),
        ] {
            assert!(claim(&root, &out, true).is_err(), "{}", out.display());
            assert!(claim(&spelled, &out, true).is_err(), "{}", out.display());
        }
    }

    #[test]
    fn a_foreign_folder_needs_force_and_ours_does_not() {
        let tmp = site();
        let root = tmp.path().join("site");
        let foreign = tmp.path().join("photos");
        std::fs::create_dir(&foreign).unwrap();
        std::fs::write(foreign.join("a.jpg"), "x").unwrap();
        let e = claim(&root, &foreign, false).unwrap_err();
        assert_eq!(e.code, "usage.out-dir");
        assert!(e.hint.unwrap().contains("--force"));
        assert!(claim(&root, &foreign, true).is_ok());
        std::fs::write(foreign.join(MARKER), MARKER_TEXT).unwrap();
        assert!(claim(&root, &foreign, false).is_ok());
        let file = tmp.path().join("file");
        std::fs::write(&file, "x").unwrap();
        assert!(claim(&root, &file, true).is_err());
    }

    #[test]
    fn a_link_to_a_source_is_a_source() {
        let tmp = site();
        let root = tmp.path().join("site");
        let link = tmp.path().join("link");
        std::os::unix::fs::symlink(root.join("static"), &link).unwrap();
        assert!(claim(&root, &link, true).is_err());
        assert!(claim(&root, &link.join("sub"), true).is_err());
    }

    #[test]
    fn only_plain_relative_paths_are_confined() {
        assert!(is_confined(Path::new("a/b/index.html")));
        assert!(is_confined(Path::new("_redirects")));
        assert!(!is_confined(Path::new("../x")));
        assert!(!is_confined(Path::new("a/../../x")));
        assert!(!is_confined(Path::new("/etc/passwd")));
        assert!(!is_confined(Path::new("")));
        assert!(!is_confined(Path::new("./a")));
        assert!(!is_confined(Path::new(MARKER)));
        assert!(!is_confined(Path::new("a\\..\\b")));
    }

    #[test]
    fn a_second_writer_of_an_output_folder_is_refused() {
        let tmp = tempfile::tempdir().unwrap();
        let out = tmp.path().join("dist");
        let held = lock(&out).unwrap();
        assert_eq!(lock(&out).unwrap_err().code, "usage.output-busy");
        drop(held);
        let again = lock(&out);
        assert!(again.is_ok(), "{again:?}");
        assert!(tmp.path().join(".dist.docgen-lock").is_file());
    }
}
