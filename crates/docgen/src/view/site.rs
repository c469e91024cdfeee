//! What every page shares: the site's title, areas, footer and logo (`site` in the page data
//! and in the templates; the footer links are also `footer.json`).

use std::collections::BTreeMap;

use serde::Serialize;
use ts_rs::TS;

use super::nav::slug;
use crate::config::site::{AnchorRule, FooterAction as ConfiguredAction};
use crate::model::Site;

/// The site as every page's data and template sees it.
#[derive(Debug, Serialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct SiteView {
    pub title: String,
    /// The base path the site is served under, "" at the root of a host.
    pub base: String,
    /// The home route.
    pub home: String,
    /// Where the app's data calls go ("" for this site).
    pub api_base: String,
    pub features: Vec<String>,
    /// The year in the footer.
    pub year: i32,
    pub copyright: String,
    pub footer: Vec<FooterLink>,
    pub areas: Vec<AreaLink>,
    /// The address of the logo.
    pub logo: String,
    /// Where the search index and the engine that reads it are; null when the site has no
    /// search.
    pub search: Option<SiteSearch>,
    /// The entries of the site's extensions (`model::Extended::site_view`), each a key of
    /// its own; the extension's app code reads them.
    #[serde(flatten)]
    #[ts(skip)]
    pub extensions: BTreeMap<String, serde_json::Value>,
    /// The script that registers each island of the site's extensions (island name → the
    /// bundle's address), imported by the app on a page that holds such an island; absent
    /// when no extension brings islands.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub island_scripts: Option<BTreeMap<String, String>>,
    /// How heading texts become ids, for headings the app renders; absent for the default
    /// rule, `literal`.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub anchors: Option<AnchorRule>,
    /// The reader's texts in the page's language, by id, on the pages of a locale other than
    /// the default (the app's own table, `templates/strings.json`, is the default's).
    #[serde(skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub strings: Option<BTreeMap<String, String>>,
}

/// Where a site's search lives, with the base path.
#[derive(Debug, Serialize, TS)]
pub struct SiteSearch {
    /// `_docgen/search/index.json`, under the prefix of the page's locale (`/zh/_docgen/…`).
    pub index: String,
    /// The engine module the app loads on the first use of the search box.
    pub script: String,
}

/// A footer link, in the specification's shape (also `footer.json`).
#[derive(Debug, Serialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct FooterLink {
    pub display_name: String,
    pub id: String,
    pub is_page: bool,
    /// Empty for a link that is an action.
    pub url: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub icon: Option<FooterIcon>,
    #[ts(type = "Array<never>")]
    pub children: [(); 0],
    #[serde(skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub action: Option<FooterAction>,
}

#[derive(Debug, Serialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct FooterIcon {
    /// The icon's address.
    pub icon_src: String,
    pub icon_alt: String,
}

/// What a footer link does instead of leading somewhere.
#[derive(Debug, Clone, Copy, Serialize, TS)]
#[serde(rename_all = "lowercase")]
pub enum FooterAction {
    /// Opens the cookie consent dialog.
    Consent,
}

/// A documentation area, for the top bar. (Its fields, and those of `NotFoundText`, are in
/// alphabetical order, as the page data has always listed them.)
#[derive(Debug, Serialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct AreaLink {
    pub display_name: String,
    /// The nav id of the area's root (as in `_docgen/nav/index.json`), by which the app loads
    /// the area's menu for a route that has no page.
    pub id: String,
    /// The area's own text for routes under it that have no page.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub not_found: Option<NotFoundText>,
    /// The area's route.
    pub url: String,
}

#[derive(Debug, Serialize, TS)]
pub struct NotFoundText {
    pub subtitle: String,
    pub title: String,
}

impl SiteView {
    /// The site as the pages of the default locale see it.
    pub fn new(site: &Site<'_>) -> Self {
        SiteView::for_locale(site, 0)
    }

    /// The site as the pages of locale `locale` see it: its areas, home, search and texts.
    pub fn for_locale(site: &Site<'_>, locale: usize) -> Self {
        let cfg = site.config;
        let l = &cfg.locales[locale];
        let logo = cfg
            .site
            .logo
            .as_deref()
            .and_then(|l| site.assets.href(l))
            .or_else(|| site.assets.href("docgen/logo.svg"))
            .unwrap_or_default();
        SiteView {
            title: cfg.site.title().to_string(),
            base: cfg.base_path.clone(),
            home: l.route(cfg.home()),
            api_base: cfg.site.api_base.clone(),
            features: cfg.site.features.clone(),
            year: build_year(),
            copyright: cfg.site.copyright.clone(),
            footer: footer_links(site),
            areas: areas(site, locale),
            logo,
            search: site
                .assets
                .href("docgen/search.js")
                .map(|script| SiteSearch {
                    // The index of the locale's pages, under its prefix.
                    index: site.href(&format!("{}/_docgen/search/index.json", l.prefix)),
                    script,
                }),
            extensions: site
                .extensions
                .iter()
                .flat_map(|e| e.site_view.iter().cloned())
                .collect(),
            island_scripts: Some(island_scripts(site)).filter(|s| !s.is_empty()),
            anchors: Some(cfg.site.markdown.anchors).filter(|r| *r != AnchorRule::Literal),
            strings: (locale > 0).then(|| (*cfg.strings[locale]).clone()),
        }
    }
}

/// The address of the bundle that registers each island of the site's extensions, for the
/// bundles the site publishes.
fn island_scripts(site: &Site<'_>) -> BTreeMap<String, String> {
    site.extensions
        .iter()
        .flat_map(|e| e.islands.iter())
        .filter_map(|(island, bundle)| {
            let script = site.assets.href(&format!("docgen/{bundle}"))?;
            Some((island.clone(), script))
        })
        .collect()
}

/// The footer links, in the specification's shape.
pub fn footer_links(site: &Site<'_>) -> Vec<FooterLink> {
    site.config
        .site
        .footer
        .iter()
        .map(|l| FooterLink {
            display_name: l.display_name.clone(),
            id: slug(&l.display_name),
            is_page: false,
            url: l.url.clone().unwrap_or_default(),
            icon: l.icon.as_ref().map(|i| FooterIcon {
                icon_src: site
                    .assets
                    .href(&i.icon_src)
                    .unwrap_or_else(|| i.icon_src.clone()),
                icon_alt: i.icon_alt.clone(),
            }),
            children: [],
            action: l.action.map(|a| match a {
                ConfiguredAction::Consent => FooterAction::Consent,
            }),
        })
        .collect()
}

/// The areas are the menu's roots (one for the whole site when `site.yaml` names none).
fn areas(site: &Site<'_>, locale: usize) -> Vec<AreaLink> {
    let of_locale = |route: &str| crate::model::locales::locale_of(site.config, route) == locale;
    site.nav
        .roots
        .iter()
        .filter(|&&r| of_locale(&site.nav.nodes[r].route))
        .map(|&r| {
            let node = &site.nav.nodes[r];
            let configured = site
                .config
                .site
                .areas
                .iter()
                .find(|a| site.config.locales[locale].route(&a.route) == node.route);
            AreaLink {
                display_name: node.label.clone(),
                id: node.id.clone(),
                url: node.route.clone(),
                not_found: configured
                    .and_then(|a| a.not_found.as_ref())
                    .map(|n| NotFoundText {
                        title: n.title.clone(),
                        subtitle: n.subtitle.clone(),
                    }),
            }
        })
        .collect()
}

/// The year in the footer: from SOURCE_DATE_EPOCH when set (reproducible builds), else now (UTC).
fn build_year() -> i32 {
    let secs = std::env::var("SOURCE_DATE_EPOCH")
        .ok()
        .and_then(|s| s.parse::<i64>().ok())
        .unwrap_or_else(|| {
            std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)
                .map_or(0, |d| d.as_secs() as i64)
        });
    let (year, _, _) = crate::content::git::civil_date(secs);
    i32::try_from(year).unwrap_or(i32::MAX)
}
