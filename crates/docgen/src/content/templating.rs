//! Templated pages (`template: true`) and data-driven pages (`generate`), through minijinja.

use std::collections::BTreeMap;

use minijinja::{Environment, Value};
use rayon::prelude::*;

use super::frontmatter::{self, FrontMatter, Generate};
use super::{Draft, Page, SourceFile, finish_page};
use crate::config::Config;
use crate::config::yaml::Step;
use crate::diagnostics::Diagnostic;

/// The template engine with the site's data, partials and configuration loaded.
pub struct Engine<'a> {
    env: Environment<'a>,
    data: Value,
    site: Value,
}

/// How many steps one rendering of a template may take: far more than any real page needs
/// (the largest of the shipped site takes about a tenth), and a runaway loop stops in seconds
/// instead of running until killed.
pub const FUEL: u64 = 10_000_000;

/// At most this many pages from one `generate` entry (as many as the legacy routes of all of
/// redirects.yaml): three lists of a few thousand items would otherwise ask for billions.
pub const MAX_GENERATED: usize = 100_000;
/// At most this many combinations one `where` tests. They are tested in one rendering, so
/// [`FUEL`] bounds their work too.
pub const MAX_CANDIDATES: usize = 1_000_000;

const TOO_MANY_HINT: &str = "one `generate` entry makes at most 100000 pages: narrow the \
    combinations with `where`, or split the data or the template";

/// Variables bound by `generate`, in binding order.
type Bindings = Vec<(String, Value)>;

impl<'a> Engine<'a> {
    pub fn new(
        data: &BTreeMap<String, yaml_serde::Value>,
        partials: &BTreeMap<String, String>,
        config: &Config,
    ) -> Self {
        let mut env = Environment::new();
        env.set_fuel(Some(FUEL));
        // Block tags on lines of their own leave no blank lines: Markdown tables built in
        // loops stay tables.
        env.set_syntax(
            minijinja::syntax::SyntaxConfig::builder()
                .keep_trailing_newline(true)
                .trim_blocks(true)
                .lstrip_blocks(true)
                .build()
                .expect("valid syntax config"),
        );
        let partials = partials.clone();
        env.set_loader(move |name| Ok(partials.get(name).cloned()));
        let site = Value::from_iter(BTreeMap::from([
            ("title", Value::from(config.site.title())),
            (
                "url",
                Value::from(config.site.url.clone().unwrap_or_default()),
            ),
            ("home", Value::from(config.home())),
            (
                "features",
                Value::from(minijinja::value::Serde(&config.site.features)),
            ),
        ]));
        Engine {
            env,
            data: Value::from(minijinja::value::Serde(data)),
            site,
        }
    }

    fn context(&self, bindings: &Bindings, page: Option<&FrontMatter>) -> Value {
        let mut ctx: BTreeMap<String, Value> = BTreeMap::new();
        ctx.insert("data".into(), self.data.clone());
        ctx.insert("site".into(), self.site.clone());
        if let Some(p) = page {
            ctx.insert("page".into(), Value::from(minijinja::value::Serde(p)));
        }
        for (k, v) in bindings {
            ctx.insert(k.clone(), v.clone());
        }
        Value::from(minijinja::value::Serde(ctx))
    }

    /// Renders the body of a `template: true` page.
    pub(crate) fn render_body(
        &self,
        src: &SourceFile<'_>,
        front: &FrontMatter,
    ) -> Result<String, Diagnostic> {
        let ctx = self.context(&Vec::new(), Some(front));
        self.env
            .render_str(src.body, ctx)
            .map_err(|e| template_error(&e, src, src.body_line, None))
    }

    /// The list a `generate` source names: `file` or `file.key.key`.
    fn lookup(&self, path: &str) -> Option<Value> {
        let mut parts = path.split('.');
        let file = parts.next()?;
        let mut v = self
            .data
            .get_attr(file)
            .ok()
            .filter(|v| !v.is_undefined())?;
        for key in parts {
            v = v.get_attr(key).ok().filter(|v| !v.is_undefined())?;
        }
        Some(v)
    }
}

fn template_error(
    e: &minijinja::Error,
    src: &SourceFile<'_>,
    first_line: usize,
    item: Option<&str>,
) -> Diagnostic {
    let line = e.line().map_or(first_line, |l| l + first_line - 1);
    if e.kind() == minijinja::ErrorKind::OutOfFuel {
        let mut message = format!("the template did not finish within {FUEL} steps");
        if let Some(i) = item {
            message = format!("{message} (generated for {i})");
        }
        return src
            .error("template.too-long", message, line)
            .hint("look for a loop over a huge range or list, or a recursion without end");
    }
    let mut message = match e.detail() {
        Some(detail) => format!("template error: {detail}"),
        None => format!("template error: {}", e.kind()),
    };
    if let Some(i) = item {
        message = format!("{message} (generated for {i})");
    }
    src.error("template.error", message, line)
        .hint("check the {{ }} / {% %} syntax and the names of the variables used here")
}

/// Whether `as:` names a variable templates can use (`platform`, `sdk_version`); names with
/// two leading underscores are docgen's own.
fn is_binding_name(name: &str) -> bool {
    let mut chars = name.chars();
    chars
        .next()
        .is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
        && chars.all(|c| c.is_ascii_alphanumeric() || c == '_')
        && !name.starts_with("__")
}

/// Which combinations of `combos` × `items` the `where` of `source` keeps, in that order.
/// They are all tested in one rendering, so together they get the fuel of one template:
/// however many there are, the work stays bounded.
fn filter(
    engine: &Engine<'_>,
    expr: &str,
    source: &frontmatter::Source,
    combos: &[(Bindings, Vec<String>)],
    items: &[Value],
) -> Result<Vec<bool>, minijinja::Error> {
    // Compiled alone first: a syntax error names the expression, not the loop around it, and
    // a valid expression cannot close the tags it is put between.
    engine.env.compile_expression(expr)?;
    let mut candidates = Vec::with_capacity(combos.len() * items.len());
    let mut names: Vec<&str> = Vec::new();
    if let Some((bindings, _)) = combos.first() {
        names.extend(bindings.iter().map(|(k, _)| k.as_str()));
    }
    names.push(&source.name);
    for (bindings, _) in combos {
        for item in items {
            let values = bindings.iter().map(|(_, v)| v.clone());
            candidates.push(Value::from_iter(values.chain([item.clone()])));
        }
    }
    let with: Vec<String> = names
        .iter()
        .enumerate()
        .map(|(i, n)| format!("{n}=__docgen_c[{i}]"))
        .collect();
    let template = format!(
        "{{% for __docgen_c in __docgen_candidates %}}{{% with {} %}}\
         {{{{ 1 if ({expr}) else 0 }}}}{{% endwith %}}{{% endfor %}}",
        with.join(", ")
    );
    let bindings = vec![("__docgen_candidates".to_string(), Value::from(candidates))];
    let kept = engine
        .env
        .render_str(&template, engine.context(&bindings, None))?;
    Ok(kept.bytes().map(|b| b == b'1').collect())
}

fn where_error(
    e: &minijinja::Error,
    src: &SourceFile<'_>,
    path: &[Step],
    yaml_line: usize,
) -> Diagnostic {
    let line = crate::config::yaml::Positions::read(src.yaml, yaml_line)
        .value(path)
        .map_or(yaml_line, |(line, _)| line);
    if e.kind() == minijinja::ErrorKind::OutOfFuel {
        return src
            .error(
                "template.too-long",
                format!("the `where` did not finish within {FUEL} steps for all its combinations"),
                line,
            )
            .hint("make the expression cheaper (no loops over large lists), or filter fewer combinations");
    }
    let detail = e
        .detail()
        .map_or_else(|| e.kind().to_string(), str::to_string);
    src.error("template.error", format!("`where`: {detail}"), line)
        .hint("check the expression and the names of the variables it uses")
}

/// A short name of an item for messages: its id, slug or name field, else its position.
fn item_name(v: &Value, index: usize) -> String {
    for key in ["id", "slug", "name"] {
        if let Ok(x) = v.get_attr(key)
            && !x.is_undefined()
            && !x.is_none()
        {
            return x.to_string();
        }
    }
    format!("#{}", index + 1)
}

/// Expands a `generate` template into its pages.
pub(crate) fn expand(
    config: &Config,
    engine: &Engine<'_>,
    src: &SourceFile<'_>,
    generate: &Generate,
) -> Result<Vec<Page>, Vec<Diagnostic>> {
    let (rel, source, yaml_line, body_line) = (src.rel, src.text, src.yaml_line, src.body_line);
    let at = |code: &'static str, msg: String, hint: &str| {
        vec![src.error(code, msg, yaml_line).hint(hint)]
    };
    let sources = generate.sources();
    if sources.is_empty() {
        return Err(at(
            "generate.no-source",
            "`generate` names no data".into(),
            "add `data: <file>` and `as: <name>`, or an `each:` list of them",
        ));
    }
    // Every list first, so the number of combinations is known before any is made.
    let mut lists: Vec<Vec<Value>> = Vec::with_capacity(sources.len());
    for data_source in &sources {
        if !is_binding_name(&data_source.name) {
            return Err(at(
                "generate.bad-name",
                format!("`as: {}` is not a variable name", data_source.name),
                "use letters, digits and `_`, starting with a letter (e.g. `as: platform`)",
            ));
        }
        let Some(list) = engine.lookup(&data_source.data) else {
            return Err(at(
                "generate.unknown-data",
                format!("no data named `{}`", data_source.data),
                "name a file under content/data/ (without .yaml), optionally followed by .key",
            ));
        };
        // A map iterates over its keys, which is never what a writer means here.
        let items = match list.kind() {
            minijinja::value::ValueKind::Seq | minijinja::value::ValueKind::Iterable => {
                list.try_iter().ok()
            }
            _ => None,
        };
        let Some(items) = items else {
            return Err(at(
                "generate.not-a-list",
                format!("`{}` is not a list", data_source.data),
                "point `data` at a YAML list",
            ));
        };
        lists.push(items.collect());
    }
    let generate_line = crate::config::yaml::Positions::read(src.yaml, yaml_line)
        .key(&["generate".into()])
        .map_or(yaml_line, |(line, _)| line);
    let too_many = |count: Option<usize>, what: &str, limit: usize, hint: &str| {
        let count = count.map_or_else(|| format!("more than {}", usize::MAX), |n| n.to_string());
        vec![
            src.error(
                "generate.too-many",
                format!("`generate` {what} {count} combinations, more than the {limit} allowed"),
                generate_line,
            )
            .hint(hint),
        ]
    };
    let product = lists
        .iter()
        .try_fold(1usize, |n, list| n.checked_mul(list.len()));
    let filtered = sources.iter().any(|s| s.filter.is_some());
    if !filtered && product.is_none_or(|n| n > MAX_GENERATED) {
        return Err(too_many(product, "makes", MAX_GENERATED, TOO_MANY_HINT));
    }

    // Every combination of items, with the names of the items for messages.
    let mut combos: Vec<(Bindings, Vec<String>)> = vec![(Vec::new(), Vec::new())];
    for (i, (data_source, items)) in sources.iter().zip(&lists).enumerate() {
        let candidates = combos.len().checked_mul(items.len());
        let keep = match &data_source.filter {
            None if candidates.is_none_or(|n| n > MAX_GENERATED) => {
                return Err(too_many(candidates, "makes", MAX_GENERATED, TOO_MANY_HINT));
            }
            None => None,
            Some(_) if candidates.is_none_or(|n| n > MAX_CANDIDATES) => {
                return Err(too_many(
                    candidates,
                    "asks `where` to test",
                    MAX_CANDIDATES,
                    "a `where` is tested once per combination of the lists bound so far: \
                     filter an earlier list first, or split the data into smaller lists",
                ));
            }
            Some(expr) => Some(
                filter(engine, expr, data_source, &combos, items).map_err(|e| {
                    // `where` of the `each:` entry, or of `generate` itself.
                    let path: Vec<Step> = if generate.each.is_empty() {
                        vec!["generate".into(), "where".into()]
                    } else {
                        vec!["generate".into(), "each".into(), i.into(), "where".into()]
                    };
                    vec![where_error(&e, src, &path, yaml_line)]
                })?,
            ),
        };
        let mut next = Vec::new();
        let mut tested = 0;
        for (bindings, names) in &combos {
            for (i, item) in items.iter().enumerate() {
                let kept = keep.as_ref().is_none_or(|k| k[tested]);
                tested += 1;
                if !kept {
                    continue;
                }
                let mut b = bindings.clone();
                b.push((data_source.name.clone(), item.clone()));
                let mut n = names.clone();
                n.push(format!("{}={}", data_source.name, item_name(item, i)));
                next.push((b, n));
            }
        }
        if next.len() > MAX_GENERATED {
            return Err(too_many(
                Some(next.len()),
                "keeps",
                MAX_GENERATED,
                TOO_MANY_HINT,
            ));
        }
        combos = next;
    }

    let front_tpl = engine
        .env
        .template_from_str(src.yaml)
        .map_err(|e| vec![template_error(&e, src, yaml_line, None)])?;
    let route_tpl = engine
        .env
        .template_from_str(&generate.route)
        .map_err(|e| vec![template_error(&e, src, yaml_line, None)])?;
    let body_tpl = engine
        .env
        .template_from_str(src.body)
        .map_err(|e| vec![template_error(&e, src, body_line, None)])?;

    let results: Vec<Result<Page, Vec<Diagnostic>>> = combos
        .par_iter()
        .map(|(bindings, names)| {
            let item = names.join(", ");
            let err =
                |e: &minijinja::Error, line: usize| vec![template_error(e, src, line, Some(&item))];
            let ctx = engine.context(bindings, None);
            let front_text = front_tpl.render(&ctx).map_err(|e| err(&e, yaml_line))?;
            let mut front: FrontMatter = frontmatter::parse(&front_text, yaml_line, rel, source)
                .map_err(|mut d| {
                    d.message = format!("{} (generated for {item})", d.message);
                    vec![d]
                })?;
            front.generate = None;
            let written = route_tpl.render(&ctx).map_err(|e| err(&e, yaml_line))?;
            let route = crate::markdown::links::route_of_path(&if written.starts_with('/') {
                written.trim().to_string()
            } else {
                format!("{}/{}", src.dir_route.trim_end_matches('/'), written.trim())
            });
            let page_ctx = engine.context(bindings, Some(&front));
            let body = body_tpl.render(&page_ctx).map_err(|e| err(&e, body_line))?;
            // Relative links in a generated page are relative to where the page lives.
            let dir = route
                .rsplit_once('/')
                .map(|(d, _)| if d.is_empty() { "/" } else { d })
                .unwrap_or("/")
                .to_string();
            let draft = Draft {
                item: Some(item.clone()),
                front,
                route,
                is_index: false,
                body,
                link_dir: dir,
                from_file: false,
            };
            finish_page(config, src, draft)
        })
        .collect();
    let mut pages = Vec::new();
    let mut errors = Vec::new();
    for r in results {
        match r {
            Ok(p) => pages.push(p),
            Err(mut e) => errors.append(&mut e),
        }
    }
    if errors.is_empty() {
        Ok(pages)
    } else {
        Err(one_per_cause(errors, &sources))
    }
}

/// The same mistake made for every item is one error, naming how many pages it broke and
/// the data they come from, not one error per generated page.
fn one_per_cause(errors: Vec<Diagnostic>, sources: &[frontmatter::Source]) -> Vec<Diagnostic> {
    let cause = |d: &Diagnostic| {
        let base = d
            .message
            .split(" (generated for ")
            .next()
            .unwrap_or(&d.message);
        Some((d.code, d.line, d.column, base.to_string()))
    };
    let mut kept = crate::diagnostics::fold_repeats(errors, cause);
    let data: Vec<String> = sources
        .iter()
        .map(|s| {
            format!(
                "content/data/{}.yaml",
                s.data.split('.').next().unwrap_or("")
            )
        })
        .collect();
    for (d, more) in &mut kept {
        if *more > 0 {
            d.message = format!("{} (and {more} more generated pages)", d.message);
        }
        let hint = d.hint.take().unwrap_or_default();
        d.hint = Some(format!(
            "{hint}; the pages are generated from {}",
            data.join(", ")
        ));
    }
    kept.into_iter().map(|(d, _)| d).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn binding_names_are_template_variables() {
        for ok in ["platform", "sdk_version", "_x", "n2"] {
            assert!(is_binding_name(ok), "{ok}");
        }
        for bad in ["", "2n", "my-item", "a b", "__docgen_c", "x}}"] {
            assert!(!is_binding_name(bad), "{bad}");
        }
    }
}
