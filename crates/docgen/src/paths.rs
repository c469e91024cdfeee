//! Path rules every stage shares: how a path is resolved, the marker of docgen's output
//! folders, and which relative paths stay inside an output folder. The content reader skips
//! output folders and the checks refuse escaping paths before the output stage exists, so these
//! live here rather than in `output`.

use std::path::{Component, Path, PathBuf};

/// Where the file `name` (a path under `static/` or `content/`) with these bytes is published.
/// The content reader names a page's files so before the model gathers the site's assets.
pub fn hashed_name(name: &str, bytes: &[u8]) -> String {
    published_name(name, &content_hash(bytes))
}

/// The part of a content-hashed file name that changes with its bytes (assets, menu shards,
/// search files): ten hex digits of their XXH3 hash.
///
/// It only has to change when the bytes do, so that a CDN may keep the file forever; it guards
/// nothing against a forger. XXH3 is why: SHA-256 on a CPU without SHA instructions hashed
/// the search index's files at a tenth of the speed, on one core at the end of every build.
pub fn content_hash(bytes: &[u8]) -> String {
    let mut hasher = ContentHasher::new();
    hasher.update(bytes);
    hasher.finish()
}

/// `content_hash` of bytes that come in parts (a large file read a buffer at a time, many
/// files named by one hash of them all).
pub struct ContentHasher(xxhash_rust::xxh3::Xxh3);

impl ContentHasher {
    pub fn new() -> Self {
        ContentHasher(xxhash_rust::xxh3::Xxh3::new())
    }

    pub fn update(&mut self, bytes: &[u8]) {
        self.0.update(bytes);
    }

    /// The hash of every part given so far, as `content_hash` gives it.
    pub fn finish(&self) -> String {
        let digest = self.0.digest128().to_be_bytes();
        digest.iter().take(5).map(|b| format!("{b:02x}")).collect()
    }
}

impl Default for ContentHasher {
    fn default() -> Self {
        Self::new()
    }
}

/// The published name of the file `name` whose bytes hash to `hash`.
pub fn published_name(name: &str, hash: &str) -> String {
    match name.rsplit_once('.') {
        Some((stem, ext)) if !stem.is_empty() && !stem.ends_with('/') => {
            format!("s/{stem}.{hash}.{ext}")
        }
        _ => format!("s/{name}.{hash}"),
    }
}

/// The file that marks a folder as docgen's output, so a later build may replace it.
pub const MARKER: &str = ".docgen-output";

/// A path made absolute, with every symbolic link and `..` of its existing part resolved and
/// the rest normalised by its spelling, so `x/../site` and a link to `site` compare equal.
pub fn resolve(path: &Path) -> PathBuf {
    let absolute = std::path::absolute(path).unwrap_or_else(|_| path.to_path_buf());
    let mut resolved = PathBuf::new();
    for component in absolute.components() {
        match component {
            Component::Prefix(_) | Component::RootDir => resolved.push(component),
            Component::CurDir => {}
            Component::ParentDir => {
                resolved.pop();
            }
            Component::Normal(name) => {
                resolved.push(name);
                if let Ok(real) = resolved.canonicalize() {
                    resolved = real;
                }
            }
        }
    }
    resolved
}

/// Whether a relative output path stays inside the output folder: only plain names, none of
/// them empty, `.` or `..`, and never the marker.
pub fn is_confined(rel: &Path) -> bool {
    let mut names = 0;
    for c in rel.components() {
        match c {
            Component::Normal(name) if !name.is_empty() => names += 1,
            _ => return false,
        }
    }
    names > 0 && rel != Path::new(MARKER) && !rel.to_string_lossy().contains('\\')
}
