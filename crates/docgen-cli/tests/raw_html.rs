//! Untrusted addresses and scripts: what `check` refuses in raw HTML and site.yaml (at the
//! writer's file and line), and the hash an inline script gets in the Content-Security-Policy.

use crate::common;

use base64::Engine as _;
use common::{build_site, check_json, fixture, text};
use sha2::{Digest, Sha256};

/// (code, file, line) of each diagnostic `check --format json` prints for the site at `root`;
/// `check` must fail.
fn refused(root: &str) -> Vec<(String, String, u64)> {
    let checked = check_json(&fixture(root));
    assert_eq!(checked.code, Some(1), "{}", checked.stdout);
    checked
        .diagnostics
        .iter()
        .map(|d| {
            (
                d["code"].as_str().unwrap().to_string(),
                d["file"].as_str().unwrap().to_string(),
                d["line"].as_u64().unwrap(),
            )
        })
        .collect()
}

fn at(code: &str, file: &str, line: u64) -> (String, String, u64) {
    (code.to_string(), file.to_string(), line)
}

#[test]
fn check_refuses_code_running_addresses_in_raw_html_where_written() {
    let scheme = "link.unsafe-scheme";
    let page = "content/a.md";
    assert_eq!(
        refused("errors/raw-html-unsafe-url"),
        [
            at(scheme, page, 4),
            at(scheme, page, 7),
            at(scheme, page, 8),
            at(scheme, page, 8),
            at(scheme, page, 11),
            at(scheme, page, 13),
        ]
    );
    assert_eq!(
        refused("errors/raw-html-script-policy"),
        [
            at("html.event-handler", page, 4),
            at("html.external-script", page, 6),
            at("html.srcdoc-script", page, 8),
        ]
    );
}

#[test]
fn check_refuses_code_running_links_of_site_yaml_where_written() {
    let mut found = refused("errors/site-unsafe-link");
    found.sort_by_key(|d| d.2);
    assert_eq!(
        found,
        [
            at("config.bad-url", "site.yaml", 2),
            at("link.unsafe-scheme", "site.yaml", 7),
            at("link.unsafe-scheme", "site.yaml", 10),
        ]
    );
}

#[test]
fn an_inline_script_builds_with_its_hash_in_the_policy() {
    let root = fixture("inline-script");
    let source = std::fs::read_to_string(root.join("content/guide/_index.md")).unwrap();
    let start = source.find("<script>").unwrap() + "<script>".len();
    let script = &source[start..source.find("</script>").unwrap()];
    let expected = format!(
        "'sha256-{}'",
        base64::engine::general_purpose::STANDARD.encode(Sha256::digest(script.as_bytes()))
    );

    let tmp = tempfile::tempdir().unwrap();
    let files = build_site(&root, &tmp.path().join("dist"), &[]);
    let page = text(&files, "guide/index.html");
    assert!(
        page.contains(&format!("<script>{script}</script>")),
        "the script is written as is"
    );
    let headers = text(&files, "_headers");
    let csp = headers
        .lines()
        .find_map(|l| l.trim().strip_prefix("Content-Security-Policy: "))
        .expect("a Content-Security-Policy");
    let script_src = csp
        .split(';')
        .map(str::trim)
        .find(|d| d.starts_with("script-src "))
        .expect("a script-src directive");
    assert!(
        script_src.split(' ').any(|s| s == expected),
        "{expected} not in {script_src}"
    );
}
