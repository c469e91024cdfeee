//! Images and files pages refer to: found beside the page, in another folder or under
//! `static/`, published under content-hashed names, measured, listed in the marker, and
//! removed when no page refers to them any more.

use crate::common;

use common::{article, copy_dir, fixture, text};
use std::collections::BTreeMap;
use std::path::Path;

fn build(root: &Path, out: &Path) -> BTreeMap<String, Vec<u8>> {
    common::build_site(root, out, &[])
}

/// The one published file whose name is `stem.<10 hex digits>.ext`.
fn hashed<'a>(files: &'a BTreeMap<String, Vec<u8>>, stem: &str, ext: &str) -> &'a str {
    let found: Vec<&str> = files
        .keys()
        .map(String::as_str)
        .filter(|k| {
            k.strip_prefix(stem)
                .and_then(|r| r.strip_prefix('.'))
                .and_then(|r| r.strip_suffix(ext))
                .and_then(|r| r.strip_suffix('.'))
                .is_some_and(|h| h.len() == 10 && h.bytes().all(|b| b.is_ascii_hexdigit()))
        })
        .collect();
    assert_eq!(found.len(), 1, "{stem}.HASH.{ext} in {:?}", files.keys());
    found[0]
}

#[test]
fn images_and_files_are_published_measured_and_listed() {
    let tmp = tempfile::tempdir().unwrap();
    let out = tmp.path().join("dist");
    let files = build(&fixture("images-and-files"), &out);
    let src = fixture("images-and-files");
    // Each file under a name carrying its digest, with the bytes of its source.
    for (stem, ext, source) in [
        ("s/guide/diagram", "png", "content/guide/diagram.png"),
        ("s/images/banner", "png", "content/images/banner.png"),
        ("s/img/logo", "png", "static/img/logo.png"),
        ("s/guide/flow", "svg", "content/guide/flow.svg"),
        ("s/guide/spec", "pdf", "content/guide/spec.pdf"),
    ] {
        let name = hashed(&files, stem, ext);
        assert_eq!(
            files[name],
            std::fs::read(src.join(source)).unwrap(),
            "{name}"
        );
        let marker = text(&files, ".docgen-output");
        assert!(
            marker.lines().any(|l| l.ends_with(&format!(" {name}"))),
            "{name} is not in the marker"
        );
    }
    // Only the files pages refer to are published from content/.
    assert!(
        !files.keys().any(|k| k.contains("unused")),
        "{:?}",
        files.keys()
    );
    let html = text(&files, "guide/index.html");
    insta::assert_snapshot!("images_article", article(&html));
    // The twin points at the published files too.
    let twin = text(&files, "guide/index.md");
    let diagram = hashed(&files, "s/guide/diagram", "png");
    assert!(twin.contains(&format!("](/{diagram} ")), "{twin}");
    assert!(twin.contains(&format!("](/{})", hashed(&files, "s/img/logo", "png"))));
}

#[test]
fn a_page_moved_with_its_image_keeps_it_and_the_old_file_goes() {
    let tmp = tempfile::tempdir().unwrap();
    let site = tmp.path().join("site");
    let out = tmp.path().join("dist");
    copy_dir(&fixture("images-and-files"), &site);
    let before = build(&site, &out);
    let old = hashed(&before, "s/guide/diagram", "png").to_string();

    // The section moves to another folder, its image with it.
    std::fs::rename(site.join("content/guide"), site.join("content/manual")).unwrap();
    std::fs::write(
        site.join("site.yaml"),
        "title: Images Docs\nhome: /manual\nareas:\n  - {displayName: Manual, route: /manual}\n",
    )
    .unwrap();
    let after = build(&site, &out);
    let new = hashed(&after, "s/manual/diagram", "png");
    assert!(!after.contains_key(&old), "{old} is still there");
    assert!(!out.join(&old).exists());
    let html = text(&after, "manual/index.html");
    assert!(
        html.contains(&format!("src=\"/{new}\"")),
        "{}",
        article(&html)
    );
    // The image every page shares stays where it was.
    assert_eq!(
        hashed(&before, "s/images/banner", "png"),
        hashed(&after, "s/images/banner", "png")
    );
    let marker = text(&after, ".docgen-output");
    assert!(marker.contains(new) && !marker.contains(&old));
}
