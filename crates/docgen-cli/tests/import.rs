//! `docgen import mdbook|docusaurus`: the configuration written for the fixture book and site
//! (snapshots of every new file and of the report), every page left byte for byte, existing
//! files never changed, and the result built by docgen.

use crate::common;

use common::docgen;
use std::path::Path;

/// Imports a copy of the fixture in place; returns the scratch folder and the report (with the
/// scratch path replaced by `ROOT`).
fn import_in_place(kind: &str, fixture: &str) -> (tempfile::TempDir, String) {
    let tmp = tempfile::tempdir().unwrap();
    common::copy_dir(&common::fixture(fixture), tmp.path());
    let root = tmp.path().to_str().unwrap();
    let out = docgen(&["import", kind, root]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let report = String::from_utf8_lossy(&out.stdout).replace(root, "ROOT");
    (tmp, report)
}

/// The files the import added, with their text.
fn added(before: &Path, after: &Path) -> Vec<(String, String)> {
    let old = common::tree(before);
    let new = common::tree(after);
    for (path, bytes) in &old {
        assert_eq!(new.get(path), Some(bytes), "{path} was changed");
    }
    new.iter()
        .filter(|(p, _)| !old.contains_key(*p))
        .map(|(p, b)| (p.clone(), String::from_utf8(b.clone()).unwrap()))
        .collect()
}

fn snapshot_of(files: &[(String, String)]) -> String {
    files
        .iter()
        .map(|(p, t)| format!("==> {p}\n{t}\n"))
        .collect()
}

#[test]
fn mdbook_in_place() {
    let (tmp, report) = import_in_place("mdbook", "import-mdbook");
    let files = added(&common::fixture("import-mdbook"), tmp.path());
    insta::assert_snapshot!("mdbook_files", snapshot_of(&files));
    insta::assert_snapshot!("mdbook_report", report);
}

#[test]
fn docusaurus_in_place() {
    let (tmp, report) = import_in_place("docusaurus", "import-docusaurus");
    let files = added(&common::fixture("import-docusaurus"), tmp.path());
    insta::assert_snapshot!("docusaurus_files", snapshot_of(&files));
    insta::assert_snapshot!("docusaurus_report", report);
}

#[test]
fn the_json_report_lists_what_was_not_converted() {
    let tmp = tempfile::tempdir().unwrap();
    common::copy_dir(&common::fixture("import-mdbook"), tmp.path());
    let out = docgen(&[
        "import",
        "mdbook",
        tmp.path().to_str().unwrap(),
        "--format",
        "json",
    ]);
    assert!(out.status.success());
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["pages"], 8);
    let notes = v["notConverted"].as_array().unwrap();
    let draft = notes.iter().find(|n| n["code"] == "import.draft").unwrap();
    assert_eq!(draft["file"], "src/SUMMARY.md");
    assert_eq!(draft["line"], 11);
    assert!(notes.iter().any(|n| {
        n["file"] == "book.toml"
            && n["message"]
                .as_str()
                .unwrap()
                .contains("preprocessor.mermaid")
    }));
}

#[test]
fn an_existing_file_is_never_changed() {
    let tmp = tempfile::tempdir().unwrap();
    common::copy_dir(&common::fixture("import-mdbook"), tmp.path());
    std::fs::write(
        tmp.path().join("src/guide/_category_.yaml"),
        "label: Mine\n",
    )
    .unwrap();
    let before = common::tree(tmp.path());
    let out = docgen(&["import", "mdbook", tmp.path().to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("_category_.yaml exists"), "{stderr}");
    assert_eq!(common::tree(tmp.path()), before, "nothing was written");
}

#[test]
fn import_elsewhere_copies_pages_byte_for_byte_and_lists_includes_that_leave_them() {
    let tmp = tempfile::tempdir().unwrap();
    let dest = tmp.path().join("site");
    let src = common::fixture("import-mdbook");
    let out = docgen(&[
        "import",
        "mdbook",
        src.to_str().unwrap(),
        dest.to_str().unwrap(),
    ]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    for (path, bytes) in common::tree(&src.join("src")) {
        assert_eq!(
            std::fs::read(dest.join("content").join(&path)).unwrap(),
            bytes,
            "{path}"
        );
    }
    let report = String::from_utf8_lossy(&out.stdout);
    assert!(
        report.contains("src/guide/getting-started.md:6:1: `../../examples/hello.rs` is outside"),
        "{report}"
    );
    assert!(
        !report.contains("options-fragment.md` is outside"),
        "{report}"
    );
    let site = std::fs::read_to_string(dest.join("site.yaml")).unwrap();
    assert!(site.contains("content: content"), "{site}");
    assert!(
        !site.contains("editUrl"),
        "the book's paths no longer hold: {site}"
    );
    assert!(report.contains("edit-url-template"), "{report}");
}

/// Whether main's content stage reads `content:`, `_category_` files and README.md pages yet.
fn content_stage_reads_imports() -> bool {
    let tmp = tempfile::tempdir().unwrap();
    std::fs::write(tmp.path().join("site.yaml"), "content: docs\n").unwrap();
    std::fs::create_dir(tmp.path().join("docs")).unwrap();
    std::fs::write(tmp.path().join("docs/README.md"), "# Home\n").unwrap();
    docgen(&["check", "--root", tmp.path().to_str().unwrap()])
        .status
        .success()
}

fn assert_builds_clean(root: &Path) {
    let out = docgen(&[
        "build",
        "--root",
        root.to_str().unwrap(),
        "--format",
        "json",
    ]);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{stdout}{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

#[test]
fn imported_book_builds() {
    assert!(
        content_stage_reads_imports(),
        "the content stage does not read imports yet"
    );
    let (tmp, _) = import_in_place("mdbook", "import-mdbook");
    assert_builds_clean(tmp.path());
    let page =
        std::fs::read_to_string(tmp.path().join("dist/guide/getting-started/index.html")).unwrap();
    assert!(
        page.contains("hello, widget"),
        "the include outside src/ is rendered"
    );
}

#[test]
fn imported_docusaurus_site_builds() {
    assert!(
        content_stage_reads_imports(),
        "the content stage does not read imports yet"
    );
    let (tmp, _) = import_in_place("docusaurus", "import-docusaurus");
    assert_builds_clean(tmp.path());
}
