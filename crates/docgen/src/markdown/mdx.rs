//! MDX leniency for Docusaurus pages: what a page body from an `.mdx` file may hold beyond
//! Markdown. Top-level `import`/`export` lines and `{/* */}` comments are not shown; the
//! components docgen renders itself are imported silently; any other component is a warning.

use super::Problem;

/// The `@theme/…` components docgen renders itself.
const RENDERED: [&str; 5] = ["Tabs", "TabItem", "Admonition", "CodeBlock", "Details"];

/// A multi-line `import`/`export` statement being skipped.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Skip {
    None,
    /// An `import { a,` … `} from '…'` not yet at its `from`.
    Import,
    /// An `export` whose brackets are still open, by depth.
    Export(usize),
}

impl Skip {
    /// The state after `line`.
    pub(crate) fn next(self, line: &str) -> Skip {
        match self {
            Skip::None => Skip::None,
            Skip::Import => {
                if import_source(line).is_some() || line.trim_end().ends_with(';') {
                    Skip::None
                } else {
                    Skip::Import
                }
            }
            Skip::Export(depth) => match depth_after(depth, line) {
                0 => Skip::None,
                d => Skip::Export(d),
            },
        }
    }
}

fn depth_after(depth: usize, line: &str) -> usize {
    line.bytes().fold(depth, |d, b| match b {
        b'{' | b'(' | b'[' => d + 1,
        b'}' | b')' | b']' => d.saturating_sub(1),
        _ => d,
    })
}

/// `from '@theme/Tabs'` → `@theme/Tabs`.
fn import_source(line: &str) -> Option<&str> {
    let i = line.find(" from ").map(|i| i + 6).or_else(|| {
        line.trim_start()
            .starts_with("import ")
            .then(|| line.find(['\'', '"']))
            .flatten()
    })?;
    let rest = line[i..].trim_start();
    let q = rest.chars().next().filter(|c| *c == '\'' || *c == '"')?;
    rest[1..].split(q).next()
}

/// A top-level `import`/`export` line (at the start of the line): not shown. An import of a
/// component docgen does not render is a warning. Returns how to treat the following lines.
pub(crate) fn top_level(line: &str, line_no: usize, warnings: &mut Vec<Problem>) -> Option<Skip> {
    if line.starts_with("import ") || line == "import" {
        match import_source(line) {
            Some(source) => check_import(source, line_no, warnings),
            None => return Some(Skip::Import),
        }
        return Some(Skip::None);
    }
    if line.starts_with("export ") {
        return Some(match depth_after(0, line) {
            0 => Skip::None,
            d => Skip::Export(d),
        });
    }
    None
}

fn check_import(source: &str, line: usize, warnings: &mut Vec<Problem>) {
    let rendered = source
        .strip_prefix("@theme/")
        .is_some_and(|c| RENDERED.contains(&c));
    if !rendered {
        warnings.push(Problem {
            code: "markdown.mdx-import",
            message: format!(
                "the components imported from `{source}` will not render: docgen does not run MDX"
            ),
            hint: format!(
                "docgen renders {} itself; replace other components by Markdown",
                RENDERED.map(|c| format!("@theme/{c}")).join(", ")
            ),
            line,
            column: 1,
        });
    }
}

/// `line` without its `{/* … */}` comments, or `None` when it has none that close on it.
pub(crate) fn strip_comments(line: &str) -> Option<String> {
    let mut out = String::with_capacity(line.len());
    let mut rest = line;
    let mut changed = false;
    while let Some(i) = rest.find("{/*") {
        let Some(end) = rest[i..].find("*/}") else {
            break;
        };
        out.push_str(&rest[..i]);
        rest = &rest[i + end + 3..];
        changed = true;
    }
    out.push_str(rest);
    changed.then_some(out)
}

/// A JSX-like tag written alone on a line: `<TabItem value="js" label="JS">`, `</Tabs>`.
pub(crate) struct Tag<'a> {
    pub name: &'a str,
    pub closing: bool,
    attrs: &'a str,
}

impl<'a> Tag<'a> {
    pub(crate) fn parse(s: &'a str) -> Option<Tag<'a>> {
        let inner = s.strip_prefix('<')?.strip_suffix('>')?;
        let (closing, inner) = match inner.strip_prefix('/') {
            Some(rest) => (true, rest),
            None => (false, inner),
        };
        let end = inner
            .find(|c: char| !c.is_ascii_alphanumeric())
            .unwrap_or(inner.len());
        let name = &inner[..end];
        if !name.starts_with(|c: char| c.is_ascii_uppercase()) {
            return None;
        }
        let attrs = &inner[end..];
        if !(attrs.is_empty() || attrs.starts_with(char::is_whitespace)) {
            return None;
        }
        Some(Tag {
            name,
            closing,
            attrs,
        })
    }

    /// Whether a boolean attribute is set: `name` alone, or `name={true}`.
    pub(crate) fn has_flag(&self, name: &str) -> bool {
        self.attrs.split_whitespace().any(|a| {
            a.strip_prefix(name)
                .is_some_and(|rest| rest.is_empty() || rest == "={true}")
        })
    }

    /// The value of `name="…"` (or `'…'`, or `{"…"}`).
    /// The raw text of an attribute's `{…}` expression, such as `values={[ … ]}`.
    pub(crate) fn attr_raw(&self, name: &str) -> Option<&'a str> {
        let at = self.attrs.find(&format!("{name}={{"))?;
        let rest = &self.attrs[at + name.len() + 2..];
        let mut depth = 1usize;
        for (i, c) in rest.char_indices() {
            match c {
                '{' => depth += 1,
                '}' => {
                    depth -= 1;
                    if depth == 0 {
                        return Some(&rest[..i]);
                    }
                }
                _ => {}
            }
        }
        None
    }

    pub(crate) fn attr(&self, name: &str) -> Option<&'a str> {
        let mut rest = self.attrs;
        while let Some(i) = rest.find(name) {
            let before = rest[..i].chars().last();
            let after = &rest[i + name.len()..];
            rest = after;
            if !before.is_some_and(char::is_whitespace) {
                continue;
            }
            let Some(v) = after.trim_start().strip_prefix('=') else {
                continue;
            };
            let v = v.trim_start();
            let v = v.strip_prefix('{').unwrap_or(v);
            let q = v.chars().next().filter(|c| matches!(c, '"' | '\'' | '`'))?;
            return v[1..].split(q).next();
        }
        None
    }
}

/// Whether a (trimmed) line opens a `<CodeBlock>` (its tag may go on over the next lines).
pub(crate) fn opens_code_block(trimmed: &str) -> bool {
    trimmed.strip_prefix("<CodeBlock").is_some_and(|rest| {
        rest.is_empty() || rest.starts_with(|c: char| c == '>' || c.is_whitespace())
    })
}

/// A Docusaurus `<CodeBlock language="js" title="app.js" showLineNumbers>…</CodeBlock>`, from
/// its opening tag to its closing one: the info string of the fence it stands for and its code
/// (a template literal ``{`…`}`` as its value, otherwise the text as written, dedented).
pub(crate) fn code_block(text: &str) -> (String, String) {
    let text = text.trim_start();
    let after_name = text.strip_prefix("<CodeBlock").unwrap_or(text);
    let tag_end = tag_close(after_name).unwrap_or(after_name.len());
    let attrs = after_name[..tag_end].replace(['\n', '\r', '\t'], " ");
    let body = after_name.get(tag_end + 1..).unwrap_or("");
    let body = body.rfind("</CodeBlock>").map_or(body, |i| &body[..i]);
    let tag = Tag {
        name: "CodeBlock",
        closing: false,
        attrs: &attrs,
    };
    let mut info = tag.attr("language").unwrap_or("text").to_string();
    if let Some(title) = tag.attr("title") {
        let q = if title.contains('"') { '\'' } else { '"' };
        info.push_str(&format!(" title={q}{title}{q}"));
    }
    if let Some(meta) = tag.attr("metastring") {
        info.push(' ');
        info.push_str(meta);
    }
    if tag.has_flag("showLineNumbers") {
        info.push_str(" showLineNumbers");
    }
    let trimmed = body.trim();
    let mut code = match trimmed
        .strip_prefix("{`")
        .and_then(|t| t.strip_suffix("`}"))
    {
        Some(literal) => template_literal(literal.strip_prefix('\n').unwrap_or(literal)),
        None => dedent(body),
    };
    let kept = code.trim_end_matches([' ', '\t', '\n', '\r']).len();
    code.truncate(kept);
    code.push('\n');
    (info, code)
}

/// Where the opening tag of `s` ends: the first `>` outside quotes and braces.
fn tag_close(s: &str) -> Option<usize> {
    let mut quote: Option<char> = None;
    let mut depth = 0usize;
    for (i, c) in s.char_indices() {
        match (quote, c) {
            (Some(q), c) if c == q => quote = None,
            (Some(_), _) => {}
            (None, '"' | '\'' | '`') => quote = Some(c),
            (None, '{') => depth += 1,
            (None, '}') => depth = depth.saturating_sub(1),
            (None, '>') if depth == 0 => return Some(i),
            _ => {}
        }
    }
    None
}

/// The value of a JavaScript template literal's text: `\``, `\$` and `\\` unescaped.
fn template_literal(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    let mut chars = s.chars();
    while let Some(c) = chars.next() {
        match (c, chars.clone().next()) {
            ('\\', Some(next @ ('`' | '$' | '\\'))) => {
                out.push(next);
                chars.next();
            }
            _ => out.push(c),
        }
    }
    out
}

/// `s` without its blank first and last lines and the indent all its lines share.
fn dedent(s: &str) -> String {
    let lines: Vec<&str> = s.lines().collect();
    let first = lines
        .iter()
        .position(|l| !l.trim().is_empty())
        .unwrap_or(lines.len());
    let last = lines
        .iter()
        .rposition(|l| !l.trim().is_empty())
        .map_or(first, |i| i + 1);
    let lines = &lines[first..last];
    let indent = lines
        .iter()
        .filter(|l| !l.trim().is_empty())
        .map(|l| l.len() - l.trim_start().len())
        .min()
        .unwrap_or(0);
    lines
        .iter()
        .map(|l| l.get(indent..).unwrap_or(l.trim_start()))
        .collect::<Vec<_>>()
        .join("\n")
}

/// The components (capitalised tags) in raw HTML of an MDX page that docgen does not render.
/// `<Details>`/`<Summary>` are rendered as `<details>`/`<summary>`.
pub(crate) fn unknown_components(html: &str) -> Vec<&str> {
    let mut found = Vec::new();
    let mut rest = html;
    while let Some(i) = rest.find('<') {
        rest = &rest[i + 1..];
        let rest_name = rest.strip_prefix('/').unwrap_or(rest);
        let end = rest_name
            .find(|c: char| !c.is_ascii_alphanumeric() && c != '.')
            .unwrap_or(rest_name.len());
        let name = &rest_name[..end];
        if name.starts_with(|c: char| c.is_ascii_uppercase())
            && !matches!(name, "Details" | "Summary")
            && !found.contains(&name)
        {
            found.push(name);
        }
    }
    found
}

/// `<Details>`/`<Summary>` as the HTML elements they render.
pub(crate) fn lower_details(html: &str) -> Option<String> {
    if !html.contains("<Details") && !html.contains("</Details") && !html.contains("Summary>") {
        return None;
    }
    Some(
        html.replace("<Details", "<details")
            .replace("</Details>", "</details>")
            .replace("<Summary>", "<summary>")
            .replace("</Summary>", "</summary>"),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn imports_of_rendered_components_are_silent() {
        let mut w = Vec::new();
        assert_eq!(
            top_level("import Tabs from '@theme/Tabs';", 1, &mut w),
            Some(Skip::None)
        );
        assert!(w.is_empty());
        top_level("import Chart from '@site/src/Chart';", 4, &mut w);
        assert_eq!((w[0].code, w[0].line), ("markdown.mdx-import", 4));
        assert!(w[0].message.contains("@site/src/Chart"));
        assert_eq!(top_level("important text", 5, &mut w), None);
    }

    #[test]
    fn multi_line_statements_are_skipped_to_their_end() {
        let mut w = Vec::new();
        let s = top_level("import {", 1, &mut w).unwrap();
        assert_eq!(s, Skip::Import);
        let s = s.next("  a,");
        assert_eq!(s, Skip::Import);
        assert_eq!(s.next("} from '@theme/Tabs';"), Skip::None);
        let s = top_level("export const meta = {", 1, &mut w).unwrap();
        assert_eq!(s, Skip::Export(1));
        assert_eq!(s.next("  a: [1, 2],"), Skip::Export(1));
        assert_eq!(s.next("};"), Skip::None);
    }

    #[test]
    fn comments_and_tags() {
        assert_eq!(
            strip_comments("a {/* hidden */} b").as_deref(),
            Some("a  b")
        );
        assert_eq!(strip_comments("a {/* open"), None);
        let t = Tag::parse("<TabItem value=\"js\" label={'JS'}>").unwrap();
        assert_eq!((t.name, t.closing), ("TabItem", false));
        assert_eq!(t.attr("label"), Some("JS"));
        assert_eq!(t.attr("value"), Some("js"));
        assert!(Tag::parse("</Tabs>").unwrap().closing);
        assert!(Tag::parse("<div>").is_none());
        assert_eq!(
            unknown_components("<Foo /> <Bar.Baz x> <Details>"),
            vec!["Foo", "Bar.Baz"]
        );
    }

    #[test]
    fn code_blocks_become_fences() {
        assert!(opens_code_block("<CodeBlock language=\"js\">"));
        assert!(opens_code_block("<CodeBlock"));
        assert!(!opens_code_block("<CodeBlocks>"));
        let (info, code) = code_block(
            "<CodeBlock language=\"js\" title=\"app.js\" showLineNumbers>\n  const a = 1;\n    nested();\n</CodeBlock>\n",
        );
        assert_eq!(info, "js title=\"app.js\" showLineNumbers");
        assert_eq!(code, "const a = 1;\n  nested();\n");
        let (info, code) = code_block(
            "<CodeBlock\n  language=\"jsx\"\n  metastring=\"{2}\">\n  {`function A(props) {\n  return <h1>{props.name} \\`x\\`</h1>;\n}`}\n</CodeBlock>",
        );
        assert_eq!(info, "jsx {2}");
        assert_eq!(
            code,
            "function A(props) {\n  return <h1>{props.name} `x`</h1>;\n}\n"
        );
        let (info, code) = code_block("<CodeBlock>echo hi</CodeBlock>");
        assert_eq!((info.as_str(), code.as_str()), ("text", "echo hi\n"));
    }
}
