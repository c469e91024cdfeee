//! Versions read from git: a repository made in the test (never this one's history) whose tag
//! holds version 1.x and whose working tree holds 2.x, built into one output.

use crate::common;

use std::collections::BTreeMap;
use std::path::Path;
use std::process::Command;

use common::{check_json, copy_dir, fixture, text, tree};

fn git(root: &Path, args: &[&str]) {
    let ok = Command::new("git")
        .arg("-C")
        .arg(root)
        .args(args)
        .env("GIT_AUTHOR_DATE", "1700000000 +0000")
        .env("GIT_COMMITTER_DATE", "1700000000 +0000")
        .env("GIT_AUTHOR_NAME", "t")
        .env("GIT_AUTHOR_EMAIL", "t@example.test")
        .env("GIT_COMMITTER_NAME", "t")
        .env("GIT_COMMITTER_EMAIL", "t@example.test")
        .env("GIT_CONFIG_GLOBAL", "/dev/null")
        .output()
        .expect("git is installed")
        .status
        .success();
    assert!(ok, "git {args:?}");
}

/// The fixture as a repository: `v1/content` committed and tagged `v1.0`, then replaced by
/// `v2/content` in a second commit (the working tree).
fn repository() -> tempfile::TempDir {
    let tmp = tempfile::tempdir().unwrap();
    let root = tmp.path();
    let fx = fixture("versions");
    for f in ["site.yaml", "redirects.yaml"] {
        std::fs::copy(fx.join(f), root.join(f)).unwrap();
    }
    copy_dir(&fx.join("v1/content"), &root.join("content"));
    git(root, &["init", "-q"]);
    git(root, &["add", "."]);
    git(root, &["commit", "-q", "-m", "version 1"]);
    git(root, &["tag", "v1.0"]);
    std::fs::remove_dir_all(root.join("content")).unwrap();
    copy_dir(&fx.join("v2/content"), &root.join("content"));
    git(root, &["add", "-A"]);
    git(root, &["commit", "-q", "-m", "version 2"]);
    tmp
}

fn docgen_in(root: &Path, args: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_docgen"))
        .args(args)
        .arg("--root")
        .arg(root)
        .env("NO_COLOR", "1")
        .env("SOURCE_DATE_EPOCH", "1767225600")
        .env("GIT_CEILING_DIRECTORIES", root.parent().unwrap())
        .output()
        .expect("run docgen")
}

fn build(root: &Path) -> BTreeMap<String, Vec<u8>> {
    let out = root.join("dist");
    let result = docgen_in(root, &["build", "--quiet", "--out", out.to_str().unwrap()]);
    assert!(
        result.status.success(),
        "{}",
        String::from_utf8_lossy(&result.stderr)
    );
    tree(&out)
}

/// What a page shows of the versions: its canonical link, its version menu and its banner.
fn versions_of(html: &str) -> String {
    let mut shown = Vec::new();
    let canonical = html
        .lines()
        .find(|l| l.starts_with("<link rel=\"canonical\""))
        .expect("a canonical link");
    shown.push(canonical.to_string());
    if let Some(start) = html.find("<details class=\"dg-version-menu\">") {
        let end = html[start..].find("</details>").unwrap() + start + "</details>".len();
        shown.push(html[start..end].to_string());
    }
    if let Some(start) = html.find("<p class=\"dg-version-banner\"") {
        let end = html[start..].find("</p>").unwrap() + start + "</p>".len();
        shown.push(html[start..end].to_string());
    }
    shown.join("\n")
}

#[test]
fn two_versions_from_git_are_built_into_one_output() {
    let repo = repository();
    let files = build(repo.path());
    let listing: Vec<&str> = files
        .keys()
        .map(String::as_str)
        .filter(|p| !p.contains("/s/") && !p.starts_with("s/") && !p.contains("_docgen/"))
        .collect();
    insta::assert_snapshot!("versions_files", listing.join("\n"));
    for (name, page) in [
        ("latest_start", "docs/start/index.html"),
        ("latest_only_page", "docs/new-api/index.html"),
        ("older_start", "1.x/docs/start/index.html"),
        ("older_only_page", "1.x/docs/old-api/index.html"),
    ] {
        insta::assert_snapshot!(format!("versions_{name}"), versions_of(&text(&files, page)));
    }
    // The older version's own content, image and all, from its commit.
    let older = text(&files, "1.x/docs/start/index.html");
    assert!(older.contains("initializeSdk(listener)"), "{older}");
    assert!(older.contains("src=\"/1.x/s/docs/flow."), "{older}");
    assert!(!text(&files, "docs/start/index.html").contains("initializeSdk"));
    // Each version searches its own pages, from its own index.
    let index = |p: &str| String::from_utf8_lossy(&files[p]).into_owned();
    assert!(files.contains_key("1.x/_docgen/search/index.json"));
    assert!(older.contains("\"index\":\"/1.x/_docgen/search/index.json\""));
    assert!(
        files
            .keys()
            .filter(|p| p.starts_with("1.x/_docgen/search/"))
            .any(|p| index(p).contains("legacykey")),
        "the 1.x index holds its own words"
    );
    assert!(
        !files
            .keys()
            .filter(|p| p.starts_with("_docgen/search/"))
            .any(|p| index(p).contains("legacykey")),
        "the latest index does not"
    );
    // One policy for every version, allowing the earlier version's inline scripts too; its
    // hashed files are cached for good, its pages revalidated.
    let headers = text(&files, "_headers");
    for (path, bytes) in files
        .iter()
        .filter(|(p, _)| p.starts_with("1.x/") && p.ends_with(".html"))
    {
        for script in docgen::output::headers::inline_scripts(&String::from_utf8_lossy(bytes)) {
            let hash = docgen::output::headers::script_hash(script);
            assert!(headers.contains(&hash), "{path}: {hash}");
        }
    }
    assert_eq!(headers.matches("Content-Security-Policy").count(), 1);
    assert!(headers.contains("/1.x/s/*\n  Cache-Control: public, max-age=31536000, immutable"));
    assert!(headers.contains("/1.x/docs/*\n  Cache-Control: public, max-age=0, must-revalidate"));
    // The sitemap lists the latest only; legacy routes and the root's files are not repeated.
    let sitemap = text(&files, "sitemap.xml");
    assert!(sitemap.contains("/docs/new-api") && !sitemap.contains("/1.x/"));
    assert!(files.contains_key("old/start/index.html"));
    for root_only in [
        "_redirects",
        "_headers",
        "robots.txt",
        "sitemap.xml",
        "old/start/index.html",
    ] {
        assert!(
            !files.contains_key(&format!("1.x/{root_only}")),
            "{root_only}"
        );
    }
}

#[test]
fn without_versions_nothing_changes() {
    let repo = repository();
    let yaml = std::fs::read_to_string(repo.path().join("site.yaml")).unwrap();
    let plain = yaml[..yaml.find("versions:").unwrap()].to_string();
    std::fs::write(repo.path().join("site.yaml"), plain).unwrap();
    let files = build(repo.path());
    assert!(!files.keys().any(|p| p.starts_with("1.x/")));
    for (path, bytes) in &files {
        if path.ends_with(".html") {
            let html = String::from_utf8_lossy(bytes);
            assert!(!html.contains("dg-version"), "{path}");
        }
    }
}

#[test]
fn an_unknown_ref_is_an_error_at_its_line_with_the_hint() {
    let repo = repository();
    let yaml = std::fs::read_to_string(repo.path().join("site.yaml")).unwrap();
    std::fs::write(
        repo.path().join("site.yaml"),
        yaml.replace("ref: v1.0", "ref: v1.O"),
    )
    .unwrap();
    let out = docgen_in(repo.path(), &["check", "--format", "json"]);
    assert_eq!(out.status.code(), Some(1));
    let d: serde_json::Value =
        serde_json::from_str(String::from_utf8_lossy(&out.stdout).lines().next().unwrap()).unwrap();
    assert_eq!(d["code"], "version.unknown-ref");
    assert_eq!(d["file"], "site.yaml");
    assert_eq!(d["line"], 9);
    let hint = d["hint"].as_str().unwrap();
    assert!(
        hint.contains("git fetch --tags") && hint.contains("spelling"),
        "{hint}"
    );
}

#[test]
fn outside_a_git_work_tree_is_an_error_at_the_ref() {
    let tmp = tempfile::tempdir().unwrap();
    let fx = fixture("versions");
    std::fs::copy(fx.join("site.yaml"), tmp.path().join("site.yaml")).unwrap();
    copy_dir(&fx.join("v2/content"), &tmp.path().join("content"));
    let checked = {
        let out = docgen_in(tmp.path(), &["check", "--format", "json"]);
        let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
        (out.status.code(), stdout)
    };
    assert_eq!(checked.0, Some(1));
    let d: serde_json::Value = serde_json::from_str(checked.1.lines().next().unwrap()).unwrap();
    assert_eq!(d["code"], "version.no-git");
    assert_eq!(
        (d["file"].as_str(), d["line"].as_u64()),
        (Some("site.yaml"), Some(9))
    );
}

#[test]
fn a_bad_version_name_is_an_error_at_its_line() {
    let repo = repository();
    let yaml = std::fs::read_to_string(repo.path().join("site.yaml")).unwrap();
    std::fs::write(
        repo.path().join("site.yaml"),
        yaml.replace("name: \"1.x\"", "name: \"1/x\""),
    )
    .unwrap();
    let checked = check_json(repo.path());
    assert_eq!(checked.code, Some(1));
    let d = &checked.diagnostics[0];
    assert_eq!(d["code"], "config.bad-version");
    assert_eq!(d["line"], 9);
}

#[test]
fn the_preview_server_builds_an_earlier_version_again_only_when_its_ref_moves() {
    use docgen::serve::Session;
    use std::collections::HashSet;
    use std::path::PathBuf;

    let repo = repository();
    let root = repo.path();
    let out = tempfile::tempdir().unwrap();
    let mut session =
        Session::new(root, &out.path().join("out"), false, Default::default()).unwrap();
    let first = session.rebuild(&HashSet::new()).unwrap();
    let older = |paths: &[PathBuf]| {
        paths
            .iter()
            .filter(|p| p.starts_with("1.x"))
            .map(|p| p.to_string_lossy().into_owned())
            .collect::<Vec<_>>()
    };
    assert!(older(&first.written).contains(&"1.x/docs/start/index.html".to_string()));

    // An edit of the working tree: the latest changes, 1.x is not rendered again.
    std::fs::write(
        root.join("content/docs/start.md"),
        "---\ntitle: Getting Started\norder: 1\n---\nEdited.\n",
    )
    .unwrap();
    let edited: HashSet<PathBuf> = [PathBuf::from("content/docs/start.md")].into();
    let second = session.rebuild(&edited).unwrap();
    assert!(
        second
            .written
            .contains(&PathBuf::from("docs/start/index.html"))
    );
    assert_eq!(older(&second.written), Vec::<String>::new());
    assert_eq!(older(&second.removed), Vec::<String>::new());

    // A new page in the working tree changes the latest's routes, which the 1.x menus link:
    // 1.x is rendered again (from the parsed pages of the same commit), and as no 1.x page
    // links the new one, none of its files is written.
    std::fs::write(root.join("content/docs/extra.md"), "# Extra\n").unwrap();
    let third = session
        .rebuild(&[PathBuf::from("content/docs/extra.md")].into())
        .unwrap();
    assert!(older(&third.written).is_empty(), "{:?}", third.written);

    // The ref moves to the second commit: 1.x now has the 2.x pages.
    git(root, &["tag", "-f", "v1.0", "HEAD"]);
    let moved = session.rebuild(&HashSet::new()).unwrap();
    assert!(older(&moved.written).contains(&"1.x/docs/new-api/index.html".to_string()));
    assert!(older(&moved.removed).contains(&"1.x/docs/old-api/index.html".to_string()));
}

/// How many pages a build over `out` rendered, from its summary line.
fn rendered_over(root: &Path, out: &Path) -> usize {
    let run = docgen_in(root, &["build", "--out", out.to_str().unwrap()]);
    common::pages_rendered(&run)
}

/// The marker keeps each earlier version's key: a build over the output renders an earlier
/// version again only when what it is made from changed (here: its ref moves), and a file of
/// it edited by hand brings it back.
#[test]
fn a_build_over_its_output_renders_an_earlier_version_again_only_when_it_changed() {
    let repo = repository();
    let root = repo.path();
    let out = root.join("dist");
    let all = rendered_over(root, &out);
    assert!(all > 4, "{all}");
    assert_eq!(rendered_over(root, &out), 0, "nothing changed");

    // A page of the earlier version edited by hand: that version is made again.
    let older_page = walkdir::WalkDir::new(out.join("1.x"))
        .into_iter()
        .flatten()
        .find(|e| e.file_name() == "index.html")
        .expect("a page of version 1.x")
        .into_path();
    std::fs::write(&older_page, "defaced").unwrap();
    std::thread::sleep(std::time::Duration::from_millis(20));
    let again = rendered_over(root, &out);
    assert!(again > 0 && again < all, "{again} of {all}");
    assert_ne!(std::fs::read_to_string(&older_page).unwrap(), "defaced");
    assert_eq!(rendered_over(root, &out), 0);
}
