//! mdBook's include directives, expanded in a page's Markdown before it is rendered (inside
//! fenced code too, which is what they are mostly for):
//!
//! - `{{#include path}}`: the whole file, without its anchor lines;
//! - `{{#include path:name}}`: the lines between `ANCHOR: name` and `ANCHOR_END: name`;
//! - `{{#include path:10:20}}`, `path:10:`, `path::20`, `path:10`: lines by number (from 1);
//! - `{{#rustdoc_include ...}}`: the same (mdBook hides the rest of the file; docgen leaves it out);
//! - `{{#playground path}}`: the file as a `rust` code block;
//! - `\{{#include ...}}`: the directive as written.
//!
//! Paths are relative to the file holding the directive and may not leave the project: the site
//! root, or the top of the git work tree holding it. Included Markdown files expand their own
//! directives, to a limited depth and without cycles.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use crate::diagnostics::Diagnostic;

/// The largest file an include may read.
pub const MAX_INCLUDE_BYTES: u64 = 4 << 20;
/// How deep included Markdown may include more Markdown.
const MAX_DEPTH: usize = 8;

/// A body with its directives expanded.
#[derive(Debug, Default)]
pub struct Expanded {
    pub text: String,
    /// For each line of `text`, the line of the original body it comes from (1-based): lines
    /// an include brought in are the directive's line.
    pub lines: Vec<usize>,
    /// Every file read, resolved.
    pub files: Vec<PathBuf>,
    /// Directives docgen does not know, left as written.
    pub warnings: Vec<Diagnostic>,
}

impl Expanded {
    /// The body line that `line` of the expanded text comes from.
    pub fn original_line(&self, line: usize) -> usize {
        self.lines
            .get(line.saturating_sub(1))
            .copied()
            .unwrap_or(line)
    }
}

/// The file holding some Markdown, for resolving paths and placing diagnostics.
#[derive(Clone)]
pub struct Origin<'a> {
    /// The file, resolved (absolute).
    pub path: &'a Path,
    /// How messages name it (relative to the site root).
    pub shown: &'a Path,
    /// Its whole text, for the excerpt of a diagnostic.
    pub text: &'a Arc<str>,
    /// The file line of the Markdown's first line.
    pub first_line: usize,
}

/// Where includes may read: the project's top folder, resolved.
pub struct Project {
    pub root: PathBuf,
    pub top: PathBuf,
}

impl Project {
    /// The site root and the top of the git work tree holding it, if any.
    pub fn of(root: &Path) -> Self {
        let root = root.canonicalize().unwrap_or_else(|_| root.to_path_buf());
        let top = root
            .ancestors()
            .find(|d| d.join(".git").exists())
            .unwrap_or(&root)
            .to_path_buf();
        Project { root, top }
    }

    /// How messages name `path`: relative to the site root, with `../` above it.
    fn shown(&self, path: &Path) -> PathBuf {
        if let Ok(rel) = path.strip_prefix(&self.root) {
            return rel.to_path_buf();
        }
        let mut up = PathBuf::new();
        for dir in self.root.ancestors().skip(1) {
            up.push("..");
            if let Ok(rel) = path.strip_prefix(dir) {
                return up.join(rel);
            }
        }
        path.to_path_buf()
    }
}

/// Expands the directives of `markdown`; `None` when it has none (the common case, at no cost).
pub fn expand(
    markdown: &str,
    origin: &Origin<'_>,
    project: &Project,
) -> Result<Option<Expanded>, Vec<Diagnostic>> {
    if !markdown.contains("{{#") {
        return Ok(None);
    }
    let mut out = Expanded::default();
    let mut stack = vec![origin.path.to_path_buf()];
    expand_into(markdown, origin, project, &mut stack, &mut out, true)?;
    out.files.sort();
    out.files.dedup();
    Ok(Some(out))
}

/// A directive as written: its kind, the path, what to take, and trailing words.
#[derive(Debug, PartialEq, Eq)]
struct Directive<'a> {
    kind: Kind,
    path: &'a str,
    take: Take<'a>,
    extra: Vec<&'a str>,
}

#[derive(Debug, PartialEq, Eq, Clone, Copy)]
enum Kind {
    Include,
    RustdocInclude,
    Playground,
}

#[derive(Debug, PartialEq, Eq)]
enum Take<'a> {
    All,
    Anchor(&'a str),
    /// 1-based, inclusive; `None` for an open end.
    Lines(Option<usize>, Option<usize>),
}

/// Reads the inside of `{{#...}}`: `Ok(None)` for a name that is not an include directive.
fn parse(inside: &str) -> Result<Option<Directive<'_>>, String> {
    let inside = inside.trim();
    let (name, args) = inside
        .split_once(char::is_whitespace)
        .unwrap_or((inside, ""));
    let kind = match name {
        "include" => Kind::Include,
        "rustdoc_include" => Kind::RustdocInclude,
        "playground" => Kind::Playground,
        _ => return Ok(None),
    };
    let mut words = args.split_whitespace();
    // A directive that names nothing is prose about the syntax (mdBook leaves it too).
    let Some(target) = words.next() else {
        return Ok(None);
    };
    let (path, spec) = match target.split_once(':') {
        Some((p, s)) => (p, Some(s)),
        None => (target, None),
    };
    let number = |s: &str| -> Result<Option<usize>, String> {
        if s.is_empty() {
            return Ok(None);
        }
        s.parse::<usize>()
            .ok()
            .filter(|n| *n > 0)
            .map(Some)
            .ok_or_else(|| format!("`{s}` is not a line number (lines count from 1)"))
    };
    let take = match spec {
        None | Some("") => Take::All,
        Some(s) => match s.split_once(':') {
            Some((a, b)) => Take::Lines(number(a)?, number(b)?),
            None if s.bytes().all(|b| b.is_ascii_digit()) => {
                let n = number(s)?;
                Take::Lines(n, n)
            }
            None => Take::Anchor(s),
        },
    };
    Ok(Some(Directive {
        kind,
        path,
        take,
        extra: words.collect(),
    }))
}

fn expand_into(
    markdown: &str,
    origin: &Origin<'_>,
    project: &Project,
    stack: &mut Vec<PathBuf>,
    out: &mut Expanded,
    top: bool,
) -> Result<(), Vec<Diagnostic>> {
    let mut errors = Vec::new();
    let mut line = 1usize;
    if top {
        out.lines.push(1);
    }
    // Appends Markdown of this file, or text an include brought in (all of it at `at`).
    let push = |out: &mut Expanded, s: &str, line: &mut usize, at: Option<usize>| {
        out.text.push_str(s);
        if !top {
            return;
        }
        for _ in s.matches('\n') {
            match at {
                Some(l) => out.lines.push(l),
                None => {
                    *line += 1;
                    out.lines.push(*line);
                }
            }
        }
    };
    let mut rest = markdown;
    while let Some(i) = rest.find("{{#") {
        let (before, from) = rest.split_at(i);
        let line_end = from.find('\n').unwrap_or(from.len());
        let Some(close) = from[..line_end].find("}}") else {
            push(out, before, &mut line, None);
            push(out, "{{#", &mut line, None);
            rest = &from[3..];
            continue;
        };
        let whole = &from[..close + 2];
        if let Some(kept) = before.strip_suffix('\\') {
            // Escaped: the directive as written, without the backslash.
            push(out, kept, &mut line, None);
            push(out, whole, &mut line, None);
            rest = &from[close + 2..];
            continue;
        }
        push(out, before, &mut line, None);
        let at_line = line;
        let file_line = origin.first_line + at_line - 1;
        let column = before.rsplit('\n').next().map_or(0, |l| l.chars().count()) + 1;
        let error = |code: &'static str, message: String, hint: &str| {
            Diagnostic::new(code, message)
                .in_file(origin.shown)
                .at(file_line, column)
                .with_source(origin.text)
                .hint(hint)
        };
        match parse(&from[3..close]) {
            Ok(None) => {
                let name = from[3..close].split_whitespace().next().unwrap_or("");
                out.warnings.push(
                    error(
                        "include.unknown-directive",
                        format!("`{{{{#{name}}}}}` is not a directive docgen knows: it is shown as written"),
                        "docgen expands {{#include}}, {{#rustdoc_include}} and {{#playground}}; write \\{{#...}} to show a directive as text",
                    )
                    .warning(),
                );
                push(out, whole, &mut line, None);
            }
            Err(why) => {
                errors.push(error(
                    "include.syntax",
                    why,
                    "write {{#include path}}, {{#include path:anchor}} or {{#include path:10:20}}",
                ));
            }
            Ok(Some(d)) => match include(&d, origin, project, stack, out) {
                Ok(text) => {
                    if d.kind == Kind::Playground && !d.extra.is_empty() {
                        out.warnings.push(
                            error(
                                "include.playground-attributes",
                                format!(
                                    "the playground attributes `{}` have no effect: the file is shown as a code block",
                                    d.extra.join(" ")
                                ),
                                "remove them; docgen does not run code",
                            )
                            .warning(),
                        );
                    }
                    push(out, &text, &mut line, Some(at_line));
                }
                Err(mut e) => {
                    for d in &mut e {
                        if d.file.as_deref() == Some(Path::new("")) {
                            *d = error(
                                d.code,
                                std::mem::take(&mut d.message),
                                d.hint.as_deref().unwrap_or(""),
                            );
                        }
                    }
                    errors.extend(e);
                }
            },
        }
        rest = &from[close + 2..];
    }
    push(out, rest, &mut line, None);
    if errors.is_empty() {
        Ok(())
    } else {
        Err(errors)
    }
}

/// The text one directive stands for. Errors about the directive itself carry an empty file
/// name, for the caller to place; those inside included Markdown are placed already.
fn include(
    d: &Directive<'_>,
    origin: &Origin<'_>,
    project: &Project,
    stack: &mut Vec<PathBuf>,
    out: &mut Expanded,
) -> Result<String, Vec<Diagnostic>> {
    let here = |code: &'static str, message: String, hint: &str| {
        vec![Diagnostic::new(code, message).in_file("").hint(hint)]
    };
    let dir = origin.path.parent().unwrap_or(Path::new("/"));
    let joined = dir.join(d.path);
    let path = match joined.canonicalize() {
        Ok(p) => p,
        Err(_) => {
            let near = joined
                .file_name()
                .and_then(|n| {
                    let name = n.to_string_lossy().into_owned();
                    let siblings: Vec<String> = std::fs::read_dir(joined.parent()?)
                        .ok()?
                        .flatten()
                        .map(|e| e.file_name().to_string_lossy().into_owned())
                        .collect();
                    crate::diagnostics::did_you_mean(&name, siblings.iter().map(String::as_str))
                        .map(str::to_string)
                })
                .map_or_else(
                    || "the path is relative to the file that holds the directive".to_string(),
                    |n| format!("did you mean `{n}`?"),
                );
            return Err(here(
                "include.missing",
                format!("`{}` names no file", d.path),
                &near,
            ));
        }
    };
    if !path.starts_with(&project.top) {
        return Err(here(
            "include.outside",
            format!("`{}` leads outside the project", d.path),
            "include files of the site or of the git work tree holding it",
        ));
    }
    if stack.contains(&path) {
        return Err(here(
            "include.cycle",
            format!(
                "`{}` includes itself, through the files that include it",
                d.path
            ),
            "remove one of the includes that lead back here",
        ));
    }
    if stack.len() > MAX_DEPTH {
        return Err(here(
            "include.too-deep",
            format!("includes nest more than {MAX_DEPTH} deep"),
            "include the files from fewer levels",
        ));
    }
    let meta = std::fs::metadata(&path).map_err(|e| {
        here(
            "include.unreadable",
            format!("`{}` cannot be read: {e}", d.path),
            "check its permissions",
        )
    })?;
    if !meta.is_file() {
        return Err(here(
            "include.not-a-file",
            format!("`{}` is not a regular file", d.path),
            "include a file, not a folder or a device",
        ));
    }
    if meta.len() > MAX_INCLUDE_BYTES {
        return Err(here(
            "include.too-large",
            format!(
                "`{}` is {} MB, more than the {} MB an include may read",
                d.path,
                meta.len() >> 20,
                MAX_INCLUDE_BYTES >> 20
            ),
            "include a part of it, by anchor or line range",
        ));
    }
    let shown = project.shown(&path);
    let bytes = std::fs::read(&path).map_err(|e| {
        here(
            "include.unreadable",
            format!("`{}` cannot be read: {e}", d.path),
            "check its permissions",
        )
    })?;
    let text = crate::config::source::check(bytes, &shown).map_err(|d| vec![d])?;
    out.files.push(path.clone());
    let lines: Vec<&str> = text.lines().collect();
    let taken: Vec<&str> = match d.take {
        Take::All => lines
            .iter()
            .copied()
            .filter(|l| anchor_of(l).is_none())
            .collect(),
        Take::Anchor(name) => {
            let start = lines
                .iter()
                .position(|l| anchor_of(l) == Some((false, name)));
            let Some(start) = start else {
                let known: Vec<&str> = lines
                    .iter()
                    .filter_map(|l| anchor_of(l).filter(|a| !a.0).map(|a| a.1))
                    .collect();
                let hint = match crate::diagnostics::did_you_mean(name, known.iter().copied()) {
                    Some(n) => format!("did you mean `{n}`?"),
                    None if known.is_empty() => {
                        format!(
                            "{} has no anchors: mark lines with `ANCHOR: {name}` and `ANCHOR_END: {name}` comments",
                            shown.display()
                        )
                    }
                    None => format!("its anchors: {}", known.join(", ")),
                };
                return Err(here(
                    "include.unknown-anchor",
                    format!("`{}` has no anchor `{name}`", d.path),
                    &hint,
                ));
            };
            lines[start + 1..]
                .iter()
                .take_while(|l| anchor_of(l) != Some((true, name)))
                .copied()
                .filter(|l| anchor_of(l).is_none())
                .collect()
        }
        Take::Lines(from, to) => {
            let n = lines.len();
            let (from, to) = (from.unwrap_or(1), to.unwrap_or(n));
            if from > to || to > n {
                return Err(here(
                    "include.past-the-end",
                    format!(
                        "`{}` has {n} lines: lines {from} to {to} are not all there",
                        d.path
                    ),
                    "check the line numbers, or mark the lines with ANCHOR comments, which move with them",
                ));
            }
            lines[from - 1..to]
                .iter()
                .copied()
                .filter(|l| anchor_of(l).is_none())
                .collect()
        }
    };
    let mut body = taken.join("\n");
    let is_markdown = path.extension().is_some_and(|e| e == "md");
    if is_markdown && d.kind == Kind::Include && body.contains("{{#") {
        let inner = Origin {
            path: &path,
            shown: &shown,
            text: &text,
            first_line: 1,
        };
        let mut nested = Expanded::default();
        stack.push(path.clone());
        let result = expand_into(&body, &inner, project, stack, &mut nested, false);
        stack.pop();
        result?;
        out.files.extend(nested.files);
        out.warnings.extend(nested.warnings);
        body = nested.text;
    }
    if d.kind == Kind::Playground {
        body = format!("```rust\n{body}\n```");
    }
    Ok(body)
}

/// `(is_end, name)` of an mdBook anchor line (`// ANCHOR: name`, `# ANCHOR_END: name`).
fn anchor_of(line: &str) -> Option<(bool, &str)> {
    let (end, rest) = if let Some(i) = line.find("ANCHOR_END:") {
        (true, &line[i + "ANCHOR_END:".len()..])
    } else if let Some(i) = line.find("ANCHOR:") {
        (false, &line[i + "ANCHOR:".len()..])
    } else {
        return None;
    };
    let rest = rest.trim_start();
    let len = rest
        .find(|c: char| !(c.is_alphanumeric() || c == '_' || c == '-'))
        .unwrap_or(rest.len());
    (len > 0).then(|| (end, &rest[..len]))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn directives_are_parsed_like_mdbook() {
        let p = |s| parse(s).unwrap().unwrap();
        assert_eq!(p("include a.rs").take, Take::All);
        assert_eq!(p("include a.rs:main").take, Take::Anchor("main"));
        assert_eq!(
            p("include a.rs:10:20").take,
            Take::Lines(Some(10), Some(20))
        );
        assert_eq!(p("include a.rs:10:").take, Take::Lines(Some(10), None));
        assert_eq!(p("include a.rs::20").take, Take::Lines(None, Some(20)));
        assert_eq!(p("include a.rs:10").take, Take::Lines(Some(10), Some(10)));
        assert_eq!(p("rustdoc_include ../x/a.rs:s").kind, Kind::RustdocInclude);
        let play = p("playground a.rs editable");
        assert_eq!(
            (play.kind, play.path, play.extra),
            (Kind::Playground, "a.rs", vec!["editable"])
        );
        assert_eq!(parse("title x").unwrap(), None);
        // Naming no file, it is prose about the syntax, shown as written.
        assert_eq!(parse("include").unwrap(), None);
        assert!(parse("include a.rs:0:3").is_err());
    }

    #[test]
    fn anchors_are_found_in_any_comment_style() {
        assert_eq!(anchor_of("// ANCHOR: main"), Some((false, "main")));
        assert_eq!(anchor_of("# ANCHOR_END: a-b_c"), Some((true, "a-b_c")));
        assert_eq!(anchor_of("<!-- ANCHOR: x -->"), Some((false, "x")));
        assert_eq!(anchor_of("let anchor = 1;"), None);
        assert_eq!(anchor_of("ANCHOR:"), None);
    }

    fn fixture() -> (tempfile::TempDir, Project) {
        let tmp = tempfile::tempdir().unwrap();
        let root = tmp.path().join("site");
        std::fs::create_dir_all(root.join("content")).unwrap();
        std::fs::create_dir_all(tmp.path().join("src")).unwrap();
        std::fs::create_dir_all(tmp.path().join(".git")).unwrap();
        std::fs::write(
            tmp.path().join("src/lib.rs"),
            "// ANCHOR: all\n// ANCHOR: add\nfn add() {}\n// ANCHOR_END: add\nfn sub() {}\n// ANCHOR_END: all\n",
        )
        .unwrap();
        std::fs::write(
            root.join("content/part.md"),
            "Part {{#include ../../src/lib.rs:add}}\n",
        )
        .unwrap();
        std::fs::write(root.join("content/loop.md"), "{{#include loop.md}}\n").unwrap();
        let project = Project::of(&root);
        (tmp, project)
    }

    fn run(project: &Project, md: &str) -> Result<Option<Expanded>, Vec<Diagnostic>> {
        let path = project.root.join("content/page.md");
        let text: Arc<str> = Arc::from(md);
        let origin = Origin {
            path: &path,
            shown: Path::new("content/page.md"),
            text: &text,
            first_line: 4,
        };
        expand(md, &origin, project)
    }

    #[test]
    fn includes_expand_with_a_line_map() {
        let (_tmp, project) = fixture();
        assert!(run(&project, "plain\n").unwrap().is_none());
        let md = "a\n```rust\n{{#include ../../src/lib.rs}}\n```\nb {{#include ../../src/lib.rs:3}}\n\\{{#include x}}\nc\n";
        let e = run(&project, md).unwrap().unwrap();
        assert_eq!(
            e.text,
            "a\n```rust\nfn add() {}\nfn sub() {}\n```\nb fn add() {}\n{{#include x}}\nc\n"
        );
        // Every line of the text maps to the writer's line.
        assert_eq!(e.lines, vec![1, 2, 3, 3, 4, 5, 6, 7, 8]);
        assert_eq!(e.files.len(), 1);
        let nested = run(
            &project,
            "{{#include part.md}}\n{{#playground ../../src/lib.rs:add}}\n",
        )
        .unwrap()
        .unwrap();
        assert_eq!(nested.text, "Part fn add() {}\n```rust\nfn add() {}\n```\n");
        assert_eq!(nested.files.len(), 2);
    }

    #[test]
    fn mistakes_are_placed_at_the_directive() {
        let (_tmp, project) = fixture();
        let code = |md: &str| {
            let e = run(&project, md).unwrap_err();
            (
                e[0].code,
                e[0].line,
                e[0].column,
                e[0].file.clone().unwrap(),
            )
        };
        assert_eq!(code("x\n  {{#include nope.rs}}\n").0, "include.missing");
        let (c, line, column, file) = code("x\n  {{#include ../../src/lib.rs:ad}}\n");
        assert_eq!((c, line, column), ("include.unknown-anchor", 5, 3));
        assert_eq!(file, PathBuf::from("content/page.md"));
        assert_eq!(
            code("{{#include ../../src/lib.rs:5:9}}").0,
            "include.past-the-end"
        );
        // Outside the project, and named so that nothing there has that name.
        assert_eq!(
            code("{{#include ../../../docgen-test-no-such-file}}").0,
            "include.missing"
        );
        assert_eq!(code("{{#include loop.md}}").0, "include.cycle");
        let (c, _, _, file) = code("{{#include loop.md}}");
        assert_eq!(
            (c, file),
            ("include.cycle", PathBuf::from("content/loop.md"))
        );
        let warned = run(&project, "{{#title T}}\n").unwrap().unwrap();
        assert_eq!(warned.text, "{{#title T}}\n");
        assert_eq!(warned.warnings[0].code, "include.unknown-directive");
    }
}
