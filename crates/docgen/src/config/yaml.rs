//! Strict YAML reading with errors that point at the line and suggest the key that was meant.

use std::path::Path;
use std::sync::Arc;

use serde::de::DeserializeOwned;

use crate::diagnostics::{Diagnostic, did_you_mean};

/// How deeply lists and maps may nest in any YAML docgen reads; no site's data comes near
/// this, and the reader stops at once when a file goes deeper.
pub const MAX_DEPTH: usize = 64;

/// Parses `text` (which starts at line `first_line` of `file`) into `T`. Every YAML docgen
/// reads (site.yaml, redirects.yaml, front matter, data and category files) comes through here.
/// Positions come from the parser, the kind of each error from its type.
pub fn parse<T: DeserializeOwned>(
    text: &str,
    file: &Path,
    first_line: usize,
    source: &Arc<str>,
) -> Result<T, Diagnostic> {
    let mut options = serde_saphyr::Options::default();
    // Positions are reported by docgen's diagnostics; the reader need not copy the text.
    options.with_snippet = false;
    let mut budget = serde_saphyr::Budget::default();
    budget.max_depth = MAX_DEPTH;
    // The parser reads a flow collection ahead of the data it makes: it must stop at the
    // same depth.
    budget.flow_nesting_limit = MAX_DEPTH;
    options.budget = Some(budget);
    // The path of the value that failed (`publish[0].path`), for the message.
    let mut path = None;
    serde_saphyr::with_deserializer_from_str_with_options(text, options, |de| {
        serde_path_to_error::deserialize(de).map_err(|e| {
            path = Some(e.path().to_string());
            e.into_inner()
        })
    })
    .map_err(|e| {
        let d = to_diagnostic(&e, path.as_deref(), file, first_line, source);
        // The data's shape may be refused before the reader reaches a part nested too deep;
        // that part is the first thing to fix (as a file that cannot be read at all).
        match too_deep_at(text) {
            Some((line, column)) if d.code != "yaml.invalid" && d.code != "yaml.too-deep" => {
                too_deep(|code, message| {
                    Diagnostic::new(code, message)
                        .in_file(file)
                        .at(line + first_line - 1, column)
                        .with_source(source)
                })
            }
            _ => d,
        }
    })
}

/// Where (line and column, from 1) the YAML `text` first nests lists and maps more than
/// [`MAX_DEPTH`] deep, as its parser reads it.
fn too_deep_at(text: &str) -> Option<(usize, usize)> {
    use serde_saphyr::granit_parser::{ErrorKind, Event, Options, Parser};
    let mut options = Options::default();
    options.flow_nesting_limit = MAX_DEPTH;
    options.block_nesting_limit = MAX_DEPTH + 1;
    let mut depth = 0usize;
    for item in Parser::new_from_str_with_options(text, options) {
        match item {
            Ok((Event::SequenceStart(..) | Event::MappingStart(..), span)) => {
                depth += 1;
                if depth > MAX_DEPTH {
                    return Some((span.start.line(), span.start.col() + 1));
                }
            }
            Ok((Event::SequenceEnd | Event::MappingEnd, _)) => depth = depth.saturating_sub(1),
            Ok(_) => {}
            // The parser reads a flow collection ahead of its events, and stops at its limit.
            Err(e) if matches!(e.kind(), ErrorKind::RecursionLimitExceeded) => {
                return Some((e.marker().line(), e.marker().col() + 1));
            }
            Err(_) => return None,
        }
    }
    None
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

/// The diagnostic for an error of the YAML reader. `path`: where in the data the value that
/// failed sits (`.` for the top), when known.
fn to_diagnostic(
    e: &serde_saphyr::Error,
    path: Option<&str>,
    file: &Path,
    first_line: usize,
    source: &Arc<str>,
) -> Diagnostic {
    use serde_saphyr::Error as E;
    use serde_saphyr::budget::BudgetBreach;
    use serde_saphyr::granit_parser::ErrorKind;
    use serde_saphyr::localizer::ExternalMessageSource;
    let e = e.without_snippet();
    let (line, column) = e
        .location()
        .filter(|l| l.line() > 0)
        .map_or((first_line, 1), |l| {
            // Line and column count from 1 in the YAML text, which starts at `first_line`.
            (
                l.line() as usize + first_line - 1,
                (l.column() as usize).max(1),
            )
        });
    let plain =
        serde_saphyr::MessageFormatter::format_message(&serde_saphyr::UserMessageFormatter, e)
            .into_owned();
    let plain = match e {
        E::Unexpected { expected, .. } => format!("expected {}", in_words(expected)),
        _ => plain,
    };
    // A message about a value names where it sits, as `title: …`; a syntax error is about
    // the text, not a value.
    let syntax = matches!(e, E::ExternalMessage { source, .. }
        if matches!(&**source, ExternalMessageSource::Parser(_)));
    let message = match path.filter(|p| !p.is_empty() && *p != "." && !syntax) {
        Some(p) => format!("{p}: {plain}"),
        None => plain,
    };
    let d = |code: &'static str, message: String| {
        Diagnostic::new(code, message)
            .in_file(file)
            .at(line, column)
            .with_source(source)
    };
    match e {
        E::SerdeUnknownField {
            field, expected, ..
        } => {
            let d = d("yaml.unknown-key", format!("unknown key `{field}`"));
            match did_you_mean(field, expected.iter().copied()) {
                Some(s) => d.hint(format!("did you mean `{s}`?")),
                None if !expected.is_empty() => {
                    d.hint(format!("the keys allowed here are {}", expected.join(", ")))
                }
                None => d.hint("remove this key"),
            }
        }
        E::SerdeUnknownVariant {
            variant, expected, ..
        } => {
            let d = d("yaml.unknown-value", format!("unknown value `{variant}`"));
            match did_you_mean(variant, expected.iter().copied()) {
                Some(s) => d.hint(format!("did you mean `{s}`?")),
                None => d.hint(format!("use one of {}", expected.join(", "))),
            }
        }
        E::SerdeMissingField { field, .. } => {
            d("yaml.missing-key", message_for_field(path, field)).hint("add the missing key")
        }
        E::DuplicateMappingKey { key, .. } => {
            let message = match key {
                Some(k) => format!("duplicate key `{k}`"),
                None => "duplicate key".to_string(),
            };
            d("yaml.duplicate-key", message).hint("keep one of the two entries with this key")
        }
        E::Budget {
            breach: BudgetBreach::Depth { .. },
            ..
        } => too_deep(d),
        // The reader's own errors: the text is not YAML, or not one document.
        E::ExternalMessage { source, .. }
            if matches!(&**source, ExternalMessageSource::Parser(scan)
                if matches!(scan.kind(), ErrorKind::RecursionLimitExceeded)) =>
        {
            too_deep(d)
        }
        E::ExternalMessage { source, .. }
            if matches!(&**source, ExternalMessageSource::Parser(_)) =>
        {
            d("yaml.invalid", message).hint(SYNTAX_HINT)
        }
        E::Eof { .. }
        | E::MultipleDocuments { .. }
        | E::UnknownAnchor { .. }
        | E::ContainerEndMismatch { .. }
        | E::UnexpectedSequenceEnd { .. }
        | E::UnexpectedMappingEnd { .. }
        | E::UnexpectedContainerEndWhileReadingKeyNode { .. }
        | E::IOError { .. } => d("yaml.invalid", message).hint(SYNTAX_HINT),
        // Everything else is a value of a form its place does not take.
        _ => {
            d("yaml.wrong-type", message).hint("write this value in the form the message describes")
        }
    }
}

/// What the reader expected, in the words of the rest of docgen's messages.
fn in_words(expected: &str) -> String {
    match expected {
        "string scalar" | "string" => "a string".into(),
        "sequence start" | "seq" => "a list".into(),
        "mapping start" | "map" => "a map".into(),
        "scalar" | "value" => "a single value".into(),
        other => other.to_string(),
    }
}

const SYNTAX_HINT: &str =
    "fix the YAML syntax here (indentation, a missing colon, or an unquoted special character)";

/// The diagnostic for lists and maps nested deeper than [`MAX_DEPTH`].
fn too_deep(d: impl FnOnce(&'static str, String) -> Diagnostic) -> Diagnostic {
    d(
        "yaml.too-deep",
        format!("lists and maps are nested more than {MAX_DEPTH} levels deep here"),
    )
    .hint(format!(
        "YAML may nest at most {MAX_DEPTH} levels of lists and maps: flatten the data"
    ))
}

/// "missing field `x`", with the path of the mapping it is missing from when not the top.
fn message_for_field(path: Option<&str>, field: &str) -> String {
    match path.filter(|p| !p.is_empty() && *p != ".") {
        Some(p) => format!("{p}: missing field `{field}`"),
        None => format!("missing field `{field}`"),
    }
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
    fn keys_and_values_are_found_on_their_lines() {
        let text = "---\ntitle: A\norder: \"abc\"\n---\norder: body\n";
        assert_eq!(key_line(text, 2, "order"), 3);
        assert_eq!(key_line(text, 2, "hidden"), 2);
        let site = "title: T\npublish:\n  - path: ../x\n    data: d\n";
        assert_eq!(value_line(site, "path", "../x"), 3);
        assert_eq!(value_line(site, "path", "nowhere"), 0);
    }

    #[test]
    fn nesting_deeper_than_the_limit_is_refused_where_it_goes_too_deep() {
        let at = |text: &str| {
            let e =
                parse::<yaml_serde::Value>(text, Path::new("d.yaml"), 1, &src(text)).unwrap_err();
            assert_eq!(e.code, "yaml.too-deep", "{e:?}");
            (e.line, e.column)
        };
        // Flow collections, maps in maps, compact entries, block indentation.
        let deep = format!("x: {}{}", "[".repeat(10_000), "]".repeat(10_000));
        assert_eq!(at(&deep).0, 1);
        let maps = format!("a: 1\nx: {}1{}", "{a: ".repeat(100), "}".repeat(100));
        assert_eq!(at(&maps).0, 2);
        assert_eq!(at(&"- ".repeat(100)).0, 1);
        let block: String = (0..70)
            .map(|i| format!("{}k{i}:\n", "  ".repeat(i)))
            .collect();
        assert!(at(&block).0 > 60);
        // Brackets in quotes, comments and block scalars nest nothing.
        let ok = format!(
            "a: \"{0}\"\nb: '{0}'\nc: Don't {0} # {0}\nd: |\n  {0}\n",
            "[".repeat(100)
        );
        assert!(parse::<yaml_serde::Value>(&ok, Path::new("d.yaml"), 1, &src(&ok)).is_ok());
        // Exactly the limit is allowed.
        let limit = format!("{}1{}", "[".repeat(MAX_DEPTH), "]".repeat(MAX_DEPTH));
        assert!(parse::<yaml_serde::Value>(&limit, Path::new("d.yaml"), 1, &src(&limit)).is_ok());
    }

    #[test]
    fn errors_are_placed_and_named_by_the_reader() {
        let text = "title: A\norder: 1\ntitle: B\n";
        let e = parse::<Fm>(text, Path::new("a.md"), 2, &src(text)).unwrap_err();
        assert_eq!((e.code, e.line, e.column), ("yaml.duplicate-key", 4, 1));
        assert_eq!(e.message, "duplicate key `title`");
        let text = "title: A\norder: [1]\n";
        let e = parse::<Fm>(text, Path::new("a.md"), 1, &src(text)).unwrap_err();
        assert_eq!((e.code, e.line, e.column), ("yaml.wrong-type", 2, 8));
        assert!(e.message.starts_with("order: "), "{}", e.message);
        let text = "title: A\nordr: 3\n";
        let e = parse::<Fm>(text, Path::new("a.md"), 1, &src(text)).unwrap_err();
        assert_eq!((e.line, e.column), (2, 1));
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
        // At the first bracket past the limit of open flow collections.
        assert_eq!((e.line, e.column), (3, 8 + MAX_DEPTH));
    }

    #[test]
    fn missing_key_is_named() {
        let text = "order: 1\n";
        let e = parse::<Fm>(text, Path::new("a.md"), 1, &src(text)).unwrap_err();
        assert_eq!(e.code, "yaml.missing-key");
        assert!(e.message.contains("title"), "{}", e.message);
    }
}
