//! `docgen check --external`: every link leaving the site, with its places, in each format;
//! never part of a build or of a plain check.

use crate::common;

use common::fixture;
use std::process::{Command, Output};

fn docgen(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_docgen"))
        .args(args)
        .env("CI", "true")
        .output()
        .expect("run docgen")
}

fn external(format: &str) -> String {
    let root = fixture("external-links");
    let out = docgen(&[
        "check",
        "--external",
        "--format",
        format,
        "--root",
        root.to_str().unwrap(),
    ]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap()
}

#[test]
fn external_links_are_listed_once_each_with_every_place() {
    insta::assert_snapshot!("external_human", external("human"));
    insta::assert_snapshot!("external_github", external("github"));
    insta::assert_snapshot!("external_json", external("json"));
}

#[test]
fn neither_build_nor_check_lists_external_links() {
    let root = fixture("external-links");
    let tmp = tempfile::tempdir().unwrap();
    let out_dir = tmp.path().join("dist");
    for args in [
        vec!["check", "--root", root.to_str().unwrap()],
        vec![
            "build",
            "--root",
            root.to_str().unwrap(),
            "--out",
            out_dir.to_str().unwrap(),
        ],
        vec![
            "check",
            "--format",
            "github",
            "--root",
            root.to_str().unwrap(),
        ],
    ] {
        let out = docgen(&args);
        assert!(out.status.success(), "{args:?}");
        let all = format!(
            "{}{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        );
        for url in ["spec.example.test", "status.example.test", "link.external"] {
            assert!(!all.contains(url), "{args:?} listed {url}:\n{all}");
        }
    }
}

#[test]
fn a_content_error_is_reported_instead_of_a_list() {
    let tmp = tempfile::tempdir().unwrap();
    let site = tmp.path().join("site");
    common::copy_dir(&fixture("external-links"), &site);
    std::fs::write(
        site.join("content/docs/guide.md"),
        "---\ntitle: Guide\n---\nSee [nothing](/docs/missing) and [x](https://x.example.test/).\n",
    )
    .unwrap();
    let out = docgen(&["check", "--external", "--root", site.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(1));
    assert!(!String::from_utf8_lossy(&out.stdout).contains("x.example.test"));
    assert!(String::from_utf8_lossy(&out.stderr).contains("link.missing-page"));
}
