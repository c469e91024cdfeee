//! The parts of a page that differ from page to page only in their texts, drawn from stencils:
//! the breadcrumbs, the table of contents and the article (`breadcrumbs`, `toc` and
//! `article_main` in `macros.html`). Their macros only print what they are given, so each is
//! called once per locale and shape (how many crumbs or entries; which of its footer's links the
//! article has) with a stand-in for each text, and every page of that shape fills the stand-ins
//! with its own texts: escaped where the macro escaped the stand-in, as they are where it did
//! not (the body). A call of a macro costs far more than the filling. The page around them
//! (`page.html` in `base.html`) is drawn the same way, by shape: which of its texts it has, how
//! many languages it links to, its direction.
//!
//! The first page of each shape is also drawn by the macro and compared: if the two differ, every
//! later page is drawn by the macros. A site's own `macros.html` (or page templates) is always
//! drawn by its macros: they may do more with a text than print it.

use std::hash::Hash;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};

use minijinja::{State, Value};
use rustc_hash::FxHashMap;
use serde::Serialize;

use crate::view::page::{Crumb, PageContent, TocEntry};

/// Starts and ends a stand-in: control characters that no text of a menu name, route or heading
/// id holds and that HTML escaping leaves as they are. Between them, the text's index and a `<`,
/// which, drawn, tells whether the macro escaped the stand-in (`&lt;`) or not.
const STAND_IN_START: char = '\u{1}';
const STAND_IN_END: char = '\u{2}';
const RAW_MARK: &str = "<";
const ESCAPED_MARK: &str = "&lt;";

#[derive(Clone, Copy, PartialEq, Eq, Hash)]
enum Part {
    Breadcrumbs,
    Toc,
    /// Its shape: which of its texts the article has (`PartStencils::article_main`).
    Main,
    /// The whole page around its parts (`PageStencils`).
    Page,
}

/// The shell's parts from stencils.
pub struct PartStencils {
    drawn: Stencils<(Part, usize, usize)>,
}

/// The stencils drawn so far, by shape (`K`), and whether they are used: the first drawing of a
/// shape that, filled, differs from what the template gives turns them all off.
pub(super) struct Stencils<K> {
    on: AtomicBool,
    drawn: Mutex<FxHashMap<K, Arc<Stencil>>>,
}

impl<K: Hash + Eq> Stencils<K> {
    pub(super) fn new(on: bool) -> Self {
        Stencils {
            on: AtomicBool::new(on),
            drawn: Mutex::default(),
        }
    }

    pub(super) fn on(&self) -> bool {
        self.on.load(Ordering::Relaxed)
    }

    /// The stencil of `key` filled with `texts`, if one was kept.
    pub(super) fn fill(&self, key: &K, texts: &[&str]) -> Option<String> {
        let found = self.drawn.lock().expect("not poisoned").get(key).cloned();
        found.map(|stencil| stencil.fill(texts))
    }

    /// Keeps the stencil of `drawn` (drawn with stand-ins for `texts`) under `key` if, filled
    /// with `texts`, it gives `real`; turns the stencils off if not.
    pub(super) fn keep_or_stop(&self, key: K, (drawn, texts): (&str, &[&str]), real: &str) {
        match Stencil::parse(drawn, texts.len()) {
            Some(stencil) if stencil.fill(texts) == real => {
                let mut shapes = self.drawn.lock().expect("not poisoned");
                shapes.insert(key, Arc::new(stencil));
            }
            _ => self.on.store(false, Ordering::Relaxed),
        }
    }

    /// How many shapes have a stencil.
    #[cfg(test)]
    pub(super) fn kept(&self) -> usize {
        self.drawn.lock().expect("not poisoned").len()
    }
}

/// A part's markup in pieces: markup as drawn, and the places of the texts.
#[derive(Debug, PartialEq)]
enum Piece {
    Markup(String),
    /// The text of this index, escaped.
    Text(usize),
    /// The text of this index as it is (markup).
    Raw(usize),
}

#[derive(Debug)]
struct Stencil(Vec<Piece>);

impl Stencil {
    /// The pieces of `drawn`, a part drawn with stand-ins for `texts` texts; `None` if it holds
    /// something that looks like a stand-in and is not one.
    fn parse(drawn: &str, texts: usize) -> Option<Stencil> {
        let mut pieces = Vec::new();
        let mut rest = drawn;
        while let Some(start) = rest.find(STAND_IN_START) {
            if start > 0 {
                pieces.push(Piece::Markup(rest[..start].to_string()));
            }
            let after = &rest[start + STAND_IN_START.len_utf8()..];
            let end = after.find(STAND_IN_END)?;
            let inside = &after[..end];
            let digits = inside.bytes().take_while(u8::is_ascii_digit).count();
            let index: usize = inside[..digits].parse().ok()?;
            if index >= texts {
                return None;
            }
            pieces.push(match &inside[digits..] {
                RAW_MARK => Piece::Raw(index),
                ESCAPED_MARK => Piece::Text(index),
                _ => return None,
            });
            rest = &after[end + STAND_IN_END.len_utf8()..];
        }
        if !rest.is_empty() {
            pieces.push(Piece::Markup(rest.to_string()));
        }
        Some(Stencil(pieces))
    }

    fn fill(&self, texts: &[&str]) -> String {
        let size = self
            .0
            .iter()
            .map(|p| match p {
                Piece::Markup(m) => m.len(),
                Piece::Text(i) | Piece::Raw(i) => texts[*i].len() + 8,
            })
            .sum();
        let mut out = String::with_capacity(size);
        for piece in &self.0 {
            match piece {
                Piece::Markup(m) => out.push_str(m),
                Piece::Text(i) => pulldown_cmark_escape::escape_html(&mut out, texts[*i])
                    .expect("writing to a String cannot fail"),
                Piece::Raw(i) => out.push_str(texts[*i]),
            }
        }
        out
    }
}

/// Stands in for text `i`.
pub(super) fn stand_in(i: usize) -> String {
    format!("{STAND_IN_START}{i}{RAW_MARK}{STAND_IN_END}")
}

/// A crumb as the `breadcrumbs` macro reads it, its texts stood in for.
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct CrumbStandIn {
    display_name: String,
    url: String,
}

/// An entry of the table of contents as the `toc` macro reads it, likewise.
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct TocStandIn {
    display_name: String,
    hash_name: String,
    level: String,
}

/// A page as the `article_main` macro reads it (`view::page::PageContent`), its texts stood in
/// for. What it leaves out reads as undefined where the page's own reads as none: a page with a
/// notice above its article or a version banner is drawn by the macro.
#[derive(Serialize)]
struct MainStandIn {
    body: Option<String>,
    edit_url: Option<String>,
    updated: Option<UpdatedStandIn>,
    pager: PagerStandIn,
}

#[derive(Serialize)]
struct UpdatedStandIn {
    datetime: String,
    text: String,
}

#[derive(Serialize)]
struct PagerStandIn {
    prev: Option<CrumbStandIn>,
    next: Option<CrumbStandIn>,
}

/// A page as the page templates read it (`page.html` around `base.html`), likewise.
#[derive(Serialize)]
struct PageStandIn {
    title: String,
    description: Option<String>,
    canonical: String,
    layout: String,
    is_home: bool,
    markdown: Option<String>,
    locale: LocaleStandIn,
}

#[derive(Serialize)]
struct LocaleStandIn {
    lang: String,
    dir: &'static str,
    alternates: Vec<AlternateStandIn>,
}

#[derive(Serialize)]
struct AlternateStandIn {
    hreflang: String,
    href: String,
}

/// What the page templates print of a page besides its `page`: the top bar, the parts of the
/// shell (`parts` in `page.html`) and the page data, drawn already.
pub struct Drawn<'a> {
    pub topbar: &'a str,
    pub breadcrumbs: &'a str,
    pub menu: &'a str,
    pub toc: &'a str,
    pub main: &'a str,
    pub end: &'a str,
    pub page_data: &'a str,
}

/// The stand-ins a page is rendered with to make its stencil: `page`, `topbar`, `parts` and
/// `page_data`.
pub struct PageStandIns {
    pub page: Value,
    pub topbar: Value,
    pub parts: Value,
    pub page_data: Value,
}

/// Whole pages from stencils, by locale and shape: for docgen's own `page.html` and `base.html`,
/// which print a page's texts and test only what the shape holds.
pub struct PageStencils {
    drawn: Stencils<(Part, usize, usize)>,
}

impl PageStencils {
    pub fn new(enabled: bool) -> Self {
        PageStencils {
            drawn: Stencils::new(enabled),
        }
    }

    /// The page of `locale` showing `page` and `drawn`: `render` renders the page template with
    /// stand-ins, `full` with the page's own values.
    pub fn page(
        &self,
        locale: usize,
        page: &PageContent<'_>,
        drawn: &Drawn<'_>,
        render: impl FnOnce(PageStandIns) -> Result<String, minijinja::Error>,
        full: impl FnOnce() -> Result<String, minijinja::Error>,
    ) -> Result<String, minijinja::Error> {
        if !self.drawn.on() {
            return full();
        }
        let description = page.description.as_deref().filter(|d| !d.is_empty());
        let markdown = page.markdown.as_deref().filter(|m| !m.is_empty());
        let canonical = page.canonical.to_string();
        let alternates = &page.locale.alternates;
        let mut texts = vec![
            page.title,
            description.unwrap_or_default(),
            &canonical,
            page.layout,
            markdown.unwrap_or_default(),
            page.locale.lang,
            drawn.topbar,
            drawn.breadcrumbs,
            drawn.menu,
            drawn.toc,
            drawn.main,
            drawn.end,
            drawn.page_data,
        ];
        let fixed = texts.len();
        texts.extend(
            alternates
                .iter()
                .flat_map(|a| [a.hreflang.as_str(), a.href.as_str()]),
        );
        let shape = [
            page.locale.dir == "rtl",
            description.is_some(),
            markdown.is_some(),
            page.is_home,
        ]
        .iter()
        .fold(alternates.len(), |bits, &b| bits << 1 | usize::from(b));
        let key = (Part::Page, locale, shape);
        if let Some(filled) = self.drawn.fill(&key, &texts) {
            return Ok(filled);
        }
        let safe = |i| Value::from_safe_string(stand_in(i));
        let stand_ins = PageStandIns {
            page: Value::from(minijinja::value::Serde(&PageStandIn {
                title: stand_in(0),
                description: description.map(|_| stand_in(1)),
                canonical: stand_in(2),
                layout: stand_in(3),
                is_home: page.is_home,
                markdown: markdown.map(|_| stand_in(4)),
                locale: LocaleStandIn {
                    lang: stand_in(5),
                    dir: page.locale.dir,
                    alternates: (0..alternates.len())
                        .map(|i| AlternateStandIn {
                            hreflang: stand_in(fixed + 2 * i),
                            href: stand_in(fixed + 2 * i + 1),
                        })
                        .collect(),
                },
            })),
            topbar: safe(6),
            parts: minijinja::context! {
                breadcrumbs => safe(7),
                menu => safe(8),
                toc => safe(9),
                main => safe(10),
                end => safe(11),
            },
            page_data: Value::from(stand_in(12)),
        };
        let stenciled = render(stand_ins)?;
        let real = full()?;
        self.drawn.keep_or_stop(key, (&stenciled, &texts), &real);
        Ok(real)
    }
}

/// A list a macro draws: its items' texts, `N` an item, and how an item is stood in for, given
/// the stand-ins of its texts.
struct List<'t, const N: usize, S> {
    texts: Vec<&'t str>,
    stand_in_of: Box<dyn Fn([String; N]) -> S + 't>,
}

impl<'t, const N: usize, S> List<'t, N, S> {
    fn new(
        items: impl Iterator<Item = [&'t str; N]>,
        stand_in_of: impl Fn([String; N]) -> S + 't,
    ) -> Self {
        List {
            texts: items.flatten().collect(),
            stand_in_of: Box::new(stand_in_of),
        }
    }
}

impl PartStencils {
    /// Stencils for docgen's own `macros.html` (`enabled`), or none for a site's own.
    pub fn new(enabled: bool) -> Self {
        PartStencils {
            drawn: Stencils::new(enabled),
        }
    }

    /// The `breadcrumbs` part of a page of `locale`; `draw` calls the macro with them.
    pub fn breadcrumbs(
        &self,
        state: &mut State<'_, '_>,
        locale: usize,
        crumbs: &[Crumb<'_>],
        draw: impl FnOnce(&mut State<'_, '_>) -> Result<Value, minijinja::Error>,
    ) -> Result<Value, minijinja::Error> {
        let texts = crumbs.iter().map(|c| [c.display_name, c.url]);
        let stand_in_of = |[display_name, url]: [String; 2]| CrumbStandIn { display_name, url };
        let list = List::new(texts, stand_in_of);
        self.list(
            state,
            ("breadcrumbs", Part::Breadcrumbs, locale),
            list,
            draw,
        )
    }

    /// The `toc` part of a page of `locale`; `draw` calls the macro with its entries.
    pub fn toc(
        &self,
        state: &mut State<'_, '_>,
        locale: usize,
        entries: &[TocEntry<'_>],
        draw: impl FnOnce(&mut State<'_, '_>) -> Result<Value, minijinja::Error>,
    ) -> Result<Value, minijinja::Error> {
        let levels: Vec<String> = entries.iter().map(|e| e.level.to_string()).collect();
        let texts = (entries.iter().zip(&levels))
            .map(|(e, level)| [e.display_name, e.hash_name.0, level.as_str()]);
        let stand_in_of = |[display_name, id, level]: [String; 3]| TocStandIn {
            display_name,
            hash_name: format!("#{id}"),
            level,
        };
        self.list(
            state,
            ("toc", Part::Toc, locale),
            List::new(texts, stand_in_of),
            draw,
        )
    }

    /// A part drawn by macro `name` from a list (see `List`).
    fn list<const N: usize, S: Serialize>(
        &self,
        state: &mut State<'_, '_>,
        (name, part, locale): (&str, Part, usize),
        list: List<'_, N, S>,
        draw: impl FnOnce(&mut State<'_, '_>) -> Result<Value, minijinja::Error>,
    ) -> Result<Value, minijinja::Error> {
        let items = list.texts.len() / N;
        let stand_ins = || {
            let args: Vec<S> = (0..items)
                .map(|i| (list.stand_in_of)(std::array::from_fn(|k| stand_in(N * i + k))))
                .collect();
            vec![Value::from(minijinja::value::Serde(&args))]
        };
        let key = (part, locale, items);
        self.part(state, name, key, &list.texts, stand_ins, draw)
    }

    /// The `article_main` part of a page of `locale` (`class` its second argument); `draw`
    /// calls the macro with the page.
    pub fn article_main(
        &self,
        state: &mut State<'_, '_>,
        locale: usize,
        (page, class): (&PageContent<'_>, &str),
        draw: impl FnOnce(&mut State<'_, '_>) -> Result<Value, minijinja::Error>,
    ) -> Result<Value, minijinja::Error> {
        let banner = page.version.as_ref().is_some_and(|v| v.banner.is_some());
        if page.locale.notice.is_some() || banner {
            return draw(state);
        }
        let updated = page.updated.as_ref();
        let (prev, next) = (page.pager.prev.as_ref(), page.pager.next.as_ref());
        let texts = [
            page.body.as_ref().map_or("", |b| b.html),
            page.edit_url.as_deref().unwrap_or_default(),
            updated.map_or("", |u| u.datetime.as_str()),
            updated.map_or("", |u| u.text.as_str()),
            prev.map_or("", |l| l.url),
            prev.map_or("", |l| l.display_name),
            next.map_or("", |l| l.url),
            next.map_or("", |l| l.display_name),
            class,
        ];
        let link = |at: usize| CrumbStandIn {
            url: stand_in(at),
            display_name: stand_in(at + 1),
        };
        let stand_ins = || {
            let args = MainStandIn {
                body: page.body.as_ref().map(|_| stand_in(0)),
                edit_url: page.edit_url.as_ref().map(|_| stand_in(1)),
                updated: updated.map(|_| UpdatedStandIn {
                    datetime: stand_in(2),
                    text: stand_in(3),
                }),
                pager: PagerStandIn {
                    prev: prev.map(|_| link(4)),
                    next: next.map(|_| link(6)),
                },
            };
            vec![
                Value::from(minijinja::value::Serde(&args)),
                Value::from(stand_in(8)),
            ]
        };
        let has = [
            page.body.is_some(),
            page.edit_url.is_some(),
            updated.is_some(),
            prev.is_some(),
            next.is_some(),
        ];
        let shape = has.iter().fold(0, |bits, &b| bits << 1 | usize::from(b));
        let key = (Part::Main, locale, shape);
        self.part(state, "article_main", key, &texts, stand_ins, draw)
    }

    fn part(
        &self,
        state: &mut State<'_, '_>,
        name: &str,
        key: (Part, usize, usize),
        texts: &[&str],
        stand_ins: impl FnOnce() -> Vec<Value>,
        draw: impl FnOnce(&mut State<'_, '_>) -> Result<Value, minijinja::Error>,
    ) -> Result<Value, minijinja::Error> {
        if !self.drawn.on() {
            return draw(state);
        }
        if let Some(filled) = self.drawn.fill(&key, texts) {
            return Ok(Value::from_safe_string(filled));
        }
        let drawn = super::templates::draw(state, name, &stand_ins())?;
        let drawn = drawn.as_str().unwrap_or_default();
        let real = draw(state)?;
        let real_text = real.as_str().unwrap_or_default();
        self.drawn.keep_or_stop(key, (drawn, texts), real_text);
        Ok(real)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::render::templates;
    use crate::view::page::Anchor;
    use minijinja::value::Serde;

    /// A page with a title and a canonical address, and nothing else.
    fn content() -> PageContent<'static> {
        PageContent {
            title: "T",
            description: None,
            subtitle: None,
            canonical: crate::view::page::AbsoluteUrl::new("https://x.test", "/pr/7", "/a\"b"),
            body: None,
            layout: "doc",
            edit_url: None,
            updated: None,
            pager: Default::default(),
            is_home: false,
            markdown: None,
            version: None,
            locale: crate::view::locales::PageLocale {
                lang: "en",
                dir: "ltr",
                languages: Vec::new(),
                alternates: Vec::new(),
                notice: None,
            },
        }
    }

    /// docgen's own templates, for a site served under `/pr/7`.
    fn docgen_templates() -> minijinja::Environment<'static> {
        let strings = crate::config::locales::english_strings();
        templates::environment_of("/pr/7", &[], &strings).unwrap()
    }

    /// `macros.html` evaluated, its macros to be called.
    fn evaluated_macros<'e>(env: &'e minijinja::Environment<'_>) -> minijinja::Captured<'e> {
        env.get_template("macros.html")
            .unwrap()
            .render_captured(())
            .unwrap()
    }

    /// No stencil differed from what it stands for, and `shapes` were kept.
    fn assert_all_kept(drawn: &Stencils<(Part, usize, usize)>, shapes: usize) {
        assert!(drawn.on(), "a stencil differed from its template");
        assert_eq!(drawn.kept(), shapes);
    }

    /// Every page's part as its macro draws it, and the macro called once per shape.
    #[test]
    fn parts_from_stencils_are_the_macros_own() {
        let env = docgen_templates();
        let mut shell = evaluated_macros(&env);
        let stencils = PartStencils::new(true);
        let crumb = |display_name, url| Crumb { display_name, url };
        let trails = [
            vec![crumb("Home", "/"), crumb("A & <B> \"q\"", "/a/it's")],
            vec![crumb("Docs", "/docs"), crumb("Ünïcode 広告", "/docs/x")],
            vec![crumb("Only", "/")],
            vec![],
        ];
        let entry = |display_name, id, level| TocEntry {
            display_name,
            hash_name: Anchor(id),
            level,
        };
        let tocs = [
            vec![
                entry("Intro <1>", "intro", 1),
                entry("A & B", "a-&-b", 2),
                entry("C", "c", 3),
            ],
            vec![
                entry("T", "t", 1),
                entry("\"Quoted\"", "q", 3),
                entry("D", "d", 2),
            ],
            vec![],
        ];
        shell.with_state_mut(|state| {
            for crumbs in &trails {
                let arg = Value::from(Serde(crumbs));
                let direct =
                    templates::draw(state, "breadcrumbs", std::slice::from_ref(&arg)).unwrap();
                let drawn = stencils
                    .breadcrumbs(state, 0, crumbs, |s| {
                        templates::draw(s, "breadcrumbs", std::slice::from_ref(&arg))
                    })
                    .unwrap();
                assert_eq!(drawn.as_str(), direct.as_str());
            }
            for entries in &tocs {
                let arg = Value::from(Serde(entries));
                let direct = templates::draw(state, "toc", std::slice::from_ref(&arg)).unwrap();
                let drawn = stencils
                    .toc(state, 0, entries, |s| {
                        templates::draw(s, "toc", std::slice::from_ref(&arg))
                    })
                    .unwrap();
                assert_eq!(drawn.as_str(), direct.as_str());
            }
        });
        // Two trails of two crumbs, one of one, none; three entries twice, none.
        assert_all_kept(&stencils.drawn, 5);
        assert!(trails[1][1].display_name.contains('広'));
    }

    /// Articles of every shape of their footer, as the macro draws them.
    #[test]
    fn articles_from_stencils_are_the_macros_own() {
        use crate::view::page::Updated;
        use crate::view::pager::{Pager, PagerLink};
        let env = docgen_templates();
        let mut shell = evaluated_macros(&env);
        let stencils = PartStencils::new(true);
        let link = |display_name, url| Some(PagerLink { display_name, url });
        let page = |edit: Option<&str>, updated: bool, prev, next| PageContent {
            edit_url: edit.map(str::to_string),
            updated: updated.then(|| Updated {
                datetime: "2024-03-05".into(),
                text: "March 5, 2024 & <later>".into(),
            }),
            pager: Pager { prev, next },
            ..content()
        };
        let pages = [
            page(None, false, None, None),
            page(
                Some("https://e.test/edit?a=1&b=\"2\""),
                true,
                link("Back <&>", "/a/b"),
                link("On", "/"),
            ),
            page(
                Some("https://e.test/x"),
                true,
                link("P", "/p"),
                link("N", "/n"),
            ),
            page(None, true, None, link("Next \"one\"", "/n'x")),
            page(None, false, link("Only back", "/b"), None),
        ];
        shell.with_state_mut(|state| {
            for page in &pages {
                let args = [Value::from(Serde(page)), Value::from("dg-main")];
                let direct = templates::draw(state, "article_main", &args).unwrap();
                let drawn = stencils
                    .article_main(state, 0, (page, "dg-main"), |s| {
                        templates::draw(s, "article_main", &args)
                    })
                    .unwrap();
                assert_eq!(drawn.as_str(), direct.as_str());
            }
        });
        // The second and third pages have the same shape.
        assert_all_kept(&stencils.drawn, 4);
    }

    /// Pages of several shapes, as `page.html` renders them.
    #[test]
    fn pages_from_stencils_are_the_templates_own() {
        use crate::view::locales::{Alternate, PageLocale};
        let env = docgen_templates();
        let stencils = PageStencils::new(true);
        let site = minijinja::context! { base => "/pr/7", title => "Docs & <co>" };
        let assets = minijinja::context! { css => "/a.css", js => "/a.js", favicon => "/f.svg", favicon_ico => "/f.ico" };
        let alternate = |hreflang: &str, href: &str| Alternate {
            hreflang: hreflang.into(),
            href: href.into(),
        };
        let page = |title, description: Option<&'static str>, home, dir, alternates| {
            let base = content();
            PageContent {
                title,
                description: description.map(Into::into),
                is_home: home,
                markdown: Some("/pr/7/a/index.md".into()),
                locale: PageLocale {
                    dir,
                    alternates,
                    ..base.locale
                },
                ..base
            }
        };
        let pages = [
            page(
                "One & <two>",
                Some("A \"quoted\" page"),
                false,
                "ltr",
                vec![],
            ),
            page("Three", Some("Another"), false, "ltr", vec![]),
            page("Home", None, true, "ltr", vec![]),
            page("Empty description", Some(""), false, "ltr", vec![]),
            page(
                "صفحة",
                Some("وصف"),
                false,
                "rtl",
                vec![
                    alternate("ar", "https://x.test/ar/a"),
                    alternate("x-default", "https://x.test/a"),
                ],
            ),
        ];
        for (n, page) in pages.iter().enumerate() {
            let drawn = Drawn {
                topbar: "<header>bar</header>",
                breadcrumbs: "<nav>crumbs & more</nav>",
                menu: "<nav id=\"dg-menu\"></nav>",
                toc: "<aside></aside>",
                main: "<main>body</main>",
                end: "<footer></footer>",
                page_data: "{\"route\":\"/a\",\"n\":1}",
            };
            let context = |page: Value, topbar: Value, parts: Value, page_data: Value| {
                minijinja::context! { site => site.clone(), topbar, page, parts, assets => assets.clone(), page_data }
            };
            let safe = |s: &str| Value::from_safe_string(s.to_string());
            let full = || {
                let parts = minijinja::context! {
                    breadcrumbs => safe(drawn.breadcrumbs),
                    menu => safe(drawn.menu),
                    toc => safe(drawn.toc),
                    main => safe(drawn.main),
                    end => safe(drawn.end),
                };
                let c = context(
                    Value::from(Serde(page)),
                    safe(drawn.topbar),
                    parts,
                    Value::from(drawn.page_data),
                );
                env.get_template("page.html").unwrap().render(c)
            };
            let direct = full().unwrap();
            let render = |s: PageStandIns| {
                let c = context(s.page, s.topbar, s.parts, s.page_data);
                env.get_template("page.html").unwrap().render(c)
            };
            let drawn_page = stencils.page(0, page, &drawn, render, full).unwrap();
            assert_eq!(drawn_page, direct, "page {n}");
        }
        // The first two pages have the same shape; the others one each.
        assert_all_kept(&stencils.drawn, 4);
    }

    #[test]
    fn a_macro_that_does_more_than_print_its_texts_is_always_called() {
        let strings = crate::config::locales::english_strings();
        let own: Vec<(&'static str, std::sync::Arc<str>)> = vec![(
            "macros.html",
            "{% macro breadcrumbs(b) %}{% for c in b %}{{ c.displayName|upper }}{% endfor %}{% endmacro %}".into(),
        )];
        let env = templates::environment_of("", &own, &strings).unwrap();
        let mut shell = env
            .get_template("macros.html")
            .unwrap()
            .render_captured(())
            .unwrap();
        // Turned on as if the macros were docgen's: the first page finds them differing.
        let stencils = PartStencils::new(true);
        shell.with_state_mut(|state| {
            for name in ["a", "b"] {
                let crumbs = [Crumb {
                    display_name: name,
                    url: "/",
                }];
                let arg = Value::from(Serde(&crumbs));
                let drawn = stencils
                    .breadcrumbs(state, 0, &crumbs, |s| {
                        templates::draw(s, "breadcrumbs", std::slice::from_ref(&arg))
                    })
                    .unwrap();
                assert_eq!(drawn.as_str(), Some(name.to_uppercase().as_str()));
            }
        });
        assert!(!stencils.drawn.on());
    }

    #[test]
    fn a_stencil_is_filled_with_texts_escaped_where_the_macro_escaped_them() {
        let escaped = |i| stand_in(i).replace('<', "&lt;");
        let drawn = format!(
            "<a href=\"/base{}\">{}</a>{}<div>{}</div>",
            escaped(1),
            escaped(0),
            escaped(0),
            stand_in(2)
        );
        let stencil = Stencil::parse(&drawn, 3).unwrap();
        assert_eq!(
            stencil.fill(&["A & <B>", "/a\"b", "<p>x &amp; y</p>"]),
            "<a href=\"/base/a&quot;b\">A &amp; &lt;B&gt;</a>A &amp; &lt;B&gt;<div><p>x &amp; y</p></div>"
        );
        // Something like a stand-in that is not one: no stencil.
        assert!(Stencil::parse(&stand_in(3), 3).is_none());
        assert!(Stencil::parse("\u{1}x<\u{2}", 2).is_none());
        assert!(Stencil::parse("\u{1}1\u{2}", 2).is_none());
        assert_eq!(
            Stencil::parse("plain", 0).unwrap().0,
            [Piece::Markup("plain".into())]
        );
    }
}
