//! A page's excerpt: the start of its text, which stands for its description where the front
//! matter gives none (its `<meta name="description">`, its line in `llms.txt`). Read once, when
//! the page is read, while its HTML is in hand: a large site's bodies are not all kept.

/// The longest a description made from a page's text may be, in characters (what search
/// engines show of one).
const EXCERPT_CHARS: usize = 160;

/// The text of the first paragraph of `html` that has any, as plain text on one line, cut at a
/// word to at most `EXCERPT_CHARS` characters (with an ellipsis when cut). Only the start of a
/// long paragraph is read: enough markup for the characters kept.
pub fn of(html: &str) -> Option<String> {
    /// Bytes of a paragraph's markup read at most (tags and entities take room too).
    const READ: usize = EXCERPT_CHARS * 8;
    let mut rest = html;
    while let Some(open) = rest.find("<p>") {
        let after = &rest[open + 3..];
        let close = after.find("</p>").unwrap_or(after.len());
        let mut end = close.min(READ);
        while !after.is_char_boundary(end) {
            end -= 1;
        }
        let mut text = plain_text(&after[..end]);
        if !text.is_empty() {
            if end < close {
                // The paragraph goes on: its last word here may be cut.
                if let Some(i) = text.rfind(' ') {
                    text.truncate(i);
                }
                return Some(shorten(&text, EXCERPT_CHARS, true));
            }
            return Some(shorten(&text, EXCERPT_CHARS, false));
        }
        rest = &after[close..];
    }
    None
}

/// Markup without its tags and entities, its whitespace runs made single spaces.
fn plain_text(markup: &str) -> String {
    // The text between the tags, run by run (a tag counts as a space).
    let mut raw = String::with_capacity(markup.len());
    let mut rest = markup;
    while let Some(open) = rest.find('<') {
        raw.push_str(&rest[..open]);
        raw.push(' ');
        rest = match rest[open..].find('>') {
            Some(close) => &rest[open + close + 1..],
            None => "",
        };
    }
    raw.push_str(rest);
    let decoded = if raw.contains('&') {
        html_escape::decode_html_entities(&raw)
    } else {
        std::borrow::Cow::Borrowed(raw.as_str())
    };
    let mut text = String::with_capacity(decoded.len());
    for word in decoded.split_whitespace() {
        // No space before punctuation that followed an inline element (`<code>x</code>.`).
        if !text.is_empty() && !word.starts_with([',', '.', ';', ':', '!', '?', ')']) {
            text.push(' ');
        }
        text.push_str(word);
    }
    text
}

/// `text` cut at a word to at most `max` characters, with an ellipsis when cut (or when the
/// text itself was cut from something longer: `more`).
fn shorten(text: &str, max: usize, more: bool) -> String {
    // Where character `max - 1` starts, if the text has that many (bytes first: most text is
    // ASCII, where the two agree).
    let limit = if text.len() < max {
        None
    } else {
        text.char_indices().nth(max - 1).map(|(i, _)| i)
    };
    if limit.is_none() && !more {
        return text.to_string();
    }
    let mut kept = text;
    if let Some(limit) = limit {
        kept = &text[..limit];
        if let Some(i) = kept.rfind(' ').filter(|&i| i > limit / 2) {
            kept = &kept[..i];
        }
    }
    format!(
        "{}…",
        kept.trim_end_matches([',', ';', ':', ' ', '(', '-', '—'])
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_excerpt_is_the_first_paragraph_with_text() {
        let html = "<h1 id=\"x\">X</h1>\n<p><img src=\"a.png\" alt=\"\"></p>\n<p>Load a <code>MaxAdView</code>, then <a href=\"/x\">show it</a> &amp; wait.</p><p>Second.</p>";
        assert_eq!(
            of(html).as_deref(),
            Some("Load a MaxAdView, then show it & wait.")
        );
        assert_eq!(of("<h2>Only a heading</h2>"), None);
    }

    #[test]
    fn a_long_excerpt_is_cut_at_a_word() {
        let words = "alpha beta gamma delta ".repeat(20);
        let e = of(&format!("<p>{words}</p>")).unwrap();
        assert!(e.chars().count() <= EXCERPT_CHARS, "{e}");
        assert!(e.ends_with('…'), "{e}");
        let kept = e.trim_end_matches('…');
        assert!(
            words.starts_with(kept) && words[kept.len()..].starts_with(' '),
            "{e}"
        );
    }
}
