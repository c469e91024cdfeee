//! LaTeX math to MathML at build time (`$…$`, `$$…$$` and mdBook's `\(…\)`, `\[…\]`): the page
//! needs no script or font to show it.

use std::sync::LazyLock;

use math_core::{LatexToMathML, MathCoreConfig, MathDisplay};
use pulldown_cmark::{CowStr, Event};

use super::highlight::escape_into;

static CONVERTER: LazyLock<LatexToMathML> = LazyLock::new(|| {
    LatexToMathML::new(MathCoreConfig::default()).expect("no custom macros to parse")
});

/// The MathML of a formula, or why the converter rejects it.
pub(crate) fn to_mathml(latex: &str, display: bool) -> Result<String, String> {
    let mode = if display {
        MathDisplay::Block
    } else {
        MathDisplay::Inline
    };
    CONVERTER
        .convert_with_local_state(latex, mode)
        .map(|r| r.mathml)
        .map_err(|e| e.error_message())
}

/// A formula the converter rejects, shown as the writer wrote it.
pub(crate) fn as_code(latex: &str, display: bool) -> String {
    let (open, close) = if display { ("$$", "$$") } else { ("$", "$") };
    let mut h = String::from("<code class=\"dg-math-error\">");
    escape_into(&mut h, open);
    escape_into(&mut h, latex);
    escape_into(&mut h, close);
    h.push_str("</code>");
    h
}

/// True when `src` may hold mdBook's bracket delimiters (written `\\(` in Markdown).
pub(crate) fn may_have_brackets(src: &str) -> bool {
    let b = src.as_bytes();
    memchr::memmem::find(b, b"\\(").is_some() || memchr::memmem::find(b, b"\\[").is_some()
}

/// Turns mdBook's `\(…\)` and `\[…\]` in the text of a paragraph (after Markdown escapes:
/// the writer types `\\(`) into math events. Runs of text and soft breaks are joined first,
/// since a formula may span several text events and lines.
pub(crate) fn brackets<'a>(
    events: Vec<(Event<'a>, std::ops::Range<usize>)>,
) -> Vec<(Event<'a>, std::ops::Range<usize>)> {
    let mut out = Vec::with_capacity(events.len());
    let mut i = 0;
    // The text of a code block is code: `\\(` in it is what the reader should type.
    let mut in_code = false;
    while i < events.len() {
        match &events[i].0 {
            Event::Start(pulldown_cmark::Tag::CodeBlock(_)) => in_code = true,
            Event::End(pulldown_cmark::TagEnd::CodeBlock) => in_code = false,
            _ => {}
        }
        if in_code || !matches!(events[i].0, Event::Text(_)) {
            out.push(events[i].clone());
            i += 1;
            continue;
        }
        let mut j = i;
        let mut text = String::new();
        while j < events.len() {
            match &events[j].0 {
                Event::Text(t) => text.push_str(t),
                Event::SoftBreak => text.push('\n'),
                _ => break,
            }
            j += 1;
        }
        if !(text.contains("\\(") || text.contains("\\[")) {
            out.extend(events[i..j].iter().cloned());
            i = j;
            continue;
        }
        let range = events[i].1.start..events[j - 1].1.end;
        let mut rest = text.as_str();
        loop {
            let next = [("\\(", "\\)", false), ("\\[", "\\]", true)]
                .into_iter()
                .filter_map(|(o, c, d)| rest.find(o).map(|at| (at, o, c, d)))
                .min_by_key(|(at, ..)| *at);
            let Some((at, open, close, display)) = next else {
                break;
            };
            let Some(len) = rest[at + 2..].find(close) else {
                break;
            };
            if at > 0 {
                out.push((
                    Event::Text(CowStr::from(rest[..at].to_string())),
                    range.clone(),
                ));
            }
            let latex = rest[at + open.len()..at + 2 + len].trim().to_string();
            let event = if display {
                Event::DisplayMath(latex.into())
            } else {
                Event::InlineMath(latex.into())
            };
            out.push((event, range.clone()));
            rest = &rest[at + 2 + len + close.len()..];
        }
        if !rest.is_empty() {
            out.push((Event::Text(CowStr::from(rest.to_string())), range.clone()));
        }
        i = j;
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn formulas_become_mathml() {
        let m = to_mathml(r"x = \frac{-b \pm \sqrt{b^2-4ac}}{2a}", true).unwrap();
        assert!(m.starts_with("<math display=\"block\">"), "{m}");
        assert!(m.contains("<mfrac>") && m.contains("<msqrt>"));
        assert!(to_mathml("a^2", false).unwrap().starts_with("<math>"));
        assert!(to_mathml(r"\frac{1}{2", false).is_err());
        assert!(to_mathml(r"\nosuchcommand", false).is_err());
    }

    #[test]
    fn brackets_in_code_blocks_stay_code() {
        use pulldown_cmark::{CodeBlockKind, Tag, TagEnd};
        let events = vec![
            (
                Event::Start(Tag::CodeBlock(CodeBlockKind::Fenced("".into()))),
                0..3,
            ),
            (Event::Text("\\(x\\)\n".into()), 4..10),
            (Event::End(TagEnd::CodeBlock), 10..13),
        ];
        let out: Vec<Event<'_>> = brackets(events.clone())
            .into_iter()
            .map(|(e, _)| e)
            .collect();
        let same: Vec<Event<'_>> = events.into_iter().map(|(e, _)| e).collect();
        assert_eq!(out, same);
    }

    #[test]
    fn brackets_split_text_into_math() {
        let events = vec![
            (Event::Text("a \\(x^2\\) b \\[".into()), 0..10),
            (Event::SoftBreak, 10..11),
            (Event::Text("y\\] c".into()), 11..16),
        ];
        let out: Vec<Event<'_>> = brackets(events).into_iter().map(|(e, _)| e).collect();
        assert_eq!(
            out,
            vec![
                Event::Text("a ".into()),
                Event::InlineMath("x^2".into()),
                Event::Text(" b ".into()),
                Event::DisplayMath("y".into()),
                Event::Text(" c".into()),
            ]
        );
    }
}
