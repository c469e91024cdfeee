//! The navigation tree: level 0 are the areas, below them the sections and pages by route.

use std::collections::BTreeMap;
use std::sync::Arc;

use crate::content::Page;

/// One node of the menu, kept in an arena (`NavTree::nodes`).
#[derive(Debug, Clone)]
pub struct NavNode {
    pub id: String,
    pub label: String,
    /// The route the node stands for (for a group: its section's route).
    pub route: String,
    pub is_page: bool,
    /// The page behind the node, if any.
    pub page: Option<usize>,
    pub icon: Option<Icon>,
    pub require_feature: Option<String>,
    pub children: Vec<usize>,
    pub parent: Option<usize>,
    /// 0 for area roots.
    pub level: usize,
    /// A menu group (bidders/others): not a route of its own.
    pub is_group: bool,
}

#[derive(Debug, Clone)]
pub struct Icon {
    pub src: String,
    pub alt: String,
}

#[derive(Debug, Default)]
pub struct NavTree {
    pub nodes: Vec<NavNode>,
    pub roots: Vec<usize>,
    /// Route → node, for longest-match lookups (groups excluded).
    by_route: rustc_hash::FxHashMap<String, usize>,
}

/// A route in the menu: a page's own route or one of its aliases.
pub struct Entry<'a> {
    pub route: &'a str,
    pub page: usize,
}

/// Whether `prefix` is `route` or one of its ancestors, on segment boundaries.
pub fn is_prefix(prefix: &str, route: &str) -> bool {
    prefix == "/"
        || route == prefix
        || (route.starts_with(prefix) && route.as_bytes().get(prefix.len()) == Some(&b'/'))
}

fn node_id(route: &str) -> String {
    if route == "/" {
        return "home".into();
    }
    route.trim_start_matches('/').replace('/', "-")
}

impl NavTree {
    /// Builds the tree from the menu entries. `areas` are the level-0 roots (routes with labels).
    pub fn build(
        pages: &[Arc<Page>],
        entries: &[Entry<'_>],
        areas: &[(String, String)],
        icon_href: &dyn Fn(&str) -> Option<String>,
    ) -> NavTree {
        let mut tree = NavTree::default();
        let by_route: BTreeMap<&str, usize> = entries.iter().map(|e| (e.route, e.page)).collect();
        for (area_route, area_label) in areas {
            let page = by_route.get(area_route.as_str()).copied();
            let idx = tree.push(pages, area_route, page, None, 0, icon_href);
            // The area's name in site.yaml is what readers know it by.
            tree.nodes[idx].label = area_label.clone();
            tree.roots.push(idx);
        }
        // Parents before children: shorter routes first.
        let mut sorted: Vec<&Entry<'_>> = entries.iter().collect();
        sorted.sort_by_cached_key(|e| (e.route.matches('/').count(), e.route));
        for e in sorted {
            if tree.by_route.contains_key(e.route) {
                continue;
            }
            let Some(parent) = tree.nearest_ancestor(e.route) else {
                continue;
            };
            let level = tree.nodes[parent].level + 1;
            tree.push(pages, e.route, Some(e.page), Some(parent), level, icon_href);
        }
        tree.order_and_group(pages);
        tree
    }

    fn push(
        &mut self,
        pages: &[Arc<Page>],
        route: &str,
        page: Option<usize>,
        parent: Option<usize>,
        level: usize,
        icon_href: &dyn Fn(&str) -> Option<String>,
    ) -> usize {
        let idx = self.nodes.len();
        let p = page.map(|i| &*pages[i]);
        let icon = p.and_then(|p| {
            let src = icon_href(p.front.icon.as_deref()?)?;
            Some(Icon {
                src,
                alt: p.front.icon_alt.clone().unwrap_or_default(),
            })
        });
        self.nodes.push(NavNode {
            id: node_id(route),
            label: p.map(|p| p.menu_label().to_string()).unwrap_or_default(),
            route: route.to_string(),
            is_page: p.is_some_and(|p| p.is_page),
            page,
            icon,
            require_feature: p.and_then(|p| p.front.require_feature.clone()),
            children: Vec::new(),
            parent,
            level,
            is_group: false,
        });
        if let Some(par) = parent {
            self.nodes[par].children.push(idx);
        }
        self.by_route.insert(route.to_string(), idx);
        idx
    }

    /// The node of the longest route that is `route` or an ancestor of it.
    pub fn nearest_ancestor(&self, route: &str) -> Option<usize> {
        let mut r = route;
        loop {
            let parent = match r.rfind('/') {
                Some(0) if r.len() > 1 => "/",
                Some(0) | None => return None,
                Some(i) => &r[..i],
            };
            if let Some(&idx) = self.by_route.get(parent) {
                return Some(idx);
            }
            r = parent;
        }
    }

    /// The node a route activates: its own node, else its nearest ancestor's (longest match).
    pub fn active(&self, route: &str) -> Option<usize> {
        self.by_route
            .get(route)
            .copied()
            .or_else(|| self.nearest_ancestor(route))
    }

    /// The root-to-node path of indexes.
    pub fn path_to(&self, mut idx: usize) -> Vec<usize> {
        let mut path = vec![idx];
        while let Some(p) = self.nodes[idx].parent {
            path.push(p);
            idx = p;
        }
        path.reverse();
        path
    }

    /// Sorts children (order, then route, then label) and gathers grouped children under
    /// group nodes declared by their section.
    fn order_and_group(&mut self, pages: &[Arc<Page>]) {
        // Pages with an order first, by it; the others after them; ties by file name.
        let order_of = |n: &NavNode| {
            let order = n.page.and_then(|p| pages[p].order);
            (order.is_none(), order)
        };
        for idx in 0..self.nodes.len() {
            let mut children = std::mem::take(&mut self.nodes[idx].children);
            children.sort_by(|&a, &b| {
                let (na, nb) = (&self.nodes[a], &self.nodes[b]);
                order_of(na)
                    .cmp(&order_of(nb))
                    .then_with(|| na.route.cmp(&nb.route))
                    .then_with(|| na.label.cmp(&nb.label))
            });
            let groups = match self.nodes[idx].page {
                Some(p) if !pages[p].front.groups.is_empty() => pages[p].front.groups.clone(),
                _ => {
                    self.nodes[idx].children = children;
                    continue;
                }
            };
            let mut plain = Vec::new();
            let mut grouped: Vec<Vec<usize>> = vec![Vec::new(); groups.len()];
            for c in children {
                let g = self.nodes[c]
                    .page
                    .and_then(|p| pages[p].front.group.as_deref());
                match g.and_then(|g| groups.iter().position(|x| x.id == g)) {
                    Some(i) => grouped[i].push(c),
                    None => plain.push(c),
                }
            }
            for (g, members) in groups.iter().zip(grouped) {
                if members.is_empty() {
                    continue;
                }
                let gidx = self.nodes.len();
                let parent = &self.nodes[idx];
                let node = NavNode {
                    id: format!("{}--{}", parent.id, g.id),
                    label: g.label.clone(),
                    route: parent.route.clone(),
                    is_page: false,
                    page: None,
                    icon: None,
                    require_feature: None,
                    children: members.clone(),
                    parent: Some(idx),
                    level: parent.level + 1,
                    is_group: true,
                };
                self.nodes.push(node);
                for m in members {
                    self.nodes[m].parent = Some(gidx);
                }
                plain.push(gidx);
            }
            self.nodes[idx].children = plain;
        }
        // Levels below a group move one down.
        for root in self.roots.clone() {
            self.relevel(root, 0);
        }
    }

    fn relevel(&mut self, root: usize, level: usize) {
        let mut stack = vec![(root, level)];
        while let Some((idx, level)) = stack.pop() {
            self.nodes[idx].level = level;
            stack.extend(self.nodes[idx].children.iter().map(|&c| (c, level + 1)));
        }
    }
}
