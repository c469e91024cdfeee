//! Path rules every stage shares: how a path is resolved, the marker of docgen's output
//! folders, and which relative paths stay inside an output folder. The content reader skips
//! output folders and the checks refuse escaping paths before the output stage exists, so these
//! live here rather than in `output`.

use std::path::{Component, Path, PathBuf};

/// Where the file `name` (a path under `static/` or `content/`) with these bytes is published.
/// The content reader names a page's files so before the model gathers the site's assets.
pub fn hashed_name(name: &str, bytes: &[u8]) -> String {
    use sha2::{Digest, Sha256};
    published_name(name, &short_hash(&Sha256::digest(bytes)))
}

/// The part of a published name that changes with the bytes: the start of their digest.
pub fn short_hash(digest: &[u8]) -> String {
    digest.iter().take(5).map(|b| format!("{b:02x}")).collect()
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
