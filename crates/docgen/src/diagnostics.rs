//! Content errors: every stage reports problems as `Diagnostic`s (file, line, column, code,
//! message, hint) instead of failing on the first one, so a writer sees all of them at once.

use std::fmt;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use serde::Serialize;

/// Whether a problem stops the build. A warning names something docgen did not render (or
/// rendered differently from what the writer may expect) and lets the build go on.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Severity {
    #[default]
    Error,
    Warning,
}

impl Severity {
    fn is_error(&self) -> bool {
        *self == Severity::Error
    }
}

/// One problem found in the input.
#[derive(Debug, Clone, Serialize)]
pub struct Diagnostic {
    /// Errors fail the build; warnings are printed and the build goes on.
    #[serde(skip_serializing_if = "Severity::is_error")]
    pub severity: Severity,
    /// A stable identifier, e.g. `link.missing-page`, for CI filters and tests.
    pub code: &'static str,
    pub message: String,
    /// The file, relative to the site root.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub file: Option<PathBuf>,
    /// 1-based line and column; 0 when unknown.
    pub line: usize,
    pub column: usize,
    /// What to do about it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub hint: Option<String>,
    /// The text of the file, for the source excerpt in human output.
    #[serde(skip)]
    pub source: Option<Arc<str>>,
}

impl Diagnostic {
    pub fn new(code: &'static str, message: impl Into<String>) -> Self {
        Diagnostic {
            severity: Severity::Error,
            code,
            message: message.into(),
            file: None,
            line: 0,
            column: 0,
            hint: None,
            source: None,
        }
    }

    pub fn in_file(mut self, file: impl AsRef<Path>) -> Self {
        self.file = Some(file.as_ref().to_path_buf());
        self
    }

    pub fn at(mut self, line: usize, column: usize) -> Self {
        self.line = line;
        self.column = column;
        self
    }

    pub fn with_source(mut self, source: &Arc<str>) -> Self {
        self.source = Some(source.clone());
        self
    }

    pub fn hint(mut self, hint: impl Into<String>) -> Self {
        self.hint = Some(hint.into());
        self
    }

    /// Makes it a warning: printed, but the build goes on.
    pub fn warning(mut self) -> Self {
        self.severity = Severity::Warning;
        self
    }

    pub fn is_warning(&self) -> bool {
        self.severity == Severity::Warning
    }

    /// Where it happened, as `file:line:column`.
    pub fn location(&self) -> String {
        match (&self.file, self.line) {
            (Some(f), 0) => f.display().to_string(),
            (Some(f), l) => format!("{}:{}:{}", f.display(), l, self.column.max(1)),
            (None, _) => String::from("<site>"),
        }
    }

    fn sort_key(&self) -> (Option<&PathBuf>, usize, usize, &str) {
        (self.file.as_ref(), self.line, self.column, &self.message)
    }

    /// The byte range of the reported position in `source`, for the excerpt.
    fn span(&self) -> Option<(usize, usize)> {
        let src = self.source.as_deref()?;
        if self.line == 0 {
            return None;
        }
        let line_start = src
            .split_inclusive('\n')
            .take(self.line - 1)
            .map(str::len)
            .sum::<usize>();
        if line_start > src.len() {
            return None;
        }
        let line_text = src[line_start..].split('\n').next().unwrap_or("");
        let col = self.column.max(1) - 1;
        let start = line_start
            + line_text
                .char_indices()
                .nth(col)
                .map_or(line_text.len(), |(i, _)| i);
        let rest = &src[start..line_start + line_text.len()];
        let len = rest
            .split(|c: char| c.is_whitespace() || c == ')')
            .next()
            .map_or(1, |w| w.len().max(1));
        Some((start, len.min(rest.len().max(1))))
    }
}

impl fmt::Display for Diagnostic {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {} [{}]", self.location(), self.message, self.code)?;
        if let Some(h) = &self.hint {
            write!(f, "\n  hint: {h}")?;
        }
        Ok(())
    }
}

/// Folds diagnostics that report one mistake (the same `key`) into the first of them, in
/// order, with the number of repeats; a diagnostic without a key is never folded.
pub fn fold_repeats<K: std::hash::Hash + Eq>(
    errors: Vec<Diagnostic>,
    key: impl Fn(&Diagnostic) -> Option<K>,
) -> Vec<(Diagnostic, usize)> {
    let mut kept: Vec<(Diagnostic, usize)> = Vec::new();
    let mut index: std::collections::HashMap<K, usize> = std::collections::HashMap::new();
    for d in errors {
        match key(&d) {
            Some(k) => match index.get(&k) {
                Some(&i) => kept[i].1 += 1,
                None => {
                    index.insert(k, kept.len());
                    kept.push((d, 0));
                }
            },
            None => kept.push((d, 0)),
        }
    }
    kept
}

/// A collection of diagnostics; a build fails when it is not empty.
#[derive(Debug, Default)]
pub struct Diagnostics(pub Vec<Diagnostic>);

impl Diagnostics {
    pub fn push(&mut self, d: Diagnostic) {
        self.0.push(d);
    }
    pub fn extend(&mut self, ds: impl IntoIterator<Item = Diagnostic>) {
        self.0.extend(ds);
    }
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }
    pub fn len(&self) -> usize {
        self.0.len()
    }
    /// Sorted by file and position, duplicates removed, so output is stable.
    pub fn into_sorted(mut self) -> Vec<Diagnostic> {
        self.0.sort_by(|a, b| a.sort_key().cmp(&b.sort_key()));
        self.0
            .dedup_by(|a, b| a.sort_key() == b.sort_key() && a.code == b.code);
        self.0
    }
}

/// How diagnostics are printed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum Format {
    /// Rust-compiler style: location, message, source excerpt with a caret, hint.
    Human,
    /// One JSON object per line: file, line, column, code, message, hint.
    Json,
    /// GitHub Actions workflow commands (`::error file=…,line=…,col=…::…`): each diagnostic
    /// becomes an annotation on its line of the pull request.
    Github,
}

/// Renders one diagnostic for a human, with colour when `color` is set.
pub fn render_human(d: &Diagnostic, color: bool) -> String {
    use miette::{
        GraphicalReportHandler, GraphicalTheme, LabeledSpan, MietteDiagnostic, NamedSource, Report,
    };

    let mut md = MietteDiagnostic::new(d.message.clone()).with_code(d.code);
    if d.is_warning() {
        md = md.with_severity(miette::Severity::Warning);
    }
    if let Some(h) = &d.hint {
        md = md.with_help(h.clone());
    }
    let report = match (d.span(), &d.source, &d.file) {
        (Some((start, len)), Some(src), Some(file)) => {
            md = md.with_label(LabeledSpan::at(start..start + len, "here"));
            Report::new(md).with_source_code(
                NamedSource::new(file.display().to_string(), src.to_string()).with_language("yaml"),
            )
        }
        _ => {
            if d.file.is_some() {
                md = md.with_url(d.location());
            }
            Report::new(md)
        }
    };
    let theme = if color {
        GraphicalTheme::unicode()
    } else {
        GraphicalTheme::unicode_nocolor()
    };
    let handler = GraphicalReportHandler::new_themed(theme)
        .with_links(false)
        .with_width(100);
    let mut out = String::new();
    if handler.render_report(&mut out, report.as_ref()).is_err() {
        out = d.to_string();
    }
    if d.span().is_none() && d.file.is_some() {
        // Without an excerpt miette has nowhere to show the location; name it plainly.
        out = format!("{}\n  --> {}\n", out.trim_end(), d.location());
    }
    out
}

pub fn render_json(d: &Diagnostic) -> String {
    serde_json::to_string(d).expect("diagnostics serialize")
}

/// One GitHub Actions `::error` command: the message and the hint as the annotation's text,
/// the code as its title.
pub fn render_github(d: &Diagnostic) -> String {
    // Workflow commands end at a line break and split properties at `,` and `:`, so those are
    // percent-encoded (https://github.com/actions/toolkit/blob/main/packages/core/src/command.ts).
    fn data(s: &str) -> String {
        s.replace('%', "%25")
            .replace('\r', "%0D")
            .replace('\n', "%0A")
    }
    fn property(s: &str) -> String {
        data(s).replace(':', "%3A").replace(',', "%2C")
    }
    let mut props = Vec::new();
    if let Some(file) = &d.file {
        props.push(format!("file={}", property(&file.to_string_lossy())));
        if d.line > 0 {
            props.push(format!("line={}", d.line));
            props.push(format!("col={}", d.column.max(1)));
        }
    }
    props.push(format!("title={}", property(d.code)));
    let text = match &d.hint {
        Some(h) => format!("{}\nhint: {h}", d.message),
        None => d.message.clone(),
    };
    let command = if d.is_warning() { "warning" } else { "error" };
    format!("::{command} {}::{}", props.join(","), data(&text))
}

/// Byte offset to 1-based (line, column), column counted in characters.
pub fn line_col(text: &str, offset: usize) -> (usize, usize) {
    let offset = offset.min(text.len());
    let before = &text[..offset];
    let line = before.matches('\n').count() + 1;
    let col = before.rsplit('\n').next().map_or(0, |l| l.chars().count()) + 1;
    (line, col)
}

/// Suggests the closest candidate to `word`, when one is close enough to be a typo.
pub fn did_you_mean<'a>(
    word: &str,
    candidates: impl IntoIterator<Item = &'a str>,
) -> Option<&'a str> {
    candidates
        .into_iter()
        .map(|c| (strsim::jaro_winkler(word, c), c))
        .filter(|(score, _)| *score > 0.8)
        .max_by(|a, b| a.0.total_cmp(&b.0))
        .map(|(_, c)| c)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn github_commands_encode_what_would_end_or_split_them() {
        let d = Diagnostic::new("link.missing-page", "50% of it\nbroke")
            .in_file("content/a,b:c.md")
            .at(3, 7)
            .hint("fix it");
        assert_eq!(
            render_github(&d),
            "::error file=content/a%2Cb%3Ac.md,line=3,col=7,title=link.missing-page::50%25 of it%0Abroke%0Ahint: fix it"
        );
        let whole = Diagnostic::new("config.missing", "no site.yaml");
        assert_eq!(
            render_github(&whole),
            "::error title=config.missing::no site.yaml"
        );
    }

    #[test]
    fn line_col_counts_from_one() {
        let text = "a: 1\nbb: 2\n";
        assert_eq!(line_col(text, 0), (1, 1));
        assert_eq!(line_col(text, 5), (2, 1));
        assert_eq!(line_col(text, 7), (2, 3));
    }

    #[test]
    fn suggests_close_names_only() {
        let keys = ["title", "description", "order"];
        assert_eq!(did_you_mean("titel", keys), Some("title"));
        assert_eq!(did_you_mean("zzz", keys), None);
    }

    #[test]
    fn human_output_names_file_line_and_hint() {
        let src: Arc<str> = Arc::from("title: x\ntitel: y\n");
        let d = Diagnostic::new("frontmatter.unknown-key", "unknown key `titel`")
            .in_file("content/a.md")
            .at(2, 1)
            .with_source(&src)
            .hint("did you mean `title`?");
        let out = render_human(&d, false);
        assert!(out.contains("content/a.md:2:1"), "{out}");
        assert!(out.contains("titel: y"), "{out}");
        assert!(out.contains("did you mean `title`?"), "{out}");
        let json: serde_json::Value = serde_json::from_str(&render_json(&d)).unwrap();
        assert_eq!(json["line"], 2);
        assert_eq!(json["code"], "frontmatter.unknown-key");
    }
}
