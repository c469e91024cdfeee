//! Docusaurus `<Tabs>`: a code box with tabs when every tab holds one code block, otherwise a
//! tab set of prose rendered with the same ARIA tab markup. Without scripts its panels show one
//! under the other, each under its label (see `content.css`).

use std::fmt::Write as _;
use std::ops::Range;

use pulldown_cmark::{Event, Tag, TagEnd};

use super::containers::{Marker, PLACEHOLDER};
use super::highlight::escape_into;

/// The marker a placeholder event names.
pub(crate) fn marker_index(html: &str) -> Option<usize> {
    let rest = html.trim_start().strip_prefix(PLACEHOLDER)?;
    rest.split("-->").next()?.parse().ok()
}

/// True when the events of a tab set (after its opening marker, up to its closing one) are
/// tabs holding exactly one code block each.
pub(crate) fn holds_only_code(
    events: &[(Event<'_>, Range<usize>)],
    markers: &[Marker],
    end: usize,
) -> bool {
    let mut blocks_in_item: Option<usize> = None;
    let mut items = 0;
    let mut depth = 0usize;
    for (event, _) in events {
        if depth > 0 {
            match event {
                Event::Start(Tag::CodeBlock(_)) => depth += 1,
                Event::End(TagEnd::CodeBlock) => depth -= 1,
                _ => {}
            }
            continue;
        }
        match event {
            Event::Start(Tag::HtmlBlock) | Event::End(TagEnd::HtmlBlock) => {}
            Event::Html(h) => match marker_index(h).map(|i| (i, markers.get(i))) {
                Some((i, _)) if i == end => return items > 0 && blocks_in_item.is_none(),
                Some((_, Some(Marker::TabItem { .. }))) if blocks_in_item.is_none() => {
                    blocks_in_item = Some(0);
                }
                // An MDX `<CodeBlock>` is a code block of its own.
                Some((_, Some(Marker::CodeBlock { .. }))) => match blocks_in_item.as_mut() {
                    Some(n) => *n += 1,
                    None => return false,
                },
                Some((_, Some(Marker::TabItemEnd))) => {
                    if blocks_in_item.take() != Some(1) {
                        return false;
                    }
                    items += 1;
                }
                _ => return false,
            },
            Event::Start(Tag::CodeBlock(_)) => match blocks_in_item.as_mut() {
                Some(n) => {
                    *n += 1;
                    depth = 1;
                }
                None => return false,
            },
            Event::Text(t) if t.trim().is_empty() => {}
            _ => return false,
        }
    }
    false
}

/// The opening of a prose tab set: its tab list and the wrapper of its panels.
pub(crate) fn open(n: usize, labels: &[String]) -> String {
    let mut h = format!(
        "<div class=\"dg-tabs\" data-dg-block=\"tabs\" id=\"dg-tabs-{n}\">\n<div class=\"dg-tabs-list\" role=\"tablist\">"
    );
    for (i, label) in labels.iter().enumerate() {
        let selected = i == 0;
        let _ = write!(
            h,
            "<button type=\"button\" role=\"tab\" id=\"dg-tabs-{n}-tab-{i}\" aria-controls=\"dg-tabs-{n}-panel-{i}\" aria-selected=\"{selected}\" tabindex=\"{}\">",
            if selected { 0 } else { -1 }
        );
        escape_into(&mut h, label);
        h.push_str("</button>");
    }
    h.push_str("</div>\n");
    h
}

/// The opening of the `i`-th panel of tab set `n`.
pub(crate) fn panel(n: usize, i: usize, label: &str) -> String {
    let mut h = format!(
        "<div class=\"dg-tabs-panel\" role=\"tabpanel\" id=\"dg-tabs-{n}-panel-{i}\" aria-labelledby=\"dg-tabs-{n}-tab-{i}\" data-label=\""
    );
    escape_into(&mut h, label);
    h.push_str("\">\n");
    h
}
