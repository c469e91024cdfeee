//! The compiled rules: the shape of `_docgen/bid-rules.json`, the contract between docgen
//! (which compiles the rule data into it) and every evaluator of it — the testing page's
//! validator (`frontend/src/validator/engine.ts`, whose types are generated from these structs)
//! and a buyer's own CI. `FORMAT` changes whenever this shape does.

use serde::Serialize;
use ts_rs::TS;

/// The version of the document's shape and of the meaning of its expressions.
pub const FORMAT: u32 = 2;

/// `_docgen/bid-rules.json`.
#[derive(Debug, Clone, Serialize, TS)]
pub struct BidRules {
    /// The shape of this document (`FORMAT`); an evaluator refuses any other.
    pub format: u32,
    /// A digest of the rules and examples: it changes whenever one of them does.
    pub version: String,
    /// Every check, in the order of the rule data: the specification's rules, then the
    /// field tables' required flags and types.
    pub rules: Vec<CompiledRule>,
    /// Example requests and responses (each response passes every rule against its request).
    pub examples: Vec<BidExample>,
}

/// One check over one message.
#[derive(Debug, Clone, Serialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct CompiledRule {
    /// The rule's id (`basics-10`), or `<object>.<field>` for a field table's row
    /// (`bid.price`), or `native-asset.<id>` for a required native asset.
    pub id: String,
    pub origin: Origin,
    pub severity: Severity,
    /// The requirement, as the documentation states it.
    pub text: String,
    /// What a finding says about the value, as a sentence (`price must be a number`).
    pub problem: String,
    /// How to put it right (`send 2.35, not "2.35"`).
    pub fix: String,
    /// The route and anchor of the rule's row in the documentation (without the base path).
    pub href: String,
    /// The message whose fields the rule checks.
    pub message: Message,
    /// The field and the condition as written in the data (for people).
    pub field: String,
    pub condition: String,
    /// The paths the condition is checked at: one, or one per member of `x.{a, b}`.
    pub subjects: Vec<Path>,
    /// How many leading steps of a subject lead to the element that names in the condition
    /// are read from (`Root::Context`): up to the innermost `[]` before any `{...}`.
    pub context_steps: u32,
    pub check: Expr,
    /// The rule applies only where this holds.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub when: Option<Expr>,
    /// The condition reads `value`: it is checked at each subject. Otherwise once per
    /// context element, and reported at the context with the members' names.
    pub per_subject: bool,
    /// The rule cannot fail without the bid request (it checks the request, its guard cannot
    /// hold without it, or every way its check can fail reads it): without one, the rule is not applied.
    pub needs_request: bool,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, TS)]
#[serde(rename_all = "lowercase")]
pub enum Origin {
    /// A rule of `dsp-rules.yaml`.
    Rule,
    /// A field table's required flag and type.
    Field,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, serde::Deserialize, TS)]
#[serde(rename_all = "lowercase")]
pub enum Severity {
    /// The exchange rejects or invalidates the bid.
    Error,
    /// The exchange ignores the value, or the bid works less well.
    Warning,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, TS)]
#[serde(rename_all = "lowercase")]
pub enum Message {
    Response,
    Request,
}

/// A path from a root through fields, list elements, JSON held in strings and XML.
#[derive(Debug, Clone, PartialEq, Serialize, TS)]
pub struct Path {
    pub root: Root,
    pub steps: Vec<Step>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, TS)]
#[serde(rename_all = "lowercase")]
pub enum Root {
    /// The top of the bid response.
    Response,
    /// The top of the bid request.
    Request,
    /// The element the rule's subject sits in (`CompiledRule::context_steps`).
    Context,
    /// The subject's own value.
    Value,
}

#[derive(Debug, Clone, PartialEq, Serialize, TS)]
#[serde(tag = "step", rename_all = "camelCase")]
pub enum Step {
    /// A field of an object.
    Field { name: String },
    /// One element of a list.
    Index { index: u32 },
    /// Every element of a list.
    Each,
    /// The elements of a list whose field equals a literal (when none does, the path
    /// names the missing element).
    Where { field: String, equals: Literal },
    /// The JSON text held in a string, parsed.
    Json,
    /// XML held in a string (or an element): its child elements of this name (`*`: all).
    Child { name: String },
    /// Its descendant elements of this name, at any depth (`*`: all).
    Descendant { name: String },
    /// An attribute of an element.
    Attribute { name: String },
}

/// A condition. Tests give true, false or unknown (a missing operand, an absent request);
/// a rule fails only where its check is false, and applies only where `when` is true.
#[derive(Debug, Clone, PartialEq, Serialize, TS)]
#[serde(tag = "test", rename_all = "camelCase")]
pub enum Expr {
    And {
        all: Vec<Expr>,
    },
    Or {
        any: Vec<Expr>,
    },
    Not {
        expr: Box<Expr>,
    },
    Present {
        of: Operand,
    },
    Absent {
        of: Operand,
    },
    Compare {
        left: Operand,
        op: CmpOp,
        right: Operand,
    },
    /// `low low_op of high_op high`, e.g. `5 <= seconds(value) <= 30`.
    Range {
        low: Operand,
        #[serde(rename = "lowOp")]
        #[ts(rename = "lowOp")]
        low_op: CmpOp,
        of: Operand,
        #[serde(rename = "highOp")]
        #[ts(rename = "highOp")]
        high_op: CmpOp,
        high: Operand,
    },
    In {
        of: Operand,
        list: Operand,
        negated: bool,
    },
    /// A JavaScript regular expression.
    Matches {
        of: Operand,
        pattern: String,
        flags: String,
        negated: bool,
    },
    /// A list holds the item, or a string holds it.
    Contains {
        of: Operand,
        item: Operand,
    },
    Is {
        of: Operand,
        #[serde(rename = "type")]
        #[ts(rename = "type")]
        ty: JsonType,
    },
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, TS)]
pub enum CmpOp {
    #[serde(rename = "==")]
    #[ts(rename = "==")]
    Eq,
    #[serde(rename = "!=")]
    #[ts(rename = "!=")]
    Ne,
    #[serde(rename = "<")]
    #[ts(rename = "<")]
    Lt,
    #[serde(rename = "<=")]
    #[ts(rename = "<=")]
    Le,
    #[serde(rename = ">")]
    #[ts(rename = ">")]
    Gt,
    #[serde(rename = ">=")]
    #[ts(rename = ">=")]
    Ge,
}

#[derive(Debug, Clone, PartialEq, Serialize, TS)]
#[serde(tag = "kind", rename_all = "camelCase")]
pub enum Operand {
    Literal { value: Literal },
    List { items: Vec<Literal> },
    Path { path: Path },
    Call { func: Func, arg: Box<Operand> },
    Tuple { items: Vec<Operand> },
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, TS)]
#[serde(rename_all = "lowercase")]
pub enum Func {
    /// Characters of a string, items of a list.
    Len,
    /// UTF-8 bytes of a string; of the whole message as given, for the top of a message.
    Bytes,
    /// A number, or a string holding one.
    Number,
    /// Seconds of a VAST duration `HH:MM:SS(.mmm)`.
    Seconds,
    /// A URL-encoded string decoded (`+` as a space); as it is when it does not decode.
    Urldecode,
    /// What a markup string is: `vast`, `native`, `html`, or `none` when empty or missing.
    Kind,
    /// The macro-like tokens written in a string: every `${...}`, and every `AUCTION_...`
    /// in any case and wrapping, also when URL-encoded (`%24%7B...%7D`).
    Macros,
    /// The tier-1 IAB category of a category: `IAB7` for `IAB7-1` and for `IAB7`; a block
    /// list entry of a tier-1 category covers its subcategories.
    Tier1,
}

/// A literal: a string, a number, a boolean, null, or a tuple of literals.
#[derive(Debug, Clone, PartialEq, Serialize, TS)]
#[serde(untagged)]
pub enum Literal {
    Null,
    Bool(bool),
    Number(f64),
    String(String),
    Tuple(Vec<Literal>),
}

/// A JSON type of the field tables.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, TS)]
pub struct JsonType {
    pub base: BaseType,
    /// The type of a list's items.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub items: Option<Box<JsonType>>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, TS)]
#[serde(rename_all = "lowercase")]
pub enum BaseType {
    String,
    /// A number without a fraction.
    Integer,
    /// Any number.
    Float,
    Boolean,
    Object,
    Array,
}

/// An example request and the response that answers it.
#[derive(Debug, Clone, Serialize, TS)]
pub struct BidExample {
    pub id: String,
    /// The button that loads it.
    pub label: String,
    /// Its heading on the documentation pages.
    pub title: String,
    /// The JSON texts as the pages show them.
    pub request: String,
    pub response: String,
}

impl JsonType {
    pub fn text(&self) -> String {
        let base = match self.base {
            BaseType::String => "string",
            BaseType::Integer => "integer",
            BaseType::Float => "float",
            BaseType::Boolean => "boolean",
            BaseType::Object => "object",
            BaseType::Array => "array",
        };
        match &self.items {
            Some(items) => format!("{base} of {}", items.text()),
            None => base.to_string(),
        }
    }
}

impl Expr {
    /// Whether the expression reads a root (`Root::Value` for `per_subject`, `Root::Request`).
    pub fn reads(&self, root: Root) -> bool {
        match self {
            Expr::And { all } => all.iter().any(|e| e.reads(root)),
            Expr::Or { any } => any.iter().any(|e| e.reads(root)),
            Expr::Not { expr } => expr.reads(root),
            Expr::Present { of } | Expr::Absent { of } | Expr::Is { of, .. } => of.reads(root),
            Expr::Matches { of, .. } => of.reads(root),
            Expr::Compare { left, right, .. } => left.reads(root) || right.reads(root),
            Expr::Range { low, of, high, .. } => {
                low.reads(root) || of.reads(root) || high.reads(root)
            }
            Expr::In { of, list, .. } => of.reads(root) || list.reads(root),
            Expr::Contains { of, item } => of.reads(root) || item.reads(root),
        }
    }
}

impl Expr {
    /// Whether the expression cannot be false without the request: a test that reads it, an
    /// `and` all of whose parts need it, an `or` one of whose parts does.
    pub fn needs_request(&self) -> bool {
        match self {
            Expr::And { all } => all.iter().all(Expr::needs_request),
            Expr::Or { any } => any.iter().any(Expr::needs_request),
            Expr::Not { expr } => expr.holds_only_with_request(),
            leaf => leaf.reads(Root::Request),
        }
    }

    /// Whether the expression cannot be true without the request (a guard that is unknown
    /// without it): a test that reads it, an `and` one of whose parts needs it, an `or` all
    /// of whose parts do.
    pub fn holds_only_with_request(&self) -> bool {
        match self {
            Expr::And { all } => all.iter().any(Expr::holds_only_with_request),
            Expr::Or { any } => any.iter().all(Expr::holds_only_with_request),
            Expr::Not { expr } => expr.needs_request(),
            leaf => leaf.reads(Root::Request),
        }
    }
}

impl Operand {
    pub fn reads(&self, root: Root) -> bool {
        match self {
            Operand::Literal { .. } | Operand::List { .. } => false,
            Operand::Path { path } => path.root == root,
            Operand::Call { arg, .. } => arg.reads(root),
            Operand::Tuple { items } => items.iter().any(|o| o.reads(root)),
        }
    }
}
