//! A writer's existing Markdown builds unchanged: no site.yaml, no front matter, `README.md`
//! as a folder's page, folders without a page of their own, Docusaurus front matter and
//! `_category_` files, `.mdx` pages.

use crate::common;

use common::{check_json, docgen};
use std::path::Path;

use common::{copy_dir, fixture, tree};

fn html(files: &std::collections::BTreeMap<String, Vec<u8>>, path: &str) -> String {
    String::from_utf8(
        files
            .get(path)
            .unwrap_or_else(|| panic!("no {path}"))
            .clone(),
    )
    .unwrap()
}

/// `(label, url)` of a nav node's children.
fn children(node: &serde_json::Value) -> Vec<(String, String)> {
    node["children"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| {
            (
                c["displayName"].as_str().unwrap().to_string(),
                c["url"].as_str().unwrap_or("").to_string(),
            )
        })
        .collect()
}

fn find<'a>(node: &'a serde_json::Value, label: &str) -> Option<&'a serde_json::Value> {
    if node["displayName"] == label {
        return Some(node);
    }
    node["children"]
        .as_array()?
        .iter()
        .find_map(|c| find(c, label))
}

#[test]
fn a_plain_markdown_tree_builds_twice_into_its_own_folder() {
    let tmp = tempfile::tempdir().unwrap();
    let root = tmp.path().join("docs");
    copy_dir(&fixture("writers-layout"), &root);
    let r = root.to_str().unwrap();
    for run in 0..2 {
        // The default output, dist/, sits among the pages: the second build must not read it.
        let built = docgen(&["build", "--root", r]);
        assert!(
            built.status.success(),
            "build {run}: {}",
            String::from_utf8_lossy(&built.stderr)
        );
        let stderr = String::from_utf8_lossy(&built.stderr);
        assert!(!stderr.contains("warning"), "build {run}: {stderr}");
    }
    let files = tree(&root.join("dist"));

    let routes: serde_json::Value = serde_json::from_slice(&files["_docgen/routes.json"]).unwrap();
    let mut pages: Vec<&str> = routes["pages"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p.as_str().or_else(|| p["route"].as_str()).unwrap())
        .collect();
    pages.sort();
    assert_eq!(
        pages,
        [
            "/",
            "/guide/alpha",
            "/guide/fragment",
            "/guide/install",
            "/guide/usage",
            "/guide/zeta",
            "/notes/first-steps",
            "/reference",
            "/reference/api",
            "/use"
        ]
    );

    // Titles: front matter, else the first `# heading`, else the file name.
    assert!(html(&files, "index.html").contains("<title>My Project"));
    assert!(html(&files, "guide/install/index.html").contains("<title>Installing"));
    assert!(html(&files, "guide/usage/index.html").contains("<title>Usage"));
    assert!(html(&files, "notes/first-steps/index.html").contains("<title>First steps"));
    assert!(html(&files, "reference/api/index.html").contains("<title>API"));
    // One h1 per page: the body's own heading is the title heading.
    assert_eq!(
        html(&files, "guide/install/index.html")
            .matches("<h1")
            .count(),
        1
    );

    // The menu: folders without a page are sections named by their category or folder.
    let nav: serde_json::Value = serde_json::from_slice(&files["_docgen/nav.json"]).unwrap();
    let root_node = &nav[0];
    let top: Vec<String> = children(root_node).into_iter().map(|c| c.0).collect();
    assert_eq!(top, ["User guide", "Notes", "Reference"], "{nav:#}");
    let guide = find(root_node, "User guide").unwrap();
    assert_eq!(guide["isPage"], false);
    // Listed items first in the category's order, then the rest by file name; the hidden
    // fragment is built but not listed.
    let labels: Vec<String> = children(guide).into_iter().map(|c| c.0).collect();
    assert_eq!(labels, ["Installing", "Use it", "Alpha", "Zeta"]);
    assert!(find(root_node, "Notes").is_some_and(|n| n["isPage"] == false));

    // Docusaurus: `slug` is a second address, `hide_table_of_contents` hides the contents.
    assert!(files.contains_key("use/index.html"), "the slug is an alias");
    let usage = html(&files, "guide/usage/index.html");
    assert!(!usage.contains("dg-toc-list"), "no table of contents");
}

#[test]
fn a_folder_page_is_readme_index_or_underscore_index() {
    let tmp = tempfile::tempdir().unwrap();
    let root = tmp.path();
    std::fs::write(root.join("site.yaml"), "title: T\n").unwrap();
    for (file, text) in [
        ("content/_index.md", "# Home\n"),
        ("content/a/README.md", "# A\n"),
        ("content/b/index.md", "# B\n"),
        ("content/b/README.md", "# Also B\n"),
    ] {
        let path = root.join(file);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, text).unwrap();
    }
    let checked = check_json(root);
    // Two pages of one folder claim its route: a clear error naming both.
    assert_eq!(checked.code, Some(1));
    let out = checked.stdout;
    assert!(
        out.contains("route.duplicate") && out.contains("content/b/README.md"),
        "{out}"
    );
    std::fs::remove_file(root.join("content/b/README.md")).unwrap();
    let checked = docgen(&["check", "--root", root.to_str().unwrap()]);
    assert!(
        checked.status.success(),
        "{}",
        String::from_utf8_lossy(&checked.stderr)
    );
    assert!(Path::new(&root.join("content/a/README.md")).exists());
}

#[test]
fn site_yaml_can_name_the_content_folder() {
    let tmp = tempfile::tempdir().unwrap();
    let root = tmp.path();
    std::fs::create_dir_all(root.join("docs/guide")).unwrap();
    std::fs::write(
        root.join("docs/README.md"),
        "# Book\n\n[Guide](guide/intro.md)\n",
    )
    .unwrap();
    std::fs::write(root.join("docs/guide/intro.md"), "# Intro\n").unwrap();
    std::fs::write(root.join("site.yaml"), "title: Book\ncontent: docs\n").unwrap();
    let r = root.to_str().unwrap();
    let built = docgen(&["build", "--root", r]);
    assert!(
        built.status.success(),
        "{}",
        String::from_utf8_lossy(&built.stderr)
    );
    assert!(root.join("dist/guide/intro/index.html").is_file());

    std::fs::write(
        root.join("site.yaml"),
        "title: Book\ncontent: ../elsewhere\n",
    )
    .unwrap();
    let checked = docgen(&["check", "--format", "json", "--root", r]);
    assert_eq!(checked.status.code(), Some(1));
    let out = String::from_utf8_lossy(&checked.stdout);
    assert!(
        out.contains("config.bad-content") && out.contains("\"line\":2"),
        "{out}"
    );
}
