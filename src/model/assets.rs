//! Static files (`static/`), the files under `content/` that pages refer to (images beside a
//! page, downloads) and the app bundle, published under `/s/` with content-hashed names so a
//! CDN can cache them forever.

use std::borrow::Cow;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use sha2::{Digest, Sha256};

use crate::config::Config;
use crate::diagnostics::{Diagnostic, Diagnostics};

/// One published file.
#[derive(Debug, Clone)]
pub struct Asset {
    /// Path inside the output folder, e.g. `s/icons/android.3f2a9c1b.svg`.
    pub out_path: String,
    source: Source,
}

/// Where an asset's bytes are. Small files and the embedded bundle are held; larger files
/// are read again from their source when written, so a site with many images never holds all
/// of their bytes at once (the output writes a few files at a time).
#[derive(Debug, Clone)]
enum Source {
    Held(Vec<u8>),
    /// A file whose bytes were hashed into `out_path`.
    File(PathBuf),
}

/// Files up to this size are held in memory from the moment they are read.
const HELD_BYTES: usize = 64 << 10;

impl Asset {
    /// The file's bytes: held, or read again from its source, which must not have changed
    /// since it was named.
    pub fn bytes(&self) -> Result<Cow<'_, [u8]>, Diagnostic> {
        match &self.source {
            Source::Held(b) => Ok(Cow::Borrowed(b)),
            Source::File(path) => {
                let changed = || {
                    Diagnostic::new(
                        "content.changed",
                        format!("{} changed while the site was being built", path.display()),
                    )
                    .hint("build again")
                };
                let bytes = crate::content::files::read_limited(path).map_err(|_| changed())?;
                if self
                    .out_path
                    .contains(&format!(".{}", short_digest(&bytes)))
                {
                    Ok(Cow::Owned(bytes))
                } else {
                    Err(changed())
                }
            }
        }
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
/// The bid-response validator's evaluator, loaded by the validator island on first use.
pub const VALIDATOR_JS: &[u8] = include_bytes!(concat!(env!("OUT_DIR"), "/app/validator.js"));

/// Icons the shell itself needs when the site has none of its own.
const DEFAULT_LOGO: &[u8] = include_bytes!("../../templates/logo.svg");

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

    /// Publishes the files under `content/` that `pages` refer to (those under `static/` are
    /// published anyway).
    pub fn add_page_files<'p>(
        &mut self,
        pages: impl IntoIterator<Item = &'p crate::content::Page>,
    ) {
        for file in pages
            .into_iter()
            .flat_map(|p| &p.rendered.files)
            .filter(|f| f.from_content)
        {
            self.from_content
                .entry(file.out_path.clone())
                .or_insert_with(|| Asset {
                    out_path: file.out_path.clone(),
                    source: Source::File(file.source.clone()),
                });
        }
    }
}

/// The part of a published name that changes with the bytes.
fn short_digest(bytes: &[u8]) -> String {
    Sha256::digest(bytes)
        .iter()
        .take(5)
        .map(|b| format!("{b:02x}"))
        .collect()
}

/// Where the file `name` (a path under `static/` or `content/`) with these bytes is published.
pub fn hashed_name(name: &str, bytes: &[u8]) -> String {
    let hash = short_digest(bytes);
    match name.rsplit_once('.') {
        Some((stem, ext)) if !stem.is_empty() && !stem.ends_with('/') => {
            format!("s/{stem}.{hash}.{ext}")
        }
        _ => format!("s/{name}.{hash}"),
    }
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
    if config.site.bid_rules.is_some() {
        add(&mut assets, "docgen/validator.js", VALIDATOR_JS.to_vec());
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
        let read = crate::config::source::open(root, &rel).and_then(|mut opened| {
            let mut bytes = Vec::with_capacity(opened.len as usize);
            std::io::Read::read_to_end(&mut opened.file, &mut bytes)
                .map(|_| (bytes, opened.resolved))
                .map_err(|e| {
                    Diagnostic::new("io.read", format!("cannot read {}: {e}", rel.display()))
                        .in_file(&rel)
                        .hint("check that the file is readable")
                })
        });
        match read {
            Ok((bytes, resolved)) if bytes.len() > HELD_BYTES => {
                let out_path = hashed_name(&name, &bytes);
                let source = Source::File(resolved);
                assets.by_name.insert(name, Asset { out_path, source });
            }
            Ok((bytes, _)) => add(assets, &name, bytes),
            Err(d) => errors.push(d),
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
