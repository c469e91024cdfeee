//! Stage 5: the view model — serde structs of everything the output shows, built from the
//! checked site model. The templates, the JSON tables, the page data and the nav shards all
//! serialise these structs, and the app's TypeScript types are generated from them
//! (`frontend/src/generated/`, see `typescript`). Ids, slugs and routes of the menu are made
//! here and nowhere else.

pub mod json;
pub mod locales;
pub mod menu;
pub mod nav;
pub mod page;
pub mod pager;
pub mod shards;
pub mod site;
pub mod tables;
pub mod typescript;
pub mod versions;

use crate::model::{RouteEntry, Site};
use json::SharedJson;
use menu::{Closed, MenuBranch, MenuPath, MenuTree};
use page::{PageContent, PageView};
use pager::{PageOrder, Pager};
use shards::NavShards;
use site::SiteView;

/// The views every page shares, built once per build.
pub struct Views<'s> {
    site: &'s Site<'s>,
    /// The site view of each locale (the default first), and each as it is spliced into
    /// every page's data.
    site_views: Vec<(SiteView, SharedJson)>,
    menu: MenuTree<'s>,
    shards: std::sync::Arc<NavShards>,
    order: PageOrder,
    /// On a site with versions: all of them, and which one this is.
    versions: Option<versions::Placed>,
}

/// Everything a page shows, so its hash tells whether its HTML can have changed (with the
/// site view, the templates and the assets, which all pages share).
#[derive(Hash)]
pub struct ShownPage<'v> {
    pub content: PageContent<'v>,
    pub data: PageView<'v>,
    pub menu: MenuBranch<'v, Closed>,
}

/// A 404 page: generic, or one area's (`<area>/404.html`), which also shows the area's menu
/// and a link to its overview (the area's own page).
pub struct ShownNotFound<'v> {
    pub content: PageContent<'v>,
    pub data: PageView<'v>,
    pub menu: Option<MenuBranch<'v, Closed>>,
    pub overview: Option<page::Crumb<'v>>,
}

/// An area's own text for its routes that have no page.
pub struct AreaNotFound<'a> {
    pub route: &'a str,
    pub title: &'a str,
    pub subtitle: &'a str,
}

impl<'s> Views<'s> {
    pub fn new(site: &'s Site<'s>) -> Self {
        let shards = std::sync::Arc::new(NavShards::build(site));
        Views::with_shards(site, shards)
    }

    /// The views of a site whose menu is that of the site `shards` were built from (after an
    /// edit of page bodies alone): the shards are the most work to make.
    pub fn with_shards(site: &'s Site<'s>, shards: std::sync::Arc<NavShards>) -> Self {
        let site_views = (0..site.config.locales.len())
            .map(|i| {
                let view = SiteView::for_locale(site, i);
                let json = SharedJson::new(&view);
                (view, json)
            })
            .collect();
        let menu = MenuTree::new(site);
        Views {
            site,
            site_views,
            order: PageOrder::new(site, &menu),
            menu,
            shards,
            versions: None,
        }
    }

    /// The views of one version of a site with versions (`versions:` in site.yaml).
    pub fn with_versions(mut self, placed: versions::Placed) -> Self {
        self.versions = Some(placed);
        self
    }

    pub fn site(&self) -> &'s Site<'s> {
        self.site
    }

    /// The site view of the default locale.
    pub fn site_view(&self) -> &SiteView {
        &self.site_views[0].0
    }

    /// The site view of each locale, the default first.
    pub fn site_views(&self) -> impl Iterator<Item = &SiteView> {
        self.site_views.iter().map(|(v, _)| v)
    }

    /// The site views' digest: what every page shows of the site.
    pub fn site_digest(&self) -> u64 {
        match &self.site_views[..] {
            [(_, one)] => one.digest(),
            all => {
                use std::hash::{Hash, Hasher};
                let mut h = std::collections::hash_map::DefaultHasher::new();
                for (_, json) in all {
                    json.digest().hash(&mut h);
                }
                h.finish()
            }
        }
    }

    pub fn menu(&self) -> &MenuTree<'s> {
        &self.menu
    }

    pub fn shards(&self) -> &std::sync::Arc<NavShards> {
        &self.shards
    }

    /// The page served at `route`.
    pub fn page<'v>(&'v self, route: &'v str, entry: &RouteEntry) -> ShownPage<'v> {
        let site = self.site;
        let p: &'s crate::content::Page = &site.pages[entry.page];
        let path = MenuPath::of(site, route);
        let nodes = &site.nav.nodes;
        let mut content = PageContent {
            pager: self.order.pager(site, route, entry.page),
            ..PageContent::of(site, p)
        };
        if let Some(placed) = &self.versions {
            content.version = Some(placed.page(route));
            if placed.index != 0 {
                // An earlier version's page is a copy of the latest's, for search engines;
                // its source is no longer the working tree's file.
                let (base, latest) = placed.canonical(&p.route);
                content.canonical = page::AbsoluteUrl::new(&site.config.origin, base, latest);
                content.edit_url = None;
            }
        }
        ShownPage {
            content,
            data: PageView {
                route: Some(route),
                canonical: Some(&p.route),
                title: &p.title,
                area: Some(path.area.map(|a| nodes[a].route.as_str())),
                not_found: false,
                breadcrumbs: page::breadcrumbs(site, route),
                toc: page::toc(p),
                menu_path: path.nodes.iter().map(|&n| nodes[n].id.as_str()).collect(),
                nav_shards: self.shards.for_path(&path.nodes),
                site: &self.site_views[p.locale].1,
            },
            menu: self.menu.branch(route, &path),
        }
    }

    /// The 404 page, generic (`None`) or for one area; its menu is the area's shard.
    pub fn not_found<'v>(&'v self, area: Option<AreaNotFound<'v>>) -> ShownNotFound<'v> {
        let site = self.site;
        let (title, subtitle) = match &area {
            Some(a) => (a.title, a.subtitle),
            None => (
                "Page not found",
                "The page you are looking for does not exist or has moved.",
            ),
        };
        let root = area.as_ref().and_then(|a| {
            site.nav
                .roots
                .iter()
                .copied()
                .find(|&r| site.nav.nodes[r].route == a.route)
        });
        let nodes = &site.nav.nodes;
        ShownNotFound {
            content: PageContent {
                title,
                description: None,
                subtitle: Some(subtitle),
                canonical: page::AbsoluteUrl::of(site, area.as_ref().map_or("/404", |a| a.route)),
                body: None,
                layout: "error",
                edit_url: None,
                updated: None,
                pager: Pager::default(),
                is_home: false,
                markdown: None,
                version: None,
                locale: locales::PageLocale::plain(site),
            },
            data: PageView {
                route: None,
                canonical: None,
                title,
                area: None,
                not_found: true,
                breadcrumbs: Vec::new(),
                toc: Vec::new(),
                menu_path: Vec::new(),
                nav_shards: self.shards.for_path(root.as_slice()),
                site: &self.site_views[0].1,
            },
            // No item is the current one: the route has no page.
            menu: root.map(|r| {
                let path = MenuPath {
                    area: Some(r),
                    active: None,
                    nodes: vec![r],
                };
                self.menu.branch("", &path)
            }),
            overview: root.map(|r| page::Crumb {
                display_name: &nodes[r].label,
                url: &nodes[r].route,
            }),
        }
    }
}
