//! Front matter: the YAML block at the top of a page, typed and strict.

use std::path::Path;
use std::sync::Arc;

use serde::{Deserialize, Serialize};

use crate::config::yaml;
use crate::diagnostics::Diagnostic;

/// The keys a page may set. Unknown keys are errors (see `config::yaml`).
#[derive(Debug, Clone, Default, Deserialize, Serialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct FrontMatter {
    pub title: Option<String>,
    pub description: Option<String>,
    /// Position among menu siblings; `weight` is the Hugo-style synonym.
    pub order: Option<Number>,
    pub weight: Option<Number>,
    pub menu_label: Option<String>,
    /// An icon under `static/`, shown before level-1 menu items.
    pub icon: Option<String>,
    pub icon_alt: Option<String>,
    #[serde(default)]
    pub aliases: Vec<String>,
    pub require_feature: Option<String>,
    pub hidden: Option<Flag>,
    /// The menu group (declared by the parent section's `groups`) this page is listed under.
    pub group: Option<String>,
    #[serde(default)]
    pub groups: Vec<MenuGroup>,
    /// On a section index: `false` makes the section a menu entry without a page.
    pub page: Option<Flag>,
    pub toc: Option<Flag>,
    pub layout: Option<Layout>,
    pub template: Option<Flag>,
    pub generate: Option<Box<Generate>>,
    /// On a translation (`page.zh.md`): the digest of its source's bytes when it was
    /// translated, written by `docgen translations stamp`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub translated_from: Option<String>,
    // Docusaurus's keys, so its pages build unchanged: those with a docgen meaning take it
    // (`apply_docusaurus`), the others are accepted, and the ones that change what a
    // Docusaurus reader sees are reported (`docusaurus_ignored`).
    pub id: Option<String>,
    pub slug: Option<String>,
    #[serde(rename = "sidebar_label")]
    pub sidebar_label: Option<String>,
    #[serde(rename = "sidebar_position")]
    pub sidebar_position: Option<Number>,
    #[serde(rename = "hide_table_of_contents")]
    pub hide_table_of_contents: Option<Flag>,
    pub draft: Option<Flag>,
    pub unlisted: Option<Flag>,
    pub keywords: Option<Box<yaml_serde::Value>>,
    pub tags: Option<Box<yaml_serde::Value>>,
    pub image: Option<String>,
    #[serde(rename = "last_update")]
    pub last_update: Option<Box<yaml_serde::Value>>,
    #[serde(rename = "sidebar_class_name")]
    pub sidebar_class_name: Option<String>,
    #[serde(rename = "sidebar_custom_props")]
    pub sidebar_custom_props: Option<Box<yaml_serde::Value>>,
    #[serde(rename = "sidebar_key")]
    pub sidebar_key: Option<String>,
    #[serde(rename = "hide_title")]
    pub hide_title: Option<Flag>,
    #[serde(rename = "pagination_label")]
    pub pagination_label: Option<String>,
    #[serde(rename = "pagination_next")]
    pub pagination_next: Option<Box<yaml_serde::Value>>,
    #[serde(rename = "pagination_prev")]
    pub pagination_prev: Option<Box<yaml_serde::Value>>,
    #[serde(rename = "displayed_sidebar")]
    pub displayed_sidebar: Option<Box<yaml_serde::Value>>,
    #[serde(rename = "custom_edit_url")]
    pub custom_edit_url: Option<Box<yaml_serde::Value>>,
    #[serde(rename = "toc_min_heading_level")]
    pub toc_min_heading_level: Option<Number>,
    #[serde(rename = "toc_max_heading_level")]
    pub toc_max_heading_level: Option<Number>,
    #[serde(rename = "parse_number_prefixes")]
    pub parse_number_prefixes: Option<Flag>,
}

impl FrontMatter {
    /// The keys that show on the page's own files only (its HTML, its Markdown twin, its entry
    /// of the table of contents): an edit of them alone is an edit of the page's body. Every
    /// other key counts as part of what other pages show (`Page::shape_digest`).
    pub const OWN_KEYS: &[&str] = &[
        "description",
        "toc",
        "layout",
        "hide_table_of_contents",
        "toc_min_heading_level",
        "toc_max_heading_level",
        "translatedFrom",
    ];

    /// Feeds `h` every key as serialised, except `OWN_KEYS` unless `own`.
    pub(crate) fn digest_keys(&self, h: &mut impl std::hash::Hasher, own: bool) {
        use std::hash::Hash;
        if own {
            // Every key: the serialised front matter in one pass.
            if serde_json::to_writer(HashWriter(&mut *h), self).is_err() {
                format!("{self:?}").hash(h);
            }
            return;
        }
        match serde_json::to_value(self) {
            Ok(serde_json::Value::Object(keys)) => {
                for (key, value) in &keys {
                    if own || !Self::OWN_KEYS.contains(&key.as_str()) {
                        key.hash(h);
                        value.to_string().hash(h);
                    }
                }
            }
            // Not representable as JSON: every key counts, as written.
            _ => format!("{self:?}").hash(h),
        }
    }

    /// The Docusaurus keys given that docgen does not apply, for a warning each.
    pub fn docusaurus_ignored(&self) -> Vec<&'static str> {
        let given = [
            ("hide_title", self.hide_title.is_some()),
            ("pagination_label", self.pagination_label.is_some()),
            ("pagination_next", self.pagination_next.is_some()),
            ("pagination_prev", self.pagination_prev.is_some()),
            ("displayed_sidebar", self.displayed_sidebar.is_some()),
            ("custom_edit_url", self.custom_edit_url.is_some()),
            (
                "toc_min_heading_level",
                self.toc_min_heading_level.is_some(),
            ),
            (
                "toc_max_heading_level",
                self.toc_max_heading_level.is_some(),
            ),
        ];
        given
            .into_iter()
            .filter(|(_, g)| *g)
            .map(|(k, _)| k)
            .collect()
    }
}

#[derive(Debug, Clone, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct MenuGroup {
    pub id: String,
    pub label: String,
}

#[derive(Debug, Clone, Copy, Default, Deserialize, Serialize, PartialEq, Eq)]
#[serde(rename_all = "lowercase")]
pub enum Layout {
    #[default]
    Doc,
    Faq,
}

impl Layout {
    pub fn name(self) -> &'static str {
        match self {
            Layout::Doc => "doc",
            Layout::Faq => "faq",
        }
    }
}

/// `generate`: one page per item (or per combination of items) of YAML lists.
#[derive(Debug, Clone, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct Generate {
    /// Several sources: one page per combination.
    #[serde(default)]
    pub each: Vec<Source>,
    /// A single source, written inline.
    pub data: Option<String>,
    #[serde(rename = "as")]
    pub name: Option<String>,
    #[serde(rename = "where")]
    pub filter: Option<String>,
    /// The route of each page, a template.
    pub route: String,
}

#[derive(Debug, Clone, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct Source {
    /// A data file name, optionally followed by `.key.key` into it.
    pub data: String,
    #[serde(rename = "as")]
    pub name: String,
    /// An expression over the items bound so far; combinations where it is false are skipped.
    #[serde(rename = "where")]
    pub filter: Option<String>,
}

impl Generate {
    pub fn sources(&self) -> Vec<Source> {
        let mut all = self.each.clone();
        if let (Some(data), Some(name)) = (&self.data, &self.name) {
            all.insert(
                0,
                Source {
                    data: data.clone(),
                    name: name.clone(),
                    filter: self.filter.clone(),
                },
            );
        }
        all
    }
}

/// A number, also accepted as a string so that templated front matter (`"{{ x.order }}"`) works.
#[derive(Debug, Clone, Deserialize, Serialize)]
#[serde(untagged)]
pub enum Number {
    Int(i64),
    /// Docusaurus positions may be fractional (`2.5`); they order by their whole part.
    Float(f64),
    Text(String),
}

/// A boolean, also accepted as a string for templated front matter.
#[derive(Debug, Clone, Deserialize, Serialize)]
#[serde(untagged)]
pub enum Flag {
    Bool(bool),
    Text(String),
}

impl Number {
    pub fn value(&self) -> Result<i64, String> {
        match self {
            Number::Int(i) => Ok(*i),
            Number::Float(f) if f.is_finite() => Ok(f.floor() as i64),
            Number::Float(f) => Err(format!("`{f}` is not a whole number")),
            Number::Text(t) => t
                .trim()
                .parse()
                .map_err(|_| format!("`{t}` is not a whole number")),
        }
    }
}

impl Flag {
    pub fn value(&self) -> Result<bool, String> {
        match self {
            Flag::Bool(b) => Ok(*b),
            Flag::Text(t) => match t.trim() {
                "true" | "True" | "yes" => Ok(true),
                "false" | "False" | "no" | "" => Ok(false),
                other => Err(format!("`{other}` is not true or false")),
            },
        }
    }
}

/// Where each value of the front matter of the page text `text` is written, as the YAML
/// parser reports it. Read only when a message needs a place: a page's front matter is
/// otherwise parsed once, into its typed form.
pub fn positions(text: &str) -> crate::config::yaml::Positions {
    match split(text).yaml {
        Some((yaml, line)) => crate::config::yaml::Positions::read(yaml, line),
        None => crate::config::yaml::Positions::default(),
    }
}

/// A page file split into its front matter and body.
pub struct Split<'a> {
    /// The YAML text, and the line of the file it starts on.
    pub yaml: Option<(&'a str, usize)>,
    pub body: &'a str,
    /// The line of the file the body starts on.
    pub body_line: usize,
}

/// Splits `---` front matter from the body.
pub fn split(text: &str) -> Split<'_> {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let first_end = text.find('\n').map_or(text.len(), |i| i + 1);
    if text[..first_end].trim_end() != "---" {
        return Split {
            yaml: None,
            body: text,
            body_line: 1,
        };
    }
    let mut offset = first_end;
    let mut line = 2;
    for l in text[first_end..].split_inclusive('\n') {
        if matches!(l.trim_end(), "---" | "...") {
            let yaml = &text[first_end..offset];
            let body = &text[offset + l.len()..];
            return Split {
                yaml: Some((yaml, 2)),
                body,
                body_line: line + 1,
            };
        }
        offset += l.len();
        line += 1;
    }
    // No closing line: treat everything as front matter so the error points into it.
    Split {
        yaml: Some((&text[first_end..], 2)),
        body: "",
        body_line: line,
    }
}

/// Parses the front matter text of `file`.
pub fn parse(
    yaml_text: &str,
    first_line: usize,
    file: &Path,
    source: &Arc<str>,
) -> Result<FrontMatter, Diagnostic> {
    if yaml_text.trim().is_empty() {
        return Ok(FrontMatter::default());
    }
    yaml::parse::<FrontMatter>(yaml_text, file, first_line, source).map(|mut fm| {
        // Hugo's `weight` means the same as `order`.
        if fm.order.is_none() {
            fm.order = fm.weight.take();
        }
        apply_docusaurus(&mut fm);
        fm
    })
}

/// Docusaurus's keys in docgen's terms, where docgen's own key is not given.
fn apply_docusaurus(fm: &mut FrontMatter) {
    if fm.menu_label.is_none() {
        fm.menu_label = fm.sidebar_label.clone();
    }
    if fm.order.is_none() {
        fm.order = fm.sidebar_position.clone();
    }
    if fm.toc.is_none() {
        fm.toc = fm
            .hide_table_of_contents
            .as_ref()
            .map(|hide| match hide.value() {
                Ok(h) => Flag::Bool(!h),
                Err(_) => hide.clone(),
            });
    }
    if fm.hidden.is_none() {
        fm.hidden = fm.unlisted.clone().or_else(|| fm.draft.clone());
    }
}

/// Feeds the bytes written to it to a hasher.
struct HashWriter<'h, H>(&'h mut H);

impl<H: std::hash::Hasher> std::io::Write for HashWriter<'_, H> {
    fn write(&mut self, bytes: &[u8]) -> std::io::Result<usize> {
        self.0.write(bytes);
        Ok(bytes.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn splits_front_matter_and_counts_lines() {
        let s = split("---\ntitle: A\n---\nBody\n");
        assert_eq!(s.yaml, Some(("title: A\n", 2)));
        assert_eq!(s.body, "Body\n");
        assert_eq!(s.body_line, 4);
        let none = split("Just text\n");
        assert!(none.yaml.is_none());
    }

    #[test]
    fn weight_is_order_and_strings_are_numbers() {
        let src: Arc<str> = Arc::from("");
        let fm = parse("title: A\nweight: 20\n", 2, Path::new("a.md"), &src).unwrap();
        assert_eq!(fm.order.unwrap().value(), Ok(20));
        let fm = parse(
            "title: A\norder: \"30\"\nhidden: \"true\"\n",
            2,
            Path::new("a.md"),
            &src,
        )
        .unwrap();
        assert_eq!(fm.order.unwrap().value(), Ok(30));
        assert_eq!(fm.hidden.unwrap().value(), Ok(true));
    }

    #[test]
    fn docusaurus_keys_take_their_docgen_meaning() {
        let src: Arc<str> = Arc::from("");
        let text = "id: intro\nslug: /start\nsidebar_label: Start\nsidebar_position: 2.5\nhide_table_of_contents: true\npagination_next: null\n";
        let fm = parse(text, 2, Path::new("a.md"), &src).unwrap();
        assert_eq!(fm.menu_label.as_deref(), Some("Start"));
        assert_eq!(fm.order.as_ref().unwrap().value(), Ok(2));
        assert_eq!(fm.toc.as_ref().unwrap().value(), Ok(false));
        assert_eq!(fm.slug.as_deref(), Some("/start"));
        // A null value reads as not given.
        assert_eq!(fm.docusaurus_ignored(), Vec::<&str>::new());
        let fm = parse("pagination_label: x\n", 2, Path::new("a.md"), &src).unwrap();
        assert_eq!(fm.docusaurus_ignored(), vec!["pagination_label"]);
    }

    #[test]
    fn unknown_keys_are_reported_at_their_line() {
        let text = "title: A\nmenulabel: B\n";
        let src: Arc<str> = Arc::from(format!("---\n{text}---\n").as_str());
        let e = parse(text, 2, Path::new("a.md"), &src).unwrap_err();
        assert_eq!(e.line, 3);
        assert_eq!(e.hint.as_deref(), Some("did you mean `menuLabel`?"));
    }
}
