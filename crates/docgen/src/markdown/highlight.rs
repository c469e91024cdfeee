//! Build-time syntax highlighting by small per-language lexers (the Prism / Chroma approach:
//! comments, strings, numbers, keywords, types, annotations, calls, keys and tags).
//!
//! Tokens get short classes (`hl-k` keyword, `hl-s` string, ...) so the light and dark palettes
//! are plain CSS and switching them needs no JavaScript. A TextMate-grammar engine (syntect)
//! and tree-sitter-highlight were measured at 0.03–2 ms per snippet — one to many seconds of
//! CPU for the 10,000-page benchmark corpus, more than the whole build budget; these lexers
//! take microseconds (BENCHMARKS.md, "Highlighting").

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
    /// Keywords match in any case (SQL, Dockerfile); the lists are lower-case.
    keywords_any_case: bool,
    /// Keywords count only as the first word of a line (Dockerfile instructions).
    keywords_at_line_start: bool,
    /// Words that turn a directly following quote into a string prefix (Python `f"…"`);
    /// matched in any case.
    string_prefixes: &'static [&'static str],
    /// Rust: lifetimes `'a`, macros `name!(…)`, attributes `#[…]`, raw strings `r#"…"#`.
    rust: bool,
    /// Lua's long strings `[[…]]`, `[==[…]==]`.
    long_brackets: bool,
    /// Shell here-documents: `<<EOF` up to the line `EOF` is a string.
    heredocs: bool,
    /// JSX: `<Name` and `</Name` after an operator, a bracket or `return` open a tag.
    jsx: bool,
    /// Handlebars: `{{…}}`.
    mustache: bool,
    /// Marks shown as punctuation wherever they appear (PHP's `<?php`, `?>`).
    marks: &'static [&'static str],
    /// Languages lexed by a whole lexer of their own.
    mode: Mode,
}

#[derive(Clone, Copy, PartialEq)]
enum Keys {
    None,
    Json,
    Yaml,
    /// `[section]` at the start of a line and `key =` (INI, TOML).
    Ini,
}

#[derive(Clone, Copy, PartialEq)]
enum Mode {
    /// The token loop of `Lexer::run`, configured by the table.
    Code,
    /// Known, shown without colour (plain text, program output).
    Plain,
    Css,
    Diff,
    Markdown,
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
    keywords_any_case: false,
    keywords_at_line_start: false,
    string_prefixes: &[],
    rust: false,
    long_brackets: false,
    heredocs: false,
    jsx: false,
    mustache: false,
    marks: &[],
    mode: Mode::Code,
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
    long_brackets: true,
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
    heredocs: true,
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

const HANDLEBARS: Lang = Lang {
    block_comments: &[("{{!--", "--}}"), ("<!--", "-->")],
    mustache: true,
    ..MARKUP
};

const HTTP: Lang = Lang {
    keys: Keys::Yaml,
    keywords: &["DELETE", "GET", "HEAD", "OPTIONS", "PATCH", "POST", "PUT"],
    ..NONE
};

const RUST: Lang = Lang {
    line_comments: &["//"],
    block_comments: &[("/*", "*/")],
    quotes: &['"', '\''],
    capitalised_types: true,
    rust: true,
    keywords: &[
        "Self", "as", "async", "await", "break", "const", "continue", "crate", "dyn", "else",
        "enum", "extern", "fn", "for", "if", "impl", "in", "let", "loop", "match", "mod", "move",
        "mut", "pub", "ref", "return", "self", "static", "struct", "super", "trait", "type",
        "unsafe", "use", "where", "while",
    ],
    constants: &["Err", "None", "Ok", "Some", "false", "true"],
    ..NONE
};

const PYTHON: Lang = Lang {
    string_prefixes: &["b", "br", "f", "fr", "r", "rb", "rf", "u"],
    keywords: &[
        "and", "as", "assert", "async", "await", "break", "case", "class", "continue", "def",
        "del", "elif", "else", "except", "finally", "for", "from", "global", "if", "import", "in",
        "is", "lambda", "match", "nonlocal", "not", "or", "pass", "raise", "return", "self", "try",
        "while", "with", "yield",
    ],
    constants: &["False", "None", "True"],
    ..PYTHONISH
};

const GO: Lang = Lang {
    quotes: &['"', '\'', '`'],
    at_annotations: false,
    keywords: &[
        "break",
        "case",
        "chan",
        "const",
        "continue",
        "default",
        "defer",
        "else",
        "fallthrough",
        "for",
        "func",
        "go",
        "goto",
        "if",
        "import",
        "interface",
        "map",
        "package",
        "range",
        "return",
        "select",
        "struct",
        "switch",
        "type",
        "var",
    ],
    constants: &["false", "iota", "nil", "true"],
    ..C_LIKE
};

const TYPESCRIPT: Lang = Lang {
    keywords: &[
        "abstract",
        "any",
        "as",
        "async",
        "await",
        "boolean",
        "break",
        "case",
        "catch",
        "class",
        "const",
        "continue",
        "declare",
        "default",
        "delete",
        "do",
        "else",
        "enum",
        "export",
        "extends",
        "finally",
        "for",
        "from",
        "function",
        "if",
        "implements",
        "import",
        "in",
        "infer",
        "instanceof",
        "interface",
        "is",
        "keyof",
        "let",
        "namespace",
        "never",
        "new",
        "number",
        "of",
        "private",
        "protected",
        "public",
        "readonly",
        "return",
        "satisfies",
        "static",
        "string",
        "super",
        "switch",
        "this",
        "throw",
        "try",
        "type",
        "typeof",
        "unknown",
        "var",
        "void",
        "while",
        "yield",
    ],
    constants: &["false", "null", "true", "undefined"],
    ..JAVASCRIPT
};

const PHP: Lang = Lang {
    line_comments: &["//", "#"],
    dollar_variables: true,
    at_annotations: false,
    marks: &["<?php", "<?=", "?>"],
    keywords: &[
        "abstract",
        "and",
        "array",
        "as",
        "break",
        "case",
        "catch",
        "class",
        "clone",
        "const",
        "continue",
        "declare",
        "default",
        "do",
        "echo",
        "else",
        "elseif",
        "empty",
        "enum",
        "extends",
        "final",
        "finally",
        "fn",
        "for",
        "foreach",
        "function",
        "global",
        "if",
        "implements",
        "include",
        "instanceof",
        "interface",
        "isset",
        "list",
        "match",
        "namespace",
        "new",
        "or",
        "print",
        "private",
        "protected",
        "public",
        "readonly",
        "require",
        "require_once",
        "return",
        "static",
        "switch",
        "throw",
        "trait",
        "try",
        "unset",
        "use",
        "var",
        "while",
        "yield",
    ],
    constants: &["FALSE", "NULL", "TRUE", "false", "null", "true"],
    ..C_LIKE
};

const SQL: Lang = Lang {
    line_comments: &["--"],
    block_comments: &[("/*", "*/")],
    quotes: &['\'', '"'],
    keywords_any_case: true,
    keywords: &[
        "add",
        "all",
        "alter",
        "and",
        "as",
        "asc",
        "begin",
        "between",
        "bigint",
        "boolean",
        "by",
        "case",
        "char",
        "check",
        "column",
        "commit",
        "constraint",
        "create",
        "cross",
        "database",
        "date",
        "decimal",
        "default",
        "delete",
        "desc",
        "distinct",
        "drop",
        "else",
        "end",
        "exists",
        "float",
        "foreign",
        "from",
        "full",
        "group",
        "having",
        "if",
        "in",
        "index",
        "inner",
        "insert",
        "int",
        "integer",
        "into",
        "is",
        "join",
        "key",
        "left",
        "like",
        "limit",
        "not",
        "numeric",
        "offset",
        "on",
        "or",
        "order",
        "outer",
        "primary",
        "real",
        "references",
        "returning",
        "right",
        "rollback",
        "select",
        "serial",
        "set",
        "table",
        "text",
        "then",
        "timestamp",
        "transaction",
        "union",
        "unique",
        "update",
        "using",
        "values",
        "varchar",
        "view",
        "when",
        "where",
        "with",
    ],
    constants: &["false", "null", "true"],
    ..NONE
};

const DOCKERFILE: Lang = Lang {
    line_comments: &["#"],
    quotes: &['"', '\''],
    dollar_variables: true,
    keywords_any_case: true,
    keywords_at_line_start: true,
    keywords: &[
        "add",
        "arg",
        "cmd",
        "copy",
        "entrypoint",
        "env",
        "expose",
        "from",
        "healthcheck",
        "label",
        "maintainer",
        "onbuild",
        "run",
        "shell",
        "stopsignal",
        "user",
        "volume",
        "workdir",
    ],
    ..NONE
};

const GRAPHQL: Lang = Lang {
    line_comments: &["#"],
    quotes: &['"'],
    triple_quotes: true,
    capitalised_types: true,
    at_annotations: true,
    dollar_variables: true,
    keywords: &[
        "directive",
        "enum",
        "extend",
        "fragment",
        "implements",
        "input",
        "interface",
        "mutation",
        "on",
        "query",
        "repeatable",
        "scalar",
        "schema",
        "subscription",
        "type",
        "union",
    ],
    constants: &["false", "null", "true"],
    ..NONE
};

const PROTO: Lang = Lang {
    at_annotations: false,
    keywords: &[
        "bool",
        "bytes",
        "double",
        "enum",
        "extend",
        "extensions",
        "fixed32",
        "fixed64",
        "float",
        "import",
        "int32",
        "int64",
        "map",
        "message",
        "oneof",
        "option",
        "optional",
        "package",
        "public",
        "repeated",
        "required",
        "reserved",
        "returns",
        "rpc",
        "service",
        "sfixed32",
        "sfixed64",
        "sint32",
        "sint64",
        "stream",
        "string",
        "syntax",
        "to",
        "uint32",
        "uint64",
        "weak",
    ],
    constants: &["false", "true"],
    ..C_LIKE
};

const TOML: Lang = Lang {
    line_comments: &["#"],
    quotes: &['"', '\''],
    triple_quotes: true,
    keys: Keys::Ini,
    constants: &["false", "inf", "nan", "true"],
    ..NONE
};

const INI: Lang = Lang {
    line_comments: &["#", ";"],
    quotes: &['"', '\''],
    keys: Keys::Ini,
    constants: &["false", "no", "off", "on", "true", "yes"],
    ..NONE
};

const JSONC: Lang = Lang {
    line_comments: &["//"],
    block_comments: &[("/*", "*/")],
    ..JSON
};

const JSON5: Lang = Lang {
    quotes: &['"', '\''],
    ..JSONC
};

const JSX: Lang = Lang {
    jsx: true,
    ..JAVASCRIPT
};

const TSX: Lang = Lang {
    jsx: true,
    ..TYPESCRIPT
};

const CSS: Lang = Lang {
    block_comments: &[("/*", "*/")],
    quotes: &['"', '\''],
    mode: Mode::Css,
    ..NONE
};

/// SCSS, Sass and Less: CSS with `//` comments and `$variables`.
const SCSS: Lang = Lang {
    line_comments: &["//"],
    dollar_variables: true,
    ..CSS
};

const DIFF: Lang = Lang {
    mode: Mode::Diff,
    ..NONE
};

const MARKDOWN: Lang = Lang {
    mode: Mode::Markdown,
    ..NONE
};

const PLAIN: Lang = Lang {
    mode: Mode::Plain,
    ..NONE
};

/// The lexer for a fence language, by name or common alias, in any case. mdBook's info
/// strings (`rust,ignore`) name the language before the first comma.
fn lang_for(name: &str) -> Option<&'static Lang> {
    let name = name.split(',').next().unwrap_or("").trim();
    Some(match name.to_ascii_lowercase().as_str() {
        "kotlin" | "kt" | "kts" => &KOTLIN,
        "java" => &JAVA,
        "swift" => &SWIFT,
        "objc" | "objective-c" | "objectivec" | "m" => &OBJC,
        "csharp" | "cs" | "c#" => &CSHARP,
        "cpp" | "c++" | "c" | "h" | "hpp" | "cc" | "cxx" => &CPP,
        "dart" => &DART,
        "javascript" | "js" | "mjs" | "cjs" => &JAVASCRIPT,
        "jsx" => &JSX,
        "typescript" | "ts" | "mts" | "cts" => &TYPESCRIPT,
        "tsx" => &TSX,
        "groovy" | "gradle" => &GROOVY,
        "actionscript" | "as3" => &ACTIONSCRIPT,
        "gdscript" => &PYTHONISH,
        "python" | "py" | "python3" => &PYTHON,
        "ruby" | "rb" | "podfile" => &RUBY,
        "lua" => &LUA,
        "bash" | "sh" | "shell" | "zsh" | "console" | "shell-session" => &SHELL,
        "json" => &JSON,
        "jsonc" => &JSONC,
        "json5" => &JSON5,
        "yaml" | "yml" => &YAML,
        "xml" | "html" | "htm" | "xhtml" | "plist" | "svg" | "vue" => &MARKUP,
        "handlebars" | "hbs" => &HANDLEBARS,
        "http" => &HTTP,
        "rust" | "rs" => &RUST,
        "go" | "golang" => &GO,
        "php" => &PHP,
        "sql" | "mysql" | "postgresql" | "postgres" | "sqlite" => &SQL,
        "dockerfile" | "docker" | "containerfile" => &DOCKERFILE,
        "graphql" | "gql" => &GRAPHQL,
        "proto" | "protobuf" => &PROTO,
        "toml" => &TOML,
        "ini" | "cfg" | "conf" | "editorconfig" | "properties" => &INI,
        "css" => &CSS,
        "scss" | "sass" | "less" => &SCSS,
        "diff" | "patch" | "udiff" => &DIFF,
        "markdown" | "md" | "mdx" => &MARKDOWN,
        "" | "text" | "txt" | "plain" | "plaintext" | "output" | "none" | "log" => &PLAIN,
        _ => return None,
    })
}

/// Whether the language is known to the highlighter (unknown languages render as plain text,
/// and the page gets a warning). The empty label (no language) is known: plain text.
pub fn is_known(lang: &str) -> bool {
    lang_for(lang).is_some()
}

/// Highlights `code` into HTML spans (the content of `<code>`), escaping everything.
pub fn highlight(code: &str, lang: &str) -> String {
    let mut out = String::with_capacity(code.len() + code.len() / 2);
    match lang_for(lang) {
        Some(l) if l.mode != Mode::Plain => {
            let mut lexer = Lexer {
                src: code,
                pos: 0,
                out: &mut out,
                lang: l,
                line_start: true,
                heredoc: None,
            };
            match l.mode {
                Mode::Css => lexer.css(),
                Mode::Diff => lexer.diff(),
                Mode::Markdown => lexer.markdown(),
                Mode::Code | Mode::Plain => lexer.run(),
            }
        }
        _ => escape_into(&mut out, code),
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
    /// A here-document whose body starts on the next line: its terminator, and whether the
    /// terminator may be indented by tabs (`<<-`).
    heredoc: Option<(&'a str, bool)>,
}

fn is_ident_start(c: char) -> bool {
    c.is_alphabetic() || c == '_'
}

fn is_ident(c: char) -> bool {
    c.is_alphanumeric() || c == '_'
}

impl<'a> Lexer<'a> {
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
        let src = self.src;
        while self.pos < src.len() {
            let rest = &src[self.pos..];
            let c = rest.chars().next().expect("not at end");
            if c.is_whitespace() {
                let n = rest
                    .find(|ch: char| !ch.is_whitespace())
                    .unwrap_or(rest.len());
                match rest[..n].find('\n') {
                    Some(nl) if self.heredoc.is_some() => {
                        self.emit(None, self.pos + nl + 1);
                        self.heredoc_body();
                    }
                    _ => self.emit(None, self.pos + n),
                }
                continue;
            }
            if let Some(mark) = lang.marks.iter().find(|m| rest.starts_with(**m)) {
                self.emit(Some("p"), self.pos + mark.len());
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
            if lang.mustache && rest.starts_with("{{") {
                let end = self.until(self.pos + 2, "}}");
                self.emit(Some("a"), end);
                continue;
            }
            if lang.rust && (rest.starts_with("#[") || rest.starts_with("#![")) {
                self.emit(Some("a"), self.pos + bracket_end(rest));
                continue;
            }
            // In shells `#` starts a comment only at the start of a word (`${#arr}` is not one).
            let shell_word_hash = lang.dollar_variables
                && c == '#'
                && !self.line_start
                && !self.src[..self.pos].ends_with(char::is_whitespace);
            if lang.line_comments.iter().any(|m| rest.starts_with(m)) && !shell_word_hash {
                // Lua's `--[==[ … ]==]` is a long comment.
                let long = rest.get(2..).filter(|_| lang.long_brackets);
                let end = match long.and_then(long_bracket_len) {
                    Some(n) => self.pos + 2 + n,
                    None => self.src[self.pos..]
                        .find('\n')
                        .map_or(self.src.len(), |i| self.pos + i),
                };
                self.emit(Some("c"), end);
                continue;
            }
            if lang.long_brackets
                && c == '['
                && let Some(n) = long_bracket_len(rest)
            {
                self.emit(Some("s"), self.pos + n);
                continue;
            }
            if lang.markup && c == '<' {
                self.markup_tag();
                continue;
            }
            if lang.jsx && c == '<' && self.jsx_tag_opens() {
                self.jsx_tag();
                continue;
            }
            if lang.keys == Keys::Yaml
                && self.line_start
                && let Some(end) = self.yaml_key()
            {
                self.emit(Some("e"), end);
                continue;
            }
            if lang.keys == Keys::Ini
                && self.line_start
                && let Some((class, end)) = self.ini_line_start()
            {
                self.emit(Some(class), end);
                continue;
            }
            if lang.heredocs
                && rest.starts_with("<<")
                && let Some(n) = self.heredoc_marker()
            {
                self.emit(Some("s"), self.pos + n);
                continue;
            }
            if lang.rust
                && c == '\''
                && let Some(n) = lifetime_len(rest)
            {
                self.emit(Some("t"), self.pos + n);
                continue;
            }
            if lang.quotes.contains(&c) {
                let end = self.string_end_at(self.pos, c);
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
                let first = c.len_utf8();
                let bare = first
                    + rest[first..]
                        .find(|ch: char| !is_ident(ch))
                        .unwrap_or(rest.len() - first);
                if let Some(end) = self.prefixed_string(bare) {
                    self.emit(Some("s"), end);
                    continue;
                }
                if lang.rust && rest[bare..].starts_with('!') && !rest[bare..].starts_with("!=") {
                    self.emit(Some("f"), self.pos + bare + 1);
                    continue;
                }
                // Words may end in `!` (Ruby's `use_frameworks!`); Rust's are macros, above.
                let n = if lang.rust {
                    bare
                } else {
                    first
                        + rest[first..]
                            .find(|ch: char| !(is_ident(ch) || ch == '!'))
                            .unwrap_or(rest.len() - first)
                };
                let word = &rest[..n];
                let after = rest[n..].trim_start_matches(' ');
                let class = if self.is_keyword(word) {
                    Some("k")
                } else if in_list(lang.constants, word, lang.keywords_any_case) {
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

    fn is_keyword(&self, word: &str) -> bool {
        let lang = self.lang;
        (self.line_start || !lang.keywords_at_line_start)
            && in_list(lang.keywords, word, lang.keywords_any_case)
    }

    /// A string after a prefix word of `bare` bytes (`f"…"`, Rust's `b"…"` and `r#"…"#`):
    /// its end.
    fn prefixed_string(&self, bare: usize) -> Option<usize> {
        let rest = self.rest();
        let (word, after) = rest.split_at(bare);
        if self.lang.rust && matches!(word, "r" | "br" | "cr") {
            let hashes = after.len() - after.trim_start_matches('#').len();
            if after[hashes..].starts_with('"') {
                let close = format!("\"{}", "#".repeat(hashes));
                return Some(self.until(self.pos + bare + hashes + 1, &close));
            }
        }
        let q = after
            .chars()
            .next()
            .filter(|q| self.lang.quotes.contains(q))?;
        let prefixed = self
            .lang
            .string_prefixes
            .iter()
            .any(|p| p.eq_ignore_ascii_case(word))
            || (self.lang.rust && matches!(word, "b" | "c"));
        prefixed.then(|| self.string_end_at(self.pos + bare, q))
    }

    /// Whether a `<` opens a JSX tag: a name, `/` or `>` follows, and an operator, a bracket,
    /// `=>` or `return` precedes (so `a < b` and `Array<T>` stay what they are).
    fn jsx_tag_opens(&self) -> bool {
        let next = self.rest()[1..].chars().next();
        if !next.is_some_and(|n| n.is_alphabetic() || n == '/' || n == '>') {
            return false;
        }
        let before = self.src[..self.pos].trim_end();
        before.is_empty()
            || before.ends_with(['(', '=', ',', ':', '?', '&', '|', '{', '}', ';', '>', '['])
            || before.ends_with("return")
    }

    /// `<Name`, `</Name` or `<>`: the bracket as punctuation, the name as a tag; attributes and
    /// `{expressions}` are lexed as code.
    fn jsx_tag(&mut self) {
        let rest = self.rest();
        let open = if rest.starts_with("</") { 2 } else { 1 };
        let name = rest[open..]
            .find(|c: char| !(is_ident(c) || c == '.' || c == '-' || c == ':'))
            .unwrap_or(rest.len() - open);
        self.emit(Some("p"), self.pos + open);
        self.emit(Some("g"), self.pos + name);
    }

    /// `[section]` (TOML's `[[array]]` too) or `key =` at the start of a line: the class and
    /// the end.
    fn ini_line_start(&self) -> Option<(&'static str, usize)> {
        let rest = self.rest();
        let line = rest.split('\n').next().unwrap_or("");
        if line.starts_with('[') {
            let close = line.rfind(']')?;
            return Some(("g", self.pos + close + 1));
        }
        let key = line[..line.find('=')?].trim_end();
        let ok = !key.is_empty() && key.chars().all(|c| is_ident(c) || "-.\"' *@/".contains(c));
        ok.then(|| ("e", self.pos + key.len()))
    }

    /// `<<EOF`, `<<-EOF`, `<<'EOF'`, `<<"EOF"`: the marker's length; remembers the terminator
    /// so the body, from the next line, becomes a string.
    fn heredoc_marker(&mut self) -> Option<usize> {
        let src = self.src;
        let rest = &src[self.pos..];
        if rest.starts_with("<<<") {
            return None;
        }
        let mut i = 2;
        let dash = rest[i..].starts_with('-');
        if dash {
            i += 1;
        }
        i += rest[i..].len() - rest[i..].trim_start_matches(' ').len();
        let quote = rest[i..].chars().next().filter(|q| *q == '\'' || *q == '"');
        if quote.is_some() {
            i += 1;
        }
        if !rest[i..].starts_with(|c: char| c.is_ascii_alphabetic() || c == '_') {
            return None;
        }
        let word_len = rest[i..]
            .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
            .unwrap_or(rest.len() - i);
        let word = &rest[i..i + word_len];
        i += word_len;
        if let Some(q) = quote {
            if !rest[i..].starts_with(q) {
                return None;
            }
            i += 1;
        }
        self.heredoc = Some((word, dash));
        Some(i)
    }

    /// The body of a here-document, from the start of its first line through its terminator.
    fn heredoc_body(&mut self) {
        let Some((word, dash)) = self.heredoc.take() else {
            return;
        };
        let mut at = self.pos;
        let end = loop {
            if at >= self.src.len() {
                break self.src.len();
            }
            let line_end = self.src[at..].find('\n').map_or(self.src.len(), |i| at + i);
            let line = self.src[at..line_end].trim_end_matches('\r');
            let line = if dash {
                line.trim_start_matches('\t')
            } else {
                line
            };
            if line == word {
                break line_end;
            }
            at = line_end + 1;
        };
        self.emit(Some("s"), end);
    }

    fn string_end_at(&self, start: usize, q: char) -> usize {
        let rest = &self.src[start..];
        let triple: String = std::iter::repeat_n(q, 3).collect();
        if self.lang.triple_quotes && rest.starts_with(&triple) {
            return self.until(start + 3, &triple);
        }
        let mut escaped = false;
        for (i, ch) in rest.char_indices().skip(1) {
            if escaped {
                escaped = false;
            } else if ch == '\\' {
                escaped = true;
            } else if ch == q {
                return start + i + 1;
            } else if ch == '\n' && q != '`' {
                return start + i;
            }
        }
        self.src.len()
    }

    /// CSS, SCSS, Less: at-rules, selectors (tags, `.classes`, `#ids`, `:pseudo`), properties
    /// and values (numbers with units, `#colours`, functions, `!important`).
    fn css(&mut self) {
        let lang = self.lang;
        let src = self.src;
        // Inside a declaration's value, after `property:` up to `;` or `}`.
        let mut value = false;
        let mut depth = 0usize;
        while self.pos < src.len() {
            let rest = &src[self.pos..];
            let c = rest.chars().next().expect("not at end");
            let next = rest[c.len_utf8()..].chars().next();
            let ident_next = next.is_some_and(|n| is_ident_start(n) || n == '-');
            if c.is_whitespace() {
                let n = rest
                    .find(|ch: char| !ch.is_whitespace())
                    .unwrap_or(rest.len());
                self.emit(None, self.pos + n);
            } else if rest.starts_with("/*") {
                let end = self.until(self.pos + 2, "*/");
                self.emit(Some("c"), end);
            } else if lang.line_comments.iter().any(|m| rest.starts_with(m)) {
                let end = rest.find('\n').map_or(src.len(), |i| self.pos + i);
                self.emit(Some("c"), end);
            } else if lang.quotes.contains(&c) {
                let end = self.string_end_at(self.pos, c);
                self.emit(Some("s"), end);
            } else if (c == '@' || (c == '$' && lang.dollar_variables)) && ident_next {
                let n = 1 + css_ident_len(&rest[1..]);
                self.emit(Some(if c == '@' { "k" } else { "v" }), self.pos + n);
            } else if c == '{' || c == '}' || c == ';' {
                match c {
                    '{' => depth += 1,
                    '}' => depth = depth.saturating_sub(1),
                    _ => {}
                }
                value = false;
                self.emit(None, self.pos + 1);
            } else if c == '#' && next.is_some_and(|n| n.is_ascii_alphanumeric() || n == '-') {
                let n = 1 + css_ident_len(&rest[1..]);
                self.emit(Some(if value { "n" } else { "t" }), self.pos + n);
            } else if c.is_ascii_digit()
                || ((c == '.' || c == '-') && next.is_some_and(|d| d.is_ascii_digit()) && value)
            {
                // Digits, a fraction and a unit: `12px`, `1.5em`, `-0.5rem`, `50%`.
                let n = 1 + rest[1..]
                    .find(|ch: char| !(ch.is_ascii_alphanumeric() || ch == '.'))
                    .unwrap_or(rest.len() - 1);
                let n = n + usize::from(rest[n..].starts_with('%'));
                self.emit(Some("n"), self.pos + n);
            } else if c == '.' && !value && ident_next {
                let n = 1 + css_ident_len(&rest[1..]);
                self.emit(Some("t"), self.pos + n);
            } else if c == ':' && !value {
                let colons = if rest.starts_with("::") { 2 } else { 1 };
                if depth > 0 && colons == 1 && self.after_property() {
                    value = true;
                    self.emit(None, self.pos + 1);
                } else if rest[colons..].starts_with(|n: char| is_ident_start(n) || n == '-') {
                    let n = colons + css_ident_len(&rest[colons..]);
                    self.emit(Some("a"), self.pos + n);
                } else {
                    self.emit(None, self.pos + colons);
                }
            } else if c == '!' && rest[1..].trim_start().starts_with("important") {
                let n = rest.find("important").expect("checked") + "important".len();
                self.emit(Some("k"), self.pos + n);
            } else if is_ident_start(c) || (c == '-' && ident_next) {
                let n = css_ident_len(rest);
                let after = &rest[n..];
                let class = if after.starts_with('(') {
                    Some("f")
                } else if value {
                    None
                } else if depth > 0 && is_declaration(after) {
                    Some("e")
                } else {
                    Some("g")
                };
                self.emit(class, self.pos + n);
                if class == Some("f") && rest[..n].eq_ignore_ascii_case("url") {
                    // `url(…)` holds an address, not CSS.
                    let close = src[self.pos..]
                        .find([')', '\n'])
                        .unwrap_or(src.len() - self.pos);
                    self.emit(None, self.pos + 1);
                    self.emit(Some("s"), self.pos + close.saturating_sub(1));
                }
            } else {
                self.emit(None, self.pos + c.len_utf8());
            }
        }
    }

    /// Whether the `:` at the position ends a property name (`color:`), not a pseudo-class of a
    /// nested selector (`&:focus {`).
    fn after_property(&self) -> bool {
        let before = self.src[..self.pos].trim_end_matches([' ', '\t']);
        let line = &self.src[self.pos..];
        let line = line.split('\n').next().unwrap_or("");
        before.ends_with(|c: char| is_ident(c) || c == '-') && !line.contains('{')
    }

    /// A unified or context diff: headers, hunk headers, added and removed lines.
    fn diff(&mut self) {
        let src = self.src;
        while self.pos < src.len() {
            let rest = &src[self.pos..];
            let line_end = rest.find('\n').map_or(src.len(), |i| self.pos + i);
            let line = &src[self.pos..line_end];
            let class = if ["+++", "---", "diff ", "index ", "*** "]
                .iter()
                .any(|h| line.starts_with(h))
            {
                Some("k")
            } else if line.starts_with("@@") {
                Some("f")
            } else if line.starts_with('+') || line.starts_with('>') {
                Some("i")
            } else if line.starts_with('-') || line.starts_with('<') {
                Some("d")
            } else if line.starts_with('!') {
                Some("v")
            } else {
                None
            };
            self.emit(class, line_end);
            if line_end < src.len() {
                self.emit(None, line_end + 1);
            }
        }
    }

    /// Markdown: headings, fences, list and quote markers; inline code, emphasis, links.
    fn markdown(&mut self) {
        let src = self.src;
        let mut fence: Option<&str> = None;
        while self.pos < src.len() {
            let rest = &src[self.pos..];
            let line_end = rest.find('\n').map_or(src.len(), |i| self.pos + i);
            let line = &src[self.pos..line_end];
            let indent = line.len() - line.trim_start().len();
            let body = &line[indent..];
            if let Some(marker) = fence {
                let closes = body.starts_with(marker);
                self.emit(closes.then_some("c"), line_end);
                if closes {
                    fence = None;
                }
            } else if body.starts_with("```") || body.starts_with("~~~") {
                fence = Some(&body[..3]);
                self.emit(Some("c"), line_end);
            } else if is_atx_heading(body) {
                self.emit(Some("h"), line_end);
            } else {
                self.emit(None, self.pos + indent);
                let marker = markdown_block_marker(body);
                if marker > 0 {
                    self.emit(Some("k"), self.pos + marker);
                }
                self.markdown_inline(line_end);
            }
            if line_end < src.len() {
                self.emit(None, line_end + 1);
            }
        }
    }

    /// Inline Markdown up to `end`: `code`, **strong**, *emphasis*, [links](address).
    fn markdown_inline(&mut self, end: usize) {
        let src = self.src;
        while self.pos < end {
            let rest = &src[self.pos..end];
            let c = rest.chars().next().expect("not at end");
            if c == '\\' {
                let n = 1 + rest[1..].chars().next().map_or(0, char::len_utf8);
                self.emit(None, self.pos + n);
            } else if c == '`' {
                let ticks = rest.len() - rest.trim_start_matches('`').len();
                let close = rest[ticks..].find(&rest[..ticks]);
                let n = close.map_or(ticks, |i| 2 * ticks + i);
                self.emit(close.map(|_| "s"), self.pos + n);
            } else if rest.starts_with("**") || rest.starts_with("__") {
                let close = rest[2..].find(&rest[..2]).filter(|&i| i > 0);
                let n = close.map_or(2, |i| i + 4);
                self.emit(close.map(|_| "b"), self.pos + n);
            } else if (c == '*' || c == '_')
                && !src[..self.pos].ends_with(|p: char| c == '_' && is_ident(p))
            {
                let close = rest[1..]
                    .find(c)
                    .filter(|&i| i > 0 && !rest[1..].starts_with(' '));
                let n = close.map_or(1, |i| i + 2);
                self.emit(close.map(|_| "m"), self.pos + n);
            } else if c == '[' || rest.starts_with("![") {
                let open = if c == '!' { 2 } else { 1 };
                match rest[open..].find(']') {
                    Some(i) => {
                        let text_end = open + i + 1;
                        self.emit(Some("e"), self.pos + text_end);
                        let after = &src[self.pos..end];
                        if after.starts_with('(')
                            && let Some(j) = after.find(')')
                        {
                            self.emit(Some("s"), self.pos + j + 1);
                        }
                    }
                    None => self.emit(None, self.pos + open),
                }
            } else {
                let n = rest
                    .find(['\\', '`', '*', '_', '[', '!'])
                    .filter(|&i| i > 0)
                    .unwrap_or(c.len_utf8());
                self.emit(None, self.pos + n.min(rest.len()));
            }
        }
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

/// Whether `word` is in a sorted list (lists of any-case languages are lower-case).
fn in_list(list: &[&str], word: &str, any_case: bool) -> bool {
    if any_case && word.bytes().any(|b| b.is_ascii_uppercase()) {
        list.binary_search(&word.to_ascii_lowercase().as_str())
            .is_ok()
    } else {
        list.binary_search(&word).is_ok()
    }
}

/// The length of `#[…]` or `#![…]`, brackets nested, strings skipped.
fn bracket_end(s: &str) -> usize {
    let mut depth = 0usize;
    let mut in_string = false;
    let mut escaped = false;
    for (i, c) in s.char_indices() {
        if in_string {
            match c {
                _ if escaped => escaped = false,
                '\\' => escaped = true,
                '"' => in_string = false,
                _ => {}
            }
            continue;
        }
        match c {
            '"' => in_string = true,
            '[' => depth += 1,
            ']' => {
                depth = depth.saturating_sub(1);
                if depth == 0 {
                    return i + 1;
                }
            }
            '\n' if depth == 0 => return i,
            _ => {}
        }
    }
    s.len()
}

/// The length of a CSS identifier (letters, digits, `-`, `_`).
fn css_ident_len(s: &str) -> usize {
    s.find(|c: char| !(is_ident(c) || c == '-'))
        .unwrap_or(s.len())
}

/// Whether a name followed by `after` is a property: `: value` with no `{` later on the line.
fn is_declaration(after: &str) -> bool {
    let after = after.trim_start_matches([' ', '\t']);
    after.starts_with(':')
        && !after.starts_with("::")
        && !after.split('\n').next().unwrap_or("").contains('{')
}

/// `# Title` to `###### Title`.
fn is_atx_heading(line: &str) -> bool {
    let hashes = line.len() - line.trim_start_matches('#').len();
    (1..=6).contains(&hashes) && (line.len() == hashes || line[hashes..].starts_with([' ', '\t']))
}

/// The length of a list or quote marker at the start of a line (`- `, `* `, `+ `, `1. `, `> `).
fn markdown_block_marker(line: &str) -> usize {
    if line.starts_with("> ") || line == ">" {
        return 1;
    }
    if ["- ", "* ", "+ "].iter().any(|m| line.starts_with(m)) {
        return 1;
    }
    let digits = line.len() - line.trim_start_matches(|c: char| c.is_ascii_digit()).len();
    if (1..=9).contains(&digits)
        && (line[digits..].starts_with(". ") || line[digits..].starts_with(") "))
    {
        return digits + 1;
    }
    0
}

/// A Lua long bracket `[[…]]` or `[==[…]==]` at the start of `s`: its length.
fn long_bracket_len(s: &str) -> Option<usize> {
    let level = s.strip_prefix('[')?;
    let equals = level.len() - level.trim_start_matches('=').len();
    if !level[equals..].starts_with('[') {
        return None;
    }
    let close = format!("]{}]", "=".repeat(equals));
    let body = equals + 2;
    Some(
        s[body..]
            .find(&close)
            .map_or(s.len(), |i| body + i + close.len()),
    )
}

/// A Rust lifetime or loop label `'a` at the start of `s` (not a char literal `'a'`).
fn lifetime_len(s: &str) -> Option<usize> {
    let name = &s[1..];
    if !name.starts_with(is_ident_start) {
        return None;
    }
    let n = name.find(|c: char| !is_ident(c)).unwrap_or(name.len());
    (!name[n..].starts_with('\'')).then_some(1 + n)
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
            &RUST,
            &PYTHON,
            &GO,
            &TYPESCRIPT,
            &PHP,
            &SQL,
            &DOCKERFILE,
            &GRAPHQL,
            &PROTO,
            &TOML,
            &INI,
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

    /// Asserts that `html` holds each `(class, text)` as a span.
    #[track_caller]
    fn has(html: &str, spans: &[(&str, &str)]) {
        for (class, text) in spans {
            let mut escaped = String::new();
            escape_into(&mut escaped, text);
            let span = format!("<span class=\"hl-{class}\">{escaped}</span>");
            assert!(html.contains(&span), "missing {span} in\n{html}");
        }
    }

    #[test]
    fn every_listed_alias_is_known_in_any_case() {
        let aliases = "bash sh shell console zsh c c++ cpp c# csharp cs css diff patch go graphql \
            gql html ini cfg editorconfig java javascript js mjs cjs json jsonc json5 jsx kotlin kt \
            lua markdown md objective-c objc php python py ruby rb rust rs scss sass less sql swift \
            toml tsx typescript ts xml svg yaml yml dockerfile docker groovy gradle dart proto \
            protobuf handlebars hbs text plain txt output";
        for alias in aliases.split_whitespace() {
            assert!(is_known(alias), "{alias}");
            assert!(is_known(&alias.to_uppercase()), "{alias} in capitals");
        }
        assert!(is_known("rust,ignore") && is_known("toml,editable") && is_known(""));
        assert!(!is_known("frobnicate") && !is_known("frobnicate,rust"));
        has(&highlight("fn main() {}", "Rust,ignore"), &[("k", "fn")]);
    }

    #[test]
    fn plain_text_and_output_get_no_colour() {
        for lang in ["text", "plain", "output", ""] {
            assert_eq!(
                highlight("if x < 1 { \"s\" }", lang),
                "if x &lt; 1 { &quot;s&quot; }"
            );
        }
    }

    #[test]
    fn rust_lifetimes_macros_attributes_and_raw_strings() {
        let html = highlight(
            "#[derive(Debug, Default)]\npub struct Page<'a> {\n    title: &'a str,\n}\n\
             fn main() {\n    let c = 'x';\n    println!(\"{}\", r#\"raw \"q\"\"#);\n    \
             'outer: loop { break 'outer; }\n    assert!(a != b);\n}\n",
            "rust",
        );
        has(
            &html,
            &[
                ("a", "#[derive(Debug, Default)]"),
                ("k", "pub"),
                ("k", "struct"),
                ("t", "Page"),
                ("t", "'a"),
                ("s", "'x'"),
                ("f", "println!"),
                ("s", "r#\"raw \"q\"\"#"),
                ("t", "'outer"),
                ("f", "assert!"),
            ],
        );
    }

    #[test]
    fn python_decorators_and_f_strings() {
        let html = highlight(
            "@dataclass\nclass Page:\n    def render(self, out):\n        # write\n        \
             out.write(f\"<h1>{self.title}</h1>\")\n        return rb'\\x00' or None\n",
            "py",
        );
        has(
            &html,
            &[
                ("a", "@dataclass"),
                ("k", "class"),
                ("k", "def"),
                ("f", "render"),
                ("c", "# write"),
                ("s", "f\"<h1>{self.title}</h1>\""),
                ("s", "rb'\\x00'"),
                ("n", "None"),
            ],
        );
    }

    #[test]
    fn go_and_c_family() {
        let go = highlight(
            "package main\n\nimport \"fmt\"\n\nfunc main() {\n\ts := `raw\nline`\n\tfmt.Println(s, nil) // out\n}\n",
            "go",
        );
        has(
            &go,
            &[
                ("k", "package"),
                ("k", "func"),
                ("s", "\"fmt\""),
                ("s", "`raw\nline`"),
                ("f", "Println"),
                ("n", "nil"),
                ("c", "// out"),
            ],
        );
        let c = highlight("#include <stdio.h>\nint main(void) { return 0; }\n", "c");
        has(
            &c,
            &[("a", "#include"), ("k", "int"), ("f", "main"), ("n", "0")],
        );
        let cs = highlight(
            "using System;\npublic class A { string s = \"x\"; }\n",
            "c#",
        );
        has(&cs, &[("k", "using"), ("k", "public"), ("k", "string")]);
        let proto = highlight(
            "syntax = \"proto3\";\nmessage Page {\n  repeated string tags = 1; // t\n}\n",
            "protobuf",
        );
        has(
            &proto,
            &[
                ("k", "syntax"),
                ("k", "message"),
                ("t", "Page"),
                ("k", "repeated"),
                ("c", "// t"),
            ],
        );
    }

    #[test]
    fn typescript_and_jsx_tags() {
        let ts = highlight(
            "export interface Props { readonly id: string }\nconst n: number = 1;\n",
            "ts",
        );
        has(
            &ts,
            &[
                ("k", "interface"),
                ("k", "readonly"),
                ("k", "string"),
                ("k", "number"),
            ],
        );
        let tsx = highlight(
            "function App(): JSX.Element {\n  return <div className=\"a\">{a < b}</div>;\n}\nconst x: Array<T> = [];\n",
            "tsx",
        );
        has(
            &tsx,
            &[
                ("p", "<"),
                ("g", "div"),
                ("s", "\"a\""),
                ("p", "</"),
                ("k", "function"),
            ],
        );
        assert!(!tsx.contains("<span class=\"hl-g\">T</span>"), "{tsx}");
        let jsx = highlight("const el = <Button onClick={go} />;\n", "jsx");
        has(&jsx, &[("g", "Button")]);
    }

    #[test]
    fn php_variables_and_tags() {
        let html = highlight(
            "<?php\n$name = \"x\"; # note\nfunction greet($who) { echo \"hi\"; }\n?>\n",
            "php",
        );
        has(
            &html,
            &[
                ("p", "<?php"),
                ("v", "$name"),
                ("c", "# note"),
                ("k", "function"),
                ("v", "$who"),
                ("k", "echo"),
                ("p", "?>"),
            ],
        );
    }

    #[test]
    fn sql_keywords_in_any_case_and_dockerfile_instructions() {
        let sql = highlight(
            "SELECT id, count(*) FROM pages -- all\nwhere title IS NOT NULL;\n",
            "sql",
        );
        has(
            &sql,
            &[
                ("k", "SELECT"),
                ("k", "FROM"),
                ("k", "where"),
                ("n", "NULL"),
                ("f", "count"),
                ("c", "-- all"),
            ],
        );
        let docker = highlight(
            "FROM rust:1.80 AS build\n# deps\nRUN cargo build --release && echo $HOME\nCOPY . /app\n",
            "Dockerfile",
        );
        has(
            &docker,
            &[
                ("k", "FROM"),
                ("k", "RUN"),
                ("k", "COPY"),
                ("c", "# deps"),
                ("v", "$HOME"),
            ],
        );
        // Instructions count only at the start of a line.
        assert!(
            !docker.contains("<span class=\"hl-k\">build</span>"),
            "{docker}"
        );
    }

    #[test]
    fn graphql_variables_directives_and_types() {
        let html = highlight(
            "query Page($id: ID!) @cached {\n  page(id: $id) { title } # one\n}\n",
            "graphql",
        );
        has(
            &html,
            &[
                ("k", "query"),
                ("v", "$id"),
                ("a", "@cached"),
                ("f", "page"),
                ("c", "# one"),
            ],
        );
    }

    #[test]
    fn toml_and_ini_sections_and_keys() {
        let toml = highlight(
            "[package]\nname = \"docgen\" # the crate\n\"quoted key\" = true\n[[bin]]\npath = 'src/main.rs'\n",
            "toml",
        );
        has(
            &toml,
            &[
                ("g", "[package]"),
                ("e", "name"),
                ("s", "\"docgen\""),
                ("c", "# the crate"),
                ("e", "\"quoted key\""),
                ("n", "true"),
                ("g", "[[bin]]"),
            ],
        );
        let ini = highlight(
            "; comment\n[*.md]\nindent_style = space\ntrim_trailing_whitespace = false\n",
            "editorconfig",
        );
        has(
            &ini,
            &[
                ("c", "; comment"),
                ("g", "[*.md]"),
                ("e", "indent_style"),
                ("n", "false"),
            ],
        );
    }

    #[test]
    fn css_selectors_properties_and_at_rules() {
        let css = highlight(
            "@media (max-width: 600px) {\n  .nav > a:hover, #top {\n    color: #fff !important;\n    margin: -0.5rem 0 50%;\n    background: url(img/a.png);\n  }\n}\n/* end */\n",
            "css",
        );
        has(
            &css,
            &[
                ("k", "@media"),
                ("t", ".nav"),
                ("g", "a"),
                ("a", ":hover"),
                ("t", "#top"),
                ("e", "color"),
                ("n", "#fff"),
                ("k", "!important"),
                ("n", "-0.5rem"),
                ("n", "50%"),
                ("f", "url"),
                ("s", "img/a.png"),
                ("c", "/* end */"),
            ],
        );
        let scss = highlight(
            "$gap: 4px; // var\n.card {\n  padding: $gap;\n  &:focus { outline: none; }\n}\n",
            "scss",
        );
        has(
            &scss,
            &[
                ("v", "$gap"),
                ("c", "// var"),
                ("e", "padding"),
                ("a", ":focus"),
                ("e", "outline"),
            ],
        );
    }

    #[test]
    fn diff_lines() {
        let html = highlight(
            "diff --git a/x b/x\n--- a/x\n+++ b/x\n@@ -1,2 +1,2 @@\n context\n-old\n+new\n",
            "patch",
        );
        has(
            &html,
            &[
                ("k", "diff --git a/x b/x"),
                ("k", "--- a/x"),
                ("k", "+++ b/x"),
                ("f", "@@ -1,2 +1,2 @@"),
                ("d", "-old"),
                ("i", "+new"),
            ],
        );
        assert!(html.contains("\n context\n"), "{html}");
    }

    #[test]
    fn markdown_headings_emphasis_code_and_links() {
        let html = highlight(
            "# Title\n\nSome *em* and **strong** with `code` and snake_case_name.\n\n- [a link](../a.md)\n1. ![img](x.png)\n\n```rust\nlet *x* = 1;\n```\n",
            "md",
        );
        has(
            &html,
            &[
                ("h", "# Title"),
                ("m", "*em*"),
                ("b", "**strong**"),
                ("s", "`code`"),
                ("k", "-"),
                ("e", "[a link]"),
                ("s", "(../a.md)"),
                ("k", "1."),
                ("e", "![img]"),
                ("c", "```rust"),
            ],
        );
        assert!(!html.contains("hl-m\">_case_"), "{html}");
        assert!(
            html.contains("let *x* = 1;"),
            "fenced code stays plain: {html}"
        );
    }

    #[test]
    fn shell_heredocs_lua_long_strings_and_handlebars() {
        let sh = highlight(
            "cat <<'EOF' > out.txt\n$HOME is literal\nEOF\necho done # c\n",
            "zsh",
        );
        has(
            &sh,
            &[
                ("s", "<<'EOF'"),
                ("s", "$HOME is literal\nEOF"),
                ("k", "echo"),
                ("c", "# c"),
            ],
        );
        let lua = highlight(
            "local s = [[long\nstring]] --[==[ long\ncomment ]==]\n-- line\n",
            "lua",
        );
        has(
            &lua,
            &[
                ("k", "local"),
                ("s", "[[long\nstring]]"),
                ("c", "--[==[ long\ncomment ]==]"),
                ("c", "-- line"),
            ],
        );
        let hbs = highlight("<p class=\"x\">{{#if title}}{{title}}{{/if}}</p>\n", "hbs");
        has(
            &hbs,
            &[("g", "p"), ("a", "{{#if title}}"), ("a", "{{title}}")],
        );
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
            (
                "rust",
                "#[a(\"]\")] fn f<'a>(x: &'a str) { m!(r##\"x\"#\"##); '",
            ),
            ("python", "f'{x}' rb\"\\\"\" u"),
            ("css", "a:hover { color: #0f0; -x: -1.5e; } @ $ # . url(x"),
            ("markdown", "# é\n*a **b `c [d](e ![f\n```\nx"),
            ("diff", "+é\n-ü\n@@"),
            ("bash", "cat <<-EOF\n\tbody\n\tEOF\n<<<x <<"),
            ("toml", "[a\nk = \"v\"\n= x\n"),
            ("tsx", "<>x</> a <b <"),
            ("lua", "[==[ x [[ y"),
            ("handlebars", "{{x"),
            ("sql", "SELECT 'é' -- ü"),
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
