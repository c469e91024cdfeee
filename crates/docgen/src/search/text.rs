//! The readable text of a page body, for the index: the text of its h2/h3 headings and the
//! rest, which weigh differently. Only the article is read (the body docgen rendered from
//! Markdown), so the menu, footer and table of contents never reach the index. The app reads a
//! result's sections from the page by the same rules (`articleSections` in
//! `frontend/src/search/engine.ts`).

/// A page's words by where they stand, entities decoded. Whitespace is kept as written: the
/// words are what counts.
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub struct Text {
    /// The words that name what the text around them is about: h2 and h3 headings, and short
    /// first cells of table rows (a field table's field, `bcat`) and definition terms.
    pub headings: String,
    /// Everything else but the h1, which repeats the page title.
    pub body: String,
}

/// Characters a row's first cell or a definition term may have to count as a name: a field,
/// a network, a code; longer, it is text (a list of calls, a sentence).
const NAME_CHARS: usize = 40;

/// Where text goes.
#[derive(Clone, Copy, PartialEq, Eq)]
enum To {
    Heading,
    Body,
    /// A name cell, decided by its length when it ends.
    Name,
}

impl Text {
    /// Appends raw HTML text to the headings, the body or the name cell being read.
    fn push(&mut self, raw: &str, to: To, name: &mut String) {
        let target = match to {
            To::Heading => &mut self.headings,
            To::Body => &mut self.body,
            To::Name => name,
        };
        if memchr::memchr(b'&', raw.as_bytes()).is_some() {
            target.push_str(&html_escape::decode_html_entities(raw));
        } else {
            target.push_str(raw);
        }
    }

    /// Ends a name cell: a name if it is short, text otherwise.
    fn end_name(&mut self, name: &mut String) {
        let target = if name.trim().chars().count() <= NAME_CHARS {
            &mut self.headings
        } else {
            &mut self.body
        };
        target.push(' ');
        target.push_str(name);
        target.push(' ');
        name.clear();
    }
}

/// Elements whose content is not read: scripts, styles, and the `#` link docgen adds to
/// every heading.
fn skipped(name: &str) -> bool {
    matches!(name, "script" | "style" | "template" | "svg")
}

/// Elements that separate words (text on either side is not one word): blocks, and the
/// buttons of code tabs ("Kotlin" "Java", not "KotlinJava").
fn separates_words(name: &str) -> bool {
    matches!(
        name,
        "p" | "div"
            | "li"
            | "ul"
            | "ol"
            | "br"
            | "tr"
            | "td"
            | "th"
            | "table"
            | "caption"
            | "pre"
            | "blockquote"
            | "dd"
            | "dt"
            | "dl"
            | "h1"
            | "h2"
            | "h3"
            | "h4"
            | "h5"
            | "h6"
            | "figure"
            | "figcaption"
            | "section"
            | "aside"
            | "details"
            | "summary"
            | "hr"
            | "button"
    )
}

/// Reads the text of a rendered body.
pub fn read(html: &str) -> Text {
    let mut out = Text {
        headings: String::new(),
        body: String::with_capacity(html.len() / 2),
    };
    // Where text goes: the headings, the body or a name cell, or nowhere (an h1, which
    // repeats the page title, or a skipped element until its end tag).
    let mut in_heading = false;
    let mut in_name = false;
    let mut name = String::new();
    let mut cells_in_row = 0;
    let mut skip_until: Option<&str> = None;
    let mut rest = html;
    while !rest.is_empty() {
        let to = if in_heading {
            To::Heading
        } else if in_name {
            To::Name
        } else {
            To::Body
        };
        let Some(lt) = memchr::memchr(b'<', rest.as_bytes()) else {
            if skip_until.is_none() {
                out.push(rest, to, &mut name);
            }
            break;
        };
        if skip_until.is_none() {
            out.push(&rest[..lt], to, &mut name);
        }
        rest = &rest[lt..];
        let Some(tag) = Tag::parse(rest) else {
            // A lone `<` in text.
            if skip_until.is_none() {
                out.push("<", to, &mut name);
            }
            rest = &rest[1..];
            continue;
        };
        rest = &rest[tag.len..];
        if let Some(until) = skip_until {
            if tag.closing && tag.name.eq_ignore_ascii_case(until) {
                skip_until = None;
            }
            continue;
        }
        let lower;
        let tag_name = if tag.name.bytes().any(|b| b.is_ascii_uppercase()) {
            lower = tag.name.to_ascii_lowercase();
            lower.as_str()
        } else {
            tag.name
        };
        match (tag_name, tag.closing) {
            (n, false) if skipped(n) => skip_until = Some(tag.name),
            ("a", false) if tag.has_class("dg-anchor") => skip_until = Some("a"),
            ("h1", false) => skip_until = Some("h1"),
            ("h2" | "h3", false) => {
                // A new section: its words join neither the last heading's nor the last text's.
                out.headings.push(' ');
                out.body.push(' ');
                in_heading = true;
            }
            ("h2" | "h3", true) => in_heading = false,
            ("tr", false) => cells_in_row = 0,
            ("td" | "th" | "dt", false) => {
                if in_name {
                    out.end_name(&mut name);
                }
                cells_in_row += 1;
                in_name = !in_heading && (tag_name == "dt" || cells_in_row == 1);
                out.body.push(' ');
            }
            ("td" | "th" | "dt", true) => {
                if in_name {
                    out.end_name(&mut name);
                    in_name = false;
                }
                out.body.push(' ');
            }
            (n, _) if separates_words(n) => out.push(" ", to, &mut name),
            _ => {}
        }
    }
    if in_name {
        out.end_name(&mut name);
    }
    out
}

/// An HTML tag at the start of the input.
struct Tag<'h> {
    /// As written; docgen writes tag names in lower case.
    name: &'h str,
    closing: bool,
    /// The attributes' source text.
    attrs: &'h str,
    /// Bytes of the whole tag, `<` to `>`.
    len: usize,
}

impl<'h> Tag<'h> {
    fn parse(s: &'h str) -> Option<Self> {
        let body = s.strip_prefix('<')?;
        if let Some(comment) = body.strip_prefix("!--") {
            let end = comment.find("-->")? + 3;
            return Some(Tag {
                name: "!--",
                closing: false,
                attrs: "",
                len: 1 + 3 + end,
            });
        }
        let (closing, body) = match body.strip_prefix('/') {
            Some(b) => (true, b),
            None => (false, body),
        };
        let bytes = body.as_bytes();
        let name_len = bytes
            .iter()
            .position(|b| !b.is_ascii_alphanumeric())
            .unwrap_or(bytes.len());
        if name_len == 0 && !body.starts_with('!') {
            return None;
        }
        // The end of the tag: the first `>` outside a quoted attribute value.
        let mut quote = None;
        let mut end = None;
        for (i, &b) in bytes.iter().enumerate().skip(name_len) {
            match (quote, b) {
                (Some(q), b) if b == q => quote = None,
                (Some(_), _) => {}
                (None, b'"' | b'\'') => quote = Some(b),
                (None, b'>') => {
                    end = Some(i);
                    break;
                }
                _ => {}
            }
        }
        let end = end?;
        Some(Tag {
            name: &body[..name_len],
            closing,
            attrs: &body[name_len..end],
            len: s.len() - body.len() + end + 1,
        })
    }

    /// Whether the tag has `class` among its classes (class names need no decoding).
    fn has_class(&self, class: &str) -> bool {
        let Some(i) = self.attrs.find(" class=\"") else {
            return false;
        };
        let value = &self.attrs[i + 8..];
        value[..value.find('"').unwrap_or(value.len())]
            .split_ascii_whitespace()
            .any(|c| c == class)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Words as the tokenizer sees them: whitespace does not count.
    fn words(s: &str) -> String {
        s.split_whitespace().collect::<Vec<_>>().join(" ")
    }

    #[test]
    fn headings_and_the_rest_are_read_apart_as_plain_text() {
        let html = concat!(
            "<h1 id=\"t\">Title<a class=\"dg-anchor\" href=\"#t\">#</a></h1>\n",
            "<p>Intro &amp; <code>MaxAdView</code> text.</p>\n",
            "<h2 id=\"load-an-ad\">Load an <em>ad</em><a class=\"dg-anchor\" href=\"#load-an-ad\" aria-label=\"Link to this section: Load an ad\">#</a></h2>\n",
            "<p>Call<br>load().</p><script>var x = '<p>';</script>",
            "<ul><li>one</li><li>two</li></ul><!-- a > comment -->\n",
            "<h3 id=\"x&amp;y\">X &lt; Y</h3><pre><code><span class=\"k\">val</span> a</code></pre>",
        );
        let text = read(html);
        assert_eq!(words(&text.headings), "Load an ad X < Y");
        assert_eq!(
            words(&text.body),
            "Intro & MaxAdView text. Call load(). one two val a"
        );
    }

    #[test]
    fn code_tab_labels_stay_separate_words_and_inline_markup_joins_none() {
        let html = "<div role=\"tablist\"><button>Kotlin</button><button>Java</button></div><p>un<em>break</em>able</p>";
        assert_eq!(words(&read(html).body), "Kotlin Java unbreakable");
    }

    #[test]
    fn short_first_cells_of_rows_and_definition_terms_count_as_names() {
        let html = concat!(
            "<table><tr><th>Field</th><th>Type</th></tr>",
            "<tr><td><code>bcat</code></td><td>string array</td></tr></table>",
            "<dl><dt>badv</dt><dd>Blocked domains.</dd></dl>",
            "<table><tr><td>MaxAdView(adUnitId, activity), MaxAdView(adUnitId, sdk, activity)</td>",
            "<td>MaxAdView(adUnitId)</td></tr></table>"
        );
        let text = read(html);
        assert_eq!(words(&text.headings), "Field bcat badv");
        assert_eq!(
            words(&text.body),
            "Type string array Blocked domains. MaxAdView(adUnitId, activity), \
             MaxAdView(adUnitId, sdk, activity) MaxAdView(adUnitId)",
            "a long first cell is text, not a name"
        );
    }

    #[test]
    fn sections_never_join_words() {
        let html = "<h2 id=\"a\">One</h2>text<h2 id=\"b\">Two</h2>more";
        let text = read(html);
        assert_eq!(words(&text.headings), "One Two");
        assert_eq!(words(&text.body), "text more");
    }

    #[test]
    fn a_lone_angle_bracket_is_text() {
        assert_eq!(words(&read("<p>a < b</p>").body), "a < b");
    }
}
