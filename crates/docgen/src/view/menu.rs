//! The menu branch a page inlines: the area's level-1 items, and the children of every
//! section on the way to the active item. The rest of the tree comes from the nav shards.
//!
//! Every list is capped at `MENU_WINDOW` items, a window around the item on the path, so a
//! page's menu stays the same size however large the site grows. A cut list ends (or starts)
//! with a "more" link to the first page past the window, whose own menu shows the window
//! around it: following those links reaches every item with JavaScript off.

use std::hash::{Hash, Hasher};
use std::ops::Range;

use serde::Serialize;

use super::nav::{self, Icon, NavNode};
use crate::model::Site;

/// The most items a page shows of one menu level.
pub const MENU_WINDOW: usize = 30;

/// The menu a page inlines. `C` carries the closed items, which look the same on every page
/// that shows them: `Closed` in the view, their rendered markup in the templates.
#[derive(Serialize, Hash)]
pub struct MenuBranch<'v, C> {
    pub root: Option<MenuRoot<'v>>,
    pub items: Vec<MenuEntry<'v, C>>,
    /// The external links below the tree.
    pub links: &'v [NavNode<'v>],
}

/// The area root, above the tree.
#[derive(Serialize, Hash)]
#[serde(rename_all = "camelCase")]
pub struct MenuRoot<'v> {
    pub display_name: &'v str,
    pub id: &'v str,
    pub url: &'v str,
    /// The page is the area's own.
    pub current: bool,
}

#[derive(Serialize, Hash)]
#[serde(untagged)]
pub enum MenuEntry<'v, C> {
    /// An item off the way to the page.
    Closed(C),
    /// An item on the way to the page, a section with its children shown (boxed: the lists
    /// are mostly closed items, which stay small).
    Open(Box<MenuItem<'v, C>>),
    /// A link past the shown part of a long level.
    More(MoreLink<'v>),
}

/// A closed item of the view: its node, and a digest of how it looks (`MenuTree::closed`),
/// which is all that its hash needs.
#[derive(Clone, Copy)]
pub struct Closed {
    pub node: usize,
    pub digest: u64,
}

impl Hash for Closed {
    fn hash<H: Hasher>(&self, state: &mut H) {
        self.digest.hash(state);
    }
}

#[derive(Serialize, Hash)]
#[serde(rename_all = "camelCase")]
pub struct MenuItem<'v, C> {
    /// The nav node it shows.
    #[serde(skip)]
    pub node: usize,
    pub display_name: &'v str,
    pub id: &'v str,
    pub url: &'v str,
    pub is_page: bool,
    pub is_section: bool,
    pub icon: Option<Icon<'v>>,
    /// The item the page activates (its own, or its nearest ancestor's).
    pub active: bool,
    /// The item is the page itself.
    pub current: bool,
    pub open: bool,
    pub children: Vec<MenuEntry<'v, C>>,
}

#[derive(Serialize, Hash)]
pub struct MoreLink<'v> {
    /// Always true: tells the template this entry from an item.
    pub more: bool,
    /// The link leads back, to the items before the shown part.
    pub before: bool,
    /// How many items it stands for.
    pub count: usize,
    /// The route of the nearest page among them.
    pub url: &'v str,
}

/// Where a route is in the menu.
pub struct MenuPath {
    /// The area root the route falls in.
    pub area: Option<usize>,
    /// The node the route activates: its own, else its nearest ancestor's in the same area.
    pub active: Option<usize>,
    /// The nodes from the area root to the active one (only the root when none is active).
    pub nodes: Vec<usize>,
}

impl MenuPath {
    pub fn of(site: &Site<'_>, route: &str) -> Self {
        let nav = &site.nav;
        let Some(root) = site.area_of(route) else {
            return MenuPath {
                area: None,
                active: None,
                nodes: Vec::new(),
            };
        };
        // The active node counts only within the route's own area.
        match nav.active(route).map(|a| (a, nav.path_to(a))) {
            Some((a, nodes)) if nodes.first() == Some(&root) => MenuPath {
                area: Some(root),
                active: Some(a),
                nodes,
            },
            _ => MenuPath {
                area: Some(root),
                active: None,
                nodes: vec![root],
            },
        }
    }
}

/// The shown part of a list of `len` items: all of them, or `MENU_WINDOW` around `focus`.
pub fn window(len: usize, focus: Option<usize>) -> Range<usize> {
    if len <= MENU_WINDOW {
        return 0..len;
    }
    let start = focus
        .map_or(0, |f| f.saturating_sub(MENU_WINDOW / 2))
        .min(len - MENU_WINDOW);
    start..start + MENU_WINDOW
}

/// The menu as every page sees it, built once: which children each node shows under the
/// site's features, how each item looks closed, and the external links.
pub struct MenuTree<'s> {
    site: &'s Site<'s>,
    shown_children: Vec<Vec<usize>>,
    closed_digests: Vec<u64>,
    links: Vec<NavNode<'s>>,
}

impl<'s> MenuTree<'s> {
    pub fn new(site: &'s Site<'s>) -> Self {
        let features = &site.config.site.features;
        let shown = |c: &usize| {
            site.nav.nodes[*c]
                .require_feature
                .as_ref()
                .is_none_or(|f| features.contains(f))
        };
        let mut tree = MenuTree {
            site,
            shown_children: site
                .nav
                .nodes
                .iter()
                .map(|n| n.children.iter().copied().filter(shown).collect())
                .collect(),
            closed_digests: Vec::new(),
            links: nav::external_links(site),
        };
        tree.closed_digests = (0..site.nav.nodes.len())
            .map(|idx| {
                let mut h = rustc_hash::FxHasher::default();
                tree.closed::<Closed>(idx).hash(&mut h);
                h.finish()
            })
            .collect();
        tree
    }

    /// The children of node `idx` the menu shows under the site's features.
    pub fn shown_children(&self, idx: usize) -> &[usize] {
        &self.shown_children[idx]
    }

    /// Item `idx` as a closed entry of a branch.
    pub fn closed_entry(&self, idx: usize) -> Closed {
        Closed {
            node: idx,
            digest: self.closed_digests[idx],
        }
    }

    /// How item `idx` looks off the way to the page.
    pub fn closed<C>(&self, idx: usize) -> MenuItem<'s, C> {
        let n = &self.site.nav.nodes[idx];
        MenuItem {
            node: idx,
            display_name: &n.label,
            id: &n.id,
            url: &n.route,
            is_page: n.is_page,
            is_section: !n.children.is_empty(),
            icon: n.icon.as_ref().map(Icon::of),
            active: false,
            current: false,
            open: false,
            children: Vec::new(),
        }
    }

    /// The menu of the page at `route`, which is at `path`.
    pub fn branch<'v>(&'v self, route: &str, path: &MenuPath) -> MenuBranch<'v, Closed> {
        let Some(root) = path.area else {
            return MenuBranch {
                root: None,
                items: Vec::new(),
                links: &self.links,
            };
        };
        let r = &self.site.nav.nodes[root];
        let open = OpenPath { route, path };
        MenuBranch {
            root: Some(MenuRoot {
                display_name: &r.label,
                id: &r.id,
                url: &r.route,
                current: r.route == route,
            }),
            items: self.items(root, &open),
            links: &self.links,
        }
    }

    /// Children of `parent`: a window of them, the one on the path open, the others closed.
    fn items(&self, parent: usize, open: &OpenPath<'_>) -> Vec<MenuEntry<'s, Closed>> {
        let all = &self.shown_children[parent];
        let shown = window(
            all.len(),
            all.iter().position(|c| open.path.nodes.contains(c)),
        );
        let mut out = Vec::with_capacity(shown.len() + 2);
        out.extend(self.more(&all[..shown.start], true));
        for &c in &all[shown.clone()] {
            out.push(if open.path.nodes.contains(&c) {
                MenuEntry::Open(Box::new(self.open_item(c, open)))
            } else {
                MenuEntry::Closed(self.closed_entry(c))
            });
        }
        out.extend(self.more(&all[shown.end..], false));
        out
    }

    fn open_item(&self, idx: usize, open: &OpenPath<'_>) -> MenuItem<'s, Closed> {
        let n = &self.site.nav.nodes[idx];
        let is_section = !n.children.is_empty();
        let active = Some(idx) == open.path.active;
        MenuItem {
            active,
            current: active && n.route == open.route && n.is_page,
            open: is_section,
            children: if is_section {
                self.items(idx, open)
            } else {
                Vec::new()
            },
            ..self.closed(idx)
        }
    }

    /// A link past the window, standing for `items`: to the nearest page among them (searched
    /// from their end when `before`).
    fn more(&self, items: &[usize], before: bool) -> Option<MenuEntry<'s, Closed>> {
        let nodes = &self.site.nav.nodes;
        let mut candidates = items.iter();
        let target = if before {
            candidates.rfind(|&&c| nodes[c].is_page)
        } else {
            candidates.find(|&&c| nodes[c].is_page)
        }?;
        Some(MenuEntry::More(MoreLink {
            more: true,
            before,
            count: items.len(),
            url: &nodes[*target].route,
        }))
    }
}

/// The page a branch is built for.
struct OpenPath<'p> {
    route: &'p str,
    path: &'p MenuPath,
}

impl<'v, C> MenuBranch<'v, C> {
    /// The same branch with its closed items carried as `f` makes them.
    pub fn try_map<D, E>(self, f: &impl Fn(C) -> Result<D, E>) -> Result<MenuBranch<'v, D>, E> {
        Ok(MenuBranch {
            root: self.root,
            items: map_entries(self.items, f)?,
            links: self.links,
        })
    }
}

fn map_entries<'v, C, D, E>(
    entries: Vec<MenuEntry<'v, C>>,
    f: &impl Fn(C) -> Result<D, E>,
) -> Result<Vec<MenuEntry<'v, D>>, E> {
    entries
        .into_iter()
        .map(|e| {
            Ok(match e {
                MenuEntry::Closed(c) => MenuEntry::Closed(f(c)?),
                MenuEntry::More(m) => MenuEntry::More(m),
                MenuEntry::Open(item) => {
                    let item = *item;
                    MenuEntry::Open(Box::new(MenuItem {
                        children: map_entries(item.children, f)?,
                        node: item.node,
                        display_name: item.display_name,
                        id: item.id,
                        url: item.url,
                        is_page: item.is_page,
                        is_section: item.is_section,
                        icon: item.icon,
                        active: item.active,
                        current: item.current,
                        open: item.open,
                    }))
                }
            })
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_long_level_shows_a_window_around_the_focus() {
        assert_eq!(window(10, Some(9)), 0..10);
        assert_eq!(window(100, None), 0..MENU_WINDOW);
        assert_eq!(window(100, Some(50)), 35..65);
        assert_eq!(window(100, Some(99)), 70..100);
    }
}
