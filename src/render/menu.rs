//! The menu branch inlined in a page: the area's level-1 items, and the children of every
//! section on the way to the active item. The rest of the tree comes from nav.json.

use minijinja::{context, Value};

use crate::model::Site;

pub struct Branch<'s> {
    pub value: Value,
    /// Nav ids from the area root to the active item.
    pub path_ids: Vec<&'s str>,
}

pub fn branch<'s>(site: &'s Site<'_>, route: &str, area: Option<usize>) -> Branch<'s> {
    let nav = &site.nav;
    let Some(root) = area else {
        return Branch { value: context! { root => Value::from(()), items => Vec::<Value>::new(), links => links(site) }, path_ids: Vec::new() };
    };
    let active = nav.active(route).filter(|&a| nav.path_to(a).first() == Some(&root));
    let path = active.map(|a| nav.path_to(a)).unwrap_or_else(|| vec![root]);
    let features = &site.config.site.features;
    let visible = |idx: usize| nav.nodes[idx].require_feature.as_ref().is_none_or(|f| features.contains(f));

    fn items(site: &Site<'_>, parent: usize, path: &[usize], active: Option<usize>, route: &str, visible: &dyn Fn(usize) -> bool) -> Vec<Value> {
        let nav = &site.nav;
        nav.nodes[parent]
            .children
            .iter()
            .copied()
            .filter(|&c| visible(c))
            .map(|c| {
                let n = &nav.nodes[c];
                let open = path.contains(&c) && !n.children.is_empty();
                context! {
                    id => n.id.as_str(),
                    displayName => n.label.as_str(),
                    href => site.href(&n.route),
                    isPage => n.is_page,
                    isSection => !n.children.is_empty(),
                    icon => n.icon.as_ref().map(|i| context! { src => i.src.as_str(), alt => i.alt.as_str() }),
                    active => Some(c) == active,
                    current => Some(c) == active && n.route == route && n.is_page,
                    open => open,
                    children => if open { items(site, c, path, active, route, visible) } else { Vec::new() },
                }
            })
            .collect()
    }

    let r = &nav.nodes[root];
    let value = context! {
        root => context! {
            displayName => r.label.as_str(),
            href => site.href(&r.route),
            current => r.route == route,
        },
        items => items(site, root, &path, active, route, &visible),
        links => links(site),
    };
    Branch { value, path_ids: path.iter().map(|&i| nav.nodes[i].id.as_str()).collect() }
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
