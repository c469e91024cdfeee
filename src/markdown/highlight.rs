//! Build-time syntax highlighting by small per-language lexers (the Prism / Chroma approach:
//! comments, strings, numbers, keywords, types, annotations, calls, keys and tags).
//!
//! Tokens get short classes (`hl-k` keyword, `hl-s` string, ...) so the light and dark palettes
//! are plain CSS and switching them needs no JavaScript. A TextMate-grammar engine (syntect)
//! was measured at about 0.2 ms per snippet — two seconds of CPU for the 10,000-page benchmark
//! corpus, more than the whole build budget; these lexers take microseconds.

/// What a language looks like to the lexer.
struct Lang {
    line_comments: &'static [&'static str],
    block_comments: &'static [(&'static str, &'static str)],
    /// Quote characters that open strings; a tripled quote opens a multi-line string.
    quotes: &'static [char],
    triple_quotes: bool,
    /// Sorted.
    keywords: &'static [&'static str],
    /// Sorted; literals and built-in constants.
    constants: &'static [&'static str],
    /// Capitalised identifiers are types (Kotlin, Swift, Java, C#, Dart, ...).
    capitalised_types: bool,
    /// `@Name` is an annotation / decorator.
    at_annotations: bool,
    /// `#name` at the start of a line is a preprocessor directive (C, C++, Objective-C).
    hash_directives: bool,
    /// `$name` and `${...}` are variables (shells).
    dollar_variables: bool,
    /// `key:` at the start of a line is a key (YAML), `"key":` is a key (JSON).
    keys: Keys,
    /// Markup: `<tag attr="v">`.
    markup: bool,
}

#[derive(Clone, Copy, PartialEq)]
enum Keys {
    None,
    Json,
    Yaml,
}

const NONE: Lang = Lang {
    line_comments: &[],
    block_comments: &[],
    quotes: &[],
    triple_quotes: false,
    keywords: &[],
    constants: &[],
    capitalised_types: false,
    at_annotations: false,
    hash_directives: false,
    dollar_variables: false,
    keys: Keys::None,
    markup: false,
};

const C_LIKE: Lang = Lang {
    line_comments: &["//"],
    block_comments: &[("/*", "*/")],
    quotes: &['"', '\''],
    capitalised_types: true,
    at_annotations: true,
    ..NONE
};

const KOTLIN: Lang = Lang {
    triple_quotes: true,
    keywords: &[
        "abstract",
        "as",
        "break",
        "by",
        "catch",
        "class",
        "companion",
        "const",
        "constructor",
        "continue",
        "data",
        "do",
        "else",
        "enum",
        "external",
        "final",
        "finally",
        "for",
        "fun",
        "get",
        "if",
        "import",
        "in",
        "init",
        "inline",
        "interface",
        "internal",
        "is",
        "lateinit",
        "object",
        "open",
        "operator",
        "out",
        "override",
        "package",
        "private",
        "protected",
        "public",
        "return",
        "sealed",
        "set",
        "super",
        "suspend",
        "this",
        "throw",
        "try",
        "typealias",
        "val",
        "var",
        "vararg",
        "when",
        "where",
        "while",
    ],
    constants: &["false", "null", "true"],
    ..C_LIKE
};

const JAVA: Lang = Lang {
    keywords: &[
        "abstract",
        "assert",
        "boolean",
        "break",
        "byte",
        "case",
        "catch",
        "char",
        "class",
        "const",
        "continue",
        "default",
        "do",
        "double",
        "else",
        "enum",
        "extends",
        "final",
        "finally",
        "float",
        "for",
        "if",
        "implements",
        "import",
        "instanceof",
        "int",
        "interface",
        "long",
        "native",
        "new",
        "package",
        "private",
        "protected",
        "public",
        "return",
        "short",
        "static",
        "super",
        "switch",
        "synchronized",
        "this",
        "throw",
        "throws",
        "try",
        "var",
        "void",
        "volatile",
        "while",
    ],
    constants: &["false", "null", "true"],
    ..C_LIKE
};

const SWIFT: Lang = Lang {
    triple_quotes: true,
    quotes: &['"'],
    keywords: &[
        "as",
        "associatedtype",
        "async",
        "await",
        "break",
        "case",
        "catch",
        "class",
        "continue",
        "default",
        "defer",
        "deinit",
        "do",
        "else",
        "enum",
        "extension",
        "fallthrough",
        "fileprivate",
        "final",
        "for",
        "func",
        "guard",
        "if",
        "import",
        "in",
        "init",
        "inout",
        "internal",
        "is",
        "lazy",
        "let",
        "mutating",
        "open",
        "operator",
        "override",
        "private",
        "protocol",
        "public",
        "repeat",
        "required",
        "rethrows",
        "return",
        "self",
        "some",
        "static",
        "struct",
        "subscript",
        "super",
        "switch",
        "throw",
        "throws",
        "try",
        "typealias",
        "var",
        "weak",
        "where",
        "while",
    ],
    constants: &["false", "nil", "true"],
    ..C_LIKE
};

const OBJC: Lang = Lang {
    hash_directives: true,
    keywords: &[
        "@end",
        "@implementation",
        "@interface",
        "@property",
        "@protocol",
        "@selector",
        "BOOL",
        "NO",
        "YES",
        "break",
        "case",
        "char",
        "const",
        "continue",
        "default",
        "do",
        "double",
        "else",
        "enum",
        "extern",
        "float",
        "for",
        "id",
        "if",
        "instancetype",
        "int",
        "long",
        "nonatomic",
        "nullable",
        "return",
        "self",
        "static",
        "strong",
        "struct",
        "super",
        "switch",
        "typedef",
        "unsigned",
        "void",
        "weak",
        "while",
    ],
    constants: &["NO", "NULL", "YES", "nil"],
    ..C_LIKE
};

const CSHARP: Lang = Lang {
    at_annotations: false,
    hash_directives: true,
    keywords: &[
        "abstract",
        "as",
        "async",
        "await",
        "base",
        "bool",
        "break",
        "case",
        "catch",
        "class",
        "const",
        "continue",
        "default",
        "delegate",
        "do",
        "double",
        "else",
        "enum",
        "event",
        "float",
        "for",
        "foreach",
        "if",
        "in",
        "int",
        "interface",
        "internal",
        "is",
        "long",
        "namespace",
        "new",
        "object",
        "out",
        "override",
        "private",
        "protected",
        "public",
        "readonly",
        "ref",
        "return",
        "sealed",
        "static",
        "string",
        "struct",
        "switch",
        "this",
        "throw",
        "try",
        "using",
        "var",
        "virtual",
        "void",
        "while",
    ],
    constants: &["false", "null", "true"],
    ..C_LIKE
};

const CPP: Lang = Lang {
    at_annotations: false,
    hash_directives: true,
    keywords: &[
        "auto",
        "bool",
        "break",
        "case",
        "catch",
        "class",
        "const",
        "constexpr",
        "continue",
        "default",
        "delete",
        "do",
        "double",
        "else",
        "enum",
        "explicit",
        "float",
        "for",
        "if",
        "inline",
        "int",
        "long",
        "namespace",
        "new",
        "override",
        "private",
        "protected",
        "public",
        "return",
        "static",
        "struct",
        "switch",
        "template",
        "this",
        "throw",
        "try",
        "typename",
        "using",
        "virtual",
        "void",
        "while",
    ],
    constants: &["false", "nullptr", "true"],
    ..C_LIKE
};

const DART: Lang = Lang {
    triple_quotes: true,
    keywords: &[
        "abstract",
        "as",
        "async",
        "await",
        "break",
        "case",
        "catch",
        "class",
        "const",
        "continue",
        "default",
        "do",
        "dynamic",
        "else",
        "enum",
        "extends",
        "final",
        "finally",
        "for",
        "if",
        "implements",
        "import",
        "in",
        "is",
        "late",
        "new",
        "on",
        "required",
        "return",
        "static",
        "super",
        "switch",
        "this",
        "throw",
        "try",
        "var",
        "void",
        "while",
        "with",
    ],
    constants: &["false", "null", "true"],
    ..C_LIKE
};

const JAVASCRIPT: Lang = Lang {
    quotes: &['"', '\'', '`'],
    capitalised_types: true,
    keywords: &[
        "as",
        "async",
        "await",
        "break",
        "case",
        "catch",
        "class",
        "const",
        "continue",
        "default",
        "delete",
        "do",
        "else",
        "export",
        "extends",
        "finally",
        "for",
        "from",
        "function",
        "if",
        "import",
        "in",
        "instanceof",
        "interface",
        "let",
        "new",
        "of",
        "return",
        "static",
        "super",
        "switch",
        "this",
        "throw",
        "try",
        "type",
        "typeof",
        "var",
        "void",
        "while",
        "yield",
    ],
    constants: &["false", "null", "true", "undefined"],
    ..C_LIKE
};

const GROOVY: Lang = Lang {
    triple_quotes: true,
    keywords: &[
        "apply", "class", "def", "else", "for", "if", "import", "in", "new", "plugins", "return",
    ],
    constants: &["false", "null", "true"],
    ..C_LIKE
};

const ACTIONSCRIPT: Lang = Lang {
    keywords: &[
        "as",
        "break",
        "case",
        "catch",
        "class",
        "const",
        "else",
        "extends",
        "for",
        "function",
        "if",
        "import",
        "in",
        "is",
        "new",
        "override",
        "package",
        "private",
        "protected",
        "public",
        "return",
        "static",
        "super",
        "switch",
        "this",
        "throw",
        "try",
        "var",
        "void",
        "while",
    ],
    constants: &["false", "null", "true"],
    ..C_LIKE
};

const PYTHONISH: Lang = Lang {
    line_comments: &["#"],
    quotes: &['"', '\''],
    triple_quotes: true,
    capitalised_types: true,
    at_annotations: true,
    keywords: &[
        "and", "as", "await", "break", "class", "const", "continue", "def", "elif", "else", "enum",
        "export", "extends", "for", "func", "if", "import", "in", "is", "match", "not", "or",
        "pass", "preload", "return", "self", "signal", "static", "var", "while",
    ],
    constants: &["False", "None", "True", "false", "null", "true"],
    ..NONE
};

const RUBY: Lang = Lang {
    line_comments: &["#"],
    quotes: &['"', '\''],
    capitalised_types: true,
    keywords: &[
        "begin",
        "class",
        "def",
        "do",
        "else",
        "elsif",
        "end",
        "if",
        "module",
        "platform",
        "pod",
        "require",
        "return",
        "source",
        "target",
        "unless",
        "use_frameworks!",
        "while",
    ],
    constants: &["false", "nil", "true"],
    ..NONE
};

const LUA: Lang = Lang {
    line_comments: &["--"],
    block_comments: &[("--[[", "]]")],
    quotes: &['"', '\''],
    keywords: &[
        "and", "break", "do", "else", "elseif", "end", "for", "function", "if", "in", "local",
        "not", "or", "repeat", "return", "then", "until", "while",
    ],
    constants: &["false", "nil", "true"],
    ..NONE
};

const SHELL: Lang = Lang {
    line_comments: &["#"],
    quotes: &['"', '\''],
    dollar_variables: true,
    keywords: &[
        "case", "cd", "do", "done", "echo", "elif", "else", "esac", "export", "fi", "for",
        "function", "if", "in", "local", "return", "then", "while",
    ],
    ..NONE
};

const JSON: Lang = Lang {
    quotes: &['"'],
    constants: &["false", "null", "true"],
    keys: Keys::Json,
    ..NONE
};

const YAML: Lang = Lang {
    line_comments: &["#"],
    quotes: &['"', '\''],
    constants: &["false", "no", "null", "true", "yes", "~"],
    keys: Keys::Yaml,
    ..NONE
};

const MARKUP: Lang = Lang {
    block_comments: &[("<!--", "-->")],
    markup: true,
    ..NONE
};

const HTTP: Lang = Lang {
    keys: Keys::Yaml,
    keywords: &["DELETE", "GET", "HEAD", "OPTIONS", "PATCH", "POST", "PUT"],
    ..NONE
};

/// The lexer for a fence language, by name or common alias.
fn lang_for(name: &str) -> Option<&'static Lang> {
    Some(match name.to_ascii_lowercase().as_str() {
        "kotlin" | "kt" | "kts" => &KOTLIN,
        "java" => &JAVA,
        "swift" => &SWIFT,
        "objc" | "objective-c" | "objectivec" | "m" => &OBJC,
        "csharp" | "cs" | "c#" => &CSHARP,
        "cpp" | "c++" | "c" | "h" => &CPP,
        "dart" => &DART,
        "javascript" | "js" | "jsx" | "typescript" | "ts" | "tsx" => &JAVASCRIPT,
        "groovy" | "gradle" => &GROOVY,
        "actionscript" | "as3" => &ACTIONSCRIPT,
        "gdscript" | "python" | "py" => &PYTHONISH,
        "ruby" | "rb" | "podfile" => &RUBY,
        "lua" => &LUA,
        "bash" | "sh" | "shell" | "zsh" | "console" => &SHELL,
        "json" => &JSON,
        "yaml" | "yml" => &YAML,
        "xml" | "html" | "plist" | "svg" => &MARKUP,
        "http" => &HTTP,
        _ => return None,
    })
}

/// Whether the language is known to the highlighter (unknown languages render as plain text).
pub fn is_known(lang: &str) -> bool {
    lang_for(lang).is_some()
}

/// Highlights `code` into HTML spans (the content of `<code>`), escaping everything.
pub fn highlight(code: &str, lang: &str) -> String {
    let mut out = String::with_capacity(code.len() + code.len() / 2);
    match lang_for(lang) {
        Some(l) => Lexer {
            src: code,
            pos: 0,
            out: &mut out,
            lang: l,
            line_start: true,
        }
        .run(),
        None => escape_into(&mut out, code),
    }
    out
}

struct Lexer<'a> {
    src: &'a str,
    pos: usize,
    out: &'a mut String,
    lang: &'static Lang,
    /// Only whitespace since the last newline.
    line_start: bool,
}

fn is_ident_start(c: char) -> bool {
    c.is_alphabetic() || c == '_'
}

fn is_ident(c: char) -> bool {
    c.is_alphanumeric() || c == '_'
}

impl Lexer<'_> {
    fn rest(&self) -> &str {
        &self.src[self.pos..]
    }

    fn emit(&mut self, class: Option<&str>, end: usize) {
        let text = &self.src[self.pos..end];
        match class {
            Some(c) if !text.is_empty() => {
                self.out.push_str("<span class=\"hl-");
                self.out.push_str(c);
                self.out.push_str("\">");
                escape_into(self.out, text);
                self.out.push_str("</span>");
            }
            _ => escape_into(self.out, text),
        }
        if !text.trim().is_empty() {
            self.line_start = text.ends_with('\n');
        } else if text.contains('\n') {
            self.line_start = true;
        }
        self.pos = end;
    }

    /// The end of the text up to and including `close` (or the end of the input).
    fn until(&self, from: usize, close: &str) -> usize {
        self.src[from..]
            .find(close)
            .map_or(self.src.len(), |i| from + i + close.len())
    }

    fn run(&mut self) {
        let lang = self.lang;
        while self.pos < self.src.len() {
            let rest = self.rest();
            let c = rest.chars().next().expect("not at end");
            if c == '\n' || c.is_whitespace() {
                let n = rest
                    .find(|ch: char| !ch.is_whitespace())
                    .unwrap_or(rest.len());
                self.emit(None, self.pos + n);
                continue;
            }
            if let Some((open, close)) = lang
                .block_comments
                .iter()
                .find(|(o, _)| rest.starts_with(o))
            {
                let end = self.until(self.pos + open.len(), close);
                self.emit(Some("c"), end);
                continue;
            }
            // In shells `#` starts a comment only at the start of a word (`${#arr}` is not one).
            let shell_word_hash = lang.dollar_variables
                && c == '#'
                && !self.line_start
                && !self.src[..self.pos].ends_with(char::is_whitespace);
            if lang.line_comments.iter().any(|m| rest.starts_with(m)) && !shell_word_hash {
                let end = self.src[self.pos..]
                    .find('\n')
                    .map_or(self.src.len(), |i| self.pos + i);
                self.emit(Some("c"), end);
                continue;
            }
            if lang.markup && c == '<' {
                self.markup_tag();
                continue;
            }
            if lang.keys == Keys::Yaml
                && self.line_start
                && let Some(end) = self.yaml_key()
            {
                self.emit(Some("e"), end);
                continue;
            }
            if lang.quotes.contains(&c) {
                let end = self.string_end(c);
                let class =
                    if lang.keys == Keys::Json && self.src[end..].trim_start().starts_with(':') {
                        "e"
                    } else {
                        "s"
                    };
                self.emit(Some(class), end);
                continue;
            }
            if c.is_ascii_digit()
                || (c == '.' && rest[1..].starts_with(|d: char| d.is_ascii_digit()))
            {
                let n = number_len(rest);
                self.emit(Some("n"), self.pos + n);
                continue;
            }
            if lang.at_annotations && c == '@' && rest[1..].starts_with(is_ident_start) {
                let n = 1 + rest[1..]
                    .find(|ch: char| !(is_ident(ch) || ch == '.'))
                    .unwrap_or(rest.len() - 1);
                let word = &rest[..n];
                let class = if lang.keywords.binary_search(&word).is_ok() {
                    "k"
                } else {
                    "a"
                };
                self.emit(Some(class), self.pos + n);
                continue;
            }
            if lang.hash_directives && c == '#' && self.line_start {
                let n = 1 + rest[1..]
                    .find(|ch: char| !ch.is_alphabetic())
                    .unwrap_or(rest.len() - 1);
                self.emit(Some("a"), self.pos + n);
                continue;
            }
            if lang.dollar_variables && c == '$' {
                let n = if rest[1..].starts_with('{') {
                    rest.find('}').map_or(rest.len(), |i| i + 1)
                } else {
                    1 + rest[1..]
                        .find(|ch: char| !is_ident(ch))
                        .unwrap_or(rest.len() - 1)
                };
                self.emit(Some("v"), self.pos + n.max(1));
                continue;
            }
            if is_ident_start(c)
                || (c == '@' && lang.keywords.first().is_some_and(|k| k.starts_with('@')))
            {
                let n = c.len_utf8()
                    + rest[c.len_utf8()..]
                        .find(|ch: char| !(is_ident(ch) || ch == '!'))
                        .unwrap_or(rest.len() - c.len_utf8());
                let word = &rest[..n];
                let after = rest[n..].trim_start_matches(' ');
                let class = if lang.keywords.binary_search(&word).is_ok() {
                    Some("k")
                } else if lang.constants.binary_search(&word).is_ok() {
                    Some("n")
                } else if after.starts_with('(') && !lang.markup {
                    Some("f")
                } else if lang.capitalised_types
                    && c.is_uppercase()
                    && word.chars().any(char::is_lowercase)
                {
                    Some("t")
                } else {
                    None
                };
                self.emit(class, self.pos + n);
                continue;
            }
            self.emit(None, self.pos + c.len_utf8());
        }
    }

    fn string_end(&self, q: char) -> usize {
        let rest = self.rest();
        let triple: String = std::iter::repeat_n(q, 3).collect();
        if self.lang.triple_quotes && rest.starts_with(&triple) {
            return self.until(self.pos + 3, &triple);
        }
        let mut escaped = false;
        for (i, ch) in rest.char_indices().skip(1) {
            if escaped {
                escaped = false;
            } else if ch == '\\' {
                escaped = true;
            } else if ch == q {
                return self.pos + i + 1;
            } else if ch == '\n' && q != '`' {
                return self.pos + i;
            }
        }
        self.src.len()
    }

    /// `key:` (or `- key:`) at the start of a YAML line; returns the end of the key.
    fn yaml_key(&self) -> Option<usize> {
        let rest = self.rest();
        let line = rest.split('\n').next().unwrap_or("");
        let colon = line.find(':')?;
        let key = &line[..colon];
        let ok = !key.is_empty()
            && (line[colon + 1..].is_empty() || line[colon + 1..].starts_with(' '))
            && key.chars().all(|c| is_ident(c) || "-. /\"'".contains(c))
            && !key.starts_with('-');
        ok.then(|| self.pos + colon)
    }

    /// `<tag attr="value">`, `</tag>`, `<?xml ...?>`, `<!DOCTYPE>`.
    fn markup_tag(&mut self) {
        let rest = self.rest();
        let Some(end_rel) = rest.find('>') else {
            self.emit(None, self.pos + 1);
            return;
        };
        let name_start = rest[1..]
            .find(|c: char| !"/?!".contains(c))
            .map_or(1, |i| i + 1);
        let name_end = name_start
            + rest[name_start..]
                .find(|c: char| c.is_whitespace() || c == '>' || c == '/')
                .unwrap_or(0);
        let tag_end = self.pos + end_rel + 1;
        self.emit(Some("p"), self.pos + name_start);
        self.emit(Some("g"), self.pos + (name_end - name_start));
        // Attributes: name="value".
        while self.pos < tag_end {
            let r = &self.src[self.pos..tag_end];
            let c = r.chars().next().expect("inside the tag");
            if c == '"' || c == '\'' {
                let close = r[1..].find(c).map_or(r.len(), |i| i + 2);
                self.emit(Some("s"), self.pos + close);
            } else if is_ident_start(c) {
                let n = r
                    .find(|ch: char| !(is_ident(ch) || ch == '-' || ch == ':' || ch == '.'))
                    .unwrap_or(r.len());
                self.emit(Some("e"), self.pos + n);
            } else if c == '>' || c == '/' || c == '?' {
                let n = r.find(|ch: char| !"/?>".contains(ch)).unwrap_or(r.len());
                self.emit(Some("p"), self.pos + n);
            } else {
                self.emit(None, self.pos + c.len_utf8());
            }
        }
    }
}

/// Digits with `_` separators, an optional fraction and exponent, hex, and type suffixes; a `.`
/// belongs to the number only when a digit follows (so `$0.value` stops at `0`).
fn number_len(s: &str) -> usize {
    let b = s.as_bytes();
    let mut i = 0;
    while i < b.len() {
        let c = b[i];
        let digit_part = c.is_ascii_alphanumeric() || c == b'_';
        let fraction = c == b'.' && b.get(i + 1).is_some_and(u8::is_ascii_digit);
        let exponent_sign = (c == b'+' || c == b'-')
            && i > 0
            && matches!(b[i - 1], b'e' | b'E')
            && !s.starts_with("0x");
        if !(digit_part || fraction || exponent_sign) {
            break;
        }
        i += 1;
    }
    i.max(1)
}

/// HTML escaping for text and double-quoted attribute values (every attribute docgen writes
/// is double-quoted): the one escaping function of content, code and templates.
pub fn escape_into(out: &mut String, text: &str) {
    // Writing into a String cannot fail.
    let _ = pulldown_cmark_escape::escape_html(out, text);
}

#[cfg(test)]
mod tests {
    use super::*;

    fn plain(html: &str) -> String {
        let mut text = String::new();
        let mut in_tag = false;
        for c in html.chars() {
            match c {
                '<' => in_tag = true,
                '>' => in_tag = false,
                c if !in_tag => text.push(c),
                _ => {}
            }
        }
        text.replace("&lt;", "<")
            .replace("&gt;", ">")
            .replace("&quot;", "\"")
            .replace("&#39;", "'")
            .replace("&amp;", "&")
    }

    #[test]
    fn keyword_lists_are_sorted_for_binary_search() {
        for l in [
            &KOTLIN,
            &JAVA,
            &SWIFT,
            &OBJC,
            &CSHARP,
            &CPP,
            &DART,
            &JAVASCRIPT,
            &GROOVY,
            &ACTIONSCRIPT,
            &PYTHONISH,
            &RUBY,
            &LUA,
            &SHELL,
            &JSON,
            &YAML,
            &HTTP,
        ] {
            assert!(
                l.keywords.windows(2).all(|w| w[0] < w[1]),
                "{:?}",
                l.keywords
            );
            assert!(
                l.constants.windows(2).all(|w| w[0] < w[1]),
                "{:?}",
                l.constants
            );
        }
    }

    #[test]
    fn kotlin_tokens() {
        let html = highlight(
            "@JvmStatic\nval ad = MaxInterstitialAd(\"id\", this) // load\nad.loadAd()\n",
            "kotlin",
        );
        assert!(
            html.contains("<span class=\"hl-a\">@JvmStatic</span>"),
            "{html}"
        );
        assert!(html.contains("<span class=\"hl-k\">val</span>"), "{html}");
        assert!(
            html.contains("<span class=\"hl-f\">MaxInterstitialAd</span>"),
            "{html}"
        );
        assert!(
            html.contains("<span class=\"hl-s\">&quot;id&quot;</span>"),
            "{html}"
        );
        assert!(
            html.contains("<span class=\"hl-c\">// load</span>"),
            "{html}"
        );
        assert!(
            html.contains("<span class=\"hl-f\">loadAd</span>"),
            "{html}"
        );
    }

    #[test]
    fn json_keys_yaml_keys_and_shell_variables() {
        let json = highlight("{\"id\": \"x\", \"n\": 2, \"ok\": true}", "json");
        assert!(
            json.contains("<span class=\"hl-e\">&quot;id&quot;</span>"),
            "{json}"
        );
        assert!(json.contains("<span class=\"hl-s\">&quot;x&quot;</span>"));
        assert!(
            json.contains("<span class=\"hl-n\">2</span>")
                && json.contains("<span class=\"hl-n\">true</span>")
        );
        let yaml = highlight("title: A # note\nitems:\n  - name: b\n", "yaml");
        assert!(yaml.contains("<span class=\"hl-e\">title</span>"), "{yaml}");
        assert!(
            yaml.contains("<span class=\"hl-c\"># note</span>"),
            "{yaml}"
        );
        let sh = highlight("echo \"$HOME\" ${#ARR} $PATH # c\n", "bash");
        assert!(sh.contains("<span class=\"hl-v\">$PATH</span>"), "{sh}");
        assert!(sh.contains("<span class=\"hl-v\">${#ARR}</span>"), "{sh}");
        assert!(sh.contains("<span class=\"hl-c\"># c</span>"), "{sh}");
    }

    #[test]
    fn numbers_stop_before_member_access() {
        assert_eq!(number_len("0.value"), 1);
        assert_eq!(number_len("3.14f)"), 5);
        assert_eq!(number_len("0x1F,"), 4);
        assert_eq!(number_len("1e-3 "), 4);
        assert_eq!(number_len("1_000;"), 5);
    }

    #[test]
    fn markup_tags_attributes_and_comments() {
        let html = highlight(
            "<!-- c -->\n<key>SKAdNetworkIdentifier</key>\n<meta-data android:name=\"x\"/>\n",
            "xml",
        );
        assert!(
            html.contains("<span class=\"hl-c\">&lt;!-- c --&gt;</span>"),
            "{html}"
        );
        assert!(html.contains("<span class=\"hl-g\">key</span>"), "{html}");
        assert!(
            html.contains("<span class=\"hl-e\">android:name</span>"),
            "{html}"
        );
        assert!(
            html.contains("<span class=\"hl-s\">&quot;x&quot;</span>"),
            "{html}"
        );
    }

    #[test]
    fn preprocessor_and_triple_quotes() {
        let objc = highlight(
            "#import <AppLovinSDK/AppLovinSDK.h>\n@interface A : NSObject\n@end\n",
            "objc",
        );
        assert!(
            objc.contains("<span class=\"hl-a\">#import</span>"),
            "{objc}"
        );
        assert!(
            objc.contains("<span class=\"hl-k\">@interface</span>"),
            "{objc}"
        );
        let swift = highlight("let s = \"\"\"\nmulti \"line\"\n\"\"\"\n", "swift");
        assert!(swift.contains("<span class=\"hl-s\">&quot;&quot;&quot;\nmulti &quot;line&quot;\n&quot;&quot;&quot;</span>"), "{swift}");
    }

    #[test]
    fn output_is_exactly_the_code_when_tags_are_stripped() {
        let samples = [
            (
                "java",
                "if (a < b && c > \"d\") { return 'x'; } /* unterminated",
            ),
            ("bash", "echo '${x}' \"unterminated"),
            ("xml", "<a b='1'>text & more</a><unclosed"),
            ("lua", "local x = --[[ block ]] 1 -- line\n"),
            ("kotlin", "val é = \"ünïcödé\" // ✓\n"),
        ];
        for (lang, code) in samples {
            assert_eq!(plain(&highlight(code, lang)), code, "{lang}");
        }
    }

    #[test]
    fn unknown_language_is_escaped_plain_text() {
        assert_eq!(highlight("<a & b>", "nosuchlang"), "&lt;a &amp; b&gt;");
        assert!(!is_known("nosuchlang"));
        for lang in [
            "kotlin",
            "java",
            "swift",
            "objc",
            "csharp",
            "dart",
            "javascript",
            "typescript",
            "cpp",
            "gdscript",
            "lua",
            "actionscript",
            "groovy",
            "xml",
            "ruby",
            "json",
            "yaml",
            "bash",
            "http",
        ] {
            assert!(is_known(lang), "{lang}");
        }
    }
}
