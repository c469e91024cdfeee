//! What a previous build left: `output::write` brings it up to date by staging only the files
//! whose bytes changed (see `OutputState::adopt`).
//!
//! What the previous build wrote is listed in the marker file (`.docgen-output`): each file's
//! digest and size. A file whose size differs on disk, or that was modified after the marker
//! was written, is written again, so a hand-edited output is repaired.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::time::SystemTime;

use super::guard::{MARKER, MARKER_TEXT};

/// A written file: the digest and length of its bytes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Written {
    pub digest: u64,
    pub size: u64,
}

/// The digest of a file whose bytes are not known (a write of it failed): never a real one's.
pub const UNKNOWN: Written = Written { digest: 0, size: 0 };

impl Written {
    pub fn of(bytes: &[u8]) -> Self {
        Written {
            digest: super::digest(bytes),
            size: bytes.len() as u64,
        }
    }
}

/// Every file of a build, by path relative to the output folder.
#[derive(Debug, Default, PartialEq)]
pub struct Manifest(pub BTreeMap<PathBuf, Written>);

const HEADER: &str = "# digest size path, one line per file docgen wrote\n";

impl Manifest {
    /// The marker's text: a sentence for people, then the list (sorted, so deterministic).
    pub fn marker_text(&self) -> String {
        let mut text = String::with_capacity(MARKER_TEXT.len() + self.0.len() * 64);
        text.push_str(MARKER_TEXT);
        text.push_str(HEADER);
        for (path, w) in &self.0 {
            text.push_str(&format!(
                "{:016x} {} {}\n",
                w.digest,
                w.size,
                path.display()
            ));
        }
        text
    }

    /// The list in the marker of `out`, if it has one that reads back completely.
    pub fn read(out: &Path) -> Option<(Manifest, SystemTime)> {
        let path = out.join(MARKER);
        let written_at = std::fs::metadata(&path).ok()?.modified().ok()?;
        let text = std::fs::read_to_string(&path).ok()?;
        let (_, list) = text.split_once(HEADER)?;
        let mut files = BTreeMap::new();
        for line in list.lines() {
            let mut parts = line.splitn(3, ' ');
            let digest = u64::from_str_radix(parts.next()?, 16).ok()?;
            let size = parts.next()?.parse().ok()?;
            let rel = PathBuf::from(parts.next()?);
            if !super::guard::is_confined(&rel) {
                return None;
            }
            files.insert(rel, Written { digest, size });
        }
        Some((Manifest(files), written_at))
    }
}

/// Whether the file on disk is still what the manifest says was written.
pub(super) fn unchanged_on_disk(
    out: &Path,
    rel: &Path,
    was: &Written,
    marked_at: SystemTime,
) -> bool {
    std::fs::symlink_metadata(out.join(rel)).is_ok_and(|m| {
        m.is_file() && m.len() == was.size && m.modified().is_ok_and(|t| t <= marked_at)
    })
}
