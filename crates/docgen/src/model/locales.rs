//! The menu's roots in every locale: each area again under each other locale's prefix.

use std::collections::BTreeMap;
use std::sync::Arc;

use super::RouteEntry;
use crate::config::Config;
use crate::content::Page;

/// `areas` (route, name) in the default locale, followed by the same areas in each other
/// locale: named by the translation of the area's own page when there is one (its menu label),
/// else as in site.yaml.
pub fn areas(
    config: &Config,
    pages: &[Arc<Page>],
    routes: &BTreeMap<String, RouteEntry>,
    areas: Vec<(String, String)>,
) -> Vec<(String, String)> {
    let mut all = areas.clone();
    for locale in &config.locales[1..] {
        for (route, name) in &areas {
            let route = locale.route(route);
            let name = routes
                .get(&route)
                .map(|e| &*pages[e.page])
                .filter(|p| p.translation.is_translated())
                .map_or_else(|| name.clone(), |p| p.menu_label().to_string());
            all.push((route, name));
        }
    }
    all
}

/// The locale of a route: the other locale whose prefix it is under, else the default.
pub fn locale_of(config: &Config, route: &str) -> usize {
    config
        .locales
        .iter()
        .enumerate()
        .skip(1)
        .find(|(_, l)| l.unprefixed(route).is_some())
        .map_or(0, |(i, _)| i)
}
