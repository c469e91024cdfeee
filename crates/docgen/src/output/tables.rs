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
/// file name with a space, a base path) can add a field or a line. The static rules come before
/// the dynamic ones (a splat or a placeholder), as Cloudflare Pages requires, each group in the
/// order made here. Every status is a redirect's: an area's 404 page is not a rule (a rule
/// would answer before the files, every page of the area included) but the `404.html` in the
/// area's folder, which the hosts find as the nearest one above a missing path.
pub fn redirects_file(site: &Site<'_>) -> String {
    let mut rules: Vec<(String, String, u16)> = Vec::new();
    // The legacy routes and the site's own redirects (the root, the folders above the areas).
    for r in site.redirects.iter() {
        rules.push((site.href(&r.from), site.href(&r.to), 301));
    }
    // The legacy base itself is one of `site.redirects` (a rule's, or the one the model adds),
    // so it has its page and its `routes.json` entry too; here only the rest of the old tree.
    if let Some((cfg, _)) = &site.config.redirects {
        let home = cfg.home.as_deref().unwrap_or(site.config.home());
        let base = site.href(cfg.legacy_base.trim_end_matches('/'));
        rules.push((format!("{base}/*"), site.href(home), 301));
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
        let splat = (format!("{from}/*"), format!("{to}/:splat"), 302);
        rules.push((from, to, 302));
        rules.push(splat);
    }
    redirect_lines(rules)
}

/// The statuses a `_redirects` rule may have on every host that reads the file (Cloudflare
/// Pages accepts no other).
pub const REDIRECT_STATUSES: [u16; 6] = [200, 301, 302, 303, 307, 308];

/// Whether a host reads a rule's source as a pattern: a splat or a `:placeholder` segment.
pub fn is_dynamic_rule(from: &str) -> bool {
    from.contains('*') || from.split('/').any(|s| s.starts_with(':'))
}

/// The lines of `_redirects`: the static rules first, then the dynamic ones, each group in
/// the order given.
fn redirect_lines(rules: Vec<(String, String, u16)>) -> String {
    let (statics, dynamics): (Vec<_>, Vec<_>) = rules
        .into_iter()
        .partition(|(from, _, _)| !is_dynamic_rule(from));
    let mut out = String::new();
    for (from, to, status) in statics.iter().chain(&dynamics) {
        debug_assert!(REDIRECT_STATUSES.contains(status));
        out.push_str(&format!(
            "{} {} {status}\n",
            path_field(from),
            path_field(to)
        ));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn static_rules_come_first_and_keep_their_order() {
        let rule = |from: &str, status| (from.to_string(), "/to".to_string(), status);
        let text = redirect_lines(vec![
            rule("/b", 301),
            rule("/old/*", 301),
            rule("/a", 301),
            rule("/o/x/*", 302),
            rule("/p/:id", 301),
            rule("/o/x", 302),
            rule("/a b", 301),
        ]);
        let froms: Vec<&str> = text.lines().map(|l| l.split(' ').next().unwrap()).collect();
        assert_eq!(
            froms,
            ["/b", "/a", "/o/x", "/a%20b", "/old/*", "/o/x/*", "/p/:id"]
        );
    }

    #[test]
    fn a_pattern_is_a_splat_or_a_placeholder_segment() {
        assert!(is_dynamic_rule("/o/docs/*"));
        assert!(is_dynamic_rule("/p/:id/x"));
        assert!(!is_dynamic_rule("/docs/step-1:-install"));
        assert!(!is_dynamic_rule("/docs"));
    }
}
