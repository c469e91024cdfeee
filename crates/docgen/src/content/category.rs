//! `_category_.yml` (also `.yaml`, `.json`): what a folder's menu section is called, where it
//! stands, and the order of what it holds. Docusaurus writes these files; docgen reads the same
//! keys and adds `items` and `hidden`, which `docgen import` writes from a book's summary or a
//! sidebar file. A category overrides what the pages' own front matter says.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use serde::Deserialize;

use crate::config::yaml;
use crate::diagnostics::Diagnostic;

/// The names a category file may have.
pub const FILE_NAMES: [&str; 3] = ["_category_.yml", "_category_.yaml", "_category_.json"];

#[derive(Debug, Clone, Default, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct Category {
    /// The section's name in the menu.
    pub label: Option<String>,
    /// The section's place among its siblings.
    pub position: Option<f64>,
    /// The folder's pages and sub-folders by name, in menu order, each optionally with its
    /// menu label: listed entries come first, in this order; the others follow by their own
    /// order, then by name.
    #[serde(default)]
    pub items: Vec<Item>,
    /// Names of pages and sub-folders kept out of the menu (still built and linkable).
    #[serde(default)]
    pub hidden: Vec<String>,
    // Docusaurus keys that change how its sidebar looks; docgen's menu has its own behaviour.
    pub collapsed: Option<bool>,
    pub collapsible: Option<bool>,
    pub class_name: Option<String>,
    pub custom_props: Option<yaml_serde::Value>,
    pub link: Option<yaml_serde::Value>,
    pub description: Option<String>,
    pub key: Option<String>,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(untagged)]
pub enum Item {
    Name(String),
    Labelled { name: String, label: Option<String> },
}

impl Item {
    fn name(&self) -> &str {
        match self {
            Item::Name(n) | Item::Labelled { name: n, .. } => n.trim_end_matches('/'),
        }
    }
    fn label(&self) -> Option<&str> {
        match self {
            Item::Labelled { label, .. } => label.as_deref(),
            Item::Name(_) => None,
        }
    }
}

/// What the categories say about one entry of the menu.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Placement {
    pub order: Option<i64>,
    pub label: Option<String>,
    pub hidden: bool,
}

/// Listed items come before every page's own order.
const LISTED_FIRST: i64 = i64::MIN / 2;

/// Every category of the content folder, by the folder holding it (relative to the content
/// folder, `""` for the top).
#[derive(Debug, Default)]
pub struct Categories {
    by_folder: BTreeMap<PathBuf, Category>,
}

impl Categories {
    pub fn insert(&mut self, folder: PathBuf, category: Category) {
        self.by_folder.insert(folder, category);
    }

    pub fn is_empty(&self) -> bool {
        self.by_folder.is_empty()
    }

    /// The folder's own category.
    pub fn of_folder(&self, folder: &Path) -> Option<&Category> {
        self.by_folder.get(folder)
    }

    /// Where the entry `inner` (a page file, or a folder for its section, relative to the
    /// content folder) stands: its parent's `items` and `hidden`, and for a folder (or a
    /// folder's own page) its own `label` and `position`.
    pub fn placement(&self, inner: &Path, is_index: bool) -> Placement {
        let mut placement = Placement::default();
        // A folder's own page stands for the folder in its parent's list.
        let entry = if is_index {
            inner.parent().unwrap_or(Path::new(""))
        } else {
            inner
        };
        if is_index && let Some(own) = self.by_folder.get(entry) {
            placement.label = own.label.clone();
            placement.order = own.position.map(position_order);
        }
        let Some(name) = entry.file_name().and_then(|n| n.to_str()) else {
            return placement;
        };
        let parent = entry.parent().unwrap_or(Path::new(""));
        if let Some(category) = self.by_folder.get(parent) {
            if let Some(i) = category.items.iter().position(|it| it.name() == name) {
                placement.order = Some(LISTED_FIRST + i as i64);
                if let Some(label) = category.items[i].label() {
                    placement.label = Some(label.to_string());
                }
            }
            placement.hidden = category
                .hidden
                .iter()
                .any(|h| h.trim_end_matches('/') == name);
        }
        placement
    }
}

/// A position such as `2` or `2.5` as an order, which is a whole number: `2.5` stands with `2`
/// (and comes before it only by name).
fn position_order(position: f64) -> i64 {
    position.floor() as i64
}

/// Reads one category file.
pub fn parse(text: &Arc<str>, file: &Path) -> Result<Category, Diagnostic> {
    if text.trim().is_empty() {
        return Ok(Category::default());
    }
    yaml::parse::<Category>(text, file, 1, text).map_err(|d| {
        d.hint("a category takes `label`, `position`, `items` (names in menu order) and `hidden` (names kept out of the menu)")
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn category(text: &str) -> Category {
        parse(&Arc::from(text), Path::new("content/g/_category_.yml")).unwrap()
    }

    #[test]
    fn items_order_and_label_the_entries_of_a_folder() {
        let mut all = Categories::default();
        all.insert(
            PathBuf::from("g"),
            category("label: Guide\nposition: 3\nitems: [b.md, {name: a.md, label: First}, sub]\nhidden: [frag.md]\n"),
        );
        let b = all.placement(Path::new("g/b.md"), false);
        let a = all.placement(Path::new("g/a.md"), false);
        assert!(b.order < a.order);
        assert_eq!(a.label.as_deref(), Some("First"));
        assert_eq!(
            all.placement(Path::new("g/c.md"), false),
            Placement::default()
        );
        assert!(all.placement(Path::new("g/frag.md"), false).hidden);
        // The section's own page takes the folder's label and position.
        let own = all.placement(Path::new("g/README.md"), true);
        assert_eq!((own.label.as_deref(), own.order), (Some("Guide"), Some(3)));
        // A sub-folder's page stands for the sub-folder in the list.
        assert!(
            all.placement(Path::new("g/sub/index.md"), true)
                .order
                .is_some()
        );
    }

    #[test]
    fn docusaurus_json_categories_are_read() {
        let c = category(
            "{\"label\": \"Tutorial\", \"position\": 2, \"link\": {\"type\": \"generated-index\"}, \"collapsed\": false}",
        );
        assert_eq!(c.label.as_deref(), Some("Tutorial"));
        let e = parse(
            &Arc::from("lable: x\n"),
            Path::new("content/_category_.yml"),
        )
        .unwrap_err();
        assert_eq!(e.line, 1);
    }
}
