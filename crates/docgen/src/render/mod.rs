//! Stage 6: HTML from the minijinja templates kept in `templates/`, around the views of each
//! page (`view`): the pre-rendered shell with only the menu branch that leads to the page,
//! legacy-route pages and 404 pages. Pure: strings out, no files written here.

mod menu;
mod shell;
mod stencil;
mod templates;

pub use crate::config::TEMPLATE_NAMES;

use std::borrow::Cow;
use std::hash::{Hash, Hasher};
use std::sync::Mutex;

use minijinja::value::Serde;
use minijinja::{Environment, State, Value, context};
use rustc_hash::FxHasher;

use crate::content::Layout;
use crate::model::{Redirect, RouteEntry};
use crate::view::json::script_json;
use crate::view::shards::NavShards;
use crate::view::site::AreaLink;
use crate::view::{AreaNotFound, Views};

pub struct Renderer<'v, 's> {
    views: &'v Views<'s>,
    /// What differs by locale (one part on a site of one language), the default first.
    parts: Vec<LocaleParts>,
    assets: Value,
    menus: menu::LeftMenus,
    /// The breadcrumbs, tables of contents and articles by shape.
    stencils: stencil::PartStencils,
    /// Whole pages by shape.
    pages: stencil::PageStencils,
    /// Whether the page templates read the menu as data (a site's own copy calling
    /// `shell.left_menu(menu, site)`); docgen's own take it drawn, as `parts.menu`.
    templates_read_menu: bool,
    /// Whether they read the parts drawn for them (`parts`, `left_menu`): the parts are drawn
    /// only for templates that show them.
    templates_read_parts: bool,
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

/// What one thread keeps from one page it renders to the next: per locale, `macros.html`
/// evaluated once, whose macros draw each page's parts of the shell (`parts`). Evaluating the
/// module costs more than a page's calls of its macros, so no page evaluates it on its own.
pub struct Worker<'r> {
    shells: Vec<Option<minijinja::Captured<'r>>>,
}

/// The workers of a parallel loop over pages, cut into jobs of `crate::PAGES_PER_JOB`: each job
/// borrows one (`lend`, rayon's `map_init`) and gives it back when done, so a thread evaluates
/// `macros.html` about once for the whole loop, not once per job.
pub struct Workers<'r> {
    locales: usize,
    idle: Mutex<Vec<Worker<'r>>>,
}

impl<'r> Workers<'r> {
    pub fn lend(&self) -> Lent<'_, 'r> {
        let idle = self.idle.lock().expect("not poisoned").pop();
        Lent {
            worker: Some(idle.unwrap_or_else(|| Worker::new(self.locales))),
            workers: self,
        }
    }
}

/// A worker lent to a job (see `Workers`).
pub struct Lent<'w, 'r> {
    worker: Option<Worker<'r>>,
    workers: &'w Workers<'r>,
}

impl<'r> Lent<'_, 'r> {
    pub fn worker(&mut self) -> &mut Worker<'r> {
        self.worker.as_mut().expect("held until dropped")
    }
}

impl Drop for Lent<'_, '_> {
    fn drop(&mut self) {
        if let Some(worker) = self.worker.take() {
            self.workers.idle.lock().expect("not poisoned").push(worker);
        }
    }
}

/// A worker's evaluation of `macros.html` is used until this much of its fuel is left, so that
/// every page's parts may take as much as a page template (`content::templating::FUEL`).
const SHELL_FUEL_FLOOR: u64 = crate::content::templating::FUEL * 9 / 10;

impl<'r> Worker<'r> {
    /// A worker for a site of `locales` locales, which evaluates nothing until first used.
    fn new(locales: usize) -> Self {
        Worker {
            shells: (0..locales).map(|_| None).collect(),
        }
    }

    /// Runs `draw` with the locale's evaluation of `macros.html`, made on first use (and made
    /// again when its fuel runs low).
    fn with_shell<T>(
        &mut self,
        env: &'r Environment<'static>,
        locale: usize,
        draw: impl FnOnce(&mut State<'_, '_>) -> Result<T, minijinja::Error>,
    ) -> Result<T, minijinja::Error> {
        let slot = &mut self.shells[locale];
        let spent = slot.as_ref().is_some_and(|shell| {
            shell
                .state()
                .fuel_levels()
                .is_some_and(|(_, left)| left < SHELL_FUEL_FLOOR)
        });
        if slot.is_none() || spent {
            let env: &'r Environment<'r> = env;
            *slot = Some(env.get_template("macros.html")?.render_captured(())?);
        }
        slot.as_mut().expect("made above").with_state_mut(draw)
    }
}

/// The templates with a locale's texts (`t`), its site view and its top bars and footer.
struct LocaleParts {
    env: Environment<'static>,
    /// The site view as template data, shared by every page of the locale.
    site_view: Value,
    shell: shell::ShellParts,
}

impl<'v, 's> Renderer<'v, 's> {
    pub fn new(views: &'v Views<'s>) -> Result<Self, minijinja::Error> {
        let site = views.site();
        let mut parts = Vec::with_capacity(site.config.locales.len());
        for (i, view) in views.site_views().enumerate() {
            parts.push(LocaleParts {
                env: templates::environment(site.config, &site.config.strings[i])?,
                site_view: Value::from(Serde(view)),
                shell: shell::ShellParts::new(view.areas.iter().map(|a| a.url.as_str())),
            });
        }
        let env = &parts[0].env;
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
            favicon_ico => site.href(crate::model::assets::FAVICON_ROUTE),
        };
        let page_templates = ["page.html", "faq.html", "base.html"];
        let templates_read_menu = templates::read_variable(env, &page_templates, "menu");
        let templates_read_parts = templates::read_variable(env, &page_templates, "parts")
            || templates::read_variable(env, &page_templates, "left_menu");
        let own = |name: &str| site.config.templates.iter().any(|(n, _)| *n == name);
        let mut global = FxHasher::default();
        templates::digest(env, &mut global);
        views.site_digest().hash(&mut global);
        assets.hash(&mut global);
        if site.config.locales.len() > 1 {
            site.config.strings.hash(&mut global);
        }
        crate::content::render_cache::docgen_identity().hash(&mut global);
        Ok(Renderer {
            views,
            parts,
            assets,
            menus: menu::LeftMenus::new(site.nav.nodes.len()),
            stencils: stencil::PartStencils::new(!own("macros.html")),
            pages: stencil::PageStencils::new(
                !own("page.html")
                    && !own("base.html")
                    && templates_read_parts
                    && !templates_read_menu,
            ),
            templates_read_menu,
            templates_read_parts,
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

    /// What a thread keeps from one page it renders to the next (see `Worker`).
    pub fn worker(&self) -> Worker<'_> {
        Worker::new(self.parts.len())
    }

    /// Workers for a parallel loop over pages (see `Workers`).
    pub fn workers(&self) -> Workers<'_> {
        Workers {
            locales: self.parts.len(),
            idle: Mutex::new(Vec::new()),
        }
    }

    /// The complete HTML of the page served at `route`, around its HTML `body` (see
    /// `content::body_html`: a large site does not hold every body in memory).
    pub fn page<'r>(
        &'r self,
        worker: &mut Worker<'r>,
        route: &str,
        entry: &RouteEntry,
        body: &str,
    ) -> Result<String, minijinja::Error> {
        let mut shown = self.views.page(route, entry);
        if let Some(b) = &mut shown.content.body {
            b.html = body;
        }
        let page = &self.views.site().pages[entry.page];
        // Every page has a description: without one of its own, the start of its text (read
        // with the body; the body's digest, in the page's fingerprint, covers it).
        if shown.content.description.is_none() {
            shown.content.description = page.excerpt.as_deref().map(Cow::Borrowed);
        }
        let template = match page.layout() {
            Layout::Doc => "page.html",
            Layout::Faq => "faq.html",
        };
        let LocaleParts {
            env,
            site_view,
            shell,
        } = &self.parts[page.locale];
        let tree = self.views.menu();
        let menu = if self.templates_read_menu {
            // Rare (a site's own template), so the page's view is asked again for a second copy.
            let branch = self.views.page(route, entry).menu;
            Some(self.menus.closed_items().fill(env, tree, branch)?)
        } else {
            None
        };
        let area = shown.data.area.flatten();
        // The language menu leads to this page in each language, the version menu to it in each
        // version: a page with either has a top bar of its own.
        let languages = &shown.content.locale.languages;
        let topbar = if languages.is_empty() && shown.content.version.is_none() {
            shell.topbar(env, site_view, area, true)?
        } else {
            shell.topbar_with_menus(
                env,
                site_view,
                area,
                languages,
                shown.content.version.as_ref(),
            )?
        };
        let footer = shell.footer(env, site_view)?;
        // Made only when a template is given them: the stencils take the views' texts.
        let content = std::cell::OnceCell::new();
        let content = || {
            content
                .get_or_init(|| Value::from(Serde(&shown.content)))
                .clone()
        };
        let breadcrumbs = || Value::from(Serde(&shown.data.breadcrumbs));
        let toc = || Value::from(Serde(&shown.data.toc));
        let drawn = if self.templates_read_parts {
            // The menu's markup holds the locale's texts: its digest is the locale's.
            let salt = self.global ^ (page.locale as u64).wrapping_mul(0x9e37_79b9_7f4a_7c15);
            let shown_menu = shown.menu;
            let locale = page.locale;
            Some(worker.with_shell(env, locale, |state| {
                let menu = self
                    .menus
                    .draw(state, env, tree, site_view, salt, shown_menu)?;
                let crumbs = &shown.data.breadcrumbs;
                let breadcrumbs = self.stencils.breadcrumbs(state, locale, crumbs, |state| {
                    templates::draw(state, "breadcrumbs", &[breadcrumbs()])
                })?;
                let toc = self.stencils.toc(state, locale, &shown.data.toc, |state| {
                    templates::draw(state, "toc", &[toc()])
                })?;
                let article = (&shown.content, "dg-main");
                let main = self
                    .stencils
                    .article_main(state, locale, article, |state| {
                        templates::draw(state, "article_main", &[content(), Value::from("dg-main")])
                    })?;
                let end = shell.page_end(|| {
                    templates::draw(state, "page_end", std::slice::from_ref(&footer))
                })?;
                Ok([Value::from_safe_string(menu), breadcrumbs, toc, main, end])
            })?)
        } else {
            None
        };
        let page_data = script_json(&shown.data);
        let full = || {
            let (parts, left_menu) = match &drawn {
                Some([menu, breadcrumbs, toc, main, end]) => (
                    Some(context! { menu, breadcrumbs, toc, main, end }),
                    Some(Value::from_object(menu::DrawnMenu(menu.clone()))),
                ),
                None => (None, None),
            };
            env.get_template(template)?.render(context! {
                site => site_view.clone(),
                topbar => topbar.clone(),
                footer => footer.clone(),
                page => content(),
                breadcrumbs => breadcrumbs(),
                toc => toc(),
                parts => parts,
                left_menu => left_menu,
                menu => menu.as_ref().map(Serde),
                assets => self.assets.clone(),
                page_data => page_data.as_str(),
                current_area => area,
            })
        };
        let (Some([menu, breadcrumbs, toc, main, end]), Layout::Doc) = (&drawn, page.layout())
        else {
            return full();
        };
        let shown_parts = stencil::Drawn {
            topbar: text_of(&topbar),
            breadcrumbs: text_of(breadcrumbs),
            menu: text_of(menu),
            toc: text_of(toc),
            main: text_of(main),
            end: text_of(end),
            page_data: &page_data,
        };
        let render = |stand_ins: stencil::PageStandIns| {
            env.get_template(template)?.render(context! {
                site => site_view.clone(),
                topbar => stand_ins.topbar,
                footer => footer.clone(),
                page => stand_ins.page,
                parts => stand_ins.parts,
                assets => self.assets.clone(),
                page_data => stand_ins.page_data,
                current_area => area,
            })
        };
        self.pages
            .page(page.locale, &shown.content, &shown_parts, render, full)
    }

    /// The page of a legacy route.
    pub fn redirect(&self, r: &Redirect) -> Result<String, minijinja::Error> {
        let site = self.views.site();
        let dest_route = r.to.split('#').next().unwrap_or(&r.to);
        let title = site
            .page_at(dest_route)
            .map_or(dest_route, |p| p.title.as_str());
        let to = site.href(&r.to);
        self.parts[0]
            .env
            .get_template("redirect.html")?
            .render(context! {
                to => to,
                dest => site.href(dest_route),
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
        let LocaleParts {
            env,
            site_view,
            shell,
        } = &self.parts[0];
        let menu = match shown.menu {
            Some(m) => Some(self.menus.closed_items().fill(env, self.views.menu(), m)?),
            None => None,
        };
        let current_area = shown.overview.as_ref().map(|o| o.url);
        env.get_template("not_found.html")?.render(context! {
            site => site_view.clone(),
            topbar => shell.topbar(env, site_view, current_area, menu.is_some())?,
            footer => shell.footer(env, site_view)?,
            page => Serde(&shown.content),
            menu => menu.as_ref().map(Serde),
            overview => shown.overview.as_ref().map(Serde),
            not_found_areas => not_found_areas,
            not_found_json => "",
            assets => self.assets.clone(),
            page_data => script_json(&shown.data),
        })
    }
}

/// The markup of a part drawn by a macro.
fn text_of(part: &Value) -> &str {
    part.as_str().unwrap_or_default()
}
