//! The JSON tables the app reads (`_docgen/`), with the specification's field names.

use std::borrow::Cow;
use std::collections::BTreeMap;

use serde::Serialize;

use sha2::{Digest, Sha256};

use crate::model::Site;
use crate::model::nav::Icon;

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct NavNodeOut<'a> {
    display_name: &'a str,
    id: Cow<'a, str>,
    is_page: bool,
    url: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    breadcrumb_url: Option<String>,
    children: Vec<NavNodeOut<'a>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    icon: Option<Cow<'a, Icon>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    require_feature: Option<&'a str>,
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    external: bool,
    /// In an area's nav shard: this level-1 item's children are left out, in a shard of their
    /// own (found by the item's id in `_docgen/nav/index.json`).
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    sharded: bool,
}

fn nav_node<'a>(site: &'a Site<'_>, idx: usize) -> NavNodeOut<'a> {
    let n = &site.nav.nodes[idx];
    NavNodeOut {
        display_name: &n.label,
        id: Cow::Borrowed(&n.id),
        is_page: n.is_page,
        url: n.route.clone(),
        breadcrumb_url: None,
        children: n.children.iter().map(|&c| nav_node(site, c)).collect(),
        icon: n.icon.as_ref().map(Cow::Borrowed),
        require_feature: n.require_feature.as_deref(),
        external: false,
        sharded: false,
    }
}

/// The external menu links, as the last nodes of a list; their ids come from their labels so
/// every node has one.
fn link_nodes<'a>(site: &'a Site<'_>) -> impl Iterator<Item = NavNodeOut<'a>> {
    site.config.site.menu_links.iter().map(|l| {
        let icon = l.icon.as_deref().and_then(|i| site.assets.href(i));
        NavNodeOut {
            display_name: &l.display_name,
            id: Cow::Owned(format!("external-{}", crate::render::slug(&l.display_name))),
            is_page: false,
            url: l.url.clone(),
            breadcrumb_url: None,
            children: Vec::new(),
            icon: icon.map(|src| {
                Cow::Owned(Icon {
                    src,
                    alt: l.icon_alt.clone().unwrap_or_default(),
                })
            }),
            require_feature: None,
            external: true,
            sharded: false,
        }
    })
}

/// `nav.json`: the area roots with their trees, then the external menu links. Urls are routes
/// (without the base path), like every table of `_docgen/`.
pub fn nav(site: &Site<'_>) -> String {
    let out: Vec<NavNodeOut<'_>> = site
        .nav
        .roots
        .iter()
        .map(|&r| nav_node(site, r))
        .chain(link_nodes(site))
        .collect();
    serde_json::to_string(&out).expect("serializable")
}

/// One line of `_docgen/nav/index.json`: which shard holds the menu below a node.
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ShardEntry {
    /// The nav id of the area root or level-1 item.
    pub id: String,
    pub route: String,
    /// The shard's route (`/_docgen/nav/<id>.<hash>.json`).
    pub file: String,
}

#[derive(Serialize)]
pub struct ShardIndex {
    pub shards: Vec<ShardEntry>,
}

/// The menu tree in pieces, so the app loads only what it shows. Each area has a shard in the
/// shape of `nav.json` (its root, then the external links) whose level-1 sections are marked
/// `sharded` instead of holding their children; each of those has a shard with its whole
/// subtree. Names carry a digest of their bytes, so the files can be cached forever; a page
/// names the shards it needs, and `index.json` (a fixed name) maps ids to the others. The area
/// shard names no other shard, so an edit deep in one section changes only that section's
/// shard and the pages that name it.
pub struct NavShards {
    /// (output path, JSON), areas first, in tree order.
    pub files: Vec<(String, String)>,
    /// The shard route of each area root and each level-1 item with children.
    of_node: rustc_hash::FxHashMap<usize, String>,
    index: ShardIndex,
}

impl NavShards {
    pub fn build(site: &Site<'_>) -> Self {
        let mut shards = NavShards {
            files: Vec::new(),
            of_node: Default::default(),
            index: ShardIndex { shards: Vec::new() },
        };
        for &root in &site.nav.roots {
            let mut area = nav_node(site, root);
            for (child, &idx) in area.children.iter_mut().zip(&site.nav.nodes[root].children) {
                if child.children.is_empty() {
                    continue;
                }
                child.children.clear();
                let json = serde_json::to_string(&nav_node(site, idx)).expect("serializable");
                shards.add(site, idx, json);
                child.sharded = true;
            }
            let nodes: Vec<NavNodeOut<'_>> =
                std::iter::once(area).chain(link_nodes(site)).collect();
            shards.add(
                site,
                root,
                serde_json::to_string(&nodes).expect("serializable"),
            );
        }
        shards
    }

    fn add(&mut self, site: &Site<'_>, idx: usize, json: String) {
        let n = &site.nav.nodes[idx];
        let digest = Sha256::digest(json.as_bytes());
        let hash: String = digest.iter().take(5).map(|b| format!("{b:02x}")).collect();
        let file = format!("/_docgen/nav/{}.{hash}.json", n.id);
        self.files.push((file[1..].to_string(), json));
        self.of_node.insert(idx, file.clone());
        self.index.shards.push(ShardEntry {
            id: n.id.clone(),
            route: n.route.clone(),
            file,
        });
    }

    /// The shards a page's menu needs: its area's, and its level-1 section's if it has one.
    pub fn for_path(&self, path: &[usize]) -> Vec<&str> {
        path.iter()
            .take(2)
            .filter_map(|i| self.of_node.get(i).map(String::as_str))
            .collect()
    }

    /// `_docgen/nav/index.json`: every shard with the node it starts at, for tools.
    pub fn index_json(&self) -> String {
        serde_json::to_string(&self.index).expect("serializable")
    }
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
