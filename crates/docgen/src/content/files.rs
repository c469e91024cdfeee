//! The files pages refer to that are not pages — images beside a page, downloads, files under
//! `static/` — found, read with the same care as the content, measured, and named by a digest
//! of their bytes.

use std::path::{Component, Path, PathBuf};
use std::sync::Mutex;

use crate::config::Config;
use crate::markdown::{FileProblem, FileResolver, LocalFile};

/// The largest file a page may refer to: larger ones belong on a download server.
pub const MAX_FILE_BYTES: u64 = 32 << 20;

/// Files docgen itself writes at fixed addresses: a page may link to them by their address.
fn written_by_docgen(rel: &str) -> bool {
    rel.starts_with("_docgen/")
        || matches!(
            rel,
            "robots.txt" | "llms.txt" | "llms-full.txt" | "favicon.ico" | "_redirects"
        )
        || (rel.starts_with("sitemap") && rel.ends_with(".xml") && !rel.contains('/'))
}

/// What reading a file once found, by its resolved path and its time and size on disk, so a
/// file many pages show is read once, and read again when it changes.
#[derive(Default)]
pub struct Measured(Mutex<rustc_hash::FxHashMap<PathBuf, (Stamp, Measure)>>);

type Stamp = Option<(std::time::SystemTime, u64)>;

#[derive(Clone)]
struct Measure {
    out_path: String,
    size: Option<(u32, u32)>,
}

/// The time and size of a file on disk (`None` when it cannot be read).
pub fn stamp(path: &Path) -> Stamp {
    std::fs::metadata(path)
        .ok()
        .and_then(|m| Some((m.modified().ok()?, m.len())))
}

/// Resolves the files of one page, written relative to the page's file (`file`, relative to
/// the site root) or from the site's address root, which is `static/`.
pub struct Resolver<'a> {
    pub config: &'a Config,
    pub file: &'a Path,
    pub measured: &'a Measured,
}

impl FileResolver for Resolver<'_> {
    fn page_at_content_root(&self, written: &str) -> bool {
        let path = written.split(['#', '?']).next().unwrap_or("");
        let path = percent_encoding::percent_decode_str(path).decode_utf8_lossy();
        let beside = self
            .config
            .root
            .join(self.file.parent().unwrap_or(Path::new("")));
        if let Some(snapshot) = &self.config.snapshot {
            let holds = |p: PathBuf| {
                let rel = p
                    .strip_prefix(&self.config.root)
                    .unwrap_or(&p)
                    .to_path_buf();
                normalise(Path::new(""), &rel).is_some_and(|r| snapshot.bytes(&r).is_some())
            };
            return !holds(beside.join(&*path)) && holds(self.config.content_dir().join(&*path));
        }
        !beside.join(&*path).is_file() && self.config.content_dir().join(&*path).is_file()
    }

    fn find(&self, written: &str) -> Result<Option<LocalFile>, FileProblem> {
        let root = &self.config.root;
        let (lexical, shown) = if let Some(rel) = written.strip_prefix('/') {
            if written_by_docgen(rel) {
                return Ok(None);
            }
            let static_rel = Path::new("static").join(rel);
            (normalise(root, &static_rel), static_rel)
        } else {
            let dir = self.file.parent().unwrap_or(Path::new(""));
            let joined = dir.join(written);
            (normalise(root, &joined), joined)
        };
        let Some(lexical) = lexical else {
            return Err(FileProblem {
                code: "file.outside",
                message: format!("`{written}` leads outside the site"),
                hint: "refer to a file inside content/ (relative to this page) or static/ (as `/name`)".into(),
            });
        };
        // An earlier version's own files are those of its commit; static/ is the working tree's.
        if let Some(snapshot) = &self.config.snapshot
            && !written.starts_with('/')
        {
            return self.find_in_snapshot(snapshot, written, &lexical, &shown);
        }
        let resolved = match lexical.canonicalize() {
            Ok(p) => p,
            Err(_) => return Err(missing(written, &lexical, root)),
        };
        // Nothing outside the site is published, whatever link leads there (static/ itself
        // may be one).
        if !resolved.starts_with(canonical(root)) {
            return Err(FileProblem {
                code: "file.outside",
                message: format!(
                    "`{written}` ({}) leads outside the site through a symbolic link",
                    shown.display()
                ),
                hint: "move the file into content/ beside the page, or into static/".into(),
            });
        }
        let (static_dir, content_dir) = (
            canonical(&self.config.static_dir()),
            canonical(&self.config.content_dir()),
        );
        // `static/` first: a Hugo-style tree is its own content folder and holds it.
        let (name, from_content) = if let Ok(rel) = resolved.strip_prefix(&static_dir) {
            (rel, false)
        } else if let Ok(rel) = resolved.strip_prefix(&content_dir) {
            (rel, true)
        } else {
            let why = if resolved.starts_with(root) {
                "is neither under content/ nor static/, so it is not published"
            } else {
                "leads outside the site through a symbolic link"
            };
            return Err(FileProblem {
                code: "file.outside",
                message: format!("`{written}` ({}) {why}", shown.display()),
                hint: "move the file into content/ beside the page, or into static/".into(),
            });
        };
        let name = name.to_string_lossy().replace('\\', "/");
        let now = stamp(&resolved);
        if let Some((was, m)) = self.lock().get(&resolved)
            && *was == now
        {
            return Ok(Some(local(written, resolved, from_content, m.clone())));
        }
        let bytes = read_limited(&resolved).map_err(|why| FileProblem {
            code: why.0,
            message: format!("`{written}` ({}) {}", shown.display(), why.1),
            hint: why.2.into(),
        })?;
        let m = Measure {
            out_path: crate::paths::hashed_name(&name, &bytes),
            size: image_size(&name, &bytes),
        };
        self.lock().insert(resolved.clone(), (now, m.clone()));
        Ok(Some(local(written, resolved, from_content, m)))
    }
}

impl Resolver<'_> {
    /// `find` for a page of an earlier version: `lexical` (under the site root) must be a file
    /// of the snapshot's content folder.
    fn find_in_snapshot(
        &self,
        snapshot: &crate::config::source::Snapshot,
        written: &str,
        lexical: &Path,
        shown: &Path,
    ) -> Result<Option<LocalFile>, FileProblem> {
        let root = &self.config.root;
        let rel = lexical.strip_prefix(root).unwrap_or(lexical);
        let content = self.config.content_dir();
        let content_rel = content.strip_prefix(root).unwrap_or(&content);
        let Some(bytes) = snapshot.bytes(rel) else {
            return Err(FileProblem {
                code: "file.missing",
                message: format!(
                    "`{written}` names no file of commit {} (looked for {})",
                    crate::config::source::short(&snapshot.commit),
                    shown.display()
                ),
                hint: "check the path: it is relative to this page's file".into(),
            });
        };
        let Ok(name) = rel.strip_prefix(content_rel) else {
            return Err(FileProblem {
                code: "file.outside",
                message: format!(
                    "`{written}` ({}) is not under content/, so it is not published",
                    shown.display()
                ),
                hint: "move the file into content/ beside the page".into(),
            });
        };
        if bytes.len() as u64 > MAX_FILE_BYTES {
            return Err(FileProblem {
                code: "file.too-large",
                message: format!(
                    "`{written}` is {} MB, more than the {} MB a page may refer to",
                    bytes.len() >> 20,
                    MAX_FILE_BYTES >> 20
                ),
                hint: "make the file smaller, or publish it elsewhere and link to its https:// address".into(),
            });
        }
        let name = name.to_string_lossy().replace('\\', "/");
        let m = Measure {
            out_path: crate::paths::hashed_name(&name, bytes),
            size: image_size(&name, bytes),
        };
        Ok(Some(local(written, lexical.to_path_buf(), true, m)))
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, rustc_hash::FxHashMap<PathBuf, (Stamp, Measure)>> {
        self.measured.0.lock().unwrap_or_else(|e| e.into_inner())
    }
}

fn local(written: &str, source: PathBuf, from_content: bool, m: Measure) -> LocalFile {
    LocalFile {
        written: written.to_string(),
        source,
        out_path: m.out_path,
        from_content,
        size: m.size,
    }
}

fn canonical(p: &Path) -> PathBuf {
    p.canonicalize().unwrap_or_else(|_| p.to_path_buf())
}

/// `root/rel` with `.` and `..` worked out without the file system; `None` when it climbs
/// above `root` or is absolute.
pub fn normalise(root: &Path, rel: &Path) -> Option<PathBuf> {
    let mut parts: Vec<&std::ffi::OsStr> = Vec::new();
    for c in rel.components() {
        match c {
            Component::Normal(s) => parts.push(s),
            Component::CurDir => {}
            Component::ParentDir => {
                parts.pop()?;
            }
            Component::RootDir | Component::Prefix(_) => return None,
        }
    }
    Some(parts.iter().fold(root.to_path_buf(), |p, s| p.join(s)))
}

/// The diagnostic for a path that names no file, with the closest name in its folder.
fn missing(written: &str, lexical: &Path, root: &Path) -> FileProblem {
    let shown = lexical.strip_prefix(root).unwrap_or(lexical);
    let name = lexical
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let siblings: Vec<String> = lexical
        .parent()
        .and_then(|d| std::fs::read_dir(d).ok())
        .map(|entries| {
            entries
                .flatten()
                .filter(|e| e.file_type().is_ok_and(|t| t.is_file()))
                .map(|e| e.file_name().to_string_lossy().into_owned())
                .collect()
        })
        .unwrap_or_default();
    let hint = match crate::diagnostics::did_you_mean(&name, siblings.iter().map(String::as_str))
    {
        Some(near) => {
            let suggested = match written.rsplit_once('/') {
                Some((dir, _)) => format!("{dir}/{near}"),
                None => near.to_string(),
            };
            format!("did you mean `{suggested}`?")
        }
        None => "check the path: it is relative to this page's file, or to static/ when it starts with /".into(),
    };
    FileProblem {
        code: "file.missing",
        message: format!("`{written}` names no file (looked for {})", shown.display()),
        hint,
    }
}

/// Reads a regular file of at most `MAX_FILE_BYTES` (`path` resolved already); the reason in
/// three parts (code, what is wrong, hint) otherwise. What is opened is what is checked, and
/// opening never waits (a FIFO put in the file's place is refused, not read).
pub fn read_limited(path: &Path) -> Result<Vec<u8>, (&'static str, String, &'static str)> {
    use std::io::Read;
    let unreadable = |e: std::io::Error| {
        (
            "file.unreadable",
            format!("cannot be read: {e}"),
            "check that the file exists and is readable",
        )
    };
    let file = crate::config::source::open_regular(path).map_err(unreadable)?;
    let meta = file.metadata().map_err(unreadable)?;
    if !meta.is_file() {
        return Err((
            "file.not-a-file",
            "is not a regular file".into(),
            "refer to a file, not a folder or a device",
        ));
    }
    let too_large = |len: u64| {
        (
            "file.too-large",
            format!(
                "is {} MB, more than the {} MB a page may refer to",
                len >> 20,
                MAX_FILE_BYTES >> 20
            ),
            "make the file smaller, or publish it elsewhere and link to its https:// address",
        )
    };
    if meta.len() > MAX_FILE_BYTES {
        return Err(too_large(meta.len()));
    }
    let mut bytes = Vec::with_capacity(meta.len() as usize);
    file.take(MAX_FILE_BYTES + 1)
        .read_to_end(&mut bytes)
        .map_err(unreadable)?;
    if bytes.len() as u64 > MAX_FILE_BYTES {
        return Err(too_large(bytes.len() as u64));
    }
    Ok(bytes)
}

/// The width and height of an image in CSS pixels: raster formats from their header, SVG
/// from its root element.
pub fn image_size(name: &str, bytes: &[u8]) -> Option<(u32, u32)> {
    let ext = name.rsplit_once('.')?.1.to_ascii_lowercase();
    match ext.as_str() {
        "svg" => svg_size(bytes),
        "png" | "jpg" | "jpeg" | "gif" | "webp" | "avif" | "bmp" | "ico" => {
            let s = imagesize::blob_size(bytes).ok()?;
            Some((u32::try_from(s.width).ok()?, u32::try_from(s.height).ok()?))
        }
        _ => None,
    }
}

/// An SVG's size: its root element's `width` and `height` (in pixels, or without unit), else
/// the proportions of its `viewBox`, read by an XML tokenizer.
fn svg_size(bytes: &[u8]) -> Option<(u32, u32)> {
    use quick_xml::events::Event;
    let mut reader = quick_xml::Reader::from_reader(bytes);
    let root = loop {
        match reader.read_event().ok()? {
            Event::Start(e) | Event::Empty(e) => break e,
            Event::Eof => return None,
            _ => {}
        }
    };
    if root.local_name().as_ref() != "svg" {
        return None;
    }
    let (mut width, mut height, mut view_box) = (None, None, None);
    for a in root.attributes().flatten() {
        let value = a.value.to_string();
        match a.key.local_name().as_ref() {
            "width" => width = pixels(&value),
            "height" => height = pixels(&value),
            "viewBox" => {
                let n: Vec<f64> = value
                    .split(|c: char| c.is_whitespace() || c == ',')
                    .filter(|s| !s.is_empty())
                    .filter_map(|s| s.parse().ok())
                    .collect();
                if n.len() == 4 && n[2] > 0.0 && n[3] > 0.0 {
                    view_box = Some((n[2], n[3]));
                }
            }
            _ => {}
        }
    }
    let (w, h) = match (width, height, view_box) {
        (Some(w), Some(h), _) => (w, h),
        (Some(w), None, Some((vw, vh))) => (w, w * vh / vw),
        (None, Some(h), Some((vw, vh))) => (h * vw / vh, h),
        (None, None, Some(v)) => v,
        _ => return None,
    };
    let round = |v: f64| (0.5..1e6).contains(&v).then(|| v.round() as u32);
    Some((round(w)?, round(h)?))
}

/// `120`, `120px` or `120.5` in pixels; relative units and percentages say nothing about pixels.
fn pixels(v: &str) -> Option<f64> {
    let v = v.trim();
    let n = v.strip_suffix("px").unwrap_or(v).trim();
    n.parse::<f64>().ok().filter(|n| *n > 0.0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn svg_sizes_come_from_the_root_element() {
        let size = |s: &str| svg_size(s.as_bytes());
        assert_eq!(
            size(
                r#"<?xml version="1.0"?><!-- c --><svg xmlns="http://www.w3.org/2000/svg" width="120" height="40px"/>"#
            ),
            Some((120, 40))
        );
        assert_eq!(
            size(r#"<svg viewBox="0 0 300 150"></svg>"#),
            Some((300, 150))
        );
        assert_eq!(
            size(r#"<svg width="600" viewBox="0,0,300,150"></svg>"#),
            Some((600, 300))
        );
        assert_eq!(
            size(r#"<svg width="100%" viewBox="0 0 30 15"></svg>"#),
            Some((30, 15))
        );
        assert_eq!(size(r#"<svg width="100%"></svg>"#), None);
        assert_eq!(size("<html></html>"), None);
        assert_eq!(size("not xml at all"), None);
    }

    #[test]
    fn raster_sizes_come_from_the_header() {
        // A 1×1 GIF.
        let gif = b"GIF89a\x03\x00\x02\x00\x80\x00\x00\xff\xff\xff\x00\x00\x00!\xf9\x04\x01\x00\x00\x00\x00,\x00\x00\x00\x00\x01\x00\x01\x00\x00\x02\x02D\x01\x00;";
        assert_eq!(image_size("a/x.GIF", gif), Some((3, 2)));
        assert_eq!(image_size("x.pdf", b"%PDF-1.4"), None);
    }

    #[test]
    fn paths_climbing_above_the_root_are_refused() {
        let root = Path::new("/site");
        assert_eq!(
            normalise(root, Path::new("content/a/../b/./x.png")),
            Some(PathBuf::from("/site/content/b/x.png"))
        );
        assert_eq!(normalise(root, Path::new("content/../../x.png")), None);
    }

    #[test]
    fn files_docgen_writes_are_left_as_written() {
        assert!(written_by_docgen("_docgen/bid-rules.json"));
        assert!(written_by_docgen("sitemap-2.xml"));
        assert!(!written_by_docgen("img/sitemap.xml"));
        assert!(!written_by_docgen("diagram.png"));
    }
}
