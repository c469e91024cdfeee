//! The folders docgen makes beside the output folder: a new build is written into
//! `.dist.tmp-PID-N` and swapped in whole; the folder it replaces is renamed to
//! `.dist.old-PID-N` and removed. `recover` cleans up after a writer that was stopped between
//! those steps.

use std::path::{Path, PathBuf};

use super::io_error;
use crate::diagnostics::Diagnostic;

const NEW: &str = "tmp";
const OLD: &str = "old";

fn name_of(out: &Path) -> String {
    out.file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_else(|| "dist".into())
}

/// Creates a new folder beside `out` (`.dist.tmp-PID-N`), never reusing an existing one: the
/// only folders docgen deletes are those it made itself.
pub(super) fn fresh(out: &Path) -> Result<PathBuf, Diagnostic> {
    make(out, NEW)
}

fn make(out: &Path, kind: &str) -> Result<PathBuf, Diagnostic> {
    let name = name_of(out);
    let parent = out.parent().unwrap_or(Path::new("."));
    std::fs::create_dir_all(parent).map_err(|e| io_error(parent, e))?;
    for n in 0.. {
        let candidate = parent.join(format!(".{name}.{kind}-{}-{n}", std::process::id()));
        match std::fs::create_dir(&candidate) {
            Ok(()) => return Ok(candidate),
            Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => continue,
            Err(e) => return Err(io_error(&candidate, e)),
        }
    }
    unreachable!("some name is free")
}

/// The siblings of `out` that docgen made, each with whether it is a new build (`tmp`).
fn made(out: &Path) -> Vec<(PathBuf, bool)> {
    let name = name_of(out);
    let Some(parent) = out.parent() else {
        return Vec::new();
    };
    let Ok(entries) = std::fs::read_dir(parent) else {
        return Vec::new();
    };
    let is_ours = |rest: &str| {
        let mut parts = rest.splitn(2, '-');
        parts.next().is_some_and(|pid| pid.parse::<u32>().is_ok())
            && parts.next().is_some_and(|n| n.parse::<u32>().is_ok())
    };
    let mut found: Vec<(PathBuf, bool)> = entries
        .filter_map(Result::ok)
        .filter_map(|e| {
            let file = e.file_name().to_string_lossy().into_owned();
            let rest = file.strip_prefix(&format!(".{name}."))?;
            let (kind, rest) = rest.split_once('-')?;
            let new = match kind {
                NEW => true,
                OLD => false,
                _ => return None,
            };
            (is_ours(rest) && e.file_type().is_ok_and(|t| t.is_dir())).then(|| (e.path(), new))
        })
        .collect();
    found.sort();
    found
}

/// Puts `new` (a complete build) in the place of `out`. Where the system can exchange two
/// folders in one step (Linux), a crash leaves one or the other at `out`; elsewhere the old
/// folder is renamed aside first, and `recover` finishes a swap stopped between the renames.
pub(super) fn swap(new: &Path, out: &Path) -> Result<(), Diagnostic> {
    if std::fs::symlink_metadata(out).is_err() {
        super::transaction::faults::before_rename().map_err(|e| io_error(out, e))?;
        return std::fs::rename(new, out).map_err(|e| io_error(out, e));
    }
    super::transaction::faults::before_rename().map_err(|e| io_error(out, e))?;
    if exchange(new, out).is_ok() {
        // `new` now holds the previous output.
        let _ = std::fs::remove_dir_all(new);
        return Ok(());
    }
    let old = make(out, OLD)?;
    std::fs::remove_dir(&old).map_err(|e| io_error(&old, e))?;
    std::fs::rename(out, &old).map_err(|e| io_error(out, e))?;
    if let Err(e) =
        super::transaction::faults::before_rename().and_then(|()| std::fs::rename(new, out))
    {
        let _ = std::fs::rename(&old, out);
        return Err(io_error(out, e));
    }
    let _ = std::fs::remove_dir_all(&old);
    Ok(())
}

#[cfg(target_os = "linux")]
fn exchange(a: &Path, b: &Path) -> std::io::Result<()> {
    use std::os::unix::ffi::OsStrExt;
    let a = std::ffi::CString::new(a.as_os_str().as_bytes())?;
    let b = std::ffi::CString::new(b.as_os_str().as_bytes())?;
    // SAFETY: both paths are NUL-terminated strings that live across the call.
    let status = unsafe {
        libc::renameat2(
            libc::AT_FDCWD,
            a.as_ptr(),
            libc::AT_FDCWD,
            b.as_ptr(),
            libc::RENAME_EXCHANGE,
        )
    };
    if status == 0 {
        Ok(())
    } else {
        Err(std::io::Error::last_os_error())
    }
}

#[cfg(not(target_os = "linux"))]
fn exchange(_: &Path, _: &Path) -> std::io::Result<()> {
    Err(std::io::ErrorKind::Unsupported.into())
}

/// Finishes or undoes what a stopped writer left beside `out`: with no `out`, a complete new
/// build (it holds the marker, written last) takes its place, else the folder it was
/// replacing goes back; every other sibling docgen made is removed. Runs under the lock.
pub(super) fn recover(out: &Path) -> Result<(), Diagnostic> {
    let siblings = made(out);
    if siblings.is_empty() {
        return Ok(());
    }
    if std::fs::symlink_metadata(out).is_err() {
        let complete = siblings
            .iter()
            .find(|(p, new)| *new && super::guard::is_ours(p))
            .or_else(|| siblings.iter().find(|(_, new)| !new));
        if let Some((back, _)) = complete {
            std::fs::rename(back, out).map_err(|e| io_error(out, e))?;
        }
    }
    for (dir, _) in siblings {
        if std::fs::symlink_metadata(&dir).is_ok() {
            std::fs::remove_dir_all(&dir).map_err(|e| {
                Diagnostic::new(
                    "io.write",
                    format!(
                        "cannot remove {}, left by an earlier build: {e}",
                        dir.display()
                    ),
                )
                .hint("remove it by hand")
            })?;
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_swap_stopped_between_its_renames_is_finished() {
        let tmp = tempfile::tempdir().unwrap();
        let out = tmp.path().join("dist");
        let new = fresh(&out).unwrap();
        std::fs::write(new.join(super::super::guard::MARKER), "m").unwrap();
        std::fs::write(new.join("index.html"), "new").unwrap();
        let old = make(&out, OLD).unwrap();
        std::fs::write(old.join("index.html"), "old").unwrap();
        recover(&out).unwrap();
        assert_eq!(
            std::fs::read_to_string(out.join("index.html")).unwrap(),
            "new"
        );
        assert_eq!(std::fs::read_dir(tmp.path()).unwrap().count(), 1);
    }

    #[test]
    fn without_a_complete_new_build_the_old_folder_goes_back() {
        let tmp = tempfile::tempdir().unwrap();
        let out = tmp.path().join("dist");
        let new = fresh(&out).unwrap();
        std::fs::write(new.join("index.html"), "half").unwrap();
        let old = make(&out, OLD).unwrap();
        std::fs::write(old.join("index.html"), "old").unwrap();
        recover(&out).unwrap();
        assert_eq!(
            std::fs::read_to_string(out.join("index.html")).unwrap(),
            "old"
        );
        assert_eq!(std::fs::read_dir(tmp.path()).unwrap().count(), 1);
    }

    #[test]
    fn swapping_replaces_the_folder_and_leaves_no_sibling() {
        let tmp = tempfile::tempdir().unwrap();
        let out = tmp.path().join("dist");
        std::fs::create_dir(&out).unwrap();
        std::fs::write(out.join("index.html"), "old").unwrap();
        let new = fresh(&out).unwrap();
        std::fs::write(new.join("index.html"), "new").unwrap();
        swap(&new, &out).unwrap();
        assert_eq!(
            std::fs::read_to_string(out.join("index.html")).unwrap(),
            "new"
        );
        assert_eq!(std::fs::read_dir(tmp.path()).unwrap().count(), 1);
    }

    #[test]
    fn folders_of_other_names_are_not_touched() {
        let tmp = tempfile::tempdir().unwrap();
        let out = tmp.path().join("dist");
        for name in [
            ".dist.tmp-x-1",
            ".dist.older-1-1",
            ".other.tmp-1-1",
            "dist2",
        ] {
            std::fs::create_dir(tmp.path().join(name)).unwrap();
        }
        recover(&out).unwrap();
        assert_eq!(std::fs::read_dir(tmp.path()).unwrap().count(), 4);
    }
}
