//! What a previous build left: `output::write` brings it up to date by staging only the files
//! whose bytes changed (see `OutputState::adopt`).
//!
//! What the previous build wrote is listed in the marker file (`.docgen-output`): each file's
//! digest and size. A file whose size differs on disk, or that was modified after the marker
//! was written, is written again, so a hand-edited output is repaired.

use rayon::slice::ParallelSliceMut;
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

/// Takes the digest and size of the bytes written to it, a block at a time, so the digest is
/// that of the bytes however they were cut into writes (`Written::streamed`).
struct Digesting {
    hasher: rustc_hash::FxHasher,
    block: Vec<u8>,
    size: u64,
}

impl Digesting {
    const BLOCK: usize = 64 << 10;
}

impl std::io::Write for Digesting {
    fn write(&mut self, mut buf: &[u8]) -> std::io::Result<usize> {
        let n = buf.len();
        self.size += n as u64;
        while !buf.is_empty() {
            let take = (Self::BLOCK - self.block.len()).min(buf.len());
            self.block.extend_from_slice(&buf[..take]);
            buf = &buf[take..];
            if self.block.len() == Self::BLOCK {
                std::hash::Hasher::write(&mut self.hasher, &self.block);
                self.block.clear();
            }
        }
        Ok(n)
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
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

    /// What `write` writes, never held whole. Its digest is not `of`'s: a file is always
    /// taken the same one of the two ways (a streamed file's bytes, when held, are given to
    /// `streamed` too).
    pub fn streamed(
        write: impl FnOnce(&mut dyn std::io::Write) -> std::io::Result<()>,
    ) -> std::io::Result<Self> {
        let mut d = Digesting {
            hasher: rustc_hash::FxHasher::default(),
            block: Vec::with_capacity(Digesting::BLOCK),
            size: 0,
        };
        write(&mut d)?;
        std::hash::Hasher::write(&mut d.hasher, &d.block);
        Ok(Written {
            digest: std::hash::Hasher::finish(&d.hasher),
            size: d.size,
        })
    }
}

/// Every file of a build, by path relative to the output folder, and what its pages were
/// rendered from.
#[derive(Debug, Default, PartialEq)]
pub struct Manifest {
    pub files: BTreeMap<PathBuf, Written>,
    pub renders: Renders,
}

/// What the pages of a build were rendered from, so the next build over its output renders only
/// the pages whose view changed (`Renderer::page_fingerprint`) and makes the search index again
/// only when what it is made from changed.
#[derive(Debug, Default, Clone, PartialEq)]
pub struct Renders {
    /// The fingerprint every page shares (`Renderer::global_fingerprint`); 0 when unknown.
    pub global: u64,
    /// The key of the search index the folder holds (`search::Plan::key`), when it holds one
    /// made for its pages as they are.
    pub search: Option<u64>,
    /// Each written route's render fingerprint.
    pub pages: BTreeMap<String, u64>,
    /// Each earlier version's folder and the key its files were made from
    /// (`versions::Older::key`).
    pub older: BTreeMap<String, u64>,
}

/// A marker as read: its lists, when it was written, and its text.
pub type Marker = (Manifest, SystemTime, String);

const HEADER: &str = "# digest size path, one line per file docgen wrote\n";
/// Starts the part of the marker that lists what each page was rendered from.
const RENDERS_HEADER: &str = "# fingerprint route, what each page was rendered from; global ";
/// Starts the line of an earlier version's key (a route starts with `/`).
const OLDER: &str = "older ";

impl Manifest {
    /// The marker's text: a sentence for people, then the lists (sorted, so deterministic).
    pub fn marker_text(&self) -> String {
        let r = &self.renders;
        marker_text_of(
            self.files.iter().map(|(p, w)| (p.as_path(), *w)).collect(),
            (r.global, r.search),
            r.pages
                .iter()
                .map(|(route, fp)| (route.as_str(), *fp))
                .collect(),
            r.older
                .iter()
                .map(|(folder, key)| (folder.as_str(), *key))
                .collect(),
        )
    }

    /// The lists in the marker of `out`, if it has one that reads back completely.
    pub fn read(out: &Path) -> Option<Marker> {
        let path = out.join(MARKER);
        let written_at = std::fs::metadata(&path).ok()?.modified().ok()?;
        let text = std::fs::read_to_string(&path).ok()?;
        let (_, lists) = text.split_once(HEADER)?;
        let (list, renders) = match lists.split_once(RENDERS_HEADER) {
            Some((list, renders)) => (list, Some(renders)),
            None => (lists, None),
        };
        // Listed in order: collected at once (inserted one by one, each path is compared part
        // by part all the way down the tree).
        let mut files = Vec::new();
        for line in list.lines() {
            let mut parts = line.splitn(3, ' ');
            let digest = u64::from_str_radix(parts.next()?, 16).ok()?;
            let size = parts.next()?.parse().ok()?;
            let rel = PathBuf::from(parts.next()?);
            if !super::guard::is_confined(&rel) {
                return None;
            }
            files.push((rel, Written { digest, size }));
        }
        let files: BTreeMap<PathBuf, Written> = files.into_iter().collect();
        // A list of renders that does not read back is only a lost shortcut: every page is
        // rendered again.
        let renders = renders.and_then(read_renders).unwrap_or_default();
        Some((Manifest { files, renders }, written_at, text))
    }
}

/// The marker's text for `files` and what the pages were rendered from (`global`, the search
/// index's key and each route's fingerprint), each list sorted here: a large site's lists are
/// not copied to be sorted.
pub fn marker_text_of(
    mut files: Vec<(&Path, Written)>,
    (global, search): (u64, Option<u64>),
    mut pages: Vec<(&str, u64)>,
    mut older: Vec<(&str, u64)>,
) -> String {
    use std::fmt::Write;
    files.par_sort_unstable_by(|a, b| path_order(a.0, b.0));
    pages.sort_unstable();
    older.sort_unstable();
    let mut text = String::with_capacity(MARKER_TEXT.len() + files.len() * 64 + pages.len() * 48);
    text.push_str(MARKER_TEXT);
    text.push_str(HEADER);
    for (path, w) in &files {
        let _ = writeln!(text, "{:016x} {} {}", w.digest, w.size, path.display());
    }
    if global != 0 {
        let search = search.map_or("-".to_string(), |k| format!("{k:016x}"));
        let _ = writeln!(text, "{RENDERS_HEADER}{global:016x} search {search}");
        for (folder, key) in &older {
            let _ = writeln!(text, "{OLDER}{key:016x} {folder}");
        }
        for (route, fp) in &pages {
            let _ = writeln!(text, "{fp:016x} {route}");
        }
    }
    text
}

/// `Path`'s order (part by part) for the paths a build writes (relative, no `.` or `..` parts,
/// no doubled or trailing `/`), as bytes with `/` before every other byte: a large site's list
/// sorts several times faster than with `Path::cmp`, which parses the parts of every pair.
pub(super) fn path_order(a: &Path, b: &Path) -> std::cmp::Ordering {
    let (a, b) = (
        a.as_os_str().as_encoded_bytes(),
        b.as_os_str().as_encoded_bytes(),
    );
    let same = a.iter().zip(b).take_while(|(x, y)| x == y).count();
    let rank = |c: Option<&u8>| c.map(|&c| if c == b'/' { 0 } else { u16::from(c) + 1 });
    rank(a.get(same)).cmp(&rank(b.get(same)))
}

/// The renders' part of a marker, after its header.
fn read_renders(text: &str) -> Option<Renders> {
    let mut lines = text.lines();
    let mut head = lines.next()?.split(' ');
    let global = u64::from_str_radix(head.next()?, 16).ok()?;
    let search = match (head.next()?, head.next()?) {
        ("search", "-") => None,
        ("search", key) => Some(u64::from_str_radix(key, 16).ok()?),
        _ => return None,
    };
    let mut pages = BTreeMap::new();
    let mut older = BTreeMap::new();
    for line in lines {
        if let Some(version) = line.strip_prefix(OLDER) {
            let (key, folder) = version.split_once(' ')?;
            older.insert(folder.to_string(), u64::from_str_radix(key, 16).ok()?);
            continue;
        }
        let (fp, route) = line.split_once(' ')?;
        pages.insert(route.to_string(), u64::from_str_radix(fp, 16).ok()?);
    }
    Some(Renders {
        global,
        search,
        pages,
        older,
    })
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paths_sort_part_by_part() {
        let mut paths: Vec<PathBuf> = [
            "a-b/index.html",
            "a/index.html",
            "a/b/c.html",
            "a.b",
            "a",
            "ab/c",
            "a b/x",
            "a/b",
            "_docgen/search/s/10.f.json",
            "_docgen/search/s/1.f.json",
            "é/x",
            "z",
        ]
        .iter()
        .map(PathBuf::from)
        .collect();
        let mut by_parts = paths.clone();
        by_parts.sort();
        paths.sort_by(|a, b| path_order(a, b));
        assert_eq!(paths, by_parts);
    }

    #[test]
    fn the_marker_reads_back_what_it_lists() {
        let tmp = tempfile::tempdir().unwrap();
        let mut manifest = Manifest::default();
        manifest.files.insert(
            PathBuf::from("a b/index.html"),
            Written {
                digest: 0xfeed,
                size: 12,
            },
        );
        manifest.renders = Renders {
            global: 0xabc,
            search: Some(7),
            pages: [("/a b".to_string(), 42), ("/".to_string(), u64::MAX)]
                .into_iter()
                .collect(),
            older: [("12.x".to_string(), 9)].into_iter().collect(),
        };
        std::fs::write(tmp.path().join(MARKER), manifest.marker_text()).unwrap();
        assert_eq!(Manifest::read(tmp.path()).unwrap().0, manifest);

        manifest.renders.search = None;
        std::fs::write(tmp.path().join(MARKER), manifest.marker_text()).unwrap();
        assert_eq!(Manifest::read(tmp.path()).unwrap().0, manifest);

        // Without renders (an earlier docgen's marker) the files still read.
        manifest.renders = Renders::default();
        let text = manifest.marker_text();
        assert!(!text.contains(RENDERS_HEADER));
        std::fs::write(tmp.path().join(MARKER), &text).unwrap();
        assert_eq!(Manifest::read(tmp.path()).unwrap().0, manifest);

        // A damaged list of renders loses the renders only.
        let damaged = format!("{text}{RENDERS_HEADER}zz search -\n");
        std::fs::write(tmp.path().join(MARKER), damaged).unwrap();
        assert_eq!(Manifest::read(tmp.path()).unwrap().0, manifest);
    }
}
