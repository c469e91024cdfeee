//! Markdown to HTML for one page: CommonMark + GFM, heading anchors, build-time highlighting,
//! code groups, admonitions, pageable tables, and links resolved to routes and recorded for
//! the link checker.

pub mod anchors;
mod codemeta;
mod containers;
pub mod highlight;
pub mod links;
mod math;
mod mdx;
pub mod rawhtml;
mod table_shape;
mod tables;
mod tabs;

use std::fmt::Write as _;

use pulldown_cmark::{
    BlockQuoteKind, CodeBlockKind, CowStr, Event, HeadingLevel, LinkType, Options, Parser, Tag,
    TagEnd,
};

use anchors::{AnchorRule, UniqueIds, anchor};
use containers::Marker;
use highlight::escape_into;
pub use links::Target;
use serde::{Deserialize, Serialize};
// The link schemes refused unless the site allows them by name (`allowLinkSchemes`).
use rawhtml::UNSAFE_SCHEMES;

/// A heading of the page, an entry of its table of contents.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Heading {
    pub level: u8,
    pub text: String,
    pub id: String,
}

/// A link to somewhere in the site, kept for the checker.
#[derive(Debug, Clone, Hash, Serialize, Deserialize)]
pub struct Link {
    pub target: Target,
    /// As written by the writer.
    pub written: String,
    /// 1-based line within the Markdown body.
    pub line: usize,
}

/// The result of rendering one page body.
#[derive(Debug, Default)]
pub struct Rendered {
    pub html: String,
    /// h1-h3, in document order.
    pub headings: Vec<Heading>,
    /// Every element id in the content (headings, explicit ids in raw HTML, footnotes).
    pub ids: rustc_hash::FxHashSet<String>,
    pub links: Vec<Link>,
    /// Mistakes found while rendering (a repeated explicit id, an unsafe link): the page fails.
    pub problems: Vec<Problem>,
    /// What was not rendered as the writer may expect (syntax docgen does not know): the page
    /// is written and the writer is told.
    pub warnings: Vec<Problem>,
    /// The files of the site the body refers to (images, downloads), each once per spelling.
    pub files: Vec<LocalFile>,
    /// The text of each inline script the body's raw HTML runs, for the hashes of the
    /// Content-Security-Policy.
    pub inline_scripts: Vec<String>,
    /// What the page's Markdown twin rewrites, found by this parse when it read the body as
    /// written (none when the body was rewritten first: the twin parses it itself).
    pub twin_links: Option<TwinLinks>,
}

/// Where the destinations of a body's links and images stand in its Markdown, as written
/// (byte ranges; a destination not written inside its link, as a reference's, is not listed),
/// and whether the body has an h1.
#[derive(Debug, Clone, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct TwinLinks {
    pub spans: Vec<(u32, u32)>,
    /// Headings' attribute blocks (`{#id}`, `{alias=old}`): docgen's syntax, which a twin drops.
    pub attribute_blocks: Vec<(u32, u32)>,
    pub has_h1: bool,
}

/// A file of the site a page refers to that is not a page: an image or a download, published
/// under a name carrying a digest of its bytes.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct LocalFile {
    /// The path as written in the page (decoded, without `#fragment` or `?query`).
    pub written: String,
    /// The file read, resolved (links followed).
    pub source: std::path::PathBuf,
    /// Where it is published inside the output folder, e.g. `s/guide/diagram.3f2a9c1b07.png`.
    pub out_path: String,
    /// Whether it lies under `content/` (published because a page refers to it), rather than
    /// `static/` (published whole anyway).
    pub from_content: bool,
    /// Width and height of an image, in CSS pixels, when they can be read from the file.
    pub size: Option<(u32, u32)>,
}

/// Why a written path does not lead to a file that can be published.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct FileProblem {
    #[serde(with = "static_code")]
    pub code: Code,
    pub message: String,
    pub hint: String,
}

/// Finds the files a page refers to. `Ok(None)`: a file docgen itself writes (such as
/// `/sitemap.xml`), left as written.
pub trait FileResolver {
    fn find(&self, path: &str) -> Result<Option<LocalFile>, FileProblem>;

    /// Whether a relative link to a Markdown file names no file beside the page but one at the
    /// top of the content folder (Docusaurus reads such links from there too).
    fn page_at_content_root(&self, _path: &str) -> bool {
        false
    }
}

/// A mistake in the Markdown body, at a 1-based line and column of the body.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Problem {
    #[serde(with = "static_code")]
    pub code: Code,
    pub message: String,
    pub hint: String,
    pub line: usize,
    pub column: usize,
}

/// The unsafe scheme of a link destination as a browser would read it (case-insensitive,
/// ignoring the whitespace and control characters browsers strip).
pub fn unsafe_scheme(dest: &str) -> Option<&'static str> {
    let cleaned: String = dest
        .chars()
        .filter(|c| !c.is_whitespace() && !c.is_control())
        .take(16)
        .collect::<String>()
        .to_ascii_lowercase();
    UNSAFE_SCHEMES.into_iter().find(|s| {
        cleaned
            .strip_prefix(s)
            .is_some_and(|rest| rest.starts_with(':'))
    })
}

/// Where the page sits, for resolving relative links.
pub struct PageContext<'a> {
    pub title: &'a str,
    pub route: &'a str,
    /// The route-like path of the folder holding the source file.
    pub file_dir: &'a str,
    /// Prefix for every internal href (the site's base path, usually empty).
    pub base_path: &'a str,
    /// Enabled feature flags: raw HTML gated by one of them is marked as allowed, so the app
    /// shows it without a layout shift.
    pub features: &'a [String],
    /// Unsafe link schemes the site allows anyway (see `UNSAFE_SCHEMES`).
    pub allowed_schemes: &'a [String],
    /// Resolves images and links to files; without one they are left as written.
    pub files: Option<&'a dyn FileResolver>,
    /// How heading texts become ids (`markdown.anchors` in site.yaml).
    pub anchors: AnchorRule,
    /// `$…$` and `$$…$$` are math (site option `markdown.math`).
    pub math: bool,
    /// mdBook's `\\(…\\)` and `\\[…\\]` are math too (`markdown.mathBrackets`).
    pub math_brackets: bool,
    /// Every code box numbers its lines (`markdown.lineNumbers`).
    pub line_numbers: bool,
    /// The body comes from an `.mdx` file: imports, exports and `{/* */}` comments are not
    /// shown, and components docgen does not render are reported.
    pub mdx: bool,
    /// The route prefix of the page's locale (`/zh`; "" for the default): a link to a page
    /// leads to that page in the same locale.
    pub locale_prefix: &'a str,
    /// The prefixes of all the site's other locales: a link already under one is kept.
    pub locale_prefixes: &'a [String],
}

/// A problem's code. Named, so serde reads it through `static_code` rather than borrowing it
/// from the bytes it reads.
pub type Code = &'static str;

/// A problem's code, read back from a previous build's renders (`content::render_cache`): the
/// few codes there are each live once for the rest of the run.
mod static_code {
    use std::collections::HashSet;
    use std::sync::Mutex;

    use serde::{Deserialize, Deserializer, Serializer};

    pub fn serialize<S: Serializer>(code: &&'static str, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(code)
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<&'static str, D::Error> {
        static CODES: Mutex<Option<HashSet<&'static str>>> = Mutex::new(None);
        let code = <std::borrow::Cow<'de, str>>::deserialize(d)?;
        let mut codes = CODES.lock().expect("not poisoned");
        let codes = codes.get_or_insert_with(HashSet::new);
        Ok(match codes.get(&*code) {
            Some(known) => known,
            None => {
                let interned: &'static str = Box::leak(code.into_owned().into_boxed_str());
                codes.insert(interned);
                interned
            }
        })
    }
}

pub(crate) fn options() -> Options {
    Options::ENABLE_TABLES
        | Options::ENABLE_FOOTNOTES
        | Options::ENABLE_STRIKETHROUGH
        | Options::ENABLE_TASKLISTS
        | Options::ENABLE_HEADING_ATTRIBUTES
        | Options::ENABLE_GFM
        | Options::ENABLE_DEFINITION_LIST
}

/// One code snippet of a code box.
struct Snippet {
    lang: String,
    label: String,
    /// The label is a file name (`title="app.js"` on a single box).
    file: bool,
    html: String,
}

/// An open `<Tabs>`.
enum TabSet {
    /// Every tab holds one code block: a code box with tabs.
    Code,
    /// A tab set of prose: `n` its number on the page, `next` its next panel.
    Prose { n: usize, next: usize },
}

/// The table being written: how it is drawn and which cell comes next.
struct OpenTable {
    shape: table_shape::Shape,
    alignments: Vec<pulldown_cmark::Alignment>,
    head: bool,
    column: usize,
}

/// A byte range of a page's Markdown, `(start, end)`.
pub(crate) type Span = (u32, u32);

/// What a page's Markdown twin rewrites, found in a parse of `markdown` as written: where the
/// destination of each link and image is written inside it, and where each heading's attribute
/// block (`{#id}`, `{alias=old}`) stands (see `TwinLinks`).
pub(crate) fn twin_spans(
    events: &[(Event<'_>, std::ops::Range<usize>)],
    markdown: &str,
) -> (Vec<Span>, Vec<Span>) {
    let mut destinations = Vec::new();
    let mut attribute_blocks = Vec::new();
    for (event, range) in events {
        match event {
            Event::Start(Tag::Link { dest_url, .. } | Tag::Image { dest_url, .. }) => {
                if let Some(at) = markdown[range.clone()].rfind(&**dest_url) {
                    let start = range.start + at;
                    destinations.push((start as u32, (start + dest_url.len()) as u32));
                }
            }
            Event::Start(Tag::Heading {
                id, classes, attrs, ..
            }) if id.is_some() || !classes.is_empty() || !attrs.is_empty() => {
                if let Some(block) = heading_attribute_block(&markdown[range.clone()], range.start)
                {
                    attribute_blocks.push((block.start as u32, block.end as u32));
                }
            }
            _ => {}
        }
    }
    (destinations, attribute_blocks)
}

/// Where the attribute block of a heading sits in its source (`text` starts at `start`): at the
/// end of its last text line (the only line of an ATX heading, the line above a setext
/// underline), with the spaces before it, so that dropping it leaves the heading's text.
fn heading_attribute_block(text: &str, start: usize) -> Option<std::ops::Range<usize>> {
    let mut offset = 0;
    let mut last = None;
    for line in text.split_inclusive('\n') {
        let t = line.trim();
        let underline =
            !t.is_empty() && (t.bytes().all(|b| b == b'=') || t.bytes().all(|b| b == b'-'));
        if !t.is_empty() && !underline {
            last = Some((offset, line));
        }
        offset += line.len();
    }
    let (at, line) = last?;
    let body = line.trim_end();
    if !body.ends_with('}') {
        return None;
    }
    let open = body.rfind('{')?;
    let from = body[..open].trim_end().len();
    Some(start + at + from..start + at + body.len())
}

/// Renders `markdown` (a page body) to HTML.
pub fn render(source: &str, ctx: &PageContext<'_>) -> Rendered {
    let prepared = containers::prepare(source, ctx.mdx);
    let markers = &prepared.markers;
    // Placeholders take the lines of their markers, so lines and columns are the writer's.
    let (limited, table_warnings) = tables::limit(&prepared.text);
    let markdown: &str = limited.as_deref().unwrap_or(&prepared.text);
    let line_starts: Vec<usize> = std::iter::once(0)
        .chain(markdown.match_indices('\n').map(|(i, _)| i + 1))
        .collect();
    let line_of = |offset: usize| line_starts.partition_point(|&s| s <= offset);
    let column_of = |offset: usize| {
        let start = line_starts[line_of(offset) - 1];
        markdown[start..offset.min(markdown.len())].chars().count() + 1
    };

    let mut opts = options();
    if ctx.math {
        opts |= Options::ENABLE_MATH;
    }
    let parser = Parser::new_ext(markdown, opts).into_offset_iter();
    // Where each reference definition (`[label]: /route`) is written: a reference-style
    // link is reported at its definition, the line that holds its target.
    let definitions: Vec<(String, usize)> =
        if memchr::memmem::find(markdown.as_bytes(), b"]:").is_some() {
            let defs = parser.reference_definitions().iter();
            defs.map(|(label, def)| (reference_label(label), def.span.start))
                .collect()
        } else {
            Vec::new()
        };
    let definition_at = |label: &str| {
        let label = reference_label(label);
        definitions
            .iter()
            .find(|(l, _)| *l == label)
            .map(|(_, at)| *at)
    };
    // Room for an event per 12 bytes of Markdown first, so that collecting seldom moves it.
    let mut events: Vec<(Event<'_>, std::ops::Range<usize>)> =
        Vec::with_capacity(markdown.len() / 12 + 16);
    events.extend(parser);
    // The twin reads the body as written, without math: this parse is its parse when the body
    // was not rewritten and holds no `$` that math would read.
    let twin_spans = (matches!(prepared.text, std::borrow::Cow::Borrowed(_))
        && limited.is_none()
        && (!ctx.math || memchr::memchr(b'$', markdown.as_bytes()).is_none()))
    .then(|| twin_spans(&events, markdown));
    if ctx.math_brackets && math::may_have_brackets(markdown) {
        events = math::brackets(events);
    }
    let has_h1 = events.iter().any(|(e, _)| {
        matches!(
            e,
            Event::Start(Tag::Heading {
                level: HeadingLevel::H1,
                ..
            })
        )
    });

    let mut r = Rendered {
        warnings: prepared.warnings.clone(),
        ..Rendered::default()
    };
    r.warnings.extend(table_warnings);
    r.twin_links = twin_spans.map(|(spans, attribute_blocks)| TwinLinks {
        spans,
        attribute_blocks,
        has_h1,
    });
    let mut ids = UniqueIds::default();
    let mut out: Vec<Event<'_>> = Vec::with_capacity(events.len() + 16);
    let mut code_boxes = 0usize;
    let mut tab_boxes = 0usize;

    if !has_h1 && !ctx.title.is_empty() {
        let id = ids.claim(anchor(ctx.title, ctx.anchors));
        let mut h = String::new();
        heading_open(&mut h, 1, &id);
        escape_into(&mut h, ctx.title);
        heading_close(&mut h, 1, &id, ctx.title);
        out.push(Event::Html(h.into()));
        r.headings.push(Heading {
            level: 1,
            text: ctx.title.to_string(),
            id: id.clone(),
        });
        r.ids.insert(id);
    }

    let raw_html = raw_html_of(&events, markdown);
    // Links may target the fragments the raw HTML declares too; read from all of it joined,
    // as a tag may be written over several lines.
    r.ids.extend(rawhtml::fragment_ids(&raw_html.text));
    for found in rawhtml::scan(&raw_html.text, ctx.allowed_schemes) {
        let mut offset = raw_html.source_offset(found.at).min(markdown.len());
        while !markdown.is_char_boundary(offset) {
            offset -= 1;
        }
        let (line, column) = (line_of(offset), column_of(offset));
        let (problem, warning) = raw_html_problem(found.issue, line, column);
        r.problems.extend(problem);
        r.warnings.extend(warning);
    }

    let mut group: Option<Vec<Snippet>> = None;
    // Unknown code languages already warned about on this page, lower-cased.
    let mut unknown_langs: Vec<String> = Vec::new();
    // Open tab sets, innermost last; a code-only one collects its snippets in `group`.
    let mut tab_sets: Vec<TabSet> = Vec::new();
    let mut tab_label: Option<String> = None;
    let mut quotes: Vec<bool> = Vec::new();
    // Images so far: the first of a page is above the fold and loads at once.
    let mut images = 0usize;
    // The text of the latest heading (the title before any), naming the tables below it.
    let mut last_heading: Option<String> = (!ctx.title.is_empty()).then(|| ctx.title.to_string());
    let mut table_labels: Vec<String> = Vec::new();
    let mut table: Option<OpenTable> = None;
    let mut i = 0;
    while i < events.len() {
        let (event, range) = &events[i];
        match event {
            Event::Start(Tag::Heading {
                level, id, attrs, ..
            }) => {
                let level = *level as u8;
                let explicit = id.clone();
                // `{alias=old-id}`: a second anchor target, so links written against an
                // earlier id of the heading keep landing.
                let mut aliases: Vec<String> = Vec::new();
                for (key, value) in attrs {
                    let problem = match (key.as_ref(), value.as_deref()) {
                        ("alias", Some(v)) if !v.trim().is_empty() => {
                            aliases.push(v.trim().to_string());
                            None
                        }
                        ("alias", _) => Some((
                            "markdown.alias-without-id",
                            "the heading attribute `alias` has no id".to_string(),
                            "write the earlier id after it: `{alias=old-id}`".to_string(),
                        )),
                        (other, _) => Some((
                            "markdown.unknown-heading-attribute",
                            format!("the heading attribute `{other}` is not known"),
                            "headings take `{#id}` for their id and `{alias=old-id}` for a second anchor target".to_string(),
                        )),
                    };
                    if let Some((code, message, hint)) = problem {
                        r.problems.push(Problem {
                            code,
                            message,
                            hint,
                            line: line_of(range.start),
                            column: column_of(range.start),
                        });
                    }
                }
                let mut inner = Vec::new();
                let mut text = String::new();
                i += 1;
                while i < events.len() {
                    match &events[i].0 {
                        Event::End(TagEnd::Heading(_)) => break,
                        Event::Text(t) | Event::Code(t) => text.push_str(t),
                        _ => {}
                    }
                    inner.push(events[i].0.clone());
                    i += 1;
                }
                let duplicate = |message: String, hint: &str| Problem {
                    code: "markdown.duplicate-id",
                    message,
                    hint: hint.into(),
                    line: line_of(range.start),
                    column: column_of(range.start),
                };
                if let Some(own) = explicit.as_deref()
                    && ids.is_taken(own)
                {
                    r.problems.push(duplicate(
                        format!("the id `{own}` is already used on this page"),
                        "give this heading an id of its own: links to the id would reach the other element",
                    ));
                }
                let wanted = explicit
                    .map(|s| s.to_string())
                    .unwrap_or_else(|| anchor(&text, ctx.anchors));
                let id = ids.claim(wanted);
                let mut open = String::new();
                heading_open(&mut open, level, &id);
                for alias in aliases {
                    if alias == id {
                        continue;
                    }
                    if ids.is_taken(&alias) {
                        r.problems.push(duplicate(
                            format!("the alias `{alias}` is already used on this page"),
                            "give the alias an id no other element of the page has",
                        ));
                        continue;
                    }
                    let alias = ids.claim(alias);
                    open.push_str("<span class=\"dg-anchor-alias\" id=\"");
                    escape_into(&mut open, &alias);
                    open.push_str("\"></span>");
                    r.ids.insert(alias);
                }
                out.push(Event::Html(open.into()));
                out.extend(inner);
                let mut close = String::new();
                heading_close(&mut close, level, &id, text.trim());
                out.push(Event::Html(close.into()));
                if level <= 3 {
                    r.headings.push(Heading {
                        level,
                        text: text.trim().to_string(),
                        id: id.clone(),
                    });
                }
                last_heading = Some(text.trim().to_string());
                r.ids.insert(id);
            }
            Event::Html(html) if let Some(index) = tabs::marker_index(html) => {
                match markers.get(index) {
                    Some(Marker::Admonition { class, title }) => {
                        let mut h = format!(
                            "<div class=\"dg-admonition dg-admonition-{class}\" role=\"note\"><p class=\"dg-admonition-title\">"
                        );
                        escape_into(&mut h, title);
                        h.push_str("</p>\n");
                        out.push(Event::Html(h.into()));
                    }
                    Some(Marker::AdmonitionEnd) => out.push(Event::Html("</div>\n".into())),
                    Some(Marker::CodeGroup) if group.is_none() => group = Some(Vec::new()),
                    Some(Marker::CodeGroupEnd) => {
                        if let Some(snippets) = group.take().filter(|s| !s.is_empty()) {
                            out.push(Event::Html(code_box(&snippets, &mut code_boxes).into()));
                        }
                    }
                    Some(Marker::Tabs { labels, end }) => {
                        if group.is_none() && tabs::holds_only_code(&events[i + 1..], markers, *end)
                        {
                            group = Some(Vec::new());
                            tab_sets.push(TabSet::Code);
                        } else {
                            let n = tab_boxes;
                            tab_boxes += 1;
                            out.push(Event::Html(tabs::open(n, labels).into()));
                            tab_sets.push(TabSet::Prose { n, next: 0 });
                        }
                    }
                    Some(Marker::TabItem { label }) => match tab_sets.last_mut() {
                        Some(TabSet::Code) => tab_label = Some(label.clone()),
                        Some(TabSet::Prose { n, next }) => {
                            out.push(Event::Html(tabs::panel(*n, *next, label).into()));
                            *next += 1;
                        }
                        // A tab outside any tab set shows its content as it is.
                        None => {}
                    },
                    Some(Marker::TabItemEnd) => {
                        if let Some(TabSet::Prose { .. }) = tab_sets.last() {
                            out.push(Event::Html("</div>\n".into()));
                        }
                    }
                    Some(Marker::TabsEnd) => match tab_sets.pop() {
                        Some(TabSet::Code) => {
                            if let Some(snippets) = group.take().filter(|s| !s.is_empty()) {
                                out.push(Event::Html(code_box(&snippets, &mut code_boxes).into()));
                            }
                        }
                        Some(TabSet::Prose { .. }) => out.push(Event::Html("</div>\n".into())),
                        None => {}
                    },
                    Some(Marker::CodeBlock { info, code, line }) => {
                        let mut block = CodeBlock {
                            ctx,
                            r: &mut r,
                            unknown_langs: &mut unknown_langs,
                        };
                        let snippet = block.snippet(
                            info,
                            code,
                            tab_label.take(),
                            group.is_some(),
                            (*line, 1),
                        );
                        match group.as_mut() {
                            Some(g) => g.push(snippet),
                            None => {
                                out.push(Event::Html(code_box(&[snippet], &mut code_boxes).into()))
                            }
                        }
                    }
                    // A code group inside a code group, or a marker already reported.
                    Some(Marker::CodeGroup | Marker::Dropped) | None => {}
                }
            }
            Event::Start(Tag::CodeBlock(kind)) => {
                let info = match kind {
                    CodeBlockKind::Fenced(info) => info.as_ref(),
                    CodeBlockKind::Indented => "",
                };
                let mut code = String::new();
                i += 1;
                while i < events.len() {
                    match &events[i].0 {
                        Event::End(TagEnd::CodeBlock) => break,
                        Event::Text(t) => code.push_str(t),
                        _ => {}
                    }
                    i += 1;
                }
                let at = (line_of(range.start), column_of(range.start));
                let mut block = CodeBlock {
                    ctx,
                    r: &mut r,
                    unknown_langs: &mut unknown_langs,
                };
                let snippet = block.snippet(info, &code, tab_label.take(), group.is_some(), at);
                match group.as_mut() {
                    Some(g) => g.push(snippet),
                    None => out.push(Event::Html(code_box(&[snippet], &mut code_boxes).into())),
                }
            }
            Event::InlineMath(latex) | Event::DisplayMath(latex) => {
                let display = matches!(event, Event::DisplayMath(_));
                let html = match math::to_mathml(latex, display) {
                    Ok(mathml) => mathml,
                    Err(why) => {
                        r.warnings.push(Problem {
                            code: "markdown.math",
                            message: format!("this formula cannot be rendered: {why}"),
                            hint: "fix the LaTeX; the formula shows as code until then".into(),
                            line: line_of(range.start),
                            column: column_of(range.start),
                        });
                        math::as_code(latex, display)
                    }
                };
                out.push(Event::InlineHtml(html.into()));
            }
            Event::Start(Tag::BlockQuote(kind)) => {
                quotes.push(kind.is_some());
                match kind {
                    Some(k) => {
                        let (class, title) = admonition(*k);
                        out.push(Event::Html(
                            format!("<div class=\"dg-admonition dg-admonition-{class}\" role=\"note\"><p class=\"dg-admonition-title\">{title}</p>\n").into(),
                        ));
                    }
                    None => out.push(event.clone()),
                }
            }
            Event::End(TagEnd::BlockQuote(_)) => {
                if quotes.pop() == Some(true) {
                    out.push(Event::Html("</div>\n".into()));
                } else {
                    out.push(event.clone());
                }
            }
            Event::Start(Tag::Table(alignments)) => {
                let end = events[i..]
                    .iter()
                    .position(|(e, _)| matches!(e, Event::End(TagEnd::Table)))
                    .map_or(events.len(), |n| i + n + 1);
                let shape = table_shape::shape(&events[i..end]);
                let line = line_of(range.start);
                for (column, _) in shape.empty.iter().enumerate().filter(|(_, e)| **e) {
                    r.warnings.push(Problem {
                        code: "table.empty-column",
                        message: table_shape::empty_column_message(&shape, column),
                        hint: "fill the column in, or remove it from the table".into(),
                        line,
                        column: column_of(range.start),
                    });
                }
                let label = table_shape::region_label(
                    last_heading.as_deref(),
                    table_labels.len() + 1,
                    &mut table_labels,
                );
                out.push(Event::Html(table_shape::open(&shape, &label).into()));
                table = Some(OpenTable {
                    shape,
                    alignments: alignments.to_vec(),
                    head: false,
                    column: 0,
                });
            }
            Event::End(TagEnd::Table) => {
                table = None;
                out.push(Event::Html("</tbody></table>\n</div>\n".into()));
            }
            Event::Start(Tag::TableHead) if let Some(t) = table.as_mut() => {
                t.head = true;
                t.column = 0;
                out.push(Event::Html("<thead><tr>".into()));
            }
            Event::End(TagEnd::TableHead) if let Some(t) = table.as_mut() => {
                t.head = false;
                out.push(Event::Html("</tr></thead><tbody>\n".into()));
            }
            Event::Start(Tag::TableRow) if let Some(t) = table.as_mut() => {
                t.column = 0;
                out.push(Event::Html("<tr>".into()));
            }
            Event::End(TagEnd::TableRow) if table.is_some() => {
                out.push(Event::Html("</tr>\n".into()));
            }
            Event::Start(Tag::TableCell) if let Some(t) = table.as_mut() => {
                if t.shape.empty.get(t.column).copied().unwrap_or(false) {
                    // A column not drawn: its cells (only the header holds anything) are skipped.
                    while i < events.len() && !matches!(events[i].0, Event::End(TagEnd::TableCell))
                    {
                        i += 1;
                    }
                    t.column += 1;
                } else {
                    let open = table_shape::cell_open(&t.shape, &t.alignments, t.column, t.head);
                    out.push(Event::Html(open.into()));
                }
            }
            Event::End(TagEnd::TableCell) if let Some(t) = table.as_mut() => {
                out.push(Event::Html(if t.head { "</th>" } else { "</td>" }.into()));
                t.column += 1;
            }
            Event::Code(text) if table.is_some() => {
                out.push(Event::InlineHtml(table_shape::code(text).into()));
            }
            Event::Text(text) if table.is_some() => match table_shape::text(text) {
                Some(html) => out.push(Event::InlineHtml(html.into())),
                None => out.push(event.clone()),
            },
            Event::Start(Tag::Link {
                link_type,
                dest_url,
                title,
                id,
            }) => {
                if let Some(scheme) = unsafe_scheme(dest_url)
                    && !ctx
                        .allowed_schemes
                        .iter()
                        .any(|a| a.eq_ignore_ascii_case(scheme))
                {
                    r.problems.push(Problem {
                        code: "link.unsafe-scheme",
                        message: format!("a `{scheme}:` link runs or opens content a reader cannot trust"),
                        hint: format!("link to a page or an https:// address; if the site really needs `{scheme}:` links, add `allowLinkSchemes: [{scheme}]` to site.yaml"),
                        line: line_of(range.start),
                        column: column_of(range.start),
                    });
                }
                let mut target = links::resolve(dest_url, ctx.route, ctx.file_dir);
                if let (Target::Page { .. }, Some(files)) = (&target, ctx.files)
                    && links::is_relative_markdown(dest_url)
                    && files.page_at_content_root(dest_url)
                {
                    target = links::resolve(dest_url, ctx.route, "/");
                }
                if let Target::Page { route, .. } = &mut target {
                    links::localise(route, ctx.locale_prefix, ctx.locale_prefixes);
                }
                let at = (line_of(range.start), column_of(range.start));
                let href: CowStr<'_> = match &target {
                    Target::Asset => local_file(ctx, dest_url, &mut r, at)
                        .map_or_else(|| dest_url.clone(), |(href, _)| href.into()),
                    Target::Page { route, anchor } => {
                        let mut h = format!("{}{}", ctx.base_path, route);
                        if h.is_empty() {
                            h.push('/');
                        }
                        if let Some(a) = anchor {
                            h.push('#');
                            h.push_str(a);
                        }
                        h.into()
                    }
                    _ => dest_url.clone(),
                };
                if !matches!(target, Target::External | Target::Asset) {
                    let written_at = match link_type {
                        LinkType::Reference | LinkType::Collapsed | LinkType::Shortcut => {
                            definition_at(id).unwrap_or(range.start)
                        }
                        _ => range.start,
                    };
                    r.links.push(Link {
                        target,
                        written: dest_url.to_string(),
                        line: line_of(written_at),
                    });
                }
                out.push(Event::Start(Tag::Link {
                    link_type: *link_type,
                    dest_url: href,
                    title: title.clone(),
                    id: id.clone(),
                }));
            }
            Event::Html(html) | Event::InlineHtml(html) => {
                let at = (line_of(range.start), column_of(range.start));
                let lowered = if ctx.mdx {
                    for name in mdx::unknown_components(html) {
                        r.warnings.push(Problem {
                            code: "markdown.mdx-component",
                            message: format!("the component `<{name}>` will not render: docgen does not run MDX"),
                            hint: "replace it by Markdown; docgen renders Tabs, TabItem, Admonition, CodeBlock and Details itself".into(),
                            line: at.0,
                            column: at.1,
                        });
                    }
                    mdx::lower_details(html)
                } else {
                    None
                };
                let imaged = raw_images(
                    lowered.as_deref().unwrap_or(html),
                    ctx,
                    &mut r,
                    &mut images,
                    at,
                );
                let changed = imaged.or(lowered);
                let html: &str = changed.as_deref().unwrap_or(html);
                let html = match (mark_allowed(html, ctx.features), changed) {
                    (Some(m), _) | (None, Some(m)) => CowStr::from(m),
                    (None, None) => match event {
                        Event::Html(h) | Event::InlineHtml(h) => h.clone(),
                        _ => unreachable!("matched above"),
                    },
                };
                out.push(match event {
                    Event::Html(_) => Event::Html(html),
                    _ => Event::InlineHtml(html),
                });
            }
            Event::Start(Tag::Image {
                dest_url, title, ..
            }) => {
                let at = (line_of(range.start), column_of(range.start));
                // The alt text: the plain text of the image's description.
                let mut alt = String::new();
                let mut depth = 0usize;
                i += 1;
                while i < events.len() {
                    match &events[i].0 {
                        Event::Start(Tag::Image { .. }) => depth += 1,
                        Event::End(TagEnd::Image) if depth == 0 => break,
                        Event::End(TagEnd::Image) => depth -= 1,
                        Event::Text(t) | Event::Code(t) => alt.push_str(t),
                        Event::SoftBreak | Event::HardBreak => alt.push(' '),
                        _ => {}
                    }
                    i += 1;
                }
                let mut src: String = dest_url.to_string();
                let mut size = None;
                if unsafe_scheme(dest_url) == Some("javascript")
                    && !ctx.allowed_schemes.iter().any(|a| a == "javascript")
                {
                    r.problems.push(Problem {
                        code: "link.unsafe-scheme",
                        message: "an image with a `javascript:` address".into(),
                        hint: "point the image at a file under static/ or an https:// address"
                            .into(),
                        line: at.0,
                        column: at.1,
                    });
                } else if is_local(dest_url)
                    && let Some((href, measured)) = local_file(ctx, dest_url, &mut r, at)
                {
                    src = href;
                    size = measured;
                }
                if alt.trim().is_empty() {
                    r.warnings.push(Problem {
                        code: "markdown.image-without-alt",
                        message: format!("the image `{dest_url}` has no alt text"),
                        hint: "say what the image shows between the brackets, `![what it shows](...)`: screen readers read it in place of the image".into(),
                        line: at.0,
                        column: at.1,
                    });
                }
                out.push(Event::InlineHtml(
                    img_tag(&src, alt.trim(), title, size, images == 0).into(),
                ));
                images += 1;
            }
            Event::Start(Tag::FootnoteDefinition(name)) => {
                // pulldown-cmark gives a definition the footnote's name as its id.
                r.ids.insert(name.to_string());
                out.push(event.clone());
            }
            _ => out.push(event.clone()),
        }
        i += 1;
    }
    if let Some(snippets) = group.take().filter(|s| !s.is_empty()) {
        // An unclosed group still shows its snippets; an empty one shows nothing, as when closed.
        out.push(Event::Html(code_box(&snippets, &mut code_boxes).into()));
    }
    r.html.reserve(markdown.len() * 3 / 2);
    pulldown_cmark::html::push_html(&mut r.html, out.into_iter());
    // The scripts as the rendered body holds them: the text a browser hashes.
    if memchr::memmem::find(raw_html.text.to_ascii_lowercase().as_bytes(), b"<script").is_some() {
        r.inline_scripts = rawhtml::inline_scripts(&r.html);
    }
    r
}

/// The writer's raw HTML of the body, joined in order (docgen's own placeholders left out),
/// wherever it stands: in paragraphs, headings, tables or link texts.
fn raw_html_of(events: &[(Event<'_>, std::ops::Range<usize>)], markdown: &str) -> rawhtml::Joined {
    let mut joined = rawhtml::Joined::default();
    for (event, range) in events {
        if let Event::Html(html) | Event::InlineHtml(html) = event
            && tabs::marker_index(html).is_none()
        {
            joined.push(html, range.clone(), markdown);
        }
    }
    joined
}

/// What a finding of the raw HTML scan means for the page: an error, or a warning.
fn raw_html_problem(
    issue: rawhtml::Issue,
    line: usize,
    column: usize,
) -> (Option<Problem>, Option<Problem>) {
    use rawhtml::Issue;
    let problem = |code: &'static str, message: String, hint: String| Problem {
        code,
        message,
        hint,
        line,
        column,
    };
    match issue {
        Issue::UnsafeUrl { tag, attr, scheme } => (
            Some(problem(
                "link.unsafe-scheme",
                format!("`{attr}` of `<{tag}>` is a `{scheme}:` address, which runs or opens content a reader cannot trust"),
                format!("point it at a page, a file of the site or an https:// address; if the site really needs `{scheme}:` addresses, add `allowLinkSchemes: [{scheme}]` to site.yaml"),
            )),
            None,
        ),
        Issue::EventHandler { tag, attr } => (
            Some(problem(
                "html.event-handler",
                format!("the event handler `{attr}` of `<{tag}>` never runs: the site's Content-Security-Policy allows no inline handlers"),
                "attach the handler from a script file under static/ (`addEventListener`), loaded with `<script src=\"/name.js\">`".into(),
            )),
            None,
        ),
        Issue::ExternalScript { src } => (
            Some(problem(
                "html.external-script",
                format!("the script `{src}` never loads: the site's Content-Security-Policy runs scripts of the site itself only (`script-src 'self'`)"),
                "copy the script into static/ and load it from there, e.g. `<script src=\"/vendor/name.js\">`".into(),
            )),
            None,
        ),
        Issue::SrcdocScript => (
            Some(problem(
                "html.srcdoc-script",
                "a script inside `srcdoc` never runs: the frame inherits the site's Content-Security-Policy, which does not list it".into(),
                "give the frame a page of its own with `src`, or move the script into the page itself".into(),
            )),
            None,
        ),
        Issue::InlineScript => (
            None,
            Some(problem(
                "html.inline-script",
                "this inline script runs when the page is opened directly, not when a reader comes to it through the site's navigation (the app shows such pages without running their scripts)".into(),
                "make sure the page reads well without it; what must work on every visit belongs in an island of the app (`<div data-dg-block=\"NAME\">`)".into(),
            )),
        ),
    }
}

/// Whether `dest` names something of the site (not another site, not an anchor of the page).
fn is_local(dest: &str) -> bool {
    !dest.is_empty() && !dest.starts_with('#') && links::resolve(dest, "/", "/") != Target::External
}

/// The published address and size of the file `dest` names, recorded in `r.files`; a problem
/// when it cannot be published. `None` when it stays as written.
fn local_file(
    ctx: &PageContext<'_>,
    dest: &str,
    r: &mut Rendered,
    (line, column): (usize, usize),
) -> Option<(String, Option<(u32, u32)>)> {
    let resolver = ctx.files?;
    let split = dest.find(['?', '#']).unwrap_or(dest.len());
    let (path, suffix) = dest.split_at(split);
    match resolver.find(&links::percent_decode(path)) {
        Ok(Some(file)) => {
            let found = (
                format!("{}/{}{suffix}", ctx.base_path, file.out_path),
                file.size,
            );
            if !r.files.iter().any(|f| f.written == file.written) {
                r.files.push(file);
            }
            Some(found)
        }
        Ok(None) => None,
        Err(p) => {
            r.problems.push(Problem {
                code: p.code,
                message: p.message,
                hint: p.hint,
                line,
                column,
            });
            None
        }
    }
}

/// An `<img>` with its size when known (so the page does not move as it loads), loading lazily
/// unless it is the page's first image.
fn img_tag(src: &str, alt: &str, title: &str, size: Option<(u32, u32)>, first: bool) -> String {
    let mut h = String::with_capacity(src.len() + alt.len() + 96);
    h.push_str("<img src=\"");
    let _ = pulldown_cmark_escape::escape_href(&mut h, src);
    h.push_str("\" alt=\"");
    let _ = pulldown_cmark_escape::escape_html(&mut h, alt);
    h.push('"');
    if !title.is_empty() {
        h.push_str(" title=\"");
        let _ = pulldown_cmark_escape::escape_html(&mut h, title);
        h.push('"');
    }
    if let Some((w, ht)) = size {
        let _ = write!(h, " width=\"{w}\" height=\"{ht}\"");
    }
    if !first {
        h.push_str(" loading=\"lazy\" decoding=\"async\"");
    }
    h.push_str(" />");
    h
}

/// Raw HTML with each `<img>` whose `src` is a relative path pointed at the published file,
/// given its size and lazy loading as Markdown images are; `None` when nothing changed.
/// Every `<img>` counts in `images`.
fn raw_images(
    html: &str,
    ctx: &PageContext<'_>,
    r: &mut Rendered,
    images: &mut usize,
    at: (usize, usize),
) -> Option<String> {
    let lower = html.to_ascii_lowercase();
    let mut out = String::new();
    let (mut copied, mut from) = (0, 0);
    while let Some(i) = lower[from..].find("<img") {
        let start = from + i;
        from = start + 4;
        if !matches!(
            lower.as_bytes().get(start + 4),
            Some(b' ' | b'\t' | b'\n' | b'\r' | b'/' | b'>')
        ) {
            continue;
        }
        let Some(end) = tag_end(html, start) else {
            break;
        };
        from = end;
        let first = *images == 0;
        *images += 1;
        let Some(attrs) = html_attributes(&html[start..end]) else {
            continue;
        };
        let Some(src) = attrs
            .iter()
            .find(|(k, _)| k == "src")
            .map(|(_, v)| v.as_str())
        else {
            continue;
        };
        if !is_local(src) || src.starts_with('/') {
            continue;
        }
        let Some((href, size)) = local_file(ctx, src, r, at) else {
            continue;
        };
        let mut tag = String::from("<img");
        let has = |name: &str| attrs.iter().any(|(k, _)| k == name);
        for (k, v) in &attrs {
            let v = if k == "src" {
                href.as_str()
            } else {
                v.as_str()
            };
            tag.push(' ');
            tag.push_str(k);
            tag.push_str("=\"");
            let _ = pulldown_cmark_escape::escape_html(&mut tag, v);
            tag.push('"');
        }
        if let Some((w, h)) = size.filter(|_| !has("width") && !has("height")) {
            let _ = write!(tag, " width=\"{w}\" height=\"{h}\"");
        }
        if !first && !has("loading") {
            tag.push_str(" loading=\"lazy\"");
        }
        if !first && !has("decoding") {
            tag.push_str(" decoding=\"async\"");
        }
        tag.push('>');
        out.push_str(&html[copied..start]);
        out.push_str(&tag);
        copied = end;
    }
    if copied == 0 {
        return None;
    }
    out.push_str(&html[copied..]);
    Some(out)
}

/// The end (just past `>`) of the tag opening at `start`, quotes respected.
fn tag_end(html: &str, start: usize) -> Option<usize> {
    let mut quote = None;
    for (i, c) in html[start..].char_indices() {
        match (quote, c) {
            (None, '"' | '\'') => quote = Some(c),
            (Some(q), c) if c == q => quote = None,
            (None, '>') => return Some(start + i + 1),
            _ => {}
        }
    }
    None
}

/// The attributes of one HTML start tag, names lowercased and values decoded, read by an XML
/// tokenizer in its HTML mode (unquoted and bare attributes allowed).
fn html_attributes(tag: &str) -> Option<Vec<(String, String)>> {
    use quick_xml::events::Event as Xml;
    let mut reader = quick_xml::Reader::from_str(tag);
    let start = match reader.read_event().ok()? {
        Xml::Start(e) | Xml::Empty(e) => e,
        _ => return None,
    };
    let mut attrs = Vec::new();
    for a in start.html_attributes() {
        let a = a.ok()?;
        let key = a.key.as_ref().to_ascii_lowercase();
        let raw = &a.value;
        attrs.push((key, html_escape::decode_html_entities(&raw).into_owned()));
    }
    Some(attrs)
}

/// A reference label as CommonMark matches it: case-insensitive, runs of whitespace as one.
fn reference_label(label: &str) -> String {
    label
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
        .to_lowercase()
}

fn heading_open(out: &mut String, level: u8, id: &str) {
    out.push_str("<h");
    out.push((b'0' + level) as char);
    out.push_str(" id=\"");
    escape_into(out, id);
    out.push_str("\">");
}

fn heading_close(out: &mut String, level: u8, id: &str, text: &str) {
    out.push_str("<a class=\"dg-anchor\" href=\"#");
    escape_into(out, id);
    out.push_str("\" aria-label=\"Link to this section: ");
    escape_into(out, text);
    out.push_str("\">#</a></h");
    out.push((b'0' + level) as char);
    out.push_str(">\n");
}

/// A reader-facing name for a fence language.
fn language_label(lang: &str) -> String {
    let known = match lang.to_ascii_lowercase().as_str() {
        "kotlin" => "Kotlin",
        "java" => "Java",
        "swift" => "Swift",
        "objc" | "objective-c" => "Objective-C",
        "csharp" | "cs" => "C#",
        "cpp" | "c++" => "C++",
        "javascript" | "js" => "JavaScript",
        "typescript" | "ts" => "TypeScript",
        "json" => "JSON",
        "yaml" | "yml" => "YAML",
        "xml" => "XML",
        "bash" | "sh" | "shell" | "zsh" => "Shell",
        "console" => "Console",
        "http" => "HTTP",
        "c" => "C",
        "css" => "CSS",
        "scss" | "sass" => "Sass",
        "less" => "Less",
        "diff" | "patch" => "Diff",
        "dockerfile" | "docker" => "Dockerfile",
        "go" => "Go",
        "graphql" | "gql" => "GraphQL",
        "groovy" => "Groovy",
        "gradle" => "Gradle",
        "handlebars" | "hbs" => "Handlebars",
        "html" => "HTML",
        "svg" => "SVG",
        "ini" | "cfg" | "editorconfig" => "INI",
        "jsx" => "JSX",
        "tsx" => "TSX",
        "jsonc" | "json5" => "JSON",
        "kt" => "Kotlin",
        "lua" => "Lua",
        "markdown" | "md" => "Markdown",
        "php" => "PHP",
        "proto" | "protobuf" => "Protocol Buffers",
        "python" | "py" => "Python",
        "ruby" | "rb" => "Ruby",
        "rust" | "rs" => "Rust",
        "sql" => "SQL",
        "toml" => "TOML",
        "dart" => "Dart",
        "output" => "Output",
        "gdscript" => "GDScript",
        "actionscript" => "ActionScript",
        "" | "text" | "plain" => "Text",
        _ => "",
    };
    if known.is_empty() {
        let mut c = lang.chars();
        c.next()
            .map(|f| f.to_uppercase().chain(c).collect())
            .unwrap_or_default()
    } else {
        known.to_string()
    }
}

/// What turns a code block into a snippet of a code box: the page, where warnings go and the
/// unknown languages already warned about on the page (lower-cased).
struct CodeBlock<'c, 'p> {
    ctx: &'c PageContext<'p>,
    r: &'c mut Rendered,
    unknown_langs: &'c mut Vec<String>,
}

impl CodeBlock<'_, '_> {
    /// The snippet of a block with info string `info`, at `at` (line, column) of the body;
    /// `tab` its label in a tab set, `in_group` when it joins a code box of several.
    fn snippet(
        &mut self,
        info: &str,
        code: &str,
        tab: Option<String>,
        in_group: bool,
        at: (usize, usize),
    ) -> Snippet {
        let mut meta = codemeta::parse(info);
        if !highlight::is_known(&meta.lang)
            && !self.unknown_langs.contains(&meta.lang.to_ascii_lowercase())
        {
            self.unknown_langs.push(meta.lang.to_ascii_lowercase());
            self.r.warnings.push(Problem {
                code: "markdown.unknown-language",
                message: format!("the code language `{}` is not known: its blocks on this page are shown without highlighting", meta.lang),
                hint: "label the fence with a language docgen highlights (README.md, Markdown) or `text`".into(),
                line: at.0,
                column: at.1,
            });
        }
        let shown = codemeta::prepare(code, &meta.lang, &mut meta.highlight);
        let mut html = highlight::highlight(&shown, &meta.lang);
        let numbered = meta.line_numbers || self.ctx.line_numbers;
        if numbered || !meta.highlight.is_empty() {
            html = codemeta::wrap_lines(&html, &meta.highlight, numbered);
        }
        let (label, file) = match (tab, meta.label, meta.title) {
            (Some(tab), _, _) => (tab, false),
            (None, Some(label), _) if !label.is_empty() => (label, false),
            (None, _, Some(title)) if !title.is_empty() => (title, !in_group),
            _ => (language_label(&meta.lang), false),
        };
        Snippet {
            html,
            label,
            file,
            lang: meta.lang,
        }
    }
}

/// The actions of a code box's bar as the server writes them, shown only with scripts: Copy, as
/// the app draws it (the app puts its own in its place when it mounts, so nothing moves), and
/// the background switch. `aria-pressed` is the default (light); the app says the reader's choice
/// once it runs (the colours are right from the first paint: the inline script sets
/// `data-code-bg` on `<html>`).
const CODE_ACTIONS: &str = concat!(
    "<div class=\"dg-code-actions\"><span class=\"dg-code-copy-slot\">",
    "<span class=\"dg-tooltip-anchor\" data-dg-placeholder=\"\"><button type=\"button\" class=\"dg-button dg-button-quiet dg-code-copy\"><span class=\"dg-button-label\">Copy</span></button></span>",
    "</span><button type=\"button\" class=\"dg-code-bg-toggle\" aria-label=\"Dark code background\" title=\"Dark code background\" aria-pressed=\"false\"></button></div>"
);

fn code_box(snippets: &[Snippet], counter: &mut usize) -> String {
    let n = *counter;
    *counter += 1;
    let mut h = String::with_capacity(snippets.iter().map(|s| s.html.len() + 200).sum());
    let _ = write!(
        h,
        "<div class=\"dg-code\" data-dg-block=\"code\" id=\"dg-code-{n}\">\n<div class=\"dg-code-bar\">"
    );
    if snippets.len() > 1 {
        h.push_str("<div class=\"dg-code-tabs\" role=\"tablist\" aria-label=\"Code variants\">");
        for (i, s) in snippets.iter().enumerate() {
            let selected = i == 0;
            let _ = write!(
                h,
                "<button type=\"button\" role=\"tab\" id=\"dg-code-{n}-tab-{i}\" aria-controls=\"dg-code-{n}-panel-{i}\" aria-selected=\"{selected}\" tabindex=\"{}\">",
                if selected { 0 } else { -1 }
            );
            escape_into(&mut h, &s.label);
            h.push_str("</button>");
        }
        h.push_str("</div>");
    } else {
        // The whole label in the title too: a long one (a file's path) is cut on narrow screens.
        h.push_str(if snippets[0].file {
            "<span class=\"dg-code-label dg-code-file\" title=\""
        } else {
            "<span class=\"dg-code-label\" title=\""
        });
        escape_into(&mut h, &snippets[0].label);
        h.push_str("\">");
        escape_into(&mut h, &snippets[0].label);
        h.push_str("</span>");
    }
    // The light/dark background switch, shared by every box (spec §4); shown only with scripts,
    // which also put the copy button beside it.
    h.push_str(CODE_ACTIONS);
    h.push_str("</div>\n");
    for (i, s) in snippets.iter().enumerate() {
        if snippets.len() > 1 {
            let _ = write!(
                h,
                "<div class=\"dg-code-panel\" role=\"tabpanel\" id=\"dg-code-{n}-panel-{i}\" aria-labelledby=\"dg-code-{n}-tab-{i}\" data-lang=\""
            );
        } else {
            let _ = write!(
                h,
                "<div class=\"dg-code-panel\" id=\"dg-code-{n}-panel-{i}\" data-lang=\""
            );
        }
        escape_into(&mut h, &s.lang);
        h.push_str("\"><pre class=\"dg-hl\"><code>");
        h.push_str(&s.html);
        h.push_str("</code></pre></div>\n");
    }
    h.push_str("</div>\n");
    h
}

fn admonition(kind: BlockQuoteKind) -> (&'static str, &'static str) {
    match kind {
        BlockQuoteKind::Note => ("note", "Note"),
        BlockQuoteKind::Tip => ("tip", "Tip"),
        BlockQuoteKind::Important => ("important", "Important"),
        BlockQuoteKind::Warning => ("warning", "Warning"),
        BlockQuoteKind::Caution => ("caution", "Caution"),
    }
}

/// Adds `data-dg-allowed` to elements whose `data-require-feature` names an enabled feature.
fn mark_allowed(html: &str, features: &[String]) -> Option<String> {
    if !html.contains("data-require-feature=") {
        return None;
    }
    let mut out = html.to_string();
    for f in features {
        for q in ['"', '\''] {
            let attr = format!("data-require-feature={q}{f}{q}");
            out = out.replace(&attr, &format!("{attr} data-dg-allowed"));
        }
    }
    (out != html).then_some(out)
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    /// A page's context with every option off.
    pub(crate) fn ctx() -> PageContext<'static> {
        PageContext {
            title: "Banners",
            route: "/d/android/banners",
            file_dir: "/d/android",
            base_path: "",
            features: &[],
            allowed_schemes: &[],
            files: None,
            anchors: AnchorRule::Literal,
            math: false,
            math_brackets: false,
            line_numbers: false,
            mdx: false,
            locale_prefix: "",
            locale_prefixes: &[],
        }
    }

    fn with<'a>(f: impl FnOnce(&mut PageContext<'a>)) -> PageContext<'a> {
        let mut c = ctx();
        f(&mut c);
        c
    }

    /// (code, line, column) of each problem, in order.
    fn placed(problems: &[Problem]) -> Vec<(&'static str, usize, usize)> {
        problems
            .iter()
            .map(|p| (p.code, p.line, p.column))
            .collect()
    }

    #[test]
    fn raw_html_addresses_are_reported_where_written() {
        let md = "Intro <a href=\"JAVASCRIPT:x()\">a</a> text.\n\n\
                  <div>\n  <iframe src=\"java&#x09;script:x()\"></iframe>\n</div>\n\n\
                  # Title <a title=\"t\" href=\"&#106;avascript:x()\">t</a>\n\n\
                  > <form action=\"data:text/html,x\">\n\n\
                  - item <button formaction=\"vbscript:x\">b</button>\n\n\
                  <a\nhref=\"java\nscript:x()\">split</a>\n";
        let r = render(md, &ctx());
        assert_eq!(
            placed(&r.problems),
            [
                ("link.unsafe-scheme", 1, 10),
                ("link.unsafe-scheme", 4, 11),
                ("link.unsafe-scheme", 7, 22),
                ("link.unsafe-scheme", 9, 9),
                ("link.unsafe-scheme", 11, 16),
                ("link.unsafe-scheme", 14, 1),
            ],
            "{:#?}",
            r.problems
        );
        assert!(r.problems[1].message.contains("`src` of `<iframe>`"));
        assert!(
            r.problems[1]
                .hint
                .contains("allowLinkSchemes: [javascript]")
        );
    }

    #[test]
    fn raw_html_images_keep_data_addresses_and_the_site_may_allow_a_scheme() {
        let md = "<img src=\"data:image/png;base64,iVBORw0KGgo=\" alt=\"dot\">\n\n\
                  <a href=\"mailto:a@example.com\">m</a> <a href=\"#top\">t</a> <a href=\"../x.md\">x</a>\n";
        assert!(render(md, &ctx()).problems.is_empty());
        let allowed = ["javascript".to_string()];
        let js = "<a href=\"javascript:void(0)\">x</a>\n";
        assert_eq!(render(js, &ctx()).problems.len(), 1);
        assert!(
            render(js, &with(|c| c.allowed_schemes = &allowed))
                .problems
                .is_empty()
        );
    }

    #[test]
    fn inline_scripts_are_kept_for_the_policy_and_handlers_refused() {
        let md = "Text.\n\n<script>\nwindow.x = 1 < 2;\n</script>\n\n<button onclick=\"go()\">b</button>\n";
        let r = render(md, &ctx());
        assert_eq!(r.inline_scripts, ["\nwindow.x = 1 < 2;\n"]);
        assert_eq!(placed(&r.problems), [("html.event-handler", 7, 9)]);
        assert_eq!(placed(&r.warnings), [("html.inline-script", 3, 1)]);
        assert!(render("No script.\n", &ctx()).inline_scripts.is_empty());
    }

    #[test]
    fn containers_render_as_admonitions_without_blank_lines() {
        let md = ":::tip\nShort **tip**.\n:::\n\n::::danger[Careful]\n:::info{title=\"Inner\"}\nx\n:::\n::::\n";
        let r = render(md, &ctx());
        assert!(r.html.contains("<div class=\"dg-admonition dg-admonition-tip\" role=\"note\"><p class=\"dg-admonition-title\">Tip</p>\n<p>Short <strong>tip</strong>.</p>\n</div>"), "{}", r.html);
        assert!(r.html.contains("dg-admonition-danger\" role=\"note\"><p class=\"dg-admonition-title\">Careful</p>\n<div class=\"dg-admonition dg-admonition-info\" role=\"note\"><p class=\"dg-admonition-title\">Inner</p>\n<p>x</p>\n</div>\n</div>"), "{}", r.html);
        assert!(
            !r.html.contains(":::") && r.warnings.is_empty(),
            "{:?}",
            r.warnings
        );
    }

    #[test]
    fn diagnostics_after_containers_keep_the_writer_s_lines() {
        let md = ":::note\ntext\n:::\n:::foo\n[x](javascript:alert(1))\n:::\n## A {colour=red}\n";
        let r = render(md, &ctx());
        assert_eq!(r.problems[0].line, 5, "{:?}", r.problems);
        assert_eq!(r.problems[0].column, 1);
        assert_eq!(r.problems[1].line, 7);
        assert_eq!(
            (r.warnings[0].code, r.warnings[0].line),
            ("markdown.unknown-container", 4)
        );
        assert!(
            r.html
                .contains("<p><a href=\"javascript:alert(1)\">x</a></p>"),
            "content of an unknown container still shows: {}",
            r.html
        );
        let r = render("a\n\n:::warning\nopen\n", &ctx());
        assert_eq!(
            (r.warnings[0].code, r.warnings[0].line),
            ("markdown.unclosed-container", 3)
        );
        assert!(
            r.html.trim_end().ends_with("<p>open</p>\n</div>"),
            "{}",
            r.html
        );
    }

    #[test]
    fn definition_lists() {
        let r = render("Term\n: Its definition.\n", &ctx());
        assert!(
            r.html
                .contains("<dl>\n<dt>Term</dt>\n<dd>Its definition.</dd>\n</dl>"),
            "{}",
            r.html
        );
    }

    #[test]
    fn math_only_when_the_site_asks() {
        let md = "Costs $5 and $10.\n\n$x^2$ and\n\n$$\\frac{1}{2}$$\n";
        let off = render(md, &ctx());
        assert!(off.html.contains("$5 and $10") && !off.html.contains("<math"));
        let on = render(md, &with(|c| c.math = true));
        assert!(on.html.contains("Costs $5 and $10."), "{}", on.html);
        assert!(
            on.html
                .contains("<math><msup><mi>x</mi><mn>2</mn></msup></math>"),
            "{}",
            on.html
        );
        assert!(
            on.html.contains("<math display=\"block\"><mfrac>"),
            "{}",
            on.html
        );
        let bad = render("ok\n\n$\\nosuch x$\n", &with(|c| c.math = true));
        assert_eq!(
            (bad.warnings[0].code, bad.warnings[0].line),
            ("markdown.math", 3)
        );
        assert!(
            bad.html
                .contains("<code class=\"dg-math-error\">$\\nosuch x$</code>"),
            "{}",
            bad.html
        );
    }

    #[test]
    fn mdbook_brackets_when_enabled() {
        let md = "Inline \\\\( a^2 \\\\) and\n\\\\[ b \\\\]\n";
        let off = render(md, &with(|c| c.math = true));
        assert!(!off.html.contains("<math"), "{}", off.html);
        let on = render(md, &with(|c| c.math_brackets = true));
        assert!(on.html.contains("Inline <math><msup>"), "{}", on.html);
        assert!(
            on.html
                .contains("<math display=\"block\"><mi>b</mi></math>"),
            "{}",
            on.html
        );
    }

    #[test]
    fn code_meta_titles_highlights_and_numbers() {
        let md = "```js title=\"app.js\" {2}\nlet a = 1;\nlet b = 2;\n```\n";
        let r = render(md, &ctx());
        assert!(
            r.html.contains(
                "<span class=\"dg-code-label dg-code-file\" title=\"app.js\">app.js</span>"
            ),
            "{}",
            r.html
        );
        assert!(r.html.contains("<span class=\"dg-line\">"), "{}", r.html);
        assert_eq!(r.html.matches("dg-line-hl").count(), 1);
        let r = render("```text showLineNumbers\na\nb\n```\n", &ctx());
        assert_eq!(
            r.html.matches("<span class=\"dg-line dg-ln\">").count(),
            2,
            "{}",
            r.html
        );
        let r = render("```text\na\n```\n", &with(|c| c.line_numbers = true));
        assert!(r.html.contains("dg-ln"));
        let r = render(
            "```rust,ignore\n# fn main() {\nlet x = 1;\n# }\n```\n",
            &ctx(),
        );
        assert!(
            r.html.contains("data-lang=\"rust\"") && !r.html.contains("main"),
            "{}",
            r.html
        );
        let plain = render("```js\nx\n```\n", &ctx());
        assert!(!plain.html.contains("dg-line"), "no wrapping unless asked");
    }

    #[test]
    fn tabs_of_code_become_one_code_box() {
        let md = "<Tabs groupId=\"lang\">\n<TabItem value=\"js\" label=\"JavaScript\">\n\n```js\nlet a;\n```\n\n</TabItem>\n<TabItem value=\"py\" label=\"Python\">\n```py\na = 1\n```\n</TabItem>\n</Tabs>\n";
        let r = render(md, &ctx());
        assert_eq!(r.html.matches("class=\"dg-code\"").count(), 1, "{}", r.html);
        assert!(
            r.html.contains(">JavaScript</button>") && r.html.contains(">Python</button>"),
            "{}",
            r.html
        );
        assert!(
            !r.html.contains("TabItem") && !r.html.contains("dg-tabs"),
            "{}",
            r.html
        );
    }

    #[test]
    fn tabs_of_prose_become_a_tab_set() {
        let md = "<Tabs>\n<TabItem value=\"mac\" label=\"macOS\">\nUse **brew**.\n</TabItem>\n<TabItem value=\"linux\">\n```sh\napt install x\n```\n</TabItem>\n</Tabs>\n";
        let r = render(md, &ctx());
        assert!(r.html.contains("<div class=\"dg-tabs\" data-dg-block=\"tabs\" id=\"dg-tabs-0\">\n<div class=\"dg-tabs-list\" role=\"tablist\"><button type=\"button\" role=\"tab\" id=\"dg-tabs-0-tab-0\" aria-controls=\"dg-tabs-0-panel-0\" aria-selected=\"true\" tabindex=\"0\">macOS</button>"), "{}", r.html);
        assert!(r.html.contains("<div class=\"dg-tabs-panel\" role=\"tabpanel\" id=\"dg-tabs-0-panel-0\" aria-labelledby=\"dg-tabs-0-tab-0\" data-label=\"macOS\">\n<p>Use <strong>brew</strong>.</p>\n</div>"), "{}", r.html);
        assert!(
            r.html
                .contains("data-label=\"linux\">\n<div class=\"dg-code\""),
            "{}",
            r.html
        );
        assert!(r.warnings.is_empty(), "{:?}", r.warnings);
    }

    #[test]
    fn mdx_code_blocks_become_code_boxes() {
        let md = "import CodeBlock from '@theme/CodeBlock';\n\nBefore.\n<CodeBlock language=\"js\" title=\"app.js\" showLineNumbers>\n  const a = 1;\n</CodeBlock>\n\n<CodeBlock\n  language=\"nosuch\">\n  {`x`}\n</CodeBlock>\n\n<Chart />\n";
        let r = render(md, &with(|c| c.mdx = true));
        assert!(
            r.html.contains(
                "<p>Before.</p>\n<div class=\"dg-code\" data-dg-block=\"code\" id=\"dg-code-0\">"
            ),
            "{}",
            r.html
        );
        assert!(
            r.html.contains(
                "<span class=\"dg-code-label dg-code-file\" title=\"app.js\">app.js</span>"
            ),
            "{}",
            r.html
        );
        assert!(
            r.html.contains("dg-ln") && r.html.contains("<span class=\"hl-k\">const</span>"),
            "{}",
            r.html
        );
        assert!(
            r.html.contains("id=\"dg-code-1\"") && !r.html.contains("CodeBlock"),
            "{}",
            r.html
        );
        // Warnings keep the writer's lines: the unknown language where its block opens.
        let got: Vec<(&str, usize)> = r.warnings.iter().map(|w| (w.code, w.line)).collect();
        assert_eq!(
            got,
            vec![
                ("markdown.unknown-language", 8),
                ("markdown.mdx-component", 13)
            ]
        );
        let tabs = "<Tabs>\n<TabItem value=\"a\" label=\"A\">\n<CodeBlock language=\"js\">\na()\n</CodeBlock>\n</TabItem>\n<TabItem value=\"b\" label=\"B\">\n```py\nb()\n```\n</TabItem>\n</Tabs>\n";
        let r = render(tabs, &with(|c| c.mdx = true));
        assert!(
            !r.html.contains("dg-tabs") && r.html.contains(">A</button><button"),
            "one code box of two tabs: {}",
            r.html
        );
        let open = render("<CodeBlock language=\"js\">\nx\n", &with(|c| c.mdx = true));
        assert_eq!(open.warnings[0].code, "markdown.unclosed-container");
        assert!(open.html.contains("dg-code-0"), "{}", open.html);
    }

    #[test]
    fn mdx_pages_are_read_leniently() {
        let md = "import Tabs from '@theme/Tabs';\nimport Chart from '../Chart';\nexport const meta = {\n  a: 1,\n};\n\nText {/* hidden */} here.\n\n<Chart data={1} />\n\n<Details><summary>More</summary>\n\nInside.\n\n</Details>\n\n<Admonition type=\"tip\" title=\"Hi\">\nBody\n</Admonition>\n";
        let r = render(md, &with(|c| c.mdx = true));
        assert!(
            !r.html.contains("import") && !r.html.contains("export") && !r.html.contains("meta"),
            "{}",
            r.html
        );
        assert!(r.html.contains("<p>Text  here.</p>"), "{}", r.html);
        assert!(
            r.html.contains("<details><summary>More</summary>") && r.html.contains("</details>"),
            "{}",
            r.html
        );
        assert!(r.html.contains("dg-admonition-tip\" role=\"note\"><p class=\"dg-admonition-title\">Hi</p>\n<p>Body</p>"), "{}", r.html);
        let got: Vec<(&str, usize)> = r.warnings.iter().map(|w| (w.code, w.line)).collect();
        assert_eq!(
            got,
            vec![("markdown.mdx-import", 2), ("markdown.mdx-component", 9)]
        );
        let md_page = render("import x from 'y'\n", &ctx());
        assert!(
            md_page.html.contains("import x"),
            "only .mdx pages drop imports"
        );
    }

    #[test]
    fn headings_get_ids_anchor_links_and_toc_entries() {
        let r = render(
            "## Loading a Banner\n\ntext\n\n### Loading a Banner\n\n#### Deep\n",
            &ctx(),
        );
        assert!(
            r.html
                .starts_with("<h1 id=\"banners\">Banners<a class=\"dg-anchor\" href=\"#banners\""),
            "{}",
            r.html
        );
        assert!(r.html.contains("<h2 id=\"loading-a-banner\">Loading a Banner<a class=\"dg-anchor\" href=\"#loading-a-banner\""));
        assert!(r.html.contains("<h3 id=\"loading-a-banner-1\">"));
        let toc: Vec<(u8, &str)> = r
            .headings
            .iter()
            .map(|h| (h.level, h.id.as_str()))
            .collect();
        assert_eq!(
            toc,
            vec![
                (1, "banners"),
                (2, "loading-a-banner"),
                (3, "loading-a-banner-1")
            ]
        );
        assert!(
            r.ids.contains("deep"),
            "h4 is an anchor target but not a TOC entry"
        );
    }

    #[test]
    fn raw_html_declares_fragment_targets_in_attributes_only() {
        let md = "<div title=\"see id='x'\">t</div>\n\n\
                  <div\n  class=\"note\"\n  id=\"split\">\n\n</div>\n\n\
                  Text <span ID=inline>s</span> and <a name=\"legacy\"></a>.\n";
        let r = render(md, &ctx());
        let mut ids: Vec<&str> = r.ids.iter().map(String::as_str).collect();
        ids.sort_unstable();
        assert_eq!(ids, ["banners", "inline", "legacy", "split"]);
    }

    #[test]
    fn an_alias_is_a_second_anchor_target() {
        let r = render("## Step 6: Launch {alias=step-6-launch}\n", &ctx());
        assert!(
            r.html.contains(
                "<h2 id=\"step-6:-launch\"><span class=\"dg-anchor-alias\" id=\"step-6-launch\"></span>Step 6: Launch"
            ),
            "{}",
            r.html
        );
        assert!(r.ids.contains("step-6:-launch") && r.ids.contains("step-6-launch"));
        assert_eq!(r.headings[1].id, "step-6:-launch");
        assert!(r.problems.is_empty(), "{:?}", r.problems);
    }

    #[test]
    fn bad_heading_attributes_are_reported() {
        let r = render(
            "## A {alias}\n\n## B {colour=red}\n\n## C {alias=a}\n",
            &ctx(),
        );
        let codes: Vec<&str> = r.problems.iter().map(|p| p.code).collect();
        assert_eq!(
            codes,
            vec![
                "markdown.alias-without-id",
                "markdown.unknown-heading-attribute",
                "markdown.duplicate-id"
            ]
        );
    }

    #[test]
    fn the_github_rule_drops_punctuation_and_an_explicit_id_wins() {
        let md = "## format(source, options)\n\n## C++ {#cpp}\n\n## C++\n";
        let r = render(
            md,
            &PageContext {
                anchors: AnchorRule::Github,
                ..ctx()
            },
        );
        let ids: Vec<&str> = r.headings.iter().map(|h| h.id.as_str()).collect();
        assert_eq!(ids, ["banners", "formatsource-options", "cpp", "c"]);
        let r = render(md, &ctx());
        let ids: Vec<&str> = r.headings.iter().map(|h| h.id.as_str()).collect();
        assert_eq!(ids, ["banners", "format(source,-options)", "cpp", "c++"]);
    }

    #[test]
    fn an_unknown_code_language_is_warned_about_once_per_page() {
        let md = "```frobnicate\nx\n```\n\n```rust,ignore\nfn a() {}\n```\n\n```Frobnicate\ny\n```\n\n```text\nz\n```\n\n    indented\n\n```zork\nw\n```\n";
        let r = render(md, &ctx());
        let warned: Vec<(&str, usize)> = r.warnings.iter().map(|w| (w.code, w.line)).collect();
        assert_eq!(
            warned,
            [
                ("markdown.unknown-language", 1),
                ("markdown.unknown-language", 19)
            ]
        );
        assert!(r.warnings[0].message.contains("`frobnicate`"));
        assert!(r.html.contains("<code>x\n</code>"), "{}", r.html);
        assert!(
            r.html.contains("<span class=\"hl-k\">fn</span>"),
            "{}",
            r.html
        );
        assert!(r.problems.is_empty());
    }

    #[test]
    fn an_h1_in_the_body_replaces_the_title_heading() {
        let r = render("# Own Title\n\n## A {#custom}\n", &ctx());
        assert_eq!(r.headings[0].id, "own-title");
        assert_eq!(r.headings[1].id, "custom");
        assert_eq!(r.html.matches("<h1").count(), 1);
    }

    #[test]
    fn code_group_becomes_one_box_with_tabs() {
        let md = "::: code-group\n```kotlin [Kotlin]\nval a = 1\n```\n```java\nint a = 1;\n```\n:::\n\n```swift\nlet b = 2\n```\n";
        let r = render(md, &ctx());
        assert_eq!(r.html.matches("class=\"dg-code\"").count(), 2, "{}", r.html);
        assert!(r.html.contains("role=\"tablist\""));
        assert!(r.html.contains(">Kotlin</button>") && r.html.contains(">Java</button>"));
        assert!(
            r.html
                .contains("aria-selected=\"true\" tabindex=\"0\">Kotlin")
        );
        assert!(
            r.html
                .contains("<span class=\"dg-code-label\" title=\"Swift\">Swift</span>")
        );
        assert!(!r.html.contains(":::"));
    }

    #[test]
    fn an_unclosed_code_group_without_code_is_dropped() {
        let r = render("::: code-group\n", &ctx());
        assert!(!r.html.contains("dg-code"), "{}", r.html);
        let r = render("::: code-group\n```kotlin\nval a = 1\n```\n", &ctx());
        assert_eq!(r.html.matches("class=\"dg-code\"").count(), 1, "{}", r.html);
    }

    #[test]
    fn admonitions_tables_and_gfm() {
        let md = "> [!WARNING]\n> Careful.\n\n| a | b |\n|---|---|\n| 1 | 2 |\n\n- [x] done\n\n~~old~~ text[^1]\n\n[^1]: A note.\n";
        let r = render(md, &ctx());
        assert!(r.html.contains("<div class=\"dg-admonition dg-admonition-warning\" role=\"note\"><p class=\"dg-admonition-title\">Warning</p>"));
        assert!(
            r.html
                .contains("<div class=\"dg-table\" data-dg-block=\"table\" role=\"region\" tabindex=\"0\" aria-label=\"Banners\">\n<table>")
        );
        assert!(r.html.contains("type=\"checkbox\""));
        assert!(r.html.contains("<del>old</del>"));
        assert!(r.html.contains("footnote"));
    }

    #[test]
    fn a_field_table_drops_its_empty_column_with_a_warning_and_labels_its_cells() {
        let md = "## Bid Object\n\nIntro.\n\n| Field | Type | Passed | Description |\n|---|:-:|---|---|\n| `adomain` | string |  | Advertiser domain, for blocking checks by the exchange. |\n| `crid` | string | | Creative ID, to review the ad: `MaxSdkBase.ErrorCode.NoFill`. |\n\n| a | b |\n|---|---|\n| 1 | 2 |\n";
        let r = render(md, &ctx());
        assert_eq!(r.warnings.len(), 1, "{:?}", r.warnings);
        let w = &r.warnings[0];
        assert_eq!((w.code, w.line, w.column), ("table.empty-column", 5, 1));
        assert!(w.message.contains("`Passed`"), "{}", w.message);
        assert!(!r.html.contains("Passed"), "{}", r.html);
        assert!(r.html.contains("<div class=\"dg-table\" data-dg-block=\"table\" role=\"region\" tabindex=\"0\" aria-label=\"Bid Object\">\n<table class=\"dg-fields\"><thead><tr><th>Field</th><th style=\"text-align: center\">Type</th><th class=\"dg-col-text\">Description</th></tr></thead><tbody>\n<tr><td data-label=\"Field\"><code>adomain</code></td><td data-label=\"Type\" style=\"text-align: center\">string</td><td class=\"dg-col-text\" data-label=\"Description\">Advertiser domain"), "{}", r.html);
        assert!(
            r.html
                .contains("<code>Max<wbr>Sdk<wbr>Base.<wbr>Error<wbr>Code.<wbr>NoFill</code>")
        );
        // The second table under the same heading gets a name of its own, and no cards.
        assert!(r.html.contains("aria-label=\"Bid Object (2)\">\n<table><thead><tr><th>a</th><th>b</th></tr></thead><tbody>\n<tr><td>1</td><td>2</td></tr>\n</tbody></table>\n</div>\n"), "{}", r.html);
    }

    #[test]
    fn a_table_before_any_heading_is_named_after_the_title_or_numbered() {
        let md = "| a | b |\n|---|---|\n| 1 | 2 |\n";
        assert!(render(md, &ctx()).html.contains("aria-label=\"Banners\""));
        let r = render(md, &with(|c| c.title = ""));
        assert!(r.html.contains("aria-label=\"Table 1\""), "{}", r.html);
    }

    #[test]
    fn tabs_written_over_several_lines_take_their_labels_from_values() {
        let md = "1. Add it:\n\n   <Tabs\n   groupId=\"build\"\n   values={[\n   {label: 'Maven', value: 'maven'},\n   {label: 'Gradle', value: 'gradle'},\n   ]}>\n   <TabItem value=\"maven\">\n\n   ```xml\n   <a/>\n   ```\n\n   </TabItem>\n   <TabItem value=\"gradle\">\n\n   ```groovy\n   x()\n   ```\n\n   </TabItem>\n   </Tabs>\n\n2. Done [here](#nowhere).\n";
        let r = render(md, &PageContext { mdx: true, ..ctx() });
        assert!(r.warnings.is_empty(), "{:?}", r.warnings);
        assert!(
            r.html.contains(">Maven</button>") && r.html.contains(">Gradle</button>"),
            "{}",
            r.html
        );
        // The list goes on around the tag: the second item is still an item of the same list.
        assert_eq!(r.html.matches("<ol").count(), 1, "{}", r.html);
        // Lines after the tag keep their numbers.
        assert_eq!(r.links[0].line, 25);
    }

    #[test]
    fn a_reference_link_is_recorded_at_its_definition() {
        let md = "See [the guide][g] and [setup].\n\nMore text.\n\n[G]:   ../ios/guide.md\n[setup]: /d/setup\n";
        let r = render(md, &ctx());
        let lines: Vec<(usize, &str)> = r
            .links
            .iter()
            .map(|l| (l.line, l.written.as_str()))
            .collect();
        assert_eq!(lines, vec![(5, "../ios/guide.md"), (6, "/d/setup")]);
    }

    #[test]
    fn links_are_resolved_and_recorded_with_lines() {
        let md = "See [a](../ios/_index.md#setup).\n\nAnd [b](https://x.test) and [c](#here).\n";
        let r = render(
            md,
            &PageContext {
                base_path: "/pr",
                ..ctx()
            },
        );
        assert!(r.html.contains("href=\"/pr/d/ios#setup\""), "{}", r.html);
        assert!(r.html.contains("href=\"https://x.test\""));
        assert_eq!(r.links.len(), 2);
        assert_eq!(
            r.links[0].target,
            Target::Page {
                route: "/d/ios".into(),
                anchor: Some("setup".into())
            }
        );
        assert_eq!(r.links[0].line, 1);
        assert_eq!(r.links[1].line, 3);
    }

    #[test]
    fn content_gated_by_an_enabled_feature_is_marked() {
        let features = ["beta".to_string()];
        let md = "<a href=\"/x\" data-require-feature=\"beta\">x</a> <a data-require-feature=\"off\">y</a>\n";
        let r = render(
            md,
            &PageContext {
                features: &features,
                allowed_schemes: &[],
                ..ctx()
            },
        );
        assert!(
            r.html
                .contains("data-require-feature=\"beta\" data-dg-allowed>"),
            "{}",
            r.html
        );
        assert!(r.html.contains("data-require-feature=\"off\">"));
    }

    #[test]
    fn raw_html_ids_count_as_anchors_and_placeholders_survive() {
        let r = render(
            "<div id=\"gen\" data-dg-block=\"x\"></div>\n\nUse `<AD_UNIT_ID>` here.\n",
            &ctx(),
        );
        assert!(r.ids.contains("gen"));
        assert!(r.html.contains("&lt;AD_UNIT_ID&gt;"));
    }
}
