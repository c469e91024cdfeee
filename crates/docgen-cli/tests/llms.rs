//! Output for programs: every page's Markdown twin, `llms.txt` and `llms-full.txt`.

use crate::common;

use common::{fixture, text};
use std::collections::BTreeMap;
use std::path::Path;

fn build(root: &Path, out: &Path, extra: &[&str]) -> BTreeMap<String, Vec<u8>> {
    common::build_site(root, out, extra)
}

/// (route, canonical) of every page route.
fn routes(files: &BTreeMap<String, Vec<u8>>) -> Vec<(String, String)> {
    let v: serde_json::Value = serde_json::from_slice(&files["_docgen/routes.json"]).unwrap();
    v["pages"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| {
            (
                p["route"].as_str().unwrap().to_string(),
                p["canonical"].as_str().unwrap().to_string(),
            )
        })
        .collect()
}

fn folder(route: &str) -> String {
    let r = route.trim_matches('/');
    if r.is_empty() {
        String::new()
    } else {
        format!("{r}/")
    }
}

#[test]
fn every_page_has_a_clean_markdown_twin_linked_from_its_head() {
    let tmp = tempfile::tempdir().unwrap();
    let files = build(&fixture("small-site"), &tmp.path().join("dist"), &[]);
    let routes = routes(&files);
    assert!(routes.len() > 5);
    for (route, canonical) in &routes {
        let twin = text(&files, &format!("{}index.md", folder(route)));
        for shell in [
            "<nav",
            "<script",
            "<footer",
            "<html",
            "class=\"dg-",
            "---\ntitle:",
        ] {
            assert!(
                !twin.contains(shell),
                "{route}: twin holds `{shell}`:\n{twin}"
            );
        }
        for template in ["{{", "{%", "%}", "}}"] {
            assert!(
                !twin.contains(template),
                "{route}: `{template}` left:\n{twin}"
            );
        }
        assert!(twin.starts_with("# "), "{route}: no title heading:\n{twin}");
        let html = text(&files, &format!("{}index.html", folder(route)));
        let link = format!(
            "<link rel=\"alternate\" type=\"text/markdown\" href=\"/{}index.md\">",
            folder(canonical)
        );
        assert!(html.contains(&link), "{route}: no {link}");
    }
    // A templated page: its include and loop rendered, front matter turned into a heading.
    let reference = text(&files, "docs/api/reference/index.md");
    assert!(reference.starts_with("# API Reference\n\n"), "{reference}");
    assert!(reference.contains("The reference lists what every platform supports."));
    assert!(reference.contains("| Alpha | Kotlin |"), "{reference}");
    // A generated page, made from its data item.
    let alpha = text(&files, "docs/platforms/alpha/index.md");
    assert!(
        alpha.starts_with("# Alpha\n\nIntegrate on Alpha with Kotlin.\n"),
        "{alpha}"
    );
    // The description under the title.
    let start = text(&files, "docs/guide/start/index.md");
    assert!(
        start.starts_with(
            "# Getting Started\n\n> Install the SDK and show a first ad.\n\n## Install\n"
        ),
        "{start}"
    );
    // Nothing but pages has a twin: 404 pages and legacy routes do not.
    let twins = files.keys().filter(|k| k.ends_with("index.md")).count();
    assert_eq!(twins, routes.len());
}

#[test]
fn llms_txt_lists_every_page_once_and_each_link_leads_to_a_twin() {
    let tmp = tempfile::tempdir().unwrap();
    let files = build(&fixture("small-site"), &tmp.path().join("dist"), &[]);
    let llms = text(&files, "llms.txt");
    assert!(llms.starts_with("# Small Docs\n\n> "), "{llms}");
    let origin = "https://docs.example.test";
    let links: Vec<&str> = llms
        .lines()
        .filter_map(|l| l.strip_prefix("- ["))
        .map(|l| {
            let start = l.find("](").unwrap() + 2;
            &l[start..start + l[start..].find(')').unwrap()]
        })
        .collect();
    let mut canonicals: Vec<String> = routes(&files)
        .into_iter()
        .filter(|(r, c)| r == c)
        .map(|(r, _)| format!("{origin}/{}index.md", folder(&r)))
        .collect();
    canonicals.sort();
    let mut listed: Vec<String> = links.iter().map(|l| l.to_string()).collect();
    listed.sort();
    assert_eq!(listed, canonicals, "each canonical page exactly once");
    for link in &links {
        let path = link.strip_prefix(&format!("{origin}/")).unwrap();
        assert!(files.contains_key(path), "{link} leads to no twin");
    }
    assert!(llms.contains("\n## Guides: Platforms\n"), "{llms}");
    // llms-full.txt: every twin once, in the order of llms.txt.
    let full = text(&files, "llms-full.txt");
    let mut at = 0;
    for link in &links {
        let page = link.strip_suffix("index.md").unwrap().trim_end_matches('/');
        let marker = format!("<!-- {page} -->\n");
        assert_eq!(full.matches(&marker).count(), 1, "{marker}");
        let found = full.find(&marker).unwrap();
        assert!(found >= at, "{page} out of order");
        at = found;
        let twin = text(&files, link.strip_prefix(&format!("{origin}/")).unwrap());
        assert!(full.contains(&twin));
    }
}

#[test]
fn twins_respect_the_base_path_and_can_be_turned_off() {
    let tmp = tempfile::tempdir().unwrap();
    let files = build(
        &fixture("small-site"),
        &tmp.path().join("dist"),
        &["--base-url", "https://preview.example.test/pr/7/"],
    );
    let html = text(&files, "docs/guide/index.html");
    assert!(html.contains("href=\"/pr/7/docs/guide/index.md\""));
    let llms = text(&files, "llms.txt");
    assert!(llms.contains("(https://preview.example.test/pr/7/docs/guide/index.md)"));
    let start = text(&files, "docs/index.md");
    assert!(
        !start.contains("](/docs/"),
        "links carry the base path:\n{start}"
    );

    let site = tmp.path().join("site");
    common::copy_dir(&fixture("small-site"), &site);
    let yaml = std::fs::read_to_string(site.join("site.yaml")).unwrap();
    std::fs::write(
        site.join("site.yaml"),
        format!("{yaml}llms:\n  enabled: false\n"),
    )
    .unwrap();
    let files = build(&site, &tmp.path().join("off"), &[]);
    assert!(
        !files
            .keys()
            .any(|k| k.ends_with(".md") || k.starts_with("llms"))
    );
    assert!(!text(&files, "docs/guide/index.html").contains("text/markdown"));
}

#[test]
fn a_rebuild_keeps_twins_up_to_date_and_removes_those_of_removed_pages() {
    let tmp = tempfile::tempdir().unwrap();
    let site = tmp.path().join("site");
    common::copy_dir(&fixture("small-site"), &site);
    let out = tmp.path().join("dist");
    build(&site, &out, &[]);
    let start = site.join("content/docs/guide/start.md");
    let edited = std::fs::read_to_string(&start).unwrap().replacen(
        "\n---\n",
        "\n---\nA new first line.\n\n",
        1,
    );
    std::fs::write(&start, edited).unwrap();
    std::fs::remove_file(site.join("content/docs/guide/beta-tools.md")).unwrap();
    // Something docgen did not write stays.
    std::fs::write(out.join("docs/guide/notes.md"), "mine").unwrap();
    let files = build(&site, &out, &[]);
    assert!(text(&files, "docs/guide/start/index.md").contains("A new first line."));
    assert!(!files.contains_key("docs/guide/beta-tools/index.md"));
    assert!(!text(&files, "llms.txt").contains("beta-tools"));
    assert!(!text(&files, "llms-full.txt").contains("beta-tools"));
    assert_eq!(text(&files, "docs/guide/notes.md"), "mine");
}
