//! Static files (`static/`), the files under `content/` that pages refer to (images beside a
//! page, downloads) and the app bundle, published under `/s/` with content-hashed names so a
//! CDN can cache them forever.

use std::borrow::Cow;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use crate::config::Config;
use crate::diagnostics::{Diagnostic, Diagnostics};
use crate::paths::{ContentHasher, hashed_name, published_name};

/// Where the favicon is published: the place browsers ask for it.
pub const FAVICON_ROUTE: &str = "/favicon.ico";

/// One published file.
#[derive(Debug, Clone)]
pub struct Asset {
    /// Path inside the output folder, e.g. `s/icons/android.3f2a9c1b.svg`.
    pub out_path: String,
    source: Source,
}

/// Where an asset's bytes are. Small files and the embedded bundle are held; larger files
/// are copied from their source through a buffer when written, so memory does not grow with
/// the size of a file nor with their number.
#[derive(Debug, Clone)]
enum Source {
    Held(Vec<u8>),
    /// A file whose bytes were hashed into `out_path`.
    File(PathBuf),
}

/// Files up to this size are held in memory from the moment they are read.
const HELD_BYTES: u64 = 64 << 10;
/// The buffer large files are hashed and copied through.
const CHUNK: usize = 256 << 10;

/// Why copying an asset failed: reading its source, or writing the copy.
#[derive(Debug)]
pub enum CopyError {
    Source(Diagnostic),
    Write(std::io::Error),
}

impl Asset {
    /// The bytes, when the asset is held in memory.
    pub fn held(&self) -> Option<&[u8]> {
        match &self.source {
            Source::Held(b) => Some(b),
            Source::File(_) => None,
        }
    }

    /// The size of the file's bytes.
    pub fn size(&self) -> std::io::Result<u64> {
        match &self.source {
            Source::Held(b) => Ok(b.len() as u64),
            Source::File(path) => std::fs::metadata(path).map(|m| m.len()),
        }
    }

    /// The file's bytes: held, or read again from its source, which must not have changed
    /// since it was named.
    pub fn bytes(&self) -> Result<Cow<'_, [u8]>, Diagnostic> {
        if let Some(held) = self.held() {
            return Ok(Cow::Borrowed(held));
        }
        let mut copy = Vec::new();
        match self.copy_to(&mut copy) {
            Ok(()) => Ok(Cow::Owned(copy)),
            Err(CopyError::Source(d)) => Err(d),
            Err(CopyError::Write(e)) => Err(self.changed(e.to_string())),
        }
    }

    /// Writes the file's bytes to `to`, a buffer at a time for a file read from its source,
    /// proving on the way that they are still those its name was made from.
    pub fn copy_to(&self, to: &mut dyn std::io::Write) -> Result<(), CopyError> {
        let path = match &self.source {
            Source::Held(b) => return to.write_all(b).map_err(CopyError::Write),
            Source::File(path) => path,
        };
        use std::io::Read;
        let mut file = std::fs::File::open(path)
            .map_err(|e| CopyError::Source(self.changed(e.to_string())))?;
        let mut hasher = ContentHasher::new();
        let mut buffer = vec![0u8; CHUNK];
        loop {
            let n = match file.read(&mut buffer) {
                Ok(0) => break,
                Ok(n) => n,
                Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
                Err(e) => return Err(CopyError::Source(self.changed(e.to_string()))),
            };
            hasher.update(&buffer[..n]);
            to.write_all(&buffer[..n]).map_err(CopyError::Write)?;
        }
        if self.out_path.contains(&format!(".{}", hasher.finish())) {
            Ok(())
        } else {
            Err(CopyError::Source(self.changed("its bytes differ".into())))
        }
    }

    fn changed(&self, why: String) -> Diagnostic {
        let shown = match &self.source {
            Source::File(path) => path.display().to_string(),
            Source::Held(_) => self.out_path.clone(),
        };
        Diagnostic::new(
            "content.changed",
            format!("{shown} changed while the site was being built ({why})"),
        )
        .hint("build again")
    }
}

/// All assets, by their source name (`icons/android.svg`, or `app.js` for the bundle).
#[derive(Debug, Default)]
pub struct Assets {
    pub by_name: BTreeMap<String, Asset>,
    /// The files under `content/` that pages refer to, by their place in the output.
    pub from_content: BTreeMap<String, Asset>,
    base_path: String,
}

/// The React app, built by `build.rs` and embedded in the binary.
pub const APP_JS: &[u8] = include_bytes!(concat!(env!("OUT_DIR"), "/app/app.js"));
pub const APP_CSS: &[u8] = include_bytes!(concat!(env!("OUT_DIR"), "/app/app.css"));
/// The search engine, loaded by the app on the first use of the search box.
pub const SEARCH_JS: &[u8] = include_bytes!(concat!(env!("OUT_DIR"), "/app/search.js"));

/// Icons the shell itself needs when the site has none of its own.
const DEFAULT_LOGO: &[u8] = include_bytes!("../../../../templates/logo.svg");

impl Assets {
    /// The public href of an asset (with the site's base path).
    pub fn href(&self, name: &str) -> Option<String> {
        self.by_name
            .get(name)
            .map(|a| format!("{}/{}", self.base_path, a.out_path))
    }

    pub fn contains(&self, name: &str) -> bool {
        self.by_name.contains_key(name)
    }

    /// Every published asset: the static files and bundle, then the content files.
    pub fn all(&self) -> impl Iterator<Item = &Asset> {
        self.by_name.values().chain(self.from_content.values())
    }

    /// Publishes a bundle of an enabled extension beside the app's (`docgen/NAME`).
    pub fn add_bundle(&mut self, name: &str, bytes: &[u8]) {
        add(self, &format!("docgen/{name}"), bytes.to_vec());
    }

    /// Publishes the files under `content/` that `pages` refer to (those under `static/` are
    /// published anyway). An earlier version's (`config.snapshot`) are held from its commit.
    pub fn add_page_files<'p>(
        &mut self,
        config: &Config,
        pages: impl IntoIterator<Item = &'p crate::content::Page>,
    ) {
        for file in pages
            .into_iter()
            .flat_map(|p| &p.rendered.files)
            .filter(|f| f.from_content)
        {
            self.from_content
                .entry(file.out_path.clone())
                .or_insert_with(|| {
                    let held = config.snapshot.as_ref().and_then(|s| {
                        let rel = file.source.strip_prefix(&config.root).ok()?;
                        s.bytes(rel)
                    });
                    Asset {
                        out_path: file.out_path.clone(),
                        source: match held {
                            Some(bytes) => Source::Held(bytes.to_vec()),
                            None => Source::File(file.source.clone()),
                        },
                    }
                });
        }
    }
}

/// The published name of a large file, hashed a buffer at a time.
fn hashed_file_name(name: &str, file: &mut impl std::io::Read) -> std::io::Result<String> {
    let mut hasher = ContentHasher::new();
    let mut buffer = vec![0u8; CHUNK];
    loop {
        match file.read(&mut buffer) {
            Ok(0) => break,
            Ok(n) => hasher.update(&buffer[..n]),
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
            Err(e) => return Err(e),
        }
    }
    Ok(published_name(name, &hasher.finish()))
}

fn add(assets: &mut Assets, name: &str, bytes: Vec<u8>) {
    let out_path = hashed_name(name, &bytes);
    let source = Source::Held(bytes);
    assets
        .by_name
        .insert(name.to_string(), Asset { out_path, source });
}

/// Reads `static/` and adds the app bundle.
pub fn load(config: &Config) -> Result<Assets, Diagnostics> {
    let mut assets = Assets {
        base_path: config.base_path.clone(),
        ..Assets::default()
    };
    let mut errors = Diagnostics::default();
    add(&mut assets, "docgen/app.js", APP_JS.to_vec());
    add(&mut assets, "docgen/app.css", APP_CSS.to_vec());
    if config.site.search.enabled {
        add(&mut assets, "docgen/search.js", SEARCH_JS.to_vec());
    }
    add(&mut assets, "docgen/logo.svg", DEFAULT_LOGO.to_vec());
    if let Some(dir) = static_folder(config, &mut errors) {
        add_static(&mut assets, config, &dir, &mut errors);
    }
    if errors.is_empty() {
        Ok(assets)
    } else {
        Err(errors)
    }
}

/// `static/`, when the site has one: a folder, or a link to a folder inside the site. A link
/// leading out of the site would publish whatever it points to, so it is an error.
fn static_folder(config: &Config, errors: &mut Diagnostics) -> Option<PathBuf> {
    let dir = config.static_dir();
    let meta = std::fs::symlink_metadata(&dir).ok()?;
    if !meta.is_symlink() {
        return meta.is_dir().then_some(dir);
    }
    let site = config
        .root
        .canonicalize()
        .unwrap_or_else(|_| config.root.clone());
    match dir.canonicalize() {
        Ok(target) if !target.starts_with(&site) => {
            let to = std::fs::read_link(&dir).unwrap_or(target);
            errors.push(
                Diagnostic::new(
                    "source.outside",
                    format!("static/ is a symbolic link to {}, outside the site", to.display()),
                )
                .in_file("static")
                .hint("make static/ a folder inside the site (copy the files it should publish into it)"),
            );
            None
        }
        Ok(target) => target.is_dir().then_some(dir),
        Err(_) => {
            errors.push(
                Diagnostic::new(
                    "source.broken-link",
                    "static/ is a symbolic link that points to nothing",
                )
                .in_file("static")
                .hint("point the link at a folder inside the site, or remove it"),
            );
            None
        }
    }
}

/// Every file under `static/` (but hidden ones), read by the rules of every source: a link
/// may lead anywhere inside the site, each file must be a regular file. Not capped in size.
fn add_static(assets: &mut Assets, config: &Config, dir: &Path, errors: &mut Diagnostics) {
    let root = &config.root;
    let site = root.canonicalize().unwrap_or_else(|_| root.clone());
    let rel_of = |path: &Path| path.strip_prefix(root).unwrap_or(path).to_path_buf();
    let mut walk = walkdir::WalkDir::new(dir)
        .follow_links(true)
        .sort_by_file_name()
        .into_iter();
    while let Some(entry) = walk.next() {
        let entry = match entry {
            Ok(e) => e,
            Err(e) => {
                // A link to nothing, or a loop of links: the reading rules say which.
                let rel = e.path().map(rel_of);
                let d = match &rel {
                    Some(rel) if e.loop_ancestor().is_none() => {
                        crate::config::source::open(root, rel).err()
                    }
                    _ => None,
                };
                errors.push(d.unwrap_or_else(|| {
                    let d = Diagnostic::new("io.walk", format!("cannot read static/: {e}"))
                        .hint("remove the link that leads back to a folder holding it");
                    match rel {
                        Some(rel) => d.in_file(rel),
                        None => d,
                    }
                }));
                continue;
            }
        };
        if entry.depth() > 0 && entry.file_type().is_dir() {
            // A linked folder is published only when it is inside the site.
            if entry.path_is_symlink()
                && !entry
                    .path()
                    .canonicalize()
                    .is_ok_and(|t| t.starts_with(&site))
            {
                let to = std::fs::read_link(entry.path()).unwrap_or_default();
                let rel = rel_of(entry.path());
                errors.push(
                    Diagnostic::new(
                        "source.outside",
                        format!(
                            "{} is a symbolic link to {}, outside the site",
                            rel.display(),
                            to.display()
                        ),
                    )
                    .in_file(&rel)
                    .hint("replace the link with a folder inside the site"),
                );
                walk.skip_current_dir();
            }
            continue;
        }
        if entry.file_type().is_dir() || entry.file_name().to_string_lossy().starts_with('.') {
            continue;
        }
        let rel = rel_of(entry.path());
        let name = entry
            .path()
            .strip_prefix(dir)
            .unwrap_or(entry.path())
            .to_string_lossy()
            .replace('\\', "/");
        // Anything but a regular file inside the site (a FIFO, a device, a link out) is refused
        // by `open` before a byte is read.
        // A large file is hashed a buffer at a time and copied the same way when written.
        let read = crate::config::source::open(root, &rel).and_then(|mut opened| {
            let read = if opened.len > HELD_BYTES {
                hashed_file_name(&name, &mut opened.file).map(|out_path| {
                    let source = Source::File(opened.resolved);
                    assets
                        .by_name
                        .insert(name.clone(), Asset { out_path, source });
                })
            } else {
                let mut bytes = Vec::with_capacity(opened.len as usize);
                std::io::Read::read_to_end(&mut opened.file, &mut bytes)
                    .map(|_| add(assets, &name, bytes))
            };
            read.map_err(|e| {
                Diagnostic::new("io.read", format!("cannot read {}: {e}", rel.display()))
                    .in_file(&rel)
                    .hint("check that the file is readable")
            })
        });
        if let Err(d) = read {
            errors.push(d);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_carry_a_content_hash() {
        let a = hashed_name("icons/x.svg", b"<svg/>");
        assert!(a.starts_with("s/icons/x.") && a.ends_with(".svg"), "{a}");
        assert_ne!(a, hashed_name("icons/x.svg", b"<svg />"));
        assert_eq!(a, hashed_name("icons/x.svg", b"<svg/>"));
    }
}
