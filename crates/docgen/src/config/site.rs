//! `site.yaml`: the typed, strict description of the site.

use serde::{Deserialize, Serialize};
use ts_rs::TS;

/// How heading texts become ids.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash, Deserialize, Serialize, TS)]
#[serde(rename_all = "lowercase")]
pub enum AnchorRule {
    /// The text lower-cased, each run of whitespace one hyphen, everything else kept:
    /// `format(source, options)` → `format(source,-options)`.
    #[default]
    Literal,
    /// GitHub's rule (github-slugger), which links written elsewhere expect: lower-cased,
    /// everything but letters, numbers, marks, spaces, hyphens and underscores removed, each
    /// space a hyphen: `format(source, options)` → `formatsource-options`.
    Github,
}

/// The whole of `site.yaml`. Every key is optional so that a bare content tree (such as a
/// Hugo-style corpus) builds without one.
#[derive(Debug, Clone, Deserialize, Default)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct SiteConfig {
    /// The site title, in every `<title>` and the top bar.
    pub title: Option<String>,
    /// The site URL, for canonical links; `--base-url` overrides it.
    pub url: Option<String>,
    /// The folder of the pages, relative to the site root: `content` by default, or e.g. an
    /// existing book's `src` or a Docusaurus site's `docs`, configured in place.
    pub content: Option<String>,
    /// Text after "© <year>" in the footer.
    #[serde(default)]
    pub copyright: String,
    /// The logo, a path under `static/`.
    pub logo: Option<String>,
    /// The home route: the target of the root page and of unmatched legacy paths.
    pub home: Option<String>,
    /// The documentation areas; each is a level-0 root of the menu.
    #[serde(default)]
    pub areas: Vec<Area>,
    /// Enabled feature flags; menu items and links requiring others are hidden.
    #[serde(default)]
    pub features: Vec<String>,
    /// Base URL of the app's data calls; empty means this site.
    #[serde(default)]
    pub api_base: String,
    /// External links listed at the bottom of the left menu.
    #[serde(default)]
    pub menu_links: Vec<MenuLink>,
    /// Footer links.
    #[serde(default)]
    pub footer: Vec<FooterLink>,
    /// Link schemes that are refused by default (`javascript`, `vbscript`, `data`) but that
    /// this site allows in its pages.
    #[serde(default)]
    pub allow_link_schemes: Vec<String>,
    /// Data files published as JSON for the app's calls.
    #[serde(default)]
    pub publish: Vec<Publish>,
    /// The site search.
    #[serde(default)]
    pub search: Search,
    /// Markdown twins of the pages, `llms.txt` and `llms-full.txt`.
    #[serde(default)]
    pub llms: Llms,
    /// Where a page's source can be edited: an absolute http(s) address to which the page's
    /// file (relative to the site root, e.g. `content/docs/intro.md`) is appended, e.g.
    /// `https://github.com/org/repo/edit/main`. Checked by `config::validate_edit_url`.
    pub edit_url: Option<String>,
    /// The site's extensions, by name, with each one's settings (`extension::Registry`
    /// knows the names and reads the settings).
    #[serde(default)]
    pub extensions: std::collections::BTreeMap<String, yaml_serde::Value>,
    /// How Markdown pages are rendered: anchors, math, line numbers.
    #[serde(default)]
    pub markdown: MarkdownOptions,
    /// The versions of the documentation: the working tree's and earlier ones read from git.
    pub versions: Option<super::versions::Versions>,
    /// The languages the site is read in (see `config::locales`); one, English, without it.
    pub locales: Option<super::locales::LocalesConfig>,
}

/// `markdown:` in site.yaml.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(default, deny_unknown_fields, rename_all = "camelCase")]
pub struct MarkdownOptions {
    /// How heading texts become ids: `literal` (the default) or `github`.
    pub anchors: AnchorRule,
    /// `$…$` and `$$…$$` are LaTeX math, rendered to MathML (off: `$5 and $10` stays prose).
    pub math: bool,
    /// mdBook's `\\(…\\)` and `\\[…\\]` are math too.
    pub math_brackets: bool,
    /// Every code box numbers its lines.
    pub line_numbers: bool,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct Search {
    /// Write a search index and show the search box (on unless turned off).
    #[serde(default = "on")]
    pub enabled: bool,
    /// Sections whose pages belong to a platform, for the search's platform filter.
    #[serde(default)]
    pub platforms: Vec<Platform>,
    /// Groups of words or phrases a query may use for one another (`[mrec, medium rectangle]`):
    /// a query holding one finds the pages holding any.
    #[serde(default)]
    pub synonyms: Vec<Vec<String>>,
}

impl Default for Search {
    fn default() -> Self {
        Search {
            enabled: true,
            platforms: Vec::new(),
            synonyms: Vec::new(),
        }
    }
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct Llms {
    /// Write them (on unless turned off).
    #[serde(default = "on")]
    pub enabled: bool,
}

impl Default for Llms {
    fn default() -> Self {
        Llms { enabled: true }
    }
}

fn on() -> bool {
    true
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct Platform {
    pub display_name: String,
    /// The section holding the platform's pages.
    pub route: String,
}

#[derive(Debug, Clone, Deserialize, Serialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct Area {
    pub display_name: String,
    pub route: String,
    /// The page shown for unknown routes under this area.
    pub not_found: Option<NotFound>,
}

#[derive(Debug, Clone, Deserialize, Serialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct NotFound {
    pub title: String,
    pub subtitle: String,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct MenuLink {
    pub display_name: String,
    pub url: String,
    /// An icon, a path under `static/`.
    pub icon: Option<String>,
    pub icon_alt: Option<String>,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct FooterLink {
    pub display_name: String,
    pub url: Option<String>,
    /// `consent` opens the cookie consent dialog instead of following a link.
    pub action: Option<FooterAction>,
    pub icon: Option<FooterIcon>,
}

#[derive(Debug, Clone, Copy, Deserialize, PartialEq, Eq)]
#[serde(rename_all = "lowercase")]
pub enum FooterAction {
    Consent,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct FooterIcon {
    /// A path under `static/`.
    pub icon_src: String,
    pub icon_alt: String,
}

/// A data file published as a JSON document: `{"<field>": <data>}` at `path`,
/// or, with `each`, one document per list item at a path templated by the item.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct Publish {
    /// Output path, e.g. `docs/v1/mediated_networks`; with `each`, may use `{field}` of the item.
    pub path: String,
    /// The data: a file under `content/data/` without `.yaml`, optionally `.key.key`.
    pub data: String,
    /// The field the document wraps the data in.
    pub field: String,
    /// Publish one document per item of the list; the item's `items` key (or the item itself) is wrapped.
    #[serde(default)]
    pub each: Option<String>,
}

impl SiteConfig {
    pub fn title(&self) -> &str {
        self.title.as_deref().unwrap_or("Documentation")
    }

    /// The address where the source file `file` (relative to the site root) can be edited,
    /// when the site sets `editUrl`.
    pub fn edit_url_of(&self, file: &std::path::Path) -> Option<String> {
        let base = self.edit_url.as_deref()?;
        let mut url = base.trim_end_matches('/').to_string();
        for part in file.components() {
            if let std::path::Component::Normal(p) = part {
                url.push('/');
                url.extend(
                    percent_encoding::utf8_percent_encode(&p.to_string_lossy(), PATH_SEGMENT)
                        .map(|s| s.to_string()),
                );
            }
        }
        Some(url)
    }
}

/// What a path segment of an address may not hold as it is.
const PATH_SEGMENT: &percent_encoding::AsciiSet = &percent_encoding::CONTROLS
    .add(b' ')
    .add(b'"')
    .add(b'#')
    .add(b'%')
    .add(b'<')
    .add(b'>')
    .add(b'?')
    .add(b'`')
    .add(b'{')
    .add(b'}')
    .add(b'/')
    .add(b'\\');
