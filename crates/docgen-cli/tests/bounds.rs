//! Untrusted input stays within bounds: each pathological input is refused (or shown as text)
//! at once, with a diagnostic naming its file, instead of exhausting time or memory.

use crate::common;

use common::{check_json, docgen, write_site};
use std::path::Path;

/// A site with a home page and the given files (path, text), in a scratch folder.
fn site(files: &[(&str, String)]) -> tempfile::TempDir {
    let mut all = vec![
        ("site.yaml", "title: Bounds\n".to_string()),
        (
            "content/index.md",
            "---\ntitle: Home\n---\nHello.\n".to_string(),
        ),
    ];
    all.extend(files.iter().cloned());
    write_site(&all)
}

/// `docgen check --format json` over `root`: its exit code and its diagnostics.
fn check(root: &Path) -> (i32, Vec<serde_json::Value>) {
    let checked = check_json(root);
    (checked.code.unwrap(), checked.diagnostics)
}

fn only<'a>(diagnostics: &'a [serde_json::Value], code: &str) -> &'a serde_json::Value {
    let found: Vec<_> = diagnostics.iter().filter(|d| d["code"] == code).collect();
    assert_eq!(found.len(), 1, "{diagnostics:#?}");
    found[0]
}

fn list(n: usize) -> String {
    (0..n).map(|i| format!("- {{id: i{i}}}\n")).collect()
}

#[test]
fn generate_counts_its_combinations_before_making_them() {
    let template = "---\ngenerate:\n  each:\n    - {data: items, as: x}\n    - {data: items, as: y}\n    - {data: items, as: z}\n  route: \"/p/{{ x.id }}/{{ y.id }}/{{ z.id }}\"\n---\nBody.\n";
    let dir = site(&[
        ("content/data/items.yaml", list(2_000)),
        ("content/_gen/page.md", template.to_string()),
    ]);
    let (code, diagnostics) = check(dir.path());
    assert_eq!(code, 1);
    let d = only(&diagnostics, "generate.too-many");
    assert_eq!(d["file"], "content/_gen/page.md");
    assert_eq!(d["line"], 2);
    assert!(d["message"].as_str().unwrap().contains("8000000000"), "{d}");
}

#[test]
fn a_where_has_a_budget() {
    // Tested once per pair: 4 million tests are refused before the first.
    let template = "---\ngenerate:\n  each:\n    - {data: items, as: x}\n    - {data: items, as: y, where: \"x.id == y.id\"}\n  route: \"/p/{{ x.id }}/{{ y.id }}\"\n---\nBody.\n";
    let dir = site(&[
        ("content/data/items.yaml", list(2_000)),
        ("content/_gen/page.md", template.to_string()),
    ]);
    let (code, diagnostics) = check(dir.path());
    assert_eq!(code, 1);
    let d = only(&diagnostics, "generate.too-many");
    assert_eq!(d["file"], "content/_gen/page.md");
    assert!(d["message"].as_str().unwrap().contains("where"), "{d}");

    // Within the count, an expensive expression runs out of the template fuel.
    let costly = template.replace("x.id == y.id", "range(100000)|list|length > 0");
    let dir = site(&[
        ("content/data/items.yaml", list(200)),
        ("content/_gen/page.md", costly),
    ]);
    let (code, diagnostics) = check(dir.path());
    assert_eq!(code, 1);
    let d = only(&diagnostics, "template.too-long");
    assert_eq!(
        (d["file"].as_str(), d["line"].as_i64()),
        (Some("content/_gen/page.md"), Some(5))
    );

    // A cheap one keeps what it should.
    let cheap = template.replace("x.id == y.id", "x.id == y.id and x.id != 'i3'");
    let dir = site(&[
        ("content/data/items.yaml", list(20)),
        ("content/_gen/page.md", cheap),
    ]);
    let out = docgen(&["check", "--root", dir.path().to_str().unwrap()]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let said =
        String::from_utf8_lossy(&out.stdout).into_owned() + &String::from_utf8_lossy(&out.stderr);
    assert!(said.contains("checked 20 pages"), "{said}");
}

#[test]
fn deeply_nested_yaml_is_refused_wherever_it_is() {
    let flow =
        |open: &str, close: &str| format!("{}1{}", open.repeat(10_000), close.repeat(10_000));
    let cases = [
        (
            "site.yaml",
            format!("title: Bounds\nfooter: {}\n", flow("[", "]")),
            2,
        ),
        (
            "redirects.yaml",
            format!("legacyBase: /docs\nrules: {}\n", flow("{a: ", "}")),
            2,
        ),
        (
            "content/data/deep.yaml",
            format!("a: 1\nb: {}\n", flow("[", "]")),
            2,
        ),
        (
            "content/deep.md",
            format!(
                "---\ntitle: Deep\nextra: {}\n---\nBody.\n",
                flow("{a: ", "}")
            ),
            3,
        ),
        (
            "content/docs/_category_.yaml",
            format!("label: {}\n", flow("[", "]")),
            1,
        ),
    ];
    for (file, text, line) in cases {
        let dir = site(&[(file, text)]);
        let (code, diagnostics) = check(dir.path());
        assert_eq!(code, 1, "{file}");
        let d = only(&diagnostics, "yaml.too-deep");
        assert_eq!(d["file"], file);
        assert_eq!(d["line"], line, "{file}");
    }
}

#[test]
fn a_huge_table_is_shown_as_text_with_a_warning() {
    let columns = 100_000;
    let table = format!(
        "|{}\n|{}\n|{}\n",
        "h|".repeat(columns),
        "-|".repeat(columns),
        "c|".repeat(columns)
    );
    let dir = site(&[(
        "content/wide.md",
        format!("---\ntitle: Wide\n---\nBefore.\n\n{table}"),
    )]);
    let (code, diagnostics) = check(dir.path());
    assert_eq!(code, 0, "{diagnostics:#?}");
    let d = only(&diagnostics, "table.too-large");
    assert_eq!(
        (d["file"].as_str(), d["line"].as_i64()),
        (Some("content/wide.md"), Some(6))
    );
    assert_eq!(d["severity"], "warning");
}

#[test]
fn routes_a_file_system_cannot_hold_are_found_by_check() {
    let long = "a".repeat(300);
    let dir = site(&[(
        "content/slugged.md",
        format!("---\ntitle: Slugged\nslug: /docs/{long}\n---\nBody.\n"),
    )]);
    let (code, diagnostics) = check(dir.path());
    assert_eq!(code, 1);
    let d = only(&diagnostics, "route.bad-alias");
    assert_eq!(
        (d["file"].as_str(), d["line"].as_i64()),
        (Some("content/slugged.md"), Some(3))
    );

    let template = format!(
        "---\ngenerate:\n  data: items\n  as: x\n  route: \"/p/{long}{{{{ x.id }}}}\"\n---\nBody.\n"
    );
    let dir = site(&[
        ("content/data/items.yaml", list(1)),
        ("content/_gen/page.md", template),
    ]);
    let (code, diagnostics) = check(dir.path());
    assert_eq!(code, 1);
    let d = only(&diagnostics, "page.bad-route");
    assert_eq!(
        (d["file"].as_str(), d["line"].as_i64()),
        (Some("content/_gen/page.md"), Some(5))
    );
    assert!(d["message"].as_str().unwrap().contains("255 bytes"), "{d}");

    let deep = format!("content/{}/page.md", vec!["b".repeat(250); 15].join("/"));
    let dir = site(&[(&deep, "Body.\n".to_string())]);
    let (code, diagnostics) = check(dir.path());
    assert_eq!(code, 1);
    let d = only(&diagnostics, "page.bad-route");
    assert_eq!(
        (d["file"].as_str(), d["line"].as_i64()),
        (Some(deep.as_str()), Some(1))
    );
}

/// A site's own `macros.html` that never ends stops at the template fuel, in the macro that
/// loops: its parts are drawn for many pages by one evaluation of the module, each with at
/// least nine tenths of a page's fuel.
#[test]
fn a_runaway_macro_of_the_shell_is_stopped_in_its_file() {
    let macros = std::fs::read_to_string(common::repo_root().join("templates/macros.html"))
        .unwrap()
        .replace(
            "{% macro breadcrumbs(breadcrumbs) -%}",
            "{% macro breadcrumbs(breadcrumbs) -%}{% for i in range(100000) %}{% for j in range(100000) %}{% endfor %}{% endfor %}",
        );
    let dir = site(&[("templates/macros.html", macros)]);
    let (code, diagnostics) = check(dir.path());
    assert_eq!(code, 1);
    let d = only(&diagnostics, "template.too-long");
    assert_eq!(d["file"], "templates/macros.html");
    assert!(d["line"].as_i64().is_some(), "{d}");
}
