//! Stage 1: read `site.yaml` and `redirects.yaml` into typed configuration.

pub mod locales;
pub mod redirects;
pub mod schemes;
pub mod site;
pub mod source;
pub mod versions;
pub mod yaml;

use std::path::{Path, PathBuf};
use std::sync::Arc;

pub use redirects::RedirectsConfig;
pub use site::SiteConfig;

use crate::diagnostics::{Diagnostic, Diagnostics};
use yaml::Step;

/// The names of docgen's templates (embedded by the render stage), which a site may override
/// with files of the same names in its own `templates/` folder.
pub const TEMPLATE_NAMES: [&str; 6] = [
    "base.html",
    "macros.html",
    "page.html",
    "faq.html",
    "redirect.html",
    "not_found.html",
];

/// Everything the later stages need to know about where and how to build.
#[derive(Debug, Clone)]
pub struct Config {
    /// The site root (holding `site.yaml`, `content/`, ...).
    pub root: PathBuf,
    pub site: SiteConfig,
    /// The text of `site.yaml` (empty for a Hugo-style tree without one), for pointing
    /// messages at its lines.
    pub site_source: Arc<str>,
    /// Where each value of `site.yaml` is written, as its parser reports it.
    pub site_positions: yaml::Positions,
    /// `redirects.yaml` with its text (for pointing messages at rules).
    pub redirects: Option<(RedirectsConfig, Arc<str>)>,
    /// The writer's own copies of docgen's templates (`templates/<name>`), by name.
    pub templates: Vec<(&'static str, Arc<str>)>,
    /// Scheme and host of the site URL, without a trailing slash (may be empty).
    pub origin: String,
    /// Path prefix under which the site is served ("" or "/preview/12").
    pub base_path: String,
    /// The folder of the pages (see `content_folder`).
    content_dir: PathBuf,
    /// For an earlier version of the site (see `versions`): the files of its commit, read in
    /// place of the working tree's content. `None` reads the working tree.
    pub snapshot: Option<Arc<source::Snapshot>>,
    /// The site's languages, the default first (English alone without `locales:`).
    pub locales: Vec<locales::Locale>,
    /// The UI strings of each locale (same order), complete: a missing id is English.
    pub strings: Vec<Arc<locales::Strings>>,
    /// What the configuration does not give as it should but the build can go on without
    /// (a UI string missing from a locale's table).
    pub warnings: Vec<Diagnostic>,
}

/// Command-line overrides of the configuration.
#[derive(Debug, Clone, Default)]
pub struct Overrides {
    pub base_url: Option<String>,
    /// Build the current version alone: `versions:` is set aside, so no earlier version is
    /// read from git (a copy of the site without its repository, a quick preview).
    pub latest_only: bool,
}

/// The href of a route on a site served under `base_path` ("" at the root of a host).
pub fn href_under(base_path: &str, route: &str) -> String {
    if base_path.is_empty() {
        route.to_string()
    } else if route == "/" {
        format!("{base_path}/")
    } else {
        format!("{base_path}{route}")
    }
}

impl Config {
    /// The href of a route, including the base path.
    pub fn href(&self, route: &str) -> String {
        href_under(&self.base_path, route)
    }

    /// The absolute URL of a route, for canonical links.
    pub fn absolute(&self, route: &str) -> String {
        format!("{}{}", self.origin, self.href(route))
    }

    pub fn home(&self) -> &str {
        self.site.home.as_deref().unwrap_or("/")
    }

    /// The folder of the pages: `content` in site.yaml, else `content/`, else the root itself
    /// for a tree without one (its home page at the top).
    pub fn content_dir(&self) -> PathBuf {
        self.content_dir.clone()
    }

    /// A path relative to the site root, made relative to the content folder.
    pub fn content_relative<'p>(&self, rel: &'p Path) -> &'p Path {
        let prefix = self
            .content_dir
            .strip_prefix(&self.root)
            .unwrap_or(Path::new(""));
        rel.strip_prefix(prefix).unwrap_or(rel)
    }

    pub fn static_dir(&self) -> PathBuf {
        self.root.join("static")
    }

    /// The text of a source file (relative to the site root): the working tree's, or the
    /// snapshot's for an earlier version.
    pub fn read_text(&self, rel: &Path) -> Result<Arc<str>, Diagnostic> {
        match &self.snapshot {
            None => source::read(&self.root, rel),
            Some(s) => s.text(rel),
        }
    }

    /// Whether the version read holds the source file `rel` (relative to the site root).
    pub fn has_file(&self, rel: &Path) -> bool {
        match &self.snapshot {
            None => self.root.join(rel).is_file(),
            Some(s) => s.bytes(rel).is_some(),
        }
    }

    /// The configuration of the earlier version `name`, read from `snapshot`: the same
    /// settings, its content from the snapshot, its routes under `/<name>`.
    pub fn for_version(&self, name: &str, snapshot: Arc<source::Snapshot>) -> Config {
        Config {
            base_path: format!("{}/{name}", self.base_path),
            snapshot: Some(snapshot),
            // Legacy routes lead to the latest pages: they are written once, at the root.
            redirects: None,
            ..self.clone()
        }
    }
}

/// Reads the configuration files of the site at `root`.
pub fn load(root: &Path, overrides: &Overrides) -> Result<Config, Diagnostics> {
    let mut errors = Diagnostics::default();
    let site = match read_site(root) {
        Ok(text) => text,
        Err(d) => {
            errors.push(d);
            None
        }
    };
    let redirects = read_optional(root, "redirects.yaml", &mut errors);
    let mut templates = Vec::new();
    for name in TEMPLATE_NAMES {
        let rel = Path::new("templates").join(name);
        if let Some(text) = read_optional(root, &rel.to_string_lossy(), &mut errors) {
            templates.push((name, text));
        }
    }
    match from_texts(root, site.as_deref(), redirects.as_deref(), overrides) {
        Ok(config) if errors.is_empty() => {
            let (strings, warnings) = load_strings(root, &config.locales, &mut errors);
            if !errors.is_empty() {
                return Err(errors);
            }
            Ok(Config {
                templates,
                strings,
                warnings,
                ..config
            })
        }
        Ok(_) => Err(errors),
        Err(e) => {
            errors.extend(e.0);
            Err(errors)
        }
    }
}

/// The configuration from the texts of `site.yaml` and `redirects.yaml` (`None` for a file
/// that does not exist), parsed and validated as `load` does.
pub fn from_texts(
    root: &Path,
    site: Option<&str>,
    redirects: Option<&str>,
    overrides: &Overrides,
) -> Result<Config, Diagnostics> {
    let mut errors = Diagnostics::default();
    let (site, site_source): (SiteConfig, Arc<str>) = match parse_site(site) {
        Ok(Some(found)) => found,
        Ok(None) => Default::default(),
        Err(d) => {
            errors.push(d);
            Default::default()
        }
    };
    let redirects: Option<(RedirectsConfig, Arc<str>)> =
        parse_optional(redirects, "redirects.yaml", &mut errors);
    let mut site = site;
    if overrides.latest_only {
        site.versions = None;
    }

    if let Err(d) = check_overrides(overrides) {
        errors.push(d);
    }
    let url = overrides
        .base_url
        .clone()
        .or_else(|| site.url.clone())
        .unwrap_or_default();
    let (origin, base_path) = split_url(&url);

    let redirects_source: Arc<str> = redirects
        .as_ref()
        .map_or_else(|| Arc::from(""), |(_, t)| t.clone());
    let site_positions = yaml::Positions::read(&site_source, 1);
    let redirects_positions = yaml::Positions::read(&redirects_source, 1);
    // Points a message about the value at `path` of a configuration file at its place.
    let placed = |d: Diagnostic, file: &str, path: &[Step]| {
        let (source, positions) = if file == "site.yaml" {
            (&site_source, &site_positions)
        } else {
            (&redirects_source, &redirects_positions)
        };
        match positions.value(path) {
            Some((line, column)) => d.in_file(file).at(line, column).with_source(source),
            None => d.in_file(file),
        }
    };
    let mut check_route = |route: &str, path: &[Step], what: &str, file: &str| {
        if let Err(why) = validate_route(route) {
            errors.push(placed(
                Diagnostic::new("config.bad-route", format!("{what} `{route}` {why}"))
                    .hint("write routes as absolute paths without a trailing slash, e.g. /documentation/mediation"),
                file,
                path,
            ));
        }
    };
    if let Some(home) = &site.home {
        check_route(home, &["home".into()], "home", "site.yaml");
    }
    for (i, area) in site.areas.iter().enumerate() {
        let path = ["areas".into(), i.into(), "route".into()];
        check_route(&area.route, &path, "area route", "site.yaml");
    }
    if let Some((r, _)) = &redirects {
        check_route(
            &r.legacy_base,
            &["legacyBase".into()],
            "legacyBase",
            "redirects.yaml",
        );
        if let Some(h) = &r.home {
            check_route(h, &["home".into()], "home", "redirects.yaml");
        }
    }
    for (i, group) in site.search.synonyms.iter().enumerate() {
        let why = if group.len() < 2 {
            Some("names fewer than two phrases".to_string())
        } else {
            group
                .iter()
                .find(|p| !has_word(p))
                .map(|p| format!("has a phrase without a word (`{p}`)"))
        };
        if let Some(why) = why {
            let shown = group.join(", ");
            errors.push(placed(
                Diagnostic::new(
                    "config.bad-synonyms",
                    format!("search.synonyms: the group [{shown}] {why}"),
                )
                .hint("write each group as a list of two or more words or phrases a reader may use for one another, e.g. [mrec, medium rectangle]"),
                "site.yaml",
                &["search".into(), "synonyms".into(), i.into()],
            ));
        }
    }
    if let Some(url) = &site.edit_url
        && let Err(why) = validate_edit_url(url)
    {
        errors.push(placed(
            Diagnostic::new("config.bad-edit-url", format!("editUrl `{url}` {why}"))
                .hint("give the address of your repository's edit view, e.g. https://github.com/org/repo/edit/main; each page's file (content/...) is added after it"),
            "site.yaml",
            &["editUrl".into()],
        ));
    }
    // Both end up in `_headers` and `_redirects` (the URL's path as the base path of every
    // rule, apiBase in the Content-Security-Policy): a stray character would add lines or
    // fields there.
    if let Some(url) = &site.url
        && let Err(why) = validate_site_url(url, false)
    {
        let d = Diagnostic::new(
            "config.bad-url",
            format!("url `{}` {why}", url.escape_debug()),
        )
        .hint("give the address the site is served at, e.g. https://developers.example.com or https://example.github.io/docs");
        errors.push(placed(d, "site.yaml", &["url".into()]));
    }
    if !site.api_base.is_empty()
        && let Err(why) = validate_site_url(&site.api_base, true)
    {
        errors.push(placed(
            Diagnostic::new(
                "config.bad-api-base",
                format!("apiBase `{}` {why}", site.api_base.escape_debug()),
            )
            .hint("give the base address of the API, e.g. https://api.example.com/v1, a path of this site such as /api, or \"\" for this site"),
            "site.yaml",
            &["apiBase".into()],
        ));
    }
    for (i, link) in site.footer.iter().enumerate() {
        if link.url.is_none() && link.action.is_none() {
            errors.push(placed(
                Diagnostic::new(
                    "config.footer-link",
                    format!(
                        "footer link {} (`{}`) has neither url nor action",
                        i + 1,
                        link.display_name
                    ),
                )
                .hint("give it `url: https://...` or `action: consent`"),
                "site.yaml",
                &["footer".into(), i.into(), "displayName".into()],
            ));
        }
    }
    errors.extend(check_site_links(&site, &site_source, &site_positions));
    if let Some(v) = &site.versions {
        for (path, d) in versions::check(v, &site.areas) {
            errors.push(placed(d, "site.yaml", &path));
        }
    }
    let content_dir = match &site.content {
        Some(folder) => match validate_folder(folder) {
            Ok(()) => root.join(folder),
            Err(why) => {
                errors.push(placed(
                    Diagnostic::new("config.bad-content", format!("content `{folder}` {why}"))
                        .hint("name a folder inside the site root, e.g. `content: docs`"),
                    "site.yaml",
                    &["content".into()],
                ));
                root.join("content")
            }
        },
        None => content_folder(root),
    };
    if let Some(l) = &site.locales {
        check_locales(l, &mut |d, path| errors.push(placed(d, "site.yaml", path)));
    }
    if !errors.is_empty() {
        return Err(errors);
    }
    let locales = locales::resolve(site.locales.as_ref());
    // docgen's own tables; `load` puts the site's over them.
    let strings = locales
        .iter()
        .map(|l| {
            let mut table = locales::english_strings();
            table.extend(locales::built_in_strings(&l.code).unwrap_or_default());
            Arc::new(table)
        })
        .collect();
    Ok(Config {
        locales,
        strings,
        warnings: Vec::new(),
        root: root.to_path_buf(),
        site,
        site_source,
        site_positions,
        redirects,
        templates: Vec::new(),
        origin,
        base_path,
        content_dir,
        snapshot: None,
    })
}

/// `locales:` checked: codes that can be file-name and route segments, each once.
fn check_locales(l: &locales::LocalesConfig, report: &mut dyn FnMut(Diagnostic, &[Step])) {
    let mut seen = vec![l.default.as_str()];
    if let Some(why) = locales::code_problem(&l.default) {
        report(
            Diagnostic::new(
                "config.bad-locale",
                format!("locales.default `{}` {why}", l.default),
            )
            .hint("give the language code of the sources, e.g. `default: en`"),
            &["locales".into(), "default".into()],
        );
    }
    for (i, other) in l.others.iter().enumerate() {
        let at = ["locales".into(), "others".into(), i.into(), "code".into()];
        if let Some(why) = locales::code_problem(&other.code) {
            report(
                Diagnostic::new("config.bad-locale", format!("locale code `{}` {why}", other.code))
                    .hint("write a code such as zh, ja or pt-br: it names the translations (page.zh.md) and their routes (/zh/...)"),
                &at,
            );
        } else if seen.contains(&other.code.as_str()) {
            report(
                Diagnostic::new(
                    "config.bad-locale",
                    format!("the locale `{}` is listed twice", other.code),
                )
                .hint("list each language once; the default is not repeated under `others`"),
                &at,
            );
        }
        if other.name.trim().is_empty() {
            report(
                Diagnostic::new("config.bad-locale", format!("the locale `{}` has an empty name", other.code))
                    .hint("give the language's own name, as the language menu shows it, e.g. `name: 简体中文`"),
                &["locales".into(), "others".into(), i.into(), "name".into()],
            );
        }
        seen.push(&other.code);
    }
}

/// The UI strings of every locale: docgen's table for the language (English for one it has
/// none of), with the site's own `templates/strings.<code>.json` over it. An id neither gives is
/// English, with a warning.
fn load_strings(
    root: &Path,
    all: &[locales::Locale],
    errors: &mut Diagnostics,
) -> (Vec<Arc<locales::Strings>>, Vec<Diagnostic>) {
    let english = locales::english_strings();
    let mut warnings = Vec::new();
    let mut tables = Vec::with_capacity(all.len());
    for locale in all {
        let rel = format!("templates/strings.{}.json", locale.code);
        let built_in = if locale.code == "en" {
            Some(english.clone())
        } else {
            locales::built_in_strings(&locale.code)
        };
        let text = read_optional(root, &rel, errors);
        let own: Option<locales::Strings> = match &text {
            Some(text) => match serde_json::from_str(text) {
                Ok(t) => Some(t),
                Err(e) => {
                    errors.push(
                        Diagnostic::new("config.bad-strings", format!("{rel} is not a table of strings: {e}"))
                            .in_file(&rel)
                            .at(e.line().max(1), e.column().max(1))
                            .with_source(text)
                            .hint("write one JSON object of string ids to texts, e.g. {\"toc.title\": \"目录\"}"),
                    );
                    None
                }
            },
            None => None,
        };
        // Only a table of the site's own is named where a locale lacks strings: with none,
        // docgen's table (or English) is used as a whole.
        let mut table = built_in.clone().unwrap_or_default();
        if let Some(own) = &own {
            for (id, translated) in own {
                if !english.contains_key(id) {
                    let line = text_line(text.as_deref().unwrap_or(""), id);
                    warnings.push(
                        Diagnostic::new(
                            "strings.unknown",
                            format!("`{id}` is no string docgen shows"),
                        )
                        .in_file(&rel)
                        .at(line, 1)
                        .hint("remove it, or correct the id (see docgen's templates/strings.json)")
                        .warning(),
                    );
                }
                table.insert(id.clone(), translated.clone());
            }
        }
        let missing: Vec<&String> = english
            .keys()
            .filter(|id| !table.contains_key(*id))
            .collect();
        if !missing.is_empty() && !locale.prefix.is_empty() {
            let shown: Vec<&str> = missing.iter().take(5).map(|s| s.as_str()).collect();
            let more = missing.len().saturating_sub(shown.len());
            let mut d = Diagnostic::new(
                "strings.missing",
                format!(
                    "the locale `{}` has no text for {} UI string(s) ({}{}): they are shown in English",
                    locale.code,
                    missing.len(),
                    shown.join(", "),
                    if more > 0 { format!(" and {more} more") } else { String::new() }
                ),
            )
            .hint(format!("add them to {rel} (ids as in docgen's templates/strings.json)"))
            .warning();
            d = if own.is_some() {
                d.in_file(&rel).at(1, 1)
            } else {
                d.in_file("site.yaml")
            };
            warnings.push(d);
        }
        for (id, text) in &english {
            table.entry(id.clone()).or_insert_with(|| text.clone());
        }
        tables.push(Arc::new(table));
    }
    (tables, warnings)
}

/// The line of a JSON table where `id` is a key.
fn text_line(text: &str, id: &str) -> usize {
    let key = format!("\"{id}\"");
    text.lines()
        .position(|l| l.contains(&key))
        .map_or(1, |i| i + 1)
}

/// The names a folder's own page may have, in the order they win when several exist.
pub const INDEX_NAMES: [&str; 5] = [
    "_index.md",
    "index.md",
    "README.md",
    "index.mdx",
    "README.mdx",
];

/// `content/`, or the root itself when there is no `content/` and the root holds a home page
/// (a Hugo-, mdBook- or GitHub-style tree of Markdown).
fn content_folder(root: &Path) -> PathBuf {
    let dir = root.join("content");
    if !dir.exists() && holds_home_page(root) {
        root.to_path_buf()
    } else {
        dir
    }
}

fn holds_home_page(root: &Path) -> bool {
    INDEX_NAMES.iter().any(|n| root.join(n).is_file())
}

/// A folder named in site.yaml: a plain relative path inside the site root.
fn validate_folder(folder: &str) -> Result<(), &'static str> {
    let path = Path::new(folder);
    if folder.trim().is_empty() {
        return Err("is empty");
    }
    if path.is_absolute() || folder.starts_with('/') || folder.starts_with('\\') {
        return Err("is an absolute path");
    }
    if path.components().any(|c| {
        !matches!(
            c,
            std::path::Component::Normal(_) | std::path::Component::CurDir
        )
    }) {
        return Err("leaves the site root");
    }
    Ok(())
}

/// The text of `site.yaml`, which every site needs but a Hugo-style tree (its own `_index.md`
/// at the top, no `content/`), which builds with the defaults.
fn read_site(root: &Path) -> Result<Option<Arc<str>>, Diagnostic> {
    let name = Path::new("site.yaml");
    if std::fs::symlink_metadata(root.join(name)).is_err() {
        let bare_tree = !root.join("content").exists() && holds_home_page(root);
        if bare_tree {
            return Ok(None);
        }
        return Err(Diagnostic::new(
            "config.missing",
            "the site root has no site.yaml",
        )
        .in_file(name)
        .hint("create site.yaml with at least `title: <your site's name>`, or pass --root with the folder that holds it"));
    }
    source::read(root, name).map(Some)
}

/// `site.yaml` parsed; an empty one is an error, as it can only be a mistake.
fn parse_site(text: Option<&str>) -> Result<Option<(SiteConfig, Arc<str>)>, Diagnostic> {
    let Some(text) = text else {
        return Ok(None);
    };
    let name = Path::new("site.yaml");
    let source: Arc<str> = Arc::from(text);
    let value = yaml::parse_value(text, name, 1, &source)?;
    if value.is_null() {
        return Err(Diagnostic::new("config.empty", "site.yaml is empty")
            .in_file(name)
            .at(1, 1)
            .hint("give the site at least a title: `title: <your site's name>`"));
    }
    let site = yaml::parse::<SiteConfig>(text, name, 1, &source)?;
    Ok(Some((site, source)))
}

/// The text of an optional file: `None` when it does not exist (a link to nothing exists, and
/// is refused by the reading rules).
fn read_optional(root: &Path, name: &str, errors: &mut Diagnostics) -> Option<Arc<str>> {
    if std::fs::symlink_metadata(root.join(name)).is_err() {
        return None;
    }
    source::read(root, Path::new(name))
        .map_err(|d| errors.push(d))
        .ok()
}

fn parse_optional<T: serde::de::DeserializeOwned>(
    text: Option<&str>,
    name: &str,
    errors: &mut Diagnostics,
) -> Option<(T, Arc<str>)> {
    let text = text?;
    let source: Arc<str> = Arc::from(text);
    match yaml::parse::<T>(text, Path::new(name), 1, &source) {
        Ok(v) => Some((v, source)),
        Err(d) => {
            errors.push(d);
            None
        }
    }
}

/// Splits "https://host/base/" into ("https://host", "/base").
fn split_url(url: &str) -> (String, String) {
    let url = url.trim_end_matches('/');
    let after_scheme = url.find("://").map_or(0, |i| i + 3);
    match url[after_scheme..].find('/') {
        Some(i) => (
            url[..after_scheme + i].to_string(),
            url[after_scheme + i..].to_string(),
        ),
        None if after_scheme == 0 && url.starts_with('/') => (String::new(), url.to_string()),
        None => (url.to_string(), String::new()),
    }
}

/// `editUrl` is an absolute http(s) address with a host, to which a page's file is appended:
/// no spaces, query or fragment (the file could not follow them).
pub fn validate_edit_url(url: &str) -> Result<(), &'static str> {
    let rest = url
        .strip_prefix("https://")
        .or_else(|| url.strip_prefix("http://"))
        .ok_or("must be an absolute address starting with https:// or http://")?;
    let host = rest.split('/').next().unwrap_or_default();
    if host.is_empty() {
        return Err("has no host after the scheme");
    }
    if url.chars().any(|c| c.is_whitespace() || c.is_control()) {
        return Err("must not contain spaces");
    }
    if url.contains(['?', '#']) {
        return Err("must not contain ? or #: the page's file is added at its end");
    }
    Ok(())
}

/// The `--base-url` override: an absolute http(s) address, or a usage error.
pub fn check_overrides(overrides: &Overrides) -> Result<(), Diagnostic> {
    match &overrides.base_url {
        Some(url) => validate_site_url(url, false).map_err(|why| {
            Diagnostic::new(
                "usage.base-url",
                format!("--base-url `{}` {why}", url.escape_debug()),
            )
            .hint("pass the site's address, e.g. --base-url https://preview.example.com/pr/7/")
        }),
        None => Ok(()),
    }
}

/// An address the site is served at, or that its data calls go to: an absolute http(s) URL
/// with a host name (or IP) and an optional port and path, or (with `path_ok`) an absolute
/// path of this site. Nothing that would break a header line, a field of `_redirects` or a
/// source expression of the Content-Security-Policy: no whitespace, control characters,
/// quotes, `;` or `,`, and no query or fragment (routes are added after it).
pub fn validate_site_url(url: &str, path_ok: bool) -> Result<(), &'static str> {
    if url.chars().any(|c| c.is_whitespace() || c.is_control()) {
        return Err("must not contain spaces, line breaks or other control characters");
    }
    if url.contains(['"', '\'', ';', ',', '\\', '<', '>', '`', '{', '}', '|', '^']) {
        return Err("must not contain quotes, ;, ,, \\, <, >, `, {, }, | or ^");
    }
    if url.contains(['?', '#']) {
        return Err("must not contain ? or #: the site's routes are added after it");
    }
    let Some(rest) = url
        .strip_prefix("https://")
        .or_else(|| url.strip_prefix("http://"))
    else {
        return if path_ok && url.starts_with('/') && !url.starts_with("//") {
            Ok(())
        } else if path_ok {
            Err(
                "must be an absolute address starting with https:// or http://, or a path starting with /",
            )
        } else {
            Err("must be an absolute address starting with https:// or http://")
        };
    };
    let authority = rest.split('/').next().unwrap_or_default();
    if authority.contains('@') {
        return Err("must not carry a user name or password");
    }
    let (host, port) = match authority.strip_prefix('[') {
        // An IPv6 address: [::1]:8080.
        Some(v6) => {
            let (addr, after) = v6.split_once(']').ok_or("has an unclosed [ in its host")?;
            if addr.is_empty()
                || !addr
                    .chars()
                    .all(|c| c.is_ascii_hexdigit() || c == ':' || c == '.')
            {
                return Err("has an invalid IPv6 address as its host");
            }
            match after {
                "" => (addr, None),
                _ => (addr, Some(after.strip_prefix(':').unwrap_or(""))),
            }
        }
        None => match authority.split_once(':') {
            Some((h, p)) => (h, Some(p)),
            None => (authority, None),
        },
    };
    if host.is_empty() {
        return Err("has no host after the scheme");
    }
    if !authority.starts_with('[')
        && !host.split('.').all(|label| {
            !label.is_empty() && label.chars().all(|c| c.is_ascii_alphanumeric() || c == '-')
        })
    {
        return Err("has a host that is not a domain name or IP address");
    }
    if let Some(port) = port
        && (port.is_empty() || port.len() > 5 || !port.chars().all(|c| c.is_ascii_digit()))
    {
        return Err("has a port that is not a number");
    }
    Ok(())
}

/// The addresses site.yaml links to: the menu's and the footer's links take no scheme that runs
/// code or carries a document of its own (unless `allowLinkSchemes` lists it), as Markdown
/// links do.
fn check_site_links(
    site: &SiteConfig,
    source: &Arc<str>,
    positions: &yaml::Positions,
) -> Vec<Diagnostic> {
    let placed = |d: Diagnostic, at: Option<(usize, usize)>| match at {
        Some((line, column)) => d.in_file("site.yaml").at(line, column).with_source(source),
        None => d.in_file("site.yaml"),
    };
    let menu = site
        .menu_links
        .iter()
        .map(|l| ("menuLinks", "menu", &l.display_name, Some(&l.url)));
    let footer = site
        .footer
        .iter()
        .map(|l| ("footer", "footer", &l.display_name, l.url.as_ref()));
    let mut errors = Vec::new();
    let mut index = std::collections::HashMap::new();
    for (section, what, name, url) in menu.chain(footer) {
        let n = index.entry(section).or_insert(0usize);
        let i = *n;
        *n += 1;
        let Some(url) = url else { continue };
        if let Some(scheme) = schemes::refused_scheme(url, &site.allow_link_schemes, false) {
            errors.push(placed(
                Diagnostic::new(
                    "link.unsafe-scheme",
                    format!("the {what} link `{name}` is a `{scheme}:` address, which runs or opens content a reader cannot trust"),
                )
                .hint(format!("link to a page or an https:// address; if the site really needs `{scheme}:` links, add `allowLinkSchemes: [{scheme}]` to site.yaml")),
                positions.value(&[section.into(), i.into(), "url".into()]),
            ));
        }
    }
    errors
}

/// Routes are absolute, without a trailing slash, without `.` or `..` segments.
/// The longest part of a route: each part is a folder of the output, and most file systems
/// refuse names longer than 255 bytes.
pub const MAX_ROUTE_PART: usize = 255;
/// The longest route: with the output folder and `/index.html` before and after it, a path
/// must stay within the 4096 bytes systems open.
pub const MAX_ROUTE: usize = 3584;

pub fn validate_route(route: &str) -> Result<(), &'static str> {
    if !route.starts_with('/') {
        return Err("must start with /");
    }
    if route.len() > 1 && route.ends_with('/') {
        return Err("must not end with /");
    }
    if route
        .split('/')
        .skip(1)
        .any(|s| s == "." || s == ".." || (s.is_empty() && route != "/"))
    {
        return Err("must not contain empty, . or .. segments");
    }
    if route.contains(['?', '#', ' ', '\\']) {
        return Err("must not contain ?, #, spaces or backslashes");
    }
    if route.split('/').any(|s| s.len() > MAX_ROUTE_PART) {
        return Err("has a part longer than 255 bytes, more than a file system allows in a name");
    }
    if route.len() > MAX_ROUTE {
        return Err("is longer than 3584 bytes, more than an output path may be");
    }
    Ok(())
}

/// Whether a phrase holds a word the search indexes: a run of letters, digits and `_` of two
/// characters or more, or a single digit or Han, kana or Hangul letter (the rule of
/// `search::tokens`, a later stage).
fn has_word(phrase: &str) -> bool {
    phrase
        .split(|c: char| !(c.is_alphanumeric() || c == '_'))
        .any(|w| {
            let mut chars = w.chars();
            match (chars.next(), chars.next()) {
                (Some(_), Some(_)) => true,
                (Some(c), None) => c.is_ascii_digit() || locales::is_cjk(c),
                _ => false,
            }
        })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_synonym_needs_a_word_the_search_indexes() {
        assert!(has_word("mrec"));
        assert!(has_word("OpenRTB 2"));
        // One Chinese character is a term of its own; one Latin letter is not.
        assert!(has_word("广"));
        assert!(!has_word("a"));
        assert!(!has_word("- ·"));
    }

    #[test]
    fn url_splits_into_origin_and_base_path() {
        assert_eq!(
            split_url("https://x.test"),
            ("https://x.test".into(), "".into())
        );
        assert_eq!(
            split_url("https://x.test/"),
            ("https://x.test".into(), "".into())
        );
        assert_eq!(
            split_url("https://x.test/pr/7/"),
            ("https://x.test".into(), "/pr/7".into())
        );
        assert_eq!(split_url("/sub"), ("".into(), "/sub".into()));
        assert_eq!(split_url(""), ("".into(), "".into()));
    }

    fn site_with(yaml: &str) -> Result<Config, Diagnostics> {
        from_texts(Path::new("/site"), Some(yaml), None, &Overrides::default())
    }

    #[test]
    fn edit_url_is_read_and_joined_with_the_page_file() {
        let config =
            site_with("title: T\neditUrl: https://github.com/org/docs/edit/main/\n").unwrap();
        assert_eq!(
            config.site.edit_url.as_deref(),
            Some("https://github.com/org/docs/edit/main/")
        );
        assert_eq!(
            config
                .site
                .edit_url_of(Path::new("content/docs/a b#1.md"))
                .as_deref(),
            Some("https://github.com/org/docs/edit/main/content/docs/a%20b%231.md")
        );
        let without = site_with("title: T\n").unwrap();
        assert_eq!(without.site.edit_url_of(Path::new("content/x.md")), None);
    }

    #[test]
    fn synonym_groups_need_two_phrases_with_words() {
        let config = site_with("search:\n  synonyms:\n    - [mrec, medium rectangle]\n").unwrap();
        assert_eq!(config.site.search.synonyms[0], ["mrec", "medium rectangle"]);
        let errors = site_with("search:\n  synonyms:\n    - [mrec, medium rectangle]\n    - [lonely]\n    - [att, \"--\"]\n").unwrap_err();
        let got: Vec<(&str, usize)> = errors.0.iter().map(|d| (d.code, d.line)).collect();
        assert_eq!(
            got,
            [("config.bad-synonyms", 4), ("config.bad-synonyms", 5)]
        );
        assert!(
            errors.0[1].message.contains("`--`"),
            "{}",
            errors.0[1].message
        );
    }

    #[test]
    fn a_bad_edit_url_is_an_error_at_its_line() {
        for (bad, why) in [
            ("github.com/org/docs/edit/main", "https://"),
            ("ftp://example.com/edit", "https://"),
            ("https:///edit/main", "no host"),
            ("https://example.com/edit?ref=main", "?"),
            ("\"https://example.com/a b\"", "spaces"),
        ] {
            let errors = site_with(&format!("title: T\n\neditUrl: {bad}\n")).unwrap_err();
            assert_eq!(errors.0.len(), 1, "{bad}");
            let d = &errors.0[0];
            assert_eq!(d.code, "config.bad-edit-url", "{bad}");
            assert!(d.message.contains(why), "{bad}: {}", d.message);
            assert_eq!(d.file.as_deref(), Some(Path::new("site.yaml")));
            assert_eq!(d.line, 3, "{bad}");
            assert!(d.hint.as_deref().unwrap().contains("edit"));
        }
        // Not a string at all: the YAML reader says so, at the line.
        let errors = site_with("title: T\neditUrl: [a]\n").unwrap_err();
        assert_eq!(errors.0[0].code, "yaml.wrong-type");
        assert_eq!(errors.0[0].line, 2);
    }

    #[test]
    fn menu_and_footer_links_refuse_code_running_schemes_at_their_line() {
        let yaml = "title: T\nmenuLinks:\n  - displayName: Blog\n    url: https://example.com/blog\n  - displayName: Evil\n    url: \" JavaScript:alert(1)\"\nfooter:\n  - {displayName: Terms, url: \"https://example.com/terms\"}\n  - {displayName: Data, url: \"data:text/html,x\"}\n  - displayName: Tabbed\n    url: \"java\\tscript:x()\"\n  - {displayName: Mail, url: \"mailto:a@example.com\"}\n";
        let errors = site_with(yaml).unwrap_err();
        let placed: Vec<_> = errors
            .0
            .iter()
            .map(|d| (d.code, d.line, d.column, d.message.clone()))
            .collect();
        assert_eq!(placed.len(), 3, "{placed:#?}");
        assert_eq!(
            (placed[0].0, placed[0].1, placed[0].2),
            ("link.unsafe-scheme", 6, 10)
        );
        assert!(placed[0].3.contains("menu link `Evil`"), "{}", placed[0].3);
        assert_eq!((placed[1].1, placed[1].2), (9, 30));
        assert!(placed[1].3.contains("`data:`"), "{}", placed[1].3);
        assert_eq!((placed[2].1, placed[2].2), (11, 10));
        assert!(
            errors
                .0
                .iter()
                .all(|d| d.file.as_deref() == Some(Path::new("site.yaml")))
        );
        // The site may allow a scheme by name.
        let allowed = format!("{yaml}allowLinkSchemes: [javascript, data]\n");
        assert!(site_with(&allowed).is_ok());
    }

    #[test]
    fn the_site_url_is_an_absolute_http_address() {
        assert!(site_with("title: T\nurl: https://example.github.io/docs/\n").is_ok());
        assert!(site_with("title: T\nurl: http://localhost:8080\n").is_ok());
        for (bad, why) in [
            ("javascript:alert(1)", "https://"),
            ("/docs", "https://"),
            ("//example.com", "https://"),
            ("https://", "no host"),
            ("https://example.com/?a=b", "?"),
        ] {
            let errors =
                site_with(&format!("title: T\nmenuLinks: []\nurl: \"{bad}\"\n")).unwrap_err();
            assert_eq!(errors.0.len(), 1, "{bad}");
            let d = &errors.0[0];
            assert_eq!(d.code, "config.bad-url", "{bad}");
            assert!(d.message.contains(why), "{bad}: {}", d.message);
            assert_eq!((d.line, d.column), (3, 6), "{bad}");
        }
    }

    #[test]
    fn routes_are_validated() {
        assert!(validate_route("/").is_ok());
        assert!(validate_route("/a/b").is_ok());
        assert!(validate_route("a").is_err());
        assert!(validate_route("/a/").is_err());
        assert!(validate_route("/a/../b").is_err());
        assert!(validate_route("/a//b").is_err());
        let part = "p".repeat(MAX_ROUTE_PART);
        assert!(validate_route(&format!("/a/{part}")).is_ok());
        assert!(validate_route(&format!("/a/{part}q/b")).is_err());
        let long = format!("/{part}").repeat(MAX_ROUTE / (MAX_ROUTE_PART + 1));
        assert!(validate_route(&long).is_ok());
        assert!(validate_route(&format!("{long}/a/b/c/d/e/f/g/h/i/j/k/l/m/n/o")).is_err());
    }

    #[test]
    fn site_addresses_are_absolute_http_urls_without_breaking_characters() {
        for good in [
            "https://api.example.com",
            "http://localhost:8080/v1/",
            "https://[::1]:443/api",
            "https://xn--bcher-kva.example",
        ] {
            assert_eq!(validate_site_url(good, false), Ok(()), "{good}");
        }
        for bad in [
            "https://api.example.com\nSet-Cookie: a",
            "https://api.example.com 'unsafe-eval'",
            "https://api.example.com;script-src",
            "https://a.example.com,https://b.example.com",
            "https://\"x\"",
            "https://api.example.com/?q",
            "https://user@api.example.com",
            "https://api.example.com:80a",
            "https://",
            "https://bad_host.example",
            "https://[::1",
            "javascript:alert(1)",
            "//api.example.com",
            "/api",
            "api.example.com",
        ] {
            assert!(validate_site_url(bad, false).is_err(), "{bad}");
        }
        assert_eq!(validate_site_url("/api", true), Ok(()));
        assert!(validate_site_url("//api.example.com", true).is_err());
        assert!(validate_site_url("/a b", true).is_err());
    }

    #[test]
    fn a_bad_api_base_or_url_is_an_error_at_its_line() {
        let errors = site_with("title: T\napiBase: \"https://a.test\\nX-A: b\"\n").unwrap_err();
        let d = &errors.0[0];
        assert_eq!((d.code, d.line), ("config.bad-api-base", 2));
        assert!(
            d.message.contains("\\n") && !d.message.contains('\n'),
            "{}",
            d.message
        );
        let errors = site_with("title: T\n\nurl: https://docs.test/a b\n").unwrap_err();
        assert_eq!((errors.0[0].code, errors.0[0].line), ("config.bad-url", 3));
        assert!(site_with("title: T\nurl: /docs\n").is_err());
        assert!(site_with("title: T\nurl: https://a.test/docs\napiBase: /api\n").is_ok());
    }

    #[test]
    fn base_url_is_a_usage_error_when_it_is_not_an_address() {
        let with = |url: &str| Overrides {
            base_url: Some(url.into()),
            ..Overrides::default()
        };
        assert!(check_overrides(&with("https://preview.test/pr/7/")).is_ok());
        let d = check_overrides(&with("https://preview.test/pr 7/")).unwrap_err();
        assert_eq!(d.code, "usage.base-url");
        assert!(check_overrides(&with("/pr/7")).is_err());
        let errors = from_texts(
            Path::new("/site"),
            Some("title: T\n"),
            None,
            &with("https://x.test/\r\n"),
        )
        .unwrap_err();
        assert_eq!(errors.0[0].code, "usage.base-url");
    }
}
