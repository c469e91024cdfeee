//! The versions one build writes (`versions:` in site.yaml), as each page's version menu,
//! banner and canonical link see them: every version's name, where its pages are served and
//! which routes it has, so a link to another version can keep the reader on the same page.

use std::collections::BTreeMap;
use std::sync::Arc;

use super::{RouteEntry, Site};

/// Every version of the build, the latest (the working tree's, at the root) first.
#[derive(Debug)]
pub struct Catalog {
    pub versions: Vec<Version>,
}

#[derive(Debug)]
pub struct Version {
    pub name: String,
    /// The base path its pages are served under ("" or the site's own for the latest,
    /// `<base>/<name>` for an earlier one).
    pub base_path: String,
    /// Its home route.
    pub home: String,
    /// Every route it serves a page at.
    routes: Arc<BTreeMap<String, RouteEntry>>,
}

impl Version {
    pub fn of(name: &str, site: &Site<'_>) -> Self {
        Version {
            name: name.to_string(),
            base_path: site.config.base_path.clone(),
            home: site.config.home().to_string(),
            routes: site.routes.clone(),
        }
    }

    /// Whether the version has a page at `route`.
    pub fn has(&self, route: &str) -> bool {
        self.routes.contains_key(route)
    }

    /// The route of `route` in this version: itself when the version has it, else its home.
    pub fn same_or_home<'a>(&'a self, route: &'a str) -> (&'a str, bool) {
        if self.has(route) {
            (route, true)
        } else {
            (&self.home, false)
        }
    }

    /// The address of one of its routes.
    pub fn href(&self, route: &str) -> String {
        crate::config::href_under(&self.base_path, route)
    }
}

impl Catalog {
    /// The latest version, whose pages are canonical.
    pub fn latest(&self) -> &Version {
        &self.versions[0]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn version(name: &str, base: &str, routes: &[&str]) -> Version {
        Version {
            name: name.into(),
            base_path: base.into(),
            home: "/docs".into(),
            routes: Arc::new(
                routes
                    .iter()
                    .map(|r| {
                        let entry = RouteEntry {
                            page: 0,
                            canonical: true,
                        };
                        (r.to_string(), entry)
                    })
                    .collect(),
            ),
        }
    }

    #[test]
    fn a_route_missing_in_a_version_leads_to_its_home() {
        let old = version("12.x", "/12.x", &["/docs", "/docs/a"]);
        assert_eq!(old.same_or_home("/docs/a"), ("/docs/a", true));
        assert_eq!(old.same_or_home("/docs/new"), ("/docs", false));
        assert_eq!(old.href("/docs/a"), "/12.x/docs/a");
        assert_eq!(old.href("/"), "/12.x/");
        let latest = version("13.x", "", &["/docs"]);
        assert_eq!(latest.href("/docs"), "/docs");
    }
}
