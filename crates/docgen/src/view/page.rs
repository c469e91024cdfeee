//! A page: the data embedded in it for the app (`#dg-page-data`), its breadcrumbs and table
//! of contents, and the content its template shows.

use std::borrow::Cow;
use std::hash::{Hash, Hasher};

use serde::Serialize;
use ts_rs::TS;

use super::json::SharedJson;
use super::menu::MenuPath;
use super::pager::Pager;
use super::site::SiteView;
use crate::content::Page;
use crate::model::Site;

/// The data embedded in every page (`<script id="dg-page-data">`), which the app mounts with.
#[derive(Serialize, Hash, TS)]
#[serde(rename_all = "camelCase")]
pub struct PageView<'a> {
    /// The route the page is served at; `null` on the 404 pages.
    pub route: Option<&'a str>,
    /// The page's canonical route (its own, when `route` is an alias).
    #[serde(skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub canonical: Option<&'a str>,
    pub title: &'a str,
    /// The route of the page's area (`null` outside every area); absent on the 404 pages.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub area: Option<Option<&'a str>>,
    /// Set on the 404 pages.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    #[ts(optional, as = "Option<bool>")]
    pub not_found: bool,
    pub breadcrumbs: Vec<Crumb<'a>>,
    pub toc: Vec<TocEntry<'a>>,
    /// The nav ids from the area root to the active menu item.
    pub menu_path: Vec<&'a str>,
    /// The nav shards (routes of `_docgen/nav/` files) the page's menu needs.
    pub nav_shards: Vec<&'a str>,
    /// The site view, serialised once for all pages.
    #[ts(as = "SiteView")]
    pub site: &'a SharedJson,
}

/// A breadcrumb: an item of the menu on the way to the current page, by its menu name (also
/// `breadcrumbs.json`).
#[derive(Serialize, Hash, TS)]
#[serde(rename_all = "camelCase")]
pub struct Crumb<'a> {
    pub display_name: &'a str,
    /// The page's route.
    pub url: &'a str,
}

/// An entry of a page's table of contents (the right-hand menu; also `right-menu.json`).
#[derive(Debug, Clone, Serialize, Hash, TS)]
#[serde(rename_all = "camelCase")]
pub struct TocEntry<'a> {
    pub display_name: &'a str,
    /// `#` and the heading's id.
    #[ts(type = "string")]
    pub hash_name: Anchor<'a>,
    /// 1 to 3.
    pub level: u8,
}

/// What the page template shows besides the page data: the head and the article. Not part of
/// the page data, so not generated for the app.
#[derive(Serialize, Hash)]
pub struct PageContent<'a> {
    pub title: &'a str,
    /// The front matter's, or else the start of the page's first paragraph (see
    /// `render::excerpt`).
    pub description: Option<Cow<'a, str>>,
    /// The subtitle of a 404 page.
    pub subtitle: Option<&'a str>,
    /// The canonical address, absolute.
    pub canonical: AbsoluteUrl<'a>,
    pub body: Option<Body<'a>>,
    pub layout: &'a str,
    /// Where the page's source can be edited (with `editUrl` in `site.yaml`).
    pub edit_url: Option<String>,
    /// When the page's file last changed, from git.
    pub updated: Option<Updated>,
    /// The pages before and after this one in menu order.
    pub pager: Pager<'a>,
    /// The site's own home: `og:type` is `website` there, `article` elsewhere.
    pub is_home: bool,
    /// The address of the page's Markdown twin (`<link rel="alternate">`), when the site
    /// writes twins.
    pub markdown: Option<String>,
    /// The version menu and banner, on a site with versions (`versions:` in site.yaml).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub version: Option<super::versions::PageVersions>,
    /// Its language, the same page in the others, the notice of an untranslated or stale page.
    pub locale: super::locales::PageLocale<'a>,
}

/// A date a page shows: `datetime` for machines (`2024-03-05`), `text` for readers.
#[derive(Debug, Clone, Serialize, Hash, PartialEq, Eq)]
pub struct Updated {
    pub datetime: String,
    pub text: String,
}

impl Updated {
    pub fn of(secs: i64) -> Self {
        Updated {
            datetime: crate::content::git::iso_date(secs),
            text: crate::content::git::long_date(secs),
        }
    }
}

/// `#` and a heading's id, written out without a copy of the id (pages have many headings).
#[derive(Debug, Clone, Copy, Hash)]
pub struct Anchor<'a>(pub &'a str);

impl Serialize for Anchor<'_> {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_str(&format_args!("#{}", self.0))
    }
}

/// The absolute address of a route (`Config::absolute`), written out only when serialised.
#[derive(Debug, Clone, Copy, Hash)]
pub struct AbsoluteUrl<'a> {
    origin: &'a str,
    base: &'a str,
    route: &'a str,
}

impl<'a> AbsoluteUrl<'a> {
    /// The address of `route` on a site of `origin` served under `base`.
    pub fn new(origin: &'a str, base: &'a str, route: &'a str) -> Self {
        AbsoluteUrl {
            origin,
            base,
            route,
        }
    }

    pub fn of(site: &'a Site<'_>, route: &'a str) -> Self {
        AbsoluteUrl {
            origin: &site.config.origin,
            base: &site.config.base_path,
            route,
        }
    }
}

impl std::fmt::Display for AbsoluteUrl<'_> {
    /// As `Config::absolute`: the origin, the base path and the route.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}{}{}", self.origin, self.base, self.route)
    }
}

impl Serialize for AbsoluteUrl<'_> {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_str(self)
    }
}

/// The HTML of a page's content; hashes by the page's own digest (`Page::own_digest`), which
/// covers it and everything else the page was read into, made only when hashed.
pub struct Body<'a> {
    pub html: &'a str,
    pub page: &'a Page,
}

impl Serialize for Body<'_> {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(self.html)
    }
}

impl Hash for Body<'_> {
    fn hash<H: Hasher>(&self, state: &mut H) {
        self.page.own_digest().hash(state);
    }
}

impl<'a> PageContent<'a> {
    pub fn of(site: &'a Site<'_>, page: &'a Page) -> Self {
        PageContent {
            title: &page.title,
            description: page.front.description.as_deref().map(Cow::Borrowed),
            subtitle: None,
            // A fallback is its source's page: the source is the canonical address.
            canonical: AbsoluteUrl::of(
                site,
                match page.translation.is_fallback() {
                    true => site.config.locales[page.locale]
                        .unprefixed(&page.route)
                        .unwrap_or(&page.route),
                    false => &page.route,
                },
            ),
            locale: super::locales::PageLocale::of(site, page, &page.route),
            // A body the build does not hold is given to `Renderer::page` when it is written;
            // the digest covers it either way.
            body: Some(Body {
                html: page.body.held().unwrap_or_default(),
                page,
            }),
            layout: page.layout().name(),
            edit_url: site.config.site.edit_url_of(&page.file),
            updated: site.last_updated.of(&page.file).map(Updated::of),
            pager: Pager::default(),
            // The home of each locale is a home (`/zh/docs` as `/docs`).
            is_home: page.route == site.config.locales[page.locale].route(site.config.home()),
            markdown: site
                .config
                .site
                .llms
                .enabled
                .then(|| twin_href(&site.config.base_path, &page.route)),
            version: None,
        }
    }
}

/// The trail to the page at `route`: the menu items on the way to it, top down, each by the
/// name the menu gives it (an area by its name in `site.yaml`), so the menu, the breadcrumbs
/// and the titles never disagree. A section without a page of its own leads to its first page;
/// menu groups are not places and are left out. A page the menu does not list (hidden) comes
/// last under its nearest listed ancestor; an alias the menu does not list follows its page's
/// trail. Outside every area: the pages whose routes are prefixes of `route`.
pub fn breadcrumbs<'a>(site: &'a Site<'_>, route: &str) -> Vec<Crumb<'a>> {
    let nodes = &site.nav.nodes;
    let listed = |r: &str| {
        site.nav
            .active(r)
            .is_some_and(|n| nodes[n].route == r && !nodes[n].is_group)
    };
    let entry = site.routes.get_key_value(route);
    // An alias the menu leaves out, in its page's area: the page's own trail.
    let trail_route = match entry {
        Some((_, e))
            if !listed(route)
                && listed(&site.pages[e.page].route)
                && site.area_of(&site.pages[e.page].route) == site.area_of(route) =>
        {
            site.pages[e.page].route.as_str()
        }
        _ => route,
    };
    let path = MenuPath::of(site, trail_route);
    if path.area.is_none() {
        return by_prefix(site, route);
    }
    let mut crumbs: Vec<Crumb<'a>> = path
        .nodes
        .iter()
        .filter(|&&n| !nodes[n].is_group)
        .filter_map(|&n| {
            let node = &nodes[n];
            let url = if node.is_page || node.parent.is_none() {
                Some(node.route.as_str())
            } else {
                first_page(site, n)
            };
            url.map(|url| Crumb {
                display_name: &node.label,
                url,
            })
        })
        .collect();
    let reached = path
        .nodes
        .last()
        .is_some_and(|&n| nodes[n].route == trail_route);
    if !reached && let Some((r, e)) = entry {
        crumbs.push(Crumb {
            display_name: site.pages[e.page].menu_label(),
            url: r,
        });
    }
    crumbs
}

/// The route of the first page in the menu below section `idx` (the features hide what the
/// menu hides), where the crumb of a section without a page of its own leads.
pub fn first_page<'a>(site: &'a Site<'_>, idx: usize) -> Option<&'a str> {
    let nodes = &site.nav.nodes;
    let features = &site.config.site.features;
    let mut stack: Vec<usize> = nodes[idx].children.iter().rev().copied().collect();
    while let Some(n) = stack.pop() {
        let node = &nodes[n];
        if node
            .require_feature
            .as_ref()
            .is_some_and(|f| !features.contains(f))
        {
            continue;
        }
        if node.is_page {
            return Some(&node.route);
        }
        stack.extend(node.children.iter().rev());
    }
    None
}

/// The pages whose routes are prefixes of `route`, top down (the route itself last).
fn by_prefix<'a>(site: &'a Site<'_>, route: &str) -> Vec<Crumb<'a>> {
    let mut crumbs = Vec::new();
    let mut end = route.len();
    loop {
        let prefix = if end == 0 { "/" } else { &route[..end] };
        if let Some((r, e)) = site.routes.get_key_value(prefix) {
            crumbs.push(Crumb {
                display_name: site.pages[e.page].menu_label(),
                url: r,
            });
        }
        if end == 0 {
            break;
        }
        end = route[..end].rfind('/').unwrap_or(0);
    }
    crumbs.reverse();
    crumbs
}

/// The page's own h1-h3, unless it hides its table of contents.
pub fn toc(page: &Page) -> Vec<TocEntry<'_>> {
    if !page.toc {
        return Vec::new();
    }
    page.rendered
        .headings
        .iter()
        .map(|h| TocEntry {
            display_name: &h.text,
            hash_name: Anchor(&h.id),
            level: h.level,
        })
        .collect()
}

/// The address of a route's Markdown twin on the site, with the base path: `/a/b` →
/// `/a/b/index.md`. The output stage writes the twin there.
pub fn twin_href(base_path: &str, route: &str) -> String {
    format!("{base_path}{}/index.md", route.trim_end_matches('/'))
}
