//! Stage 5: HTML from minijinja templates kept in `templates/` — the pre-rendered shell around
//! each page (with only the menu branch that leads to it), legacy-route pages and 404 pages.
//! Pure: strings out, no files written here.

mod menu;

use rustc_hash::FxHasher as DefaultHasher;
use std::collections::BTreeMap;
use std::hash::{Hash, Hasher};

use minijinja::{Environment, Value, context};
use serde::Serialize;

use crate::config::site::FooterAction;
use crate::content::Layout;
use crate::model::{Redirect, RouteEntry, Site};
use crate::output::tables::NavShards;

/// The templates, embedded so `docgen` is one file; a site may override any of them with a
/// file of the same name in its own `templates/` folder.
const TEMPLATES: &[(&str, &str)] = &[
    ("base.html", include_str!("../../templates/base.html")),
    ("macros.html", include_str!("../../templates/macros.html")),
    ("page.html", include_str!("../../templates/page.html")),
    ("faq.html", include_str!("../../templates/faq.html")),
    (
        "redirect.html",
        include_str!("../../templates/redirect.html"),
    ),
    (
        "not_found.html",
        include_str!("../../templates/not_found.html"),
    ),
];

pub struct Renderer<'s, 'a> {
    site: &'s Site<'a>,
    env: Environment<'static>,
    /// The site part of the context, per area (the top bar marks the current area).
    site_ctx: BTreeMap<Option<usize>, Value>,
    /// The site part of the page data JSON, shared by every page.
    site_json: String,
    assets: Value,
    menu_cache: menu::MenuCache,
    fingerprints: Fingerprints,
    nav_shards: NavShards,
}

/// Digests of what a page's HTML depends on, for rendering only what changed (see
/// `output::write_incremental`). They must cover every input of `Renderer::page`.
struct Fingerprints {
    global: u64,
    /// Per menu entry: how it looks closed.
    node: Vec<u64>,
    /// Per menu entry: its visible children, closed, in order.
    children: Vec<u64>,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct FooterLinkOut {
    display_name: String,
    id: String,
    is_page: bool,
    url: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    icon: Option<FooterIconOut>,
    children: [(); 0],
    #[serde(skip_serializing_if = "Option::is_none")]
    action: Option<&'static str>,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct FooterIconOut {
    icon_src: String,
    icon_alt: String,
}

/// The footer links in the shape of the specification (also `footer.json`).
pub fn footer_links(site: &Site<'_>) -> Vec<impl Serialize + use<>> {
    site.config
        .site
        .footer
        .iter()
        .map(|l| FooterLinkOut {
            display_name: l.display_name.clone(),
            id: crate::render::slug(&l.display_name),
            is_page: false,
            url: l.url.clone().unwrap_or_default(),
            icon: l.icon.as_ref().map(|i| FooterIconOut {
                icon_src: site
                    .assets
                    .href(&i.icon_src)
                    .unwrap_or_else(|| i.icon_src.clone()),
                icon_alt: i.icon_alt.clone(),
            }),
            children: [],
            action: l.action.map(|a| match a {
                FooterAction::Consent => "consent",
            }),
        })
        .collect()
}

impl Fingerprints {
    fn new(site: &Site<'_>, env: &Environment<'_>, site_json: &str, assets: &Value) -> Self {
        let mut g = DefaultHasher::default();
        for (name, _) in TEMPLATES {
            env.get_template(name)
                .map(|t| t.source().to_string())
                .unwrap_or_default()
                .hash(&mut g);
        }
        site_json.hash(&mut g);
        assets.hash(&mut g);
        format!("{:?}", site.config.site).hash(&mut g);
        (&site.config.origin, &site.config.base_path).hash(&mut g);
        for (r, e) in &site.routes {
            // Which area each route falls in decides the top bar; a new area changes every page.
            (r.len(), e.canonical).hash(&mut g);
        }
        site.nav.roots.hash(&mut g);
        let features = &site.config.site.features;
        let nav = &site.nav;
        let visible = |n: &crate::model::nav::NavNode| {
            n.require_feature
                .as_ref()
                .is_none_or(|f| features.contains(f))
        };
        let node: Vec<u64> = nav
            .nodes
            .iter()
            .map(|n| {
                let mut h = DefaultHasher::default();
                (
                    &n.id,
                    &n.label,
                    &n.route,
                    n.is_page,
                    n.children.is_empty(),
                    n.is_group,
                    visible(n),
                )
                    .hash(&mut h);
                n.icon.as_ref().map(|i| (&i.src, &i.alt)).hash(&mut h);
                h.finish()
            })
            .collect();
        let children = nav
            .nodes
            .iter()
            .map(|n| {
                let mut h = DefaultHasher::default();
                for &c in &n.children {
                    (c, node[c]).hash(&mut h);
                }
                h.finish()
            })
            .collect();
        Fingerprints {
            global: g.finish(),
            node,
            children,
        }
    }
}

/// What a page's data says about its menu.
struct PageMenu<'x> {
    area: Option<usize>,
    /// Nav ids from the area root to the active item.
    path_ids: &'x [&'x str],
    /// The nav shards the menu needs.
    shards: &'x [&'x str],
}

pub fn slug(s: &str) -> String {
    s.to_lowercase()
        .split(|c: char| !c.is_alphanumeric())
        .filter(|p| !p.is_empty())
        .collect::<Vec<_>>()
        .join("-")
}

/// The writer's own copy (under `templates/`) of the template an error happened in, with its
/// text; `None` for docgen's built-in templates.
pub fn writers_template(
    e: &minijinja::Error,
    root: &std::path::Path,
) -> Option<(std::path::PathBuf, std::sync::Arc<str>)> {
    let rel = std::path::Path::new("templates").join(e.name()?);
    let source = crate::config::source::read(root, &rel).ok()?;
    Some((rel, source))
}

/// JSON for an inline `<script>`: no content string can open or close anything there
/// (`</script>`, `<!--`), nor end a JavaScript line (U+2028, U+2029). The escapes are JSON's
/// own, so the data reads back unchanged.
pub fn script_json<T: Serialize + ?Sized>(v: &T) -> String {
    let json = serde_json::to_string(v).expect("serializable");
    let mut out = String::with_capacity(json.len() + 16);
    for c in json.chars() {
        match c {
            '<' => out.push_str("\\u003c"),
            '>' => out.push_str("\\u003e"),
            '&' => out.push_str("\\u0026"),
            '\u{2028}' => out.push_str("\\u2028"),
            '\u{2029}' => out.push_str("\\u2029"),
            c => out.push(c),
        }
    }
    out
}

/// The year in the footer: from SOURCE_DATE_EPOCH when set (reproducible builds), else now (UTC).
fn build_year() -> i64 {
    let secs = std::env::var("SOURCE_DATE_EPOCH")
        .ok()
        .and_then(|s| s.parse::<i64>().ok())
        .unwrap_or_else(|| {
            std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)
                .map_or(0, |d| d.as_secs() as i64)
        });
    // Civil-from-days (Howard Hinnant), enough for a year.
    let days = secs.div_euclid(86_400);
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    yoe + era * 400 + i64::from(month <= 2)
}

impl<'s, 'a> Renderer<'s, 'a> {
    pub fn new(site: &'s Site<'a>) -> Result<Self, minijinja::Error> {
        let mut env = Environment::new();
        env.set_fuel(Some(crate::content::templating::FUEL));
        // Escape only what HTML needs; the default also escapes `/`, which bloats every href.
        env.set_formatter(|out, state, value| {
            if matches!(state.auto_escape(), minijinja::AutoEscape::Html)
                && !value.is_safe()
                && let Some(s) = value.as_str()
            {
                let mut buf = String::with_capacity(s.len() + 8);
                crate::markdown::highlight::escape_into(&mut buf, s);
                return out.write_str(&buf).map_err(minijinja::Error::from);
            }
            minijinja::escape_formatter(out, state, value)
        });
        let overrides = site.config.root.join("templates");
        for (name, text) in TEMPLATES {
            let own = std::fs::read_to_string(overrides.join(name)).ok();
            env.add_template_owned(*name, own.unwrap_or_else(|| text.to_string()))?;
        }
        let cfg = site.config;
        let logo = cfg
            .site
            .logo
            .as_deref()
            .and_then(|l| site.assets.href(l))
            .or_else(|| site.assets.href("docgen/logo.svg"))
            .unwrap_or_default();
        let year = build_year();
        let footer = footer_links(site);
        let footer_value = Value::from(
            cfg.site
                .footer
                .iter()
                .zip(&footer)
                .map(|(l, _)| {
                    context! {
                        displayName => l.display_name.as_str(),
                        href => l.url.clone().unwrap_or_default(),
                        external => l.url.as_deref().is_some_and(|u| u.contains("://")),
                        action => l.action.map(|_| "consent"),
                        icon => l.icon.as_ref().map(|i| context! {
                            iconSrc => site.assets.href(&i.icon_src).unwrap_or_default(),
                            iconAlt => i.icon_alt.as_str(),
                        }),
                    }
                })
                .collect::<Vec<_>>(),
        );
        let areas: Vec<(Option<usize>, &str, &str)> = site
            .nav
            .roots
            .iter()
            .map(|&r| {
                (
                    Some(r),
                    site.nav.nodes[r].label.as_str(),
                    site.nav.nodes[r].route.as_str(),
                )
            })
            .collect();
        let mut site_ctx = BTreeMap::new();
        let keys: Vec<Option<usize>> = std::iter::once(None)
            .chain(areas.iter().map(|a| a.0))
            .collect();
        for key in keys {
            let area_list: Vec<Value> = areas
                .iter()
                .map(|(idx, label, route)| context! { displayName => *label, href => site.href(route), current => *idx == key })
                .collect();
            site_ctx.insert(
                key,
                context! {
                    title => cfg.site.title(),
                    base => cfg.base_path.as_str(),
                    baseJson => script_json(&cfg.base_path),
                    homeHref => site.href(cfg.home()),
                    logo => logo.as_str(),
                    year => year,
                    copyright => cfg.site.copyright.as_str(),
                    footer => footer_value.clone(),
                    areas => area_list,
                },
            );
        }
        #[derive(Serialize)]
        #[serde(rename_all = "camelCase")]
        struct SiteData<'x, F: Serialize> {
            title: &'x str,
            base: &'x str,
            home: &'x str,
            api_base: &'x str,
            features: &'x [String],
            year: i64,
            copyright: &'x str,
            footer: &'x [F],
            areas: Vec<serde_json::Value>,
            logo: &'x str,
            search: Option<SiteSearch>,
        }
        /// Where the app finds the search index and the engine that reads it.
        #[derive(Serialize)]
        struct SiteSearch {
            index: String,
            script: String,
        }
        let site_json = script_json(&SiteData {
            title: cfg.site.title(),
            base: &cfg.base_path,
            home: cfg.home(),
            api_base: &cfg.site.api_base,
            features: &cfg.site.features,
            year,
            copyright: &cfg.site.copyright,
            footer: &footer,
            areas: areas
                .iter()
                .map(|(_, l, r)| {
                    // An area's own not-found text, for routes the app cannot load.
                    let nf = cfg.site.areas.iter().find(|a| a.route == *r).and_then(|a| a.not_found.as_ref());
                    match nf {
                        Some(n) => serde_json::json!({"displayName": l, "url": r, "notFound": {"title": n.title, "subtitle": n.subtitle}}),
                        None => serde_json::json!({"displayName": l, "url": r}),
                    }
                })
                .collect(),
            logo: &logo,
            search: site.assets.href("docgen/search.js").map(|script| SiteSearch {
                index: site.href("/_docgen/search/index.json"),
                script,
            }),
        });
        let assets = context! {
            css => site.assets.href("docgen/app.css"),
            js => site.assets.href("docgen/app.js"),
            favicon => site.assets.href(cfg.site.logo.as_deref().unwrap_or("docgen/logo.svg")).or_else(|| site.assets.href("docgen/logo.svg")),
        };
        let menu_cache = menu::MenuCache::new(site.nav.nodes.len());
        let fingerprints = Fingerprints::new(site, &env, &site_json, &assets);
        Ok(Renderer {
            site,
            env,
            site_ctx,
            site_json,
            assets,
            menu_cache,
            fingerprints,
            nav_shards: NavShards::build(site),
        })
    }

    /// The menu tree in shards, for the output folder.
    pub fn nav_shards(&self) -> &NavShards {
        &self.nav_shards
    }

    /// A digest of everything all pages share (templates, configuration, assets).
    pub fn global_fingerprint(&self) -> u64 {
        self.fingerprints.global
    }

    /// A digest of every per-page input of `page(route, entry)`: the page itself, its
    /// breadcrumbs and its menu branch. Equal fingerprints (with an equal global one) mean
    /// equal HTML.
    pub fn page_fingerprint(&self, route: &str, entry: &RouteEntry) -> u64 {
        let site = self.site;
        let page = &site.pages[entry.page];
        let mut h = DefaultHasher::default();
        route.hash(&mut h);
        page.content_hash.hash(&mut h);
        for c in site.breadcrumbs(route) {
            (c.label, c.route).hash(&mut h);
        }
        let area = site.area_of(route);
        area.hash(&mut h);
        if let Some(root) = area {
            let nav = &site.nav;
            let active = nav
                .active(route)
                .filter(|&a| nav.path_to(a).first() == Some(&root));
            let path = active.map(|a| nav.path_to(a)).unwrap_or_else(|| vec![root]);
            for &n in &path {
                (
                    n,
                    self.fingerprints.node[n],
                    self.fingerprints.children[n],
                    nav.nodes[n].route == route,
                )
                    .hash(&mut h);
            }
            active.hash(&mut h);
            self.nav_shards.for_path(&path).hash(&mut h);
        }
        h.finish()
    }

    /// The complete HTML of the page served at `route`, around its HTML `body`.
    pub fn page(
        &self,
        route: &str,
        entry: &RouteEntry,
        body: &str,
    ) -> Result<String, minijinja::Error> {
        let site = self.site;
        let page = &site.pages[entry.page];
        let area = site.area_of(route);
        let crumbs = site.breadcrumbs(route);
        let toc = site.toc(entry.page);
        let menu = menu::branch(site, &self.env, &self.menu_cache, route, area)?;
        let page_data = self.page_data(
            route,
            page,
            PageMenu {
                area,
                path_ids: &menu.path_ids,
                shards: &self.nav_shards.for_path(&menu.path),
            },
            &crumbs,
            &toc,
        );
        let template = match page.layout() {
            Layout::Doc => "page.html",
            Layout::Faq => "faq.html",
        };
        self.env.get_template(template)?.render(context! {
            site => self.site_ctx.get(&area).or_else(|| self.site_ctx.get(&None)),
            page => context! {
                title => page.title.as_str(),
                description => page.front.description.as_deref(),
                canonical => site.config.absolute(&page.route),
                body => body,
                layout => page.layout().name(),
            },
            breadcrumbs => crumbs.iter().map(|c| context! { displayName => c.label, href => site.href(c.route) }).collect::<Vec<_>>(),
            toc => Value::from(minijinja::value::Serde(&toc)),
            menu => menu.value,
            assets => self.assets.clone(),
            page_data => page_data,
        })
    }

    fn page_data(
        &self,
        route: &str,
        page: &crate::content::Page,
        menu: PageMenu<'_>,
        crumbs: &[crate::model::Crumb<'_>],
        toc: &[crate::model::TocEntry<'_>],
    ) -> String {
        #[derive(Serialize)]
        #[serde(rename_all = "camelCase")]
        struct Crumb<'x> {
            display_name: &'x str,
            url: &'x str,
        }
        #[derive(Serialize)]
        #[serde(rename_all = "camelCase")]
        struct Data<'x> {
            route: &'x str,
            canonical: &'x str,
            title: &'x str,
            area: Option<&'x str>,
            breadcrumbs: Vec<Crumb<'x>>,
            toc: &'x [crate::model::TocEntry<'x>],
            menu_path: &'x [&'x str],
            nav_shards: &'x [&'x str],
        }
        let data = Data {
            route,
            canonical: &page.route,
            title: &page.title,
            area: menu.area.map(|a| self.site.nav.nodes[a].route.as_str()),
            breadcrumbs: crumbs
                .iter()
                .map(|c| Crumb {
                    display_name: c.label,
                    url: c.route,
                })
                .collect(),
            toc,
            menu_path: menu.path_ids,
            nav_shards: menu.shards,
        };
        let mut json = script_json(&data);
        // Splice the shared site object in rather than re-serialising it for every page.
        json.pop();
        json.push_str(",\"site\":");
        json.push_str(&self.site_json);
        json.push('}');
        json
    }

    /// The page of a legacy route.
    pub fn redirect(&self, r: &Redirect) -> Result<String, minijinja::Error> {
        let site = self.site;
        let dest_route = r.to.split('#').next().unwrap_or(&r.to);
        let title = site
            .page_at(dest_route)
            .map_or(dest_route, |p| p.title.as_str());
        let to = site.href(&r.to);
        self.env.get_template("redirect.html")?.render(context! {
            to => to,
            to_json => script_json(&site.href(dest_route)),
            canonical => site.config.absolute(&r.to),
            title => title,
        })
    }

    /// The 404 page, generic or for one area.
    pub fn not_found(&self, area: Option<(&str, &str, &str)>) -> Result<String, minijinja::Error> {
        let site = self.site;
        let (title, subtitle) = match area {
            Some((_, t, s)) => (t, s),
            None => (
                "Page not found",
                "The page you are looking for does not exist or has moved.",
            ),
        };
        let areas: Vec<serde_json::Value> = site
            .config
            .site
            .areas
            .iter()
            .filter_map(|a| a.not_found.as_ref().map(|n| serde_json::json!({"href": site.href(&a.route), "title": n.title, "subtitle": n.subtitle})))
            .collect();
        let root = area.and_then(|(route, _, _)| {
            site.nav
                .roots
                .iter()
                .copied()
                .find(|&r| site.nav.nodes[r].route == route)
        });
        let shards = self.nav_shards.for_path(root.as_slice());
        let page_data = format!(
            "{{\"route\":null,\"title\":{},\"notFound\":true,\"breadcrumbs\":[],\"toc\":[],\"menuPath\":[],\"navShards\":{},\"site\":{}}}",
            script_json(title),
            script_json(&shards),
            self.site_json
        );
        self.env.get_template("not_found.html")?.render(context! {
            site => self.site_ctx.get(&None),
            page => context! {
                title => title,
                subtitle => subtitle,
                canonical => site.config.absolute(area.map_or("/404", |a| a.0)),
                layout => "error",
            },
            not_found_areas => if area.is_none() && !areas.is_empty() { Some(script_json(&areas)) } else { None },
            not_found_json => "",
            assets => self.assets.clone(),
            page_data => page_data,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn inline_json_can_neither_open_nor_close_anything() {
        let title = "A <!--<script> </script> & \u{2028} title";
        let json = script_json(&serde_json::json!({ "title": title }));
        assert!(!json.contains('<') && !json.contains('>') && !json.contains('&'));
        assert!(!json.contains('\u{2028}'));
        let back: serde_json::Value = serde_json::from_str(&json).unwrap();
        assert_eq!(back["title"], title);
    }
}
