//! Bounds on the tables of a page. Every table cell becomes several parser events and pieces
//! of HTML, a few hundred bytes of memory each while the page is rendered, and a cell can be
//! written with two characters: a table past these limits is shown as the text it is written
//! in, with a warning, so a page's memory stays a small multiple of its size.

use super::Problem;

/// The most columns a table may have.
pub const MAX_COLUMNS: usize = 1_000;
/// The most cells (rows times columns) the tables of one page may have together.
pub const MAX_CELLS: usize = 200_000;

/// The page's text with each table past the limits made plain text (by a backslash before its
/// delimiter row, which shows the same characters), and a warning for each; `None` when
/// every table fits.
pub(crate) fn limit(markdown: &str) -> (Option<String>, Vec<Problem>) {
    // A table has at most one column more than its delimiter row has pipes, and no more rows
    // than the page has lines: a page with few of both cannot pass either limit, and most
    // pages are not scanned line by line.
    let pipes = memchr::memchr_iter(b'|', markdown.as_bytes()).count();
    let lines = memchr::memchr_iter(b'\n', markdown.as_bytes()).count() + 1;
    if pipes < MAX_COLUMNS && (pipes + 1).saturating_mul(lines) <= MAX_CELLS {
        return (None, Vec::new());
    }
    scan(markdown)
}

/// `limit`, line by line.
fn scan(markdown: &str) -> (Option<String>, Vec<Problem>) {
    let lines: Vec<(usize, &str)> = markdown
        .split_inclusive('\n')
        .scan(0, |at, l| {
            let start = *at;
            *at += l.len();
            Some((start, l))
        })
        .collect();
    let mut breaks: Vec<usize> = Vec::new();
    let mut warnings = Vec::new();
    let mut cells_used = 0usize;
    let mut fence: Option<(u8, usize)> = None;
    let mut i = 0;
    while i < lines.len() {
        let content = inner(lines[i].1);
        if let Some((ch, len)) = fence_of(content) {
            match fence {
                None => fence = Some((ch, len)),
                Some((open, open_len)) if open == ch && len >= open_len => fence = None,
                Some(_) => {}
            }
            i += 1;
            continue;
        }
        if fence.is_some()
            || i == 0
            || !is_delimiter_row(content)
            || !inner(lines[i - 1].1).contains('|')
        {
            i += 1;
            continue;
        }
        let columns = content
            .trim()
            .trim_start_matches('|')
            .trim_end_matches('|')
            .split('|')
            .count();
        let body = lines[i + 1..]
            .iter()
            .take_while(|(_, l)| !inner(l).trim().is_empty())
            .count();
        let cells = columns.saturating_mul(body + 1);
        if columns > MAX_COLUMNS || cells_used.saturating_add(cells) > MAX_CELLS {
            let (start, line) = lines[i];
            breaks.push(start + line.len() - inner(line).len());
            let why = if columns > MAX_COLUMNS {
                format!("it has {columns} columns, more than the {MAX_COLUMNS} a table may have")
            } else {
                format!("the page's tables have more than the {MAX_CELLS} cells a page may have")
            };
            warnings.push(Problem {
                code: "table.too-large",
                message: format!("this table is shown as text: {why}"),
                hint: "split the table, or put the data in a file the page links to".into(),
                line: i,
                column: 1,
            });
        } else {
            cells_used += cells;
        }
        i += body + 1;
    }
    if breaks.is_empty() {
        return (None, warnings);
    }
    let mut text = String::with_capacity(markdown.len() + breaks.len());
    let mut from = 0;
    for at in breaks {
        text.push_str(&markdown[from..at]);
        text.push('\\');
        from = at;
    }
    text.push_str(&markdown[from..]);
    (Some(text), warnings)
}

/// A line without the indentation and block-quote markers a table may sit behind.
fn inner(line: &str) -> &str {
    line.trim_start_matches([' ', '\t', '>'])
}

/// A code fence's character and length.
fn fence_of(content: &str) -> Option<(u8, usize)> {
    let ch = *content.as_bytes().first()?;
    if ch != b'`' && ch != b'~' {
        return None;
    }
    let len = content.bytes().take_while(|&b| b == ch).count();
    (len >= 3).then_some((ch, len))
}

/// `| --- | :-: |`: only pipes, colons, dashes and spaces, with a dash and a pipe.
fn is_delimiter_row(content: &str) -> bool {
    let t = content.trim_end();
    t.contains('-')
        && t.contains('|')
        && t.bytes()
            .all(|b| matches!(b, b'|' | b':' | b'-' | b' ' | b'\t'))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn table(columns: usize, rows: usize) -> String {
        let row = format!("|{}\n", "c|".repeat(columns));
        format!(
            "|{}\n|{}\n{}",
            "h|".repeat(columns),
            "-|".repeat(columns),
            row.repeat(rows)
        )
    }

    #[test]
    fn the_quick_check_agrees_with_the_scan() {
        // The first two pass the quick check (few pipes times few lines), the others are scanned.
        for md in [
            format!("# T\n\n{}", table(10, 10)),
            format!("{}{}", "Text.\n\n".repeat(150), table(4, 10)),
            format!("{}\n{}", table(30, 100), table(40, 100)),
            format!("{}\n{}", table(998, 0), "\n".repeat(150)),
        ] {
            assert_eq!(limit(&md), scan(&md));
            assert_eq!(limit(&md), (None, Vec::new()));
        }
    }

    #[test]
    fn tables_within_the_limits_are_kept() {
        let md = format!("# T\n\n{}\n```\n{}```\n", table(10, 10), table(2_000, 1));
        let (text, warnings) = limit(&md);
        assert!(text.is_none() && warnings.is_empty(), "{warnings:?}");
    }

    #[test]
    fn a_wide_table_becomes_text_with_a_warning_at_its_header() {
        let md = format!("intro\n\n{}", table(100_000, 2));
        let (text, warnings) = limit(&md);
        let text = text.unwrap();
        assert!(text.starts_with("intro\n\n|h|"));
        assert!(text.lines().nth(3).unwrap().starts_with("\\|-|-|"));
        assert_eq!(warnings.len(), 1);
        assert_eq!((warnings[0].code, warnings[0].line), ("table.too-large", 3));
    }

    #[test]
    fn the_cells_of_a_page_are_counted_together() {
        // Each table fits; the third goes past the page's cells.
        let md = [table(500, 150), table(500, 150), table(500, 150)].join("\n");
        let (text, warnings) = limit(&md);
        assert!(text.is_some());
        assert_eq!(warnings.len(), 1);
        assert_eq!(warnings[0].line, 2 * 153 + 1);
    }
}
