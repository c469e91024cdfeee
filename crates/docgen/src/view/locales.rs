//! What a page shows of the site's languages: its `lang` and `dir`, the same page in the other
//! languages (the language menu, the `hreflang` alternates) and the notice of a page that is
//! not, or may no longer be, a faithful translation.

use serde::Serialize;

use crate::config::locales::Locale;
use crate::content::Page;
use crate::model::Site;

/// A page's language as its template shows it.
#[derive(Debug, Clone, Serialize, Hash)]
pub struct PageLocale<'a> {
    /// The `lang` of the page's text (a fallback's is the default's).
    pub lang: &'a str,
    /// `ltr` or `rtl`.
    pub dir: &'static str,
    /// The language menu: the page in every locale (empty on a site with one language).
    pub languages: Vec<Language<'a>>,
    /// `<link rel="alternate" hreflang>`: the page in each language it is written in, and
    /// `x-default` (empty on a site with one language).
    pub alternates: Vec<Alternate>,
    /// Shown above the article: the page is not translated, or its translation may be stale.
    pub notice: Option<Notice>,
}

/// One entry of the language menu.
#[derive(Debug, Clone, Serialize, Hash)]
pub struct Language<'a> {
    pub name: &'a str,
    pub lang: &'a str,
    /// The route of the same page in that locale.
    pub url: String,
    pub current: bool,
}

#[derive(Debug, Clone, Serialize, Hash)]
pub struct Alternate {
    pub hreflang: String,
    /// Absolute.
    pub href: String,
}

#[derive(Debug, Clone, Serialize, Hash)]
pub struct Notice {
    /// `fallback` or `stale`.
    pub kind: &'static str,
    pub text: String,
    /// The source page, in the default locale.
    pub link: Option<NoticeLink>,
}

#[derive(Debug, Clone, Serialize, Hash)]
pub struct NoticeLink {
    pub url: String,
    pub text: String,
    pub lang: String,
}

/// `text` with each `{name}` replaced by its value (as the app's `fill`).
pub fn fill(text: &str, params: &[(&str, &str)]) -> String {
    let mut out = text.to_string();
    for (name, value) in params {
        out = out.replace(&format!("{{{name}}}"), value);
    }
    out
}

impl<'a> PageLocale<'a> {
    /// A page of no locale in particular (a 404 page): the default's language.
    pub fn plain(site: &'a Site<'_>) -> Self {
        let default = &site.config.locales[0];
        PageLocale {
            lang: &default.lang,
            dir: default.dir.as_str(),
            languages: Vec::new(),
            alternates: Vec::new(),
            notice: None,
        }
    }

    /// The page `page` served at `route`.
    pub fn of(site: &'a Site<'_>, page: &Page, route: &str) -> Self {
        let locales: &'a [Locale] = &site.config.locales;
        let locale = &locales[page.locale];
        let default = &locales[0];
        let shown = if page.translation.is_fallback() {
            default
        } else {
            locale
        };
        let mut view = PageLocale {
            lang: &shown.lang,
            dir: shown.dir.as_str(),
            languages: Vec::new(),
            alternates: Vec::new(),
            notice: None,
        };
        if locales.len() < 2 {
            return view;
        }
        let base = locale.unprefixed(route).unwrap_or(route);
        let written_in = |l: &Locale| {
            let r = l.route(base);
            site.page_at(&r)
                .is_some_and(|p| p.locale == 0 || p.translation.is_translated())
                .then_some(r)
        };
        view.languages = locales
            .iter()
            .map(|l| Language {
                name: &l.name,
                lang: &l.lang,
                url: l.route(base),
                current: std::ptr::eq(l, locale),
            })
            .collect();
        for l in locales {
            if let Some(r) = written_in(l) {
                view.alternates.push(Alternate {
                    hreflang: l.lang.clone(),
                    href: site.config.absolute(&r),
                });
            }
        }
        view.alternates.push(Alternate {
            hreflang: "x-default".into(),
            href: site.config.absolute(base),
        });
        let strings = &site.config.strings[page.locale];
        let t = |id: &str| strings.get(id).map_or("", String::as_str);
        let source_link = || NoticeLink {
            url: base.to_string(),
            text: fill(t("locale.source"), &[("language", &default.name)]),
            lang: default.lang.clone(),
        };
        if page.translation.is_fallback() {
            view.notice = Some(Notice {
                kind: "fallback",
                text: fill(
                    t("locale.fallback"),
                    &[("language", &locale.name), ("default", &default.name)],
                ),
                link: None,
            });
        } else if page.translation.is_stale() {
            view.notice = Some(Notice {
                kind: "stale",
                text: t("locale.stale").to_string(),
                link: Some(source_link()),
            });
        }
        view
    }
}
