//! `docgen check --external`: every link that leaves the site (http and https), with every
//! place it is written, for a CI job with network access to try. Nothing is fetched here: a
//! build must not depend on the network.

use std::collections::{BTreeMap, BTreeSet};
use std::path::PathBuf;

use pulldown_cmark::{Event, Parser, Tag};
use rayon::prelude::*;
use serde::Serialize;

use crate::diagnostics::line_col;
use crate::model::Site;

/// A place a link is written: a file of the site, 1-based line and column.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Serialize)]
pub struct Place {
    pub file: PathBuf,
    pub line: usize,
    pub column: usize,
}

/// An external address and every place it is written.
#[derive(Debug, Clone, Serialize)]
pub struct ExternalLink {
    pub url: String,
    pub places: Vec<Place>,
}

fn is_external(url: &str) -> bool {
    let lower = url.get(..8).unwrap_or(url).to_ascii_lowercase();
    lower.starts_with("http://") || lower.starts_with("https://")
}

/// Every external link of the pages and of `site.yaml` (menu and footer links), by address.
pub fn links(site: &Site<'_>) -> Vec<ExternalLink> {
    let config = site.config;
    let mut by_url: BTreeMap<String, BTreeSet<Place>> = BTreeMap::new();
    let data = data_files(config);
    let found: Vec<(String, Place)> = site
        .pages
        .par_iter()
        .filter(|p| p.is_page)
        .flat_map_iter(|page| {
            let text = page.source_text(&config.root);
            let links = match &page.markdown {
                // A templated page: its expanded text has no lines in the file, so each
                // address is placed where the file writes it (else at the body's start).
                Some(expanded) => in_markdown(expanded)
                    .into_iter()
                    .map(|(url, _)| {
                        // Else where a data file writes it: the page was made from it.
                        let in_data = || {
                            data.iter().find_map(|(rel, data_text)| {
                                let at = data_text.find(url.as_str())?;
                                let (line, column) = line_col(data_text, at);
                                Some((rel.clone(), line, column))
                            })
                        };
                        match text.find(url.as_str()) {
                            Some(at) => {
                                let (line, column) = line_col(&text, at);
                                (url, page.file.clone(), line, column)
                            }
                            None => match in_data() {
                                Some((rel, line, column)) => (url, rel, line, column),
                                None => (url, page.file.clone(), page.body_line, 1),
                            },
                        }
                    })
                    .collect::<Vec<_>>(),
                None => {
                    let body = crate::content::frontmatter::split(&text).body;
                    let start = body.as_ptr() as usize - text.as_ptr() as usize;
                    in_markdown(body)
                        .into_iter()
                        .map(|(url, at)| {
                            let (line, column) = line_col(&text, start + at);
                            (url, page.file.clone(), line, column)
                        })
                        .collect()
                }
            };
            links
                .into_iter()
                .map(|(url, file, line, column)| (url, Place { file, line, column }))
        })
        .collect();
    for (url, place) in found {
        by_url.entry(url).or_default().insert(place);
    }
    let site_yaml = &config.site_source;
    let configured = config
        .site
        .menu_links
        .iter()
        .map(|l| l.url.as_str())
        .chain(config.site.footer.iter().filter_map(|f| f.url.as_deref()));
    for url in configured.filter(|u| is_external(u)) {
        let (line, column) = site_yaml
            .find(url)
            .map_or((1, 1), |at| line_col(site_yaml, at));
        by_url.entry(url.to_string()).or_default().insert(Place {
            file: PathBuf::from("site.yaml"),
            line,
            column,
        });
    }
    by_url
        .into_iter()
        .map(|(url, places)| ExternalLink {
            url,
            places: places.into_iter().collect(),
        })
        .collect()
}

/// The data files (`content/data/`), relative to the site root, with their text.
fn data_files(config: &crate::config::Config) -> Vec<(PathBuf, String)> {
    let mut out: Vec<(PathBuf, String)> = walkdir::WalkDir::new(config.content_dir().join("data"))
        .into_iter()
        .filter_map(Result::ok)
        .filter(|e| {
            e.file_type().is_file()
                && e.path()
                    .extension()
                    .is_some_and(|x| x == "yaml" || x == "yml")
        })
        .filter_map(|e| {
            // By the rules of every source (the build read the same files, so none fails here).
            let rel = e.path().strip_prefix(&config.root).ok()?.to_path_buf();
            let text = crate::config::source::read(&config.root, &rel).ok()?;
            Some((rel, text.to_string()))
        })
        .collect();
    out.sort();
    out
}

/// The external addresses of a Markdown text with the offset of each: links, images, and
/// `href`/`src` attributes of raw HTML.
fn in_markdown(markdown: &str) -> Vec<(String, usize)> {
    let mut out = Vec::new();
    for (event, range) in Parser::new_ext(markdown, crate::markdown::options()).into_offset_iter() {
        match event {
            Event::Start(Tag::Link { dest_url, .. })
            | Event::Start(Tag::Image { dest_url, .. })
                if is_external(&dest_url) =>
            {
                // At the address as written when it is in the link's text (not a reference).
                let at = markdown[range.clone()]
                    .find(&*dest_url)
                    .map_or(range.start, |i| range.start + i);
                out.push((dest_url.to_string(), at));
            }
            Event::Html(html) | Event::InlineHtml(html) => {
                for (i, url) in html_addresses(&html) {
                    out.push((url.to_string(), range.start + i));
                }
            }
            _ => {}
        }
    }
    out
}

/// `href="…"` and `src="…"` values of raw HTML that leave the site, with their offsets.
fn html_addresses(html: &str) -> Vec<(usize, &str)> {
    let mut out = Vec::new();
    for attr in ["href=", "src="] {
        for (i, _) in html.match_indices(attr) {
            let rest = &html[i + attr.len()..];
            let Some(quote) = rest.chars().next().filter(|c| *c == '"' || *c == '\'') else {
                continue;
            };
            let value = &rest[1..];
            let value = &value[..value.find(quote).unwrap_or(value.len())];
            if is_external(value) {
                out.push((i + attr.len() + 1, value));
            }
        }
    }
    out.sort();
    out
}

/// For people: each address, then its places, indented.
pub fn render_human(links: &[ExternalLink]) -> String {
    let mut out = String::new();
    for l in links {
        out.push_str(&l.url);
        out.push('\n');
        for p in &l.places {
            out.push_str(&format!("  {}:{}:{}\n", p.file.display(), p.line, p.column));
        }
    }
    out
}

/// For GitHub Actions: a `::notice` on every place, so the pull request shows each link.
pub fn render_github(links: &[ExternalLink]) -> String {
    let mut out = String::new();
    for l in links {
        for p in &l.places {
            let d = crate::diagnostics::Diagnostic::new("link.external", l.url.clone())
                .in_file(&p.file)
                .at(p.line, p.column);
            let command = crate::diagnostics::render_github(&d);
            out.push_str(&command.replacen("::error ", "::notice ", 1));
            out.push('\n');
        }
    }
    out
}

/// One JSON object per address: `{"url", "places": [{"file", "line", "column"}]}`.
pub fn render_json(links: &[ExternalLink]) -> String {
    let mut out = String::new();
    for l in links {
        out.push_str(&serde_json::to_string(l).expect("serializable"));
        out.push('\n');
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn links_images_and_raw_html_are_found_where_written() {
        let md = "See [a](https://a.test/x) and ![i](http://i.test/i.png).\n\n\
                  <a href=\"https://h.test/\">h</a> [local](/docs) [m](mailto:x@y.z)\n";
        let found: Vec<(String, usize)> = in_markdown(md);
        let urls: Vec<&str> = found.iter().map(|(u, _)| u.as_str()).collect();
        assert_eq!(
            urls,
            ["https://a.test/x", "http://i.test/i.png", "https://h.test/"]
        );
        for (url, at) in &found {
            assert!(md[*at..].starts_with(url.as_str()), "{url} at {at}");
        }
    }
}
