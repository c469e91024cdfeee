//! The readable text of a page body, in sections: what comes before the first h2/h3, then
//! one section per h2/h3 with its anchor. Only the article is read (the body docgen rendered
//! from Markdown), so the menu, footer and table of contents never reach the index.

/// One part of a page between headings.
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub struct Section {
    /// The heading's id; empty for the part before the first heading.
    pub anchor: String,
    pub heading: String,
    pub text: String,
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

/// Splits a rendered body into its sections, text decoded and whitespace collapsed.
pub fn sections(html: &str) -> Vec<Section> {
    let mut out = vec![Section::default()];
    // Where text goes: the current section's text or heading, or nowhere (an h1, which
    // repeats the page title, or a skipped element until its end tag).
    let mut in_heading = false;
    let mut skip_until: Option<&str> = None;
    let mut rest = html;
    while !rest.is_empty() {
        let Some(lt) = memchr::memchr(b'<', rest.as_bytes()) else {
            push_text(&mut out, rest, in_heading, skip_until.is_some());
            break;
        };
        push_text(&mut out, &rest[..lt], in_heading, skip_until.is_some());
        rest = &rest[lt..];
        let Some(tag) = Tag::parse(rest) else {
            // A lone `<` in text.
            push_text(&mut out, "<", in_heading, skip_until.is_some());
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
        let name = if tag.name.bytes().any(|b| b.is_ascii_uppercase()) {
            lower = tag.name.to_ascii_lowercase();
            lower.as_str()
        } else {
            tag.name
        };
        match (name, tag.closing) {
            (name, false) if skipped(name) => skip_until = Some(tag.name),
            ("a", false) if tag.has_class("dg-anchor") => skip_until = Some("a"),
            ("h1", false) => skip_until = Some("h1"),
            ("h2" | "h3", false) => {
                out.push(Section {
                    anchor: tag.attr("id").unwrap_or_default(),
                    ..Section::default()
                });
                in_heading = true;
            }
            ("h2" | "h3", true) => in_heading = false,
            (name, _) if separates_words(name) => push_text(&mut out, " ", in_heading, false),
            _ => {}
        }
    }
    for s in &mut out {
        trim_end_space(&mut s.heading);
        trim_end_space(&mut s.text);
    }
    out
}

/// Appends text (raw HTML text, entities undecoded) to the current section's text or
/// heading, with every run of whitespace as one space and none at the start.
fn push_text(out: &mut [Section], raw: &str, in_heading: bool, skipped: bool) {
    if skipped || raw.is_empty() {
        return;
    }
    let section = out.last_mut().expect("there is always a section");
    let target = if in_heading {
        &mut section.heading
    } else {
        &mut section.text
    };
    if memchr::memchr(b'&', raw.as_bytes()).is_some() {
        let decoded = html_escape::decode_html_entities(raw);
        push_collapsed(target, &decoded);
    } else {
        push_collapsed(target, raw);
    }
}

fn push_collapsed(target: &mut String, text: &str) {
    let mut space = target.is_empty() || target.ends_with(' ');
    if text.is_ascii() {
        // As `char::is_whitespace` for ASCII: the five of `is_ascii_whitespace` and VT.
        let blank = |b: u8| b.is_ascii_whitespace() || b == 0x0b;
        // Text is copied in runs; only blanks other than one space between words end a run.
        let mut run = 0;
        for (i, &b) in text.as_bytes().iter().enumerate() {
            if b > b' ' || !blank(b) {
                space = false;
            } else if b == b' ' && !space {
                space = true;
            } else {
                target.push_str(&text[run..i]);
                if !space {
                    target.push(' ');
                    space = true;
                }
                run = i + 1;
            }
        }
        target.push_str(&text[run..]);
        return;
    }
    for c in text.chars() {
        if c.is_whitespace() {
            if !space {
                target.push(' ');
                space = true;
            }
        } else {
            target.push(c);
            space = false;
        }
    }
}

fn trim_end_space(s: &mut String) {
    if s.ends_with(' ') {
        s.pop();
    }
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

    /// The value of a double-quoted attribute (docgen writes them so), decoded.
    fn attr(&self, name: &str) -> Option<String> {
        let mut rest = self.attrs;
        while let Some(i) = rest.find(name) {
            let before_ok = rest[..i].ends_with(|c: char| c.is_whitespace());
            let after = &rest[i + name.len()..];
            if before_ok && let Some(value) = after.strip_prefix("=\"") {
                let value = &value[..value.find('"')?];
                return Some(html_escape::decode_html_entities(value).into_owned());
            }
            rest = after;
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

    #[test]
    fn headings_start_sections_and_the_rest_is_plain_text() {
        let html = concat!(
            "<h1 id=\"t\">Title<a class=\"dg-anchor\" href=\"#t\">#</a></h1>\n",
            "<p>Intro &amp; <code>MaxAdView</code> text.</p>\n",
            "<h2 id=\"load-an-ad\">Load an <em>ad</em><a class=\"dg-anchor\" href=\"#load-an-ad\" aria-label=\"Link to this section: Load an ad\">#</a></h2>\n",
            "<p>Call<br>load().</p><script>var x = '<p>';</script>",
            "<ul><li>one</li><li>two</li></ul><!-- a > comment -->\n",
            "<h3 id=\"x&amp;y\">X &lt; Y</h3><pre><code><span class=\"k\">val</span> a</code></pre>",
        );
        let s = sections(html);
        assert_eq!(
            s,
            vec![
                Section {
                    anchor: "".into(),
                    heading: "".into(),
                    text: "Intro & MaxAdView text.".into()
                },
                Section {
                    anchor: "load-an-ad".into(),
                    heading: "Load an ad".into(),
                    text: "Call load(). one two".into()
                },
                Section {
                    anchor: "x&y".into(),
                    heading: "X < Y".into(),
                    text: "val a".into()
                },
            ]
        );
    }

    #[test]
    fn code_tab_labels_stay_separate_words_and_inline_markup_joins_none() {
        let html = "<div role=\"tablist\"><button>Kotlin</button><button>Java</button></div><p>un<em>break</em>able</p>";
        assert_eq!(sections(html)[0].text, "Kotlin Java unbreakable");
    }

    #[test]
    fn whitespace_is_collapsed_as_split_whitespace_does_across_any_pieces() {
        // Pieces of text pushed one after another equal their concatenation collapsed.
        let alphabet = [
            "a", "bc", " ", "\n", "\t", "\u{a0}", "é", "\u{b}", "  x ", "",
        ];
        let mut seed = 7u64;
        for _ in 0..2000 {
            let mut pieces = Vec::new();
            for _ in 0..(seed % 7) {
                seed = seed
                    .wrapping_mul(6364136223846793005)
                    .wrapping_add(1442695040888963407);
                let mut piece = String::new();
                for k in 0..(seed >> 60) {
                    piece.push_str(alphabet[((seed >> (k * 4)) % 10) as usize]);
                }
                pieces.push(piece);
            }
            let mut got = String::new();
            for p in &pieces {
                push_collapsed(&mut got, p);
            }
            trim_end_space(&mut got);
            let want = pieces
                .concat()
                .split_whitespace()
                .collect::<Vec<_>>()
                .join(" ");
            assert_eq!(got, want, "{pieces:?}");
        }
    }

    #[test]
    fn a_lone_angle_bracket_is_text() {
        assert_eq!(sections("<p>a < b</p>")[0].text, "a < b");
    }
}
