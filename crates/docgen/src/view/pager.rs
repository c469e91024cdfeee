//! The previous and next pages of a page: its neighbours when the menu of its area is read top
//! down (each section's own page before its children), as the menu shows them under the site's
//! features. Written into the page at build time, so they work without JavaScript.

use rustc_hash::FxHashMap;
use serde::Serialize;

use super::menu::MenuTree;
use crate::model::Site;

/// A page's links to its neighbours.
#[derive(Debug, Default, Serialize, Hash, PartialEq, Eq)]
pub struct Pager<'a> {
    pub prev: Option<PagerLink<'a>>,
    pub next: Option<PagerLink<'a>>,
}

/// A neighbour, by its menu name.
#[derive(Debug, Serialize, Hash, PartialEq, Eq)]
#[serde(rename_all = "camelCase")]
pub struct PagerLink<'a> {
    pub display_name: &'a str,
    /// The neighbour's route.
    pub url: &'a str,
}

/// The pages of each area in menu order, built once per build.
pub struct PageOrder {
    /// Per area, the nav nodes of its pages in menu order.
    lists: Vec<Vec<usize>>,
    /// Where each listed node is: (list, position).
    at: FxHashMap<usize, (usize, usize)>,
}

impl PageOrder {
    pub fn new(site: &Site<'_>, menu: &MenuTree<'_>) -> Self {
        let nodes = &site.nav.nodes;
        let mut order = PageOrder {
            lists: Vec::with_capacity(site.nav.roots.len()),
            at: FxHashMap::default(),
        };
        for &root in &site.nav.roots {
            let mut list = Vec::new();
            let mut stack = vec![root];
            while let Some(n) = stack.pop() {
                let node = &nodes[n];
                if node.is_page && !node.is_group && node.page.is_some() {
                    order.at.insert(n, (order.lists.len(), list.len()));
                    list.push(n);
                }
                stack.extend(menu.shown_children(n).iter().rev());
            }
            order.lists.push(list);
        }
        order
    }

    /// The neighbours of the page served at `route` (its own menu item, or else its canonical
    /// route's); none for a page the menu does not list.
    pub fn pager<'s>(&self, site: &'s Site<'_>, route: &str, page: usize) -> Pager<'s> {
        let nodes = &site.nav.nodes;
        let item = |r: &str| {
            site.nav
                .active(r)
                .filter(|&n| nodes[n].route == r && self.at.contains_key(&n))
        };
        let Some(n) = item(route).or_else(|| item(&site.pages[page].route)) else {
            return Pager::default();
        };
        let (list, pos) = self.at[&n];
        let list = &self.lists[list];
        let link = |i: usize| {
            let node = &nodes[list[i]];
            PagerLink {
                display_name: &node.label,
                url: &node.route,
            }
        };
        Pager {
            prev: pos.checked_sub(1).map(link),
            next: (pos + 1 < list.len()).then(|| link(pos + 1)),
        }
    }

    /// The routes of an area's pages in menu order.
    #[cfg(test)]
    pub fn routes<'s>(&self, site: &'s Site<'_>, area: usize) -> Vec<&'s str> {
        self.lists
            .get(area)
            .map(|l| {
                l.iter()
                    .map(|&n| site.nav.nodes[n].route.as_str())
                    .collect()
            })
            .unwrap_or_default()
    }
}

#[cfg(test)]
mod tests {
    use std::collections::HashSet;
    use std::path::Path;

    use super::*;
    use crate::view::Views;

    fn write(root: &Path, rel: &str, text: &str) {
        let path = root.join(rel);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, text).unwrap();
    }

    fn page(title: &str, extra: &str) -> String {
        format!("---\ntitle: {title}\n{extra}---\n\nText of {title}.\n")
    }

    #[test]
    fn neighbours_follow_the_menu_order_and_skip_what_it_hides() {
        let tmp = tempfile::tempdir().unwrap();
        let root = tmp.path();
        write(root, "site.yaml", "title: T\nfeatures: [shown]\n");
        write(root, "content/_index.md", &page("Home", ""));
        write(root, "content/a/_index.md", &page("A", "order: 1\n"));
        write(root, "content/a/one.md", &page("One", "order: 2\n"));
        write(
            root,
            "content/a/two.md",
            &page("Two", "order: 1\nmenuLabel: Second\n"),
        );
        write(
            root,
            "content/b/_index.md",
            &page("B", "order: 2\npage: false\n"),
        );
        write(root, "content/b/x.md", &page("X", "order: 1\n"));
        write(
            root,
            "content/b/y.md",
            &page("Y", "order: 2\nrequireFeature: off\n"),
        );
        write(
            root,
            "content/b/w.md",
            &page("W", "order: 3\nrequireFeature: shown\n"),
        );
        write(root, "content/c.md", &page("C", "order: 3\nhidden: true\n"));
        write(root, "content/z.md", &page("Z", "order: 4\n"));
        let config = crate::config::load(root, &Default::default()).unwrap();
        let mut cache = crate::content::Cache::default();
        crate::with_site(
            &config,
            &Default::default(),
            &mut cache,
            &HashSet::new(),
            None,
            &crate::Silent,
            |site| {
                let views = Views::new(site);
                assert_eq!(
                    views.order.routes(site, 0),
                    ["/", "/a", "/a/two", "/a/one", "/b/x", "/b/w", "/z"],
                    "menu order: a section's page before its children, sections without a page and \
                 pages behind a disabled feature or hidden left out"
                );
                let pager =
                    |route: &'static str| views.page(route, &site.routes[route]).content.pager;
                let link = |name, url| {
                    Some(PagerLink {
                        display_name: name,
                        url,
                    })
                };
                assert_eq!(pager("/").prev, None);
                assert_eq!(pager("/").next, link("A", "/a"));
                // By menu names: "Second" is the menu label of "Two".
                assert_eq!(pager("/a/one").prev, link("Second", "/a/two"));
                assert_eq!(pager("/a/one").next, link("X", "/b/x"));
                assert_eq!(pager("/z").next, None);
                assert_eq!(pager("/z").prev, link("W", "/b/w"));
                // A page the menu does not list has no neighbours.
                assert_eq!(pager("/c"), Pager::default());
                Ok(())
            },
        )
        .unwrap();
    }
}
