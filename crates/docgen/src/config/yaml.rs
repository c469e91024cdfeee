//! Strict YAML reading with errors that point at the line and suggest the key that was meant.

use std::path::Path;
use std::sync::Arc;

use serde::de::DeserializeOwned;

use crate::diagnostics::{Diagnostic, did_you_mean};

/// How deeply lists and maps may nest in any YAML docgen reads. The YAML reader takes time
/// quadratic in the depth of nested `[` and `{` (a few hundred kilobytes of them take
/// minutes); no site's data comes near this.
pub const MAX_DEPTH: usize = 64;

/// Parses `text` (which starts at line `first_line` of `file`) into `T`. Every YAML docgen
/// reads (site.yaml, redirects.yaml, front matter, data and category files) comes through here.
pub fn parse<T: DeserializeOwned>(
    text: &str,
    file: &Path,
    first_line: usize,
    source: &Arc<str>,
) -> Result<T, Diagnostic> {
    if let Some((line, column)) = too_deep(text, MAX_DEPTH) {
        return Err(Diagnostic::new(
            "yaml.too-deep",
            format!("lists and maps are nested more than {MAX_DEPTH} levels deep here"),
        )
        .in_file(file)
        .at(line + first_line - 1, column)
        .with_source(source)
        .hint(format!(
            "YAML may nest at most {MAX_DEPTH} levels of lists and maps: flatten the data"
        )));
    }
    yaml_serde::from_str(text).map_err(|e| to_diagnostic(&e, file, first_line, source))
}

/// Parses into a generic value (for data files and templated front matter).
pub fn parse_value(
    text: &str,
    file: &Path,
    first_line: usize,
    source: &Arc<str>,
) -> Result<yaml_serde::Value, Diagnostic> {
    parse(text, file, first_line, source)
}

/// Where (line and column, from 1) the nesting of `text` first goes deeper than `max`, in one
/// pass over it. Nesting is counted as the YAML reader builds it: flow collections (`[`, `{`)
/// inside one another, block collections by their indentation, and compact `- - x` entries;
/// quoted strings, comments and block scalars (`|`, `>`) hold none.
fn too_deep(text: &str, max: usize) -> Option<(usize, usize)> {
    // The indentation of each open block collection, outermost first.
    let mut blocks: Vec<usize> = Vec::new();
    let mut scan = LineScan::default();
    // Inside a block scalar: the indentation its lines must exceed.
    let mut block_scalar: Option<usize> = None;
    for (index, line) in text.lines().enumerate() {
        let indent = line.len() - line.trim_start_matches(' ').len();
        let content = line[indent..].trim_end();
        if let Some(parent) = block_scalar {
            if content.is_empty() || indent > parent {
                continue;
            }
            block_scalar = None;
        }
        let mut start = 0;
        let mut depth = blocks.len();
        if scan.quote.is_none() && scan.flow == 0 {
            if content.is_empty() || content.starts_with('#') || content.starts_with('%') {
                continue;
            }
            if indent == 0 && (content.starts_with("---") || content.starts_with("...")) {
                blocks.clear();
                let rest = &content[3..];
                if rest.is_empty() || rest.starts_with([' ', '\t']) {
                    continue;
                }
            }
            while blocks.last().is_some_and(|&b| b >= indent) {
                blocks.pop();
            }
            blocks.push(indent);
            depth = blocks.len();
            // Compact entries (`- - x`, `? - x`) open one collection each on this line.
            let mut rest = content;
            loop {
                if depth > max {
                    let at = indent + content.len() - rest.len();
                    return Some((index + 1, line[..at].chars().count() + 1));
                }
                let Some(after) = rest.strip_prefix("- ").or_else(|| rest.strip_prefix("? "))
                else {
                    break;
                };
                depth += 1;
                rest = after.trim_start_matches(' ');
            }
            start = indent + content.len() - rest.len();
            scan.node_start = true;
        }
        match scan.line(&line[start..], depth, max) {
            Some(LineEnd::TooDeep(at)) => {
                return Some((index + 1, line[..start + at].chars().count() + 1));
            }
            Some(LineEnd::BlockScalar) => block_scalar = Some(indent),
            None => {}
        }
    }
    None
}

/// The state of [`too_deep`] that goes on from line to line.
#[derive(Default)]
struct LineScan {
    /// Open flow collections.
    flow: usize,
    /// An open quoted string: its quote.
    quote: Option<u8>,
    /// Whether a node may begin here: a quote or bracket there opens a string or a
    /// collection, elsewhere it is part of plain text (`title: Don't [draft]`).
    node_start: bool,
}

enum LineEnd {
    /// At this byte offset of the line, the nesting went deeper than allowed.
    TooDeep(usize),
    /// The line opens a block scalar: the lines indented deeper are its text.
    BlockScalar,
}

impl LineScan {
    /// Scans one line (or the rest of one) under `depth` open block collections.
    fn line(&mut self, line: &str, depth: usize, max: usize) -> Option<LineEnd> {
        let bytes = line.as_bytes();
        let mut i = 0;
        let mut after_space = true;
        while i < bytes.len() {
            let b = bytes[i];
            if let Some(q) = self.quote {
                if b == b'\\' && q == b'"' {
                    i += 2;
                    continue;
                }
                if b == q {
                    // `''` is a quote inside a single-quoted string.
                    if q == b'\'' && bytes.get(i + 1) == Some(&b'\'') {
                        i += 2;
                        continue;
                    }
                    self.quote = None;
                    self.node_start = false;
                }
                i += 1;
                continue;
            }
            let space = b == b' ' || b == b'\t';
            match b {
                _ if space => {}
                b'#' if after_space => return None,
                b'"' | b'\'' if self.node_start => self.quote = Some(b),
                b'[' | b'{' if self.node_start || self.flow > 0 => {
                    self.flow += 1;
                    if depth + self.flow > max {
                        return Some(LineEnd::TooDeep(i));
                    }
                    self.node_start = true;
                }
                b']' | b'}' if self.flow > 0 => {
                    self.flow -= 1;
                    self.node_start = false;
                }
                b',' if self.flow > 0 => self.node_start = true,
                b':' if bytes.get(i + 1).is_none_or(|&n| n == b' ' || n == b'\t')
                    || self.flow > 0 =>
                {
                    self.node_start = true;
                }
                b'|' | b'>' if self.node_start && self.flow == 0 => {
                    return Some(LineEnd::BlockScalar);
                }
                // Anchors and tags come before the node they name.
                b'&' | b'!' if self.node_start => {
                    while i < bytes.len() && bytes[i] != b' ' && bytes[i] != b'\t' {
                        i += 1;
                    }
                    continue;
                }
                _ => self.node_start = false,
            }
            after_space = space;
            i += 1;
        }
        None
    }
}

pub fn to_diagnostic(
    e: &yaml_serde::Error,
    file: &Path,
    first_line: usize,
    source: &Arc<str>,
) -> Diagnostic {
    // The location is reported separately (and relative to the file, not to the YAML block),
    // so drop every " at line X column Y" from the text.
    let message = strip_positions(&e.to_string());
    let (line, column) = e
        .location()
        .map(|l| (l.line() + first_line - 1, l.column()))
        .unwrap_or((first_line, 1));
    let mut d = Diagnostic::new("yaml.invalid", message.clone())
        .in_file(file)
        .at(line, column)
        .with_source(source);
    if let Some(unknown) = between(&message, "unknown field `", "`") {
        let expected = expected_names(&message);
        d.code = "yaml.unknown-key";
        d.message = format!("unknown key `{unknown}`");
        d = match did_you_mean(unknown, expected.iter().copied()) {
            Some(s) => d.hint(format!("did you mean `{s}`?")),
            None if !expected.is_empty() => {
                d.hint(format!("the keys allowed here are {}", expected.join(", ")))
            }
            None => d.hint("remove this key"),
        };
    } else if let Some(variant) = between(&message, "unknown variant `", "`") {
        let expected = expected_names(&message);
        d.code = "yaml.unknown-value";
        d.message = format!("unknown value `{variant}`");
        d = match did_you_mean(variant, expected.iter().copied()) {
            Some(s) => d.hint(format!("did you mean `{s}`?")),
            None => d.hint(format!("use one of {}", expected.join(", "))),
        };
    } else if message.starts_with("missing field") || message.contains(": missing field") {
        d.code = "yaml.missing-key";
        d = d.hint("add the missing key");
    } else if ["duplicate entry", "duplicate key", "duplicate field"]
        .iter()
        .any(|s| message.contains(s))
    {
        d.code = "yaml.duplicate-key";
        // Point at the repeat, not at the start of the mapping.
        if let Some(key) = between(&message, "`", "`") {
            let first = key_line(source, line, key);
            let second = key_line(source, first + 1, key);
            if second > first {
                d = d.at(second, 1);
            }
        }
        d = d.hint("keep one of the two entries with this key");
    } else if is_syntax(&message) {
        d = d.hint("fix the YAML syntax here (indentation, a missing colon, or an unquoted special character)");
    } else {
        d.code = "yaml.wrong-type";
        d = d.hint("write this value in the form the message describes");
    }
    d
}

/// Whether a message comes from reading the YAML text itself rather than from its shape.
fn is_syntax(message: &str) -> bool {
    [
        "while parsing",
        "while scanning",
        "did not find expected",
        "could not find expected",
        "mapping values are not allowed",
        "found character",
        "found unexpected",
        "unexpected end",
        "found a tab",
        "invalid indentation",
        "block sequence entries are not allowed",
        "control characters are not allowed",
        "recursion limit",
    ]
    .iter()
    .any(|s| message.contains(s))
}

/// The line of `key:` in the YAML that starts at line `first_line` of `source` (a front
/// matter block ends at its `---`); `first_line` when the key is not written there.
pub fn key_line(source: &str, first_line: usize, key: &str) -> usize {
    for (i, line) in source
        .lines()
        .enumerate()
        .skip(first_line.saturating_sub(1))
    {
        if line.trim_end() == "---" && i + 1 > first_line {
            break;
        }
        let t = line.trim_start().trim_start_matches("- ").trim_start();
        let t = t.trim_start_matches(['"', '\'']);
        if let Some(rest) = t.strip_prefix(key)
            && rest
                .trim_start_matches(['"', '\''])
                .trim_start()
                .starts_with(':')
        {
            return i + 1;
        }
    }
    first_line
}

/// Where the value of the top-level `key:` is written: (line, column), 1-based.
pub fn top_key_at(source: &str, key: &str) -> Option<(usize, usize)> {
    source
        .lines()
        .enumerate()
        .find_map(|(i, line)| key_value_column(line, key, true).map(|c| (i + 1, c)))
}

/// Where the value of `key` is written in item `index` (0-based) of the top-level list
/// `section` (items written `- key: …` on lines of their own or `- {key: …}`): (line, column),
/// 1-based. `None` when it cannot be found as written.
pub fn list_item_key_at(
    source: &str,
    section: &str,
    index: usize,
    key: &str,
) -> Option<(usize, usize)> {
    let mut lines = source.lines().enumerate();
    lines.find(|(_, l)| key_value_column(l, section, true).is_some())?;
    let mut item: Option<usize> = None;
    let mut dash_indent = None;
    for (i, line) in lines {
        let trimmed = line.trim_start();
        if trimmed.is_empty() || trimmed.starts_with('#') {
            continue;
        }
        let indent = line.len() - trimmed.len();
        let dash = trimmed.starts_with("- ") || trimmed == "-";
        if indent == 0 && !dash {
            break;
        }
        if dash && *dash_indent.get_or_insert(indent) == indent {
            item = Some(item.map_or(0, |n| n + 1));
        }
        match item {
            Some(n) if n == index => {
                if let Some(column) = key_value_column(line, key, false) {
                    return Some((i + 1, column));
                }
            }
            Some(n) if n > index => break,
            _ => {}
        }
    }
    None
}

/// The 1-based column of the value of `key:` on `line`: at its start when `top`, else after
/// indentation, `- `, `{` or `,`.
fn key_value_column(line: &str, key: &str, top: bool) -> Option<usize> {
    let mut from = 0;
    while let Some(i) = line[from..].find(key) {
        let at = from + i;
        from = at + key.len();
        let before = line[..at].trim_end_matches(['"', '\'']);
        let placed = if top {
            before.is_empty()
        } else {
            before.is_empty() || before.ends_with([' ', '\t', '{', ',', '-'])
        };
        let after = line[from..].trim_start_matches(['"', '\'']).trim_start();
        if placed && after.starts_with(':') {
            let value = &after[1..];
            let start = line.len() - value.trim_start().len();
            return Some(line[..start].chars().count() + 1);
        }
    }
    None
}

/// The line where `key: value` is written (or, failing that, `value` alone); 0 if neither.
pub fn value_line(source: &str, key: &str, value: &str) -> usize {
    let lines: Vec<&str> = source.lines().collect();
    lines
        .iter()
        .position(|l| l.contains(key) && l.contains(value))
        .or_else(|| lines.iter().position(|l| l.contains(value)))
        .map_or(0, |i| i + 1)
}

fn strip_positions(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(i) = rest.find(" at line ") {
        out.push_str(&rest[..i]);
        let after = &rest[i + " at line ".len()..];
        let skip = after
            .find(" column ")
            .map(|j| j + " column ".len())
            .map(|j| {
                j + after[j..]
                    .find(|c: char| !c.is_ascii_digit())
                    .unwrap_or(after.len() - j)
            })
            .unwrap_or(0);
        rest = &after[skip..];
    }
    out.push_str(rest);
    out
}

fn between<'a>(s: &'a str, start: &str, end: &str) -> Option<&'a str> {
    let i = s.find(start)? + start.len();
    let j = s[i..].find(end)? + i;
    Some(&s[i..j])
}

/// The names in "expected one of `a`, `b`" or "expected `a`".
fn expected_names(message: &str) -> Vec<&str> {
    let Some(i) = message.find("expected") else {
        return Vec::new();
    };
    message[i..].split('`').skip(1).step_by(2).collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde::Deserialize;

    #[derive(Deserialize, Debug)]
    #[serde(deny_unknown_fields)]
    #[allow(dead_code)]
    struct Fm {
        title: String,
        order: Option<i64>,
    }

    fn src(s: &str) -> Arc<str> {
        Arc::from(s)
    }

    #[test]
    fn unknown_key_gets_line_and_suggestion() {
        let text = "title: A\nordr: 3\n";
        let e = parse::<Fm>(text, Path::new("a.md"), 2, &src(text)).unwrap_err();
        assert_eq!(e.code, "yaml.unknown-key");
        assert_eq!(e.line, 3);
        assert_eq!(e.hint.as_deref(), Some("did you mean `order`?"));
    }

    #[test]
    fn syntax_error_has_line_and_column() {
        let text = "title: A\n  bad: [\n";
        let e = parse::<Fm>(text, Path::new("a.md"), 1, &src(text)).unwrap_err();
        assert_eq!(e.code, "yaml.invalid");
        assert!(e.line >= 2, "{e:?}");
        assert!(e.column >= 1);
    }

    #[test]
    fn positions_are_removed_from_messages() {
        assert_eq!(
            strip_positions("bad ']' at line 3 column 1, while parsing at line 2 column 8"),
            "bad ']', while parsing"
        );
    }

    #[test]
    fn keys_and_values_are_found_on_their_lines() {
        let text = "---\ntitle: A\norder: \"abc\"\n---\norder: body\n";
        assert_eq!(key_line(text, 2, "order"), 3);
        assert_eq!(key_line(text, 2, "hidden"), 2);
        let site = "title: T\npublish:\n  - path: ../x\n    data: d\n";
        assert_eq!(value_line(site, "path", "../x"), 3);
        assert_eq!(value_line(site, "path", "nowhere"), 0);
    }

    #[test]
    fn nesting_is_measured_in_one_pass() {
        // Flow collections: the first bracket past the limit is named.
        let deep = format!("x: {}{}", "[".repeat(10_000), "]".repeat(10_000));
        assert_eq!(too_deep(&deep, 64), Some((1, 4 + 63)));
        let maps = format!("a: 1\nx: {}1{}", "{a: ".repeat(100), "}".repeat(100));
        assert_eq!(too_deep(&maps, 64), Some((2, 4 + 4 * 63)));
        // Compact entries and indentation count; quotes, comments and block scalars do not.
        assert_eq!(too_deep(&"- ".repeat(100), 64), Some((1, 2 * 64 + 1)));
        let ok =
            "a: \"[[[[\"\nb: '{{{{'\nc: Don't [[[[ # [[[[\nd: |\n  [[[[\n  {{{{\ne: [1, [2]]\n";
        assert_eq!(too_deep(ok, 3), None);
        assert_eq!(too_deep("a:\n  b:\n    c: [1]\n", 3), Some((3, 8)));
        assert_eq!(too_deep("a:\n  b:\n    c: [1]\n", 4), None);
        // A collection over several lines.
        assert_eq!(too_deep("a: [\n  [\n   [1]]]\n", 3), Some((3, 4)));
    }

    #[test]
    fn too_deep_is_an_error_at_its_line() {
        let text = format!(
            "title: A\norder: {}1{}\n",
            "[".repeat(5_000),
            "]".repeat(5_000)
        );
        let e = parse::<Fm>(&text, Path::new("a.md"), 2, &src(&text)).unwrap_err();
        assert_eq!(e.code, "yaml.too-deep");
        assert_eq!((e.line, e.column), (3, 8 + 63));
    }

    #[test]
    fn missing_key_is_named() {
        let text = "order: 1\n";
        let e = parse::<Fm>(text, Path::new("a.md"), 1, &src(text)).unwrap_err();
        assert_eq!(e.code, "yaml.missing-key");
        assert!(e.message.contains("title"), "{}", e.message);
    }
}
