//! The sitemap: every canonical page, with `lastmod` when git knows the page's last change.
//! The sitemap protocol allows 50,000 addresses per file: a larger site gets a sitemap index
//! at `sitemap.xml` naming `sitemap-1.xml`, `sitemap-2.xml`, ... of at most that many each.
//! Each file is made when it is written, so a large site never holds all of them at once.

use std::ops::Range;

use super::files::DataFile;
use crate::content::git::iso_date;
use crate::markdown::highlight::escape_into;
use crate::model::Site;

/// The most addresses one sitemap file may list (sitemaps.org).
pub const MAX_URLS: usize = 50_000;

const HEAD: &str = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n";
const NS: &str = "xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\"";

/// How `count` addresses are split: `None` when one `sitemap.xml` holds them all, else the
/// name and the range of addresses of each file the index names.
pub fn split(count: usize, max: usize) -> Option<Vec<(String, Range<usize>)>> {
    if count <= max {
        return None;
    }
    Some(
        (0..count.div_ceil(max))
            .map(|i| {
                (
                    format!("sitemap-{}.xml", i + 1),
                    i * max..((i + 1) * max).min(count),
                )
            })
            .collect(),
    )
}

/// A `<urlset>` of addresses with their last change (seconds since the epoch).
pub fn urlset<S: AsRef<str>>(urls: impl Iterator<Item = (S, Option<i64>)>) -> String {
    let mut s = format!("{HEAD}<urlset {NS}>\n");
    for (loc, lastmod) in urls {
        entry(&mut s, "url", loc.as_ref(), lastmod);
    }
    s.push_str("</urlset>\n");
    s
}

/// A `<sitemapindex>` of sitemap files with the latest change each lists.
pub fn index<S: AsRef<str>>(sitemaps: impl Iterator<Item = (S, Option<i64>)>) -> String {
    let mut s = format!("{HEAD}<sitemapindex {NS}>\n");
    for (loc, lastmod) in sitemaps {
        entry(&mut s, "sitemap", loc.as_ref(), lastmod);
    }
    s.push_str("</sitemapindex>\n");
    s
}

/// The namespace of `<xhtml:link>`, by which a sitemap names a page's other languages.
const XHTML: &str = "xmlns:xhtml=\"http://www.w3.org/1999/xhtml\"";

/// A `<urlset>` of addresses with their last change and their alternates in other languages
/// (hreflang, absolute address), for a site with locales.
pub fn urlset_with_alternates(
    urls: impl Iterator<Item = (String, Option<i64>, Vec<(String, String)>)>,
) -> String {
    let mut s = format!("{HEAD}<urlset {NS} {XHTML}>\n");
    for (loc, lastmod, alternates) in urls {
        let mut one = String::new();
        entry(&mut one, "url", &loc, lastmod);
        let close = one.len() - "</url>\n".len();
        s.push_str(&one[..close]);
        for (lang, href) in alternates {
            s.push_str("<xhtml:link rel=\"alternate\" hreflang=\"");
            escape_into(&mut s, &lang);
            s.push_str("\" href=\"");
            escape_into(&mut s, &href);
            s.push_str("\"/>");
        }
        s.push_str(&one[close..]);
    }
    s.push_str("</urlset>\n");
    s
}

/// On a site with locales: every page written in its own language (fallbacks are their
/// sources' pages), each with the page in every language it is written in and `x-default`.
fn localised_pages<'a>(
    site: &'a Site<'_>,
) -> impl Iterator<Item = (String, Option<i64>, Vec<(String, String)>)> + 'a {
    site.routes
        .iter()
        .filter(|(_, e)| e.canonical && !site.pages[e.page].translation.is_fallback())
        .map(|(route, e)| {
            let page = &site.pages[e.page];
            let shown = crate::view::locales::PageLocale::of(site, page, route);
            let alternates = shown
                .alternates
                .into_iter()
                .map(|a| (a.hreflang, a.href))
                .collect();
            (
                site.config.absolute(route),
                site.last_updated.of(&page.file),
                alternates,
            )
        })
}

fn entry(s: &mut String, tag: &str, loc: &str, lastmod: Option<i64>) {
    s.push('<');
    s.push_str(tag);
    s.push_str("><loc>");
    escape_into(s, loc);
    s.push_str("</loc>");
    if let Some(t) = lastmod {
        s.push_str("<lastmod>");
        s.push_str(&iso_date(t));
        s.push_str("</lastmod>");
    }
    s.push_str("</");
    s.push_str(tag);
    s.push_str(">\n");
}

/// The canonical pages in route order: their addresses and last changes.
fn pages<'a>(site: &'a Site<'_>) -> impl Iterator<Item = (String, Option<i64>)> + 'a {
    site.routes
        .iter()
        .filter(|(_, e)| e.canonical)
        .map(|(route, e)| {
            let page = &site.pages[e.page];
            (
                site.config.absolute(route),
                site.last_updated.of(&page.file),
            )
        })
}

/// The sitemap files of the site: `sitemap.xml`, and its parts when it is an index.
pub fn files<'r>(site: &'r Site<'_>) -> Vec<DataFile<'r>> {
    let localised = site.config.locales.len() > 1;
    if localised && localised_pages(site).count() <= MAX_URLS {
        // Each page with its alternates (a larger site gets the parts below, without them).
        return vec![DataFile::later("sitemap.xml", move || {
            urlset_with_alternates(localised_pages(site)).into_bytes()
        })];
    }
    let count = site.routes.values().filter(|e| e.canonical).count();
    let Some(parts) = split(count, MAX_URLS) else {
        return vec![DataFile::later("sitemap.xml", move || {
            urlset(pages(site)).into_bytes()
        })];
    };
    let names: Vec<(String, Range<usize>)> = parts.clone();
    let mut files = vec![DataFile::later("sitemap.xml", move || {
        let latest = |r: &Range<usize>| {
            pages(site)
                .skip(r.start)
                .take(r.len())
                .filter_map(|(_, t)| t)
                .max()
        };
        index(
            names
                .iter()
                .map(|(name, r)| (site.config.absolute(&format!("/{name}")), latest(r))),
        )
        .into_bytes()
    })];
    files.extend(parts.into_iter().map(|(name, range)| {
        DataFile::later(name, move || {
            urlset(pages(site).skip(range.start).take(range.len())).into_bytes()
        })
    }));
    files
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_file_holds_up_to_50000_addresses() {
        assert_eq!(split(0, MAX_URLS), None);
        assert_eq!(split(50_000, MAX_URLS), None);
        assert_eq!(
            split(50_001, MAX_URLS),
            Some(vec![
                ("sitemap-1.xml".to_string(), 0..50_000),
                ("sitemap-2.xml".to_string(), 50_000..50_001),
            ])
        );
        let parts = split(100_000, MAX_URLS).unwrap();
        assert_eq!(parts.len(), 2);
        assert_eq!(parts[1].1, 50_000..100_000);
    }

    #[test]
    fn a_large_site_gets_an_index_of_sitemaps_within_the_limit() {
        let urls: Vec<(String, Option<i64>)> = (0..120_001)
            .map(|i| {
                (
                    format!("https://x.test/p/{i}"),
                    (i % 2 == 0).then_some(i as i64),
                )
            })
            .collect();
        let parts = split(urls.len(), MAX_URLS).unwrap();
        assert_eq!(parts.len(), 3);
        let mut listed = 0;
        for (_, range) in &parts {
            let xml = urlset(urls[range.clone()].iter().map(|(u, t)| (u, *t)));
            let n = xml.matches("<url>").count();
            assert!(n <= MAX_URLS, "{n} addresses in one sitemap");
            listed += n;
        }
        assert_eq!(listed, urls.len(), "every address is in some sitemap");
        let idx = index(parts.iter().map(|(name, r)| {
            (
                format!("https://x.test/{name}"),
                urls[r.clone()].iter().filter_map(|(_, t)| *t).max(),
            )
        }));
        assert!(idx.contains("<sitemapindex"), "{idx}");
        assert_eq!(idx.matches("<sitemap>").count(), 3);
        assert!(
            idx.contains("<loc>https://x.test/sitemap-3.xml</loc>"),
            "{idx}"
        );
    }

    #[test]
    fn lastmod_is_written_when_known() {
        let xml = urlset(
            [
                ("https://x.test/a?b&c", Some(1_709_596_800)),
                ("https://x.test/d", None),
            ]
            .into_iter(),
        );
        assert!(
            xml.contains(
                "<url><loc>https://x.test/a?b&amp;c</loc><lastmod>2024-03-05</lastmod></url>"
            ),
            "{xml}"
        );
        assert!(
            xml.contains("<url><loc>https://x.test/d</loc></url>"),
            "{xml}"
        );
    }
}
