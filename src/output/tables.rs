//! The JSON tables the app reads (`_docgen/`), with the specification's field names.

use std::collections::BTreeMap;

use serde::Serialize;

use crate::model::Site;

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct NavNodeOut<'a> {
    display_name: &'a str,
    id: &'a str,
    is_page: bool,
    url: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    breadcrumb_url: Option<String>,
    children: Vec<NavNodeOut<'a>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    icon: Option<&'a crate::model::nav::Icon>,
    #[serde(skip_serializing_if = "Option::is_none")]
    require_feature: Option<&'a str>,
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    external: bool,
}

fn nav_node<'a>(site: &'a Site<'_>, idx: usize) -> NavNodeOut<'a> {
    let n = &site.nav.nodes[idx];
    NavNodeOut {
        display_name: &n.label,
        id: &n.id,
        is_page: n.is_page,
        url: n.route.clone(),
        breadcrumb_url: None,
        children: n.children.iter().map(|&c| nav_node(site, c)).collect(),
        icon: n.icon.as_ref(),
        require_feature: n.require_feature.as_deref(),
        external: false,
    }
}

/// `nav.json`: the area roots with their trees, then the external menu links. Urls are routes
/// (without the base path), like every table of `_docgen/`.
pub fn nav(site: &Site<'_>) -> String {
    let mut out: Vec<NavNodeOut<'_>> = site.nav.roots.iter().map(|&r| nav_node(site, r)).collect();
    let link_icons: Vec<Option<crate::model::nav::Icon>> = site
        .config
        .site
        .menu_links
        .iter()
        .map(|l| {
            Some(crate::model::nav::Icon {
                src: site.assets.href(l.icon.as_deref()?)?,
                alt: l.icon_alt.clone().unwrap_or_default(),
            })
        })
        .collect();
    for (l, icon) in site.config.site.menu_links.iter().zip(&link_icons) {
        out.push(NavNodeOut {
            display_name: &l.display_name,
            id: "",
            is_page: false,
            url: l.url.clone(),
            breadcrumb_url: None,
            children: Vec::new(),
            icon: icon.as_ref(),
            require_feature: None,
            external: true,
        });
    }
    // External links get ids from their labels so every node has one.
    let ids: Vec<String> = site
        .config
        .site
        .menu_links
        .iter()
        .map(|l| format!("external-{}", crate::render::slug(&l.display_name)))
        .collect();
    let n = out.len() - ids.len();
    for (node, id) in out[n..].iter_mut().zip(&ids) {
        node.id = id;
    }
    serde_json::to_string(&out).expect("serializable")
}

/// `right-menu.json`: per page, its routes and its h1-h3.
pub fn right_menu(site: &Site<'_>) -> String {
    #[derive(Serialize)]
    #[serde(rename_all = "camelCase")]
    struct Entry<'a> {
        path_name: Vec<&'a str>,
        right_menu_navs: Vec<crate::model::TocEntry<'a>>,
    }
    let entries: Vec<Entry<'_>> = site
        .pages
        .iter()
        .enumerate()
        .filter(|(_, p)| p.is_page)
        .map(|(i, _)| Entry {
            path_name: site.routes_of(i),
            right_menu_navs: site.toc(i),
        })
        .collect();
    serde_json::to_string(&entries).expect("serializable")
}

/// `breadcrumbs.json`: for each route, its trail from the top down.
pub fn breadcrumbs(site: &Site<'_>) -> String {
    #[derive(Serialize)]
    #[serde(rename_all = "camelCase")]
    struct Crumb<'a> {
        display_name: &'a str,
        url: String,
    }
    let table: BTreeMap<&str, Vec<Crumb<'_>>> = site
        .routes
        .keys()
        .map(|r| {
            (
                r.as_str(),
                site.breadcrumbs(r)
                    .into_iter()
                    .map(|c| Crumb {
                        display_name: c.label,
                        url: c.route.to_string(),
                    })
                    .collect(),
            )
        })
        .collect();
    serde_json::to_string(&table).expect("serializable")
}

pub fn footer(site: &Site<'_>) -> String {
    serde_json::to_string(&crate::render::footer_links(site)).expect("serializable")
}

/// `routes.json`: every page route (aliases included) and every expanded legacy route.
pub fn routes(site: &Site<'_>) -> String {
    #[derive(Serialize)]
    struct PageRoute<'a> {
        route: &'a str,
        title: &'a str,
        canonical: &'a str,
    }
    #[derive(Serialize)]
    struct RedirectOut<'a> {
        from: &'a str,
        to: &'a str,
    }
    #[derive(Serialize)]
    struct Routes<'a> {
        pages: Vec<PageRoute<'a>>,
        redirects: Vec<RedirectOut<'a>>,
    }
    let r = Routes {
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
            .map(|r| RedirectOut {
                from: &r.from,
                to: &r.to,
            })
            .collect(),
    };
    serde_json::to_string(&r).expect("serializable")
}

/// `_redirects` for CDNs that read it (Netlify, Cloudflare Pages).
pub fn redirects_file(site: &Site<'_>) -> String {
    let mut out = String::new();
    for r in &site.redirects {
        out.push_str(&format!(
            "{} {} 301\n",
            site.href(&r.from),
            site.href(&r.to)
        ));
    }
    if let Some((cfg, _)) = &site.config.redirects {
        let home = cfg.home.as_deref().unwrap_or(site.config.home());
        let base = site.href(cfg.legacy_base.trim_end_matches('/'));
        if !site
            .redirects
            .iter()
            .any(|r| r.from == cfg.legacy_base.trim_end_matches('/'))
        {
            out.push_str(&format!("{base} {} 301\n", site.href(home)));
        }
        out.push_str(&format!("{base}/* {} 301\n", site.href(home)));
    }
    // The new-tab prefix `/o/...`, one rule per first segment of the site's routes: a fixed
    // segment before the splat keeps every target a path of this site (a bare `/o/*` rule
    // makes `/o//host` another host's address). Anything else falls to the 404 page, whose
    // script leads it to a page of this site only.
    let mut firsts: Vec<&str> = site
        .routes
        .keys()
        .filter_map(|r| r.trim_start_matches('/').split('/').next())
        .filter(|s| !s.is_empty() && *s != "o")
        .collect();
    firsts.dedup();
    for first in firsts {
        let from = site.href(&format!("/o/{first}"));
        let to = site.href(&format!("/{first}"));
        out.push_str(&format!("{from} {to} 302\n{from}/* {to}/:splat 302\n"));
    }
    for a in site
        .config
        .site
        .areas
        .iter()
        .filter(|a| a.not_found.is_some())
    {
        out.push_str(&format!(
            "{}/* {}/404.html 404\n",
            site.href(&a.route),
            site.href(&a.route)
        ));
    }
    out
}
