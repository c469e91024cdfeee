//! The parts of the shell that every page of an area shows alike: the top bar (which marks the
//! area) and the footer. Like the closed menu items, each is rendered once by its macro and
//! handed to the page templates as markup (`topbar`, `footer`).

use std::hash::{Hash, Hasher};
use std::sync::OnceLock;

use minijinja::value::Serde;
use minijinja::{Environment, Value};
use rustc_hash::FxHasher;

use crate::view::locales::Language;
use crate::view::versions::PageVersions;

use super::stencil::{Stencils, stand_in};
use super::templates::call_macro;

pub struct ShellParts {
    /// The top bars with language or version menus by shape (see `topbar_with_menus`); off
    /// once a stencil did not give what the template gives: every such bar is then rendered in
    /// full.
    stencils: Stencils<u64>,
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
            stencils: Stencils::new(true),
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
        if !self.stencils.on() {
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
        if let Some(filled) = self.stencils.fill(&key, &addresses) {
            return Ok(Value::from_safe_string(filled));
        }
        let drawn = render(&stood_in, stood_in_versions.as_ref())?;
        let full = render(languages, versions)?;
        self.stencils.keep_or_stop(key, (&drawn, &addresses), &full);
        Ok(Value::from_safe_string(full))
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
    use crate::view::versions::VersionLink;

    /// Top bars with menus of several shapes, as the macro draws them, each shape drawn by the
    /// macro twice (with stand-ins and in full) and then filled.
    #[test]
    fn top_bars_from_stencils_are_the_macros_own() {
        let strings = crate::config::locales::english_strings();
        let env = super::super::templates::environment_of("/pr/7", &[], &strings).unwrap();
        let site =
            minijinja::context! { title => "Docs & <co>", home => "/", areas => Vec::<()>::new() };
        let shell = ShellParts::new(["/docs"].into_iter());
        let language = |name, lang, url: &str, current| Language {
            name,
            lang,
            url: url.into(),
            current,
        };
        let link = |name: &str, href: &str, current| VersionLink {
            name: name.into(),
            href: href.into(),
            same_page: true,
            current,
            latest: !current,
        };
        let versions = |href: &str, banner: bool| PageVersions {
            read: "12.x".into(),
            links: vec![link("13.x", href, false), link("12.x", "/12.x/a", true)],
            banner: banner.then(|| link("13.x", href, false)),
        };
        let bars = [
            (
                vec![
                    language("English", "en", "/a&b", true),
                    language("日本語", "ja", "/ja/a\"q\"", false),
                ],
                None,
            ),
            (
                vec![
                    language("English", "en", "/c", true),
                    language("日本語", "ja", "/ja/c", false),
                ],
                None,
            ),
            (vec![], Some(versions("/a?x=1&y=2", true))),
            (vec![], Some(versions("/b", true))),
            (
                vec![language("English", "en", "/d", true)],
                Some(versions("/d", false)),
            ),
        ];
        for (n, (languages, versions)) in bars.iter().enumerate() {
            let direct = call_macro(
                &env,
                "topbar",
                &[
                    site.clone(),
                    Value::from("/docs"),
                    Value::from(true),
                    if languages.is_empty() {
                        Value::default()
                    } else {
                        Value::from(Serde(languages))
                    },
                    versions
                        .as_ref()
                        .map(|v| Value::from(Serde(v)))
                        .unwrap_or_default(),
                ],
            )
            .unwrap();
            let drawn = shell
                .topbar_with_menus(&env, &site, Some("/docs"), languages, versions.as_ref())
                .unwrap();
            assert_eq!(drawn.as_str(), Some(direct.as_str()), "bar {n}");
            // Each address is in the bar, escaped.
            let addresses = languages.iter().map(|l| l.url.as_str()).chain(
                versions
                    .iter()
                    .flat_map(|v| v.links.iter().chain(&v.banner))
                    .map(|l| l.href.as_str()),
            );
            for address in addresses {
                let mut escaped = String::new();
                crate::markdown::highlight::escape_into(&mut escaped, address);
                assert!(direct.contains(&escaped), "bar {n}: {escaped}");
            }
        }
        assert!(shell.stencils.on(), "a stencil differed from the macro");
        // Two pairs of the same shape, and one of its own.
        assert_eq!(shell.stencils.kept(), 3);
    }
}
