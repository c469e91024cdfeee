//! Stage 3: the site model — routes, aliases, the navigation tree, assets and the expanded
//! legacy routes — derived from the content, read-only after.

pub mod assets;
pub mod locales;
pub mod nav;
pub mod publish;
pub mod redirects;
pub mod versions;

use std::collections::BTreeMap;
use std::sync::Arc;

use crate::config::Config;
use crate::content::{Content, Page};
use crate::diagnostics::{Diagnostic, Diagnostics};
pub use assets::Assets;
pub use nav::{NavTree, is_prefix};
pub use redirects::Redirect;

/// A route served by a page.
#[derive(Debug, Clone, Copy)]
pub struct RouteEntry {
    pub page: usize,
    /// False for an alias.
    pub canonical: bool,
}

pub struct Site<'a> {
    pub config: &'a Config,
    pub pages: &'a [Arc<Page>],
    pub assets: Assets,
    /// Every route a page is served at (canonical and aliases), sorted.
    pub routes: Arc<BTreeMap<String, RouteEntry>>,
    pub nav: Arc<NavTree>,
    pub redirects: Arc<Vec<Redirect>>,
    /// The data files, for published documents.
    pub data: &'a BTreeMap<String, yaml_serde::Value>,
    /// The routes of the only pages an edit changed, when nothing else changed (see
    /// `Content::edited_bodies`).
    pub edited_bodies: Option<&'a [String]>,
    /// When each page file last changed (`Content::last_updated`).
    pub last_updated: &'a crate::content::git::LastUpdated,
    /// What the site's enabled extensions made of this model (`extension::Active::prepare`),
    /// for the view and the output; empty until they ran.
    pub extensions: Vec<Extended>,
    /// The warnings that are no page's: the configuration's, the content listing's and the
    /// checks'.
    pub notes: Vec<Diagnostic>,
}

/// What one extension adds to what the site publishes, made once per build.
#[derive(Debug, Default, Clone)]
pub struct Extended {
    /// Files written under the output folder: (path relative to it, bytes).
    pub data_files: Vec<(String, Vec<u8>)>,
    /// Entries of the site view every page holds (`site.<key>` in the page data and the
    /// templates), e.g. where the extension's data and scripts are.
    pub site_view: Vec<(String, serde_json::Value)>,
    /// The islands whose components a bundle of the extension registers: (island name, the
    /// bundle's name as `Enabled::bundles` gives it). The app imports the bundle on a page that
    /// holds one of them (`site.islandScripts`).
    pub islands: Vec<(String, String)>,
}

/// What the rest of the site sees of its pages: the routes, the menu and the legacy routes.
/// An edit of page bodies alone (`Content::edited_bodies`) leaves it as it was, so the preview
/// server takes it over from the last good build instead of deriving it again.
#[derive(Clone)]
pub struct Shape {
    routes: Arc<BTreeMap<String, RouteEntry>>,
    nav: Arc<NavTree>,
    redirects: Arc<Vec<Redirect>>,
}

/// The model of `content` with the shape of an earlier build of the same pages, which must
/// differ from them in their bodies only (`Content::edited_bodies`).
pub fn reshaped<'a>(
    config: &'a Config,
    content: &'a Content,
    assets: Assets,
    shape: &Shape,
) -> Site<'a> {
    debug_assert!(content.edited_bodies.is_some());
    Site {
        config,
        pages: &content.pages,
        assets,
        routes: shape.routes.clone(),
        nav: shape.nav.clone(),
        redirects: shape.redirects.clone(),
        data: &content.data,
        edited_bodies: content.edited_bodies.as_deref(),
        last_updated: &content.last_updated,
        extensions: Vec::new(),
        notes: notes(config, content),
    }
}

fn notes(config: &Config, content: &Content) -> Vec<Diagnostic> {
    config
        .warnings
        .iter()
        .chain(&content.warnings)
        .cloned()
        .collect()
}

/// Builds the model, with its errors (conflicting routes, legacy routes that cannot be
/// expanded): the first claim of a route wins, so the checks can still run over the rest.
pub fn build<'a>(
    config: &'a Config,
    content: &'a Content,
    assets: Assets,
) -> (Site<'a>, Diagnostics) {
    let mut errors = Diagnostics::default();
    let pages = &content.pages[..];
    let mut routes: BTreeMap<String, RouteEntry> = BTreeMap::new();
    let mut sections: BTreeMap<&str, usize> = BTreeMap::new();
    // Reported on `b`, at `line` (its alias, or the top of the file).
    let clash = |route: &str, a: &Page, b: &Page, line: usize| {
        Diagnostic::new(
            "route.duplicate",
            format!(
                "two pages claim the route `{route}`: {} and {}",
                a.origin(),
                b.origin()
            ),
        )
        .in_file(&b.file)
        .at(line, 1)
        .with_source(&b.source_text(&config.root))
        .hint("rename one of the files, or remove the alias that collides")
    };
    for (i, page) in pages.iter().enumerate() {
        if !page.is_page {
            if let Some(&other) = sections.get(page.route.as_str()) {
                errors.push(clash(&page.route, &pages[other], page, 1));
            }
            sections.insert(&page.route, i);
            continue;
        }
        if let Some(e) = routes.get(&page.route) {
            errors.push(clash(&page.route, &pages[e.page], page, 1));
            continue;
        }
        routes.insert(
            page.route.clone(),
            RouteEntry {
                page: i,
                canonical: true,
            },
        );
    }
    for (i, page) in pages.iter().enumerate().filter(|(_, p)| p.is_page) {
        for alias in &page.front.aliases {
            if let Err(why) = crate::config::validate_route(alias) {
                let source = page.source_text(&config.root);
                errors.push(
                    Diagnostic::new("route.bad-alias", format!("the alias `{alias}` {why}"))
                        .in_file(&page.file)
                        .at(alias_line(&source, alias), 1)
                        .with_source(&source)
                        .hint("write aliases as absolute routes, e.g. /documentation/old/path"),
                );
                continue;
            }
            match routes.get(alias) {
                Some(e) if e.page == i => {}
                Some(e) => errors.push(clash(
                    alias,
                    &pages[e.page],
                    page,
                    alias_line(&page.source_text(&config.root), alias),
                )),
                None => {
                    routes.insert(
                        alias.clone(),
                        RouteEntry {
                            page: i,
                            canonical: false,
                        },
                    );
                }
            }
        }
    }
    for (route, &i) in &sections {
        if let Some(e) = routes.get(*route) {
            errors.push(clash(route, &pages[e.page], &pages[i], 1));
        }
    }

    let mut redirects = match &config.redirects {
        Some((r, text)) => match redirects::expand(r, text) {
            Ok(mut v) => {
                redirects::add_legacy_root(&mut v, r, config.home(), |route| {
                    routes.contains_key(route)
                });
                v
            }
            Err(e) => {
                errors.extend(e.0);
                Vec::new()
            }
        },
        None => Vec::new(),
    };
    let area_routes: Vec<&str> = config.site.areas.iter().map(|a| a.route.as_str()).collect();
    redirects::add_site_paths(&mut redirects, config.home(), &area_routes, |route| {
        routes.contains_key(route)
    });
    // Each other locale's root and areas lead where the default's do, in that locale.
    for locale in &config.locales[1..] {
        let home = locale.route(config.home());
        let localised: Vec<String> = area_routes.iter().map(|a| locale.route(a)).collect();
        let localised: Vec<&str> = localised.iter().map(String::as_str).collect();
        let mut more = Vec::new();
        redirects::add_site_paths(&mut more, &home, &localised, |route| {
            routes.contains_key(route)
        });
        // Only the locale's own paths: the root of the site is the default's.
        more.retain(|r| locale.unprefixed(&r.from).is_some());
        redirects.extend(more);
    }

    // The menu: every page's routes and the page-less sections, minus hidden pages.
    // Each locale's areas are areas of their own (`/zh/documentation/dsp`).
    let localised_areas: Vec<String> = config.locales[1..]
        .iter()
        .flat_map(|l| area_routes.iter().map(move |a| l.route(a)))
        .collect();
    let area_of = |route: &str| {
        area_routes
            .iter()
            .copied()
            .chain(localised_areas.iter().map(String::as_str))
            .filter(|a| is_prefix(a, route))
            .max_by_key(|a| a.len())
    };
    // An alias is a menu entry only in another area than its page (one source serving two
    // areas); within one area it is just another address.
    let mut entries: Vec<nav::Entry<'_>> = routes
        .iter()
        .filter(|(r, e)| {
            !pages[e.page].hidden && (e.canonical || area_of(r) != area_of(&pages[e.page].route))
        })
        .map(|(r, e)| nav::Entry {
            route: r,
            page: e.page,
        })
        .collect();
    entries.extend(
        sections
            .iter()
            .filter(|(_, i)| !pages[**i].hidden)
            .map(|(r, i)| nav::Entry { route: r, page: *i }),
    );
    let areas: Vec<(String, String)> = if config.site.areas.is_empty() {
        vec![("/".to_string(), config.site.title().to_string())]
    } else {
        config
            .site
            .areas
            .iter()
            .map(|a| (a.route.clone(), a.display_name.clone()))
            .collect()
    };
    let areas = locales::areas(config, pages, &routes, areas);
    let nav = NavTree::build(pages, &entries, &areas, &|icon| assets.href(icon));
    let site = Site {
        config,
        pages,
        assets,
        routes: Arc::new(routes),
        nav: Arc::new(nav),
        redirects: Arc::new(redirects),
        data: &content.data,
        edited_bodies: content.edited_bodies.as_deref(),
        last_updated: &content.last_updated,
        extensions: Vec::new(),
        notes: notes(config, content),
    };
    (site, errors)
}

/// The line of the front matter that lists `alias` (a list item or an inline list).
fn alias_line(text: &str, alias: &str) -> usize {
    let lines: Vec<&str> = text.lines().collect();
    let listed = |l: &&str| {
        let t = l.trim_start().trim_start_matches('-').trim();
        let t = t.trim_matches(|c| c == '"' || c == '\'');
        t == alias || (l.contains("aliases") && l.contains(alias))
    };
    lines
        .iter()
        .position(listed)
        .or_else(|| lines.iter().position(|l| l.contains(alias)))
        .map_or(1, |i| i + 1)
}

impl<'a> Site<'a> {
    /// The shape of this site, for a later build that changes page bodies only.
    pub fn shape(&self) -> Shape {
        Shape {
            routes: self.routes.clone(),
            nav: self.nav.clone(),
            redirects: self.redirects.clone(),
        }
    }

    pub fn page_at(&self, route: &str) -> Option<&'a Page> {
        self.routes.get(route).map(|e| &*self.pages[e.page])
    }

    /// All routes of a page: canonical first, then aliases.
    pub fn routes_of(&self, page: usize) -> Vec<&str> {
        let p = &self.pages[page];
        let mut v = vec![p.route.as_str()];
        v.extend(
            p.front
                .aliases
                .iter()
                .filter(|a| self.routes.get(*a).is_some_and(|e| e.page == page))
                .map(String::as_str),
        );
        v
    }

    /// The area root node a route belongs to (longest matching area route).
    pub fn area_of(&self, route: &str) -> Option<usize> {
        self.nav
            .roots
            .iter()
            .copied()
            .filter(|&r| is_prefix(&self.nav.nodes[r].route, route))
            .max_by_key(|&r| self.nav.nodes[r].route.len())
    }

    pub fn href(&self, route: &str) -> String {
        self.config.href(route)
    }

    /// Pages that are written (not page-less sections).
    pub fn written_routes(&self) -> impl Iterator<Item = (&str, &RouteEntry)> {
        self.routes.iter().map(|(r, e)| (r.as_str(), e))
    }
}
