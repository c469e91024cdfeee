//! The JSON tables under `_docgen/` (the views of `view::nav` and `view::tables`), with the
//! specification's field names, and `_redirects`.

use super::headers::path_field;
use crate::model::Site;
use crate::view;

fn json<T: serde::Serialize>(table: &T) -> String {
    serde_json::to_string(table).expect("serializable")
}

/// `nav.json`: the area roots with their trees, then the external menu links.
pub fn nav(site: &Site<'_>) -> String {
    json(&view::nav::tree(site))
}

/// `right-menu.json`: per page, its routes and its h1-h3.
pub fn right_menu(site: &Site<'_>) -> String {
    json(&view::tables::right_menu(site))
}

/// `breadcrumbs.json`: for each route, its trail from the top down.
pub fn breadcrumbs(site: &Site<'_>) -> String {
    json(&view::tables::breadcrumbs(site))
}

/// `footer.json`: the footer links, as in the site view.
pub fn footer(site: &Site<'_>) -> String {
    json(&view::site::footer_links(site))
}

/// `routes.json`: every page route (aliases included) and every expanded legacy route.
pub fn routes(site: &Site<'_>) -> String {
    json(&view::tables::routes(site))
}

/// `_redirects` for CDNs that read it (Netlify, Cloudflare Pages): one rule a line, its fields
/// separated by spaces. Every path goes through `path_field`, so none (a route made from a
/// file name with a space, a base path) can add a field or a line.
pub fn redirects_file(site: &Site<'_>) -> String {
    let mut out = String::new();
    let mut rule = |from: &str, to: &str, status: &str| {
        out.push_str(&format!(
            "{} {} {status}\n",
            path_field(from),
            path_field(to)
        ));
    };
    for r in site.redirects.iter() {
        rule(&site.href(&r.from), &site.href(&r.to), "301");
    }
    // The legacy base itself is one of `site.redirects` (a rule's, or the one the model adds),
    // so it has its page and its `routes.json` entry too; here only the rest of the old tree.
    if let Some((cfg, _)) = &site.config.redirects {
        let home = cfg.home.as_deref().unwrap_or(site.config.home());
        let base = site.href(cfg.legacy_base.trim_end_matches('/'));
        rule(&format!("{base}/*"), &site.href(home), "301");
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
        rule(&from, &to, "302");
        rule(&format!("{from}/*"), &format!("{to}/:splat"), "302");
    }
    for a in site
        .config
        .site
        .areas
        .iter()
        .filter(|a| a.not_found.is_some())
    {
        rule(
            &format!("{}/*", site.href(&a.route)),
            &format!("{}/404.html", site.href(&a.route)),
            "404",
        );
    }
    out
}
