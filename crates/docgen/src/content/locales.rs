//! Translations: what a page is to its source (the same page in the default language), whether
//! it was made from the source as it is now, and the `translatedFrom` stamp that records it.

use std::path::{Path, PathBuf};

use sha2::{Digest, Sha256};

use crate::config::Config;
use crate::config::locales::{FileLocale, file_locale};
use crate::diagnostics::Diagnostic;

/// What a page is to the page of the same route in the default language.
#[derive(Debug, Clone, Default, PartialEq, Eq, Hash)]
pub enum Translation {
    /// A page of the default language.
    #[default]
    Source,
    /// The default language's page, shown in another locale that has no translation of it.
    Fallback,
    /// A translation (`page.zh.md`) of `source` (relative to the site root).
    Translated { source: PathBuf, state: Freshness },
}

/// Whether a translation was made from its source as the source is now.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Freshness {
    /// Its `translatedFrom` is the digest of the source's bytes.
    Current,
    /// The source changed since it was stamped.
    Stale,
    /// It has no `translatedFrom`.
    Unstamped,
}

impl Translation {
    /// A translation that may no longer say what its source says.
    pub fn is_stale(&self) -> bool {
        matches!(
            self,
            Translation::Translated {
                state: Freshness::Stale,
                ..
            }
        )
    }

    pub fn is_fallback(&self) -> bool {
        *self == Translation::Fallback
    }

    pub fn is_translated(&self) -> bool {
        matches!(self, Translation::Translated { .. })
    }
}

/// The digest a translation records of its source: the first 16 hex digits of the SHA-256 of
/// the source file's bytes (stable across machines and versions of docgen).
pub fn source_digest(bytes: &[u8]) -> String {
    let sum = Sha256::digest(bytes);
    sum.iter().take(8).map(|b| format!("{b:02x}")).collect()
}

/// The freshness of a translation whose front matter says `stamped`, of the source `source`
/// (relative to the site root).
pub fn freshness(config: &Config, source: &Path, stamped: Option<&str>) -> Freshness {
    let Some(stamped) = stamped.map(str::trim).filter(|s| !s.is_empty()) else {
        return Freshness::Unstamped;
    };
    match std::fs::read(config.root.join(source)) {
        Ok(bytes) if source_digest(&bytes) == stamped => Freshness::Current,
        _ => Freshness::Stale,
    }
}

/// The warning of a translation that is stale or was never stamped, at its `translatedFrom`
/// line (line 1 without one).
pub fn freshness_warning(
    file: &Path,
    text: &std::sync::Arc<str>,
    source: &Path,
    state: Freshness,
) -> Option<Diagnostic> {
    let line = text
        .lines()
        .position(|l| l.trim_start().starts_with("translatedFrom:"))
        .map_or(1, |i| i + 1);
    let stamp = format!("docgen translations stamp {}", file.display());
    let d = match state {
        Freshness::Current => return None,
        Freshness::Stale => Diagnostic::new(
            "translation.stale",
            format!(
                "this translation may be out of date: {} changed since it was translated",
                source.display()
            ),
        )
        .hint(format!(
            "bring the translation up to date with the source, then run `{stamp}`"
        )),
        Freshness::Unstamped => Diagnostic::new(
            "translation.unstamped",
            format!(
                "this translation does not record which version of {} it was made from",
                source.display()
            ),
        )
        .hint(format!(
            "once it says what the source says, run `{stamp}` (it writes `translatedFrom:`)"
        )),
    };
    Some(d.in_file(file).at(line, 1).with_source(text).warning())
}

/// What `stamp` did to a file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Stamped {
    pub file: PathBuf,
    pub digest: String,
    /// The file already held this digest: it was not written.
    pub unchanged: bool,
}

/// Writes `translatedFrom: <digest of the source>` into the front matter of the translation
/// `file` (relative to the site root, or absolute inside it), changing nothing else of it: the
/// line replaces an existing `translatedFrom:` line, or is added as the front matter's last
/// line (a file without front matter gets one holding only it).
pub fn stamp(config: &Config, file: &Path) -> Result<Stamped, Diagnostic> {
    let rel = file
        .strip_prefix(&config.root)
        .unwrap_or(file)
        .to_path_buf();
    let source = match file_locale(&rel, &config.locales) {
        FileLocale::Translation { source, .. } => source,
        FileLocale::Unknown { code } => {
            return Err(Diagnostic::new(
                "translation.unknown-locale",
                format!("`{code}` is not one of the site's locales"),
            )
            .in_file(&rel)
            .hint("add it under `locales.others` in site.yaml, or rename the file"));
        }
        FileLocale::Source => {
            let hint = if config.locales.len() < 2 {
                "the site has no `locales:` in site.yaml: add them first".to_string()
            } else {
                let codes: Vec<&str> = config.locales[1..]
                    .iter()
                    .map(|l| l.code.as_str())
                    .collect();
                format!(
                    "name a translation, e.g. page.{}.md (the site's locales: {})",
                    codes[0],
                    codes.join(", ")
                )
            };
            return Err(Diagnostic::new(
                "translation.not-a-translation",
                "this file is no translation: its name has no locale before the extension",
            )
            .in_file(&rel)
            .hint(hint));
        }
    };
    let source_bytes = std::fs::read(config.root.join(&source)).map_err(|e| {
        Diagnostic::new(
            "translation.no-source",
            format!("the source {} cannot be read: {e}", source.display()),
        )
        .in_file(&rel)
        .hint("a translation sits beside its source: page.zh.md beside page.md")
    })?;
    let digest = source_digest(&source_bytes);
    let path = config.root.join(&rel);
    let text = std::fs::read_to_string(&path).map_err(|e| {
        Diagnostic::new("io.read", format!("cannot read the file: {e}"))
            .in_file(&rel)
            .hint("check that the file exists and is UTF-8 text")
    })?;
    let stamped = with_stamp(&text, &digest);
    let unchanged = stamped == text;
    if !unchanged {
        std::fs::write(&path, stamped).map_err(|e| {
            Diagnostic::new("io.write", format!("cannot write the file: {e}"))
                .in_file(&rel)
                .hint("check the file's permissions")
        })?;
    }
    Ok(Stamped {
        file: rel,
        digest,
        unchanged,
    })
}

/// `text` with its front matter's `translatedFrom:` set to `digest`, byte for byte otherwise
/// (line endings as the file writes them).
pub fn with_stamp(text: &str, digest: &str) -> String {
    let bom = if text.starts_with('\u{feff}') {
        "\u{feff}"
    } else {
        ""
    };
    let body = &text[bom.len()..];
    let eol = if body.contains("\r\n") { "\r\n" } else { "\n" };
    let line = format!("translatedFrom: {digest}");
    let first_end = body.find('\n').map_or(body.len(), |i| i + 1);
    if body[..first_end].trim_end() != "---" {
        return format!("{bom}---{eol}{line}{eol}---{eol}{body}");
    }
    let mut out = String::with_capacity(text.len() + line.len() + 2);
    out.push_str(bom);
    out.push_str(&body[..first_end]);
    let mut offset = first_end;
    let mut written = false;
    for l in body[first_end..].split_inclusive('\n') {
        let bare = l.trim_end_matches(['\r', '\n']);
        if matches!(bare.trim_end(), "---" | "...") {
            if !written {
                out.push_str(&line);
                out.push_str(eol);
            }
            out.push_str(&body[offset..]);
            return out;
        }
        if !written && bare.starts_with("translatedFrom:") {
            out.push_str(&line);
            out.push_str(&l[bare.len()..]);
            written = true;
        } else {
            out.push_str(l);
        }
        offset += l.len();
    }
    // No closing line: the front matter would be broken either way; the stamp goes first.
    format!("{bom}---{eol}{line}{eol}---{eol}{body}")
}

/// Takes out of the listed page files those that are no page: a translation into a language
/// the site does not configure (`page.fr.md`), a translation whose source does not exist. Each
/// is a warning at its first line. Sites without locales keep every file.
pub fn sort_out(config: &Config, pages: &mut Vec<PathBuf>, warnings: &mut Vec<Diagnostic>) {
    if config.locales.len() < 2 {
        return;
    }
    let listed: std::collections::HashSet<PathBuf> = pages.iter().cloned().collect();
    let configured: Vec<&str> = config.locales.iter().map(|l| l.code.as_str()).collect();
    pages.retain(|rel| {
        let why = match file_locale(rel, &config.locales) {
            FileLocale::Source => return true,
            FileLocale::Translation { source, .. } if listed.contains(&source) => return true,
            FileLocale::Translation { source, .. } => (
                "translation.no-source",
                format!(
                    "this translation has no source: {} does not exist, so it is not published",
                    source.display()
                ),
                "a translation sits beside its source (page.zh.md beside page.md): rename or move it".to_string(),
            ),
            FileLocale::Unknown { code } => (
                "translation.unknown-locale",
                format!(
                    "the name says this is a translation into `{code}`, which is not one of the site's locales ({}), so it is not published",
                    configured.join(", ")
                ),
                format!(
                    "add `{code}` under `locales.others` in site.yaml, or rename the file: on a site with locales, `name.{code}.md` is a translation"
                ),
            ),
        };
        warnings.push(
            Diagnostic::new(why.0, why.1)
                .in_file(rel)
                .at(1, 1)
                .hint(why.2)
                .warning(),
        );
        false
    });
}

/// Every translation of the site's pages (relative to the site root), in name order.
pub fn translations(config: &Config) -> Vec<PathBuf> {
    let mut found: Vec<PathBuf> = walkdir::WalkDir::new(config.content_dir())
        .sort_by_file_name()
        .into_iter()
        .flatten()
        .filter(|e| e.file_type().is_file())
        .filter_map(|e| {
            let rel = e.path().strip_prefix(&config.root).ok()?.to_path_buf();
            let page = rel.extension().is_some_and(|x| x == "md" || x == "mdx");
            (page
                && matches!(
                    file_locale(&rel, &config.locales),
                    FileLocale::Translation { .. }
                ))
            .then_some(rel)
        })
        .collect();
    found.sort();
    found
}

/// The routes a page file would give (for a file that failed: links to them are not reported
/// again): a translation's in its locale, a source's in every locale.
pub fn routes_of_file(config: &Config, rel: &Path) -> Vec<String> {
    match file_locale(rel, &config.locales) {
        FileLocale::Translation { index, source } => {
            let route = super::route_of(config.content_relative(&source)).0;
            vec![config.locales[index].route(&route)]
        }
        _ => {
            let route = super::route_of(config.content_relative(rel)).0;
            config.locales.iter().map(|l| l.route(&route)).collect()
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_stamp_changes_only_its_line() {
        let text = "---\ntitle: 标题\ntranslatedFrom: 0000\norder: 2\n---\n# 标题\n";
        assert_eq!(
            with_stamp(text, "abcd"),
            "---\ntitle: 标题\ntranslatedFrom: abcd\norder: 2\n---\n# 标题\n"
        );
        let text = "---\r\ntitle: T\r\n---\r\nBody\r\n";
        assert_eq!(
            with_stamp(text, "abcd"),
            "---\r\ntitle: T\r\ntranslatedFrom: abcd\r\n---\r\nBody\r\n"
        );
        assert_eq!(
            with_stamp("# Only a body\n", "abcd"),
            "---\ntranslatedFrom: abcd\n---\n# Only a body\n"
        );
        let stamped = with_stamp("---\ntitle: T\n---\nB", "abcd");
        assert_eq!(with_stamp(&stamped, "abcd"), stamped);
    }

    #[test]
    fn the_digest_is_of_the_bytes() {
        assert_eq!(source_digest(b"a"), "ca978112ca1bbdca");
        assert_ne!(source_digest(b"a"), source_digest(b"a\n"));
    }
}
