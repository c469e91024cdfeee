//! How a Markdown table is drawn, decided from what its cells hold rather than from its header
//! names alone: which columns are empty (not drawn), which column is the prose that readers
//! come for (it is given a minimum share of the width), and whether the table is a reference
//! of fields (a column of keys, short attributes, a description), shown as one card per row on
//! narrow screens. The HTML of a table is written here too, so every cell can carry its column's
//! class and label.

use std::fmt::Write as _;
use std::ops::Range;

use pulldown_cmark::{Alignment, Event, Tag, TagEnd};

use super::highlight::escape_into;

/// Header names that announce a column of prose: they favour a column whose cells are long.
const PROSE_HEADERS: [&str; 10] = [
    "description",
    "meaning",
    "notes",
    "note",
    "details",
    "explanation",
    "comment",
    "purpose",
    "summary",
    "remarks",
];

/// The fewest characters a column's filled cells hold on average to count as prose: below it,
/// every column is short and the browser's own sharing of the width reads well.
const PROSE_MIN_AVERAGE: f64 = 24.0;

/// The longest a key (the first cell of a row of a field table) is on average, in characters,
/// when it is not code.
const KEY_MAX_AVERAGE: f64 = 32.0;

/// The shortest inline code, in characters, that is given break opportunities in a table cell.
const BREAKABLE_CODE: usize = 13;

/// What a table's cells say about how to draw it.
#[derive(Debug, Default, PartialEq)]
pub(crate) struct Shape {
    /// The plain text of each header cell.
    pub labels: Vec<String>,
    /// Columns whose every body cell is empty: not drawn.
    pub empty: Vec<bool>,
    /// The column of prose, if there is one.
    pub prose: Option<usize>,
    /// A reference of fields: one card per row on narrow screens.
    pub fields: bool,
}

/// What one column holds, summed over its body cells.
#[derive(Debug, Default, Clone)]
struct Column {
    filled: usize,
    /// Characters outside inline code.
    prose_chars: usize,
    chars: usize,
    /// Cells holding nothing but inline code.
    code_only: usize,
}

/// Reads the events of one table, from its `Start(Table)` to its `End(Table)` included.
pub(crate) fn shape(events: &[(Event<'_>, Range<usize>)]) -> Shape {
    let columns = match events.first() {
        Some((Event::Start(Tag::Table(alignments)), _)) => alignments.len(),
        _ => return Shape::default(),
    };
    let mut labels = vec![String::new(); columns];
    let mut stats = vec![Column::default(); columns];
    let mut rows = 0usize;
    let mut in_head = false;
    let mut cell = 0usize;
    // The cell being read: (anything but blank text, prose chars, code chars).
    let mut current = (false, 0usize, 0usize);
    for (event, _) in events {
        match event {
            Event::Start(Tag::TableHead) => {
                in_head = true;
                cell = 0;
            }
            Event::End(TagEnd::TableHead) => in_head = false,
            Event::Start(Tag::TableRow) => {
                rows += 1;
                cell = 0;
            }
            Event::Start(Tag::TableCell) => current = (false, 0, 0),
            Event::End(TagEnd::TableCell) => {
                let (filled, prose, code) = current;
                if cell < columns && !in_head && filled {
                    let c = &mut stats[cell];
                    c.filled += 1;
                    c.prose_chars += prose;
                    c.chars += prose + code;
                    c.code_only += usize::from(code > 0 && prose == 0);
                }
                cell += 1;
            }
            Event::Text(t) if in_head => {
                if let Some(label) = labels.get_mut(cell) {
                    label.push_str(t);
                }
            }
            Event::Code(t) if in_head => {
                if let Some(label) = labels.get_mut(cell) {
                    label.push_str(t);
                }
            }
            Event::Text(t) => {
                let text = t.trim();
                current.0 |= !text.is_empty();
                current.1 += text.chars().count();
            }
            Event::Code(t) => {
                current.0 = true;
                current.2 += t.chars().count();
            }
            Event::SoftBreak | Event::HardBreak => {}
            Event::Start(_) | Event::End(_) => {}
            // Raw HTML, images, math, footnote references: something is shown.
            _ => current.0 = true,
        }
    }
    for label in &mut labels {
        *label = label.split_whitespace().collect::<Vec<_>>().join(" ");
    }
    let mut empty: Vec<bool> = stats.iter().map(|c| rows > 0 && c.filled == 0).collect();
    // A table all of whose columns are empty keeps them: it shows its header at least.
    if empty.iter().all(|&e| e) {
        empty.iter_mut().for_each(|e| *e = false);
    }
    let shown: Vec<usize> = (0..columns).filter(|&c| !empty[c]).collect();
    let average = |c: &Column, chars: usize| chars as f64 / c.filled.max(1) as f64;
    // The prose column: the one whose cells hold the most text outside code, a name such as
    // "Description" counting for half as much again. The first column names the rows.
    let prose = shown
        .iter()
        .copied()
        .filter(|&c| shown.len() > 1 && c != shown[0])
        .map(|c| {
            let named = PROSE_HEADERS.contains(&labels[c].to_lowercase().as_str());
            let text = average(&stats[c], stats[c].prose_chars);
            (c, text, if named { text * 1.5 } else { text })
        })
        .filter(|&(_, text, _)| text >= PROSE_MIN_AVERAGE)
        .max_by(|a, b| a.2.total_cmp(&b.2))
        .map(|(c, _, _)| c);
    // A field table: at least three columns, prose, and a first column of keys (code, or short).
    let fields = prose.is_some()
        && shown.len() >= 3
        && shown.first().is_some_and(|&key| {
            let k = &stats[key];
            k.filled > 0 && (k.code_only * 2 >= k.filled || average(k, k.chars) <= KEY_MAX_AVERAGE)
        });
    Shape {
        labels,
        empty,
        prose,
        fields,
    }
}

/// The accessible name of a table's scrolling box: the heading above it, or "Table N" (N its
/// number on the page), made unique on the page by a number after it.
pub(crate) fn region_label(heading: Option<&str>, n: usize, used: &mut Vec<String>) -> String {
    let base = match heading.map(str::trim).filter(|h| !h.is_empty()) {
        Some(h) => h.to_string(),
        None => format!("Table {n}"),
    };
    let mut label = base.clone();
    let mut k = 2;
    while used.contains(&label) {
        label = format!("{base} ({k})");
        k += 1;
    }
    used.push(label.clone());
    label
}

/// The opening tags of a table: its scrolling box (a named, focusable region, so keyboard
/// readers can scroll it) and the table, marked as a field table when it is one.
pub(crate) fn open(shape: &Shape, label: &str) -> String {
    let mut h = String::from(
        "<div class=\"dg-table\" data-dg-block=\"table\" role=\"region\" tabindex=\"0\" aria-label=\"",
    );
    escape_into(&mut h, label);
    h.push_str("\">\n<table");
    if shape.fields {
        h.push_str(" class=\"dg-fields\"");
    }
    h.push('>');
    h
}

/// The opening tag of a cell: its alignment, the prose column's class, and in the body of a
/// field table the column's name, the label of the value on a card.
pub(crate) fn cell_open(
    shape: &Shape,
    alignments: &[Alignment],
    column: usize,
    head: bool,
) -> String {
    let mut h = String::from(if head { "<th" } else { "<td" });
    if shape.prose == Some(column) {
        h.push_str(" class=\"dg-col-text\"");
    }
    if !head
        && shape.fields
        && let Some(label) = shape.labels.get(column).filter(|l| !l.is_empty())
    {
        h.push_str(" data-label=\"");
        escape_into(&mut h, label);
        h.push('"');
    }
    match alignments.get(column) {
        Some(Alignment::Left) => h.push_str(" style=\"text-align: left\">"),
        Some(Alignment::Center) => h.push_str(" style=\"text-align: center\">"),
        Some(Alignment::Right) => h.push_str(" style=\"text-align: right\">"),
        _ => h.push('>'),
    }
    h
}

/// Inline code of a table cell with `<wbr>` where an identifier reads well broken (see
/// [`breaks_into`]). A column of long identifiers then narrows to its longest word instead of
/// its longest identifier, leaving the width to the prose; copied text is unchanged. (CSS
/// `overflow-wrap: anywhere` would let the browser break code between any two letters, which
/// reads worse, and makes every code column as narrow as one letter.)
pub(crate) fn code(text: &str) -> String {
    let mut h = String::with_capacity(text.len() + 16);
    h.push_str("<code>");
    breaks_into(&mut h, text);
    h.push_str("</code>");
    h
}

/// The text of a table cell with the same break opportunities in its long identifiers, names
/// and addresses written as plain words (`FullscreenAdAlreadyShowing`, `example.com/a/b`);
/// `None` when no word needs one.
pub(crate) fn text(text: &str) -> Option<String> {
    let needs = text
        .split_whitespace()
        .any(|w| w.chars().count() >= BREAKABLE_CODE && break_after(w).next().is_some());
    if !needs {
        return None;
    }
    let mut h = String::with_capacity(text.len() + 16);
    let mut rest = text;
    while !rest.is_empty() {
        let space = rest.len() - rest.trim_start().len();
        escape_into(&mut h, &rest[..space]);
        rest = &rest[space..];
        let word_end = rest.find(char::is_whitespace).unwrap_or(rest.len());
        breaks_into(&mut h, &rest[..word_end]);
        rest = &rest[word_end..];
    }
    Some(h)
}

/// Writes `word` escaped, with `<wbr>` after `.`, `_`, `/`, `:` and `,` and between the words of
/// camelCase, when it is long enough to need them; no break falls within three characters of
/// either end, and `::`, `//` and `..` stay whole.
fn breaks_into(out: &mut String, word: &str) {
    if word.chars().count() < BREAKABLE_CODE {
        escape_into(out, word);
        return;
    }
    let mut from = 0;
    for at in break_after(word) {
        escape_into(out, &word[from..at]);
        out.push_str("<wbr>");
        from = at;
    }
    escape_into(out, &word[from..]);
}

/// The byte offsets of `word` a break opportunity goes before.
fn break_after(word: &str) -> impl Iterator<Item = usize> + '_ {
    let chars: Vec<(usize, char)> = word.char_indices().collect();
    let mut run = 0usize;
    let mut out = Vec::new();
    for (i, &(_, c)) in chars.iter().enumerate() {
        let left = chars.len() - i;
        let camel = i > 0 && c.is_uppercase() && chars[i - 1].1.is_lowercase();
        if camel && run >= 3 && left >= 3 {
            out.push(chars[i].0);
            run = 0;
        }
        run += 1;
        let after = matches!(c, '.' | '_' | '/' | ':' | ',')
            && chars
                .get(i + 1)
                .is_some_and(|&(_, n)| !matches!(n, ':' | '.' | '/'));
        if after && run >= 3 && left > 3 {
            out.push(chars[i + 1].0);
            run = 0;
        }
    }
    out.into_iter()
}

/// The warning for a column not drawn, at the table's line.
pub(crate) fn empty_column_message(shape: &Shape, column: usize) -> String {
    let mut m = String::new();
    match shape.labels.get(column).filter(|l| !l.is_empty()) {
        Some(label) => {
            let _ = write!(
                m,
                "the column `{label}` is empty in every row and is not shown"
            );
        }
        None => {
            let _ = write!(
                m,
                "column {} is empty in every row and is not shown",
                column + 1
            );
        }
    }
    m
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::markdown::options;
    use pulldown_cmark::Parser;

    fn shape_of(md: &str) -> Shape {
        let events: Vec<_> = Parser::new_ext(md, options()).into_offset_iter().collect();
        let start = events
            .iter()
            .position(|(e, _)| matches!(e, Event::Start(Tag::Table(_))))
            .expect("a table");
        let end = events
            .iter()
            .position(|(e, _)| matches!(e, Event::End(TagEnd::Table)))
            .expect("its end");
        shape(&events[start..=end])
    }

    const FIELDS: &str = "| Field | Type | Required | Always passed | Description |\n|---|---|---|---|---|\n| `bidid` | string | No | | Your ID for the response, substituted in the notice URLs. |\n| `seatbid` | array of SeatBid | Yes |  | The bids, grouped by seat. Send one SeatBid holding one Bid. |\n";

    #[test]
    fn a_field_table_has_prose_keys_and_an_empty_column() {
        let s = shape_of(FIELDS);
        assert_eq!(s.labels[3], "Always passed");
        assert_eq!(s.empty, vec![false, false, false, true, false]);
        assert_eq!(s.prose, Some(4));
        assert!(s.fields);
    }

    #[test]
    fn the_prose_column_is_found_by_its_content_whatever_its_name() {
        let md = "| Key | Says | Tag |\n|---|---|---|\n| a | Some sentence that runs long enough to be prose. | x |\n| b | Another long sentence a reader comes to read. | y |\n";
        let s = shape_of(md);
        assert_eq!(s.prose, Some(1));
        assert!(s.fields);
        // A column named Description holding a word is no prose; a longer one wins.
        let md = "| Key | Description | Remarks about it |\n|---|---|---|\n| a | Short | A sentence long enough to be the prose of the row. |\n";
        assert_eq!(shape_of(md).prose, Some(2));
    }

    #[test]
    fn a_table_of_short_values_has_no_prose_and_no_cards() {
        let md = "| Network | Android | iOS |\n|---|---|---|\n| AdMob | 23.0.0 | 11.0.0 |\n| Meta | 6.17 | 6.15 |\n";
        let s = shape_of(md);
        assert_eq!(s.prose, None);
        assert!(!s.fields);
        assert_eq!(s.empty, vec![false; 3]);
    }

    #[test]
    fn a_two_column_table_is_never_cards() {
        let md = "| Method | Returns |\n|---|---|\n| `getCode()` | The MAX error code of the failure, see below. |\n";
        let s = shape_of(md);
        assert_eq!(s.prose, Some(1));
        assert!(!s.fields);
    }

    #[test]
    fn raw_html_and_images_fill_a_cell_and_a_table_without_rows_drops_nothing() {
        let md = "| a | b |\n|---|---|\n| x | <span id=\"k\"></span> |\n";
        assert_eq!(shape_of(md).empty, vec![false, false]);
        let md = "| a | b |\n|---|---|\n";
        assert_eq!(shape_of(md).empty, vec![false, false]);
        let md = "| a | b |\n|---|---|\n| | |\n";
        assert_eq!(shape_of(md).empty, vec![false, false]);
    }

    #[test]
    fn long_identifiers_get_break_opportunities() {
        assert_eq!(
            code("MaxSdkBase.ErrorCode.AdLoadFailed"),
            "<code>Max<wbr>Sdk<wbr>Base.<wbr>Error<wbr>Code.<wbr>AdLoad<wbr>Failed</code>"
        );
        assert_eq!(
            code("FULLSCREEN_AD_ALREADY_SHOWING"),
            "<code>FULLSCREEN_<wbr>AD_<wbr>ALREADY_<wbr>SHOWING</code>"
        );
        assert_eq!(code("imp[0].id"), "<code>imp[0].id</code>");
        assert_eq!(
            code("a<b>.c_d&efgh"),
            "<code>a&lt;b&gt;.<wbr>c_d&amp;efgh</code>"
        );
        // `::` stays whole, and no break leaves fewer than three characters at an end.
        assert_eq!(
            code("std::collections::Ab"),
            "<code>std::<wbr>collections::Ab</code>"
        );
    }

    #[test]
    fn long_words_of_text_get_break_opportunities_and_prose_none() {
        assert_eq!(
            text("See FullscreenAdAlreadyShowing now").as_deref(),
            Some("See Fullscreen<wbr>AdAlready<wbr>Showing now")
        );
        assert_eq!(text("Plain words, even internationalization."), None);
        assert_eq!(
            text("at https://example.com/a-b").as_deref(),
            Some("at https://<wbr>example.<wbr>com/<wbr>a-b")
        );
    }

    #[test]
    fn region_labels_are_unique_on_a_page() {
        let mut used = Vec::new();
        assert_eq!(region_label(Some("Bid Object"), 1, &mut used), "Bid Object");
        assert_eq!(
            region_label(Some("Bid Object"), 2, &mut used),
            "Bid Object (2)"
        );
        assert_eq!(region_label(None, 3, &mut used), "Table 3");
    }

    #[test]
    fn cells_carry_alignment_class_and_label() {
        let s = shape_of(FIELDS);
        assert_eq!(
            cell_open(&s, &[Alignment::None; 5], 4, false),
            "<td class=\"dg-col-text\" data-label=\"Description\">"
        );
        assert_eq!(
            cell_open(&s, &[Alignment::Right; 5], 1, true),
            "<th style=\"text-align: right\">"
        );
        assert!(open(&s, "A \"b\"").contains("aria-label=\"A &quot;b&quot;\""));
    }
}
