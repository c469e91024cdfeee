//! The raw HTML of a page read as a browser reads it, by a WHATWG tokenizer (html5gum): every
//! address an attribute gives (entities decoded, then the tab and newline characters a URL
//! parser drops removed and the leading control characters and spaces trimmed) is checked for
//! a scheme that runs code, and every script and event handler against the
//! Content-Security-Policy docgen writes (`script-src 'self'` plus the hashes of the inline
//! scripts).
//!
//! A tokenizer alone does not know where the tree builder would switch it into raw text (a
//! `<script>` or `<textarea>`, but not an SVG `<style>`) or accept CDATA (in SVG and MathML):
//! the HTML is read twice, once switching as the HTML namespace does and once reading markup
//! everywhere, and what either reading finds is reported. A refusal inside text a browser
//! never parses as markup costs a rewrite; an address missed would cost a reader.

use std::ops::Range;

use html5gum::{
    DefaultEmitter, Emitter, ForwardingEmitter, HtmlString, Spanned, StartTag, State, Token,
    Tokenizer,
};

/// What the scan found, at a byte offset of the scanned HTML.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Found {
    pub at: usize,
    pub issue: Issue,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Issue {
    /// `attr` of `<tag>` leads to an address of a refused scheme.
    UnsafeUrl {
        tag: String,
        attr: String,
        scheme: String,
    },
    /// An `on...` attribute: inline code the policy does not run.
    EventHandler { tag: String, attr: String },
    /// A `<script src>` on another site, which `script-src 'self'` does not load.
    ExternalScript { src: String },
    /// An inline `<script>`: its hash goes into the policy, but it runs only when the page is
    /// opened directly (the app puts the pages it navigates to in place as HTML, whose scripts
    /// never run).
    InlineScript,
    /// A script in an `<iframe srcdoc>` document, which inherits the page's policy and whose
    /// hash docgen does not add.
    SrcdocScript,
}

pub use crate::config::schemes::{UNSAFE_SCHEMES, refused_scheme, scheme_of};

/// Scans `html` (the raw HTML of one page, joined) for refused addresses, event handlers and
/// scripts. `allowed`: the schemes the site allows (`allowLinkSchemes`).
pub fn scan(html: &str, allowed: &[String]) -> Vec<Found> {
    let mut found = Vec::new();
    for mode in [Mode::AsHtml, Mode::MarkupEverywhere] {
        for f in scan_once(html, allowed, mode) {
            if !found.contains(&f) {
                found.push(f);
            }
        }
    }
    found.sort_by_key(|f| f.at);
    found
}

/// The text of every inline script a browser runs in `html` (a rendered page body), newlines
/// normalised as the HTML parser does: what the policy's `sha256-` sources are made from.
pub fn inline_scripts(html: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut open: Option<String> = None;
    for token in tokens(html, Mode::AsHtml) {
        match token {
            Token::StartTag(tag) if tag.name == b"script" => {
                open = runs_inline(&tag).then(String::new);
            }
            Token::String(s) => {
                if let Some(text) = open.as_mut() {
                    text.push_str(&String::from_utf8_lossy(&s.value));
                }
            }
            Token::EndTag(tag) if tag.name == b"script" => {
                if let Some(text) = open.take() {
                    out.push(text.replace("\r\n", "\n").replace('\r', "\n"));
                }
            }
            _ => {}
        }
    }
    out
}

/// The fragment targets `html` declares, as a browser finds them: the `id` of every element
/// and the `name` of every `<a>` (HTML's "find a potential indicated element"), values with
/// their entities decoded. Markup inside raw text (a `<script>`, a `<textarea>`) declares none,
/// and neither does `id=` written inside another attribute's value.
pub fn fragment_ids(html: &str) -> Vec<String> {
    let mut out = Vec::new();
    for token in tokens(html, Mode::AsHtml) {
        let Token::StartTag(tag) = token else {
            continue;
        };
        let mut add = |attr: &[u8]| {
            if let Some(v) = tag.attributes.get(attr).filter(|v| !v.value.is_empty()) {
                out.push(text(&v.value));
            }
        };
        add(b"id");
        if tag.name == b"a" {
            add(b"name");
        }
    }
    out
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Mode {
    /// Raw text and CDATA where the HTML and foreign namespaces have them.
    AsHtml,
    /// Markup read everywhere, CDATA never.
    MarkupEverywhere,
}

fn tokens(html: &str, mode: Mode) -> impl Iterator<Item = Token<usize>> + '_ {
    let emitter = Reading {
        inner: DefaultEmitter::new_with_span(),
        name: Vec::new(),
        start: false,
        self_closing: false,
        foreign: 0,
        mode,
    };
    Tokenizer::new_with_emitter(html, emitter).flatten()
}

/// The default emitter, switching the tokenizer's state after a start tag as the tree builder
/// would (`Mode::AsHtml`), with a count of open `<svg>` and `<math>` elements for CDATA.
struct Reading {
    inner: DefaultEmitter<usize>,
    name: Vec<u8>,
    start: bool,
    self_closing: bool,
    foreign: usize,
    mode: Mode,
}

impl ForwardingEmitter for Reading {
    type Token = Token<usize>;

    fn inner(&mut self) -> &mut impl Emitter<Token = Self::Token> {
        &mut self.inner
    }

    fn init_start_tag(&mut self) {
        Emitter::init_start_tag(&mut self.inner);
        self.name.clear();
        self.start = true;
        self.self_closing = false;
    }

    fn init_end_tag(&mut self) {
        Emitter::init_end_tag(&mut self.inner);
        self.name.clear();
        self.start = false;
    }

    fn push_tag_name(&mut self, s: &[u8]) {
        Emitter::push_tag_name(&mut self.inner, s);
        self.name.extend(s.iter().map(u8::to_ascii_lowercase));
    }

    fn set_self_closing(&mut self) {
        Emitter::set_self_closing(&mut self.inner);
        self.self_closing = true;
    }

    fn emit_current_tag(&mut self) -> Option<State> {
        let _ = Emitter::emit_current_tag(&mut self.inner);
        if self.mode == Mode::MarkupEverywhere {
            return None;
        }
        let foreign_root = matches!(self.name.as_slice(), b"svg" | b"math");
        if !self.start {
            if foreign_root {
                self.foreign = self.foreign.saturating_sub(1);
            }
            return None;
        }
        if foreign_root && !self.self_closing {
            self.foreign += 1;
        }
        if self.foreign > 0 {
            return None;
        }
        // `<noscript>` is left as markup: with scripting off, a browser parses its content.
        let next = match self.name.as_slice() {
            b"script" => State::ScriptData,
            b"style" | b"xmp" | b"iframe" | b"noembed" | b"noframes" => State::RawText,
            b"textarea" | b"title" => State::RcData,
            b"plaintext" => State::PlainText,
            _ => return None,
        };
        Emitter::init_string(&mut self.inner);
        Some(next)
    }

    fn adjusted_current_node_present_but_not_in_html_namespace(&mut self) -> bool {
        self.mode == Mode::AsHtml && self.foreign > 0
    }
}

fn scan_once(html: &str, allowed: &[String], mode: Mode) -> Vec<Found> {
    let mut found = Vec::new();
    for token in tokens(html, mode) {
        if let Token::StartTag(tag) = token {
            check_tag(&tag, allowed, &mut found);
        }
    }
    found
}

/// Attributes whose value is one address.
const URL_ATTRIBUTES: [&str; 16] = [
    "href",
    "src",
    "action",
    "formaction",
    "data",
    "xlink:href",
    "poster",
    "background",
    "cite",
    "longdesc",
    "codebase",
    "manifest",
    "icon",
    "lowsrc",
    "dynsrc",
    "usemap",
];

fn text(s: &HtmlString) -> String {
    String::from_utf8_lossy(s).into_owned()
}

fn check_tag(tag: &StartTag<usize>, allowed: &[String], found: &mut Vec<Found>) {
    let name = text(&tag.name);
    let attr =
        |n: &str| -> Option<&Spanned<HtmlString, usize>> { tag.attributes.get(n.as_bytes()) };
    for (key, value) in &tag.attributes {
        let key = text(key);
        let at = value.span.start;
        let v = text(&value.value);
        let mut refuse = |url: &str| {
            if let Some(scheme) = refused_scheme(url, allowed, data_is_image(&name, &key)) {
                found.push(Found {
                    at,
                    issue: Issue::UnsafeUrl {
                        tag: name.clone(),
                        attr: key.clone(),
                        scheme,
                    },
                });
            }
        };
        match key.as_str() {
            k if k.len() > 2 && k.starts_with("on") => found.push(Found {
                at,
                issue: Issue::EventHandler {
                    tag: name.clone(),
                    attr: key.clone(),
                },
            }),
            k if URL_ATTRIBUTES.contains(&k) => refuse(&v),
            "srcset" | "imagesrcset" => srcset_urls(&v).into_iter().for_each(&mut refuse),
            "ping" => v.split_ascii_whitespace().for_each(&mut refuse),
            "archive" => v
                .split(|c: char| c == ',' || c.is_ascii_whitespace())
                .for_each(&mut refuse),
            "srcdoc" => {
                // A document of its own, under this page's policy: read like the page.
                for inner in scan(&v, allowed) {
                    let issue = match inner.issue {
                        Issue::InlineScript => Issue::SrcdocScript,
                        other => other,
                    };
                    found.push(Found { at, issue });
                }
            }
            "content" if is_refresh(attr("http-equiv")) => {
                refresh_urls(&v).into_iter().for_each(&mut refuse)
            }
            // SVG animation can set an `href` to any value: `<set attributeName="href" to=…>`.
            "to" | "from" | "by" | "values" if animates_href(attr("attributename")) => {
                v.split(';').for_each(&mut refuse)
            }
            _ => {}
        }
    }
    if name == "script" {
        match attr("src") {
            Some(src) => {
                let s = text(&src.value);
                if other_site(&s) {
                    found.push(Found {
                        at: src.span.start,
                        issue: Issue::ExternalScript { src: s },
                    });
                }
            }
            None if runs_inline(tag) => found.push(Found {
                at: tag.span.start,
                issue: Issue::InlineScript,
            }),
            None => {}
        }
    }
}

/// Where a `data:` address can only be an image (never a document or a script), which the
/// policy's `img-src 'self' data:` loads.
fn data_is_image(tag: &str, attr: &str) -> bool {
    matches!(
        (tag, attr),
        ("img", "src" | "srcset")
            | ("source", "srcset")
            | ("video", "poster")
            | ("input", "src")
            | ("image", "href" | "xlink:href")
            | (_, "background")
    )
}

fn is_refresh(v: Option<&Spanned<HtmlString, usize>>) -> bool {
    v.is_some_and(|v| text(&v.value).trim().eq_ignore_ascii_case("refresh"))
}

fn animates_href(v: Option<&Spanned<HtmlString, usize>>) -> bool {
    v.is_some_and(|v| {
        let name = text(&v.value);
        let name = name.trim();
        name.eq_ignore_ascii_case("href") || name.eq_ignore_ascii_case("xlink:href")
    })
}

/// Whether a `<script src>` names another site (an absolute or scheme-relative address).
fn other_site(src: &str) -> bool {
    let s: String = src
        .trim_matches(|c: char| c <= ' ')
        .chars()
        .filter(|c| !matches!(c, '\t' | '\n' | '\r'))
        .collect();
    s.starts_with("//")
        || s.starts_with("\\\\")
        || s.starts_with("/\\")
        || s.starts_with("\\/")
        || matches!(scheme_of(&s).as_deref(), Some("http" | "https"))
}

/// Whether a `<script>` runs its own text: no `src`, and a JavaScript, module or import map
/// type (an import map is an inline script for the policy too).
fn runs_inline(tag: &StartTag<usize>) -> bool {
    if tag.attributes.contains_key(b"src".as_slice()) {
        return false;
    }
    let Some(t) = tag.attributes.get(b"type".as_slice()) else {
        return match tag.attributes.get(b"language".as_slice()) {
            None => true,
            Some(l) => {
                let l = text(&l.value);
                l.is_empty() || is_javascript_type(&format!("text/{l}"))
            }
        };
    };
    let t = text(&t.value);
    let t = t.trim();
    t.is_empty()
        || ["module", "importmap", "speculationrules"]
            .iter()
            .any(|k| t.eq_ignore_ascii_case(k))
        || is_javascript_type(t)
}

/// The JavaScript MIME types of the HTML standard (parameters ignored).
fn is_javascript_type(t: &str) -> bool {
    let essence = t
        .split(';')
        .next()
        .unwrap_or("")
        .trim()
        .to_ascii_lowercase();
    matches!(
        essence.as_str(),
        "application/ecmascript"
            | "application/javascript"
            | "application/x-ecmascript"
            | "application/x-javascript"
            | "text/ecmascript"
            | "text/javascript"
            | "text/javascript1.0"
            | "text/javascript1.1"
            | "text/javascript1.2"
            | "text/javascript1.3"
            | "text/javascript1.4"
            | "text/javascript1.5"
            | "text/jscript"
            | "text/livescript"
            | "text/x-ecmascript"
            | "text/x-javascript"
    )
}

/// The addresses of a `srcset`, as the HTML standard splits it: candidates separated by
/// commas, each an address and descriptors (which may hold commas inside parentheses).
fn srcset_urls(v: &str) -> Vec<&str> {
    let mut out = Vec::new();
    let mut rest = v;
    loop {
        rest = rest.trim_start_matches(|c: char| c.is_ascii_whitespace() || c == ',');
        if rest.is_empty() {
            return out;
        }
        let end = rest
            .find(|c: char| c.is_ascii_whitespace())
            .unwrap_or(rest.len());
        let url = &rest[..end];
        rest = &rest[end..];
        if url.ends_with(',') {
            out.push(url.trim_end_matches(','));
            continue;
        }
        out.push(url);
        let mut depth = 0usize;
        let mut cut = rest.len();
        for (i, c) in rest.char_indices() {
            match c {
                '(' => depth += 1,
                ')' => depth = depth.saturating_sub(1),
                ',' if depth == 0 => {
                    cut = i;
                    break;
                }
                _ => {}
            }
        }
        rest = &rest[cut..];
    }
}

/// The address a `<meta http-equiv="refresh" content="…">` goes to, read both as the standard's
/// steps read it (`5; url='…'`) and as the whole text after the delay (what the steps read when
/// `url=` is misspelt): either could be what a browser follows.
fn refresh_urls(content: &str) -> Vec<&str> {
    let ws = |c: char| c.is_ascii_whitespace();
    let rest = content
        .trim_start_matches(ws)
        .trim_start_matches(|c: char| c.is_ascii_digit() || c == '.')
        .trim_start_matches(ws);
    let rest = rest
        .strip_prefix([';', ','])
        .unwrap_or(rest)
        .trim_start_matches(ws);
    let mut out = vec![rest];
    if rest.get(..3).is_some_and(|u| u.eq_ignore_ascii_case("url")) {
        let after = rest[3..].trim_start_matches(ws);
        if let Some(after) = after.strip_prefix('=') {
            let after = after.trim_start_matches(ws);
            out.push(after.strip_prefix(['"', '\'']).unwrap_or(after));
        }
    }
    out
}

/// The raw HTML of one page body, joined in the order a browser reads it, with where each
/// piece was written, so an offset of the joined text leads back to the Markdown.
#[derive(Debug, Default)]
pub struct Joined {
    pub text: String,
    /// (offset in `text`, offset in the Markdown, whether the piece is the Markdown's text
    /// verbatim, so offsets inside it map one to one).
    pieces: Vec<(usize, usize, bool)>,
}

impl Joined {
    /// Adds one raw HTML event: `html` its text, `range` where it stands in `markdown`.
    pub fn push(&mut self, html: &str, range: Range<usize>, markdown: &str) {
        let verbatim = markdown.get(range.clone()) == Some(html);
        self.pieces.push((self.text.len(), range.start, verbatim));
        self.text.push_str(html);
    }

    /// The offset in the Markdown of offset `at` of the joined text.
    pub fn source_offset(&self, at: usize) -> usize {
        let i = self.pieces.partition_point(|(start, _, _)| *start <= at);
        match i.checked_sub(1).map(|i| self.pieces[i]) {
            Some((start, source, true)) => source + (at - start),
            Some((_, source, false)) => source,
            None => 0,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn issues(html: &str) -> Vec<Issue> {
        scan(html, &[]).into_iter().map(|f| f.issue).collect()
    }

    fn schemes(html: &str) -> Vec<String> {
        issues(html)
            .into_iter()
            .filter_map(|i| match i {
                Issue::UnsafeUrl { scheme, .. } => Some(scheme),
                _ => None,
            })
            .collect()
    }

    /// Every way of writing a code-running address that browsers follow.
    const REFUSED: [&str; 30] = [
        r#"<a href="javascript:alert(1)">x</a>"#,
        r#"<a href=JAVASCRIPT:alert(1)>x</a>"#,
        r#"<a href="&#106;avascript:alert(1)">x</a>"#,
        r#"<a href="&#x6A;avascript:alert(1)">x</a>"#,
        r#"<a href="&#X6a;avascript&colon;alert(1)">x</a>"#,
        r#"<a href="java&Tab;script:alert(1)">x</a>"#,
        r#"<a href="java&NewLine;script:alert(1)">x</a>"#,
        "<a href=\"java\tscript:alert(1)\">x</a>",
        "<a href=\"java\nscript:alert(1)\">x</a>",
        r#"<a href=" &#1; javascript:alert(1)">x</a>"#,
        r#"<a href="&#0000106&#0000097&#0000118&#0000097&#0000115&#0000099&#0000114&#0000105&#0000112&#0000116&#0000058alert(1)">x</a>"#,
        r#"<a href="vbscript:msgbox(1)">x</a>"#,
        r#"<a href="data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==">x</a>"#,
        r#"<iframe src="javascript:alert(1)"></iframe>"#,
        r#"<iframe src="data:text/html,<script>alert(1)</script>"></iframe>"#,
        r#"<form action="javascript:alert(1)"><button>go</button></form>"#,
        r#"<button formaction="javascript:alert(1)">go</button>"#,
        r#"<input type="submit" formaction="JaVaScRiPt:alert(1)">"#,
        r#"<object data="javascript:alert(1)"></object>"#,
        r#"<embed src="data:image/svg+xml,<svg onload=alert(1)>">"#,
        r#"<svg><a xlink:href="javascript:alert(1)"><text>x</text></a></svg>"#,
        r#"<svg><a href="javascript:alert(1)"><text>x</text></a></svg>"#,
        r#"<meta http-equiv="refresh" content="0;url=javascript:alert(1)">"#,
        r#"<meta http-equiv=Refresh content="0; URL = 'data:text/html,x'">"#,
        r#"<video poster="javascript:alert(1)"></video>"#,
        r#"<img srcset="a.png 1x, javascript:alert(1) 2x">"#,
        r#"<a ping="/p javascript:alert(1)" href="/x">x</a>"#,
        r#"<blockquote cite="javascript:alert(1)">q</blockquote>"#,
        r#"<svg><a><set attributeName="href" to="javascript:alert(1)"/><text>x</text></a></svg>"#,
        r#"<script src="data:text/javascript,alert(1)"></script>"#,
    ];

    #[test]
    fn every_spelling_of_a_code_running_address_is_refused() {
        for html in REFUSED {
            assert!(!schemes(html).is_empty(), "not refused: {html}");
        }
    }

    #[test]
    fn a_tag_split_across_lines_and_a_svg_style_are_read_as_markup() {
        assert_eq!(
            schemes("<a\nhref=\"java\nscript:x()\">x</a>"),
            ["javascript"]
        );
        // In SVG, <style> holds markup: the second reading finds the link inside.
        assert_eq!(
            schemes(r#"<svg><style><a href="javascript:x()">x</a></style></svg>"#),
            ["javascript"]
        );
        // A comment opened inside a <title> is text: the link after it is live.
        assert_eq!(
            schemes(r#"<title><!--</title><a href="javascript:x()">x</a>-->"#),
            ["javascript"]
        );
        // In SVG, CDATA ends at `]]>`, not at the first `>`.
        assert_eq!(
            schemes(r#"<svg><![CDATA[ > <!-- ]]><a href="javascript:x()">x</a>--></svg>"#),
            ["javascript"]
        );
    }

    #[test]
    fn ordinary_addresses_pass() {
        for html in [
            r#"<a href="/docs/intro">x</a>"#,
            r#"<a href="../guide.md#setup">x</a>"#,
            r##"<a href="#anchor">x</a>"##,
            r#"<a href="mailto:team@example.com">x</a>"#,
            r#"<a href="tel:+15551234">x</a>"#,
            r#"<a href="https://example.com/a?b=c">x</a>"#,
            r#"<a href="javascript-guide.html">x</a>"#,
            r#"<a href="/search?q=javascript:">x</a>"#,
            r#"<img src="data:image/png;base64,iVBORw0KGgo=" alt="dot">"#,
            r#"<img srcset="data:image/png;base64,iVBO,Rw0KGgo= 1x, b.png 2x" alt="x">"#,
            r#"<picture><source srcset="data:image/webp;base64,UklGR" type="image/webp"></picture>"#,
            r#"<svg><image href="data:image/png;base64,iVBO"/></svg>"#,
            r#"<form action="/search"><button formaction="/go">go</button></form>"#,
            r#"<meta http-equiv="refresh" content="5; url=/new">"#,
            r#"<iframe src="https://www.youtube.com/embed/x"></iframe>"#,
            r#"<div data-dg-block="dependency-builder" data-platform="android">fallback</div>"#,
            r#"<pre><code>&lt;a href="javascript:x()"&gt;</code></pre>"#,
            r#"<script src="/s/widget.js"></script>"#,
            r#"<script type="application/json">{"href": "javascript:x()"}</script>"#,
        ] {
            let found = issues(html);
            assert!(found.is_empty(), "{html}: {found:?}");
        }
    }

    #[test]
    fn text_only_the_second_reading_takes_for_markup_is_refused_too() {
        // A browser shows this link as text; refusing it costs a rewrite, never a reader.
        assert_eq!(
            schemes(r#"<textarea><a href="javascript:x()"></textarea>"#),
            ["javascript"]
        );
    }

    #[test]
    fn the_site_can_allow_a_scheme() {
        let html = r#"<a href="data:text/plain,hi">x</a>"#;
        assert_eq!(schemes(html), ["data"]);
        assert!(scan(html, &["DATA".to_string()]).is_empty());
    }

    #[test]
    fn scripts_and_handlers_are_judged_by_the_policy() {
        assert_eq!(
            issues(r#"<button onclick="go()">x</button>"#),
            [Issue::EventHandler {
                tag: "button".into(),
                attr: "onclick".into()
            }]
        );
        assert_eq!(
            issues(r#"<svg onload=alert(1)></svg>"#),
            [Issue::EventHandler {
                tag: "svg".into(),
                attr: "onload".into()
            }]
        );
        assert_eq!(issues("<script>go()</script>"), [Issue::InlineScript]);
        assert_eq!(
            issues(r#"<script type="module">go()</script>"#),
            [Issue::InlineScript]
        );
        assert_eq!(
            issues(r#"<script src="https://cdn.example.com/x.js"></script>"#),
            [Issue::ExternalScript {
                src: "https://cdn.example.com/x.js".into()
            }]
        );
        assert_eq!(
            issues(r#"<script src="//cdn.example.com/x.js"></script>"#).len(),
            1
        );
        assert_eq!(
            issues(r#"<iframe srcdoc="&lt;script&gt;go()&lt;/script&gt;"></iframe>"#),
            [Issue::SrcdocScript]
        );
        assert_eq!(
            schemes(r#"<iframe srcdoc="&lt;a href='javascript:x()'&gt;x&lt;/a&gt;"></iframe>"#),
            ["javascript"]
        );
    }

    #[test]
    fn findings_point_at_their_attribute() {
        let html = "<p>\n<a title=\"t\" href=\"javascript:x()\">x</a>";
        let found = scan(html, &[]);
        assert_eq!(found.len(), 1);
        assert!(html[found[0].at..].starts_with("href="), "{found:?}");
    }

    #[test]
    fn inline_scripts_are_read_as_a_browser_runs_them() {
        let body = "<p>a</p>\n<script>if (a < b && c) { go('</p>') }</script>\n\
                    <script type=\"application/ld+json\">{}</script>\n\
                    <script src=\"/x.js\"></script><script type=\"text/javascript\">b()\r\n</script>";
        assert_eq!(
            inline_scripts(body),
            ["if (a < b && c) { go('</p>') }", "b()\n"]
        );
    }

    #[test]
    fn scheme_of_reads_as_a_url_parser() {
        assert_eq!(
            scheme_of(" \u{1}JavaScript:x").as_deref(),
            Some("javascript")
        );
        assert_eq!(
            scheme_of("j\na\tv\rascript:x").as_deref(),
            Some("javascript")
        );
        assert_eq!(scheme_of("/a:b"), None);
        assert_eq!(scheme_of("1http://x"), None);
        assert_eq!(scheme_of("no-colon"), None);
        assert_eq!(scheme_of("web+app:x").as_deref(), Some("web+app"));
    }

    #[test]
    fn srcset_and_refresh_are_split_as_the_standard_does() {
        assert_eq!(
            srcset_urls("a.png 1x, b.png (x, y) 2x,c.png,, d.png"),
            ["a.png", "b.png", "c.png", "d.png"]
        );
        assert_eq!(
            refresh_urls("0; URL = 'javascript:x'"),
            ["URL = 'javascript:x'", "javascript:x'"]
        );
        assert_eq!(refresh_urls("1;ü=x"), ["ü=x"]);
    }

    #[test]
    fn offsets_lead_back_to_the_markdown() {
        let md = "text <b>x</b>\n\n<div>\n</div>\n";
        let mut j = Joined::default();
        j.push("<b>", 5..8, md);
        j.push("</div>\n", 21..28, md);
        assert_eq!(j.source_offset(1), 6);
        assert_eq!(j.source_offset(4), 22);
    }

    #[test]
    fn fragment_ids_are_read_from_attributes_only() {
        let ids = |html: &str| fragment_ids(html);
        // `id=` inside another attribute's value declares nothing.
        assert!(ids(r#"<div title="see id='x'">t</div>"#).is_empty());
        assert!(ids(r#"<p data-x='id="y"'>t</p>"#).is_empty());
        // Quoted, unquoted and upper-case attribute names all count.
        assert_eq!(
            ids(r#"<div id="a"></div><span id=b>t</span><h2 ID='c'>h</h2>"#),
            ["a", "b", "c"]
        );
        // Entities are decoded as a browser decodes them.
        assert_eq!(ids(r#"<div id="x&amp;y"></div>"#), ["x&y"]);
        // `name` targets a fragment on `<a>` only; an empty id is no target.
        assert_eq!(
            ids(r#"<a name="old"></a><input name="q"><p id="">t</p>"#),
            ["old"]
        );
        // Markup in raw text, comments and end tags declares none.
        assert!(
            ids("<script>let s = '<div id=\"z\">';</script><!-- <b id=c> --></p id=q>").is_empty()
        );
        // The id of a tag split over lines is still found.
        assert_eq!(ids("<div\n  class=\"note\"\n  id=\"multi\">"), ["multi"]);
    }
}
