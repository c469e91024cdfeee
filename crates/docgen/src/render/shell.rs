//! The parts of the shell that every page of an area shows alike: the top bar (which marks the
//! area) and the footer. Like the closed menu items, each is rendered once by its macro and
//! handed to the page templates as markup (`topbar`, `footer`).

use std::sync::OnceLock;

use minijinja::{Environment, Value};

use super::templates::call_macro;

pub struct ShellParts {
    /// The top bar per area route (`None` for the pages outside every area and the 404 pages)
    /// and per presence of a left menu on the page (the bar links to it only if there is one).
    topbars: Vec<(Option<String>, bool, OnceLock<Value>)>,
    footer: OnceLock<Value>,
}

impl ShellParts {
    pub fn new<'a>(area_routes: impl Iterator<Item = &'a str>) -> Self {
        let areas = std::iter::once(None).chain(area_routes.map(|r| Some(r.to_string())));
        ShellParts {
            topbars: areas
                .flat_map(|a| [(a.clone(), true), (a, false)])
                .map(|(a, menu)| (a, menu, OnceLock::new()))
                .collect(),
            footer: OnceLock::new(),
        }
    }

    /// The top bar with `area` (a route of the site view's areas) marked as the current one,
    /// for a page with a left menu or without one.
    pub fn topbar(
        &self,
        env: &Environment<'_>,
        site: &Value,
        area: Option<&str>,
        has_menu: bool,
    ) -> Result<Value, minijinja::Error> {
        let find = |area: Option<&str>| {
            self.topbars
                .iter()
                .find(|(route, menu, _)| route.as_deref() == area && *menu == has_menu)
        };
        // A route that is no area's is marked as none.
        let (area, (_, _, cached)) = match find(area) {
            Some(bar) => (area, bar),
            None => (None, find(None).expect("a top bar outside every area")),
        };
        once(cached, || {
            call_macro(
                env,
                "topbar",
                &[site.clone(), Value::from(area), Value::from(has_menu)],
            )
        })
    }

    /// The top bar of one page with a left menu, with its language menu (`languages`: the page
    /// in each locale) or its version menu (`versions`: the page in each version): not kept, as
    /// no other page shows the same.
    pub fn topbar_with_menus(
        &self,
        env: &Environment<'_>,
        site: &Value,
        area: Option<&str>,
        languages: Option<Value>,
        versions: Option<Value>,
    ) -> Result<Value, minijinja::Error> {
        let known = self
            .topbars
            .iter()
            .any(|(route, _, _)| route.as_deref() == area);
        let area = if known { area } else { None };
        let html = call_macro(
            env,
            "topbar",
            &[
                site.clone(),
                Value::from(area),
                Value::from(true),
                languages.unwrap_or_default(),
                versions.unwrap_or_default(),
            ],
        )?;
        Ok(Value::from_safe_string(html))
    }

    pub fn footer(&self, env: &Environment<'_>, site: &Value) -> Result<Value, minijinja::Error> {
        once(&self.footer, || {
            call_macro(env, "footer", std::slice::from_ref(site))
        })
    }
}

/// The markup in `cell`, rendered by `render` on first use.
fn once(
    cell: &OnceLock<Value>,
    render: impl FnOnce() -> Result<String, minijinja::Error>,
) -> Result<Value, minijinja::Error> {
    if let Some(html) = cell.get() {
        return Ok(html.clone());
    }
    let html = render()?;
    Ok(cell.get_or_init(|| Value::from_safe_string(html)).clone())
}
