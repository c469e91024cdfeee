//! URL paths: decoding them into paths inside the output folder, and writing them back into
//! a `Location` that can only lead to this site.

use std::fs::{File, Metadata};
use std::path::{Component, Path, PathBuf};

/// Percent-decodes a URL path; `None` for anything that could leave the output folder
/// (`..` segments, encoded or not, backslashes, NUL).
pub fn decode_path(path: &str) -> Option<String> {
    let decoded = crate::markdown::links::percent_decode(path);
    if decoded.contains('\0') || decoded.contains('\\') {
        return None;
    }
    if Path::new(&decoded)
        .components()
        .any(|c| matches!(c, Component::ParentDir))
    {
        return None;
    }
    Some(decoded)
}

/// The file for a URL path: the file itself, or a folder's `index.html`; only inside `out`,
/// through no symbolic link. Every component below `out` is looked at without following
/// links, so a link planted in the output folder is never followed, wherever it points.
pub fn resolve(out: &Path, path: &str) -> Option<PathBuf> {
    let mut candidate = out.to_path_buf();
    for component in Path::new(path.trim_start_matches('/')).components() {
        match component {
            Component::Normal(name) => {
                candidate.push(name);
                if std::fs::symlink_metadata(&candidate).ok()?.is_symlink() {
                    return None;
                }
            }
            Component::CurDir => {}
            // `..`, a root or a drive prefix: nothing that could lead out is walked.
            Component::ParentDir | Component::RootDir | Component::Prefix(_) => return None,
        }
    }
    if std::fs::symlink_metadata(&candidate).ok()?.is_dir() {
        candidate.push("index.html");
    }
    std::fs::symlink_metadata(&candidate)
        .ok()?
        .is_file()
        .then_some(candidate)
}

/// Opens the file `resolve` finds, and checks that what was opened is that very file: a
/// component swapped for a link between the check and the open is refused too.
pub fn open(out: &Path, path: &str) -> Option<(PathBuf, File, Metadata)> {
    let file_path = resolve(out, path)?;
    let file = File::open(&file_path).ok()?;
    let opened = file.metadata().ok()?;
    let there = std::fs::symlink_metadata(&file_path).ok()?;
    (opened.is_file() && same_file(&opened, &there)).then_some((file_path, file, opened))
}

#[cfg(unix)]
fn same_file(a: &Metadata, b: &Metadata) -> bool {
    use std::os::unix::fs::MetadataExt;
    a.dev() == b.dev() && a.ino() == b.ino()
}

#[cfg(not(unix))]
fn same_file(_: &Metadata, b: &Metadata) -> bool {
    b.is_file()
}

/// Whether a decoded path stays on this site once sent as a `Location`: one `/` and then
/// anything but another `/` or a `\` (browsers read `//host` and `/\host` as another host),
/// and no control characters (they would end the header).
pub fn is_same_site(path: &str) -> bool {
    let mut chars = path.chars();
    chars.next() == Some('/')
        && !matches!(chars.next(), Some('/' | '\\'))
        && !path.chars().any(|c| c == '\\' || c.is_control())
}

/// Percent-encodes a decoded path for a `Location`: everything but unreserved characters,
/// `/` and the sub-delimiters RFC 3986 allows in a path.
pub fn encode_path(path: &str) -> String {
    encode(path, |b| {
        b.is_ascii_alphanumeric() || b"-._~/!$&'()*+,;=:@".contains(&b)
    })
}

/// Keeps a query string as sent, percent-encoding only what a header may not carry.
pub fn encode_query(query: &str) -> String {
    encode(query, |b| b.is_ascii_graphic())
}

fn encode(text: &str, keep: impl Fn(u8) -> bool) -> String {
    let mut out = String::with_capacity(text.len());
    for b in text.bytes() {
        if keep(b) {
            out.push(b as char);
        } else {
            out.push_str(&format!("%{b:02X}"));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn traversal_is_refused_encoded_or_not() {
        assert_eq!(decode_path("/a/b"), Some("/a/b".into()));
        assert_eq!(decode_path("/a%20b"), Some("/a b".into()));
        assert!(decode_path("/../etc/passwd").is_none());
        assert!(decode_path("/a/%2e%2e/%2e%2e/etc/passwd").is_none());
        assert!(decode_path("/a/..%2f..%2fetc").is_none());
        assert!(decode_path("/a%5c..%5csecret").is_none());
    }

    #[cfg(unix)]
    #[test]
    fn no_symbolic_link_in_the_output_is_followed() {
        let tmp = tempfile::tempdir().unwrap();
        let out = tmp.path().join("out");
        std::fs::create_dir_all(out.join("docs/real")).unwrap();
        std::fs::write(out.join("docs/real/index.html"), "page").unwrap();
        std::fs::write(out.join("inside.txt"), "inside").unwrap();
        std::fs::write(tmp.path().join("secret.txt"), "secret").unwrap();
        let link = |to: &Path, at: &str| std::os::unix::fs::symlink(to, out.join(at)).unwrap();
        link(&tmp.path().join("secret.txt"), "leak.txt");
        link(tmp.path(), "up");
        link(&out.join("inside.txt"), "alias.txt");
        link(&out.join("docs/real"), "docs/alias");
        assert_eq!(
            resolve(&out, "/docs/real/"),
            Some(out.join("docs/real/index.html"))
        );
        assert_eq!(resolve(&out, "/./inside.txt"), Some(out.join("inside.txt")));
        assert!(open(&out, "/inside.txt").is_some());
        for refused in [
            "/leak.txt",
            "/up/secret.txt",
            "/up/out/inside.txt",
            "/alias.txt",
            "/docs/alias",
            "/docs/alias/index.html",
            "/docs/../inside.txt",
            "/docs",
        ] {
            assert!(resolve(&out, refused).is_none(), "{refused}");
            assert!(open(&out, refused).is_none(), "{refused}");
        }
    }

    #[test]
    fn only_paths_of_this_site_are_same_site() {
        for good in ["/", "/docs", "/docs/guide/start", "/%2F", "/a b"] {
            assert!(is_same_site(good), "{good}");
        }
        for bad in [
            "",
            "//evil.example/x",
            "/\\evil.example",
            "\\evil.example",
            "http://evil.example",
            "evil.example",
            "/x\r\nSet-Cookie: a=1",
            "/x\0",
            "/a\\b",
        ] {
            assert!(!is_same_site(bad), "{bad:?}");
        }
    }

    #[test]
    fn encoding_leaves_nothing_a_header_or_a_browser_would_misread() {
        assert_eq!(encode_path("/docs/a b/ü"), "/docs/a%20b/%C3%BC");
        assert_eq!(encode_path("/x\r\n?#%"), "/x%0D%0A%3F%23%25");
        assert_eq!(encode_query("x=1&y=%20"), "x=1&y=%20");
        assert_eq!(encode_query("x=\r\n é"), "x=%0D%0A%20%C3%A9");
    }
}
