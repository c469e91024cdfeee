//! The examples of the CommonMark spec (0.31.2, `tests/vectors/commonmark/spec.json`) through
//! `markdown::render`, the renderer every page goes through, compared with the spec's HTML.
//!
//! Before comparing, the normaliser below takes docgen's own additions out of the rendered HTML
//! (heading ids and their `#` links, the code box around a `<pre>`, the highlighter's spans, the
//! table wrapper, lazy loading of images), then both sides are normalised as the spec's test
//! suite does (`normalize.py`). At least 99 % of the examples must be equal, and the examples
//! that differ must be exactly those of `KNOWN`, each with the reason it differs: a new
//! difference fails even while the ratio holds, and so does a known one that went away.

use std::cell::RefCell;

use docgen::markdown::{self, PageContext, anchors::AnchorRule};
use html5ever::TokenizerResult;
use html5ever::tendril::StrTendril;
use html5ever::tokenizer::states::RawKind;
use html5ever::tokenizer::{
    BufferQueue, Tag, TagKind, Token, TokenSink, TokenSinkResult, Tokenizer, TokenizerOpts,
};
use serde::Deserialize;

/// The examples that differ, with why: each is something docgen does on purpose that the spec
/// does not have.
const KNOWN: &[(usize, &str)] = &[(
    484,
    "a link to a Markdown file leads to its page: `./target.md` is written as the route `/target`",
)];

/// Equal examples over all of them, at least.
const MIN_RATIO: f64 = 0.99;

#[derive(Deserialize)]
struct Example {
    markdown: String,
    html: String,
    example: usize,
    section: String,
}

fn examples() -> Vec<Example> {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/vectors/commonmark/spec.json"
    );
    let text = std::fs::read_to_string(path).expect("the vendored spec examples");
    serde_json::from_str(&text).expect("spec.json is a list of examples")
}

/// The context of a page with no front-matter title (so no `<h1>` is added) and the default
/// site options, at the root of the site.
fn page() -> PageContext<'static> {
    PageContext {
        title: "",
        route: "/",
        file_dir: "/",
        base_path: "",
        features: &[],
        allowed_schemes: &[],
        files: None,
        anchors: AnchorRule::default(),
        math: false,
        math_brackets: false,
        line_numbers: false,
        mdx: false,
        locale_prefix: "",
        locale_prefixes: &[],
    }
}

/// What docgen renders for an example, normalised as the spec's HTML is.
fn rendered(markdown: &str) -> String {
    let html = markdown::render(markdown, &page()).html;
    normalize(as_browser_reads(without_docgen_additions(tokens(&html))))
}

fn expected(html: &str) -> String {
    normalize(as_browser_reads(tokens(html)))
}

#[test]
fn commonmark_spec_examples() {
    let examples = examples();
    assert_eq!(examples.len(), 652, "the examples of CommonMark 0.31.2");
    let mut failing = Vec::new();
    let mut report = String::new();
    for ex in &examples {
        let (got, want) = (rendered(&ex.markdown), expected(&ex.html));
        if got != want {
            failing.push(ex.example);
            let known = KNOWN.iter().find(|(n, _)| *n == ex.example);
            report.push_str(&format!(
                "example {} ({}){}\n",
                ex.example,
                ex.section,
                known.map_or(String::new(), |(_, why)| format!(": {why}"))
            ));
            if known.is_none() {
                report.push_str(&format!(
                    "  markdown: {:?}\n  expected: {want:?}\n  rendered: {got:?}\n",
                    ex.markdown
                ));
            }
        }
    }
    let ratio = (examples.len() - failing.len()) as f64 / examples.len() as f64;
    println!(
        "{} of {} CommonMark examples equal ({:.2} %)\n{report}",
        examples.len() - failing.len(),
        examples.len(),
        ratio * 100.0
    );
    let known: Vec<usize> = KNOWN.iter().map(|(n, _)| *n).collect();
    let new: Vec<usize> = failing
        .iter()
        .copied()
        .filter(|n| !known.contains(n))
        .collect();
    let gone: Vec<usize> = known
        .iter()
        .copied()
        .filter(|n| !failing.contains(n))
        .collect();
    assert!(
        new.is_empty(),
        "examples that differ and are not in KNOWN: {new:?}\n{report}"
    );
    assert!(
        gone.is_empty(),
        "examples in KNOWN that are now equal (take them out of the list): {gone:?}"
    );
    assert!(ratio >= MIN_RATIO, "only {:.2} % equal", ratio * 100.0);
}

#[test]
fn known_differences_are_listed_once_in_order() {
    assert!(KNOWN.windows(2).all(|w| w[0].0 < w[1].0), "{KNOWN:?}");
    assert!(KNOWN.iter().all(|(_, why)| !why.trim().is_empty()));
}

// ----- Tokens -----

/// One token of HTML as an HTML5 tokenizer reads it (character references decoded).
#[derive(Debug, Clone, PartialEq)]
enum Tok {
    Start {
        name: String,
        attrs: Vec<(String, String)>,
        self_closing: bool,
    },
    End(String),
    Text(String),
    Comment(String),
    Doctype(String),
}

impl Tok {
    fn is_start(&self, tag: &str) -> bool {
        matches!(self, Tok::Start { name, .. } if name == tag)
    }

    fn attr(&self, key: &str) -> Option<&str> {
        match self {
            Tok::Start { attrs, .. } => attrs
                .iter()
                .find(|(k, _)| k == key)
                .map(|(_, v)| v.as_str()),
            _ => None,
        }
    }

    fn has_class(&self, class: &str) -> bool {
        self.attr("class")
            .is_some_and(|c| c.split_ascii_whitespace().any(|c| c == class))
    }
}

#[derive(Default)]
struct Collect(RefCell<Vec<Tok>>);

impl TokenSink for Collect {
    type Handle = ();

    fn process_token(&self, token: Token, _line: u64) -> TokenSinkResult<()> {
        let token = match token {
            Token::TagToken(tag) => return self.tag(tag),
            other => other,
        };
        let mut toks = self.0.borrow_mut();
        let mut text = |s: &str| match toks.last_mut() {
            Some(Tok::Text(t)) => t.push_str(s),
            _ => toks.push(Tok::Text(s.to_string())),
        };
        match token {
            Token::CharacterTokens(s) => text(&s),
            Token::NullCharacterToken => text("\0"),
            Token::CommentToken(c) => toks.push(Tok::Comment(c.to_string())),
            Token::DoctypeToken(d) => toks.push(Tok::Doctype(
                d.name.map(|n| n.to_string()).unwrap_or_default(),
            )),
            Token::TagToken(_) | Token::EOFToken | Token::ParseError(_) => {}
        }
        TokenSinkResult::Continue
    }
}

impl Collect {
    fn tag(&self, tag: Tag) -> TokenSinkResult<()> {
        let name = tag.name.to_string();
        let mut toks = self.0.borrow_mut();
        if tag.kind == TagKind::EndTag {
            toks.push(Tok::End(name));
            return TokenSinkResult::Continue;
        }
        // What a tree builder would tell the tokenizer: the content of these is text.
        let raw = match name.as_str() {
            "script" => Some(RawKind::ScriptData),
            "style" | "xmp" | "iframe" | "noembed" | "noframes" => Some(RawKind::Rawtext),
            "textarea" | "title" => Some(RawKind::Rcdata),
            _ => None,
        };
        toks.push(Tok::Start {
            name,
            attrs: tag
                .attrs
                .iter()
                .map(|a| (a.name.local.to_string(), a.value.to_string()))
                .collect(),
            self_closing: tag.self_closing,
        });
        match raw {
            Some(kind) if !tag.self_closing => TokenSinkResult::RawData(kind),
            _ => TokenSinkResult::Continue,
        }
    }
}

fn tokens(html: &str) -> Vec<Tok> {
    let tokenizer = Tokenizer::new(Collect::default(), TokenizerOpts::default());
    let input = BufferQueue::default();
    input.push_back(StrTendril::from_slice(html));
    while let TokenizerResult::Script(()) = tokenizer.feed(&input) {}
    tokenizer.end();
    tokenizer.sink.0.take()
}

// ----- docgen's additions -----

/// The index of the end tag closing the element that starts at `start` (elements of the same
/// name nest), or the end of `toks` when it is not closed.
fn matching_end(toks: &[Tok], start: usize) -> usize {
    let Tok::Start { name, .. } = &toks[start] else {
        return start;
    };
    let mut depth = 0usize;
    for (i, t) in toks.iter().enumerate().skip(start) {
        match t {
            Tok::Start {
                name: n,
                self_closing: false,
                ..
            } if n == name => depth += 1,
            Tok::End(n) if n == name => {
                depth -= 1;
                if depth == 0 {
                    return i;
                }
            }
            _ => {}
        }
    }
    toks.len()
}

fn is_heading(name: &str) -> bool {
    matches!(name, "h1" | "h2" | "h3" | "h4" | "h5" | "h6")
}

/// The rendered HTML as the spec's reference renderer would have written it:
///
/// - a heading's `id`, its `<a class="dg-anchor">#</a>` link and the `dg-anchor-alias` spans
///   are removed;
/// - a code box (`<div class="dg-code">` with its bar, panels and `<pre class="dg-hl"><code>`)
///   becomes `<pre><code class="language-x">`, `x` the panel's `data-lang`, without the
///   highlighter's `<span>`s;
/// - the `<div class="dg-table">` around a table is removed, and with it what docgen adds to
///   a table's cells: the prose column's and the field table's classes, the cells'
///   `data-label`, and the `<wbr>` in long words;
/// - `loading` and `decoding` (lazy loading of all but a page's first image) are removed from
///   `<img>`.
fn without_docgen_additions(toks: Vec<Tok>) -> Vec<Tok> {
    let mut out = Vec::with_capacity(toks.len());
    // End tags of wrappers whose start tag was dropped, by index.
    let mut drop_at: Vec<usize> = Vec::new();
    let mut i = 0;
    while i < toks.len() {
        let t = &toks[i];
        if drop_at.contains(&i) {
            i += 1;
            continue;
        }
        match t {
            Tok::Start { name, .. } if name == "div" && t.has_class("dg-code") => {
                let end = matching_end(&toks, i);
                out.extend(code_box(&toks[i..end.min(toks.len())]));
                i = end + 1;
                continue;
            }
            Tok::Start { name, .. } if name == "wbr" => {}
            Tok::Start { name, .. } if name == "div" && t.has_class("dg-table") => {
                drop_at.push(matching_end(&toks, i));
            }
            Tok::Start { name, .. }
                if (name == "a" && t.has_class("dg-anchor"))
                    || (name == "span" && t.has_class("dg-anchor-alias")) =>
            {
                i = matching_end(&toks, i) + 1;
                continue;
            }
            Tok::Start {
                name,
                attrs,
                self_closing,
            } => {
                let generated = is_heading(name)
                    && toks[i..matching_end(&toks, i).min(toks.len())]
                        .iter()
                        .any(|t| t.is_start("a") && t.has_class("dg-anchor"));
                let attrs = attrs
                    .iter()
                    .filter(|(k, v)| {
                        !(generated && k == "id"
                            || name == "img" && (k == "loading" || k == "decoding")
                            || matches!(name.as_str(), "table" | "th" | "td")
                                && (k == "data-label"
                                    || k == "class"
                                        && matches!(v.as_str(), "dg-fields" | "dg-col-text")))
                    })
                    .cloned()
                    .collect();
                out.push(Tok::Start {
                    name: name.clone(),
                    attrs,
                    self_closing: *self_closing,
                });
            }
            Tok::Text(s) => push_text(&mut out, s),
            _ => out.push(t.clone()),
        }
        i += 1;
    }
    out
}

/// Text after text (once a wrapper between them is gone) is one run of text.
fn push_text(out: &mut Vec<Tok>, s: &str) {
    match out.last_mut() {
        Some(Tok::Text(prev)) => prev.push_str(s),
        _ => out.push(Tok::Text(s.to_string())),
    }
}

/// The `<pre><code>` of each panel of a code box.
fn code_box(toks: &[Tok]) -> Vec<Tok> {
    let mut out = Vec::new();
    let mut lang = String::new();
    let mut in_code = false;
    for t in toks {
        match t {
            Tok::Start { name, .. } if name == "div" && t.has_class("dg-code-panel") => {
                lang = t.attr("data-lang").unwrap_or_default().to_string();
            }
            Tok::Start { name, .. } if name == "code" && !in_code => {
                in_code = true;
                out.push(Tok::Start {
                    name: "pre".into(),
                    attrs: Vec::new(),
                    self_closing: false,
                });
                let class =
                    (!lang.is_empty()).then(|| ("class".into(), format!("language-{lang}")));
                out.push(Tok::Start {
                    name: "code".into(),
                    attrs: class.into_iter().collect(),
                    self_closing: false,
                });
            }
            Tok::End(name) if name == "code" && in_code => {
                in_code = false;
                out.push(Tok::End("code".into()));
                out.push(Tok::End("pre".into()));
            }
            // The highlighter's spans.
            Tok::Start { name, .. } | Tok::End(name) if name == "span" => {}
            Tok::Text(s) if in_code => push_text(&mut out, s),
            _ => {}
        }
    }
    out
}

// ----- Addresses -----

/// Every `href` and `src` as a browser at the page's address (`/`) reads it: docgen writes a
/// link into the site as the path it leads to (`url` → `/url`), the spec as written.
fn as_browser_reads(mut toks: Vec<Tok>) -> Vec<Tok> {
    for t in &mut toks {
        if let Tok::Start { attrs, .. } = t {
            for (k, v) in attrs.iter_mut() {
                if k == "href" || k == "src" {
                    *v = resolved(v);
                }
            }
        }
    }
    toks
}

/// `address` resolved against `/` (RFC 3986, section 5.2): an address with a scheme, `//host`,
/// or only a `?query` or `#fragment` is left as it is; a path is made absolute and its `.` and
/// `..` segments removed.
fn resolved(address: &str) -> String {
    let has_scheme = address.split_once(':').is_some_and(|(s, _)| {
        s.starts_with(|c: char| c.is_ascii_alphabetic())
            && s.chars()
                .all(|c| c.is_ascii_alphanumeric() || "+-.".contains(c))
    });
    if address.is_empty()
        || has_scheme
        || address.starts_with("//")
        || address.starts_with(['?', '#'])
    {
        return address.to_string();
    }
    let split = address.find(['?', '#']).unwrap_or(address.len());
    let (path, rest) = address.split_at(split);
    let mut segments: Vec<&str> = Vec::new();
    let parts: Vec<&str> = path.trim_start_matches('/').split('/').collect();
    for (i, segment) in parts.iter().enumerate() {
        let last = i + 1 == parts.len();
        match *segment {
            "." if last => segments.push(""),
            "." => {}
            ".." => {
                segments.pop();
                if last {
                    segments.push("");
                }
            }
            s => segments.push(s),
        }
    }
    format!("/{}{rest}", segments.join("/"))
}

// ----- normalize.py -----

/// The block tags of `normalize.py`: whitespace around them does not matter.
fn is_block(tag: &str) -> bool {
    matches!(
        tag,
        "article"
            | "header"
            | "aside"
            | "hgroup"
            | "blockquote"
            | "hr"
            | "iframe"
            | "body"
            | "li"
            | "map"
            | "button"
            | "object"
            | "canvas"
            | "ol"
            | "caption"
            | "output"
            | "col"
            | "p"
            | "colgroup"
            | "pre"
            | "progress"
            | "div"
            | "section"
            | "dd"
            | "dl"
            | "table"
            | "td"
            | "dt"
            | "tbody"
            | "embed"
            | "textarea"
            | "fieldset"
            | "tfoot"
            | "figcaption"
            | "th"
            | "figure"
            | "thead"
            | "footer"
            | "tr"
            | "form"
            | "ul"
            | "h1"
            | "h2"
            | "h3"
            | "h4"
            | "h5"
            | "h6"
            | "video"
            | "script"
            | "style"
    )
}

fn escape(s: &str, out: &mut String) {
    for c in s.chars() {
        match c {
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '&' => out.push_str("&amp;"),
            '"' => out.push_str("&quot;"),
            c => out.push(c),
        }
    }
}

#[derive(PartialEq)]
enum Last {
    Start,
    End,
    Other,
}

/// The tokens written back as `normalize.py` writes them: runs of whitespace one space outside
/// `<pre>`, no whitespace around block tags, attributes sorted, self-closing tags as start tags,
/// character references as characters (but `<`, `>`, `&` and `"`, written as entities).
fn normalize(toks: Vec<Tok>) -> String {
    let mut out = String::new();
    let mut last = Last::Start;
    let mut last_tag = String::new();
    let mut in_pre = false;
    for t in toks {
        match t {
            Tok::Text(data) => {
                let after_tag = last != Last::Other;
                let mut data: &str = &data;
                if after_tag && last_tag == "br" {
                    data = data.trim_start_matches('\n');
                }
                let mut text = if in_pre {
                    data.to_string()
                } else {
                    collapse_whitespace(data)
                };
                if after_tag && is_block(&last_tag) && !in_pre {
                    text = match last {
                        Last::Start => text.trim_start().to_string(),
                        _ => text.trim().to_string(),
                    };
                }
                escape(&text, &mut out);
                last = Last::Other;
            }
            Tok::End(tag) => {
                if tag == "pre" {
                    in_pre = false;
                } else if is_block(&tag) {
                    out.truncate(out.trim_end().len());
                }
                out.push_str("</");
                out.push_str(&tag);
                out.push('>');
                last_tag = tag;
                last = Last::End;
            }
            Tok::Start {
                name,
                mut attrs,
                self_closing,
            } => {
                if name == "pre" {
                    in_pre = true;
                }
                if is_block(&name) {
                    out.truncate(out.trim_end().len());
                }
                out.push('<');
                out.push_str(&name);
                attrs.sort();
                for (k, v) in attrs {
                    out.push(' ');
                    out.push_str(&k);
                    out.push_str("=\"");
                    escape(&v, &mut out);
                    out.push('"');
                }
                out.push('>');
                last_tag = name;
                last = if self_closing { Last::End } else { Last::Start };
            }
            Tok::Comment(c) => {
                out.push_str("<!--");
                out.push_str(&c);
                out.push_str("-->");
                last = Last::Other;
            }
            Tok::Doctype(d) => {
                out.push_str("<!DOCTYPE ");
                out.push_str(&d);
                out.push('>');
                last = Last::Other;
            }
        }
    }
    out
}

/// Each run of whitespace one space.
fn collapse_whitespace(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    let mut in_space = false;
    for c in s.chars() {
        if c.is_whitespace() {
            if !in_space {
                out.push(' ');
            }
            in_space = true;
        } else {
            out.push(c);
            in_space = false;
        }
    }
    out
}

// ----- The normaliser's own tests -----

#[test]
fn normalisation_ignores_what_normalize_py_ignores() {
    let n = |s: &str| normalize(tokens(s));
    assert_eq!(n("<p>a  \t b</p>"), "<p>a b</p>");
    assert_eq!(n("\n\t<p>\n\t\ta  b\t\t</p>\n\t"), "<p>a b</p>");
    assert_eq!(n("<i>a  b</i> "), "<i>a b</i> ");
    assert_eq!(n("<br />"), "<br>");
    assert_eq!(
        n("<a title=\"bar\" HREF=\"foo\">x</a>"),
        "<a href=\"foo\" title=\"bar\">x</a>"
    );
    assert_eq!(
        n("&forall;&amp;&gt;&lt;&quot;"),
        "\u{2200}&amp;&gt;&lt;&quot;"
    );
    assert_eq!(
        n("<pre><code>a  b\n</code></pre>"),
        "<pre><code>a  b\n</code></pre>"
    );
    // What matters stays.
    assert_ne!(n("<p>a b</p>"), n("<p>ab</p>"));
    assert_ne!(n("<em>a</em>"), n("<strong>a</strong>"));
}

#[test]
fn docgen_s_additions_are_taken_out() {
    let page = |md: &str| rendered(md);
    assert_eq!(page("## Hello *you*\n"), "<h2>Hello <em>you</em></h2>");
    assert_eq!(
        page("```rust\nfn main() {}\n```\n"),
        "<pre><code class=\"language-rust\">fn main() {}\n</code></pre>"
    );
    assert_eq!(page("    plain\n"), "<pre><code>plain\n</code></pre>");
    assert_eq!(
        page("| a |\n| - |\n| b |\n"),
        "<table><thead><tr><th>a</th></tr></thead><tbody><tr><td>b</td></tr></tbody></table>"
    );
    assert_eq!(
        page("![one](a.png) ![two](b.png)\n"),
        "<p><img alt=\"one\" src=\"/a.png\"> <img alt=\"two\" src=\"/b.png\"></p>"
    );
    // A heading written in raw HTML keeps its id: only docgen's are taken out.
    assert_eq!(page("<h2 id=\"x\">X</h2>\n"), "<h2 id=\"x\">X</h2>");
}

#[test]
fn addresses_resolve_as_in_a_browser_at_the_root() {
    for (written, read) in [
        ("url", "/url"),
        ("/url", "/url"),
        ("./a/../b.md?x=1#y", "/b.md?x=1#y"),
        ("a/.", "/a/"),
        ("../..", "/"),
        ("https://example.com/a", "https://example.com/a"),
        ("mailto:a@b.c", "mailto:a@b.c"),
        ("//cdn.example/x", "//cdn.example/x"),
        ("#frag", "#frag"),
        ("?q", "?q"),
        ("", ""),
    ] {
        assert_eq!(resolved(written), read, "{written}");
    }
}
