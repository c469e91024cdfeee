//! mdBook include directives: every form expanded into the page and its Markdown twin, and
//! diagnostics after an include still at the writer's lines.

use crate::common;

use common::{copy_dir, fixture, text, tree};
use std::path::Path;
use std::process::{Command, Output};

fn docgen(args: &[&str], root: &Path) -> Output {
    Command::new(env!("CARGO_BIN_EXE_docgen"))
        .args(args)
        .arg("--root")
        .arg(root)
        .env("SOURCE_DATE_EPOCH", "1767225600")
        .env(
            "GIT_CEILING_DIRECTORIES",
            Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures"),
        )
        .output()
        .expect("run docgen")
}

#[test]
fn every_form_is_expanded_in_the_page_and_its_twin() {
    let tmp = tempfile::tempdir().unwrap();
    let out = tmp.path().join("dist");
    let root = fixture("includes");
    let built = docgen(&["build", "--quiet", "--out", out.to_str().unwrap()], &root);
    assert!(
        built.status.success(),
        "{}",
        String::from_utf8_lossy(&built.stderr)
    );
    let files = tree(&out);
    insta::assert_snapshot!("includes_twin", text(&files, "book/index.md"));
    let html = text(&files, "book/index.html");
    assert!(!html.contains("ANCHOR"), "anchor lines are left out");
    assert!(
        html.contains("{{#include ../../code/example.rs}}"),
        "the escaped directive stays"
    );
    // Six fenced includes and the playground, each a highlighted code box.
    assert_eq!(html.matches("class=\"dg-code\"").count(), 7);
}

#[test]
fn a_mistake_after_an_include_is_reported_at_the_writers_line() {
    let tmp = tempfile::tempdir().unwrap();
    let site = tmp.path().join("site");
    copy_dir(&fixture("includes"), &site);
    let page = site.join("content/book/_index.md");
    let mut md = std::fs::read_to_string(&page).unwrap();
    md.push_str("\nSee [the missing page](/book/nowhere).\n");
    std::fs::write(&page, &md).unwrap();
    let line = md.lines().count();
    let checked = docgen(&["check", "--format", "json"], &site);
    assert_eq!(checked.status.code(), Some(1));
    let d: serde_json::Value = serde_json::from_str(
        String::from_utf8(checked.stdout)
            .unwrap()
            .lines()
            .next()
            .unwrap(),
    )
    .unwrap();
    assert_eq!(d["code"], "link.missing-page");
    assert_eq!(d["line"].as_u64().unwrap() as usize, line, "{d}");
}
