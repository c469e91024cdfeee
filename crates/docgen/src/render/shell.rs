//! The parts of the shell that every page of an area shows alike: the top bar (which marks the
//! area) and the footer. Like the closed menu items, each is rendered once by its macro and
//! handed to the page templates as markup (`topbar`, `footer`).

use std::hash::{Hash, Hasher};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, OnceLock};

use minijinja::value::Serde;
use minijinja::{Environment, Value};
use rustc_hash::{FxHashMap, FxHasher};

use crate::view::locales::Language;
use crate::view::versions::PageVersions;

use super::templates::call_macro;

pub struct ShellParts {
    /// The top bars with language or version menus by shape (see `topbar_with_menus`).
    stencils: Mutex<FxHashMap<u64, Arc<str>>>,
    /// Set when a stencil did not give what the template gives: every such bar is then
    /// rendered in full.
    full_bars: AtomicBool,
    /// The top bar per area route (`None` for the pages outside every area and the 404 pages)
    /// and per presence of a left menu on the page (the bar links to it only if there is one).
    topbars: Vec<(Option<String>, bool, OnceLock<Value>)>,
    footer: OnceLock<Value>,
    /// What closes every page: the footer and what follows it (`page_end`).
    page_end: OnceLock<Value>,
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
            page_end: OnceLock::new(),
            stencils: Mutex::default(),
            full_bars: AtomicBool::new(false),
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
    /// in each locale) and its version menu (`versions`: the page in each version).
    ///
    /// Pages differ in these menus' addresses, and rarely in anything else: the bar of each shape
    /// (area and menus without their addresses) is rendered once with a stand-in for each
    /// address, which every page fills with its own. The first page of each shape is also
    /// rendered in full and compared: a template that does more with an address than escape it
    /// (a site's own `macros.html`) has every bar rendered in full.
    pub fn topbar_with_menus(
        &self,
        env: &Environment<'_>,
        site: &Value,
        area: Option<&str>,
        languages: &[Language<'_>],
        versions: Option<&PageVersions>,
    ) -> Result<Value, minijinja::Error> {
        let known = self
            .topbars
            .iter()
            .any(|(route, _, _)| route.as_deref() == area);
        let area = if known { area } else { None };
        let render = |languages: &[Language<'_>], versions: Option<&PageVersions>| {
            call_macro(
                env,
                "topbar",
                &[
                    site.clone(),
                    Value::from(area),
                    Value::from(true),
                    if languages.is_empty() {
                        Value::default()
                    } else {
                        Value::from(Serde(languages))
                    },
                    versions.map(|v| Value::from(Serde(v))).unwrap_or_default(),
                ],
            )
        };
        if self.full_bars.load(Ordering::Relaxed) {
            return render(languages, versions).map(Value::from_safe_string);
        }
        // The addresses in order, and the menus with a stand-in for each.
        let mut addresses: Vec<&str> = languages.iter().map(|l| l.url.as_str()).collect();
        if let Some(v) = versions {
            addresses.extend(v.links.iter().chain(&v.banner).map(|l| l.href.as_str()));
        }
        let mut stood_in = languages.to_vec();
        for (i, l) in stood_in.iter_mut().enumerate() {
            l.url = stand_in(i);
        }
        let stood_in_versions = versions.map(|v| {
            let mut v = v.clone();
            let links = v.links.iter_mut().chain(v.banner.as_mut());
            for (i, link) in links.enumerate() {
                link.href = stand_in(languages.len() + i);
            }
            v
        });
        let mut h = FxHasher::default();
        (area, &stood_in, &stood_in_versions).hash(&mut h);
        let key = h.finish();
        let known_stencil = self
            .stencils
            .lock()
            .expect("not poisoned")
            .get(&key)
            .cloned();
        let stencil = match known_stencil {
            Some(stencil) => stencil,
            None => {
                let stencil: Arc<str> = render(&stood_in, stood_in_versions.as_ref())?.into();
                let filled = fill(&stencil, &addresses);
                let full = render(languages, versions)?;
                if filled != full {
                    self.full_bars.store(true, Ordering::Relaxed);
                    return Ok(Value::from_safe_string(full));
                }
                self.stencils
                    .lock()
                    .expect("not poisoned")
                    .insert(key, Arc::clone(&stencil));
                return Ok(Value::from_safe_string(full));
            }
        };
        Ok(Value::from_safe_string(fill(&stencil, &addresses)))
    }

    pub fn footer(&self, env: &Environment<'_>, site: &Value) -> Result<Value, minijinja::Error> {
        once(&self.footer, || {
            call_macro(env, "footer", std::slice::from_ref(site))
        })
    }
}

impl ShellParts {
    /// The end of every page (`page_end`, given the footer, which is the same on every page),
    /// drawn by `draw` once.
    pub fn page_end(
        &self,
        draw: impl FnOnce() -> Result<Value, minijinja::Error>,
    ) -> Result<Value, minijinja::Error> {
        once(&self.page_end, || {
            draw().map(|end| end.as_str().unwrap_or_default().to_string())
        })
    }
}

/// Stands in for address `i` in a top bar's stencil: control characters no address holds and
/// HTML escaping leaves as they are.
fn stand_in(i: usize) -> String {
    format!("{STAND_IN_START}{i}{STAND_IN_END}")
}

const STAND_IN_START: char = '\u{1}';
const STAND_IN_END: char = '\u{2}';

/// The stencil with each stand-in replaced by its address, escaped as the template escapes it.
fn fill(stencil: &str, addresses: &[&str]) -> String {
    let mut html = String::with_capacity(stencil.len() + 64 * addresses.len());
    let mut rest = stencil;
    while let Some(at) = rest.find(STAND_IN_START) {
        html.push_str(&rest[..at]);
        let after = &rest[at + STAND_IN_START.len_utf8()..];
        let end = after.find(STAND_IN_END).unwrap_or(after.len());
        if let Some(address) = after[..end]
            .parse::<usize>()
            .ok()
            .and_then(|i| addresses.get(i))
        {
            crate::markdown::highlight::escape_into(&mut html, address);
        }
        rest = after.get(end + STAND_IN_END.len_utf8()..).unwrap_or("");
    }
    html.push_str(rest);
    html
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_stencil_is_filled_with_escaped_addresses() {
        let stencil = format!(
            "<a href=\"/base{}\">zh</a><a href=\"{}\">12.x</a>",
            stand_in(0),
            stand_in(1)
        );
        assert_eq!(
            fill(&stencil, &["/zh/a&b", "/12.x/\"q\""]),
            "<a href=\"/base/zh/a&amp;b\">zh</a><a href=\"/12.x/&quot;q&quot;\">12.x</a>"
        );
    }
}
