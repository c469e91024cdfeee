//! Block containers found on source lines before parsing: `:::kind` … `:::` admonitions
//! (Docusaurus, Starlight, VitePress), `::: code-group`, Docusaurus `<Tabs>`/`<TabItem>` and,
//! in MDX pages, `<Admonition>`, top-level `import`/`export` lines and `{/* */}` comments.
//!
//! pulldown-cmark folds `:::tip\ntext\n:::` into one paragraph, so each marker line is replaced
//! by an HTML comment naming the marker (`<!--dg-marker:N-->`). A comment line starts an HTML
//! block that may interrupt a paragraph and ends on the same line, so the text between markers
//! parses as Markdown of its own, and every other line keeps its number and columns.

use std::borrow::Cow;

use super::Problem;
use super::mdx;

/// The admonition kinds a `:::` container may name, with their class and title.
pub(crate) const KINDS: [(&str, &str); 8] = [
    ("note", "Note"),
    ("tip", "Tip"),
    ("info", "Info"),
    ("important", "Important"),
    ("warning", "Warning"),
    ("danger", "Danger"),
    ("caution", "Caution"),
    ("success", "Success"),
];

pub(crate) const PLACEHOLDER: &str = "<!--dg-marker:";

/// What a marker line stands for.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Marker {
    Admonition {
        class: &'static str,
        title: String,
    },
    AdmonitionEnd,
    CodeGroup,
    CodeGroupEnd,
    /// `labels` of its items, `end` the index of its closing marker.
    Tabs {
        labels: Vec<String>,
        end: usize,
    },
    TabsEnd,
    TabItem {
        label: String,
    },
    TabItemEnd,
    /// An MDX `<CodeBlock>`: the info string its attributes make (`js title="app.js"
    /// showLineNumbers`) and its code, rendered as a fenced block with that info string.
    CodeBlock {
        info: String,
        code: String,
        /// The body line it opens on.
        line: usize,
    },
    /// A marker docgen does not render (an unknown kind, its end, a stray `:::`): the warning
    /// is already given; the content between shows as plain Markdown.
    Dropped,
}

/// The source as parsed, with the markers its placeholders name.
pub(crate) struct Prepared<'a> {
    pub text: Cow<'a, str>,
    pub markers: Vec<Marker>,
    pub warnings: Vec<Problem>,
}

/// True when `src` may hold something [`prepare`] rewrites (a cheap test that spares plain
/// pages the line scan).
fn worth_scanning(src: &str, mdx: bool) -> bool {
    let b = src.as_bytes();
    mdx || memchr::memmem::find(b, b":::").is_some() || memchr::memmem::find(b, b"<Tab").is_some()
}

enum Open {
    Admonition,
    Unknown,
    CodeGroup,
    /// `labels`: Docusaurus's older `values={[{label, value}]}` prop, by value.
    Tabs {
        marker: usize,
        labels: Vec<(String, String)>,
    },
    TabItem,
}

struct Frame {
    open: Open,
    /// The number of colons of a `:::` fence; 0 for a tag.
    fence: usize,
    line: usize,
}

/// Finds the markers of `src` and replaces their lines by placeholders.
///
/// A marker line that CommonMark reads as the content of a code block (`:::note` indented as
/// code) or of raw text in HTML (`<pre>`, `<script>`, `<style>`, `<textarea>`, a comment, `<?`
/// or `<!`) is text, not a marker: the lines whose placeholders a parse finds there are scanned
/// again as plain lines, until none is left. Inside other HTML blocks (`<div>`, `<img>`) a
/// marker line stays a marker, so `:::tip` / `<img …>` / `:::` needs no blank lines.
pub(crate) fn prepare(src: &str, is_mdx: bool) -> Prepared<'_> {
    let source_lines = src.split_inclusive('\n').count();
    let mut literal: Vec<usize> = Vec::new();
    loop {
        let p = scan(src, is_mdx, &literal);
        if p.markers.is_empty() {
            return p;
        }
        let before = literal.len();
        for line in markers_in_literal_blocks(&p.text) {
            // Placeholders added after the last line close containers left open: not the writer's.
            if line <= source_lines && !literal.contains(&line) {
                literal.push(line);
            }
        }
        if literal.len() == before {
            return p;
        }
    }
}

/// The lines of the placeholders in `text` that pulldown-cmark reads as the content of a code
/// block or of a raw-text HTML block begun on an earlier line.
fn markers_in_literal_blocks(text: &str) -> Vec<usize> {
    use pulldown_cmark::{Event, Parser, Tag};
    let mut lines = Vec::new();
    for (event, range) in Parser::new_ext(text, super::options()).into_offset_iter() {
        let block = &text[range.clone()];
        let html = match event {
            Event::Start(Tag::CodeBlock(_)) => false,
            Event::Start(Tag::HtmlBlock) if holds_raw_text(block) => true,
            _ => continue,
        };
        for (i, _) in block.match_indices(PLACEHOLDER) {
            // A placeholder that begins its HTML block is a block of its own: a marker.
            if html && block[..i].trim().is_empty() {
                continue;
            }
            let offset = range.start + i;
            lines.push(1 + memchr::memchr_iter(b'\n', &text.as_bytes()[..offset]).count());
        }
    }
    lines
}

/// Whether an HTML block is one whose content CommonMark passes through untouched up to its own
/// end (types 1 to 5 of the spec): `<pre>`, `<script>`, `<style>`, `<textarea>`, `<!--`, `<?`,
/// `<!X`, `<![CDATA[`.
fn holds_raw_text(block: &str) -> bool {
    let start = block.trim_start();
    if start.starts_with("<!") || start.starts_with("<?") {
        return true;
    }
    let lower = start.get(..10).unwrap_or(start).to_ascii_lowercase();
    ["<pre", "<script", "<style", "<textarea"]
        .iter()
        .any(|tag| {
            lower.strip_prefix(tag).is_some_and(|rest| {
                rest.is_empty() || rest.starts_with(|c: char| c.is_ascii_whitespace() || c == '>')
            })
        })
}

/// The longest `<Tabs …>` opening tag read over several lines.
const MAX_TAG: usize = 4096;

/// `<Tabs` or `<TabItem` with attributes continuing on the next lines (Docusaurus's
/// `values={[ … ]}` is usually written so).
fn opens_multiline_tab_tag(trimmed: &str) -> bool {
    ["<Tabs", "<TabItem"].iter().any(|name| {
        trimmed.strip_prefix(name).is_some_and(|rest| {
            (rest.is_empty() || rest.starts_with(char::is_whitespace)) && !trimmed.ends_with('>')
        })
    })
}

/// The labels of Docusaurus's `values={[{label: 'Maven', value: 'maven'}, …]}`, by value.
fn value_labels(values: &str) -> Vec<(String, String)> {
    let quoted = |s: &str, key: &str| -> Option<String> {
        let at = s.find(key)?;
        let rest = s[at + key.len()..]
            .trim_start()
            .strip_prefix(':')?
            .trim_start();
        let q = rest
            .chars()
            .next()
            .filter(|c| matches!(c, '"' | '\'' | '`'))?;
        rest[1..].split(q).next().map(str::to_string)
    };
    values
        .split('{')
        .skip(1)
        .filter_map(|item| Some((quoted(item, "value")?, quoted(item, "label")?)))
        .collect()
}

/// One pass of [`prepare`]: the lines numbered in `literal` are never markers.
fn scan<'a>(src: &'a str, is_mdx: bool, literal: &[usize]) -> Prepared<'a> {
    let mut p = Prepared {
        text: Cow::Borrowed(src),
        markers: Vec::new(),
        warnings: Vec::new(),
    };
    if !worth_scanning(src, is_mdx) {
        return p;
    }
    let mut out: Option<String> = None;
    let mut stack: Vec<Frame> = Vec::new();
    let mut fence: Option<(u8, usize)> = None;
    let mut skipping = mdx::Skip::None;
    // An MDX `<CodeBlock>` being read: its text so far and the line it opened on.
    let mut code_block: Option<(String, usize)> = None;
    // A `<Tabs` or `<TabItem` tag written over several lines, read so far.
    let mut open_tag: Option<(String, &str)> = None;
    let mut offset = 0usize;
    for (index, raw) in src.split_inclusive('\n').enumerate() {
        let line_no = index + 1;
        let start = offset;
        offset += raw.len();
        let line = raw.trim_end_matches(['\n', '\r']);
        let trimmed = line.trim();
        let replacement: Option<Cow<'_, str>> = if let Some((tag, _)) = open_tag.as_mut() {
            // Its lines are blank but the last, which takes the marker (later lines keep their
            // numbers); a tag that never ends within a few lines was not one.
            tag.push(' ');
            tag.push_str(trimmed);
            if trimmed.ends_with('>') || tag.len() > MAX_TAG {
                // The placeholder keeps the tag's indent, so a list item goes on around it.
                let (tag, indent) = open_tag.take().expect("checked");
                marker_of(&tag, is_mdx, line_no, &mut stack, &mut p).map(|marker| {
                    let n = p.markers.len();
                    p.markers.push(marker);
                    Cow::Owned(format!("{indent}{PLACEHOLDER}{n}-->"))
                })
            } else {
                Some(Cow::Borrowed(""))
            }
        } else if fence.is_none()
            && skipping == mdx::Skip::None
            && !literal.contains(&line_no)
            && opens_multiline_tab_tag(trimmed)
        {
            open_tag = Some((
                trimmed.to_string(),
                &line[..line.len() - line.trim_start().len()],
            ));
            Some(Cow::Borrowed(""))
        } else if let Some((text, _)) = code_block.as_mut() {
            // Its lines are blank but the last, which takes the marker: later lines keep
            // their numbers.
            text.push_str(raw);
            if line.contains("</CodeBlock>") {
                let (text, opened) = code_block.take().expect("checked");
                Some(code_block_marker(&text, opened, line, &mut p).into())
            } else {
                Some(Cow::Borrowed(""))
            }
        } else if is_mdx
            && fence.is_none()
            && skipping == mdx::Skip::None
            && mdx::opens_code_block(trimmed)
        {
            if line.contains("</CodeBlock>") {
                Some(code_block_marker(raw, line_no, line, &mut p).into())
            } else {
                code_block = Some((raw.to_string(), line_no));
                Some(Cow::Borrowed(""))
            }
        } else if let Some((ch, len)) = fence {
            if fence_of(trimmed).is_some_and(|(c, l, info)| c == ch && l >= len && info.is_empty())
            {
                fence = None;
            }
            None
        } else if skipping != mdx::Skip::None {
            skipping = skipping.next(line);
            Some(Cow::Borrowed(""))
        } else if let Some((c, l, _)) = fence_of(trimmed) {
            fence = Some((c, l));
            None
        } else if let Some(marker) = (!literal.contains(&line_no))
            .then(|| marker_of(trimmed, is_mdx, line_no, &mut stack, &mut p))
            .flatten()
        {
            let n = p.markers.len();
            p.markers.push(marker);
            let indent = &line[..line.len() - line.trim_start().len()];
            Some(format!("{indent}{PLACEHOLDER}{n}-->").into())
        } else if is_mdx && let Some(skip) = mdx::top_level(line, line_no, &mut p.warnings) {
            skipping = skip;
            Some(Cow::Borrowed(""))
        } else if is_mdx && line.contains("{/*") {
            mdx::strip_comments(line).map(Cow::Owned)
        } else {
            None
        };
        if let Some(new) = replacement {
            let text = out.get_or_insert_with(|| {
                let mut s = String::with_capacity(src.len() + 64);
                s.push_str(&src[..start]);
                s
            });
            text.push_str(&new);
            text.push_str(&raw[line.len()..]);
        } else if let Some(text) = out.as_mut() {
            text.push_str(raw);
        }
    }
    if let Some((text, opened)) = code_block.take() {
        p.warnings.push(Problem {
            code: "markdown.unclosed-container",
            message: "`<CodeBlock>` is not closed before the end of the page".into(),
            hint: "close it with `</CodeBlock>`".into(),
            line: opened,
            column: 1,
        });
        let placeholder = code_block_marker(&text, opened, "", &mut p);
        let text = out.get_or_insert_with(|| src.to_string());
        if !text.ends_with('\n') {
            text.push('\n');
        }
        text.push_str(&format!("\n{placeholder}\n"));
    }
    // Containers left open end with the page, and the writer is told.
    while let Some(frame) = stack.pop() {
        let (what, hint) = match frame.open {
            Open::Tabs { .. } => ("`<Tabs>`", "close it with `</Tabs>`"),
            Open::TabItem => ("`<TabItem>`", "close it with `</TabItem>`"),
            _ => (
                "this container",
                "close it with a line of the same number of colons",
            ),
        };
        p.warnings.push(Problem {
            code: "markdown.unclosed-container",
            message: format!("{what} is not closed before the end of the page"),
            hint: hint.to_string(),
            line: frame.line,
            column: 1,
        });
        let end = close_of(&frame, p.markers.len(), &mut p.markers);
        let n = p.markers.len();
        p.markers.push(end);
        let text = out.get_or_insert_with(|| src.to_string());
        if !text.ends_with('\n') {
            text.push('\n');
        }
        text.push_str(&format!("\n{PLACEHOLDER}{n}-->\n"));
    }
    if let Some(text) = out {
        p.text = Cow::Owned(text);
    }
    p
}

/// Records the marker of an MDX `<CodeBlock>` (its whole `text`, opened on line `opened`) and
/// returns the placeholder taking the place of `line`, its last line.
fn code_block_marker(text: &str, opened: usize, line: &str, p: &mut Prepared<'_>) -> String {
    let n = p.markers.len();
    let (info, code) = mdx::code_block(text);
    p.markers.push(Marker::CodeBlock {
        info,
        code,
        line: opened,
    });
    let indent = &line[..line.len() - line.trim_start().len()];
    format!("{indent}{PLACEHOLDER}{n}-->")
}

/// `` ```lang `` or `~~~`: the fence character, its length and the info string.
fn fence_of(trimmed: &str) -> Option<(u8, usize, &str)> {
    let ch = *trimmed.as_bytes().first()?;
    if ch != b'`' && ch != b'~' {
        return None;
    }
    let len = trimmed.bytes().take_while(|&b| b == ch).count();
    (len >= 3).then(|| (ch, len, trimmed[len..].trim()))
}

/// The marker that ends `frame`, given that it is the `index`-th marker.
fn close_of(frame: &Frame, index: usize, markers: &mut [Marker]) -> Marker {
    match frame.open {
        Open::Admonition => Marker::AdmonitionEnd,
        Open::Unknown => Marker::Dropped,
        Open::CodeGroup => Marker::CodeGroupEnd,
        Open::Tabs { marker, .. } => {
            if let Some(Marker::Tabs { end, .. }) = markers.get_mut(marker) {
                *end = index;
            }
            Marker::TabsEnd
        }
        Open::TabItem => Marker::TabItemEnd,
    }
}

/// The marker of a source line, if it is one; keeps `stack` of open containers.
fn marker_of(
    trimmed: &str,
    is_mdx: bool,
    line: usize,
    stack: &mut Vec<Frame>,
    p: &mut Prepared<'_>,
) -> Option<Marker> {
    if let Some(colons) = trimmed.strip_prefix(":::") {
        let extra = colons.bytes().take_while(|&b| b == b':').count();
        let fence = 3 + extra;
        let rest = colons[extra..].trim();
        if rest.is_empty() {
            return Some(close(fence, line, stack, p));
        }
        let name_len = rest
            .find(|c: char| !(c.is_ascii_alphanumeric() || c == '-' || c == '_'))
            .unwrap_or(rest.len());
        if name_len == 0 {
            return None;
        }
        let name = rest[..name_len].to_ascii_lowercase();
        let title = container_title(&rest[name_len..]);
        let (open, marker) = if name == "code-group" {
            (Open::CodeGroup, Marker::CodeGroup)
        } else if let Some(marker) = admonition(&name, title) {
            (Open::Admonition, marker)
        } else {
            let known: Vec<&str> = KINDS.iter().map(|(k, _)| *k).collect();
            p.warnings.push(Problem {
                code: "markdown.unknown-container",
                message: format!("the container `:::{name}` is not one docgen renders; its content shows as plain text"),
                hint: format!("use one of {}, or `::: code-group`", known.join(", ")),
                line,
                column: 1,
            });
            (Open::Unknown, Marker::Dropped)
        };
        stack.push(Frame { open, fence, line });
        return Some(marker);
    }
    if !trimmed.starts_with('<') || !trimmed.ends_with('>') {
        return None;
    }
    let tag = mdx::Tag::parse(trimmed)?;
    let close_tag = |stack: &mut Vec<Frame>, p: &mut Prepared<'_>, want: fn(&Open) -> bool| {
        match stack.last() {
            Some(f) if f.fence == 0 && want(&f.open) => {
                let frame = stack.pop().expect("checked");
                Some(close_of(&frame, p.markers.len(), &mut p.markers))
            }
            _ => {
                p.warnings.push(Problem {
                    code: "markdown.stray-close",
                    message: format!("`</{}>` closes nothing that is open", tag.name),
                    hint: "remove it, or open the element before it".into(),
                    line,
                    column: 1,
                });
                Some(Marker::Dropped)
            }
        }
    };
    match (tag.name, tag.closing) {
        ("Tabs", false) => {
            stack.push(Frame {
                open: Open::Tabs {
                    marker: p.markers.len(),
                    labels: tag.attr_raw("values").map(value_labels).unwrap_or_default(),
                },
                fence: 0,
                line,
            });
            Some(Marker::Tabs {
                labels: Vec::new(),
                end: usize::MAX,
            })
        }
        ("Tabs", true) => close_tag(stack, p, |o| matches!(o, Open::Tabs { .. })),
        ("TabItem", false) => {
            let tabs = stack.iter().rev().find_map(|f| match &f.open {
                Open::Tabs { marker, labels } => Some((*marker, labels)),
                _ => None,
            });
            let value = tag.attr("value");
            let from_values = tabs.and_then(|(_, labels)| {
                labels
                    .iter()
                    .find(|(v, _)| Some(v.as_str()) == value)
                    .map(|(_, l)| l.clone())
            });
            let label = tag
                .attr("label")
                .map(str::to_string)
                .or(from_values)
                .or_else(|| value.map(str::to_string))
                .unwrap_or_default();
            let tabs = tabs.map(|(marker, _)| marker);
            if let Some(Marker::Tabs { labels, .. }) = tabs.and_then(|m| p.markers.get_mut(m)) {
                labels.push(label.clone());
            }
            stack.push(Frame {
                open: Open::TabItem,
                fence: 0,
                line,
            });
            Some(Marker::TabItem { label })
        }
        ("TabItem", true) => close_tag(stack, p, |o| matches!(o, Open::TabItem)),
        ("Admonition", false) if is_mdx => {
            let kind = tag.attr("type").unwrap_or("note").to_ascii_lowercase();
            let title = tag.attr("title").map(str::to_string);
            let marker = admonition(&kind, title).unwrap_or_else(|| {
                p.warnings.push(Problem {
                    code: "markdown.unknown-container",
                    message: format!(
                        "the admonition type `{kind}` is not one docgen renders; it shows as a note"
                    ),
                    hint: format!("use one of {}", KINDS.map(|(k, _)| k).join(", ")),
                    line,
                    column: 1,
                });
                admonition("note", None).expect("a known kind")
            });
            stack.push(Frame {
                open: Open::Admonition,
                fence: 0,
                line,
            });
            Some(marker)
        }
        ("Admonition", true) if is_mdx => close_tag(stack, p, |o| matches!(o, Open::Admonition)),
        _ => None,
    }
}

fn admonition(kind: &str, title: Option<String>) -> Option<Marker> {
    let (class, default) = KINDS.iter().find(|(k, _)| *k == kind)?;
    Some(Marker::Admonition {
        class,
        title: title.unwrap_or_else(|| default.to_string()),
    })
}

/// A `:::` close of `fence` colons: ends the innermost container of that fence, and any
/// opened inside it and left open.
fn close(fence: usize, line: usize, stack: &mut Vec<Frame>, p: &mut Prepared<'_>) -> Marker {
    let Some(at) = stack.iter().rposition(|f| f.fence == fence) else {
        p.warnings.push(Problem {
            code: "markdown.stray-close",
            message: format!("`{}` closes no container", ":".repeat(fence)),
            hint: "remove it, or open a container such as `:::note` before it".into(),
            line,
            column: 1,
        });
        return Marker::Dropped;
    };
    // Containers opened inside and not closed end here: only the outer one can take the
    // marker, so the inner ones are told about.
    while stack.len() > at + 1 {
        let inner = stack.pop().expect("checked");
        p.warnings.push(Problem {
            code: "markdown.unclosed-container",
            message: "this container is not closed before the one around it ends".into(),
            hint: "close it with its own line of colons".into(),
            line: inner.line,
            column: 1,
        });
    }
    let frame = stack.pop().expect("checked");
    close_of(&frame, p.markers.len(), &mut p.markers)
}

/// The title after a container's name: ` Title`, `[Title]` (Starlight) or `{title="Title"}`.
fn container_title(rest: &str) -> Option<String> {
    let rest = rest.trim();
    let title = if let Some(s) = rest.strip_prefix('[') {
        s.rsplit_once(']').map_or(s, |(t, _)| t)
    } else if let Some(s) = rest.strip_prefix('{') {
        let s = s.strip_suffix('}').unwrap_or(s);
        let i = s.find("title=")?;
        let v = s[i + 6..].trim();
        let q = v.chars().next().filter(|c| *c == '"' || *c == '\'');
        match q {
            Some(q) => v[1..].split(q).next().unwrap_or(""),
            None => v.split_whitespace().next().unwrap_or(""),
        }
    } else {
        rest
    };
    let title = title.trim();
    (!title.is_empty()).then(|| title.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn markers_become_placeholders_on_the_same_lines() {
        let src = "intro\n:::tip My title\ntext\n:::\nafter\n";
        let p = prepare(src, false);
        assert_eq!(
            p.text,
            "intro\n<!--dg-marker:0-->\ntext\n<!--dg-marker:1-->\nafter\n"
        );
        assert_eq!(
            p.markers,
            vec![
                Marker::Admonition {
                    class: "tip",
                    title: "My title".into()
                },
                Marker::AdmonitionEnd
            ]
        );
    }

    #[test]
    fn titles_in_every_generator_s_form() {
        for (line, title) in [
            (":::tip[Starlight title]", Some("Starlight title")),
            (":::warning{title=\"Braces\"}", Some("Braces")),
            ("::: danger Spaced", Some("Spaced")),
            (":::note", None),
        ] {
            let src = format!("{line}\nx\n:::\n");
            let p = prepare(&src, false);
            let Marker::Admonition { title: got, .. } = &p.markers[0] else {
                panic!("{line}: {:?}", p.markers);
            };
            let want = title.map(str::to_string).unwrap_or_else(|| "Note".into());
            assert_eq!(got, &want, "{line}");
        }
    }

    #[test]
    fn a_longer_fence_closes_only_its_own() {
        let src = "::::note\n:::tip\na\n:::\nb\n::::\n";
        let p = prepare(src, false);
        assert!(p.warnings.is_empty(), "{:?}", p.warnings);
        assert!(matches!(
            p.markers[0],
            Marker::Admonition { class: "note", .. }
        ));
        assert!(matches!(
            p.markers[1],
            Marker::Admonition { class: "tip", .. }
        ));
        assert_eq!(
            p.markers[2..],
            [Marker::AdmonitionEnd, Marker::AdmonitionEnd]
        );
    }

    #[test]
    fn fenced_code_is_left_alone() {
        let src = "```md\n:::tip\n```\n";
        let p = prepare(src, false);
        assert!(matches!(p.text, Cow::Borrowed(_)));
        assert!(p.markers.is_empty());
    }

    #[test]
    fn unknown_stray_and_unclosed_containers_are_reported_with_lines() {
        let p = prepare("a\n\n:::foo\nx\n:::\n:::\n\n:::note\nopen\n", false);
        let got: Vec<(&str, usize)> = p.warnings.iter().map(|w| (w.code, w.line)).collect();
        assert_eq!(
            got,
            vec![
                ("markdown.unknown-container", 3),
                ("markdown.stray-close", 6),
                ("markdown.unclosed-container", 8)
            ]
        );
        assert!(p.warnings[0].hint.contains("note, tip, info"));
        assert!(p.text.ends_with("\n<!--dg-marker:4-->\n"), "{}", p.text);
    }

    #[test]
    fn marker_lines_inside_raw_html_and_code_are_text() {
        for src in [
            "<pre>\n:::tip\n\nx\n:::\n</pre>\n",
            "<!--\n:::note\n-->\n",
            "<script>\n:::\n</script>\n",
            "    :::note\n    x\n    :::\n",
            "- a\n\n      :::note\n      x\n      :::\n",
        ] {
            let p = prepare(src, false);
            assert_eq!(p.text, src, "{src:?}");
            assert!(p.markers.is_empty(), "{src:?}: {:?}", p.markers);
            assert!(p.warnings.is_empty(), "{src:?}: {:?}", p.warnings);
        }
    }

    #[test]
    fn containers_around_and_inside_html_blocks_still_open() {
        // A blank line ends the HTML block: the container is outside it.
        let p = prepare("<div>\n\n:::tip\nx\n:::\n\n</div>\n", false);
        assert_eq!(p.markers.len(), 2, "{}", p.text);
        // A container in a list item, and one right after a paragraph.
        let p = prepare(
            "- a\n\n  :::note\n  x\n  :::\n\ntext\n:::tip\ny\n:::\n",
            false,
        );
        assert_eq!(p.markers.len(), 4, "{}", p.text);
        // An HTML block inside the container leaves the closing line to the container.
        let p = prepare(":::note\n<img src=\"a.png\" alt=\"A\">\n:::\n", false);
        assert!(p.warnings.is_empty(), "{:?}", p.warnings);
        assert_eq!(
            p.markers,
            vec![
                Marker::Admonition {
                    class: "note",
                    title: "Note".into()
                },
                Marker::AdmonitionEnd
            ],
            "{}",
            p.text
        );
    }

    #[test]
    fn tabs_collect_their_labels() {
        let src = "<Tabs groupId=\"os\">\n<TabItem value=\"mac\" label=\"macOS\">\nx\n</TabItem>\n<TabItem value=\"linux\">\ny\n</TabItem>\n</Tabs>\n";
        let p = prepare(src, false);
        assert_eq!(
            p.markers[0],
            Marker::Tabs {
                labels: vec!["macOS".into(), "linux".into()],
                end: 5
            }
        );
        assert_eq!(p.markers[5], Marker::TabsEnd);
    }
}
