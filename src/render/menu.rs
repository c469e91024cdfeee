//! The menu branch inlined in a page: the area's level-1 items, and the children of every
//! section on the way to the active item. The rest of the tree comes from nav.json.
//!
//! Most items of a branch are closed and look the same on every page, so each menu entry's
//! closed markup is rendered once (by the `menu_item` macro) and reused.

use std::sync::OnceLock;

use minijinja::{Environment, Value, context};

use crate::model::Site;

pub struct Branch<'s> {
    pub value: Value,
    /// Nav ids from the area root to the active item.
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

/// The template data of one item.
fn item_value(
    site: &Site<'_>,
    idx: usize,
    active: bool,
    open: bool,
    current: bool,
    children: Vec<Value>,
) -> Value {
    let n = &site.nav.nodes[idx];
    context! {
        displayName => n.label.as_str(),
        href => site.href(&n.route),
        isPage => n.is_page,
        isSection => !n.children.is_empty(),
        icon => n.icon.as_ref().map(|i| context! { src => i.src.as_str(), alt => i.alt.as_str() }),
        active => active,
        current => current,
        open => open,
        children => children,
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
            path_ids: Vec::new(),
        });
    };
    let active = nav
        .active(route)
        .filter(|&a| nav.path_to(a).first() == Some(&root));
    let path = active.map(|a| nav.path_to(a)).unwrap_or_else(|| vec![root]);
    let features = &site.config.site.features;
    let visible = |idx: usize| {
        nav.nodes[idx]
            .require_feature
            .as_ref()
            .is_none_or(|f| features.contains(f))
    };
    let macros = env.get_template("macros.html")?;

    let closed = |idx: usize| -> Result<Value, minijinja::Error> {
        if let Some(v) = cache.closed[idx].get() {
            return Ok(v.clone());
        }
        let item = item_value(site, idx, false, false, false, Vec::new());
        let html = macros
            .render_captured(())?
            .with_state_mut(|state| state.call_macro("menu_item", &[item]))?;
        Ok(cache.closed[idx]
            .get_or_init(|| Value::from_safe_string(html))
            .clone())
    };

    // Children of `parent`, the one on the path expanded, the others closed.
    fn items(
        site: &Site<'_>,
        parent: usize,
        path: &[usize],
        active: Option<usize>,
        route: &str,
        visible: &dyn Fn(usize) -> bool,
        closed: &dyn Fn(usize) -> Result<Value, minijinja::Error>,
    ) -> Result<Vec<Value>, minijinja::Error> {
        let nav = &site.nav;
        let mut out = Vec::with_capacity(nav.nodes[parent].children.len());
        for &c in nav.nodes[parent].children.iter().filter(|&&c| visible(c)) {
            let n = &nav.nodes[c];
            if !path.contains(&c) {
                out.push(closed(c)?);
                continue;
            }
            let open = !n.children.is_empty();
            let children = if open {
                items(site, c, path, active, route, visible, closed)?
            } else {
                Vec::new()
            };
            let is_active = Some(c) == active;
            out.push(item_value(
                site,
                c,
                is_active,
                open,
                is_active && n.route == route && n.is_page,
                children,
            ));
        }
        Ok(out)
    }

    let r = &nav.nodes[root];
    let value = context! {
        root => context! {
            displayName => r.label.as_str(),
            href => site.href(&r.route),
            current => r.route == route,
        },
        items => items(site, root, &path, active, route, &visible, &closed)?,
        links => links(site),
    };
    Ok(Branch {
        value,
        path_ids: path.iter().map(|&i| nav.nodes[i].id.as_str()).collect(),
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
