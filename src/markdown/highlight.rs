//! Build-time syntax highlighting. Tokens get short classes (`hl-k` keyword, `hl-s` string, ...)
//! so that the light and dark palettes are plain CSS and switching them needs no JavaScript.

use std::sync::OnceLock;

use syntect::highlighting::{Color, ScopeSelectors, StyleModifier, Theme, ThemeItem, ThemeSettings};
use syntect::parsing::{SyntaxReference, SyntaxSet};
use syntect::easy::HighlightLines;
use syntect::util::LinesWithEndings;

/// Token classes, in the order of their id (the id is encoded in the theme colour).
const CLASSES: &[(&str, &str)] = &[
    ("k", "keyword, storage, variable.language, keyword.control, keyword.other, constant.language.boolean"),
    ("s", "string, string.quoted, markup.raw"),
    ("c", "comment, punctuation.definition.comment"),
    ("n", "constant.numeric, constant.language, constant.character, constant.other"),
    ("f", "entity.name.function, support.function, variable.function, meta.function-call.identifier"),
    ("t", "entity.name.type, entity.name.class, support.type, support.class, entity.other.inherited-class, storage.type.class"),
    ("a", "meta.annotation, storage.type.annotation, entity.name.function.decorator, meta.decorator, punctuation.definition.annotation, meta.preprocessor"),
    ("v", "variable.parameter, variable.other.readwrite.instance"),
    ("p", "keyword.operator"),
    ("g", "entity.name.tag"),
    ("e", "entity.other.attribute-name, support.type.property-name, meta.mapping.key string, string.unquoted.key"),
];

struct Highlighter {
    syntaxes: SyntaxSet,
    theme: Theme,
}

fn highlighter() -> &'static Highlighter {
    static H: OnceLock<Highlighter> = OnceLock::new();
    H.get_or_init(|| {
        let scopes = CLASSES
            .iter()
            .enumerate()
            .map(|(i, (_, selectors))| ThemeItem {
                scope: selectors.parse::<ScopeSelectors>().expect("valid scope selectors"),
                style: StyleModifier { foreground: Some(class_color(i + 1)), background: None, font_style: None },
            })
            .collect();
        let theme = Theme {
            settings: ThemeSettings { foreground: Some(class_color(0)), ..ThemeSettings::default() },
            scopes,
            ..Theme::default()
        };
        Highlighter { syntaxes: two_face::syntax::extra_newlines(), theme }
    })
}

fn class_color(id: usize) -> Color {
    Color { r: id as u8, g: 0, b: 0, a: 0xFF }
}

/// The syntax for a fence language, by name or alias.
fn syntax_for(lang: &str) -> Option<&'static SyntaxReference> {
    let h = highlighter();
    let token = match lang.to_ascii_lowercase().as_str() {
        "" | "text" | "plain" | "txt" | "http" | "console" => return None,
        "csharp" | "c#" => "cs".to_string(),
        "objc" | "objective-c" | "objectivec" => "m".to_string(),
        "javascript" | "jsx" => "js".to_string(),
        "typescript" | "tsx" => "ts".to_string(),
        "gdscript" => "py".to_string(),
        "actionscript" => "as".to_string(),
        "plist" | "html" => "xml".to_string(),
        "shell" | "sh" | "zsh" => "bash".to_string(),
        "gradle" => "groovy".to_string(),
        "kts" => "kotlin".to_string(),
        "podfile" => "rb".to_string(),
        "yml" => "yaml".to_string(),
        other => other.to_string(),
    };
    h.syntaxes.find_syntax_by_token(&token)
}

/// Whether the language is known to the highlighter (unknown languages render as plain text).
pub fn is_known(lang: &str) -> bool {
    syntax_for(lang).is_some()
}

/// Highlights `code` into HTML spans (the content of `<code>`), escaping everything.
pub fn highlight(code: &str, lang: &str) -> String {
    let mut out = String::with_capacity(code.len() * 2);
    let Some(syntax) = syntax_for(lang) else {
        escape_into(&mut out, code);
        return out;
    };
    let h = highlighter();
    let mut lines = HighlightLines::new(syntax, &h.theme);
    let mut open: usize = 0;
    for line in LinesWithEndings::from(code) {
        let Ok(regions) = lines.highlight_line(line, &h.syntaxes) else {
            // A grammar failure must not fail the build; the rest is shown plain.
            close(&mut out, &mut open);
            escape_into(&mut out, line);
            continue;
        };
        for (style, text) in regions {
            let class = style.foreground.r as usize;
            if class != open {
                close(&mut out, &mut open);
                if class != 0 && !text.trim().is_empty() {
                    out.push_str("<span class=\"hl-");
                    out.push_str(CLASSES[class - 1].0);
                    out.push_str("\">");
                    open = class;
                }
            }
            escape_into(&mut out, text);
        }
    }
    close(&mut out, &mut open);
    out
}

fn close(out: &mut String, open: &mut usize) {
    if *open != 0 {
        out.push_str("</span>");
        *open = 0;
    }
}

pub fn escape_into(out: &mut String, text: &str) {
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            c => out.push(c),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keywords_strings_and_comments_get_classes() {
        let html = highlight("val x = \"hi\" // note\n", "kotlin");
        assert!(html.contains("<span class=\"hl-k\">val</span>"), "{html}");
        assert!(html.contains("hl-s"), "{html}");
        assert!(html.contains("<span class=\"hl-c\">"), "{html}");
    }

    #[test]
    fn unknown_language_is_escaped_plain_text() {
        assert_eq!(highlight("<a & b>", "nosuchlang"), "&lt;a &amp; b&gt;");
        assert!(!is_known("nosuchlang"));
    }

    #[test]
    fn every_documented_language_is_known() {
        for lang in ["kotlin", "java", "swift", "objc", "csharp", "dart", "javascript", "typescript", "cpp",
                     "gdscript", "lua", "actionscript", "groovy", "xml", "ruby", "json", "yaml", "bash"] {
            assert!(is_known(lang), "{lang}");
        }
    }

    #[test]
    fn output_is_the_code_when_tags_are_stripped() {
        let code = "if (a < b) { return \"x&y\"; }\n";
        let html = highlight(code, "java");
        let mut text = String::new();
        let mut in_tag = false;
        for c in html.chars() {
            match c { '<' => in_tag = true, '>' => in_tag = false, c if !in_tag => text.push(c), _ => {} }
        }
        assert_eq!(text.replace("&lt;", "<").replace("&quot;", "\"").replace("&amp;", "&"), code);
    }
}
