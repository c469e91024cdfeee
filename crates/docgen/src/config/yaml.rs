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

/// One step of a path into YAML data: a map's key or a list's index.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum Step {
    Key(String),
    Index(usize),
}

impl From<&str> for Step {
    fn from(key: &str) -> Self {
        Step::Key(key.to_string())
    }
}

impl From<usize> for Step {
    fn from(index: usize) -> Self {
        Step::Index(index)
    }
}

/// Where a value sits in a YAML text: its key's place (for a map entry) and its own, each
/// (line, column) from 1 in the whole file.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Place {
    pub key: Option<(usize, usize)>,
    pub value: (usize, usize),
}

/// The places of the values of one YAML document, by their path (`["publish", 2, "path"]`),
/// as its parser reports them; read once with the document and passed on with what was
/// parsed from it, so later checks place their messages without searching the text.
#[derive(Debug, Clone, Default)]
pub struct Positions {
    places: std::collections::HashMap<Vec<Step>, Place>,
}

impl Positions {
    /// The places in `text`, which starts at line `first_line` of its file. A text the parser
    /// refuses has the places read before the error.
    pub fn read(text: &str, first_line: usize) -> Positions {
        use serde_saphyr::granit_parser::{Event, Parser};
        /// A collection being read: a map (with the key of the entry being read, and where it
        /// is written) or a list (with the index of the next item).
        enum Open {
            Map(Option<(Step, (usize, usize))>),
            List(usize),
        }
        let mut places = std::collections::HashMap::new();
        let mut path: Vec<Step> = Vec::new();
        // Each open collection, and whether it added a step to `path`.
        let mut open: Vec<(Open, bool)> = Vec::new();
        // How deep the reader is inside a key that is itself a list or map.
        let mut in_key = 0usize;
        for item in Parser::new_from_str(text) {
            let Ok((event, span)) = item else { break };
            let here = (span.start.line() + first_line - 1, span.start.col() + 1);
            let (starts, collection) = match event {
                Event::Scalar(..) | Event::Alias(..) => (true, false),
                Event::SequenceStart(..) | Event::MappingStart(..) => (true, true),
                Event::SequenceEnd | Event::MappingEnd => (false, true),
                _ => continue,
            };
            if in_key > 0 {
                in_key = if starts {
                    in_key + usize::from(collection)
                } else {
                    in_key - 1
                };
                continue;
            }
            if !starts {
                if let Some((_, true)) = open.pop() {
                    path.pop();
                }
                continue;
            }
            // In a map where a key is due, this node is that key.
            if let Some((Open::Map(entry @ None), _)) = open.last_mut() {
                let name = match &event {
                    Event::Scalar(value, ..) => value.to_string(),
                    _ => String::new(),
                };
                *entry = Some((Step::Key(name), here));
                in_key = usize::from(collection);
                continue;
            }
            // The value of the entry or item being read.
            let (step, key) = match open.last_mut() {
                Some((Open::Map(entry), _)) => match entry.take() {
                    Some((step, key)) => (Some(step), Some(key)),
                    None => (None, None),
                },
                Some((Open::List(next), _)) => {
                    let i = *next;
                    *next += 1;
                    (Some(Step::Index(i)), None)
                }
                None => (None, None),
            };
            let stepped = step.is_some();
            path.extend(step);
            places.insert(path.clone(), Place { key, value: here });
            match event {
                Event::SequenceStart(..) => open.push((Open::List(0), stepped)),
                Event::MappingStart(..) => open.push((Open::Map(None), stepped)),
                _ if stepped => {
                    path.pop();
                }
                _ => {}
            }
        }
        Positions { places }
    }

    /// Where the value at `path` is written.
    pub fn value(&self, path: &[Step]) -> Option<(usize, usize)> {
        self.places.get(path).map(|p| p.value)
    }

    /// Where the key of the map entry at `path` is written.
    pub fn key(&self, path: &[Step]) -> Option<(usize, usize)> {
        self.places.get(path).and_then(|p| p.key)
    }
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
    fn positions_are_found_by_path() {
        let text = "title: T\npublish:\n  - path: ../x\n    data: d\n  - {path: \"y\", data: e}\nextensions:\n  adplatform:\n    on: [1, 2]\n";
        let p = Positions::read(text, 1);
        assert_eq!(p.value(&["title".into()]), Some((1, 8)));
        assert_eq!(p.key(&["publish".into()]), Some((2, 1)));
        assert_eq!(
            p.value(&["publish".into(), 0.into(), "path".into()]),
            Some((3, 11))
        );
        assert_eq!(
            p.key(&["publish".into(), 0.into(), "data".into()]),
            Some((4, 5))
        );
        assert_eq!(
            p.value(&["publish".into(), 1.into(), "path".into()]),
            Some((5, 12))
        );
        assert_eq!(
            p.value(&["publish".into(), 1.into(), "data".into()]),
            Some((5, 23))
        );
        assert_eq!(
            p.key(&["extensions".into(), "adplatform".into()]),
            Some((7, 3))
        );
        assert_eq!(
            p.value(&[
                "extensions".into(),
                "adplatform".into(),
                "on".into(),
                1.into()
            ]),
            Some((8, 13))
        );
        assert_eq!(p.value(&["publish".into(), 2.into()]), None);
        assert_eq!(p.value(&["nowhere".into()]), None);
        // Front matter starts below the opening `---`; a complex key adds no path.
        let p = Positions::read("? [a, b]\n: 1\norder: \"abc\"\n", 2);
        assert_eq!(p.value(&["order".into()]), Some((4, 8)));
        assert_eq!(p.key(&["order".into()]), Some((4, 1)));
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
