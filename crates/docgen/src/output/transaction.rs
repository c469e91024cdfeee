//! One change of an output folder, all or nothing.
//!
//! A build over its previous output writes only what changed, in three steps:
//!
//! 1. **Stage.** Every new file is written beside its place under a staging name
//!    (`.index.html.docgen-tmp`). Nothing a reader sees has changed yet; a failure here (a full
//!    disk) removes the staged files and leaves the folder as it was.
//! 2. **Commit.** The list of renames and removals is written to the journal
//!    (`.docgen-journal`), itself written aside and renamed into place: the one step that
//!    makes the new build the output. A crash before it leaves the old build; after it, the
//!    new one.
//! 3. **Apply.** The staged files are renamed over their places, the files of the old build
//!    that are no longer part of the site are removed, the marker is replaced, and the journal
//!    is removed last.
//!
//! `recover` runs before every write of a folder, under its lock: a journal left by a crash is
//! applied to its end (each step can be repeated), and every staging file without one is
//! removed with the folders it alone needed. The preview server takes a gate around the apply
//! step, so it never answers from a half-applied change.

use std::collections::BTreeSet;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::{Mutex, RwLock};

use super::guard::MARKER;
use super::{confined, io_error};
use crate::diagnostics::{Diagnostic, Diagnostics};

/// The journal of a committed change that was not applied to its end.
pub const JOURNAL: &str = ".docgen-journal";
/// What staging names end with; docgen makes no other file so named.
const STAGED: &str = ".docgen-tmp";

/// The staging name of `path`: a hidden sibling named after the whole file name, so files
/// that differ only in their extension never share one.
pub fn staging_path(path: &Path) -> PathBuf {
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy())
        .unwrap_or_default();
    path.with_file_name(format!(".{name}{STAGED}"))
}

fn is_staging_name(name: &str) -> bool {
    name.starts_with('.') && name.ends_with(STAGED) && name.len() > 1 + STAGED.len()
}

/// A change of the output folder `out` being staged. Dropped without `commit`, it removes what
/// it staged.
pub struct Transaction<'o> {
    out: &'o Path,
    /// The files staged so far, relative to `out`.
    staged: Mutex<Vec<PathBuf>>,
    /// Folders that exist (made by this change or found), relative to `out`.
    folders: Mutex<rustc_hash::FxHashSet<PathBuf>>,
    /// Folders this change made, so an abandoned change removes them again.
    made: Mutex<Vec<PathBuf>>,
    /// Files are written at their places, not staged: `out` is a new folder nobody reads
    /// until it is swapped in whole (see `siblings`), so it needs no journal.
    direct: bool,
    done: bool,
}

impl<'o> Transaction<'o> {
    pub fn begin(out: &'o Path) -> Self {
        Transaction {
            out,
            staged: Mutex::default(),
            folders: Mutex::default(),
            made: Mutex::default(),
            direct: false,
            done: false,
        }
    }

    /// A change that fills the new folder `out`, which takes the place of the output only
    /// when complete: each file is written at its place, the marker last (a folder holding it
    /// is a whole build, see `siblings::recover`).
    pub fn fresh(out: &'o Path) -> Self {
        let mut change = Transaction::begin(out);
        change.direct = true;
        change
    }

    /// Where the file `rel` is written until the change is committed.
    fn staged_path(&self, rel: &Path) -> PathBuf {
        let path = self.out.join(rel);
        if self.direct {
            path
        } else {
            staging_path(&path)
        }
    }

    /// How many files are staged.
    pub fn len(&self) -> usize {
        self.staged.lock().expect("not poisoned").len()
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Stages `bytes` as the new content of `out/rel`.
    pub fn stage(&self, rel: &Path, bytes: &[u8]) -> Result<(), Diagnostic> {
        confined(rel)?;
        let (path, tmp) = self.place(rel)?;
        // Bytes already whole go to the file in one write, not through a buffer.
        write_file(&tmp, bytes).map_err(|e| io_error(&path, e))
    }

    /// Stages the new content of `out/rel`, written by `fill` into the staging file (so a large
    /// file is copied through a buffer, never held whole).
    pub fn stage_with(
        &self,
        rel: &Path,
        fill: impl FnOnce(&mut dyn Write) -> Result<(), Fill>,
    ) -> Result<(), Diagnostic> {
        confined(rel)?;
        self.stage_unchecked(rel, fill)
    }

    fn stage_unchecked(
        &self,
        rel: &Path,
        fill: impl FnOnce(&mut dyn Write) -> Result<(), Fill>,
    ) -> Result<(), Diagnostic> {
        let (path, tmp) = self.place(rel)?;
        fill_file(&tmp, fill).map_err(|e| io_error(&path, e))?
    }

    /// Makes the folders of `rel` and lists it as staged: its place in the output and the
    /// path its new content is written to.
    fn place(&self, rel: &Path) -> Result<(PathBuf, PathBuf), Diagnostic> {
        if let Some(parent) = rel.parent() {
            self.make_folders(parent)?;
        }
        let path = self.out.join(rel);
        let tmp = self.staged_path(rel);
        // Listed before it exists: an abandoned change removes it whatever happened next.
        self.staged
            .lock()
            .expect("not poisoned")
            .push(rel.to_path_buf());
        Ok((path, tmp))
    }

    /// Makes the folder `rel` and its parents, remembering those it made.
    fn make_folders(&self, rel: &Path) -> Result<(), Diagnostic> {
        if rel.as_os_str().is_empty() || self.folders.lock().expect("not poisoned").contains(rel) {
            return Ok(());
        }
        if let Some(parent) = rel.parent() {
            self.make_folders(parent)?;
        }
        let path = self.out.join(rel);
        match std::fs::create_dir(&path) {
            Ok(()) => self
                .made
                .lock()
                .expect("not poisoned")
                .push(rel.to_path_buf()),
            Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => {
                // Only a real folder: writing through a link could leave the output.
                if !std::fs::symlink_metadata(&path).is_ok_and(|m| m.is_dir()) {
                    return Err(not_a_folder(&path));
                }
            }
            Err(e) => return Err(io_error(&path, e)),
        }
        self.folders
            .lock()
            .expect("not poisoned")
            .insert(rel.to_path_buf());
        Ok(())
    }

    /// Makes the staged files the output: `remove` lists the files of the previous build that
    /// are no longer part of it, `marker` the marker's new text (none keeps the marker as it
    /// is). While `gate` is held for writing, readers taking it wait for the change to be
    /// applied whole.
    pub fn commit(
        mut self,
        remove: &[PathBuf],
        marker: Option<&str>,
        gate: Option<&RwLock<()>>,
    ) -> Result<(), Diagnostics> {
        if self.direct {
            // A new folder has nothing to remove, and its marker is what completes it.
            debug_assert!(remove.is_empty());
            if let Some(text) = marker {
                let path = self.out.join(MARKER);
                fill_file(&path, |f| f.write_all(text.as_bytes()).map_err(Fill::from))
                    .map_err(|e| Diagnostics(vec![io_error(&path, e)]))?
                    .map_err(|d| Diagnostics(vec![d]))?;
            }
            self.done = true;
            return Ok(());
        }
        if let Some(text) = marker {
            self.stage_unchecked(Path::new(MARKER), |f| {
                f.write_all(text.as_bytes()).map_err(Fill::from)
            })
            .map_err(|d| Diagnostics(vec![d]))?;
        }
        let journal = Journal {
            rename: self
                .staged
                .get_mut()
                .expect("not poisoned")
                .iter()
                .map(|p| path_text(p))
                .collect(),
            remove: remove.iter().map(|p| path_text(p)).collect(),
        };
        if journal.rename.is_empty() && journal.remove.is_empty() {
            self.done = true;
            return Ok(());
        }
        // Until the journal is in place a failure abandons the change (see `Drop`).
        journal.write(self.out).map_err(|d| Diagnostics(vec![d]))?;
        self.done = true;
        let _applying = gate.map(|g| g.write().unwrap_or_else(|e| e.into_inner()));
        journal.apply(self.out).map_err(|d| Diagnostics(vec![d]))
    }
}

impl Drop for Transaction<'_> {
    /// An abandoned change: its staged files and the folders it made go, so the output is
    /// the previous build.
    fn drop(&mut self) {
        if self.done {
            return;
        }
        let staged = std::mem::take(self.staged.get_mut().expect("not poisoned"));
        for rel in staged {
            let _ = std::fs::remove_file(self.staged_path(&rel));
        }
        let made = self.made.get_mut().expect("not poisoned");
        for rel in made.iter().rev() {
            let _ = std::fs::remove_dir(self.out.join(rel));
        }
    }
}

/// Creates the file `path` and writes it through a buffer with `fill`: an I/O error of the
/// file itself, or else the diagnostic of the source `fill` reads from.
fn write_file(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    faults::before_write()?;
    std::fs::File::create(path)?.write_all(bytes)
}

pub(super) fn fill_file(
    path: &Path,
    fill: impl FnOnce(&mut dyn Write) -> Result<(), Fill>,
) -> std::io::Result<Result<(), Diagnostic>> {
    faults::before_write()?;
    let mut to = std::io::BufWriter::with_capacity(64 << 10, std::fs::File::create(path)?);
    match fill(&mut to) {
        Ok(()) => {}
        Err(Fill::Source(d)) => return Ok(Err(d)),
        Err(Fill::Write(e)) => return Err(e),
    }
    to.into_inner().map_err(|e| e.into_error())?;
    Ok(Ok(()))
}

/// Why filling a staged file failed: writing it, or reading what goes into it.
#[derive(Debug)]
pub enum Fill {
    Write(std::io::Error),
    Source(Diagnostic),
}

impl From<std::io::Error> for Fill {
    fn from(e: std::io::Error) -> Self {
        Fill::Write(e)
    }
}

fn not_a_folder(path: &Path) -> Diagnostic {
    Diagnostic::new(
        "output.not-a-folder",
        format!(
            "cannot write into {}: it is not a folder (a symbolic link or a file docgen did not make)",
            path.display()
        ),
    )
    .hint("remove it from the output folder; docgen makes no links and will not write through one")
}

fn path_text(rel: &Path) -> String {
    rel.to_string_lossy().into_owned()
}

/// What a committed change does, in order.
#[derive(serde::Serialize, serde::Deserialize)]
struct Journal {
    /// Files whose staged content replaces them (the marker last).
    rename: Vec<String>,
    /// Files of the previous build that are no longer part of the output.
    remove: Vec<String>,
}

impl Journal {
    /// Writes the journal aside and renames it into place: the commit.
    fn write(&self, out: &Path) -> Result<(), Diagnostic> {
        let path = out.join(JOURNAL);
        let tmp = staging_path(&path);
        let text = serde_json::to_vec(self).expect("serializable");
        faults::before_write()
            .and_then(|()| std::fs::write(&tmp, &text))
            .and_then(|()| faults::before_rename())
            .and_then(|()| std::fs::rename(&tmp, &path))
            .map_err(|e| {
                let _ = std::fs::remove_file(&tmp);
                io_error(&path, e)
            })
    }

    fn read(out: &Path) -> Option<Result<Journal, Diagnostic>> {
        let path = out.join(JOURNAL);
        let meta = std::fs::symlink_metadata(&path).ok()?;
        let unreadable = |why: String| {
            Diagnostic::new(
                "output.journal",
                format!(
                    "cannot finish the interrupted build of {}: {why}",
                    out.display()
                ),
            )
            .hint(format!(
                "the output folder is partly old and partly new: delete it and build again \
                 (it holds {JOURNAL})"
            ))
        };
        if !meta.is_file() {
            return Some(Err(unreadable(format!("{JOURNAL} is not a file"))));
        }
        Some(
            std::fs::read(&path)
                .map_err(|e| unreadable(e.to_string()))
                .and_then(|bytes| {
                    serde_json::from_slice(&bytes).map_err(|e| unreadable(e.to_string()))
                }),
        )
    }

    /// Renames, removes, then drops the journal. Every step can run twice: a crash here is
    /// finished by the next run.
    fn apply(&self, out: &Path) -> Result<(), Diagnostic> {
        use rayon::prelude::*;
        let (marker, files): (Vec<&String>, Vec<&String>) = self
            .rename
            .iter()
            .partition(|rel| Path::new(rel) == Path::new(MARKER));
        let rename = |rel: &&String| -> Result<(), Diagnostic> {
            let path = out.join(rel.as_str());
            let tmp = staging_path(&path);
            if std::fs::symlink_metadata(&tmp).is_err() {
                return Ok(()); // renamed by a run that was interrupted
            }
            faults::before_rename()
                .and_then(|()| std::fs::rename(&tmp, &path))
                .map_err(|e| io_error(&path, e))
        };
        // The files in parallel (renames are independent), the marker after them.
        files
            .par_iter()
            .filter(|rel| super::guard::is_confined(Path::new(rel.as_str())))
            .try_for_each(rename)?;
        let mut remove: Vec<&Path> = self
            .remove
            .iter()
            .map(Path::new)
            .filter(|rel| super::guard::is_confined(rel))
            .collect();
        remove.sort_by_key(|rel| std::cmp::Reverse(rel.components().count()));
        for rel in remove {
            faults::before_remove().map_err(|e| io_error(&out.join(rel), e))?;
            super::remove_written(out, rel);
        }
        marker.iter().try_for_each(rename)?;
        let journal = out.join(JOURNAL);
        faults::before_remove()
            .and_then(|()| std::fs::remove_file(&journal))
            .map_err(|e| io_error(&journal, e))
    }
}

/// Brings the output folder `out` to one whole build after whatever stopped the last writer:
/// finishes a committed change, removes staging files and the folders only they needed, and
/// refuses a folder holding a symbolic link (docgen makes none and writes through none).
/// Runs under the folder's lock, before anything else writes it.
pub fn recover(out: &Path) -> Result<(), Diagnostic> {
    super::siblings::recover(out)?;
    // A folder docgen did not make is replaced whole (with --force), never written into.
    if !super::guard::is_ours(out) {
        return Ok(());
    }
    if let Some(journal) = Journal::read(out) {
        journal?.apply(out)?;
    }
    let mut leftovers = Vec::new();
    for entry in walkdir::WalkDir::new(out).min_depth(1) {
        let entry = entry.map_err(|e| {
            Diagnostic::new(
                "io.read",
                format!("cannot read the output folder {}: {e}", out.display()),
            )
            .hint("check the output folder's permissions")
        })?;
        if entry.path_is_symlink() {
            return Err(Diagnostic::new(
                "output.link",
                format!(
                    "the output folder holds a symbolic link, {}, which docgen did not make",
                    entry.path().display()
                ),
            )
            .hint(
                "remove the link (docgen neither writes through nor deletes one), or build \
                 into another folder with --out",
            ));
        }
        if entry.file_type().is_file() && is_staging_name(&entry.file_name().to_string_lossy()) {
            leftovers.push(entry.into_path());
        }
    }
    let mut emptied = BTreeSet::new();
    for file in leftovers {
        std::fs::remove_file(&file).map_err(|e| io_error(&file, e))?;
        if let Some(parent) = file.parent() {
            emptied.insert(parent.to_path_buf());
        }
    }
    // Deepest first: a folder made for staged files alone is empty once they are gone.
    for dir in emptied.iter().rev() {
        super::remove_empty_folders(out, dir);
    }
    Ok(())
}

/// Failures injected into the file operations of an output change, so tests can stop a build
/// at every step: `DOCGEN_FAULT=crash@N` ends the process (as a `kill -9` would) before the
/// N-th operation (counted from 1), `DOCGEN_FAULT=full@N` makes the N-th write and every
/// later one fail as on a full disk. Without the variable each check is one relaxed load.
pub mod faults {
    use std::sync::OnceLock;
    use std::sync::atomic::{AtomicU64, Ordering};

    enum Fault {
        Crash(u64),
        Full(u64),
    }

    fn fault() -> Option<&'static Fault> {
        static FAULT: OnceLock<Option<Fault>> = OnceLock::new();
        FAULT
            .get_or_init(|| {
                let spec = std::env::var("DOCGEN_FAULT").ok()?;
                let (kind, at) = spec.split_once('@')?;
                let at = at.parse().ok()?;
                match kind {
                    "crash" => Some(Fault::Crash(at)),
                    "full" => Some(Fault::Full(at)),
                    _ => None,
                }
            })
            .as_ref()
    }

    static OPERATIONS: AtomicU64 = AtomicU64::new(0);

    fn step(is_write: bool) -> std::io::Result<()> {
        let Some(fault) = fault() else {
            return Ok(());
        };
        let n = OPERATIONS.fetch_add(1, Ordering::SeqCst) + 1;
        match *fault {
            Fault::Crash(at) if n >= at => std::process::abort(),
            Fault::Full(at) if is_write && n >= at => {
                Err(std::io::Error::from_raw_os_error(28)) // ENOSPC
            }
            _ => Ok(()),
        }
    }

    pub fn before_write() -> std::io::Result<()> {
        step(true)
    }

    pub fn before_rename() -> std::io::Result<()> {
        step(false)
    }

    pub fn before_remove() -> std::io::Result<()> {
        step(false)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn files(dir: &Path) -> Vec<(String, String)> {
        let mut list: Vec<(String, String)> = walkdir::WalkDir::new(dir)
            .min_depth(1)
            .into_iter()
            .map(|e| e.unwrap())
            .map(|e| {
                let rel = e
                    .path()
                    .strip_prefix(dir)
                    .unwrap()
                    .to_string_lossy()
                    .into_owned();
                let text = if e.file_type().is_file() {
                    std::fs::read_to_string(e.path()).unwrap()
                } else {
                    "/".into()
                };
                (rel, text)
            })
            .collect();
        list.sort();
        list
    }

    fn old_build() -> tempfile::TempDir {
        let tmp = tempfile::tempdir().unwrap();
        std::fs::create_dir_all(tmp.path().join("a")).unwrap();
        std::fs::write(tmp.path().join("a/index.html"), "old a").unwrap();
        std::fs::write(tmp.path().join("gone.html"), "old gone").unwrap();
        std::fs::write(tmp.path().join(MARKER), "old marker").unwrap();
        tmp
    }

    #[test]
    fn a_committed_change_is_the_new_build() {
        let tmp = old_build();
        let out = tmp.path();
        let t = Transaction::begin(out);
        t.stage(Path::new("a/index.html"), b"new a").unwrap();
        t.stage(Path::new("b/c/index.html"), b"new c").unwrap();
        t.commit(&[PathBuf::from("gone.html")], Some("new marker"), None)
            .unwrap();
        let expect: Vec<(String, String)> = [
            (MARKER, "new marker"),
            ("a", "/"),
            ("a/index.html", "new a"),
            ("b", "/"),
            ("b/c", "/"),
            ("b/c/index.html", "new c"),
        ]
        .into_iter()
        .map(|(a, b)| (a.to_string(), b.to_string()))
        .collect();
        assert_eq!(files(out), expect);
    }

    #[test]
    fn an_abandoned_change_leaves_the_old_build() {
        let tmp = old_build();
        let out = tmp.path();
        let before = files(out);
        let t = Transaction::begin(out);
        t.stage(Path::new("a/index.html"), b"new a").unwrap();
        t.stage(Path::new("b/c/index.html"), b"new c").unwrap();
        drop(t);
        assert_eq!(files(out), before);
    }

    #[test]
    fn a_journal_left_by_a_crash_is_finished_and_leftovers_are_removed() {
        let tmp = old_build();
        let out = tmp.path();
        let t = Transaction::begin(out);
        t.stage(Path::new("a/index.html"), b"new a").unwrap();
        // Committed, then stopped before applying: the journal is in place.
        let journal = Journal {
            rename: vec!["a/index.html".into()],
            remove: vec!["gone.html".into()],
        };
        journal.write(out).unwrap();
        std::mem::forget(t);
        // A staging file of some other, uncommitted change.
        std::fs::create_dir_all(out.join("new/deep")).unwrap();
        std::fs::write(staging_path(&out.join("new/deep/index.html")), "x").unwrap();
        recover(out).unwrap();
        let names: Vec<String> = files(out).into_iter().map(|(n, _)| n).collect();
        assert_eq!(names, [MARKER, "a", "a/index.html"]);
        assert_eq!(
            std::fs::read_to_string(out.join("a/index.html")).unwrap(),
            "new a"
        );
        // Finishing twice changes nothing.
        recover(out).unwrap();
        assert_eq!(files(out).len(), 3);
    }

    #[test]
    fn a_link_in_the_output_is_neither_followed_nor_deleted() {
        let tmp = old_build();
        let elsewhere = tempfile::tempdir().unwrap();
        let out = tmp.path();
        std::os::unix::fs::symlink(elsewhere.path(), out.join("b")).unwrap();
        let e = recover(out).unwrap_err();
        assert_eq!(e.code, "output.link");
        assert!(out.join("b").is_symlink());
        let t = Transaction::begin(out);
        let e = t.stage(Path::new("b/index.html"), b"x").unwrap_err();
        assert_eq!(e.code, "output.not-a-folder");
        drop(t);
        assert!(
            std::fs::read_dir(elsewhere.path())
                .unwrap()
                .next()
                .is_none()
        );
    }
}
