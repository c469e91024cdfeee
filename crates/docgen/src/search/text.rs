//! The readable text of a page body, for the index: the text of its h2/h3 headings, of the
//! names its tables and definition lists define, and the rest, which weigh differently, cut
//! into sections at each h2/h3. Only the article is read (the body docgen rendered from
//! Markdown), so the menu, footer and table of contents never reach the index. Each section
//! keeps its anchor and the start of its text, the window a search result shows.

/// A page's words by where they stand, entities decoded. Whitespace is kept as written: the
/// words are what counts.
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub struct Text {
    /// h2 and h3 headings.
    pub headings: String,
    /// The short first cells of table rows (a field table's field, `bcat`) and definition terms.
    pub names: String,
    /// Everything else but the h1, which repeats the page title.
    pub body: String,
    /// The text before the first heading (anchor ""), then one section per h2/h3.
    pub sections: Vec<Section>,
}

/// A part of the page from one h2/h3 to the next: where its words start in each field of
/// `Text`, and what a result shows of it.
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub struct Section {
    /// The heading's id ("" for the text before the first heading).
    pub anchor: String,
    /// Offsets of the section's start in `headings`, `names` and `body`.
    pub starts: [usize; 3],
    /// The heading's text, spaces folded.
    pub heading: String,
    /// The start of its text in reading order (names and the rest), spaces folded, about
    /// `WINDOW_CHARS` characters cut at a space.
    pub window: String,
}

/// Characters of a section's text kept for a result's excerpt.
pub const WINDOW_CHARS: usize = 160;

impl Section {
    /// Sized for its window and a heading of a line, so that filling them never reallocates.
    fn new(anchor: String, starts: [usize; 3]) -> Self {
        Section {
            anchor,
            starts,
            heading: String::with_capacity(64),
            window: String::with_capacity(WINDOW_FILL + 4),
        }
    }
}

/// Appends `raw` to `out` with runs of whitespace folded into one space, up to `max` characters
/// (counted as bytes: close enough, and cheap); `false` once `out` is full.
fn push_folded(out: &mut String, raw: &str, max: usize) -> bool {
    for c in raw.chars() {
        if out.len() >= max {
            return false;
        }
        if c.is_whitespace() {
            if !out.is_empty() && !out.ends_with(' ') {
                out.push(' ');
            }
        } else {
            out.push(c);
        }
    }
    true
}

/// A window cut at the last space before `WINDOW_CHARS`, with "…" when text was left out.
fn finish_window(window: &mut String, cut: bool) {
    let trimmed = window.trim_end().len();
    window.truncate(trimmed);
    if cut && window.len() > WINDOW_CHARS {
        let mut at = WINDOW_CHARS;
        while !window.is_char_boundary(at) {
            at -= 1;
        }
        let end = window[..at]
            .rfind(' ')
            .filter(|&i| i > WINDOW_CHARS / 2)
            .unwrap_or(at);
        window.truncate(end);
        window.push('…');
    }
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

/// The window being filled: one byte more than kept, to know whether text was cut.
const WINDOW_FILL: usize = WINDOW_CHARS + 1;

impl Text {
    /// Appends raw HTML text to the headings, the body or the name cell being read.
    fn push(&mut self, raw: &str, to: To, name: &mut String) {
        let decoded;
        let text = if memchr::memchr(b'&', raw.as_bytes()).is_some() {
            decoded = html_escape::decode_html_entities(raw);
            &*decoded
        } else {
            raw
        };
        let section = self.sections.last_mut().expect("a first section");
        match to {
            To::Heading => {
                self.headings.push_str(text);
                push_folded(&mut section.heading, text, usize::MAX);
            }
            To::Body => {
                self.body.push_str(text);
                push_folded(&mut section.window, text, WINDOW_FILL);
            }
            To::Name => {
                name.push_str(text);
                push_folded(&mut section.window, text, WINDOW_FILL);
            }
        }
    }

    /// Ends a name cell: a name if it is short, text otherwise.
    fn end_name(&mut self, name: &mut String) {
        let target = if name.trim().chars().count() <= NAME_CHARS {
            &mut self.names
        } else {
            &mut self.body
        };
        target.push(' ');
        target.push_str(name);
        target.push(' ');
        name.clear();
    }

    /// Separates the words on either side in the body and the window.
    fn space(&mut self) {
        self.body.push(' ');
        let section = self.sections.last_mut().expect("a first section");
        push_folded(&mut section.window, " ", WINDOW_FILL);
    }

    /// Starts the section of a heading with this id.
    fn start_section(&mut self, anchor: String) {
        self.end_section();
        self.sections.push(Section::new(
            anchor,
            [self.headings.len(), self.names.len(), self.body.len()],
        ));
    }

    fn end_section(&mut self) {
        if let Some(s) = self.sections.last_mut() {
            let cut = s.window.len() >= WINDOW_FILL;
            finish_window(&mut s.window, cut);
            let trimmed = s.heading.trim_end().len();
            s.heading.truncate(trimmed);
        }
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
        headings: String::with_capacity(256),
        names: String::with_capacity(256),
        body: String::with_capacity(html.len() / 2),
        sections: Vec::with_capacity(16),
    };
    out.sections.push(Section::new(String::new(), [0; 3]));
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
                if in_name {
                    out.end_name(&mut name);
                    in_name = false;
                }
                // A new section: its words join neither the last heading's nor the last text's.
                out.headings.push(' ');
                out.names.push(' ');
                out.body.push(' ');
                out.start_section(tag.attr("id").unwrap_or_default());
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
                out.space();
            }
            ("td" | "th" | "dt", true) => {
                if in_name {
                    out.end_name(&mut name);
                    in_name = false;
                }
                out.space();
            }
            (n, _) if separates_words(n) => out.push(" ", to, &mut name),
            _ => {}
        }
    }
    if in_name {
        out.end_name(&mut name);
    }
    out.end_section();
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

    /// The value of an attribute written ` name="value"`, entities decoded.
    fn attr(&self, name: &str) -> Option<String> {
        let mut from = 0;
        while let Some(i) = self.attrs[from..].find(name) {
            let at = from + i;
            from = at + name.len();
            let before = self.attrs[..at].chars().next_back();
            if before.is_some_and(|c| c.is_whitespace()) && self.attrs[from..].starts_with("=\"") {
                let value = &self.attrs[from + 2..];
                let value = &value[..value.find('"').unwrap_or(value.len())];
                return Some(html_escape::decode_html_entities(value).into_owned());
            }
        }
        None
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
    fn a_tag_ends_at_its_first_greater_than_sign_outside_quotes() {
        let html = concat!(
            "<p title=\"a > b\" data-x='c > d \"e\"'>One</p>",
            "<p title=\"unclosed >two</p>",
        );
        // The second tag never ends: its `<` is text, up to the next tag.
        assert_eq!(words(&read(html).body), "One <p title=\"unclosed >two");
    }

    #[test]
    fn code_tab_labels_stay_separate_words_and_inline_markup_joins_none() {
        let html = "<div role=\"tablist\"><button>Kotlin</button><button>Java</button></div><p>un<em>break</em>able</p>";
        assert_eq!(words(&read(html).body), "Kotlin Java unbreakable");
    }

    #[test]
    fn break_opportunities_in_table_cells_keep_words_whole() {
        let html = concat!(
            "<table class=\"dg-fields\"><tr><td data-label=\"Field\"><code>ad_<wbr>unit</code></td>",
            "<td data-label=\"Constant\"><code>MaxSdk<wbr>Base.<wbr>ErrorCode</code></td></tr></table>"
        );
        let text = read(html);
        assert_eq!(words(&text.names), "ad_unit");
        assert_eq!(words(&text.body), "MaxSdkBase.ErrorCode");
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
        assert_eq!(words(&text.headings), "");
        assert_eq!(words(&text.names), "Field bcat badv");
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
    fn each_heading_starts_a_section_with_its_anchor_and_a_window_of_its_text() {
        let long = "word ".repeat(60);
        let html = format!(
            "<p>Lead   text</p><h2 id=\"a&amp;b\">One <code>x</code><a class=\"dg-anchor\" href=\"#a\">#</a></h2>\
             <table><tr><td>bcat</td><td>Blocked\ncategories</td></tr></table>\
             <h3 id=\"two\">Two</h3><p>{long}</p>"
        );
        let text = read(&html);
        let got: Vec<(&str, &str, &str)> = text
            .sections
            .iter()
            .map(|s| (s.anchor.as_str(), s.heading.as_str(), s.window.as_str()))
            .collect();
        assert_eq!(got[0], ("", "", "Lead text"));
        assert_eq!(got[1], ("a&b", "One x", "bcat Blocked categories"));
        assert_eq!(got[2].0, "two");
        let window = got[2].2;
        assert!(window.ends_with("word…"), "cut at a space: {window:?}");
        assert!(window.len() <= WINDOW_CHARS + '…'.len_utf8());
        // Where each section's words start in the fields.
        assert_eq!(&text.names[text.sections[1].starts[1]..].trim(), &"bcat");
        assert_eq!(words(&text.body[text.sections[2].starts[2]..]), long.trim());
    }

    #[test]
    fn a_lone_angle_bracket_is_text() {
        assert_eq!(words(&read("<p>a < b</p>").body), "a < b");
    }
}
