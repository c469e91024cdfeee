//! The menu branch inlined in a page: the area's level-1 items, and the children of every
//! section on the way to the active item. The rest of the tree comes from the nav shards.
//!
//! Every list is capped at `MENU_WINDOW` items, a window around the item on the path, so a
//! page's menu stays the same size however large the site grows. A cut list ends (or starts)
//! with a "more" link to the first page past the window, whose own menu shows the window
//! around it: following those links reaches every item with JavaScript off.
//!
//! Most items of a branch are closed and look the same on every page, so each menu entry's
//! closed markup is rendered once (by the `menu_item` macro) and reused.

use std::ops::Range;
use std::sync::OnceLock;

use minijinja::{Environment, State, Value, context};

use crate::model::Site;

/// The most items a page shows of one menu level.
pub const MENU_WINDOW: usize = 30;

pub struct Branch<'s> {
    pub value: Value,
    /// Nav nodes from the area root to the active item.
    pub path: Vec<usize>,
    /// Their nav ids.
    pub path_ids: Vec<&'s str>,
}

/// Closed menu items, rendered on first use.
pub struct MenuCache {
    closed: Vec<OnceLock<Value>>,
}

impl MenuCache {
    pub fn new(nodes: usize) -> Self {
        MenuCache {
            closed: (0..nodes).map(|_| OnceLock::new()).collect(),
        }
    }
}

/// How one item is shown.
#[derive(Default, Clone, Copy)]
struct ItemState {
    active: bool,
    open: bool,
    current: bool,
}

/// The template data of one item.
fn item_value(site: &Site<'_>, idx: usize, state: ItemState, children: Vec<Value>) -> Value {
    let n = &site.nav.nodes[idx];
    context! {
        displayName => n.label.as_str(),
        href => site.href(&n.route),
        isPage => n.is_page,
        isSection => !n.children.is_empty(),
        icon => n.icon.as_ref().map(|i| context! { src => i.src.as_str(), alt => i.alt.as_str() }),
        active => state.active,
        current => state.current,
        open => state.open,
        children => children,
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

/// What a page's menu is made of: the path it opens and how it renders items.
struct Builder<'s, 'e, 'a> {
    site: &'s Site<'a>,
    route: &'e str,
    path: Vec<usize>,
    active: Option<usize>,
    cache: &'e MenuCache,
    macros: minijinja::Template<'e, 'e>,
}

impl Builder<'_, '_, '_> {
    fn visible(&self, idx: usize) -> bool {
        let features = &self.site.config.site.features;
        self.site.nav.nodes[idx]
            .require_feature
            .as_ref()
            .is_none_or(|f| features.contains(f))
    }

    fn render_macro(&self, name: &str, arg: Value) -> Result<String, minijinja::Error> {
        self.macros
            .render_captured(())?
            .with_state_mut(|state: &mut State<'_, '_>| state.call_macro(name, &[arg]))
    }

    fn closed(&self, idx: usize) -> Result<Value, minijinja::Error> {
        if let Some(v) = self.cache.closed[idx].get() {
            return Ok(v.clone());
        }
        let item = item_value(self.site, idx, ItemState::default(), Vec::new());
        let html = self.render_macro("menu_item", item)?;
        Ok(self.cache.closed[idx]
            .get_or_init(|| Value::from_safe_string(html))
            .clone())
    }

    /// A link past the window: to the nearest page in `range` (searched from its start, or
    /// from its end when `backwards`), labelled with how many items it stands for.
    fn more(&self, items: &[usize], range: Range<usize>, backwards: bool) -> Option<Value> {
        let count = range.len();
        let nodes = &self.site.nav.nodes;
        let mut candidates = items[range].iter();
        let target = if backwards {
            candidates.rfind(|&&c| nodes[c].is_page)
        } else {
            candidates.find(|&&c| nodes[c].is_page)
        }?;
        Some(context! {
            more => true,
            before => backwards,
            count => count,
            href => self.site.href(&nodes[*target].route),
        })
    }

    /// Children of `parent`: a window of them, the one on the path expanded, the others closed.
    fn items(&self, parent: usize) -> Result<Vec<Value>, minijinja::Error> {
        let nav = &self.site.nav;
        let all: Vec<usize> = nav.nodes[parent]
            .children
            .iter()
            .copied()
            .filter(|&c| self.visible(c))
            .collect();
        let shown = window(all.len(), all.iter().position(|c| self.path.contains(c)));
        let mut out = Vec::with_capacity(shown.len() + 2);
        out.extend(self.more(&all, 0..shown.start, true));
        for &c in &all[shown.clone()] {
            out.push(self.item(c)?);
        }
        out.extend(self.more(&all, shown.end..all.len(), false));
        Ok(out)
    }

    fn item(&self, c: usize) -> Result<Value, minijinja::Error> {
        if !self.path.contains(&c) {
            return self.closed(c);
        }
        let n = &self.site.nav.nodes[c];
        let open = !n.children.is_empty();
        let children = if open { self.items(c)? } else { Vec::new() };
        let active = Some(c) == self.active;
        let state = ItemState {
            active,
            open,
            current: active && n.route == self.route && n.is_page,
        };
        Ok(item_value(self.site, c, state, children))
    }
}

pub fn branch<'s>(
    site: &'s Site<'_>,
    env: &Environment<'_>,
    cache: &MenuCache,
    route: &str,
    area: Option<usize>,
) -> Result<Branch<'s>, minijinja::Error> {
    let nav = &site.nav;
    let Some(root) = area else {
        return Ok(Branch {
            value: context! { root => Value::from(()), items => Vec::<Value>::new(), links => links(site) },
            path: Vec::new(),
            path_ids: Vec::new(),
        });
    };
    let active = nav
        .active(route)
        .filter(|&a| nav.path_to(a).first() == Some(&root));
    let path = active.map(|a| nav.path_to(a)).unwrap_or_else(|| vec![root]);
    let builder = Builder {
        site,
        route,
        path,
        active,
        cache,
        macros: env.get_template("macros.html")?,
    };
    let r = &nav.nodes[root];
    let value = context! {
        root => context! {
            displayName => r.label.as_str(),
            href => site.href(&r.route),
            current => r.route == route,
        },
        items => builder.items(root)?,
        links => links(site),
    };
    let path_ids = builder
        .path
        .iter()
        .map(|&i| nav.nodes[i].id.as_str())
        .collect();
    Ok(Branch {
        value,
        path: builder.path,
        path_ids,
    })
}
fn links(site: &Site<'_>) -> Vec<Value> {
    site.config
        .site
        .menu_links
        .iter()
        .map(|l| {
            context! {
                displayName => l.display_name.as_str(),
                href => l.url.as_str(),
                icon => l.icon.as_ref().and_then(|i| site.assets.href(i)).map(|src| context! { src => src, alt => l.icon_alt.clone().unwrap_or_default() }),
            }
        })
        .collect()
}
