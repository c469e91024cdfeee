//! What a page of a versioned site shows of the other versions: the version menu (each version
//! linking the same page when it has it, else its home) and, on an earlier version's page, the
//! banner that leads to the latest.

use std::sync::Arc;

use serde::Serialize;

use crate::model::versions::Catalog;

/// The versions of the build and which of them a site is (0: the latest).
#[derive(Debug, Clone)]
pub struct Placed {
    pub catalog: Arc<Catalog>,
    pub index: usize,
}

/// The version menu and banner of one page (`page.version` in the templates).
#[derive(Debug, Clone, Serialize, Hash)]
pub struct PageVersions {
    /// The name of the version the page belongs to.
    pub read: String,
    pub links: Vec<VersionLink>,
    /// On an earlier version's page: the latest version.
    pub banner: Option<VersionLink>,
}

#[derive(Debug, Clone, Serialize, Hash)]
#[serde(rename_all = "camelCase")]
pub struct VersionLink {
    pub name: String,
    /// The address of the same page in that version, or of its home.
    pub href: String,
    /// Whether `href` is the same page (not the version's home).
    pub same_page: bool,
    /// The version the page belongs to.
    pub current: bool,
    pub latest: bool,
}

impl Placed {
    /// What the page at `route` shows of the versions.
    pub fn page(&self, route: &str) -> PageVersions {
        let versions = &self.catalog.versions;
        let link = |i: usize| {
            let v = &versions[i];
            let (to, same_page) = v.same_or_home(route);
            VersionLink {
                name: v.name.clone(),
                href: v.href(to),
                same_page,
                current: i == self.index,
                latest: i == 0,
            }
        };
        PageVersions {
            read: versions[self.index].name.clone(),
            links: (0..versions.len()).map(link).collect(),
            banner: (self.index != 0).then(|| link(0)),
        }
    }

    /// The route of the latest version's page that is canonical for the page at `route` of
    /// this one: the same route when the latest has it, else the latest's home.
    pub fn canonical<'a>(&'a self, route: &'a str) -> (&'a str, &'a str) {
        let latest = self.catalog.latest();
        (&latest.base_path, latest.same_or_home(route).0)
    }
}
