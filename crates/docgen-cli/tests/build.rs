//! Fixture sites built through the `docgen` binary: output snapshots, every kind of content
//! error, determinism, atomic output and the command line's exit codes.

use crate::common;

use common::{check_json, copy_dir, fixture, pretty_json, text, tree, unhash};
use std::collections::BTreeMap;
use std::path::Path;
use std::process::{Command, Output};

/// Git may not look above the fixtures: the fixture sites live in this repository, and their
/// pages' last commits would change the snapshots with every commit.
fn fixtures_ceiling() -> std::path::PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures")
}

fn docgen(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_docgen"))
        .args(args)
        // A fixed date keeps the footer year, and so the snapshots, stable.
        .env("SOURCE_DATE_EPOCH", "1767225600")
        .env("GIT_CEILING_DIRECTORIES", fixtures_ceiling())
        .env("CI", "true")
        .output()
        .expect("run docgen")
}

fn build(root: &Path, out: &Path, threads: &str) -> Output {
    Command::new(env!("CARGO_BIN_EXE_docgen"))
        .args(["build", "--quiet", "--root"])
        .arg(root)
        .arg("--out")
        .arg(out)
        .env("SOURCE_DATE_EPOCH", "1767225600")
        .env("GIT_CEILING_DIRECTORIES", fixtures_ceiling())
        .env("RAYON_NUM_THREADS", threads)
        .output()
        .expect("run docgen")
}

#[test]
fn small_site_output_matches_the_snapshots() {
    let tmp = tempfile::tempdir().unwrap();
    let out = tmp.path().join("dist");
    let result = build(&fixture("small-site"), &out, "2");
    assert!(
        result.status.success(),
        "{}",
        String::from_utf8_lossy(&result.stderr)
    );
    let files = tree(&out);

    insta::assert_snapshot!("small_files", common::listing(&files));
    for table in ["nav", "right-menu", "breadcrumbs", "footer", "routes"] {
        insta::assert_snapshot!(
            format!("small_{table}_json"),
            unhash(&pretty_json(&files, &format!("_docgen/{table}.json")))
        );
    }
    insta::assert_snapshot!("small_redirects", text(&files, "_redirects"));
    insta::assert_snapshot!(
        "small_page_start",
        unhash(&text(&files, "docs/guide/start/index.html"))
    );
    insta::assert_snapshot!(
        "small_page_generated",
        unhash(&text(&files, "docs/platforms/beta/index.html"))
    );
    insta::assert_snapshot!(
        "small_page_templated",
        unhash(&text(&files, "docs/api/reference/index.html"))
    );
    insta::assert_snapshot!(
        "small_legacy_route",
        text(&files, "old/guide/begin/index.html")
    );
    insta::assert_snapshot!("small_404_area", unhash(&text(&files, "partners/404.html")));
    insta::assert_snapshot!(
        "small_published",
        format!(
            "{}\n{}",
            text(&files, "api/v1/platforms"),
            text(&files, "api/v1/changes/alpha")
        )
    );
}

#[test]
fn small_site_keeps_its_promises() {
    let tmp = tempfile::tempdir().unwrap();
    let out = tmp.path().join("dist");
    assert!(build(&fixture("small-site"), &out, "2").status.success());
    let files = tree(&out);
    // An alias is written too, canonical to the page's own route.
    let alias = text(&files, "docs/start/index.html");
    assert!(
        alias.contains(
            "<link rel=\"canonical\" href=\"https://docs.example.test/docs/guide/start\">"
        )
    );
    // A page requiring a disabled feature is built but kept out of the inlined menu.
    assert!(files.contains_key("docs/guide/secret/index.html"));
    assert!(!text(&files, "docs/guide/start/index.html").contains("Secret Tools"));
    assert!(text(&files, "docs/guide/start/index.html").contains("Beta Tools"));
    // The legacy route keeps the hash and says where it goes, for every way of following it.
    let legacy = text(&files, "old/guide/begin/index.html");
    assert!(
        legacy
            .contains("<meta http-equiv=\"refresh\" content=\"0; url=/docs/guide/start#install\">")
    );
    assert!(legacy.contains(r#"<script data-to="/docs/guide/start">location.replace(document.currentScript.dataset.to + location.hash)</script>"#));
    assert!(legacy.contains("<meta name=\"robots\" content=\"noindex\">"));
    // Every inlined menu holds only its branch: closed sections have no children in the page.
    let home = text(&files, "docs/index.html");
    assert!(
        !home.contains("/docs/platforms/alpha\""),
        "a closed section's pages must not be inlined"
    );
    // The root sends readers home, as a page and as a redirect of the host and the tables.
    assert!(text(&files, "index.html").contains("url=/docs"));
    let redirects = text(&files, "_redirects");
    assert!(redirects.lines().any(|l| l == "/ /docs 301"), "{redirects}");
    let routes: serde_json::Value = serde_json::from_slice(&files["_docgen/routes.json"]).unwrap();
    assert!(
        routes["redirects"]
            .as_array()
            .unwrap()
            .contains(&serde_json::json!({"from": "/", "to": "/docs"}))
    );
    assert_eq!(
        common::redirect_rule_problems(&redirects),
        Vec::<String>::new()
    );
    // An area's 404 page is the file in its folder, which hosts find for a missing path below
    // it; a rule would answer before the files.
    assert!(files.contains_key("partners/404.html"));
    assert!(!redirects.contains("404"), "{redirects}");
    assert_eq!(
        common::missing_fragment_targets(&files),
        Vec::<String>::new()
    );
}

/// Areas below folders without pages of their own: the root and each such folder redirect like
/// legacy routes (a page, a `_redirects` rule, a `routes.json` entry), to the home page when it
/// lies below, else to the first area below; `_redirects` holds only redirect statuses, its
/// static rules first; an area's 404 page is a file in its folder, not a rule; a 404 page
/// without a menu does not link to one; and every `#fragment` link has its target.
#[test]
fn folders_above_the_areas_redirect_and_404_pages_are_files() {
    let tmp = tempfile::tempdir().unwrap();
    let out = tmp.path().join("dist");
    let files = common::build_site(&fixture("nested-areas"), &out, &[]);
    let redirects = text(&files, "_redirects");
    insta::assert_snapshot!("nested_redirects", redirects);
    insta::assert_snapshot!(
        "nested_routes_json",
        pretty_json(&files, "_docgen/routes.json")
    );
    assert_eq!(
        common::redirect_rule_problems(&redirects),
        Vec::<String>::new()
    );
    for (file, to) in [
        ("index.html", "/documentation/partners"),
        ("documentation/index.html", "/documentation/partners"),
        ("tools/index.html", "/tools/v2/cli"),
        ("tools/v2/index.html", "/tools/v2/cli"),
    ] {
        let html = text(&files, file);
        assert!(
            html.contains(&format!(
                "<meta http-equiv=\"refresh\" content=\"0; url={to}\">"
            )),
            "{file}: {html}"
        );
    }
    let area_404 = text(&files, "documentation/partners/404.html");
    assert!(area_404.contains("<h1 id=\"dg-error-title\">Unable to load the current page.</h1>"));
    assert!(area_404.contains("id=\"dg-menu\"") && area_404.contains("href=\"#dg-menu\""));
    assert!(!redirects.contains("404"), "{redirects}");
    let root_404 = text(&files, "404.html");
    assert!(!root_404.contains("dg-menu\""), "{root_404}");
    assert_eq!(
        common::missing_fragment_targets(&files),
        Vec::<String>::new()
    );
}

/// The checks of the two tests above find what they look for.
#[test]
fn the_output_checks_find_bad_rules_and_missing_targets() {
    let problems = common::redirect_rule_problems(
        "/a/* /b/:splat 302\n/a /b 301\n/c/* /c/404.html 404\n/d /e\n",
    );
    assert_eq!(problems.len(), 3, "{problems:?}");
    let files = BTreeMap::from([(
        "x/404.html".to_string(),
        br##"<a href="#dg-menu">Menu</a><a href="#">Top</a><h2 id="a%20b"></h2><a href="#a%2520b">"##
            .to_vec(),
    )]);
    assert_eq!(
        common::missing_fragment_targets(&files),
        ["x/404.html: #dg-menu"]
    );
}

/// Pages reach the search index from any thread in any order: one thread and eight make the
/// same files, on a site of one locale and on one of three, whose indexes are gathered at once.
#[test]
fn builds_are_byte_identical_whatever_the_thread_count() {
    for site in ["small-site", "locales"] {
        let tmp = tempfile::tempdir().unwrap();
        let (a, b) = (tmp.path().join("a"), tmp.path().join("b"));
        assert!(build(&fixture(site), &a, "1").status.success());
        assert!(build(&fixture(site), &b, "8").status.success());
        let (ta, tb) = (tree(&a), tree(&b));
        assert_eq!(ta.keys().collect::<Vec<_>>(), tb.keys().collect::<Vec<_>>());
        for (k, v) in &ta {
            assert!(v == &tb[k], "{site}: {k} differs between builds");
        }
    }
}

#[test]
fn a_failed_build_leaves_the_previous_output_untouched() {
    let tmp = tempfile::tempdir().unwrap();
    let site = tmp.path().join("site");
    copy_dir(&fixture("small-site"), &site);
    let out = tmp.path().join("dist");
    assert!(build(&site, &out, "2").status.success());
    let before = tree(&out);

    // Break one page: the build must fail and write nothing.
    std::fs::write(
        site.join("content/docs/guide/start.md"),
        "---\ntitle: [unclosed\n---\n",
    )
    .unwrap();
    let failed = build(&site, &out, "2");
    assert_eq!(failed.status.code(), Some(1));
    assert_eq!(tree(&out), before);
    // Beside the output only its lock file may stay (it outlives every build on purpose).
    let leftovers: Vec<_> = std::fs::read_dir(tmp.path())
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .filter(|n| !n.to_string_lossy().ends_with(".docgen-lock"))
        .collect();
    assert_eq!(
        leftovers.len(),
        2,
        "no temporary folders may stay behind: {leftovers:?}"
    );
}

/// Diagnostics about a whole file (a symbolic link, a missing file) have no line.
const WHOLE_FILE: [&str; 4] = [
    "config.missing",
    "content.link-loop",
    "content.broken-link",
    "content.outside",
];

/// Each folder under tests/fixtures/errors is a site with one kind of mistake. For each: `check`
/// fails with exit code 1 and its JSON diagnostics (file, line, column, code, message, hint)
/// are snapshotted; `build` over an earlier output fails too and leaves that output
/// byte-identical, with nothing left beside it.
#[test]
fn every_kind_of_bad_input_is_reported_and_loses_nothing() {
    let dir = fixture("errors");
    let mut names: Vec<String> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    assert!(names.len() >= 40, "{names:?}");

    let tmp = tempfile::tempdir().unwrap();
    let out = tmp.path().join("dist");
    assert!(build(&fixture("small-site"), &out, "2").status.success());
    let before = tree(&out);

    for name in names {
        let root = dir.join(&name);
        let checked = check_json(&root);
        assert_eq!(checked.code, Some(1), "{name} must fail with exit code 1");
        let stdout = checked.stdout;
        assert!(!stdout.is_empty(), "{name}: no diagnostics");
        for (d, line) in checked.diagnostics.iter().zip(stdout.lines()) {
            let code = d["code"].as_str().unwrap();
            assert!(d["file"].is_string(), "{name}: {line}");
            if !WHOLE_FILE.contains(&code) {
                assert!(d["line"].as_u64().unwrap() >= 1, "{name}: {line}");
                assert!(d["column"].as_u64().unwrap() >= 1, "{name}: {line}");
            }
            assert!(!d["hint"].as_str().unwrap().is_empty(), "{name}: {line}");
            assert!(
                !d["message"].as_str().unwrap().contains("untagged enum"),
                "{name}: {line}"
            );
        }
        insta::assert_snapshot!(format!("error_{name}"), stdout);

        let built = build(&root, &out, "2");
        assert_eq!(built.status.code(), Some(1), "{name}: build must fail too");
        assert!(tree(&out) == before, "{name}: the previous output changed");
        let beside: Vec<_> = std::fs::read_dir(tmp.path())
            .unwrap()
            .map(|e| e.unwrap().file_name())
            .filter(|n| !n.to_string_lossy().ends_with(".docgen-lock"))
            .collect();
        assert_eq!(beside.len(), 1, "{name}: left behind {beside:?}");
    }
    for escaped in ["/tmp/docgen-escaped", "/tmp/escaped"] {
        assert!(!Path::new(escaped).exists(), "{escaped} was written");
    }
}

#[test]
fn human_diagnostics_show_the_source_line_and_a_caret() {
    let root = fixture("errors/frontmatter-unknown-key");
    let out = docgen(&["check", "--root", root.to_str().unwrap()]);
    let stderr = String::from_utf8(out.stderr).unwrap();
    assert!(stderr.contains("content/_index.md:3:1"), "{stderr}");
    assert!(stderr.contains("menulabel: Start"), "{stderr}");
    assert!(stderr.contains("did you mean `menuLabel`?"), "{stderr}");
    assert!(stderr.contains("1 error; nothing was written"), "{stderr}");
}

#[test]
fn command_line_exit_codes() {
    assert_eq!(docgen(&["--help"]).status.code(), Some(0));
    assert_eq!(docgen(&["build", "--help"]).status.code(), Some(0));
    let version = docgen(&["--version"]);
    assert_eq!(version.status.code(), Some(0));
    assert!(String::from_utf8_lossy(&version.stdout).starts_with("docgen "));
    assert_eq!(docgen(&["build", "--no-such-flag"]).status.code(), Some(2));
    assert_eq!(docgen(&["frobnicate"]).status.code(), Some(2));
    let root = fixture("small-site");
    let check = docgen(&["check", "--root", root.to_str().unwrap()]);
    assert_eq!(
        check.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&check.stderr)
    );
    assert!(!root.join("dist").exists(), "check writes nothing");
    // An output folder that would overwrite the sources is a usage error.
    let bad = docgen(&[
        "build",
        "--root",
        root.to_str().unwrap(),
        "--out",
        root.join("content").to_str().unwrap(),
    ]);
    assert_eq!(bad.status.code(), Some(2));
}

/// The layout of the benchmark corpus (Hugo-style `_index.md`, `weight`, relative `.md` links)
/// builds as it is.
#[test]
fn a_hugo_style_corpus_builds_unchanged() {
    let generator = common::repo_root().join("bench/gen-corpus");
    let tmp = tempfile::tempdir().unwrap();
    let corpus = tmp.path().join("corpus");
    let status = Command::new("python3")
        .arg(&generator)
        .args(["--pages", "300", "--out"])
        .arg(&corpus)
        .output()
        .expect("run gen-corpus");
    assert!(
        status.status.success(),
        "{}",
        String::from_utf8_lossy(&status.stderr)
    );
    let out = tmp.path().join("out");
    let result = build(&corpus, &out, "2");
    assert!(
        result.status.success(),
        "{}",
        String::from_utf8_lossy(&result.stderr)
    );
    let files = tree(&out);
    let pages = files.keys().filter(|k| k.ends_with("index.html")).count();
    assert_eq!(pages, 300);
    // Relative .md links became absolute routes of existing pages.
    let routes: serde_json::Value = serde_json::from_slice(&files["_docgen/routes.json"]).unwrap();
    assert_eq!(routes["pages"].as_array().unwrap().len(), 300);
    let home = text(&files, "index.html");
    // Only the head's link to the page's Markdown twin may name a .md file.
    assert!(
        !home
            .lines()
            .filter(|l| !l.contains("rel=\"alternate\" type=\"text/markdown\""))
            .any(|l| l.contains(".md\"")),
        "links must not point at .md files"
    );
}

/// `--base-url` with a path serves the whole site under that path: every internal href and
/// asset, the legacy routes and the app's data (`<html data-base>`).
#[test]
fn a_base_path_prefixes_every_internal_address() {
    let tmp = tempfile::tempdir().unwrap();
    let out = tmp.path().join("dist");
    let result = docgen(&[
        "build",
        "--quiet",
        "--root",
        fixture("small-site").to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
        "--base-url",
        "https://preview.example.test/pr/7/",
    ]);
    assert!(
        result.status.success(),
        "{}",
        String::from_utf8_lossy(&result.stderr)
    );
    let files = tree(&out);
    let page = text(&files, "docs/guide/start/index.html");
    assert!(page.contains("<html lang=\"en\" data-base=\"/pr/7\">"));
    assert!(page.contains(
        "<link rel=\"canonical\" href=\"https://preview.example.test/pr/7/docs/guide/start\">"
    ));
    for (path, bytes) in files.iter().filter(|(p, _)| p.ends_with(".html")) {
        let html = String::from_utf8_lossy(bytes);
        for attr in ["href=\"/", "src=\"/"] {
            for (i, _) in html.match_indices(attr) {
                let rest = &html[i + attr.len() - 1..];
                assert!(
                    rest.starts_with("/pr/7/") || rest.starts_with("/pr/7\""),
                    "{path}: {}",
                    &rest[..rest.len().min(60)]
                );
            }
        }
    }
    let redirects = text(&files, "_redirects");
    assert!(redirects.contains("/pr/7/old/guide/begin /pr/7/docs/guide/start#install 301"));
    assert_eq!(
        common::redirect_rule_problems(&redirects),
        Vec::<String>::new()
    );
}

/// A title that opens a comment and a script inside the page-data script: the data still reads
/// back whole and the page after it is intact.
#[test]
fn content_strings_cannot_break_the_inline_data() {
    let tmp = tempfile::tempdir().unwrap();
    let site = tmp.path().join("site");
    copy_dir(&fixture("small-site"), &site);
    let page = site.join("content/docs/guide/start.md");
    let title = "Start <!--<script> </script><b>&amp;";
    let text = std::fs::read_to_string(&page)
        .unwrap()
        .replace("title: Getting Started", &format!("title: '{title}'"));
    std::fs::write(&page, text).unwrap();
    let out = tmp.path().join("dist");
    let result = build(&site, &out, "2");
    assert!(
        result.status.success(),
        "{}",
        String::from_utf8_lossy(&result.stderr)
    );
    let html = std::fs::read_to_string(out.join("docs/guide/start/index.html")).unwrap();
    let open = "<script id=\"dg-page-data\" type=\"application/json\">";
    let start = html.find(open).unwrap() + open.len();
    let end = start + html[start..].find("</script>").unwrap();
    let json = &html[start..end];
    assert!(!json.contains('<'), "{json}");
    let data: serde_json::Value = serde_json::from_str(json).unwrap();
    assert_eq!(data["title"], title);
    assert!(html[end..].contains("</body>"));
    for file in tree(&out).keys().filter(|k| k.ends_with(".html")) {
        let html = std::fs::read_to_string(out.join(file)).unwrap();
        assert_eq!(
            html.matches("<script").count(),
            html.matches("</script>").count(),
            "{file}"
        );
    }
}

fn mtimes(dir: &Path) -> BTreeMap<String, std::time::SystemTime> {
    walkdir::WalkDir::new(dir)
        .into_iter()
        .map(|e| e.unwrap())
        .filter(|e| e.file_type().is_file())
        .map(|e| {
            let rel = e
                .path()
                .strip_prefix(dir)
                .unwrap()
                .to_string_lossy()
                .into_owned();
            (rel, e.metadata().unwrap().modified().unwrap())
        })
        .collect()
}

/// A build over its previous output writes only what changed, removes what is gone, repairs
/// a file edited by hand, and ends byte-identical to a build from scratch.
#[test]
fn a_rebuild_writes_only_what_changed() {
    let tmp = tempfile::tempdir().unwrap();
    let site = tmp.path().join("site");
    copy_dir(&fixture("small-site"), &site);
    let out = tmp.path().join("dist");
    assert!(build(&site, &out, "2").status.success());
    let first = mtimes(&out);
    std::thread::sleep(std::time::Duration::from_millis(20));

    // Nothing changed: nothing is written, not even the marker.
    let over = build(&site, &out, "2");
    assert!(over.status.success());
    let after = mtimes(&out);
    let touched: Vec<&String> = after
        .iter()
        .filter(|(k, t)| first.get(*k) != Some(t))
        .map(|(k, _)| k)
        .collect();
    assert_eq!(
        touched,
        Vec::<&String>::new(),
        "a no-change rebuild touched files"
    );

    // One page retitled, one removed, one output file edited by hand.
    retitle_start(&site);
    std::fs::remove_file(site.join("content/docs/guide/secret.md")).unwrap();
    std::fs::write(out.join("docs/index.html"), "defaced").unwrap();
    std::thread::sleep(std::time::Duration::from_millis(20));
    assert!(build(&site, &out, "2").status.success());
    let after = mtimes(&out);
    assert!(!after.contains_key("docs/guide/secret/index.html"));
    assert_ne!(
        after["docs/guide/start/index.html"],
        first["docs/guide/start/index.html"]
    );
    assert_eq!(
        after["docs/platforms/beta/index.html"],
        first["docs/platforms/beta/index.html"]
    );

    let fresh = tmp.path().join("fresh");
    assert!(build(&site, &fresh, "2").status.success());
    let differ = differing_files(&out, &fresh);
    assert!(
        differ.is_empty(),
        "differs from a build from scratch: {differ:?}"
    );
}

/// The files that differ between two output folders (or are in one only).
fn differing_files(a: &Path, b: &Path) -> Vec<String> {
    let (a, b) = (tree(a), tree(b));
    let differ: std::collections::BTreeSet<&String> = a
        .keys()
        .chain(b.keys())
        .filter(|k| a.get(*k) != b.get(*k))
        .collect();
    differ.into_iter().cloned().collect()
}

/// How many pages a build rendered, from its summary line.
fn rendered(root: &Path, out: &Path, exe: &Path) -> usize {
    let run = Command::new(exe)
        .args(["build", "--root"])
        .arg(root)
        .arg("--out")
        .arg(out)
        .env("SOURCE_DATE_EPOCH", "1767225600")
        .env("GIT_CEILING_DIRECTORIES", fixtures_ceiling())
        .output()
        .expect("run docgen");
    common::pages_rendered(&run)
}

/// A build over its previous output renders only the pages whose view changed (the marker
/// lists what each was rendered from), keeps the search index when no indexed page changed,
/// and otherwise makes it again from every page's words: the folder always equals a build from
/// scratch. Another docgen renders everything again.
#[test]
fn a_rebuild_renders_only_the_pages_whose_view_changed() {
    let tmp = tempfile::tempdir().unwrap();
    let site = tmp.path().join("site");
    copy_dir(&fixture("small-site"), &site);
    let out = tmp.path().join("dist");
    let exe = Path::new(env!("CARGO_BIN_EXE_docgen"));
    let all = rendered(&site, &out, exe);
    assert!(all > 5, "a fresh build renders every page ({all})");
    assert_eq!(rendered(&site, &out, exe), 0, "nothing changed");

    let same_as_fresh = |label: &str| {
        let fresh = tmp.path().join("fresh");
        let _ = std::fs::remove_dir_all(&fresh);
        assert!(build(&site, &fresh, "2").status.success());
        let differ = differing_files(&out, &fresh);
        assert!(
            differ.is_empty(),
            "{label}: differs from a fresh build: {differ:?}"
        );
    };
    let index_files = |out: &Path| -> BTreeMap<String, Vec<u8>> {
        tree(out)
            .into_iter()
            .filter(|(k, _)| k.starts_with("_docgen/search/"))
            .collect()
    };

    // One page's text: that page only (at its route and its alias), and a search index that
    // finds its new word.
    let before = index_files(&out);
    let page = site.join("content/docs/guide/start.md");
    let text = std::fs::read_to_string(&page).unwrap();
    std::fs::write(&page, format!("{text}\nThe zanzibarian step comes last.\n")).unwrap();
    assert_eq!(rendered(&site, &out, exe), 2);
    let after = index_files(&out);
    assert_ne!(before, after, "the index was made again");
    assert!(
        after
            .values()
            .any(|b| String::from_utf8_lossy(b).contains("zanzibarian")),
        "the new word is in the index"
    );
    same_as_fresh("one page edited");

    // A title that menus, breadcrumbs and pagers show: the pages that show it.
    retitle_start(&site);
    let showing = rendered(&site, &out, exe);
    assert!(showing > 2 && showing < all, "{showing} of {all} rendered");
    same_as_fresh("a title changed");

    // A file of the output edited by hand: its page is rendered again.
    std::fs::write(out.join("docs/guide/start/index.html"), "defaced").unwrap();
    std::thread::sleep(std::time::Duration::from_millis(20));
    assert_eq!(rendered(&site, &out, exe), 1);
    same_as_fresh("a page file defaced");

    // Another docgen binary (a new release) may render differently: everything is rendered.
    let other = tmp.path().join("docgen-other");
    std::fs::copy(exe, &other).unwrap();
    assert_eq!(rendered(&site, &out, &other), all);
    assert_eq!(rendered(&site, &out, &other), 0);
}

/// With no memory to hold HTML between stages, every body is rendered again from its file
/// and every changed file made again when written: the output is byte for byte the same,
/// fresh and over a previous build.
#[test]
fn holding_no_html_in_memory_makes_the_same_bytes() {
    let tmp = tempfile::tempdir().unwrap();
    let site = tmp.path().join("site");
    copy_dir(&fixture("small-site"), &site);
    let lean = |out: &Path| {
        let status = Command::new(env!("CARGO_BIN_EXE_docgen"))
            .args(["build", "--quiet", "--root"])
            .arg(&site)
            .arg("--out")
            .arg(out)
            .env("SOURCE_DATE_EPOCH", "1767225600")
            .env("DOCGEN_HELD_MB", "0")
            .status()
            .expect("run docgen");
        assert!(status.success());
    };
    let same = |a: &Path, b: &Path| {
        let differ = differing_files(a, b);
        assert!(differ.is_empty(), "differs: {differ:?}");
    };
    let (held, lean_out) = (tmp.path().join("held"), tmp.path().join("lean"));
    assert!(build(&site, &held, "2").status.success());
    lean(&lean_out);
    same(&held, &lean_out);

    // Over the previous output, with a page and the menu changed.
    retitle_start(&site);
    lean(&lean_out);
    let fresh = tmp.path().join("fresh");
    assert!(build(&site, &fresh, "2").status.success());
    same(&fresh, &lean_out);
}

/// Renames the small site's "Getting Started" page, which its menu and breadcrumbs show.
fn retitle_start(site: &Path) {
    let start = site.join("content/docs/guide/start.md");
    let text = std::fs::read_to_string(&start).unwrap();
    std::fs::write(
        &start,
        text.replace("title: Getting Started", "title: First Steps"),
    )
    .unwrap();
}

/// `--format github`: one workflow command per diagnostic, so CI annotates the offending line.
#[test]
fn github_format_annotates_each_diagnostic_at_its_line() {
    let root = fixture("errors/many-errors");
    let checked = docgen(&[
        "check",
        "--format",
        "github",
        "--root",
        root.to_str().unwrap(),
    ]);
    assert_eq!(checked.status.code(), Some(1));
    let stdout = String::from_utf8(checked.stdout).unwrap();
    let json = docgen(&[
        "check",
        "--format",
        "json",
        "--root",
        root.to_str().unwrap(),
    ]);
    let expected = String::from_utf8(json.stdout).unwrap();
    // The same diagnostics, in the same order, as the JSON format gives.
    assert_eq!(stdout.lines().count(), expected.lines().count());
    for (line, d) in stdout.lines().zip(expected.lines()) {
        let d: serde_json::Value = serde_json::from_str(d).unwrap();
        let (props, text) = line
            .strip_prefix("::error ")
            .and_then(|l| l.split_once("::"))
            .unwrap_or_else(|| panic!("not a workflow command: {line}"));
        let file = d["file"].as_str().unwrap();
        assert!(props.starts_with(&format!("file={file},")), "{line}");
        if d["line"].as_u64().unwrap() > 0 {
            assert!(
                props.contains(&format!(",line={},col={},", d["line"], d["column"])),
                "{line}"
            );
        }
        assert!(props.ends_with(&format!("title={}", d["code"].as_str().unwrap())));
        assert!(!text.contains('\n') && text.contains("%0Ahint: "), "{line}");
    }
    insta::assert_snapshot!("github_many_errors", stdout);
    assert!(String::from_utf8_lossy(&checked.stderr).contains("nothing was written"));
}

/// The scripts of an HTML document that run: `<script>` elements without `src`, JSON data
/// excluded. Read here independently of docgen's own reader.
fn running_scripts(html: &str) -> Vec<String> {
    let mut out = Vec::new();
    for part in html.split("<script").skip(1) {
        let (attrs, rest) = part.split_once('>').expect("a closed script tag");
        let body = rest.split("</script>").next().unwrap();
        if attrs.contains("src=") || attrs.contains("application/json") {
            continue;
        }
        out.push(body.to_string());
    }
    out
}

fn headers_of(files: &BTreeMap<String, Vec<u8>>) -> Vec<docgen::output::headers::Rule> {
    docgen::output::headers::parse(&text(files, "_headers"))
}

#[test]
fn headers_cache_hashed_assets_and_allow_exactly_the_inline_scripts() {
    for base_url in [None, Some("https://preview.example.test/pr/7/")] {
        let tmp = tempfile::tempdir().unwrap();
        let out = tmp.path().join("dist");
        let root = fixture("small-site");
        let mut args = vec!["build", "--quiet", "--root", root.to_str().unwrap()];
        args.extend(["--out", out.to_str().unwrap()]);
        if let Some(b) = base_url {
            args.extend(["--base-url", b]);
        }
        let result = docgen(&args);
        assert!(
            result.status.success(),
            "{}",
            String::from_utf8_lossy(&result.stderr)
        );
        let files = tree(&out);
        let base = if base_url.is_some() { "/pr/7" } else { "" };
        let rules = headers_of(&files);
        let get = |path: &str, name: &str| {
            docgen::output::headers::for_path(&rules, path)
                .into_iter()
                .find(|(n, _)| n == name)
                .map(|(_, v)| v)
        };
        // Every content-hashed file is immutable; every HTML file and table revalidated.
        let mut assets = 0;
        for path in files.keys() {
            let at = format!("{base}/{path}");
            let cache = get(&at, "Cache-Control");
            if path.starts_with("s/") {
                assets += 1;
                assert_eq!(
                    cache.as_deref(),
                    Some("public, max-age=31536000, immutable"),
                    "{at}"
                );
            } else if path.ends_with(".html") || path.starts_with("_docgen/") {
                assert_eq!(
                    cache.as_deref(),
                    Some("public, max-age=0, must-revalidate"),
                    "{at}"
                );
                if let Some(dir) = at.strip_suffix("/index.html") {
                    let page = if dir.is_empty() {
                        "/".to_string()
                    } else {
                        format!("{dir}/")
                    };
                    assert_eq!(get(&page, "Cache-Control"), cache, "{page}");
                }
            }
            assert_eq!(
                get(&at, "X-Content-Type-Options").as_deref(),
                Some("nosniff")
            );
            assert_eq!(
                get(&at, "Referrer-Policy").as_deref(),
                Some("strict-origin-when-cross-origin")
            );
        }
        assert!(assets > 3, "the fixture has hashed assets");
        // The policy names exactly the hashes of the scripts the HTML runs, no more.
        let csp = get(
            &format!("{base}/docs/guide/start/"),
            "Content-Security-Policy",
        )
        .unwrap();
        for part in [
            "style-src 'self';",
            "img-src 'self' data:;",
            "connect-src 'self';",
            "frame-ancestors 'none';",
            "base-uri 'self';",
            "object-src 'none'",
        ] {
            assert!(csp.contains(part), "{part} in {csp}");
        }
        let script_src = csp
            .split(';')
            .find_map(|d| d.trim().strip_prefix("script-src "))
            .unwrap();
        let listed: std::collections::BTreeSet<&str> = script_src.split(' ').collect();
        let mut ran = std::collections::BTreeSet::new();
        ran.insert("'self'".to_string());
        for (path, bytes) in files.iter().filter(|(p, _)| p.ends_with(".html")) {
            let html = String::from_utf8_lossy(bytes);
            // No inline style: the policy allows none.
            assert!(
                !html.contains(" style=") && !html.contains("<style"),
                "{path}"
            );
            for script in running_scripts(&html) {
                ran.insert(format!(
                    "'{}'",
                    docgen::output::headers::script_hash(&script)
                ));
            }
        }
        let ran: std::collections::BTreeSet<&str> = ran.iter().map(String::as_str).collect();
        assert_eq!(listed, ran);
        assert!(
            ran.len() >= 4,
            "the theme, legacy route and 404 scripts: {ran:?}"
        );
    }
}

/// Two writers of one output folder: the second stops at once (exit 2) and writes nothing,
/// instead of mixing its files with the first one's.
#[test]
fn a_second_build_of_the_same_output_stops_at_once() {
    let tmp = tempfile::tempdir().unwrap();
    let out = tmp.path().join("dist");
    let held = docgen::output::guard::lock(&out).unwrap();
    let refused = build(&fixture("small-site"), &out, "2");
    let stderr = String::from_utf8_lossy(&refused.stderr);
    assert_eq!(refused.status.code(), Some(2), "{stderr}");
    assert!(stderr.contains("is writing"), "{stderr}");
    assert!(!out.exists(), "nothing was written");
    drop(held);
    let built = build(&fixture("small-site"), &out, "2");
    assert!(
        built.status.success(),
        "{}",
        String::from_utf8_lossy(&built.stderr)
    );
}
