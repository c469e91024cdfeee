//! Static files (`static/`) and the app bundle, published under `/s/` with content-hashed names
//! so a CDN can cache them forever.

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
    pub bytes: Vec<u8>,
}

/// All assets, by their source name (`icons/android.svg`, or `app.js` for the bundle).
#[derive(Debug, Default)]
pub struct Assets {
    pub by_name: BTreeMap<String, Asset>,
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
}

fn hashed_name(name: &str, bytes: &[u8]) -> String {
    let digest = Sha256::digest(bytes);
    let hash: String = digest.iter().take(5).map(|b| format!("{b:02x}")).collect();
    match name.rsplit_once('.') {
        Some((stem, ext)) if !stem.is_empty() && !stem.ends_with('/') => {
            format!("s/{stem}.{hash}.{ext}")
        }
        _ => format!("s/{name}.{hash}"),
    }
}

fn add(assets: &mut Assets, name: &str, bytes: Vec<u8>) {
    let out_path = hashed_name(name, &bytes);
    assets
        .by_name
        .insert(name.to_string(), Asset { out_path, bytes });
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
    let dir = config.static_dir();
    if dir.is_dir() {
        for entry in walkdir::WalkDir::new(&dir).sort_by_file_name() {
            let entry = match entry {
                Ok(e) => e,
                Err(e) => {
                    errors.push(Diagnostic::new(
                        "io.walk",
                        format!("cannot read static/: {e}"),
                    ));
                    continue;
                }
            };
            if !entry.file_type().is_file() || entry.file_name().to_string_lossy().starts_with('.')
            {
                continue;
            }
            let rel: PathBuf = entry
                .path()
                .strip_prefix(&dir)
                .unwrap_or(entry.path())
                .to_path_buf();
            let name = rel.to_string_lossy().replace('\\', "/");
            match std::fs::read(entry.path()) {
                Ok(bytes) => add(&mut assets, &name, bytes),
                Err(e) => errors.push(
                    Diagnostic::new("io.read", format!("cannot read {name}: {e}"))
                        .in_file(Path::new("static").join(&rel)),
                ),
            }
        }
    }
    if errors.is_empty() {
        Ok(assets)
    } else {
        Err(errors)
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
