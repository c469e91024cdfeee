//! The template environment: docgen's templates (or the site's own copies), the HTML escaping
//! and the filters the templates use to turn the views' routes into addresses.

use std::hash::{Hash, Hasher};

use minijinja::{Environment, State, Value};

use crate::config::Config;
use crate::view::json::script_json;

/// The templates, embedded so `docgen` is one file; a site may override any of them with a
/// file of the same name in its own `templates/` folder.
const TEMPLATES: &[(&str, &str)] = &[
    ("base.html", include_str!("../../../../templates/base.html")),
    (
        "macros.html",
        include_str!("../../../../templates/macros.html"),
    ),
    ("page.html", include_str!("../../../../templates/page.html")),
    ("faq.html", include_str!("../../../../templates/faq.html")),
    (
        "redirect.html",
        include_str!("../../../../templates/redirect.html"),
    ),
    (
        "not_found.html",
        include_str!("../../../../templates/not_found.html"),
    ),
];

/// The texts the reader sees, by id: the one table for the templates (the global `t`:
/// `{{ t["toc.toggle"] }}`) and for the app, which imports the same file (`frontend/src/i18n.ts`);
/// each other locale's is `templates/strings.<code>.json` (see `config::locales`).
#[cfg(test)]
fn strings() -> std::collections::BTreeMap<String, String> {
    crate::config::locales::english_strings()
}

/// The templates listed here are the ones the config stage reads a site's copies of.
const _: () = {
    assert!(TEMPLATES.len() == crate::config::TEMPLATE_NAMES.len());
    let mut i = 0;
    while i < TEMPLATES.len() {
        let (a, b) = (
            TEMPLATES[i].0.as_bytes(),
            crate::config::TEMPLATE_NAMES[i].as_bytes(),
        );
        assert!(
            a.len() == b.len(),
            "TEMPLATES and config::TEMPLATE_NAMES differ"
        );
        let mut j = 0;
        while j < a.len() {
            assert!(a[j] == b[j], "TEMPLATES and config::TEMPLATE_NAMES differ");
            j += 1;
        }
        i += 1;
    }
};

/// The environment with every template compiled and the filters
/// - `href`: the address of a route under the site's base path;
/// - `script_json`: a value as JSON that is safe inside an inline `<script>`;
///
/// and the global `t`, the reader's texts by id.
pub fn environment(
    config: &Config,
    strings: &crate::config::locales::Strings,
) -> Result<Environment<'static>, minijinja::Error> {
    environment_of(&config.base_path, &config.templates, strings)
}

/// `environment` for a site served under `base_path`, with its own copies of templates `own`.
pub fn environment_of(
    base_path: &str,
    own: &[(&'static str, std::sync::Arc<str>)],
    strings: &crate::config::locales::Strings,
) -> Result<Environment<'static>, minijinja::Error> {
    let mut env = Environment::new();
    env.set_fuel(Some(crate::content::templating::FUEL));
    // Escape only what HTML needs; the default also escapes `/`, which bloats every href.
    env.set_formatter(|out, state, value| {
        if matches!(state.auto_escape(), minijinja::AutoEscape::Html)
            && !value.is_safe()
            && let Some(s) = value.as_str()
        {
            // Straight into the output: no string of its own per value.
            return pulldown_cmark_escape::escape_html(pulldown_cmark_escape::FmtWriter(out), s)
                .map_err(minijinja::Error::from);
        }
        minijinja::escape_formatter(out, state, value)
    });
    let base = base_path.to_string();
    env.add_filter("href", move |route: Value| -> Value {
        // At the root of a host a route is its own address: no new string.
        match route.as_str() {
            Some(r) if !base.is_empty() => Value::from(crate::config::href_under(&base, r)),
            _ => route,
        }
    });
    env.add_filter("script_json", |v: Value| {
        Value::from_safe_string(script_json(&v))
    });
    env.add_global("t", Value::from(strings.clone()));
    // The writer's copies were read with the configuration, by the rules of every source;
    // a copy that could not be read stopped the build there.
    for (name, builtin) in TEMPLATES {
        let own = own.iter().find(|(n, _)| n == name);
        let text = own.map_or(*builtin, |(_, text)| &**text);
        env.add_template_owned(*name, text.to_string())?;
    }
    Ok(env)
}

/// A digest of the template sources in use.
pub fn digest(env: &Environment<'_>, state: &mut impl Hasher) {
    for (name, _) in TEMPLATES {
        env.get_template(name)
            .map(|t| t.source().to_string())
            .unwrap_or_default()
            .hash(state);
    }
}

/// The markup of one macro of `macros.html`, for the pieces of the shell rendered once and
/// reused by many pages.
pub fn call_macro(
    env: &Environment<'_>,
    name: &str,
    args: &[Value],
) -> Result<String, minijinja::Error> {
    env.get_template("macros.html")?
        .render_captured(())?
        .with_state_mut(|state: &mut State<'_, '_>| state.call_macro(name, args))
}

/// The markup of macro `name` of `macros.html` called once with each of `args`, the module
/// evaluated once for all of them.
pub fn call_macros(
    env: &Environment<'_>,
    name: &str,
    args: &[Value],
) -> Result<Vec<String>, minijinja::Error> {
    env.get_template("macros.html")?
        .render_captured(())?
        .with_state_mut(|state: &mut State<'_, '_>| {
            args.iter()
                .map(|arg| state.call_macro(name, std::slice::from_ref(arg)))
                .collect()
        })
}

/// The markup of macro `name` of the module evaluated in `state`, as the macro gives it (a
/// safe string; `State::call_macro` would copy it into a `String`, and a page's article is
/// long).
pub fn draw(
    state: &mut State<'_, '_>,
    name: &str,
    args: &[Value],
) -> Result<Value, minijinja::Error> {
    let found = state.lookup(name).ok_or_else(|| {
        minijinja::Error::new(
            minijinja::ErrorKind::UnknownFunction,
            format!("macros.html has no macro `{name}`"),
        )
    })?;
    found.call(state, args)
}

/// Whether any of `templates` reads the context variable `name`.
pub fn read_variable(env: &Environment<'_>, templates: &[&str], name: &str) -> bool {
    templates.iter().any(|t| {
        env.get_template(t)
            .is_ok_and(|t| t.undeclared_variables(false).contains(name))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// An id missing from the table would render as nothing: every `t["id"]` of the templates
    /// must be in it (the app's ids are checked by its compiler and `frontend/test/strings.test.ts`).
    #[test]
    fn every_string_the_templates_use_is_in_the_table() {
        let table = strings();
        let mut used = 0;
        for (name, text) in TEMPLATES {
            for (at, _) in text.match_indices("t[\"") {
                let rest = &text[at + 3..];
                let id = &rest[..rest.find('"').expect("the id is closed")];
                assert!(
                    table.contains_key(id),
                    "{name} uses {id:?}, which templates/strings.json lacks"
                );
                used += 1;
            }
        }
        assert!(used > 10, "the templates use the table");
    }
}
