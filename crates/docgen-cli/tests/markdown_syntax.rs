//! The Markdown syntax of other generators that docgen renders at build time, on the
//! `markdown-syntax` fixture site (one page per syntax): each page's article as written, and the
//! warnings for what docgen cannot render.

use crate::common;

use common::{article, fixture, text, tree};
use std::process::Command;

#[test]
fn each_syntax_renders_as_html() {
    let tmp = tempfile::tempdir().unwrap();
    let out = tmp.path().join("dist");
    let result = Command::new(env!("CARGO_BIN_EXE_docgen"))
        .args(["build", "--root"])
        .arg(fixture("markdown-syntax"))
        .arg("--out")
        .arg(&out)
        .env("SOURCE_DATE_EPOCH", "1767225600")
        .output()
        .expect("run docgen");
    let stderr = String::from_utf8_lossy(&result.stderr);
    assert!(result.status.success(), "{stderr}");
    // What the pages hold on purpose that docgen cannot render is reported with file:line.
    assert!(
        stderr.contains("content/docs/containers.md:38:1")
            && stderr.contains("markdown.unknown-container"),
        "{stderr}"
    );
    assert!(
        stderr.contains("content/docs/math.md:13:31") && stderr.contains("markdown.math"),
        "{stderr}"
    );
    let files = tree(&out);
    for page in ["containers", "definitions", "math", "code", "tabs"] {
        let html = text(&files, &format!("docs/{page}/index.html"));
        insta::assert_snapshot!(page, article(&html));
    }
}
