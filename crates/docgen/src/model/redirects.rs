//! Expansion of `redirects.yaml` rules over their parameter values.

use std::collections::BTreeMap;

use super::nav::is_prefix;
use crate::config::redirects::{ParamValues, RedirectsConfig};
use crate::diagnostics::{Diagnostic, Diagnostics};

/// One legacy route and where it goes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Redirect {
    /// The full legacy route.
    pub from: String,
    /// The destination route, possibly with `#anchor`.
    pub to: String,
    /// Line of the rule in redirects.yaml (for messages).
    pub line: usize,
}

/// At most this many legacy routes from one rule: each becomes a page of the output, and a
/// rule of a few lines with several parameters could otherwise ask for billions.
pub const MAX_PER_RULE: usize = 10_000;
/// At most this many legacy routes from the whole of `redirects.yaml`.
pub const MAX_TOTAL: usize = 100_000;

/// The distinct `{name}` parameters of a pattern, in order of first use.
fn params_of(pattern: &str) -> Vec<&str> {
    let mut names: Vec<&str> = Vec::new();
    for name in pattern
        .split('{')
        .skip(1)
        .filter_map(|s| s.split_once('}').map(|(n, _)| n))
    {
        if !names.contains(&name) {
            names.push(name);
        }
    }
    names
}

/// Expands every rule; errors for undeclared parameters.
pub fn expand(config: &RedirectsConfig, yaml_text: &str) -> Result<Vec<Redirect>, Diagnostics> {
    let mut out = Vec::new();
    let mut errors = Diagnostics::default();
    let mut over_total = false;
    let base = config.legacy_base.trim_end_matches('/');
    for rule in &config.rules {
        let line = line_of(yaml_text, &rule.from);
        let err = |code: &'static str, msg: String, hint: &str| {
            Diagnostic::new(code, msg)
                .in_file("redirects.yaml")
                .at(line, 1)
                .hint(hint)
        };
        let names = params_of(&rule.from);
        let mut values: Vec<(&str, Vec<(&str, &str)>)> = Vec::new();
        let mut ok = true;
        for name in &names {
            let declared: Option<&ParamValues> =
                rule.params.get(*name).or_else(|| config.params.get(*name));
            match declared {
                Some(v) => values.push((name, v.pairs())),
                None => {
                    let known: Vec<&str> = rule
                        .params
                        .keys()
                        .chain(config.params.keys())
                        .map(String::as_str)
                        .collect();
                    let hint = match crate::diagnostics::did_you_mean(name, known.iter().copied()) {
                        Some(s) => format!("did you mean `{{{s}}}`?"),
                        None => "declare its values under `params:` (shared) or in the rule's own `params:`".into(),
                    };
                    errors.push(err(
                        "redirects.unknown-param",
                        format!(
                            "the parameter `{{{name}}}` in `{}` is not declared",
                            rule.from
                        ),
                        &hint,
                    ));
                    ok = false;
                }
            }
        }
        for name in params_of(&rule.to) {
            if !names.contains(&name) {
                errors.push(err(
                    "redirects.unknown-param",
                    format!("`to` uses `{{{name}}}`, which `from` does not have"),
                    "use only parameters that appear in `from`",
                ));
                ok = false;
            }
        }
        if !ok {
            continue;
        }
        let count = values
            .iter()
            .try_fold(1usize, |n, (_, pairs)| n.checked_mul(pairs.len()));
        let Some(count) = count.filter(|&n| n <= MAX_PER_RULE) else {
            let count = count.map_or_else(|| "countless".to_string(), |n| n.to_string());
            errors.push(err(
                "redirects.too-many",
                format!(
                    "`{}` expands to {count} legacy routes, more than the {MAX_PER_RULE} one rule may have",
                    rule.from
                ),
                "split the rule, or give its parameters fewer values",
            ));
            continue;
        };
        if out.len() + count > MAX_TOTAL {
            if over_total {
                continue;
            }
            over_total = true;
            errors.push(err(
                "redirects.too-many",
                format!(
                    "the rules up to `{}` expand to more than the {MAX_TOTAL} legacy routes redirects.yaml may have",
                    rule.from
                ),
                "remove rules, or give their parameters fewer values",
            ));
            continue;
        }
        // The cartesian product of the parameter values.
        let mut combos: Vec<BTreeMap<&str, (&str, &str)>> = vec![BTreeMap::new()];
        for (name, pairs) in &values {
            combos = combos
                .into_iter()
                .flat_map(|c| {
                    pairs.iter().map(move |p| {
                        let mut c = c.clone();
                        c.insert(*name, *p);
                        c
                    })
                })
                .collect();
        }
        for combo in combos {
            let mut from = rule.from.clone();
            let mut to = rule.to.clone();
            for (name, (legacy, dest)) in &combo {
                from = from.replace(&format!("{{{name}}}"), legacy);
                to = to.replace(&format!("{{{name}}}"), dest);
            }
            let from = normalise(&format!("{base}/{from}"));
            if let Err(why) = crate::config::validate_route(&from) {
                // `..` or `.` here would write the legacy page outside the output folder.
                errors.push(err(
                    "redirects.bad-route",
                    format!("the legacy route `{from}` {why}"),
                    "write `from` as a path below legacyBase, without `.` or `..` segments",
                ));
                continue;
            }
            out.push(Redirect {
                from,
                to: normalise_dest(&to),
                line,
            });
        }
    }
    if errors.is_empty() {
        Ok(out)
    } else {
        Err(errors)
    }
}

/// Adds the legacy base itself (the old home) as a legacy route to `home` when no rule names
/// it and no page sits there, so that its page, its `_redirects` line and its `routes.json`
/// entry all come from the one list of legacy routes.
pub fn add_legacy_root(
    redirects: &mut Vec<Redirect>,
    config: &RedirectsConfig,
    home: &str,
    is_page: impl Fn(&str) -> bool,
) {
    let root = normalise(&config.legacy_base);
    if redirects.iter().any(|r| r.from == root) || is_page(&root) {
        return;
    }
    redirects.push(Redirect {
        from: root,
        to: normalise_dest(config.home.as_deref().unwrap_or(home)),
        line: 0,
    });
}

/// Adds a redirect for each address a reader may type that has no page of its own: the site's
/// root, and each folder above an area's root (`/documentation` above
/// `/documentation/mediation`). Like a legacy route, each gets its page, its `_redirects` line
/// and its `routes.json` entry. The root goes to `home`; a folder goes to `home` when `home`
/// lies below it, else to the first area below it (in the order of site.yaml) that is a page.
/// A page or a legacy route at the same address wins, and an area's own root is left alone.
pub fn add_site_paths(
    redirects: &mut Vec<Redirect>,
    home: &str,
    area_routes: &[&str],
    is_page: impl Fn(&str) -> bool,
) {
    let taken = |redirects: &[Redirect], route: &str| {
        is_page(route) || redirects.iter().any(|r| r.from == route)
    };
    if home != "/" && !taken(redirects, "/") {
        redirects.push(Redirect {
            from: "/".into(),
            to: home.to_string(),
            line: 0,
        });
    }
    for area in area_routes {
        let segments: Vec<&str> = area.split('/').filter(|s| !s.is_empty()).collect();
        for depth in 1..segments.len() {
            let folder = format!("/{}", segments[..depth].join("/"));
            if area_routes.contains(&folder.as_str()) || taken(redirects, &folder) {
                continue;
            }
            let to = if is_prefix(&folder, home) {
                Some(home)
            } else {
                area_routes
                    .iter()
                    .copied()
                    .find(|a| is_prefix(&folder, a) && is_page(a))
            };
            if let Some(to) = to {
                redirects.push(Redirect {
                    from: folder,
                    to: to.to_string(),
                    line: 0,
                });
            }
        }
    }
}

/// Collapses the empty segments left by `""` values and trailing slashes.
fn normalise(route: &str) -> String {
    let parts: Vec<&str> = route.split('/').filter(|s| !s.is_empty()).collect();
    format!("/{}", parts.join("/"))
}

fn normalise_dest(to: &str) -> String {
    match to.split_once('#') {
        Some((r, a)) => format!("{}#{a}", normalise(r)),
        None => normalise(to),
    }
}

/// The line of the first `from:` holding `pattern`, so messages can point at the rule.
fn line_of(text: &str, pattern: &str) -> usize {
    text.lines()
        .position(|l| l.contains("from") && l.contains(pattern))
        .map_or(0, |i| i + 1)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cfg(yaml: &str) -> RedirectsConfig {
        yaml_serde::from_str(yaml).unwrap()
    }

    #[test]
    fn expands_lists_maps_and_empty_values() {
        let text = r#"
legacyBase: /old
params:
  platform: [android, ios]
rules:
  - from: "{platform}/ad-formats/{format}"
    params: {format: {banners: banners, mrecs: "banners#mrecs"}}
    to: "/new/{platform}/ad-formats/{format}"
  - from: "{platform}/mediation-adapters/{native}"
    params: {native: ["", android]}
    to: "/new/{platform}/mediation-adapters"
"#;
        let r = expand(&cfg(text), text).unwrap();
        let pairs: Vec<(&str, &str)> = r.iter().map(|r| (r.from.as_str(), r.to.as_str())).collect();
        assert!(pairs.contains(&(
            "/old/android/ad-formats/mrecs",
            "/new/android/ad-formats/banners#mrecs"
        )));
        assert!(pairs.contains(&("/old/ios/ad-formats/banners", "/new/ios/ad-formats/banners")));
        assert!(pairs.contains(&("/old/ios/mediation-adapters", "/new/ios/mediation-adapters")));
        assert!(pairs.contains(&(
            "/old/android/mediation-adapters/android",
            "/new/android/mediation-adapters"
        )));
        assert_eq!(r.len(), 8);
        assert_eq!(r[0].line, 6);
    }

    #[test]
    fn the_legacy_base_is_a_legacy_route_once() {
        let text = "legacyBase: /old/\nrules:\n  - from: x\n    to: /new/x\n";
        let mut r = expand(&cfg(text), text).unwrap();
        add_legacy_root(&mut r, &cfg(text), "/home", |_| false);
        let pairs: Vec<(&str, &str)> = r.iter().map(|r| (r.from.as_str(), r.to.as_str())).collect();
        assert_eq!(pairs, [("/old/x", "/new/x"), ("/old", "/home")]);
        // A rule for the root, or a page at the root, wins.
        let text = "legacyBase: /old\nhome: /start\nrules:\n  - from: \"\"\n    to: /new\n";
        let mut r = expand(&cfg(text), text).unwrap();
        add_legacy_root(&mut r, &cfg(text), "/home", |_| false);
        assert_eq!(r.len(), 1);
        assert_eq!(r[0].to, "/new");
        let text = "legacyBase: /old\nhome: /start\nrules: []\n";
        let mut r = expand(&cfg(text), text).unwrap();
        add_legacy_root(&mut r, &cfg(text), "/home", |p| p == "/old");
        assert!(r.is_empty());
        add_legacy_root(&mut r, &cfg(text), "/home", |_| false);
        assert_eq!(r[0].to, "/start");
    }

    #[test]
    fn the_root_and_the_folders_above_the_areas_lead_home_or_to_an_area() {
        let pages = ["/docs/guides", "/docs/partners", "/api/v2/ref", "/api"];
        let is_page = |r: &str| pages.contains(&r);
        let areas = [
            "/docs/guides",
            "/docs/partners",
            "/api/v2/ref",
            "/internal/tools/x",
        ];
        let mut r = vec![Redirect {
            from: "/internal".into(),
            to: "/docs/guides".into(),
            line: 3,
        }];
        add_site_paths(&mut r, "/docs/partners", &areas, is_page);
        let pairs: Vec<(&str, &str)> = r.iter().map(|r| (r.from.as_str(), r.to.as_str())).collect();
        assert_eq!(
            pairs,
            [
                // A legacy route at a folder is kept as it is.
                ("/internal", "/docs/guides"),
                ("/", "/docs/partners"),
                // The home page lies below: it wins over the first area.
                ("/docs", "/docs/partners"),
                // `/api` is a page; `/api/v2` leads to the area below it.
                ("/api/v2", "/api/v2/ref"),
                // `/internal/tools` has no page below it to go to.
            ]
        );
        // A page at the root, or a home at the root, leaves the root alone.
        let mut r = Vec::new();
        add_site_paths(&mut r, "/", &["/a/b"], |p| p == "/a/b");
        assert_eq!(
            r,
            [Redirect {
                from: "/a".into(),
                to: "/a/b".into(),
                line: 0
            }]
        );
        let mut r = Vec::new();
        add_site_paths(&mut r, "/a/b", &["/a/b"], |p| p == "/a/b" || p == "/");
        assert_eq!(r.len(), 1);
        assert_eq!(r[0].from, "/a");
    }

    #[test]
    fn legacy_routes_may_not_climb_out() {
        let text = "legacyBase: /old\nrules:\n  - from: \"../../../etc/x\"\n    to: /new\n";
        let e = expand(&cfg(text), text).unwrap_err().into_sorted();
        assert_eq!(e[0].code, "redirects.bad-route");
        assert_eq!(e[0].line, 3);
    }

    #[test]
    fn undeclared_parameters_are_errors() {
        let text = "legacyBase: /old\nparams: {platform: [a]}\nrules:\n  - from: \"{platfrom}/x\"\n    to: \"/new/{platfrom}\"\n";
        let e = expand(&cfg(text), text).unwrap_err().into_sorted();
        assert_eq!(e[0].code, "redirects.unknown-param");
        assert_eq!(e[0].line, 4);
        assert_eq!(e[0].hint.as_deref(), Some("did you mean `{platform}`?"));
    }

    #[test]
    fn a_repeated_parameter_takes_one_value_per_route() {
        let text = "legacyBase: /old\nparams: {p: [a, b]}\nrules:\n  - from: \"{p}/x/{p}\"\n    to: \"/new/{p}\"\n";
        let r = expand(&cfg(text), text).unwrap();
        let from: Vec<&str> = r.iter().map(|r| r.from.as_str()).collect();
        assert_eq!(from, ["/old/a/x/a", "/old/b/x/b"]);
    }

    #[test]
    fn a_rule_expanding_to_too_many_routes_is_an_error() {
        // Ten values in ten parameters: ten billion routes from five short lines.
        let text = "legacyBase: /old\nparams:\n  a: &v [q, r, s, t, u, v, w, x, y, z]\n  b: *v\n  c: *v\n  d: *v\n  e: *v\n  f: *v\n  g: *v\n  h: *v\n  i: *v\n  j: *v\nrules:\n  - from: \"{a}{b}{c}{d}{e}{f}{g}{h}{i}{j}\"\n    to: /new\n";
        let e = expand(&cfg(text), text).unwrap_err().into_sorted();
        assert_eq!(e.len(), 1);
        assert_eq!(e[0].code, "redirects.too-many");
        assert_eq!(e[0].line, 14);
        assert!(e[0].message.contains("10000000000"), "{}", e[0].message);
    }

    #[test]
    fn too_many_routes_over_all_rules_is_an_error() {
        let mut text = String::from(
            "legacyBase: /old\nparams:\n  a: &v [q, r, s, t, u, v, w, x, y, z]\n  b: *v\n  c: *v\n  d: *v\nrules:\n",
        );
        for i in 0..11 {
            text.push_str(&format!(
                "  - from: \"r{i}/{{a}}{{b}}{{c}}{{d}}\"\n    to: /new\n"
            ));
        }
        let e = expand(&cfg(&text), &text).unwrap_err().into_sorted();
        assert_eq!(e.len(), 1);
        assert_eq!(e[0].code, "redirects.too-many");
        assert!(e[0].message.contains("r10/"), "{}", e[0].message);
    }
}
