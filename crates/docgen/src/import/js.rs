//! A reader for the literal parts of a JavaScript or TypeScript configuration file
//! (`docusaurus.config.js`, `sidebars.ts`): object and array literals, strings, numbers,
//! booleans, `module.exports =`, `export default`, `const NAME = ...` bindings, `satisfies` and
//! `as` casts, type annotations, comments and trailing commas. Nothing is run. Whatever is not
//! a literal (a call, a spread, a function, an operator, a template with `${}`) is kept as
//! `Value::Opaque` with its text and line, so the caller can list it as not converted.

use std::collections::HashMap;

/// A value of the file, with the line it starts on.
#[derive(Debug, Clone, PartialEq)]
pub struct Node {
    pub value: Value,
    pub line: usize,
}

#[derive(Debug, Clone, PartialEq)]
pub enum Value {
    Null,
    Bool(bool),
    Number(f64),
    Str(String),
    Array(Vec<Node>),
    /// Entries in written order; a spread is an entry with the key `...`.
    Object(Vec<(String, Node)>),
    /// An expression that is not a literal, as written (shortened).
    Opaque(String),
}

impl Node {
    pub fn get(&self, key: &str) -> Option<&Node> {
        match &self.value {
            Value::Object(entries) => entries.iter().find(|(k, _)| k == key).map(|(_, v)| v),
            _ => None,
        }
    }

    pub fn as_str(&self) -> Option<&str> {
        match &self.value {
            Value::Str(s) => Some(s),
            _ => None,
        }
    }

    pub fn str_at(&self, key: &str) -> Option<&str> {
        self.get(key).and_then(Node::as_str)
    }

    pub fn entries(&self) -> &[(String, Node)] {
        match &self.value {
            Value::Object(e) => e,
            _ => &[],
        }
    }

    pub fn items(&self) -> &[Node] {
        match &self.value {
            Value::Array(a) => a,
            _ => &[],
        }
    }

    /// The text of an opaque expression.
    pub fn opaque(&self) -> Option<&str> {
        match &self.value {
            Value::Opaque(t) => Some(t),
            _ => None,
        }
    }
}

/// The exported value of a module: `module.exports = X`, `export default X` (through a
/// `const` binding when X is a name), or an error naming the line that could not be read.
pub fn exported(source: &str) -> Result<Node, (usize, String)> {
    let tokens = tokenize(source)?;
    let mut p = Parser {
        tokens,
        pos: 0,
        bindings: HashMap::new(),
    };
    p.module()
}

#[derive(Debug, Clone, PartialEq)]
enum Tok {
    Ident(String),
    Str(String),
    /// A template literal with `${...}`: not a literal.
    Template(String),
    Num(f64),
    Punct(char),
    /// `...`
    Spread,
    /// `=>`
    Arrow,
}

#[derive(Debug, Clone)]
struct Token {
    tok: Tok,
    line: usize,
    /// Whether a line break comes before it (for statements without semicolons).
    newline_before: bool,
}

fn tokenize(src: &str) -> Result<Vec<Token>, (usize, String)> {
    let chars: Vec<char> = src.chars().collect();
    let mut out = Vec::new();
    let mut i = 0;
    let mut line = 1;
    let mut newline = true;
    while i < chars.len() {
        let c = chars[i];
        let start_line = line;
        match c {
            '\n' => {
                line += 1;
                newline = true;
                i += 1;
                continue;
            }
            c if c.is_whitespace() => {
                i += 1;
                continue;
            }
            '/' if chars.get(i + 1) == Some(&'/') => {
                while i < chars.len() && chars[i] != '\n' {
                    i += 1;
                }
                continue;
            }
            '/' if chars.get(i + 1) == Some(&'*') => {
                i += 2;
                while i < chars.len() && !(chars[i] == '*' && chars.get(i + 1) == Some(&'/')) {
                    if chars[i] == '\n' {
                        line += 1;
                        newline = true;
                    }
                    i += 1;
                }
                if i >= chars.len() {
                    return Err((start_line, "a /* comment is not closed".into()));
                }
                i += 2;
                continue;
            }
            '\'' | '"' | '`' => {
                let quote = c;
                let mut s = String::new();
                let mut interpolated = false;
                i += 1;
                loop {
                    let Some(&ch) = chars.get(i) else {
                        return Err((start_line, "a string is not closed".into()));
                    };
                    i += 1;
                    match ch {
                        ch if ch == quote => break,
                        '\n' if quote != '`' => {
                            return Err((start_line, "a string is not closed on its line".into()));
                        }
                        '\n' => {
                            line += 1;
                            s.push('\n');
                        }
                        '$' if quote == '`' && chars.get(i) == Some(&'{') => {
                            interpolated = true;
                            s.push('$');
                        }
                        '\\' => {
                            let Some(&e) = chars.get(i) else { continue };
                            i += 1;
                            match e {
                                'n' => s.push('\n'),
                                't' => s.push('\t'),
                                'r' => s.push('\r'),
                                '0' => s.push('\0'),
                                'u' => {
                                    let hex: String = if chars.get(i) == Some(&'{') {
                                        let end = chars[i..].iter().position(|&c| c == '}');
                                        let end = end.map(|e| i + e).unwrap_or(i);
                                        let h = chars[i + 1..end].iter().collect();
                                        i = end + 1;
                                        h
                                    } else {
                                        let h = chars[i..(i + 4).min(chars.len())].iter().collect();
                                        i += 4;
                                        h
                                    };
                                    if let Some(ch) =
                                        u32::from_str_radix(&hex, 16).ok().and_then(char::from_u32)
                                    {
                                        s.push(ch);
                                    }
                                }
                                '\n' => line += 1,
                                other => s.push(other),
                            }
                        }
                        other => s.push(other),
                    }
                }
                let tok = if interpolated {
                    Tok::Template(s)
                } else {
                    Tok::Str(s)
                };
                out.push(Token {
                    tok,
                    line: start_line,
                    newline_before: newline,
                });
            }
            c if c.is_ascii_digit()
                || (c == '.' && chars.get(i + 1).is_some_and(|d| d.is_ascii_digit())) =>
            {
                let start = i;
                while i < chars.len()
                    && (chars[i].is_ascii_alphanumeric() || chars[i] == '.' || chars[i] == '_')
                {
                    i += 1;
                }
                let text: String = chars[start..i].iter().filter(|&&c| c != '_').collect();
                let n = text.parse::<f64>().unwrap_or(f64::NAN);
                out.push(Token {
                    tok: Tok::Num(n),
                    line,
                    newline_before: newline,
                });
            }
            c if c.is_alphabetic() || c == '_' || c == '$' => {
                let start = i;
                while i < chars.len()
                    && (chars[i].is_alphanumeric() || chars[i] == '_' || chars[i] == '$')
                {
                    i += 1;
                }
                out.push(Token {
                    tok: Tok::Ident(chars[start..i].iter().collect()),
                    line,
                    newline_before: newline,
                });
            }
            '.' if chars.get(i + 1) == Some(&'.') && chars.get(i + 2) == Some(&'.') => {
                i += 3;
                out.push(Token {
                    tok: Tok::Spread,
                    line,
                    newline_before: newline,
                });
            }
            '=' if chars.get(i + 1) == Some(&'>') => {
                i += 2;
                out.push(Token {
                    tok: Tok::Arrow,
                    line,
                    newline_before: newline,
                });
            }
            other => {
                i += 1;
                out.push(Token {
                    tok: Tok::Punct(other),
                    line,
                    newline_before: newline,
                });
            }
        }
        newline = false;
    }
    Ok(out)
}

struct Parser {
    tokens: Vec<Token>,
    pos: usize,
    bindings: HashMap<String, Node>,
}

const STATEMENT_STARTS: &[&str] = &[
    "const",
    "let",
    "var",
    "module",
    "export",
    "import",
    "function",
    "async",
    "type",
    "interface",
];

impl Parser {
    fn peek(&self) -> Option<&Tok> {
        self.tokens.get(self.pos).map(|t| &t.tok)
    }

    fn peek_at(&self, n: usize) -> Option<&Tok> {
        self.tokens.get(self.pos + n).map(|t| &t.tok)
    }

    fn line(&self) -> usize {
        self.tokens
            .get(self.pos)
            .or(self.tokens.last())
            .map_or(1, |t| t.line)
    }

    fn is_ident(&self, name: &str) -> bool {
        matches!(self.peek(), Some(Tok::Ident(i)) if i == name)
    }

    fn is_punct(&self, c: char) -> bool {
        self.peek() == Some(&Tok::Punct(c))
    }

    fn eat_punct(&mut self, c: char) -> bool {
        if self.is_punct(c) {
            self.pos += 1;
            true
        } else {
            false
        }
    }

    fn module(&mut self) -> Result<Node, (usize, String)> {
        let mut exported: Option<Node> = None;
        while self.pos < self.tokens.len() {
            let line = self.line();
            if self.is_ident("module")
                && self.peek_at(1) == Some(&Tok::Punct('.'))
                && matches!(self.peek_at(2), Some(Tok::Ident(e)) if e == "exports")
                && self.peek_at(3) == Some(&Tok::Punct('='))
            {
                self.pos += 4;
                exported = Some(self.export_value()?);
            } else if self.is_ident("export")
                && matches!(self.peek_at(1), Some(Tok::Ident(d)) if d == "default")
            {
                self.pos += 2;
                exported = Some(self.export_value()?);
            } else if (self.is_ident("const") || self.is_ident("let") || self.is_ident("var"))
                && matches!(self.peek_at(1), Some(Tok::Ident(_)))
            {
                self.pos += 1;
                let Some(Tok::Ident(name)) = self.peek().cloned() else {
                    unreachable!("checked above")
                };
                self.pos += 1;
                if self.eat_punct(':') {
                    self.skip_type();
                }
                if self.eat_punct('=') {
                    let value = self.expression()?;
                    self.bindings.insert(name, value);
                } else {
                    self.skip_statement(line);
                }
            } else {
                // `import ...`, `require(...)` at the top, type declarations: not values.
                self.skip_statement(line);
            }
            self.eat_punct(';');
        }
        exported.ok_or((
            1,
            "no `module.exports =` or `export default` found".to_string(),
        ))
    }

    fn export_value(&mut self) -> Result<Node, (usize, String)> {
        let value = self.expression()?;
        match &value.value {
            Value::Opaque(name) if self.bindings.contains_key(name) => {
                Ok(self.bindings[name].clone())
            }
            _ => Ok(value),
        }
    }

    /// Skips to the end of a statement: a `;` at depth 0, or a line starting a new statement.
    fn skip_statement(&mut self, _line: usize) {
        let mut depth = 0usize;
        let start = self.pos;
        while let Some(t) = self.tokens.get(self.pos) {
            if depth == 0 && self.pos > start {
                if t.tok == Tok::Punct(';') {
                    return;
                }
                if t.newline_before
                    && matches!(&t.tok, Tok::Ident(i) if STATEMENT_STARTS.contains(&i.as_str()))
                {
                    return;
                }
            }
            match t.tok {
                Tok::Punct('(' | '[' | '{') => depth += 1,
                Tok::Punct(')' | ']' | '}') => depth = depth.saturating_sub(1),
                _ => {}
            }
            self.pos += 1;
        }
    }

    /// Skips a type annotation up to `=` at depth 0.
    fn skip_type(&mut self) {
        let mut depth = 0usize;
        while let Some(t) = self.peek() {
            match t {
                Tok::Punct('=') if depth == 0 => return,
                Tok::Punct('(' | '[' | '{' | '<') => depth += 1,
                Tok::Punct(')' | ']' | '}' | '>') => depth = depth.saturating_sub(1),
                _ => {}
            }
            self.pos += 1;
        }
    }

    /// A value, then any `satisfies T` / `as T` casts. Anything that continues the expression
    /// (an operator, a call) turns it into an opaque value.
    fn expression(&mut self) -> Result<Node, (usize, String)> {
        let start = self.pos;
        let line = self.line();
        let mut node = self.primary()?;
        loop {
            if self.is_ident("satisfies") || self.is_ident("as") {
                self.pos += 1;
                self.skip_cast_type();
                continue;
            }
            break;
        }
        if self.continues_expression() {
            self.pos = start;
            self.skip_operand();
            node = Node {
                value: Value::Opaque(self.text(start, self.pos)),
                line,
            };
        }
        Ok(node)
    }

    fn continues_expression(&self) -> bool {
        let Some(t) = self.tokens.get(self.pos) else {
            return false;
        };
        match &t.tok {
            Tok::Punct(',' | ']' | '}' | ')' | ';') => false,
            // A new statement on the next line (no semicolons).
            Tok::Ident(i) if t.newline_before && STATEMENT_STARTS.contains(&i.as_str()) => false,
            _ => {
                !t.newline_before || matches!(t.tok, Tok::Punct('.' | '(' | '+' | '?' | '|' | '&'))
            }
        }
    }

    /// Skips a cast's type: names, `.`, `<...>`, `[]`.
    fn skip_cast_type(&mut self) {
        let mut depth = 0usize;
        while let Some(t) = self.peek() {
            match t {
                Tok::Punct('<') => depth += 1,
                Tok::Punct('>') => depth = depth.saturating_sub(1),
                Tok::Ident(_) | Tok::Punct('.' | '[' | ']' | '|') => {}
                _ if depth > 0 => {}
                _ => return,
            }
            self.pos += 1;
        }
    }

    /// Skips one operand of a list or object: up to `,` or a closing bracket at depth 0.
    fn skip_operand(&mut self) {
        let mut depth = 0usize;
        while let Some(t) = self.tokens.get(self.pos) {
            match t.tok {
                Tok::Punct(',' | ';') if depth == 0 => return,
                Tok::Punct(')' | ']' | '}') if depth == 0 => return,
                Tok::Ident(ref i)
                    if depth == 0 && t.newline_before && STATEMENT_STARTS.contains(&i.as_str()) =>
                {
                    return;
                }
                Tok::Punct('(' | '[' | '{') => depth += 1,
                Tok::Punct(')' | ']' | '}') => depth -= 1,
                _ => {}
            }
            self.pos += 1;
        }
    }

    /// The source-like text of tokens `from..to`, shortened for messages.
    fn text(&self, from: usize, to: usize) -> String {
        let mut s = String::new();
        for t in &self.tokens[from..to] {
            let piece = match &t.tok {
                Tok::Ident(i) => i.clone(),
                Tok::Str(v) => format!("'{v}'"),
                Tok::Template(v) => format!("`{v}`"),
                Tok::Num(n) => n.to_string(),
                Tok::Punct(c) => c.to_string(),
                Tok::Spread => "...".into(),
                Tok::Arrow => "=>".into(),
            };
            let glue = matches!(t.tok, Tok::Punct('.' | '(' | ')' | ',' | '[' | ']'))
                || s.ends_with(['.', '(', '['])
                || s.is_empty();
            if !glue {
                s.push(' ');
            }
            s.push_str(&piece);
            if s.chars().count() > 60 {
                let cut: String = s.chars().take(57).collect();
                return format!("{cut}...");
            }
        }
        s
    }

    fn primary(&mut self) -> Result<Node, (usize, String)> {
        let line = self.line();
        let Some(tok) = self.peek().cloned() else {
            return Err((line, "the file ends where a value was expected".into()));
        };
        let value = match tok {
            Tok::Punct('{') => {
                self.pos += 1;
                return self.object(line);
            }
            Tok::Punct('[') => {
                self.pos += 1;
                return self.array(line);
            }
            Tok::Punct('(') => {
                // `({...})`: the value inside, unless it is an arrow function's parameters.
                let start = self.pos;
                self.pos += 1;
                if let Ok(inner) = self.expression()
                    && self.eat_punct(')')
                    && self.peek() != Some(&Tok::Arrow)
                {
                    return Ok(Node { line, ..inner });
                }
                self.pos = start;
                self.skip_operand();
                Value::Opaque(self.text(start, self.pos))
            }
            Tok::Str(s) => {
                self.pos += 1;
                Value::Str(s)
            }
            Tok::Num(n) => {
                self.pos += 1;
                Value::Number(n)
            }
            Tok::Punct('-') if matches!(self.peek_at(1), Some(Tok::Num(_))) => {
                let Some(Tok::Num(n)) = self.peek_at(1).cloned() else {
                    unreachable!("checked above")
                };
                self.pos += 2;
                Value::Number(-n)
            }
            Tok::Ident(name) if name == "true" || name == "false" => {
                self.pos += 1;
                Value::Bool(name == "true")
            }
            Tok::Ident(name) if name == "null" || name == "undefined" => {
                self.pos += 1;
                Value::Null
            }
            Tok::Ident(name)
                if self.bindings.contains_key(&name) && !self.next_continues_name() =>
            {
                self.pos += 1;
                return Ok(Node {
                    line,
                    ..self.bindings[&name].clone()
                });
            }
            _ => {
                let start = self.pos;
                self.skip_operand();
                if self.pos == start {
                    return Err((line, "a value was expected here".into()));
                }
                Value::Opaque(self.text(start, self.pos))
            }
        };
        Ok(Node { value, line })
    }

    fn next_continues_name(&self) -> bool {
        matches!(self.peek_at(1), Some(Tok::Punct('.' | '(' | '[')))
    }

    fn object(&mut self, line: usize) -> Result<Node, (usize, String)> {
        let mut entries = Vec::new();
        loop {
            if self.eat_punct('}') {
                break;
            }
            let entry_line = self.line();
            let key = match self.peek().cloned() {
                None => return Err((line, "an object is not closed".into())),
                Some(Tok::Spread) => {
                    let start = self.pos;
                    self.pos += 1;
                    self.skip_operand();
                    entries.push((
                        "...".to_string(),
                        Node {
                            value: Value::Opaque(self.text(start, self.pos)),
                            line: entry_line,
                        },
                    ));
                    self.expect_separator('}', line)?;
                    continue;
                }
                Some(Tok::Ident(k)) | Some(Tok::Str(k)) => {
                    self.pos += 1;
                    k
                }
                Some(Tok::Num(n)) => {
                    self.pos += 1;
                    n.to_string()
                }
                Some(_) => {
                    // A computed key `[x]: ...` or anything else: kept as an opaque entry.
                    let start = self.pos;
                    self.skip_operand();
                    let text = self.text(start, self.pos);
                    entries.push((
                        text.clone(),
                        Node {
                            value: Value::Opaque(text),
                            line: entry_line,
                        },
                    ));
                    self.expect_separator('}', line)?;
                    continue;
                }
            };
            if self.eat_punct(':') {
                let value = self.expression()?;
                entries.push((key, value));
            } else if self.is_punct(',') || self.is_punct('}') {
                // Shorthand `{ name }`: the binding's value when it is known.
                let value = self.bindings.get(&key).cloned().unwrap_or(Node {
                    value: Value::Opaque(key.clone()),
                    line: entry_line,
                });
                entries.push((key, value));
            } else {
                // A method `name() {...}`, a getter: not a literal.
                let start = self.pos - 1;
                self.skip_operand();
                entries.push((
                    key,
                    Node {
                        value: Value::Opaque(self.text(start, self.pos)),
                        line: entry_line,
                    },
                ));
            }
            self.expect_separator('}', line)?;
        }
        Ok(Node {
            value: Value::Object(entries),
            line,
        })
    }

    fn array(&mut self, line: usize) -> Result<Node, (usize, String)> {
        let mut items = Vec::new();
        loop {
            if self.eat_punct(']') {
                break;
            }
            if self.peek().is_none() {
                return Err((line, "an array is not closed".into()));
            }
            let item_line = self.line();
            if self.peek() == Some(&Tok::Spread) {
                let start = self.pos;
                self.pos += 1;
                self.skip_operand();
                items.push(Node {
                    value: Value::Opaque(self.text(start, self.pos)),
                    line: item_line,
                });
            } else {
                items.push(self.expression()?);
            }
            self.expect_separator(']', line)?;
        }
        Ok(Node {
            value: Value::Array(items),
            line,
        })
    }

    fn expect_separator(&mut self, close: char, open_line: usize) -> Result<(), (usize, String)> {
        if self.eat_punct(',') || self.is_punct(close) {
            return Ok(());
        }
        match self.peek() {
            None => Err((
                open_line,
                format!("a bracket opened here is not closed by `{close}`"),
            )),
            Some(_) => Err((self.line(), format!("`,` or `{close}` expected here"))),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read(src: &str) -> Node {
        exported(src).unwrap_or_else(|e| panic!("{e:?}"))
    }

    #[test]
    fn reads_module_exports_with_comments_and_trailing_commas() {
        let n = read(
            "// @ts-check\n/** @type {import('x').Config} */\nmodule.exports = {\n  title: 'My Site', // the title\n  count: 3,\n  list: [\"a\", `b`,],\n  nested: {on: true, off: false, none: null,},\n};\n",
        );
        assert_eq!(n.str_at("title"), Some("My Site"));
        assert_eq!(n.get("count").unwrap().value, Value::Number(3.0));
        assert_eq!(n.get("list").unwrap().items().len(), 2);
        assert_eq!(
            n.get("nested").unwrap().get("on").unwrap().value,
            Value::Bool(true)
        );
        assert_eq!(n.get("list").unwrap().line, 6);
    }

    #[test]
    fn reads_export_default_through_a_binding_with_types_and_satisfies() {
        let n = read(
            "import type {Config} from '@docusaurus/types';\nimport {themes as prismThemes} from 'prism-react-renderer';\n\nconst config: Config = {\n  title: 'T',\n  'quoted-key': 1,\n} satisfies Config;\n\nexport default config;\n",
        );
        assert_eq!(n.str_at("title"), Some("T"));
        assert!(n.get("quoted-key").is_some());
    }

    #[test]
    fn calls_spreads_and_templates_are_opaque_with_their_line() {
        let n = read(
            "const shared = require('./shared');\nmodule.exports = {\n  a: require('x'),\n  ...shared,\n  b: `v${1}`,\n  c: 'x' + 'y',\n  d: () => 1,\n  e: process.env.URL,\n  f() { return 1 },\n  g: [...more, 'z'],\n  h: 2,\n};\n",
        );
        let opaque = |k: &str| n.get(k).unwrap().opaque().map(str::to_string);
        assert_eq!(opaque("a").as_deref(), Some("require('x')"));
        assert_eq!(n.get("...").unwrap().line, 4);
        assert!(opaque("b").is_some());
        assert!(opaque("c").is_some());
        assert!(opaque("d").is_some());
        assert!(opaque("e").unwrap().contains("process.env"));
        assert!(opaque("f").is_some());
        assert!(n.get("g").unwrap().items()[0].opaque().is_some());
        assert_eq!(n.get("h").unwrap().value, Value::Number(2.0));
    }

    #[test]
    fn parentheses_hold_a_value_unless_they_are_parameters() {
        let n = read("module.exports = {a: ({b: 1}), c: (x) => x, d: () => 2};\n");
        assert!(n.get("a").unwrap().get("b").is_some());
        assert!(n.get("c").unwrap().opaque().is_some());
        assert!(n.get("d").unwrap().opaque().is_some());
    }

    #[test]
    fn statements_without_semicolons() {
        let n = read("const a = 'x'\nconst b = {k: a}\nmodule.exports = b\n");
        assert_eq!(n.get("k").unwrap().as_str(), Some("x"));
    }

    #[test]
    fn errors_name_the_line() {
        assert_eq!(
            exported("module.exports = {\n  a: 1\n  b: 2\n}")
                .unwrap_err()
                .0,
            3
        );
        assert_eq!(
            exported("module.exports = {\n  a: 'x,\n}").unwrap_err().0,
            2
        );
        assert_eq!(exported("const a = 1;\n").unwrap_err().0, 1);
    }
}
