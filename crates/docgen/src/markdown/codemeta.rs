//! The meta of a fenced code block: the info string (`js title="app.js" {1,3-5} showLineNumbers`,
//! `kotlin [Android]`, mdBook's `rust,ignore`), Docusaurus' highlight comments, mdBook's hidden
//! lines, and the per-line wrapping of highlighted HTML that line highlights and numbers need.

use std::ops::RangeInclusive;

/// What the info string of a fence says.
#[derive(Debug, Default, PartialEq, Eq)]
pub(crate) struct CodeMeta {
    pub lang: String,
    /// `[Label]`: the tab label in a code group.
    pub label: Option<String>,
    /// `title="app.js"`: the file name of a single box, the tab label in a group.
    pub title: Option<String>,
    /// `{1,3-5}`: 1-based lines to highlight.
    pub highlight: Vec<RangeInclusive<usize>>,
    /// `showLineNumbers`.
    pub line_numbers: bool,
}

/// Parses an info string. The language ends at whitespace, `[`, `{` or mdBook's `,`
/// (`rust,ignore` is Rust).
pub(crate) fn parse(info: &str) -> CodeMeta {
    let info = info.trim();
    let lang_end = info
        .find(|c: char| c.is_whitespace() || matches!(c, '[' | '{' | ','))
        .unwrap_or(info.len());
    let mut meta = CodeMeta {
        lang: info[..lang_end].to_string(),
        ..CodeMeta::default()
    };
    let mut rest = &info[lang_end..];
    // mdBook attributes (`,ignore,should_panic`) say how to test the code, not how to show it.
    if rest.starts_with(',') {
        rest = rest.find(char::is_whitespace).map_or("", |i| &rest[i..]);
    }
    loop {
        rest = rest.trim_start();
        if rest.is_empty() {
            break;
        }
        if let Some(s) = rest.strip_prefix('[') {
            let end = s.find(']').unwrap_or(s.len());
            meta.label = Some(s[..end].trim().to_string());
            rest = s.get(end + 1..).unwrap_or("");
        } else if let Some(s) = rest.strip_prefix('{') {
            let end = s.find('}').unwrap_or(s.len());
            meta.highlight.extend(parse_ranges(&s[..end]));
            rest = s.get(end + 1..).unwrap_or("");
        } else if let Some(s) = rest.strip_prefix("title=") {
            let (value, after) = quoted(s);
            meta.title = Some(value.to_string());
            rest = after;
        } else {
            let end = rest.find(char::is_whitespace).unwrap_or(rest.len());
            if rest[..end].split('=').next() == Some("showLineNumbers") {
                meta.line_numbers = true;
            }
            rest = &rest[end..];
        }
    }
    meta
}

/// `"a b"`, `'a b'` or a bare word; returns the value and what follows.
fn quoted(s: &str) -> (&str, &str) {
    match s.chars().next() {
        Some(q @ ('"' | '\'')) => {
            let body = &s[1..];
            let end = body.find(q).unwrap_or(body.len());
            (&body[..end], body.get(end + 1..).unwrap_or(""))
        }
        _ => {
            let end = s.find(char::is_whitespace).unwrap_or(s.len());
            (&s[..end], &s[end..])
        }
    }
}

/// `1,3-5` → [1..=1, 3..=5]; anything that is not a number or a range is skipped.
fn parse_ranges(s: &str) -> Vec<RangeInclusive<usize>> {
    s.split(',')
        .filter_map(|part| {
            let part = part.trim();
            match part.split_once('-') {
                Some((a, b)) => Some(a.trim().parse().ok()?..=b.trim().parse().ok()?),
                None => part.parse().ok().map(|n| n..=n),
            }
        })
        .collect()
}

/// The directive of a line that is only a comment such as `// highlight-next-line`.
fn magic_comment(line: &str) -> Option<&'static str> {
    let t = line.trim();
    let body = t
        .strip_prefix("//")
        .or_else(|| t.strip_prefix('#'))
        .or_else(|| t.strip_prefix("--"))
        .or_else(|| t.strip_prefix(';'))
        .or_else(|| t.strip_prefix("/*").and_then(|b| b.strip_suffix("*/")))
        .or_else(|| t.strip_prefix("<!--").and_then(|b| b.strip_suffix("-->")))
        .or_else(|| t.strip_prefix("{/*").and_then(|b| b.strip_suffix("*/}")))?;
    ["highlight-next-line", "highlight-start", "highlight-end"]
        .into_iter()
        .find(|d| body.trim() == *d)
}

/// The code as shown: Docusaurus' highlight comments removed (their lines added to
/// `highlight`), and for Rust, mdBook's hidden lines (`# ` or a lone `#`) removed and `##`
/// unescaped to `#`. Borrows `code` when nothing changes.
pub(crate) fn prepare<'c>(
    code: &'c str,
    lang: &str,
    highlight: &mut Vec<RangeInclusive<usize>>,
) -> std::borrow::Cow<'c, str> {
    let rust = lang.eq_ignore_ascii_case("rust") || lang.eq_ignore_ascii_case("rs");
    let magic = code.contains("highlight-");
    if !(magic || (rust && code.contains('#'))) {
        return code.into();
    }
    let mut out = String::with_capacity(code.len());
    let mut shown = 0usize;
    let mut next_line = false;
    let mut block_start: Option<usize> = None;
    for line in code.split_inclusive('\n') {
        if magic && let Some(directive) = magic_comment(line) {
            match directive {
                "highlight-next-line" => next_line = true,
                "highlight-start" => block_start = Some(shown + 1),
                _ => {
                    if let Some(start) = block_start.take()
                        && shown >= start
                    {
                        highlight.push(start..=shown);
                    }
                }
            }
            continue;
        }
        let content = line.trim_end_matches(['\n', '\r']);
        let trimmed = content.trim_start();
        if rust {
            if trimmed == "#" || trimmed.starts_with("# ") {
                continue;
            }
            if trimmed.starts_with("##") {
                let indent = content.len() - trimmed.len();
                out.push_str(&content[..indent]);
                out.push_str(&line[indent + 1..]);
                shown += 1;
                if std::mem::take(&mut next_line) {
                    highlight.push(shown..=shown);
                }
                continue;
            }
        }
        out.push_str(line);
        shown += 1;
        if std::mem::take(&mut next_line) {
            highlight.push(shown..=shown);
        }
    }
    if let Some(start) = block_start
        && shown >= start
    {
        highlight.push(start..=shown);
    }
    out.into()
}

/// Wraps each line of highlighted HTML in `<span class="dg-line">` (plus `dg-line-hl` for a
/// highlighted line and `dg-ln` when lines are numbered). Elements open across a line break
/// are closed at its end and opened again on the next line, so every line is balanced.
pub(crate) fn wrap_lines(html: &str, highlight: &[RangeInclusive<usize>], numbers: bool) -> String {
    let mut out = String::with_capacity(html.len() + html.len() / 4 + 64);
    let mut open: Vec<&str> = Vec::new();
    let body = html.strip_suffix('\n').unwrap_or(html);
    for (n, line) in body.split('\n').enumerate() {
        let number = n + 1;
        out.push_str("<span class=\"dg-line");
        if highlight.iter().any(|r| r.contains(&number)) {
            out.push_str(" dg-line-hl");
        }
        if numbers {
            out.push_str(" dg-ln");
        }
        out.push_str("\">");
        for tag in &open {
            out.push_str(tag);
        }
        let mut rest = line;
        while let Some(lt) = rest.find('<') {
            let Some(gt) = rest[lt..].find('>').map(|g| lt + g) else {
                break;
            };
            let tag = &rest[lt..=gt];
            if tag.starts_with("</") {
                open.pop();
            } else if !tag.ends_with("/>") {
                open.push(tag);
            }
            rest = &rest[gt + 1..];
        }
        out.push_str(line);
        for _ in &open {
            out.push_str("</span>");
        }
        out.push_str("</span>\n");
    }
    if !html.ends_with('\n') {
        out.pop();
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn info_strings_of_the_common_generators() {
        let m = parse("js title=\"app.js\" {1,3-5} showLineNumbers");
        assert_eq!(m.lang, "js");
        assert_eq!(m.title.as_deref(), Some("app.js"));
        assert_eq!(m.highlight, vec![1..=1, 3..=5]);
        assert!(m.line_numbers);
        let m = parse("ts{2}");
        assert_eq!((m.lang.as_str(), m.highlight.clone()), ("ts", vec![2..=2]));
        let m = parse("kotlin [Android]");
        assert_eq!(m.label.as_deref(), Some("Android"));
        for info in ["rust,ignore", "rust,editable", "rust,no_run,should_panic"] {
            assert_eq!(parse(info).lang, "rust", "{info}");
        }
        assert_eq!(parse("text,no_run").lang, "text");
        assert_eq!(parse("").lang, "");
    }

    #[test]
    fn magic_comments_become_highlighted_lines() {
        let mut hl = Vec::new();
        let code =
            "a\n// highlight-next-line\nb\nc\n// highlight-start\nd\ne\n// highlight-end\nf\n";
        let shown = prepare(code, "js", &mut hl);
        assert_eq!(shown, "a\nb\nc\nd\ne\nf\n");
        assert_eq!(hl, vec![2..=2, 4..=5]);
    }

    #[test]
    fn mdbook_hidden_lines_are_not_shown() {
        let mut hl = Vec::new();
        let code = "# fn main() {\nlet x = 1;\n#\n    ## not hidden\n#[derive(Debug)]\n# }\n";
        assert_eq!(
            prepare(code, "rust", &mut hl),
            "let x = 1;\n    # not hidden\n#[derive(Debug)]\n"
        );
        assert_eq!(prepare("# heading\n", "bash", &mut hl), "# heading\n");
    }

    #[test]
    fn wrapped_lines_keep_tags_balanced() {
        let html = "<span class=\"hl-c\">/* a\nb */</span> x\ny\n";
        let out = wrap_lines(html, &[2..=2], true);
        assert_eq!(
            out,
            "<span class=\"dg-line dg-ln\"><span class=\"hl-c\">/* a</span></span>\n\
             <span class=\"dg-line dg-line-hl dg-ln\"><span class=\"hl-c\">b */</span> x</span>\n\
             <span class=\"dg-line dg-ln\">y</span>\n"
        );
        assert_eq!(out.matches("<span").count(), out.matches("</span>").count());
    }
}
