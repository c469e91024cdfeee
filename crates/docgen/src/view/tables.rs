//! The complete tables under `_docgen/`, for tools and CI (the app reads the page data and the
//! nav shards instead): their entries, with the specification's field names.

use std::collections::BTreeMap;

use serde::Serialize;
use ts_rs::TS;

use super::page::{self, Crumb, TocEntry};
use crate::model::Site;

/// An entry of `right-menu.json`: a page's routes and its h1-h3.
#[derive(Serialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct RightMenuEntry<'a> {
    /// The canonical route first, then the aliases.
    pub path_name: Vec<&'a str>,
    pub right_menu_navs: Vec<TocEntry<'a>>,
}

/// `breadcrumbs.json`: for each route, its trail from the top down.
#[derive(Serialize, TS)]
pub struct BreadcrumbTable<'a>(pub BTreeMap<&'a str, Vec<Crumb<'a>>>);

/// `routes.json`: every page route (aliases included) and every expanded legacy route.
#[derive(Serialize, TS)]
pub struct RouteTable<'a> {
    pub pages: Vec<PageRoute<'a>>,
    pub redirects: Vec<LegacyRoute<'a>>,
}

#[derive(Serialize, TS)]
pub struct PageRoute<'a> {
    pub route: &'a str,
    pub title: &'a str,
    pub canonical: &'a str,
}

/// A legacy route and where it leads.
#[derive(Serialize, TS)]
pub struct LegacyRoute<'a> {
    pub from: &'a str,
    pub to: &'a str,
}

pub fn right_menu<'a>(site: &'a Site<'_>) -> Vec<RightMenuEntry<'a>> {
    (0..site.pages.len())
        .filter(|&i| site.pages[i].is_page)
        .map(|i| right_menu_entry(site, i))
        .collect()
}

/// The entry of page number `i` (a page, not a page-less section) in `right-menu.json`.
pub fn right_menu_entry<'a>(site: &'a Site<'_>, i: usize) -> RightMenuEntry<'a> {
    RightMenuEntry {
        path_name: site.routes_of(i),
        right_menu_navs: page::toc(&site.pages[i]),
    }
}

pub fn breadcrumbs<'a>(site: &'a Site<'_>) -> BreadcrumbTable<'a> {
    BreadcrumbTable(
        site.routes
            .keys()
            .map(|r| (r.as_str(), page::breadcrumbs(site, r)))
            .collect(),
    )
}

pub fn routes<'a>(site: &'a Site<'_>) -> RouteTable<'a> {
    RouteTable {
        pages: site
            .routes
            .iter()
            .map(|(route, e)| PageRoute {
                route,
                title: &site.pages[e.page].title,
                canonical: &site.pages[e.page].route,
            })
            .collect(),
        redirects: site
            .redirects
            .iter()
            .map(|r| LegacyRoute {
                from: &r.from,
                to: &r.to,
            })
            .collect(),
    }
}
