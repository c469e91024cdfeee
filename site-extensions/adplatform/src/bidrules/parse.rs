//! The grammar of the rule data: fields (`response.seatbid[].bid[].{w, h}`) and conditions
//! (`present when ext.skadn present`), parsed into the typed expressions of `compiled`. The
//! grammar is documented in the header of the site's `content/data/dsp-rules.yaml`.
//!
//! Every error carries the byte offset in the text it was found at, for a diagnostic that
//! points at the column.

use super::compiled::{BaseType, CmpOp, Expr, Func, JsonType, Literal, Operand, Path, Root, Step};
use super::regex;

/// A mistake in a field or a condition, at a byte offset of its text.
#[derive(Debug, Clone, PartialEq)]
pub struct ParseError {
    pub offset: usize,
    pub message: String,
    pub hint: String,
}

/// A step of a path with the offset of its text, for messages about it.
pub type Placed = (Step, usize);

/// A parsed `field`: a root, the steps every subject shares, and the members of a trailing
/// `{a, b}` (one empty member when there is none).
#[derive(Debug, Clone, PartialEq)]
pub struct Field {
    pub root: Root,
    pub prefix: Vec<Placed>,
    pub members: Vec<Vec<Placed>>,
    /// The members as written, for messages (`w, h`), when there is a group.
    pub group: Option<String>,
}

/// A parsed `condition`: the check, the guard after `when`, and where each path of them was
/// written (in the order `each_path_mut` visits them).
#[derive(Debug, Clone)]
pub struct Condition {
    pub check: Expr,
    pub when: Option<Expr>,
    pub paths: Vec<PathSite>,
}

/// Where a path of a condition was written: the offset of each step (the root's offset
/// first); `implicit` for the `value` a condition starting with a test reads.
#[derive(Debug, Clone)]
pub struct PathSite {
    pub offsets: Vec<usize>,
    pub implicit: bool,
}

const KEYWORDS: &[&str] = &[
    "and", "or", "not", "in", "matches", "contains", "present", "absent", "is", "when", "true",
    "false", "null", "of",
];

pub const FUNCTIONS: &[(&str, Func)] = &[
    ("len", Func::Len),
    ("bytes", Func::Bytes),
    ("number", Func::Number),
    ("seconds", Func::Seconds),
    ("urldecode", Func::Urldecode),
    ("kind", Func::Kind),
    ("macros", Func::Macros),
    ("tier1", Func::Tier1),
];

/// Parses a `field`.
pub fn field(text: &str) -> Result<Field, ParseError> {
    let mut p = Parser::new(text);
    p.skip_ws();
    let start = p.pos;
    let root = match p.word() {
        Some("response") => Root::Response,
        Some("request") => Root::Request,
        Some(other) => {
            return Err(p.error_at(
                start,
                format!("a field starts with `response` or `request`, not `{other}`"),
                "write the path from the top of the bid response (response.seatbid[].bid[].adm) or of the bid request (request.imp[0].video)",
            ));
        }
        None => {
            return Err(p.error_at(
                start,
                "a field starts with `response` or `request`",
                "write the path from the top of the bid response or of the bid request",
            ));
        }
    };
    let mut prefix = Vec::new();
    let mut members = vec![Vec::new()];
    let mut group = None;
    loop {
        if p.eat(".{") {
            let open = p.pos;
            let mut list = Vec::new();
            loop {
                p.skip_ws();
                let steps = p.relative_steps()?;
                list.push(steps);
                p.skip_ws();
                if p.eat(",") {
                    continue;
                }
                if p.eat("}") {
                    break;
                }
                return Err(p.error_here(
                    "expected `,` or `}` in the list of fields",
                    "write the fields of one object as x.{a, b}",
                ));
            }
            group = Some(text[open..p.pos - 1].trim().to_string());
            members = list;
            break;
        }
        match p.step()? {
            Some(s) => prefix.push(s),
            None => break,
        }
    }
    p.skip_ws();
    if !p.at_end() {
        return Err(p.error_here(
            format!("unexpected `{}` in the field", p.rest_word()),
            "a field is one path, such as response.seatbid[].bid[].adomain[0], or x.{a, b} for several fields of one object",
        ));
    }
    Ok(Field {
        root,
        prefix,
        members,
        group,
    })
}

/// Parses a `condition`.
pub fn condition(text: &str) -> Result<Condition, ParseError> {
    let mut p = Parser::new(text);
    let check = p.or()?;
    p.skip_ws();
    let when = if p.keyword("when") {
        Some(p.or()?)
    } else {
        None
    };
    p.skip_ws();
    if !p.at_end() {
        let hint = if p.peek() == Some(',') {
            "join tests with `and` or `or`"
        } else {
            "join tests with `and` or `or`, and put a guard last, after `when`"
        };
        return Err(p.error_here(format!("unexpected `{}`", p.rest_word()), hint));
    }
    Ok(Condition {
        check,
        when,
        paths: p.sites,
    })
}

/// Visits every path of an expression, in the order the parser met them.
pub fn each_path_mut(e: &mut Expr, f: &mut impl FnMut(&mut Path)) {
    match e {
        Expr::And { all } => all.iter_mut().for_each(|e| each_path_mut(e, f)),
        Expr::Or { any } => any.iter_mut().for_each(|e| each_path_mut(e, f)),
        Expr::Not { expr } => each_path_mut(expr, f),
        Expr::Present { of } | Expr::Absent { of } | Expr::Is { of, .. } => operand_paths(of, f),
        Expr::Matches { of, .. } => operand_paths(of, f),
        Expr::Compare { left, right, .. } => {
            operand_paths(left, f);
            operand_paths(right, f);
        }
        Expr::Range { low, of, high, .. } => {
            operand_paths(low, f);
            operand_paths(of, f);
            operand_paths(high, f);
        }
        Expr::In { of, list, .. } => {
            operand_paths(of, f);
            operand_paths(list, f);
        }
        Expr::Contains { of, item } => {
            operand_paths(of, f);
            operand_paths(item, f);
        }
    }
}

fn operand_paths(o: &mut Operand, f: &mut impl FnMut(&mut Path)) {
    match o {
        Operand::Literal { .. } | Operand::List { .. } => {}
        Operand::Path { path } => f(path),
        Operand::Call { arg, .. } => operand_paths(arg, f),
        Operand::Tuple { items } => items.iter_mut().for_each(|o| operand_paths(o, f)),
    }
}

struct Parser<'t> {
    text: &'t str,
    pos: usize,
    sites: Vec<PathSite>,
}

fn is_name_start(c: char) -> bool {
    c.is_ascii_alphabetic() || c == '_'
}

fn is_name_char(c: char) -> bool {
    c.is_ascii_alphanumeric() || c == '_'
}

impl<'t> Parser<'t> {
    fn new(text: &'t str) -> Self {
        Parser {
            text,
            pos: 0,
            sites: Vec::new(),
        }
    }

    fn rest(&self) -> &'t str {
        &self.text[self.pos..]
    }

    fn peek(&self) -> Option<char> {
        self.rest().chars().next()
    }

    fn at_end(&self) -> bool {
        self.pos >= self.text.len()
    }

    fn skip_ws(&mut self) {
        while let Some(c) = self.peek() {
            if !c.is_whitespace() {
                break;
            }
            self.pos += c.len_utf8();
        }
    }

    fn eat(&mut self, s: &str) -> bool {
        if self.rest().starts_with(s) {
            self.pos += s.len();
            true
        } else {
            false
        }
    }

    /// A name at the position (without moving).
    fn peek_name(&self) -> Option<&'t str> {
        let rest = self.rest();
        let first = rest.chars().next()?;
        if !is_name_start(first) {
            return None;
        }
        let end = rest.find(|c: char| !is_name_char(c)).unwrap_or(rest.len());
        Some(&rest[..end])
    }

    /// Reads a name.
    fn word(&mut self) -> Option<&'t str> {
        let w = self.peek_name()?;
        self.pos += w.len();
        Some(w)
    }

    /// The keyword `k` after blanks, read if it is there.
    fn keyword(&mut self, k: &str) -> bool {
        let save = self.pos;
        self.skip_ws();
        if self.peek_name() == Some(k) {
            self.pos += k.len();
            true
        } else {
            self.pos = save;
            false
        }
    }

    /// The next keyword (or name) after blanks, without reading it.
    fn next_word(&self) -> Option<&'t str> {
        let mut p = Parser::new(self.text);
        p.pos = self.pos;
        p.skip_ws();
        p.peek_name()
    }

    /// The name after the next one, without reading either.
    fn word_after_next(&self) -> Option<&'t str> {
        let mut p = Parser::new(self.text);
        p.pos = self.pos;
        p.skip_ws();
        p.word()?;
        p.skip_ws();
        p.peek_name()
    }

    fn rest_word(&self) -> &'t str {
        let rest = self.rest().trim_start();
        let end = rest
            .char_indices()
            .find(|&(i, c)| i > 0 && (c.is_whitespace() || "()[],".contains(c)))
            .map_or(rest.len(), |(i, _)| i);
        &rest[..end.max(rest.chars().next().map_or(0, char::len_utf8))]
    }

    fn error_at(&self, offset: usize, message: impl Into<String>, hint: &str) -> ParseError {
        ParseError {
            offset,
            message: message.into(),
            hint: hint.to_string(),
        }
    }

    fn error_here(&mut self, message: impl Into<String>, hint: &str) -> ParseError {
        self.skip_ws();
        self.error_at(self.pos, message, hint)
    }

    // ---- paths ----

    /// One step after a name: `.name`, `[]`, `[0]`, `[id=1]`, `/Name`, `//Name`, `/@name`.
    /// `None` when the path ends here.
    fn step(&mut self) -> Result<Option<Placed>, ParseError> {
        let at = self.pos;
        if self.rest().starts_with(".{") {
            return Ok(None);
        }
        if self.eat(".") {
            let Some(name) = self.word() else {
                return Err(self.error_at(
                    self.pos,
                    "expected a field name after `.`",
                    "field names are letters, digits and underscores",
                ));
            };
            return Ok(Some((
                Step::Field {
                    name: name.to_string(),
                },
                at + 1,
            )));
        }
        if self.eat("[") {
            self.skip_ws();
            if self.eat("]") {
                return Ok(Some((Step::Each, at)));
            }
            let rest = self.rest();
            if rest.starts_with(|c: char| c.is_ascii_digit()) {
                let end = rest
                    .find(|c: char| !c.is_ascii_digit())
                    .unwrap_or(rest.len());
                let index: u32 = rest[..end].parse().map_err(|_| {
                    self.error_at(self.pos, "this index is too large", "use a small index")
                })?;
                self.pos += end;
                self.skip_ws();
                if !self.eat("]") {
                    return Err(self.error_here("expected `]`", "close the index: a[0]"));
                }
                return Ok(Some((Step::Index { index }, at)));
            }
            let Some(name) = self.word() else {
                return Err(self.error_here(
                    "expected `]`, an index or a field test inside `[...]`",
                    "write a[] for every element, a[0] for the first, a[id=1] for the elements whose id is 1",
                ));
            };
            self.skip_ws();
            if !self.eat("=") {
                return Err(self.error_here(
                    "expected `=` in the element test",
                    "write a[id=1] for the elements whose id is 1",
                ));
            }
            self.skip_ws();
            let value = self.literal()?;
            self.skip_ws();
            if !self.eat("]") {
                return Err(self.error_here("expected `]`", "close the element test: a[id=1]"));
            }
            return Ok(Some((
                Step::Where {
                    field: name.to_string(),
                    equals: value,
                },
                at,
            )));
        }
        if self.rest().starts_with('/') {
            let descendant = self.eat("//");
            if !descendant {
                self.pos += 1;
            }
            let name_at = self.pos;
            if !descendant && self.eat("@") {
                let Some(name) = self.xml_name() else {
                    return Err(self.error_at(
                        self.pos,
                        "expected an attribute name after `/@`",
                        "write /@type for the attribute type",
                    ));
                };
                return Ok(Some((Step::Attribute { name }, name_at + 1)));
            }
            let Some(name) = self.xml_name() else {
                return Err(self.error_at(
                    name_at,
                    "expected an element name after `/`",
                    "write adm/VAST for the root element, adm//MediaFile for elements at any depth, //* for all",
                ));
            };
            let step = if descendant {
                Step::Descendant { name }
            } else {
                Step::Child { name }
            };
            return Ok(Some((step, name_at)));
        }
        Ok(None)
    }

    fn xml_name(&mut self) -> Option<String> {
        if self.eat("*") {
            return Some("*".into());
        }
        let rest = self.rest();
        let first = rest.chars().next()?;
        if !is_name_start(first) {
            return None;
        }
        let end = rest
            .find(|c: char| !(is_name_char(c) || c == '-' || c == '.' || c == ':'))
            .unwrap_or(rest.len());
        self.pos += end;
        Some(rest[..end].to_string())
    }

    /// A path relative to an object: a name and its steps (a member of `x.{a, b}`).
    fn relative_steps(&mut self) -> Result<Vec<Placed>, ParseError> {
        let at = self.pos;
        let Some(name) = self.word() else {
            return Err(self.error_here("expected a field name", "list field names: x.{w, h}"));
        };
        let mut steps = vec![(
            Step::Field {
                name: name.to_string(),
            },
            at,
        )];
        while let Some(s) = self.step()? {
            steps.push(s);
        }
        Ok(steps)
    }

    /// A path in a condition, from its first name (already known to be there).
    fn path(&mut self) -> Result<Operand, ParseError> {
        let at = self.pos;
        let first = self.word().expect("a name");
        let (root, mut steps, mut offsets) = match first {
            "value" => (Root::Value, Vec::new(), vec![at]),
            "request" => (Root::Request, Vec::new(), vec![at]),
            "response" => (Root::Response, Vec::new(), vec![at]),
            name => (
                Root::Context,
                vec![Step::Field {
                    name: name.to_string(),
                }],
                vec![at, at],
            ),
        };
        while let Some((s, o)) = self.step()? {
            steps.push(s);
            offsets.push(o);
        }
        self.sites.push(PathSite {
            offsets,
            implicit: false,
        });
        Ok(Operand::Path {
            path: Path { root, steps },
        })
    }

    // ---- conditions ----

    fn or(&mut self) -> Result<Expr, ParseError> {
        let mut any = vec![self.and()?];
        while self.keyword("or") {
            any.push(self.and()?);
        }
        Ok(if any.len() == 1 {
            any.pop().expect("one")
        } else {
            Expr::Or { any }
        })
    }

    fn and(&mut self) -> Result<Expr, ParseError> {
        let mut all = vec![self.not()?];
        while self.keyword("and") {
            all.push(self.not()?);
        }
        Ok(if all.len() == 1 {
            all.pop().expect("one")
        } else {
            Expr::And { all }
        })
    }

    fn not(&mut self) -> Result<Expr, ParseError> {
        self.skip_ws();
        if self.next_word() == Some("not")
            && !matches!(self.word_after_next(), Some("in" | "matches"))
        {
            self.keyword("not");
            return Ok(Expr::Not {
                expr: Box::new(self.not()?),
            });
        }
        if self.peek() == Some('(') && !self.tuple_ahead() {
            let open = self.pos;
            self.pos += 1;
            let e = self.or()?;
            self.skip_ws();
            if !self.eat(")") {
                return Err(self.error_at(
                    open,
                    "this `(` is not closed",
                    "close the group with `)`",
                ));
            }
            return Ok(e);
        }
        self.test()
    }

    /// Whether the `(` at the position opens a tuple `(a, b)` rather than a group.
    fn tuple_ahead(&self) -> bool {
        let mut depth = 0usize;
        let mut in_string = false;
        let mut escaped = false;
        for c in self.rest().chars() {
            if in_string {
                match (escaped, c) {
                    (true, _) => escaped = false,
                    (false, '\\') => escaped = true,
                    (false, '"') => in_string = false,
                    _ => {}
                }
                continue;
            }
            match c {
                '"' => in_string = true,
                '(' | '[' => depth += 1,
                ')' | ']' => {
                    depth = depth.saturating_sub(1);
                    if depth == 0 {
                        return false;
                    }
                }
                ',' if depth == 1 => return true,
                _ => {}
            }
        }
        false
    }

    /// Whether a test operator or keyword starts at the position (a condition that starts
    /// with one tests `value`).
    fn test_ahead(&self) -> bool {
        let rest = self.rest().trim_start();
        if ["==", "!=", "<", ">"].iter().any(|o| rest.starts_with(o)) {
            return true;
        }
        match self.next_word() {
            Some("present" | "absent" | "in" | "matches" | "contains" | "is") => true,
            Some("not") => matches!(self.word_after_next(), Some("in" | "matches")),
            _ => false,
        }
    }

    fn cmp_op(&mut self) -> Option<CmpOp> {
        let save = self.pos;
        self.skip_ws();
        for (s, op) in [
            ("==", CmpOp::Eq),
            ("!=", CmpOp::Ne),
            ("<=", CmpOp::Le),
            (">=", CmpOp::Ge),
            ("<", CmpOp::Lt),
            (">", CmpOp::Gt),
        ] {
            if self.eat(s) {
                return Some(op);
            }
        }
        self.pos = save;
        None
    }

    fn test(&mut self) -> Result<Expr, ParseError> {
        self.skip_ws();
        let start = self.pos;
        let left = if self.test_ahead() {
            self.sites.push(PathSite {
                offsets: vec![start],
                implicit: true,
            });
            Operand::Path {
                path: Path {
                    root: Root::Value,
                    steps: Vec::new(),
                },
            }
        } else {
            self.operand()?
        };
        if self.keyword("present") {
            return Ok(Expr::Present { of: left });
        }
        if self.keyword("absent") {
            return Ok(Expr::Absent { of: left });
        }
        if let Some(op) = self.cmp_op() {
            let right = self.operand()?;
            let save = self.pos;
            if let Some(op2) = self.cmp_op() {
                let ascending = |o: CmpOp| matches!(o, CmpOp::Lt | CmpOp::Le);
                let descending = |o: CmpOp| matches!(o, CmpOp::Gt | CmpOp::Ge);
                if !(ascending(op) && ascending(op2) || descending(op) && descending(op2)) {
                    self.pos = save;
                    return Err(self.error_here(
                        "a range compares in one direction",
                        "write a range as low <= x <= high (or high >= x >= low)",
                    ));
                }
                let high = self.operand()?;
                return Ok(Expr::Range {
                    low: left,
                    low_op: op,
                    of: right,
                    high_op: op2,
                    high,
                });
            }
            return Ok(Expr::Compare { left, op, right });
        }
        let negated = self.keyword("not");
        if self.keyword("in") {
            self.skip_ws();
            let list = if self.peek() == Some('[') {
                self.list(&left)?
            } else {
                let at = self.pos;
                let o = self.operand()?;
                if !matches!(o, Operand::Path { .. }) {
                    return Err(self.error_at(
                        at,
                        "`in` takes a list [..] or the path of a list",
                        "write in [\"a\", \"b\"] or in request.bcat",
                    ));
                }
                o
            };
            return Ok(Expr::In {
                of: left,
                list,
                negated,
            });
        }
        if self.keyword("matches") {
            self.skip_ws();
            let (pattern, flags) = self.regex()?;
            return Ok(Expr::Matches {
                of: left,
                pattern,
                flags,
                negated,
            });
        }
        if negated {
            return Err(self.error_here(
                "expected `in` or `matches` after `not`",
                "write not in [..] or not matches /../ after a value; not (..) around a whole test",
            ));
        }
        if self.keyword("contains") {
            let item = self.operand()?;
            return Ok(Expr::Contains { of: left, item });
        }
        if self.keyword("is") {
            let ty = self.json_type()?;
            return Ok(Expr::Is { of: left, ty });
        }
        let hint = "a test is `present`, `absent`, a comparison (== != < <= > >=), `in [..]`, `matches /../`, `contains x` or `is <type>`";
        if self.at_end() || self.rest().trim().is_empty() {
            Err(self.error_here("the condition ends before its test", hint))
        } else {
            Err(self.error_here(
                format!("expected a test, found `{}`", self.rest_word()),
                hint,
            ))
        }
    }

    fn json_type(&mut self) -> Result<JsonType, ParseError> {
        self.skip_ws();
        let at = self.pos;
        let base = match self.word() {
            Some("string") => BaseType::String,
            Some("integer") => BaseType::Integer,
            Some("float") => BaseType::Float,
            Some("boolean") => BaseType::Boolean,
            Some("object") => BaseType::Object,
            Some("array") => BaseType::Array,
            _ => {
                return Err(self.error_at(
                    at,
                    "expected a type after `is`",
                    "the types are string, integer, float, boolean, object and array [of <type>]",
                ));
            }
        };
        let items = if base == BaseType::Array && self.keyword("of") {
            Some(Box::new(self.json_type()?))
        } else {
            None
        };
        Ok(JsonType { base, items })
    }

    /// The items of a tuple `(a, b, ..)` at the `(`, each read by `item`.
    fn tuple<T>(
        &mut self,
        item: fn(&mut Self) -> Result<T, ParseError>,
        hint: &str,
    ) -> Result<Vec<T>, ParseError> {
        self.pos += 1;
        let mut items = Vec::new();
        loop {
            items.push(item(self)?);
            self.skip_ws();
            if self.eat(",") {
                continue;
            }
            if self.eat(")") {
                return Ok(items);
            }
            return Err(self.error_here("expected `,` or `)` in the tuple", hint));
        }
    }

    fn operand(&mut self) -> Result<Operand, ParseError> {
        self.skip_ws();
        let at = self.pos;
        match self.peek() {
            Some('(') => {
                let items = self.tuple(Self::operand, "write a tuple as (w, h)")?;
                if items.len() < 2 {
                    return Err(self.error_at(
                        at,
                        "a tuple has two or more values",
                        "write a tuple as (w, h); parentheses around one test group it, around one value are not needed",
                    ));
                }
                Ok(Operand::Tuple { items })
            }
            Some('"') | Some('-') | Some('0'..='9') => Ok(Operand::Literal {
                value: self.literal()?,
            }),
            Some('[') => Err(self.error_here(
                "a list [..] goes after `in`",
                "write x in [..]; to test that a list holds a value, write contains",
            )),
            Some('/') => Err(self.error_here(
                "a regular expression goes after `matches`",
                "write x matches /../",
            )),
            Some(c) if is_name_start(c) => {
                let name = self.peek_name().expect("a name");
                if matches!(name, "true" | "false" | "null") {
                    return Ok(Operand::Literal {
                        value: self.literal()?,
                    });
                }
                if KEYWORDS.contains(&name) {
                    return Err(self.error_here(
                        format!("expected a value, found the keyword `{name}`"),
                        "a test reads a value first: a path (ext.skadn), value, a literal or a function such as len(value)",
                    ));
                }
                let after = &self.rest()[name.len()..];
                if after.trim_start().starts_with('(') {
                    let Some(&(_, func)) = FUNCTIONS.iter().find(|(n, _)| *n == name) else {
                        let names: Vec<&str> = FUNCTIONS.iter().map(|(n, _)| *n).collect();
                        let hint = match docgen::diagnostics::did_you_mean(name, names.iter().copied()) {
                            Some(s) => format!("did you mean `{s}`?"),
                            None => format!("the functions are {}", names.join(", ")),
                        };
                        return Err(ParseError {
                            offset: at,
                            message: format!("unknown function `{name}`"),
                            hint,
                        });
                    };
                    self.pos += name.len();
                    self.skip_ws();
                    self.eat("(");
                    self.skip_ws();
                    if self.eat(")") {
                        return Err(self.error_at(
                            at,
                            format!("`{name}` takes one value"),
                            "write it with its value, such as len(value)",
                        ));
                    }
                    let arg = self.operand()?;
                    self.skip_ws();
                    if !self.eat(")") {
                        return Err(self.error_here(
                            format!("expected `)` after the value of `{name}`"),
                            "functions take one value: len(value)",
                        ));
                    }
                    return Ok(Operand::Call {
                        func,
                        arg: Box::new(arg),
                    });
                }
                self.path()
            }
            None => Err(self.error_here(
                "the condition ends where a value was expected",
                "complete the test with a value",
            )),
            Some(_) => Err(self.error_here(
                format!("expected a value, found `{}`", self.rest_word()),
                "a value is a path (ext.skadn), value, a string in double quotes, a number, true, false or null",
            )),
        }
    }

    fn literal(&mut self) -> Result<Literal, ParseError> {
        self.skip_ws();
        let at = self.pos;
        match self.peek() {
            Some('"') => {
                self.pos += 1;
                let mut s = String::new();
                loop {
                    let Some(c) = self.peek() else {
                        return Err(self.error_at(
                            at,
                            "this string is not closed",
                            "end the string with a double quote",
                        ));
                    };
                    self.pos += c.len_utf8();
                    match c {
                        '"' => break,
                        '\\' => {
                            let Some(e) = self.peek() else { continue };
                            self.pos += e.len_utf8();
                            s.push(e);
                        }
                        c => s.push(c),
                    }
                }
                Ok(Literal::String(s))
            }
            Some('-' | '0'..='9') => {
                let rest = self.rest();
                let end = rest
                    .char_indices()
                    .find(|&(i, c)| !(c.is_ascii_digit() || c == '.' || (i == 0 && c == '-')))
                    .map_or(rest.len(), |(i, _)| i);
                let text = &rest[..end];
                let n: f64 = text.parse().map_err(|_| {
                    self.error_at(at, format!("`{text}` is not a number"), "write numbers as 12, 2.5 or -1")
                })?;
                self.pos += end;
                Ok(Literal::Number(n))
            }
            Some('(') => Ok(Literal::Tuple(
                self.tuple(Self::literal, "write a tuple as (320, 50)")?,
            )),
            _ => match self.word() {
                Some("true") => Ok(Literal::Bool(true)),
                Some("false") => Ok(Literal::Bool(false)),
                Some("null") => Ok(Literal::Null),
                Some(w) => Err(self.error_at(
                    at,
                    format!("expected a literal, found `{w}`"),
                    "strings are written in double quotes: \"video/mp4\"",
                )),
                None => Err(self.error_at(
                    at,
                    format!("expected a literal, found `{}`", self.rest_word()),
                    "a literal is a string in double quotes, a number, true, false, null or a tuple (320, 50)",
                )),
            },
        }
    }

    /// A literal list `[a, b]`, for `left in [..]`: tuples when `left` is one.
    fn list(&mut self, left: &Operand) -> Result<Operand, ParseError> {
        let open = self.pos;
        self.pos += 1;
        let mut items = Vec::new();
        self.skip_ws();
        if !self.eat("]") {
            loop {
                let at = {
                    self.skip_ws();
                    self.pos
                };
                let item = self.literal()?;
                let want = match left {
                    Operand::Tuple { items } => Some(items.len()),
                    _ => None,
                };
                match (&item, want) {
                    (Literal::Tuple(t), Some(n)) if t.len() != n => {
                        return Err(self.error_at(
                            at,
                            format!("this tuple has {} values; the tested one has {n}", t.len()),
                            "give every tuple of the list as many values as the tuple before `in`",
                        ));
                    }
                    (Literal::Tuple(_), None) => {
                        return Err(self.error_at(
                            at,
                            "a tuple in the list of a single value",
                            "test a tuple against tuples: (w, h) in [(320, 50)]",
                        ));
                    }
                    (l, Some(_)) if !matches!(l, Literal::Tuple(_)) => {
                        return Err(self.error_at(
                            at,
                            "the tested value is a tuple; this item is not",
                            "write every item as a tuple: (w, h) in [(320, 50), (300, 250)]",
                        ));
                    }
                    _ => {}
                }
                items.push(item);
                self.skip_ws();
                if self.eat(",") {
                    continue;
                }
                if self.eat("]") {
                    break;
                }
                if self.at_end() {
                    return Err(self.error_at(
                        open,
                        "this list is not closed",
                        "close the list with `]`",
                    ));
                }
                return Err(self.error_here(
                    "expected `,` or `]` in the list",
                    "separate the items of a list with commas",
                ));
            }
        }
        Ok(Operand::List { items })
    }

    /// A regular expression `/.../flags`, checked for JavaScript's syntax.
    fn regex(&mut self) -> Result<(String, String), ParseError> {
        let open = self.pos;
        if !self.eat("/") {
            return Err(self.error_here(
                "expected a regular expression in slashes after `matches`",
                "write matches /^[a-z]+$/ (flags after the closing slash: /../i)",
            ));
        }
        let rest = self.rest();
        let mut in_class = false;
        let mut escaped = false;
        let mut end = None;
        for (i, c) in rest.char_indices() {
            if escaped {
                escaped = false;
                continue;
            }
            match c {
                '\\' => escaped = true,
                '[' => in_class = true,
                ']' => in_class = false,
                '/' if !in_class => {
                    end = Some(i);
                    break;
                }
                _ => {}
            }
        }
        let Some(end) = end else {
            return Err(self.error_at(
                open,
                "this regular expression has no closing `/`",
                "end it with a slash; write a slash inside it as \\/",
            ));
        };
        let pattern = &rest[..end];
        if let Err((at, message)) = regex::check(pattern) {
            return Err(self.error_at(
                self.pos + at,
                format!("invalid regular expression: {message}"),
                regex::hint(&message),
            ));
        }
        self.pos += end + 1;
        let flags_at = self.pos;
        let flags = self.peek_name().unwrap_or("").to_string();
        for (i, f) in flags.char_indices() {
            if !"ims".contains(f) || flags[..i].contains(f) {
                return Err(self.error_at(
                    flags_at + i,
                    format!("the flag `{f}` is not allowed here"),
                    "the flags are i (ignore case), m (multi-line) and s (dot matches newlines), each once",
                ));
            }
        }
        self.pos += flags.len();
        Ok((pattern.to_string(), flags))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn value() -> Operand {
        Operand::Path {
            path: Path {
                root: Root::Value,
                steps: vec![],
            },
        }
    }

    fn ctx(names: &[&str]) -> Operand {
        Operand::Path {
            path: Path {
                root: Root::Context,
                steps: names
                    .iter()
                    .map(|n| Step::Field {
                        name: n.to_string(),
                    })
                    .collect(),
            },
        }
    }

    fn num(n: f64) -> Operand {
        Operand::Literal {
            value: Literal::Number(n),
        }
    }

    #[test]
    fn fields_parse_with_every_kind_of_step() {
        let f = field("response.seatbid[].bid[0].adm.native.assets[id=1].title.text").unwrap();
        assert_eq!(f.root, Root::Response);
        let steps: Vec<Step> = f.prefix.into_iter().map(|(s, _)| s).collect();
        assert_eq!(
            steps,
            vec![
                Step::Field {
                    name: "seatbid".into()
                },
                Step::Each,
                Step::Field { name: "bid".into() },
                Step::Index { index: 0 },
                Step::Field { name: "adm".into() },
                Step::Field {
                    name: "native".into()
                },
                Step::Field {
                    name: "assets".into()
                },
                Step::Where {
                    field: "id".into(),
                    equals: Literal::Number(1.0)
                },
                Step::Field {
                    name: "title".into()
                },
                Step::Field {
                    name: "text".into()
                },
            ]
        );
        assert_eq!(f.members, vec![vec![]]);
        let x = field("response.seatbid[].bid[].adm//Linear/Duration").unwrap();
        let steps: Vec<Step> = x.prefix.into_iter().map(|(s, _)| s).collect();
        assert_eq!(
            steps[5..],
            [
                Step::Descendant {
                    name: "Linear".into()
                },
                Step::Child {
                    name: "Duration".into()
                }
            ]
        );
        let a = field("request.imp[0].x//MediaFile/@type").unwrap();
        assert_eq!(a.root, Root::Request);
        assert_eq!(
            a.prefix.last().unwrap().0,
            Step::Attribute {
                name: "type".into()
            }
        );
    }

    #[test]
    fn a_group_makes_one_member_per_field() {
        let f =
            field("response.seatbid[].bid[].{w, apis[], adm//MediaFile/@apiFramework}").unwrap();
        assert_eq!(f.prefix.len(), 4);
        assert_eq!(f.members.len(), 3);
        assert_eq!(f.members[1][1].0, Step::Each);
        assert_eq!(
            f.group.as_deref(),
            Some("w, apis[], adm//MediaFile/@apiFramework")
        );
    }

    #[test]
    fn bad_fields_are_placed() {
        let e = field("VAST MediaFile").unwrap_err();
        assert_eq!(e.offset, 0);
        assert!(e.message.contains("`VAST`"), "{e:?}");
        let e = field("response.seatbid[.bid").unwrap_err();
        assert_eq!(e.offset, 17, "{e:?}");
        let e = field("response.id extra").unwrap_err();
        assert_eq!(e.offset, 12, "{e:?}");
        assert!(field("response.{w, h").is_err());
    }

    #[test]
    fn a_condition_that_starts_with_a_test_tests_value() {
        let c = condition("== request.id").unwrap();
        assert_eq!(
            c.check,
            Expr::Compare {
                left: value(),
                op: CmpOp::Eq,
                right: Operand::Path {
                    path: Path {
                        root: Root::Request,
                        steps: vec![Step::Field { name: "id".into() }]
                    }
                }
            }
        );
        assert!(c.paths[0].implicit && !c.paths[1].implicit);
        assert!(matches!(
            condition("present").unwrap().check,
            Expr::Present { .. }
        ));
        assert!(matches!(
            condition("not in [1, 2]").unwrap().check,
            Expr::In { negated: true, .. }
        ));
        assert!(matches!(
            condition("not matches /x/").unwrap().check,
            Expr::Matches { negated: true, .. }
        ));
    }

    #[test]
    fn guards_ranges_and_precedence() {
        let c = condition("present when ext.skadn present and kind(adm) == \"html\"").unwrap();
        assert_eq!(c.check, Expr::Present { of: value() });
        let Some(Expr::And { all }) = c.when else {
            panic!("{:?}", c.when)
        };
        assert_eq!(
            all[0],
            Expr::Present {
                of: ctx(&["ext", "skadn"])
            }
        );
        assert_eq!(
            all[1],
            Expr::Compare {
                left: Operand::Call {
                    func: Func::Kind,
                    arg: Box::new(ctx(&["adm"]))
                },
                op: CmpOp::Eq,
                right: Operand::Literal {
                    value: Literal::String("html".into())
                }
            }
        );
        let r = condition("5 <= seconds(value) <= 30").unwrap();
        assert_eq!(
            r.check,
            Expr::Range {
                low: num(5.0),
                low_op: CmpOp::Le,
                of: Operand::Call {
                    func: Func::Seconds,
                    arg: Box::new(value())
                },
                high_op: CmpOp::Le,
                high: num(30.0)
            }
        );
        // and binds tighter than or; a group overrides it.
        let p = condition("a present or b present and c present").unwrap();
        assert!(matches!(&p.check, Expr::Or { any } if matches!(any[1], Expr::And { .. })));
        let g = condition("(a present or b present) and c present").unwrap();
        assert!(matches!(&g.check, Expr::And { all } if matches!(all[0], Expr::Or { .. })));
        let n = condition("not (a present)").unwrap();
        assert!(matches!(n.check, Expr::Not { .. }));
    }

    #[test]
    fn tuples_lists_regexes_and_types() {
        let c = condition("(w, h) in [(320, 50), (300, 250)] when kind(adm) == \"html\"").unwrap();
        let Expr::In { of, list, negated } = c.check else {
            panic!()
        };
        assert!(!negated);
        assert_eq!(
            of,
            Operand::Tuple {
                items: vec![ctx(&["w"]), ctx(&["h"])]
            }
        );
        assert_eq!(
            list,
            Operand::List {
                items: vec![
                    Literal::Tuple(vec![Literal::Number(320.0), Literal::Number(50.0)]),
                    Literal::Tuple(vec![Literal::Number(300.0), Literal::Number(250.0)])
                ]
            }
        );
        let m = condition(r"matches /^[a-z\/]+(x|y)$/i").unwrap();
        assert_eq!(
            m.check,
            Expr::Matches {
                of: value(),
                pattern: r"^[a-z\/]+(x|y)$".into(),
                flags: "i".into(),
                negated: false
            }
        );
        let t = condition("present and is array of string").unwrap();
        let Expr::And { all } = t.check else { panic!() };
        assert_eq!(
            all[1],
            Expr::Is {
                of: value(),
                ty: JsonType {
                    base: BaseType::Array,
                    items: Some(Box::new(JsonType {
                        base: BaseType::String,
                        items: None
                    }))
                }
            }
        );
        let x = condition("value[id=3].img.wmin == 80").unwrap();
        let Expr::Compare {
            left: Operand::Path { path },
            ..
        } = x.check
        else {
            panic!()
        };
        assert_eq!(path.root, Root::Value);
        assert_eq!(path.steps.len(), 3);
        assert_eq!(x.paths[0].offsets, vec![0, 5, 12, 16]);
        let s = condition(r#"not in ["a\"b", -1.5, true, null]"#).unwrap();
        let Expr::In {
            list: Operand::List { items },
            ..
        } = s.check
        else {
            panic!()
        };
        assert_eq!(
            items,
            vec![
                Literal::String("a\"b".into()),
                Literal::Number(-1.5),
                Literal::Bool(true),
                Literal::Null
            ]
        );
    }

    #[test]
    fn mistakes_are_placed_and_explained() {
        let cases = [
            ("len(bytes) <= 4096 extra", 19, "unexpected `extra`"),
            (
                "contains \"IAB9-7\" for card-game apps",
                18,
                "unexpected `for`",
            ),
            ("lenght(value) <= 4", 0, "unknown function `lenght`"),
            ("matches ^[a-z]+$", 8, "regular expression in slashes"),
            ("matches /(ab/", 9, "invalid regular expression"),
            ("matches /(?i)<html/", 9, "invalid regular expression"),
            ("matches /x/g", 11, "flag `g`"),
            ("(w, h) in [(1, 2), (3)]", 19, "the tested one has 2"),
            ("(w, h) in [(1, 2]", 16, "`,` or `)` in the tuple"),
            ("(w, h x) in [(1, 2)]", 6, "`,` or `)` in the tuple"),
            ("1 <= x >= 2", 7, "one direction"),
            ("== ", 3, "ends where a value"),
            ("ext.skadn", 9, "ends before its test"),
            ("x in \"a\"", 5, "`in` takes a list"),
            ("x == \"open", 5, "not closed"),
            ("(a present", 0, "not closed"),
            ("is number", 3, "type after `is`"),
            ("present when", 12, "ends where a value"),
        ];
        for (text, offset, message) in cases {
            let e = condition(text).unwrap_err();
            assert!(e.message.contains(message), "{text}: {e:?}");
            assert_eq!(e.offset, offset, "{text}: {e:?}");
            assert!(!e.hint.is_empty());
        }
    }

    #[test]
    fn paths_are_visited_in_the_order_they_were_written() {
        let mut c = condition("a == b and c in request.d when value//X present").unwrap();
        let mut seen = Vec::new();
        each_path_mut(&mut c.check, &mut |p| seen.push(p.clone()));
        if let Some(w) = &mut c.when {
            each_path_mut(w, &mut |p| seen.push(p.clone()));
        }
        assert_eq!(seen.len(), c.paths.len());
        let roots: Vec<Root> = seen.iter().map(|p| p.root).collect();
        assert_eq!(
            roots,
            [
                Root::Context,
                Root::Context,
                Root::Context,
                Root::Request,
                Root::Value
            ]
        );
        assert_eq!(c.paths[3].offsets[0], 16);
    }
}
