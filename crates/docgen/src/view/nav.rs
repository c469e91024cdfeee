//! The menu tree as the tables and shards give it (`nav.json`), and the ids of its entries.

use std::borrow::Cow;

use serde::Serialize;
use ts_rs::TS;

use crate::model::Site;

/// A node of the menu tree, in the specification's shape (`nav.json`, the nav shards). Urls
/// are routes, without the base path, like every table of `_docgen/`.
#[derive(Debug, Clone, Hash, Serialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct NavNode<'a> {
    pub display_name: &'a str,
    pub id: Cow<'a, str>,
    pub is_page: bool,
    pub url: &'a str,
    /// Where the breadcrumb of a section without a page of its own leads: its first page
    /// (see `page::breadcrumbs`).
    #[serde(skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub breadcrumb_url: Option<&'a str>,
    pub children: Vec<NavNode<'a>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub icon: Option<Icon<'a>>,
    /// Shown only when the site enables this feature.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub require_feature: Option<&'a str>,
    /// An external menu link (the last nodes of a list), opened in a new tab.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    #[ts(optional, as = "Option<bool>")]
    pub external: bool,
    /// In an area's nav shard: this level-1 item's children are left out, in a shard of their
    /// own (found by the item's id in `_docgen/nav/index.json`).
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    #[ts(optional, as = "Option<bool>")]
    pub sharded: bool,
}

/// A menu icon.
#[derive(Debug, Clone, Hash, Serialize, TS)]
pub struct Icon<'a> {
    /// The icon's address.
    pub src: Cow<'a, str>,
    pub alt: Cow<'a, str>,
}

/// Words of a label joined by hyphens: the id of a footer link or an external menu link.
pub fn slug(s: &str) -> String {
    s.to_lowercase()
        .split(|c: char| !c.is_alphanumeric())
        .filter(|p| !p.is_empty())
        .collect::<Vec<_>>()
        .join("-")
}

impl<'a> Icon<'a> {
    pub fn of(icon: &'a crate::model::nav::Icon) -> Self {
        Icon {
            src: Cow::Borrowed(&icon.src),
            alt: Cow::Borrowed(&icon.alt),
        }
    }
}

/// The node `idx` of the menu with its whole subtree.
pub fn node<'a>(site: &'a Site<'_>, idx: usize) -> NavNode<'a> {
    let n = &site.nav.nodes[idx];
    let crumb_leads_elsewhere = !n.is_page && !n.is_group && n.parent.is_some();
    NavNode {
        display_name: &n.label,
        id: Cow::Borrowed(&n.id),
        is_page: n.is_page,
        url: &n.route,
        breadcrumb_url: if crumb_leads_elsewhere {
            super::page::first_page(site, idx)
        } else {
            None
        },
        children: n.children.iter().map(|&c| node(site, c)).collect(),
        icon: n.icon.as_ref().map(Icon::of),
        require_feature: n.require_feature.as_deref(),
        external: false,
        sharded: false,
    }
}

/// The external menu links, as the last nodes of a list; their ids come from their labels so
/// every node has one.
pub fn external_links<'a>(site: &'a Site<'_>) -> Vec<NavNode<'a>> {
    site.config
        .site
        .menu_links
        .iter()
        .map(|l| NavNode {
            display_name: &l.display_name,
            id: Cow::Owned(format!("external-{}", slug(&l.display_name))),
            is_page: false,
            url: &l.url,
            breadcrumb_url: None,
            children: Vec::new(),
            icon: l
                .icon
                .as_deref()
                .and_then(|i| site.assets.href(i))
                .map(|src| Icon {
                    src: Cow::Owned(src),
                    alt: Cow::Owned(l.icon_alt.clone().unwrap_or_default()),
                }),
            require_feature: None,
            external: true,
            sharded: false,
        })
        .collect()
}

/// `nav.json`: the area roots with their trees, then the external menu links.
pub fn tree<'a>(site: &'a Site<'_>) -> Vec<NavNode<'a>> {
    let mut nodes: Vec<NavNode<'a>> = site.nav.roots.iter().map(|&r| node(site, r)).collect();
    nodes.extend(external_links(site));
    nodes
}
