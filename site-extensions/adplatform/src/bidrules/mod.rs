//! The executable bidding specification: the rules of the bidding specification
//! (`content/data/dsp-rules.yaml`: each rule's `field` and `condition`) and the bid response's
//! field tables (each field's type and required flag), compiled at build time into typed
//! checks and published as `_docgen/bid-rules.json` (see `compiled` for its shape). The
//! testing page's validator evaluates that document in the browser, and a buyer's CI may fetch
//! it; the pages show the same data, so the documentation and the checks cannot disagree.
//!
//! A condition docgen cannot read, a field the tables do not know, a regular expression the
//! browser would refuse, or a rule whose documentation row has no anchor fails `check` and
//! `build` with a diagnostic at its file and line. Configured by `site.yaml`'s `bidRules`.

pub mod compiled;
pub mod data;
pub mod parse;
pub mod regex;
pub mod schema;

use std::collections::BTreeMap;
use std::path::{Path as FsPath, PathBuf};
use std::sync::Arc;

use sha2::{Digest, Sha256};

use compiled::{
    BaseType, BidExample, BidRules, CompiledRule, Expr, FORMAT, Message, Operand, Origin, Path,
    Root, Severity, Step,
};
use data::{RulesFile, TablesFile};
use docgen::diagnostics::{Diagnostic, did_you_mean};
use docgen::model::Site;
use schema::Node;
use serde::Deserialize;

/// Where the compiled rules are published, a fixed name a buyer's CI can fetch.
pub const PATH: &str = "_docgen/bid-rules.json";

/// `bidRules:` in the extension's settings: the data files the bid-response validator is
/// compiled from (names under `content/data/` without `.yaml`); the compiled checks are
/// published as `_docgen/bid-rules.json`.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct BidRulesConfig {
    /// The rules: `areas` and `rules` with `field` and `condition`.
    pub rules: String,
    /// The bid request's field tables.
    pub request: String,
    /// The bid response's field tables (types and required flags).
    pub response: String,
    /// Example requests and responses, which must pass every rule.
    #[serde(default)]
    pub examples: Option<String>,
}

/// A data file as the compiler reads it: its path (relative to the site root), its text (for
/// lines) and its parsed value.
#[derive(Debug, Clone)]
pub struct DataFile {
    pub rel: PathBuf,
    pub text: Arc<str>,
    pub value: yaml_serde::Value,
}

impl DataFile {
    /// A data file made from text.
    #[cfg(test)]
    pub fn from_text(rel: &str, text: &str) -> Self {
        let text: Arc<str> = Arc::from(text);
        let value = yaml_serde::from_str(&text).expect("valid YAML");
        DataFile {
            rel: PathBuf::from(rel),
            text,
            value,
        }
    }

    fn diagnostic(
        &self,
        code: &'static str,
        message: String,
        line: usize,
        column: usize,
    ) -> Diagnostic {
        let d = Diagnostic::new(code, message).in_file(&self.rel);
        if line > 0 {
            d.at(line, column.max(1)).with_source(&self.text)
        } else {
            d
        }
    }
}

/// The data files named by `bidRules`.
pub struct Sources {
    pub rules: DataFile,
    pub request: DataFile,
    pub response: DataFile,
    pub examples: Option<DataFile>,
}

fn read<T: serde::de::DeserializeOwned>(
    f: &DataFile,
    what: &str,
    errors: &mut Vec<Diagnostic>,
) -> Option<T> {
    match yaml_serde::from_value(f.value.clone()) {
        Ok(v) => Some(v),
        Err(e) => {
            // A value carries no positions: the text is read again into the shape, so the
            // reader names and places the error.
            let mut d = match docgen::config::yaml::parse::<T>(&f.text, &f.rel, 1, &f.text) {
                Err(d) => d,
                Ok(_) => Diagnostic::new("yaml.wrong-type", e.to_string())
                    .in_file(&f.rel)
                    .at(1, 1)
                    .with_source(&f.text)
                    .hint("give the file the shape its header comment describes"),
            };
            d.message = format!("{what}: {}", d.message);
            errors.push(d);
            None
        }
    }
}

/// Compiles the rules; every problem is reported, none stops the others.
pub fn compile(src: &Sources) -> Result<BidRules, Vec<Diagnostic>> {
    let mut errors = Vec::new();
    let rules: Option<RulesFile> = read(&src.rules, "the rules file", &mut errors);
    let response: Option<TablesFile> =
        read(&src.response, "the bid response's tables", &mut errors);
    let request: Option<TablesFile> = read(&src.request, "the bid request's tables", &mut errors);
    let (Some(rules), Some(response), Some(request)) = (rules, response, request) else {
        return Err(errors);
    };
    let schemas = Schemas {
        response: schema::response(&response.objects, &response.native_response),
        request: schema::request(&request.objects, request.native_request.as_ref()),
    };

    let mut compiled = Vec::new();
    let areas: BTreeMap<&str, &data::AreaEntry> =
        rules.areas.iter().map(|a| (a.id.as_str(), a)).collect();
    let mut ids: BTreeMap<&str, usize> = BTreeMap::new();
    for rule in &rules.rules {
        let seen = ids.entry(rule.id.as_str()).or_insert(0);
        let line = data::nth_entry_line(&src.rules.text, &rule.id, *seen);
        *seen += 1;
        if *seen > 1 {
            errors.push(
                src.rules
                    .diagnostic(
                        "bidrules.duplicate-id",
                        format!("two rules have the id `{}`", rule.id),
                        line,
                        1,
                    )
                    .hint(
                        "give every rule an id of its own: pages and support tickets refer to it",
                    ),
            );
        }
        let Some(area) = areas.get(rule.area.as_str()) else {
            let (l, c, _) =
                data::value_at(&src.rules.text, line, "area").unwrap_or((line, 1, false));
            let names: Vec<&str> = areas.keys().copied().collect();
            errors.push(
                src.rules
                    .diagnostic(
                        "bidrules.unknown-area",
                        format!(
                            "the rule {} names the area `{}`, which `areas` does not list",
                            rule.id, rule.area
                        ),
                        l,
                        c,
                    )
                    .hint(match did_you_mean(&rule.area, names.iter().copied()) {
                        Some(s) => format!("did you mean `{s}`?"),
                        None => format!("the areas are {}", names.join(", ")),
                    }),
            );
            continue;
        };
        let (Some(field), Some(condition)) = (&rule.field, &rule.condition) else {
            continue;
        };
        // HTTP exchanges and API queries cannot be checked on one message.
        if field.starts_with("http.") || field.starts_with("query.") {
            continue;
        }
        let spec = RuleSpec {
            id: &rule.id,
            origin: Origin::Rule,
            severity: rule.severity.unwrap_or(Severity::Error),
            text: &rule.text,
            href: area
                .page
                .as_ref()
                .map(|p| format!("{p}#rule-{}", rule.id))
                .unwrap_or_default(),
            field,
            condition,
        };
        match compile_rule(&spec, &schemas, Some((&src.rules, line))) {
            Ok(r) => compiled.push(r),
            Err(d) => errors.push(d),
        }
    }
    let from_rules = compiled.len();

    // The field tables: each field's type, and its required flag where no rule already
    // requires it on its own.
    for object in &response.objects {
        let Some(steps) = schema::table_steps(&object.path) else {
            let line = data::entry_line(&src.response.text, &object.id);
            let (l, c, _) =
                data::value_at(&src.response.text, line, "path").unwrap_or((line, 1, false));
            errors.push(
                src.response
                    .diagnostic("bidrules.bad-table-path", format!("the table `{}` has the path `{}`, which docgen cannot read", object.id, object.path), l, c)
                    .hint("write the path from BidResponse with [0] for list elements: BidResponse.seatbid[0].bid[0]"),
            );
            continue;
        };
        let mut field_path = String::from("response");
        for s in &steps {
            match s {
                Step::Field { name } => {
                    field_path.push('.');
                    field_path.push_str(name);
                }
                _ => field_path.push_str("[]"),
            }
        }
        for f in &object.fields {
            let ty = match f.ty.as_deref() {
                None => None,
                Some(t) => match schema::declared_type(t) {
                    Some(ty) => Some(ty),
                    None => {
                        let line = field_line(&src.response.text, &object.id, &f.name);
                        let (l, c, _) = data::value_at(&src.response.text, line, "type")
                            .unwrap_or((line, 1, false));
                        errors.push(
                            src.response
                                .diagnostic("bidrules.unknown-type", format!("the field `{}` has the type `{t}`, which docgen does not know", f.name), l, c)
                                .hint("the types are string, integer, float, boolean, object, array of <type>, or the name of an object of the tables (Bid)"),
                        );
                        continue;
                    }
                },
            };
            let subject = format!("{field_path}.{}", f.name);
            let required = f.required.unwrap_or(false);
            let covered = required
                && compiled[..from_rules]
                    .iter()
                    .any(|r| requires_alone(r, &subject));
            let mut tests = Vec::new();
            if required && !covered {
                tests.push("present".to_string());
            }
            if let Some(ty) = &ty {
                tests.push(format!("is {}", ty.text()));
                if required && ty.base == BaseType::Array {
                    tests.push("len(value) >= 1".to_string());
                }
            }
            if tests.is_empty() {
                continue;
            }
            let what = ty.as_ref().map(|t| match t.base {
                BaseType::Array if required => format!("a non-empty {}", t.text()),
                BaseType::Integer => "an integer".into(),
                BaseType::Object | BaseType::Array => format!("an {}", t.text()),
                _ => format!("a {}", t.text()),
            });
            let text = match (required, what) {
                (true, Some(w)) => format!("{} is required and is {w}.", f.name),
                (true, None) => format!("{} is required.", f.name),
                (false, Some(w)) => format!("{} is {w}.", f.name),
                (false, None) => continue,
            };
            let id = format!("{}.{}", object.id, f.name);
            let spec = RuleSpec {
                id: &id,
                origin: Origin::Field,
                severity: Severity::Error,
                text: &text,
                href: response
                    .page
                    .as_ref()
                    .map(|p| format!("{p}#field-{}-{}", object.id, f.name))
                    .unwrap_or_default(),
                field: &subject,
                condition: &tests.join(" and "),
            };
            match compile_rule(&spec, &schemas, None) {
                Ok(r) => compiled.push(r),
                Err(d) => errors.push(d.in_file(&src.response.rel)),
            }
        }
    }
    // The native request's required assets: a native response answers each.
    if let Some(native) = &request.native_request {
        for a in native.assets.iter().filter(|a| a.required) {
            let id = format!("native-asset.{}", a.id);
            let text = format!(
                "A native response answers the required {} asset (id {}).",
                a.asset, a.id
            );
            let field = format!("response.seatbid[].bid[].adm.native.assets[id={}]", a.id);
            let spec = RuleSpec {
                id: &id,
                origin: Origin::Field,
                severity: Severity::Error,
                text: &text,
                href: request
                    .page
                    .as_ref()
                    .map(|p| format!("{p}#native-request-assets"))
                    .unwrap_or_default(),
                field: &field,
                condition: "present when kind(adm) == \"native\"",
            };
            match compile_rule(&spec, &schemas, None) {
                Ok(r) => compiled.push(r),
                Err(d) => errors.push(d.in_file(&src.request.rel)),
            }
        }
    }

    let examples = match &src.examples {
        Some(f) => examples(f, &mut errors),
        None => Vec::new(),
    };
    if !errors.is_empty() {
        return Err(errors);
    }
    let mut digest = Sha256::new();
    digest.update(serde_json::to_string(&compiled).expect("serializable"));
    digest.update(serde_json::to_string(&examples).expect("serializable"));
    let version: String = digest
        .finalize()
        .iter()
        .take(6)
        .map(|b| format!("{b:02x}"))
        .collect();
    Ok(BidRules {
        format: FORMAT,
        version,
        rules: compiled,
        examples,
    })
}

/// Whether a compiled rule requires the field at `subject` and nothing else (so the field
/// table's required flag adds nothing to it).
fn requires_alone(r: &CompiledRule, subject: &str) -> bool {
    r.message == Message::Response
        && r.field == subject
        && r.when.is_none()
        && matches!(&r.check, Expr::Present { of: Operand::Path { path } } if path.root == Root::Value && path.steps.is_empty())
}

/// The line of a field's row in a tables file: its `- name:` after the object's `- id:`.
fn field_line(source: &str, object: &str, name: &str) -> usize {
    let start = data::entry_line(source, object);
    source
        .lines()
        .enumerate()
        .skip(start)
        .find(|(_, l)| {
            let t = l
                .trim_start()
                .trim_start_matches("- ")
                .trim_start_matches('{')
                .trim_start();
            t.strip_prefix("name:")
                .map(|v| {
                    v.trim()
                        .trim_end_matches([',', '}'])
                        .trim()
                        .trim_matches(['"', '\''])
                })
                .is_some_and(|v| v == name || v.split(',').next().map(str::trim) == Some(name))
        })
        .map_or(start, |(i, _)| i + 1)
}

struct Schemas {
    response: Node,
    request: Node,
}

struct RuleSpec<'a> {
    id: &'a str,
    origin: Origin,
    severity: Severity,
    text: &'a str,
    href: String,
    field: &'a str,
    condition: &'a str,
}

/// Compiles one rule. `at`: the rules file and the line of the rule's entry, for diagnostics
/// that point at its field or condition (a rule made by docgen has none).
fn compile_rule(
    spec: &RuleSpec<'_>,
    schemas: &Schemas,
    at: Option<(&DataFile, usize)>,
) -> Result<CompiledRule, Diagnostic> {
    let place = |key: &str, offset: usize, text: &str| -> (usize, usize) {
        match at.and_then(|(f, line)| data::value_at(&f.text, line, key)) {
            Some((l, c, _)) => (l, data::column_of(text, c, offset)),
            None => (at.map_or(0, |(_, l)| l), 1),
        }
    };
    let error = |code: &'static str,
                 key: &str,
                 text: &str,
                 offset: usize,
                 message: String,
                 hint: String| {
        let (line, column) = place(key, offset, text);
        let d = match at {
            Some((f, _)) => f.diagnostic(code, message, line, column),
            None => Diagnostic::new(code, message),
        };
        d.hint(hint)
    };

    let field = parse::field(spec.field).map_err(|e| {
        error(
            "bidrules.bad-field",
            "field",
            spec.field,
            e.offset,
            format!(
                "the field of rule {} cannot be read: {}",
                spec.id, e.message
            ),
            e.hint,
        )
    })?;
    let (root_node, root_name, message) = match field.root {
        Root::Request => (&schemas.request, "request", Message::Request),
        _ => (&schemas.response, "response", Message::Response),
    };
    let misfit = |m: schema::Misfit, offset: usize, key: &str, text: &str| {
        error(
            "bidrules.unknown-field",
            key,
            text,
            offset,
            format!("rule {}: {}", spec.id, m.message),
            m.hint,
        )
    };

    // The subjects: the prefix and each member.
    let mut subjects = Vec::new();
    let mut nodes = Vec::new();
    for member in &field.members {
        let placed: Vec<&parse::Placed> = field.prefix.iter().chain(member).collect();
        let steps: Vec<Step> = placed.iter().map(|(s, _)| s.clone()).collect();
        let (resolved, node) = schema::resolve(root_node, &steps, root_name).map_err(|m| {
            let offset = placed[m.step].1;
            misfit(m, offset, "field", spec.field)
        })?;
        subjects.push(Path {
            root: field.root,
            steps: resolved,
        });
        nodes.push(node);
    }

    // The context: the innermost [] that holds the field (the whole prefix for a group, the
    // steps before the field's own name otherwise).
    let prefix: Vec<Step> = field.prefix.iter().map(|(s, _)| s.clone()).collect();
    let holder_len = if field.group.is_some() {
        prefix.len()
    } else {
        prefix
            .iter()
            .rposition(|s| matches!(s, Step::Field { .. }))
            .unwrap_or(0)
    };
    let context_len = prefix[..holder_len]
        .iter()
        .rposition(|s| matches!(s, Step::Each))
        .map_or(0, |i| i + 1);
    let (context_steps, context_node) =
        schema::resolve(root_node, &prefix[..context_len], root_name)
            .expect("a prefix of a resolved path resolves");
    let context_name = display(root_name, &prefix[..context_len]);

    let mut cond = parse::condition(spec.condition).map_err(|e| {
        error(
            "bidrules.bad-condition",
            "condition",
            spec.condition,
            e.offset,
            format!(
                "the condition of rule {} cannot be read: {}",
                spec.id, e.message
            ),
            e.hint,
        )
    })?;

    // Every path of the condition must name fields the tables know.
    let mut sites = cond.paths.iter();
    let mut failure: Option<Diagnostic> = None;
    let mut visit = |path: &mut Path| {
        let site = sites.next().expect("one site per path");
        if failure.is_some() || site.implicit {
            return;
        }
        let from: &[(&Node, String)] = &match path.root {
            Root::Value => nodes
                .iter()
                .map(|n| (*n, spec.field.to_string()))
                .collect::<Vec<_>>(),
            Root::Context => vec![(context_node, context_name.clone())],
            Root::Request => vec![(&schemas.request, "request".to_string())],
            Root::Response => vec![(&schemas.response, "response".to_string())],
        };
        if message == Message::Request && path.root == Root::Response {
            failure = Some(error(
                "bidrules.unknown-field",
                "condition",
                spec.condition,
                site.offsets[0],
                format!(
                    "rule {}: a rule on the bid request cannot read the bid response",
                    spec.id
                ),
                "check the request's own fields, or move the rule to a response field".into(),
            ));
            return;
        }
        let mut resolved = None;
        for (node, name) in from {
            match schema::resolve(node, &path.steps, name) {
                Ok((steps, _)) => {
                    resolved.get_or_insert(steps);
                }
                Err(m) => {
                    let offset = site
                        .offsets
                        .get(m.step + 1)
                        .copied()
                        .unwrap_or(site.offsets[0]);
                    failure = Some(misfit(m, offset, "condition", spec.condition));
                    return;
                }
            }
        }
        if let Some(steps) = resolved {
            path.steps = steps;
        }
    };
    parse::each_path_mut(&mut cond.check, &mut visit);
    if let Some(w) = &mut cond.when {
        parse::each_path_mut(w, &mut visit);
    }
    if let Some(d) = failure {
        return Err(d);
    }

    let per_subject =
        cond.check.reads(Root::Value) || cond.when.as_ref().is_some_and(|w| w.reads(Root::Value));
    let needs_request = message == Message::Request
        || cond.check.needs_request()
        || cond.when.as_ref().is_some_and(|w| w.reads(Root::Request));
    Ok(CompiledRule {
        id: spec.id.to_string(),
        origin: spec.origin,
        severity: spec.severity,
        text: spec.text.to_string(),
        href: spec.href.clone(),
        message,
        field: spec.field.to_string(),
        condition: spec.condition.to_string(),
        subjects,
        context_steps: u32::try_from(context_steps.len()).unwrap_or(u32::MAX),
        check: cond.check,
        when: cond.when,
        per_subject,
        needs_request,
    })
}

/// A path of steps as written (`response.seatbid[].bid[]`).
fn display(root: &str, steps: &[Step]) -> String {
    let mut s = root.to_string();
    for step in steps {
        match step {
            Step::Field { name } => {
                s.push('.');
                s.push_str(name);
            }
            Step::Each => s.push_str("[]"),
            Step::Index { index } => s.push_str(&format!("[{index}]")),
            Step::Where { field, .. } => s.push_str(&format!("[{field}=..]")),
            Step::Json => {}
            Step::Child { name } => s.push_str(&format!("/{name}")),
            Step::Descendant { name } => s.push_str(&format!("//{name}")),
            Step::Attribute { name } => s.push_str(&format!("/@{name}")),
        }
    }
    s
}

/// The examples, each request and response checked to be JSON.
fn examples(f: &DataFile, errors: &mut Vec<Diagnostic>) -> Vec<BidExample> {
    let Some(file): Option<data::ExamplesFile> = read(f, "the examples file", errors) else {
        return Vec::new();
    };
    let mut out = Vec::new();
    for ex in file.examples {
        let line = data::entry_line(&f.text, &ex.id);
        for (key, text) in [("request", &ex.request), ("response", &ex.response)] {
            if let Err(e) = serde_json::from_str::<serde_json::Value>(text) {
                // A block scalar starts on the line after its key, indented.
                let (l, c) = match data::value_at(&f.text, line, key) {
                    Some((l, c, _)) => {
                        let next = f.text.lines().nth(l).unwrap_or("");
                        let indent = next.len() - next.trim_start().len();
                        let block = f
                            .text
                            .lines()
                            .nth(l - 1)
                            .is_some_and(|v| v.trim_end().ends_with(['|', '-', '>']));
                        if block {
                            (l + e.line(), indent + e.column())
                        } else {
                            (l, c)
                        }
                    }
                    None => (line, 1),
                };
                errors.push(
                    f.diagnostic(
                        "bidrules.bad-example",
                        format!(
                            "the {key} of the example `{}` is not JSON: {}",
                            ex.id,
                            strip_position(&e.to_string())
                        ),
                        l,
                        c,
                    )
                    .hint(
                        "the examples are loaded into the validator as they are: write valid JSON",
                    ),
                );
            }
        }
        out.push(BidExample {
            id: ex.id,
            label: ex.label,
            title: ex.title,
            request: ex.request,
            response: ex.response,
        });
    }
    out
}

fn strip_position(message: &str) -> &str {
    message.split(" at line ").next().unwrap_or(message)
}

/// The data files `bidRules` names, read again for their lines; problems (a name that is not
/// a data file) as diagnostics.
pub fn sources(site: &Site<'_>, cfg: &BidRulesConfig) -> Result<Sources, Vec<Diagnostic>> {
    let config = site.config;
    let content = config.content_dir();
    let data_dir = content
        .strip_prefix(&config.root)
        .unwrap_or(FsPath::new(""))
        .join("data");
    let mut errors = Vec::new();
    let mut load = |key: &str, name: &str| -> Option<DataFile> {
        let Some(value) = site.data.get(name) else {
            let rel = ["yaml", "yml"]
                .iter()
                .map(|ext| data_dir.join(format!("{name}.{ext}")))
                .find(|p| config.root.join(p).is_file());
            // A data file that exists but did not parse was reported already.
            if rel.is_none() {
                let source = &config.site_source;
                let path = [
                    "extensions".into(),
                    "adplatform".into(),
                    "bidRules".into(),
                    key.into(),
                ];
                let (line, column) = config.site_positions.value(&path).unwrap_or((0, 1));
                let names: Vec<&str> = site.data.keys().map(String::as_str).collect();
                let d = Diagnostic::new(
                    "bidrules.unknown-data",
                    format!("bidRules: `{key}` names `{name}`, which is not a data file under content/data/"),
                )
                .in_file("site.yaml")
                .hint(match did_you_mean(name, names.iter().copied()) {
                    Some(s) => format!("did you mean `{s}`?"),
                    None => "name a file under content/data/ without .yaml".into(),
                });
                errors.push(if line > 0 {
                    d.at(line, column).with_source(source)
                } else {
                    d
                });
            }
            return None;
        };
        let rel = ["yaml", "yml"]
            .iter()
            .map(|ext| data_dir.join(format!("{name}.{ext}")))
            .find(|p| config.root.join(p).is_file())
            .unwrap_or_else(|| data_dir.join(format!("{name}.yaml")));
        let text =
            docgen::config::source::read(&config.root, &rel).unwrap_or_else(|_| Arc::from(""));
        Some(DataFile {
            rel,
            text,
            value: value.clone(),
        })
    };
    let rules = load("rules", &cfg.rules);
    let request = load("request", &cfg.request);
    let response = load("response", &cfg.response);
    let examples = cfg.examples.as_ref().map(|e| load("examples", e));
    if !errors.is_empty() {
        return Err(errors);
    }
    let (Some(rules), Some(request), Some(response)) = (rules, request, response) else {
        // A data file that did not parse: its own error is the one to fix.
        return Err(Vec::new());
    };
    Ok(Sources {
        rules,
        request,
        response,
        examples: examples.flatten(),
    })
}

/// The rules of a build, compiled once, and their checks: the rules compile, and every rule's
/// documentation row exists. The rules are `None` when they do not compile.
pub fn prepare(site: &Site<'_>, cfg: &BidRulesConfig) -> (Option<BidRules>, Vec<Diagnostic>) {
    let sources = match sources(site, cfg) {
        Ok(s) => s,
        Err(e) => return (None, e),
    };
    let rules = match compile(&sources) {
        Ok(r) => r,
        Err(e) => return (None, e),
    };
    let missing = missing_rows(site, &sources, &rules);
    (Some(rules), missing)
}

/// Rules whose `href` leads nowhere: a page that does not exist, or one without the anchor of
/// the rule's row. One diagnostic per page and kind of row, listing the rules.
fn missing_rows(site: &Site<'_>, sources: &Sources, rules: &BidRules) -> Vec<Diagnostic> {
    // (file, line, page) → rule ids
    let mut missing: BTreeMap<(PathBuf, usize, String), Vec<&str>> = BTreeMap::new();
    let rule_areas: BTreeMap<&str, &str> = sources
        .rules
        .value
        .get("rules")
        .and_then(|r| r.as_sequence())
        .map(|rs| {
            rs.iter()
                .filter_map(|r| Some((r.get("id")?.as_str()?, r.get("area")?.as_str()?)))
                .collect()
        })
        .unwrap_or_default();
    for r in &rules.rules {
        let (route, anchor) = r.href.split_once('#').unwrap_or((r.href.as_str(), ""));
        let found = !route.is_empty()
            && site
                .page_at(route)
                .is_some_and(|p| anchor.is_empty() || p.rendered.ids.contains(anchor));
        if found {
            continue;
        }
        let (file, line) = match r.origin {
            Origin::Rule => {
                let area = rule_areas.get(r.id.as_str()).copied().unwrap_or("");
                (&sources.rules, data::entry_line(&sources.rules.text, area))
            }
            Origin::Field if r.id.starts_with("native-asset.") => {
                (&sources.request, page_line(&sources.request.text))
            }
            Origin::Field => (&sources.response, page_line(&sources.response.text)),
        };
        missing
            .entry((file.rel.clone(), line, route.to_string()))
            .or_default()
            .push(&r.id);
    }
    let by_file = |rel: &PathBuf| -> &DataFile {
        [&sources.rules, &sources.request, &sources.response]
            .into_iter()
            .find(|f| &f.rel == rel)
            .expect("one of the sources")
    };
    missing
        .into_iter()
        .map(|((rel, line, route), ids)| {
            let file = by_file(&rel);
            let list = if ids.len() > 4 {
                format!("{} and {} more", ids[..3].join(", "), ids.len() - 3)
            } else {
                ids.join(", ")
            };
            let (message, hint) = if route.is_empty() {
                (
                    format!("the rules {list} have no page to link to"),
                    "name the page that shows them: `page: /route` on the area (rules) or at the top of the tables file".to_string(),
                )
            } else if site.page_at(&route).is_none() {
                (
                    format!("the page {route}, where the rules {list} are documented, does not exist"),
                    "fix the route of `page`".to_string(),
                )
            } else {
                (
                    format!("the page {route} has no row for the rules {list}, so the validator's links to them would lead nowhere"),
                    "show the rules on that page (the rules table partial anchors each row), or name the page that does".to_string(),
                )
            };
            // Point at the `page:` that names the page, where there is one on the line.
            let column = file
                .text
                .lines()
                .nth(line.saturating_sub(1))
                .and_then(|l| l.find("page:").map(|i| l[..i].chars().count() + 1))
                .unwrap_or(1);
            file.diagnostic("bidrules.missing-row", message, line, column).hint(hint)
        })
        .collect()
}

/// The line of the top-level `page:` of a data file (its first line when it has none).
fn page_line(source: &str) -> usize {
    docgen::config::yaml::Positions::read(source, 1)
        .key(&["page".into()])
        .map_or(1, |(line, _)| line)
}

#[cfg(test)]
mod tests {
    use super::*;

    const RESPONSE: &str = "page: /r
objects:
  - id: bid-response
    path: BidResponse
    fields:
      - {name: id, type: string, required: true}
      - {name: cur, type: string, required: false}
      - {name: seatbid, type: array of SeatBid, required: true}
  - id: seatbid
    path: BidResponse.seatbid[0]
    fields:
      - {name: bid, type: array of Bid, required: true}
  - id: bid
    path: BidResponse.seatbid[0].bid[0]
    fields:
      - {name: adm, type: string, required: true}
      - {name: burl, type: string, required: true}
      - {name: price, type: float, required: true}
      - {name: w, type: integer, required: false}
      - {name: h, type: integer, required: false}
      - {name: ext, type: object, required: false}
      - {name: ext.skadn, type: object, required: false}
      - {name: bundle, type: string, required: false}
nativeResponse:
  - {asset: Title, id: 1, element: title.text, limit: x}
";
    const REQUEST: &str = "page: /q
objects:
  - id: bid-request
    path: BidRequest
    fields:
      - {name: id}
      - {name: imp}
      - {name: app}
  - id: impression
    path: BidRequest.imp[0]
    fields:
      - {name: video}
      - {name: instl}
  - id: video
    path: BidRequest.imp[0].video
    fields:
      - {name: w}
      - {name: mimes}
nativeRequest:
  fields:
    - {name: ver}
  assets:
    - {asset: Title, id: 1, required: true, element: title}
    - {asset: Icon, id: 3, required: false, element: img}
";

    fn sources(rules: &str) -> Sources {
        Sources {
            rules: DataFile::from_text("content/data/rules.yaml", rules),
            request: DataFile::from_text("content/data/req.yaml", REQUEST),
            response: DataFile::from_text("content/data/resp.yaml", RESPONSE),
            examples: None,
        }
    }

    fn rules_with(entries: &str) -> String {
        format!("areas:\n  - {{id: a, title: A, page: /p}}\nrules:\n{entries}")
    }

    fn one(field: &str, condition: &str) -> Result<BidRules, Vec<Diagnostic>> {
        compile(&sources(&rules_with(&format!(
            "  - id: a-01\n    area: a\n    text: T\n    field: {field}\n    condition: {condition}\n"
        ))))
    }

    fn error(field: &str, condition: &str) -> Diagnostic {
        let mut e = one(field, condition).unwrap_err();
        assert_eq!(e.len(), 1, "{e:?}");
        e.remove(0)
    }

    #[test]
    fn a_rule_compiles_with_its_context_and_flags() {
        let r = one(
            "response.seatbid[].bid[].bundle",
            "present when ext.skadn present and request.imp[0].instl == 1",
        )
        .unwrap();
        let rule = &r.rules[0];
        assert_eq!(rule.id, "a-01");
        assert_eq!(rule.href, "/p#rule-a-01");
        assert_eq!(rule.context_steps, 4);
        assert!(rule.per_subject && rule.needs_request);
        assert_eq!(rule.message, Message::Response);
        let group = one("response.seatbid[].bid[].{w, h}", "(w, h) in [(320, 50)]").unwrap();
        assert_eq!(group.rules[0].subjects.len(), 2);
        assert!(!group.rules[0].per_subject && !group.rules[0].needs_request);
        // A list element's field: the context is the element that holds the list.
        let each = one("response.seatbid[].seat", "present").unwrap_err();
        assert!(each[0].message.contains("`seat`"), "{each:?}");
        let native = one(
            "response.seatbid[].bid[].adm.native.assets[id=1].title.text",
            "len(value) <= 50",
        )
        .unwrap();
        let steps = &native.rules[0].subjects[0].steps;
        assert_eq!(steps[5], Step::Json, "{steps:?}");
        assert_eq!(native.rules[0].context_steps, 4);
        let request = one("request.imp[0].video.mimes", "contains \"video/mp4\"").unwrap();
        assert_eq!(request.rules[0].message, Message::Request);
        assert!(request.rules[0].needs_request);
        assert_eq!(request.rules[0].context_steps, 0);
        // A check that can fail without the request runs without it.
        let partly = one(
            "response.seatbid[].bid[].bundle",
            "not in [\"a\"] and not in request.imp[0].video.mimes",
        )
        .unwrap();
        assert!(!partly.rules[0].needs_request);
        let either = one(
            "response.seatbid[].bid[].bundle",
            "present or == request.id",
        )
        .unwrap();
        assert!(either.rules[0].needs_request);
        let xml = one(
            "response.seatbid[].bid[].adm//MediaFile/@type",
            "in request.imp[0].video.mimes",
        )
        .unwrap();
        assert_eq!(
            xml.rules[0].subjects[0].steps.last(),
            Some(&Step::Attribute {
                name: "type".into()
            })
        );
    }

    #[test]
    fn operational_and_unchecked_rules_are_not_compiled() {
        let r = compile(&sources(&rules_with(
            "  - id: a-01\n    area: a\n    text: T\n    field: http.method\n    condition: == \"POST\"\n  - id: a-02\n    area: a\n    text: T\n    field: query.x\n    condition: \">= today - 7 days\"\n  - id: a-03\n    area: a\n    text: T\n    field: response.seatbid[].bid[].adm//MediaFile\n  - id: a-04\n    area: a\n    text: T\n",
        )))
        .unwrap();
        assert!(
            r.rules.iter().all(|r| r.origin == Origin::Field),
            "{:?}",
            r.rules.iter().map(|r| &r.id).collect::<Vec<_>>()
        );
    }

    #[test]
    fn field_tables_become_type_and_required_checks() {
        let r = compile(&sources(&rules_with(
            "  - id: a-01\n    area: a\n    text: T\n    field: response.seatbid[].bid[].burl\n    condition: present\n",
        )))
        .unwrap();
        let by_id = |id: &str| {
            r.rules
                .iter()
                .find(|x| x.id == id)
                .unwrap_or_else(|| panic!("no {id}"))
        };
        assert_eq!(by_id("bid.price").condition, "present and is float");
        assert_eq!(by_id("bid.price").href, "/r#field-bid-price");
        assert_eq!(by_id("bid.price").text, "price is required and is a float.");
        assert_eq!(
            by_id("bid-response.seatbid").condition,
            "present and is array of object and len(value) >= 1"
        );
        assert_eq!(by_id("bid.w").condition, "is integer");
        assert_eq!(by_id("bid.w").text, "w is an integer.");
        // burl is required by the rule a-01 on its own: the table adds its type only.
        assert_eq!(by_id("bid.burl").condition, "is string");
        assert_eq!(
            by_id("native-asset.1").condition,
            "present when kind(adm) == \"native\""
        );
        assert_eq!(by_id("native-asset.1").href, "/q#native-request-assets");
        assert!(r.rules.iter().all(|x| x.id != "native-asset.3"));
        assert_eq!(r.format, compiled::FORMAT);
        assert_eq!(r.version.len(), 12);
        // The version follows the rules.
        let other = one("response.id", "present").unwrap();
        assert_ne!(other.version, r.version);
        assert_eq!(
            one("response.id", "present").unwrap().version,
            other.version
        );
    }

    #[test]
    fn a_condition_that_cannot_be_read_is_placed_at_its_column() {
        let d = error("response.id", "== request.id extra");
        assert_eq!(d.code, "bidrules.bad-condition");
        assert_eq!(
            d.file.as_deref(),
            Some(FsPath::new("content/data/rules.yaml"))
        );
        assert_eq!((d.line, d.column), (8, 30), "{d:?}");
        assert!(
            d.message.contains("rule a-01") && d.message.contains("unexpected `extra`"),
            "{d:?}"
        );
        assert!(d.hint.is_some());
        let quoted = error("response.id", "\"== request.id )\"");
        assert_eq!((quoted.line, quoted.column), (8, 31), "{quoted:?}");
    }

    #[test]
    fn unknown_fields_are_named_with_a_suggestion() {
        let d = error("response.seatbid[].bid[].bundel", "present");
        assert_eq!(d.code, "bidrules.unknown-field");
        assert_eq!((d.line, d.column), (7, 37), "{d:?}");
        assert_eq!(d.hint.as_deref(), Some("did you mean `bundle`?"));
        let d = error(
            "response.seatbid[].bid[].bundle",
            "present when ext.skadn present and request.imp[0].vidoe.w == 1",
        );
        assert_eq!(d.code, "bidrules.unknown-field");
        assert!(
            d.message
                .contains("`vidoe` is not a field of `request.imp[..]`"),
            "{d:?}"
        );
        assert_eq!(
            d.column,
            16 + "present when ext.skadn present and request.imp[0].".len()
        );
        assert_eq!(d.hint.as_deref(), Some("did you mean `video`?"));
        let d = error(
            "response.seatbid[].bid[].bundle",
            "present when extt.skadn present",
        );
        assert!(
            d.message
                .contains("`extt` is not a field of `response.seatbid[].bid[]`"),
            "{d:?}"
        );
        let d = error("response.seatbid[].bid[].adm", "value.x == 1");
        assert!(d.message.contains("`x`"), "{d:?}");
        let d = error("request.id", "== response.id");
        assert!(d.message.contains("cannot read the bid response"), "{d:?}");
        let d = error("VAST MediaFile", "present");
        assert_eq!(d.code, "bidrules.bad-field");
        assert_eq!((d.line, d.column), (7, 12));
    }

    #[test]
    fn regular_expressions_are_checked_for_the_browser() {
        let d = error("response.id", "matches /(?i)<html/");
        assert_eq!(d.code, "bidrules.bad-condition");
        assert!(d.message.contains("inline flags"), "{d:?}");
        assert_eq!(d.column, 16 + "matches /".len());
        assert_eq!(
            d.hint.as_deref(),
            Some("write flags after the closing slash instead: /<html/i")
        );
    }

    #[test]
    fn unknown_areas_and_repeated_ids_are_reported() {
        let e = compile(&sources(&rules_with(
            "  - id: a-01\n    area: b\n    text: T\n  - id: a-01\n    area: a\n    text: T\n",
        )))
        .unwrap_err();
        let codes: Vec<&str> = e.iter().map(|d| d.code).collect();
        assert_eq!(
            codes,
            ["bidrules.unknown-area", "bidrules.duplicate-id"],
            "{e:?}"
        );
        assert_eq!((e[0].line, e[0].column), (5, 11));
        assert_eq!(e[1].line, 7);
    }

    #[test]
    fn examples_must_be_json_and_are_published() {
        let mut s = sources(&rules_with(""));
        s.examples = Some(DataFile::from_text(
            "content/data/ex.yaml",
            "examples:\n  - id: one\n    title: One\n    label: One\n    request: |-\n      {\"id\": \"1\"}\n    response: |-\n      {\n        \"id\": 1,\n      }\n",
        ));
        let e = compile(&s).unwrap_err();
        assert_eq!(e.len(), 1);
        assert_eq!(e[0].code, "bidrules.bad-example", "{e:?}");
        assert_eq!(e[0].line, 10, "{e:?}");
        assert!(
            e[0].message.contains("the response of the example `one`"),
            "{e:?}"
        );
        s.examples = Some(DataFile::from_text(
            "content/data/ex.yaml",
            "examples:\n  - id: one\n    title: One\n    label: One\n    request: '{}'\n    response: '{\"id\": \"1\"}'\n",
        ));
        let ok = compile(&s).unwrap();
        assert_eq!(ok.examples[0].response, "{\"id\": \"1\"}");
    }

    /// The rules of this repository's own site.
    fn site_sources() -> Sources {
        // The site at the root of the workspace.
        let root = FsPath::new(env!("CARGO_MANIFEST_DIR")).join("../..");
        let file = |name: &str| {
            let rel = format!("content/data/{name}.yaml");
            DataFile::from_text(&rel, &std::fs::read_to_string(root.join(&rel)).unwrap())
        };
        Sources {
            rules: file("dsp-rules"),
            request: file("ortb-request"),
            response: file("ortb-response"),
            examples: Some(file("ortb-examples")),
        }
    }

    #[test]
    fn the_sites_rules_compile_every_checkable_condition() {
        let src = site_sources();
        let r = compile(&src).unwrap_or_else(|e| panic!("{e:#?}"));
        let data: RulesFile = yaml_serde::from_value(src.rules.value.clone()).unwrap();
        let checkable: Vec<&str> = data
            .rules
            .iter()
            .filter(|r| {
                r.condition.is_some()
                    && r.field
                        .as_deref()
                        .is_some_and(|f| f.starts_with("response") || f.starts_with("request"))
            })
            .map(|r| r.id.as_str())
            .collect();
        let compiled: Vec<&str> = r
            .rules
            .iter()
            .filter(|r| r.origin == Origin::Rule)
            .map(|r| r.id.as_str())
            .collect();
        assert_eq!(compiled, checkable);
        // Sections 3.2 and 5: the required fields, and the rules of each area.
        for id in [
            "bid-response.id",
            "bid-response.seatbid",
            "seatbid.bid",
            "bid.adomain",
            "bid.cat",
            "bid.crid",
            "bid.id",
            "bid.impid",
            "bid.price",
        ] {
            let rule = r
                .rules
                .iter()
                .find(|x| x.id == id)
                .unwrap_or_else(|| panic!("no {id}"));
            assert!(
                rule.condition.starts_with("present"),
                "{id}: {}",
                rule.condition
            );
        }
        for area in [
            "basics-",
            "formats-",
            "blocked-",
            "vast-",
            "mraid-",
            "ctv-",
            "skadnetwork-",
            "viewability-",
        ] {
            assert!(compiled.iter().any(|id| id.starts_with(area)), "{area}");
        }
        assert_eq!(r.examples.len(), 4);
    }

    /// `frontend/test/fixtures/bid-rules.json` is what docgen compiles from this site's data:
    /// the validator's unit tests evaluate it. `DOCGEN_WRITE_BINDINGS=1` writes it again.
    #[test]
    fn the_validators_fixture_is_the_sites_compiled_rules() {
        let r = compile(&site_sources()).unwrap_or_else(|e| panic!("{e:#?}"));
        let text = serde_json::to_string_pretty(&r).unwrap() + "\n";
        let path = FsPath::new(env!("CARGO_MANIFEST_DIR"))
            .join("../../frontend/src/extensions/adplatform/test/fixtures/bid-rules.json");
        if std::env::var_os("DOCGEN_WRITE_BINDINGS").is_some() {
            std::fs::create_dir_all(path.parent().unwrap()).unwrap();
            std::fs::write(&path, &text).unwrap();
            return;
        }
        let committed = std::fs::read_to_string(&path).unwrap_or_default();
        assert!(
            committed == text,
            "{} differs from the compiled rules: run `DOCGEN_WRITE_BINDINGS=1 cargo test --release bidrules` and commit it",
            path.display()
        );
    }
}
