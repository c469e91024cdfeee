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
    pub generate: Option<Generate>,
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
        fm
    })
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
    fn unknown_keys_are_reported_at_their_line() {
        let text = "title: A\nmenulabel: B\n";
        let src: Arc<str> = Arc::from(format!("---\n{text}---\n").as_str());
        let e = parse(text, 2, Path::new("a.md"), &src).unwrap_err();
        assert_eq!(e.line, 3);
        assert_eq!(e.hint.as_deref(), Some("did you mean `menuLabel`?"));
    }
}
