//! Output for readers that are programs (LLM assistants): a Markdown twin of every page
//! (`R/index.md`), `llms.txt` (the llms.txt proposal: the site's areas and sections, one line
//! per page) and `llms-full.txt` (every twin, in menu order).
//!
//! A twin is the page's Markdown as the writer meant it (templates expanded), not its HTML
//! converted back; links are rewritten so that they work from the twin's own address.

use std::path::{Path, PathBuf};

use pulldown_cmark::{Event, HeadingLevel, Parser, Tag};

use crate::markdown::options;

use super::files::DataFile;
use crate::content::Page;
use crate::diagnostics::Diagnostic;
use crate::markdown::{Target, TwinLinks};
use crate::model::{RouteEntry, Site};

pub const LLMS: &str = "llms.txt";
pub const LLMS_FULL: &str = "llms-full.txt";
/// Pages up to which `llms-full.txt` is written. It is made whole in memory, and past a few
/// thousand pages it is tens of megabytes: more than any assistant reads at once, and more
/// memory than a build of 100,000 pages may take. Larger sites offer `llms.txt` and the twins.
pub const FULL_MAX_PAGES: usize = 5_000;

/// Whether the site writes twins and the llms files.
pub fn enabled(site: &Site<'_>) -> bool {
    site.config.site.llms.enabled
}

/// The twin of a route: `/a/b` → `a/b/index.md`, `/` → `index.md`.
pub fn twin_file(route: &str) -> PathBuf {
    let trimmed = route.trim_matches('/');
    if trimmed.is_empty() {
        PathBuf::from("index.md")
    } else {
        Path::new(trimmed).join("index.md")
    }
}

pub use crate::view::page::twin_href;

/// The twin of the page at `route`: its title as a heading, its description, then its body.
pub fn twin(site: &Site<'_>, route: &str, entry: &RouteEntry) -> Result<Vec<u8>, Diagnostic> {
    let page = &site.pages[entry.page];
    let body = crate::content::body_markdown(site.config, page)?;
    // Relative links of a generated page are relative to where it lives (as in its HTML).
    let dir = if page.item.is_some() {
        match page.route.rsplit_once('/') {
            Some((d, _)) if !d.is_empty() => d.to_string(),
            _ => "/".to_string(),
        }
    } else {
        crate::content::dir_route(site.config.content_relative(&page.file))
    };
    // The spans the page's parse found, when they are of this very text (a file edited since
    // it was read is parsed again).
    let found = page.rendered.twin_links.as_ref().filter(|_| {
        page.markdown.is_some() || crate::content::body_source_digest(&body) == page.source_digest
    });
    let (body, has_h1) = rewrite_links(
        &body,
        (route, &dir, &site.config.base_path),
        &page.rendered.files,
        found,
    );
    let mut out = String::with_capacity(body.len() + page.title.len() + 256);
    if !has_h1 {
        out.push_str("# ");
        out.push_str(&one_line(&page.title));
        out.push_str("\n\n");
    }
    if let Some(d) = page.front.description.as_deref().map(one_line)
        && !d.is_empty()
    {
        out.push_str("> ");
        out.push_str(&d);
        out.push_str("\n\n");
    }
    out.push_str(body.trim_matches('\n'));
    out.push('\n');
    Ok(out.into_bytes())
}

fn one_line(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    push_one_line(&mut out, s);
    out
}

/// `s` on one line, its whitespace runs made single spaces, added to `out`.
fn push_one_line(out: &mut String, s: &str) {
    for (n, word) in s.split_whitespace().enumerate() {
        if n > 0 {
            out.push(' ');
        }
        out.push_str(word);
    }
}

/// Whether a line could start or underline an h1 (`# Title`, `===`): a page without one needs
/// no parse to know it has no h1.
fn may_have_h1(markdown: &str) -> bool {
    markdown.lines().any(|line| {
        let t = line.trim_start_matches(' ');
        let atx = t
            .strip_prefix('#')
            .is_some_and(|r| r.is_empty() || r.starts_with([' ', '\t']));
        let setext = !t.trim_end().is_empty() && t.trim_end().bytes().all(|b| b == b'=');
        atx || setext
    })
}

/// Whether a line could end in a heading attribute block (`{#id}`, `{alias=old}`): a page
/// without one needs no parse to know there is none to drop.
fn may_have_heading_attributes(markdown: &str) -> bool {
    markdown.lines().any(|line| line.trim_end().ends_with('}'))
}

/// Links to pages point at their twins, and images and other files at their published
/// addresses (`files`: those the page's HTML points at); heading attribute blocks (`{#id}`,
/// `{.class}`, `{alias=old-id}`) are dropped: they are docgen's syntax, not the reader's text,
/// and the twin's headings need no ids. Everything else stays as written. Also tells whether
/// the body has an h1, from the same parse; a body with no link, no possible h1 and no possible
/// attribute block is not parsed at all.
///
/// `found`: the destinations and h1 the page's own parse found in this text, which spares
/// parsing it again.
fn rewrite_links(
    markdown: &str,
    (route, file_dir, base_path): (&str, &str, &str),
    files: &[crate::markdown::LocalFile],
    found: Option<&TwinLinks>,
) -> (String, bool) {
    let may_link = memchr::memmem::find(markdown.as_bytes(), b"](").is_some()
        || memchr::memmem::find(markdown.as_bytes(), b"]:").is_some();
    if !may_link && !may_have_h1(markdown) && !may_have_heading_attributes(markdown) {
        return (markdown.to_string(), false);
    }
    let parsed;
    let found = match found {
        Some(f) => f,
        None => {
            parsed = parse_links(markdown);
            &parsed
        }
    };
    let mut edits: Vec<(std::ops::Range<usize>, String)> = found
        .attribute_blocks
        .iter()
        .map(|&(start, end)| (start as usize..end as usize, String::new()))
        .collect();
    for &(start, end) in &found.spans {
        let span = start as usize..end as usize;
        let dest_url = &markdown[span.clone()];
        let new = match crate::markdown::links::resolve(dest_url, route, file_dir) {
            Target::Page { route, anchor } => {
                let mut h = twin_href(base_path, &route);
                if let Some(a) = anchor.filter(|a| !a.is_empty()) {
                    h.push('#');
                    h.push_str(&a);
                }
                h
            }
            _ => {
                let split = dest_url.find(['?', '#']).unwrap_or(dest_url.len());
                let (path, suffix) = dest_url.split_at(split);
                let path = crate::markdown::links::percent_decode(path);
                match files.iter().find(|f| f.written == path) {
                    Some(f) => format!("{base_path}/{}{suffix}", f.out_path),
                    None => continue,
                }
            }
        };
        edits.push((span, new));
    }
    edits.sort_by_key(|(r, _)| r.start);
    let mut out = String::with_capacity(markdown.len() + edits.len() * 16);
    let mut at = 0;
    for (r, new) in edits {
        if r.start < at {
            continue;
        }
        out.push_str(&markdown[at..r.start]);
        out.push_str(&new);
        at = r.end;
    }
    out.push_str(&markdown[at..]);
    (out, found.has_h1)
}

/// The destinations of `markdown`'s links and images as written inside them (reference links
/// and escaped destinations are not found there and stay as they are), and whether it has an
/// h1.
fn parse_links(markdown: &str) -> TwinLinks {
    let events: Vec<_> = Parser::new_ext(markdown, options())
        .into_offset_iter()
        .collect();
    let has_h1 = events.iter().any(|(e, _)| {
        matches!(
            e,
            Event::Start(Tag::Heading {
                level: HeadingLevel::H1,
                ..
            })
        )
    });
    let (spans, attribute_blocks) = crate::markdown::twin_spans(&events, markdown);
    TwinLinks {
        spans,
        attribute_blocks,
        has_h1,
    }
}

/// The pages in menu order, each once (its canonical route), with the section it is listed
/// under: its area, or the area's level-1 section that holds it. Pages the menu does not list
/// come last, by route. Sections are numbered as the menu is walked (equal names are one
/// section): the names, then (section, page) pairs.
fn listed(site: &Site<'_>) -> (Vec<String>, Vec<(usize, usize)>) {
    let nodes = &site.nav.nodes;
    let mut seen = vec![false; site.pages.len()];
    let mut names: Vec<String> = Vec::new();
    let mut numbers: rustc_hash::FxHashMap<String, usize> = Default::default();
    let mut number = |name: String, names: &mut Vec<String>| {
        *numbers.entry(name).or_insert_with_key(|name| {
            names.push(name.clone());
            names.len() - 1
        })
    };
    let mut out = Vec::new();
    // (node, the section its parent passes down: none for an area, which starts its own)
    let mut stack: Vec<(usize, Option<usize>)> =
        site.nav.roots.iter().rev().map(|&r| (r, None)).collect();
    while let Some((n, section)) = stack.pop() {
        let node = &nodes[n];
        let area = match section {
            Some(s) => s,
            None => number(node.label.clone(), &mut names),
        };
        let own_section = match (node.level, node.is_group, node.children.is_empty()) {
            (1, false, false) => number(format!("{}: {}", names[area], node.label), &mut names),
            _ => area,
        };
        if let Some(page) = node.page.filter(|_| node.is_page && !node.is_group)
            && !seen[page]
            && site.pages[page].is_page
            && site.routes.contains_key(site.pages[page].route.as_str())
        {
            seen[page] = true;
            out.push((own_section, page));
        }
        let child_section = if node.level == 0 { area } else { own_section };
        for &c in node.children.iter().rev() {
            stack.push((c, Some(child_section)));
        }
    }
    let mut rest: Vec<usize> = (0..site.pages.len())
        .filter(|&i| {
            !seen[i] && site.pages[i].is_page && site.routes.contains_key(&site.pages[i].route)
        })
        .collect();
    rest.sort_by(|a, b| site.pages[*a].route.cmp(&site.pages[*b].route));
    if !rest.is_empty() {
        let other = number("Other pages".to_string(), &mut names);
        out.extend(rest.into_iter().map(|i| (other, i)));
    }
    (names, out)
}

/// `llms.txt`: `# title`, `> summary`, then one `## section` per area or menu section with a
/// line per page: `- [Title](twin): description`.
fn llms_txt(site: &Site<'_>) -> String {
    Index::of(site).text()
}

/// `llms.txt` by its parts: its head, then each section's heading and pages, each page's line
/// kept apart, so that the preview server, after an edit of page bodies, makes only the
/// edited pages' lines again (the sections and the pages in them follow the menu, which such
/// an edit leaves as it was).
#[derive(Debug)]
pub(super) struct Index {
    head: String,
    /// Each section's heading, with the pages listed under it.
    sections: Vec<(String, Vec<usize>)>,
    /// By page number: the page's line, if it is listed.
    lines: Vec<Option<String>>,
    home: Option<usize>,
}

impl Index {
    pub(super) fn of(site: &Site<'_>) -> Index {
        let home = site.routes.get(site.config.home()).map(|e| e.page);
        // One heading per section, in the order sections first appear in the menu.
        let (names, pages) = listed(site);
        let mut members: Vec<Vec<usize>> = vec![Vec::new(); names.len()];
        let mut order = Vec::new();
        let mut lines = vec![None; site.pages.len()];
        for (section, i) in pages {
            if members[section].is_empty() {
                order.push(section);
            }
            members[section].push(i);
            lines[i] = Some(line(site, &site.pages[i]));
        }
        let sections = order
            .into_iter()
            .map(|section| {
                let mut heading = String::from("\n## ");
                push_one_line(&mut heading, &names[section]);
                heading.push_str("\n\n");
                (heading, std::mem::take(&mut members[section]))
            })
            .collect();
        Index {
            head: head(site, home.map(|i| &*site.pages[i])),
            sections,
            lines,
            home,
        }
    }

    /// Makes page `i`'s parts again as the page now is; whether the text changed.
    pub(super) fn update(&mut self, site: &Site<'_>, i: usize) -> bool {
        let mut changed = false;
        if self.home == Some(i) {
            let head = head(site, Some(&site.pages[i]));
            changed |= head != self.head;
            self.head = head;
        }
        if let Some(slot) = self.lines.get_mut(i).filter(|l| l.is_some()) {
            let new = line(site, &site.pages[i]);
            changed |= slot.as_deref() != Some(new.as_str());
            *slot = Some(new);
        }
        changed
    }

    pub(super) fn text(&self) -> String {
        let size = self.head.len()
            + self.sections.iter().map(|(h, _)| h.len()).sum::<usize>()
            + self.lines.iter().flatten().map(String::len).sum::<usize>();
        let mut out = String::with_capacity(size);
        out.push_str(&self.head);
        for (heading, pages) in &self.sections {
            out.push_str(heading);
            for &i in pages {
                out.push_str(self.lines[i].as_deref().unwrap_or_default());
            }
        }
        out
    }
}

/// `# title`, `> summary` (the home page's description) and where the twins are.
fn head(site: &Site<'_>, home: Option<&Page>) -> String {
    let config = site.config;
    let title = config.site.title.as_deref().unwrap_or("Documentation");
    let mut out = format!("# {}\n\n", one_line(title));
    let summary = home
        .and_then(description)
        .unwrap_or_else(|| format!("The documentation of {}", one_line(title)));
    out.push_str(&format!("> {summary}\n\n"));
    out.push_str(&format!(
        "Every page is also available as Markdown at its address followed by `index.md`; \
         {} holds all of them in one file.\n",
        url(site, "/llms-full.txt")
    ));
    out
}

/// `- [Title](twin): description`
fn line(site: &Site<'_>, page: &Page) -> String {
    let mut out = String::with_capacity(page.title.len() + page.route.len() + 200);
    out.push_str("- [");
    escape_text_into(&mut out, &one_line(&page.title));
    out.push_str("](");
    out.push_str(&site.config.origin);
    out.push_str(&twin_href(&site.config.base_path, &page.route));
    out.push(')');
    if let Some(d) = description(page) {
        out.push_str(": ");
        out.push_str(&d);
    }
    out.push('\n');
    out
}

/// `[`, `]` and `\` in a link text.
fn escape_text_into(out: &mut String, s: &str) {
    for c in s.chars() {
        if matches!(c, '[' | ']' | '\\') {
            out.push('\\');
        }
        out.push(c);
    }
}

/// The front matter's description, else the start of the first paragraph.
fn description(page: &Page) -> Option<String> {
    let d = match page.front.description.as_deref() {
        Some(d) => one_line(d),
        None => page.excerpt.as_deref()?.to_string(),
    };
    (!d.is_empty()).then_some(d)
}

/// An address of the site: absolute with the site's URL, else a path with the base path.
fn url(site: &Site<'_>, path: &str) -> String {
    format!("{}{}{path}", site.config.origin, site.config.base_path)
}

/// `llms-full.txt`: every listed page's twin, in the order of `llms.txt`, each once.
fn llms_full(site: &Site<'_>) -> Vec<u8> {
    let mut out = Vec::new();
    for (n, (_, i)) in listed(site).1.into_iter().enumerate() {
        let route = site.pages[i].route.as_str();
        let Some(entry) = site.routes.get(route) else {
            continue;
        };
        // A page that cannot be read is reported where its twin is written.
        let Ok(twin) = twin(site, route, entry) else {
            continue;
        };
        if n > 0 {
            out.extend_from_slice(b"\n---\n\n");
        }
        out.extend_from_slice(format!("<!-- {} -->\n\n", url(site, route)).as_bytes());
        out.extend_from_slice(&twin);
    }
    out
}

/// `llms.txt` and `llms-full.txt`, made when written.
pub(super) fn files<'r>(site: &'r Site<'_>) -> Vec<DataFile<'r>> {
    if !enabled(site) {
        return Vec::new();
    }
    let mut files = vec![DataFile::later(LLMS, move || llms_txt(site).into_bytes())];
    let pages = site.routes.values().filter(|e| e.canonical).count();
    if pages <= FULL_MAX_PAGES {
        files.push(DataFile::later(LLMS_FULL, move || llms_full(site)));
    }
    files
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn twins_sit_beside_their_pages() {
        assert_eq!(twin_file("/"), PathBuf::from("index.md"));
        assert_eq!(twin_file("/a/b"), PathBuf::from("a/b/index.md"));
        assert_eq!(twin_href("", "/"), "/index.md");
        assert_eq!(twin_href("/docs", "/a"), "/docs/a/index.md");
    }

    #[test]
    fn links_lead_to_twins_and_files_stay_found() {
        let md = "See [b](b.md#x), [c](/a/c), [w](https://x.test/) and ![i](img/i.png).\n";
        let files = [crate::markdown::LocalFile {
            written: "img/i.png".into(),
            source: PathBuf::from("/site/content/a/img/i.png"),
            out_path: "s/a/img/i.0123456789.png".into(),
            from_content: true,
            size: None,
        }];
        assert_eq!(
            rewrite_links(md, ("/a/p", "/a", "/base"), &files, None),
            (
                "See [b](/base/a/b/index.md#x), [c](/base/a/c/index.md), [w](https://x.test/) \
                 and ![i](/base/s/a/img/i.0123456789.png).\n"
                    .to_string(),
                false
            )
        );
    }

    #[test]
    fn the_page_parse_gives_the_twin_what_its_own_parse_would() {
        let md = "# Title\n\nSee [b](b.md#x), [r][ref], ![i](img/i.png) and `[x](y.md)`.\n\n\
                  | a | [t](t.md) |\n|---|---|\n| 1 | 2 |\n\n[ref]: c.md\n";
        let rendered = crate::markdown::render(
            md,
            &crate::markdown::PageContext {
                title: "Title",
                route: "/a/p",
                file_dir: "/a",
                base_path: "",
                features: &[],
                allowed_schemes: &[],
                files: None,
                anchors: crate::config::site::AnchorRule::Literal,
                math: true,
                math_brackets: false,
                line_numbers: false,
                mdx: false,
                locale_prefix: "",
                locale_prefixes: &[],
            },
        );
        let found = rendered.twin_links.expect("the body was parsed as written");
        assert_eq!(found, parse_links(md));
        assert_eq!(
            found.spans.len(),
            3,
            "the reference's destination is not inside its link"
        );
        assert_eq!(
            rewrite_links(md, ("/a/p", "/a", ""), &[], Some(&found)),
            rewrite_links(md, ("/a/p", "/a", ""), &[], None)
        );
    }

    #[test]
    fn heading_attributes_stay_out_of_twins() {
        let md = "## Why {#why}\n\n### How [it](/a/b) works {alias=old-how}\n\nSetext {#s .c}\n---\n\n\
                  # Title { #t }\n\nA {brace} in text {stays}\n\n## Code {x}\n\n```\n## {#kept}\n```\n";
        let (out, has_h1) = rewrite_links(md, ("/p", "/", ""), &[], None);
        assert!(has_h1);
        assert_eq!(
            out,
            "## Why\n\n### How [it](/a/b/index.md) works\n\nSetext\n---\n\n# Title\n\n\
             A {brace} in text {stays}\n\n## Code {x}\n\n```\n## {#kept}\n```\n"
        );
    }

    #[test]
    fn an_h1_is_found_in_the_same_pass_or_known_absent_without_one() {
        assert!(rewrite_links("# Title\n\ntext\n", ("/p", "/", ""), &[], None).1);
        assert!(rewrite_links("Title\n=====\n\n[a](/b)\n", ("/p", "/", ""), &[], None).1);
        assert!(
            !rewrite_links(
                "## Two\n\n```\n# not a heading\n```\n",
                ("/p", "/", ""),
                &[],
                None
            )
            .1
        );
        assert!(!may_have_h1("## Two\ntext #hash\n"));
        assert_eq!(
            rewrite_links("Plain text.\n", ("/p", "/", ""), &[], None),
            ("Plain text.\n".to_string(), false)
        );
    }
}
