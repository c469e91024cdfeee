//! Builds the real documentation site of this repository and checks it against the
//! expectations under tests/site-expectations/: every route exists with its title, its
//! headings as anchors and matching right-menu entries; and the site is closed.

use std::collections::{BTreeMap, HashMap};
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::OnceLock;

use serde::Deserialize;

#[derive(Deserialize)]
struct PageExpectation {
    route: String,
    title: String,
    #[serde(default)]
    anchors: Vec<String>,
}

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// The site is built once for all tests of this file.
fn built() -> &'static Path {
    static OUT: OnceLock<PathBuf> = OnceLock::new();
    OUT.get_or_init(|| {
        let out = std::env::temp_dir().join(format!("docgen-site-test-{}", std::process::id()));
        let result = Command::new(env!("CARGO_BIN_EXE_docgen"))
            .args(["build", "--quiet", "--root"])
            .arg(root())
            .arg("--out")
            .arg(&out)
            .output()
            .expect("run docgen");
        assert!(
            result.status.success(),
            "the site does not build:\n{}",
            String::from_utf8_lossy(&result.stderr)
        );
        out
    })
}

fn page_file(route: &str) -> PathBuf {
    built()
        .join(route.trim_start_matches('/'))
        .join("index.html")
}

fn expectations() -> Vec<(String, PageExpectation)> {
    let dir = root().join("tests/site-expectations");
    let mut all = Vec::new();
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    files.sort();
    for f in files {
        let name = f.file_name().unwrap().to_string_lossy().into_owned();
        if name == "redirects.yaml" || !name.ends_with(".yaml") {
            continue;
        }
        let text = std::fs::read_to_string(&f).unwrap();
        let list: Vec<PageExpectation> =
            yaml_serde::from_str(&text).unwrap_or_else(|e| panic!("{name}: {e}"));
        all.extend(list.into_iter().map(|p| (name.clone(), p)));
    }
    all
}

fn right_menu() -> HashMap<String, Vec<String>> {
    #[derive(Deserialize)]
    #[serde(rename_all = "camelCase")]
    struct Item {
        hash_name: String,
    }
    #[derive(Deserialize)]
    #[serde(rename_all = "camelCase")]
    struct Entry {
        path_name: Vec<String>,
        right_menu_navs: Vec<Item>,
    }
    let entries: Vec<Entry> =
        serde_json::from_slice(&std::fs::read(built().join("_docgen/right-menu.json")).unwrap())
            .unwrap();
    let mut map = HashMap::new();
    for e in entries {
        let hashes: Vec<String> = e
            .right_menu_navs
            .iter()
            .map(|i| i.hash_name.trim_start_matches('#').to_string())
            .collect();
        for p in e.path_name {
            map.insert(p, hashes.clone());
        }
    }
    map
}

fn html_unescape(s: &str) -> String {
    s.replace("&quot;", "\"")
        .replace("&#39;", "'")
        .replace("&lt;", "<")
        .replace("&gt;", ">")
        .replace("&amp;", "&")
}

#[test]
fn every_expected_route_exists_with_its_title_anchors_and_right_menu() {
    let expected = expectations();
    assert!(
        expected.len() > 100,
        "the expectations list only {} routes",
        expected.len()
    );
    let toc = right_menu();
    let mut problems = Vec::new();
    for (file, e) in &expected {
        let path = page_file(&e.route);
        let Ok(html) = std::fs::read_to_string(&path) else {
            problems.push(format!("{file}: {} was not built", e.route));
            continue;
        };
        let title = html
            .split("<title>")
            .nth(1)
            .and_then(|t| t.split("</title>").next())
            .map(html_unescape)
            .unwrap_or_default();
        if !title.starts_with(&format!("{} | ", e.title)) {
            problems.push(format!(
                "{file}: {} has the title {title:?}, expected {:?}",
                e.route, e.title
            ));
        }
        let entries = toc.get(&e.route);
        for a in &e.anchors {
            let mut escaped = String::new();
            docgen::markdown::highlight::escape_into(&mut escaped, a);
            let id = format!(" id=\"{escaped}\"");
            if !html.contains(&id) {
                problems.push(format!("{file}: {} has no anchor #{a}", e.route));
            }
            let heading = html.contains(&format!("<h1{id}"))
                || html.contains(&format!("<h2{id}"))
                || html.contains(&format!("<h3{id}"));
            if heading && !entries.is_some_and(|t| t.contains(a)) {
                problems.push(format!(
                    "{file}: {} lacks the right-menu entry #{a}",
                    e.route
                ));
            }
        }
    }
    assert!(
        problems.is_empty(),
        "{} problems:\n{}",
        problems.len(),
        problems.join("\n")
    );
}

#[test]
fn the_site_passes_check() {
    let out = Command::new(env!("CARGO_BIN_EXE_docgen"))
        .args(["check", "--root"])
        .arg(root())
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

/// Every internal href and #anchor in every built page resolves inside the output.
#[test]
fn every_internal_link_in_the_output_resolves() {
    let out = built();
    let mut ids: BTreeMap<String, Vec<String>> = BTreeMap::new();
    let mut pages = Vec::new();
    for e in walkdir::WalkDir::new(out) {
        let e = e.unwrap();
        if e.file_name() != "index.html" {
            continue;
        }
        let rel = e
            .path()
            .parent()
            .unwrap()
            .strip_prefix(out)
            .unwrap()
            .to_string_lossy()
            .replace('\\', "/");
        let route = format!("/{rel}").trim_end_matches('/').to_string();
        let route = if route.is_empty() {
            "/".to_string()
        } else {
            route
        };
        let html = std::fs::read_to_string(e.path()).unwrap();
        ids.insert(
            route.clone(),
            html.split(" id=\"")
                .skip(1)
                .filter_map(|s| s.split('"').next())
                .map(html_unescape)
                .collect(),
        );
        pages.push((route, html));
    }
    let mut broken = Vec::new();
    for (route, html) in &pages {
        if html.contains("http-equiv=\"refresh\"") {
            continue;
        }
        for href in html
            .split(" href=\"")
            .skip(1)
            .filter_map(|s| s.split('"').next())
            .map(html_unescape)
        {
            if !href.starts_with('/') && !href.starts_with('#') {
                continue;
            }
            let (path, anchor) = href
                .split_once('#')
                .map_or((href.as_str(), None), |(p, a)| (p, Some(a)));
            let path = if path.is_empty() {
                route.as_str()
            } else {
                path
            };
            if path.starts_with("/s/") || path.starts_with("/_docgen/") {
                if !out.join(path.trim_start_matches('/')).exists() {
                    broken.push(format!("{route}: {href}"));
                }
                continue;
            }
            match ids.get(path) {
                None => broken.push(format!("{route}: {href} (no page)")),
                Some(page_ids) => {
                    if let Some(a) = anchor {
                        // Browsers match the percent-decoded fragment against ids.
                        let a = docgen::markdown::links::percent_decode(a);
                        if !a.is_empty() && !page_ids.iter().any(|i| *i == a) {
                            broken.push(format!("{route}: {href} (no anchor)"));
                        }
                    }
                }
            }
        }
    }
    assert!(
        broken.is_empty(),
        "{} broken links:\n{}",
        broken.len(),
        broken
            .iter()
            .take(50)
            .cloned()
            .collect::<Vec<_>>()
            .join("\n")
    );
}

#[derive(Deserialize)]
struct RedirectExpectation {
    route: String,
    redirect: String,
}

/// Every legacy route of the specification is a redirect page that lands on an existing page,
/// and any other legacy path goes home through `_redirects`.
#[test]
fn every_legacy_route_lands_on_an_existing_page() {
    let text =
        std::fs::read_to_string(root().join("tests/site-expectations/redirects.yaml")).unwrap();
    let expected: Vec<RedirectExpectation> = yaml_serde::from_str(&text).unwrap();
    assert!(
        expected.len() > 500,
        "only {} legacy routes are expected",
        expected.len()
    );
    let mut problems = Vec::new();
    for e in &expected {
        let Ok(html) = std::fs::read_to_string(page_file(&e.route)) else {
            problems.push(format!("{} was not written", e.route));
            continue;
        };
        if !html.contains(&format!(
            "<meta http-equiv=\"refresh\" content=\"0; url={}\">",
            e.redirect
        )) {
            problems.push(format!(
                "{} does not send the browser to {}",
                e.route, e.redirect
            ));
        }
        let dest = e.redirect.split('#').next().unwrap();
        if !page_file(dest).is_file() {
            problems.push(format!("{} lands on {dest}, which is not a page", e.route));
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
    let redirects = std::fs::read_to_string(built().join("_redirects")).unwrap();
    assert!(
        redirects
            .lines()
            .any(|l| l == "/legacy/documentation/mediation/* /documentation/mediation 301"),
        "no catch-all:\n{redirects}"
    );
    let routes: serde_json::Value =
        serde_json::from_slice(&std::fs::read(built().join("_docgen/routes.json")).unwrap())
            .unwrap();
    assert_eq!(
        routes["redirects"].as_array().unwrap().len(),
        expected.len(),
        "routes.json lists every expanded legacy route"
    );
}
