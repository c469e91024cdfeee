//! Stage 6: HTML from the minijinja templates kept in `templates/`, around the views of each
//! page (`view`): the pre-rendered shell with only the menu branch that leads to the page,
//! legacy-route pages and 404 pages. Pure: strings out, no files written here.

mod menu;
mod shell;
mod templates;

use std::hash::{Hash, Hasher};

use minijinja::value::Serde;
use minijinja::{Environment, Value, context};
use rustc_hash::FxHasher;

use crate::content::Layout;
use crate::model::{Redirect, RouteEntry};
use crate::view::json::script_json;
use crate::view::shards::NavShards;
use crate::view::site::AreaLink;
use crate::view::{AreaNotFound, Views};

pub struct Renderer<'v, 's> {
    views: &'v Views<'s>,
    env: Environment<'static>,
    /// The site view as template data, shared by every page.
    site_view: Value,
    assets: Value,
    closed_items: menu::ClosedItems,
    shell: shell::ShellParts,
    /// A digest of what every page shows alike: the site view, the templates, the assets.
    global: u64,
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

impl<'v, 's> Renderer<'v, 's> {
    pub fn new(views: &'v Views<'s>) -> Result<Self, minijinja::Error> {
        let site = views.site();
        let env = templates::environment(site.config)?;
        let logo = site
            .config
            .site
            .logo
            .as_deref()
            .unwrap_or("docgen/logo.svg");
        let assets = context! {
            css => site.assets.href("docgen/app.css"),
            js => site.assets.href("docgen/app.js"),
            favicon => site.assets.href(logo).or_else(|| site.assets.href("docgen/logo.svg")),
        };
        let mut global = FxHasher::default();
        templates::digest(&env, &mut global);
        views.site_digest().hash(&mut global);
        assets.hash(&mut global);
        Ok(Renderer {
            views,
            site_view: Value::from(Serde(views.site_view())),
            env,
            assets,
            closed_items: menu::ClosedItems::new(site.nav.nodes.len()),
            shell: shell::ShellParts::new(views.site_view().areas.iter().map(|a| a.url.as_str())),
            global: global.finish(),
        })
    }

    /// The menu tree in shards, for the output folder.
    pub fn nav_shards(&self) -> &NavShards {
        self.views.shards()
    }

    /// A digest of everything all pages show alike (templates, site view, assets).
    pub fn global_fingerprint(&self) -> u64 {
        self.global
    }

    /// A digest of what the page at `route` shows (`view::ShownPage`): with an equal global
    /// fingerprint, equal fingerprints mean equal HTML.
    pub fn page_fingerprint(&self, route: &str, entry: &RouteEntry) -> u64 {
        let mut h = FxHasher::default();
        self.views.page(route, entry).hash(&mut h);
        h.finish()
    }

    /// The complete HTML of the page served at `route`, around its HTML `body` (see
    /// `content::body_html`: a large site does not hold every body in memory).
    pub fn page(
        &self,
        route: &str,
        entry: &RouteEntry,
        body: &str,
    ) -> Result<String, minijinja::Error> {
        let mut shown = self.views.page(route, entry);
        if let Some(b) = &mut shown.content.body {
            b.html = body;
        }
        let template = match self.views.site().pages[entry.page].layout() {
            Layout::Doc => "page.html",
            Layout::Faq => "faq.html",
        };
        let menu = self
            .closed_items
            .fill(&self.env, self.views.menu(), shown.menu)?;
        let area = shown.data.area.flatten();
        self.env.get_template(template)?.render(context! {
            site => self.site_view.clone(),
            topbar => self.shell.topbar(&self.env, &self.site_view, area)?,
            footer => self.shell.footer(&self.env, &self.site_view)?,
            page => Serde(&shown.content),
            breadcrumbs => Serde(&shown.data.breadcrumbs),
            toc => Serde(&shown.data.toc),
            menu => Serde(&menu),
            assets => self.assets.clone(),
            page_data => script_json(&shown.data),
        })
    }

    /// The page of a legacy route.
    pub fn redirect(&self, r: &Redirect) -> Result<String, minijinja::Error> {
        let site = self.views.site();
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

    /// The 404 page, generic or for one area: its route, title and subtitle.
    pub fn not_found(&self, area: Option<(&str, &str, &str)>) -> Result<String, minijinja::Error> {
        let shown = self
            .views
            .not_found(area.map(|(route, title, subtitle)| AreaNotFound {
                route,
                title,
                subtitle,
            }));
        // The generic page takes an area's text for routes under it, before the app runs.
        let areas: Vec<&AreaLink> = self
            .views
            .site_view()
            .areas
            .iter()
            .filter(|a| a.not_found.is_some())
            .collect();
        let not_found_areas = (area.is_none() && !areas.is_empty()).then(|| script_json(&areas));
        self.env.get_template("not_found.html")?.render(context! {
            site => self.site_view.clone(),
            topbar => self.shell.topbar(&self.env, &self.site_view, None)?,
            footer => self.shell.footer(&self.env, &self.site_view)?,
            page => Serde(&shown.content),
            not_found_areas => not_found_areas,
            not_found_json => "",
            assets => self.assets.clone(),
            page_data => script_json(&shown.data),
        })
    }
}
