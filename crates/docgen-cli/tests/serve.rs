//! The writer's loop: incremental rebuilds equal full builds, only affected pages are
//! rewritten, and the preview server answers like a CDN, reloads pages and shows errors.

use crate::common;

use common::{copy_dir, fixture, tree};
use std::collections::HashSet;
use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::Duration;

use crate::search::Index;
use docgen::serve::Session;

fn full_build(root: &Path, out: &Path) {
    let opts = docgen::BuildOptions {
        root: root.to_path_buf(),
        out: Some(out.to_path_buf()),
        force: false,
        overrides: Default::default(),
        extensions: Default::default(),
    };
    docgen::build(&opts, &docgen::Silent)
        .unwrap_or_else(|e| panic!("full build failed: {:?}", e.into_sorted()));
}

fn assert_same_tree(incremental: &Path, full: &Path, step: &str) {
    let (a, b) = (tree(incremental), tree(full));
    let only_a: Vec<_> = a.keys().filter(|k| !b.contains_key(*k)).collect();
    let only_b: Vec<_> = b.keys().filter(|k| !a.contains_key(*k)).collect();
    assert!(
        only_a.is_empty() && only_b.is_empty(),
        "{step}: files differ: incremental only {only_a:?}, full only {only_b:?}"
    );
    for (k, v) in &a {
        assert!(
            v == &b[k],
            "{step}: {k} differs from a full build:\n{}\n---\n{}",
            String::from_utf8_lossy(v),
            String::from_utf8_lossy(&b[k])
        );
    }
}

/// Rewrites the lines of a file for which `edit` returns a replacement.
fn rewrite_lines(path: &Path, mut edit: impl FnMut(&str) -> Option<String>) {
    let text = std::fs::read_to_string(path).unwrap();
    let lines: Vec<String> = text
        .lines()
        .map(|l| edit(l).unwrap_or_else(|| l.to_string()))
        .collect();
    std::fs::write(path, lines.join("\n") + "\n").unwrap();
}

/// A copy of the small fixture site with a preview session that built it once.
fn built_small_site() -> (tempfile::TempDir, PathBuf, Session) {
    let tmp = tempfile::tempdir().unwrap();
    let site = tmp.path().join("site");
    copy_dir(&fixture("small-site"), &site);
    let mut session =
        Session::new(&site, &tmp.path().join("out"), false, Default::default()).unwrap();
    session.rebuild(&HashSet::new()).unwrap();
    (tmp, site, session)
}

fn rel(p: &str) -> HashSet<PathBuf> {
    HashSet::from([PathBuf::from(p)])
}

#[test]
fn an_edit_rewrites_only_the_pages_it_affects() {
    let tmp = tempfile::tempdir().unwrap();
    let site = tmp.path().join("site");
    copy_dir(&fixture("small-site"), &site);
    let mut session =
        Session::new(&site, &tmp.path().join("out"), false, Default::default()).unwrap();
    let first = session.rebuild(&HashSet::new()).unwrap();
    assert_eq!(first.rendered.len(), 13);

    // A body edit changes that page and its Markdown twin only (and the tables that list its
    // headings, and the llms files that list its text).
    let page = site.join("content/docs/guide/secret.md");
    std::fs::write(
        &page,
        "---\ntitle: Secret Tools\norder: 30\nrequireFeature: secret\n---\n## New Heading\n",
    )
    .unwrap();
    let c = session
        .rebuild(&rel("content/docs/guide/secret.md"))
        .unwrap();
    assert_eq!(c.rendered, vec!["/docs/guide/secret"]);
    let written: Vec<String> = c
        .written
        .iter()
        .map(|p| p.to_string_lossy().into_owned())
        .collect();
    for file in ["docs/guide/secret/index.html", "docs/guide/secret/index.md"] {
        assert!(written.contains(&file.to_string()), "{written:?}");
    }
    assert!(
        written
            .iter()
            .all(|w| w.starts_with("docs/guide/secret/index.")
                || w.starts_with("_docgen/")
                || w.starts_with("llms")),
        "{written:?}"
    );

    // A title change reaches the pages whose menu or breadcrumbs show it.
    let start = site.join("content/docs/guide/start.md");
    let text = std::fs::read_to_string(&start)
        .unwrap()
        .replace("title: Getting Started", "title: First Steps");
    std::fs::write(&start, text).unwrap();
    let c = session
        .rebuild(&rel("content/docs/guide/start.md"))
        .unwrap();
    let mut rendered = c.rendered.clone();
    rendered.sort();
    assert_eq!(
        rendered,
        vec![
            "/docs/guide",
            "/docs/guide/beta-tools",
            "/docs/guide/secret",
            "/docs/guide/start",
            "/docs/start"
        ]
    );

    // Nothing changed: nothing rendered, nothing written.
    let c = session.rebuild(&HashSet::new()).unwrap();
    assert!(c.rendered.is_empty() && c.written.is_empty(), "{c:?}");

    let full = tmp.path().join("full");
    full_build(&site, &full);
    assert_same_tree(&session.out, &full, "after edits");
}

#[test]
fn a_body_edit_changes_its_line_of_llms_txt_and_the_home_s_its_summary_as_a_full_build_does() {
    let (tmp, site, mut session) = built_small_site();
    let edits = [
        (
            "content/docs/guide/beta-tools.md",
            "---\ntitle: Beta Tools\norder: 20\nrequireFeature: beta\n---\n",
            "Tools to try before they are done.",
        ),
        (
            "content/docs/_index.md",
            "---\ntitle: Small Docs Home\nmenuLabel: Guides\n---\n",
            "Everything about the small docs, from the guide to the platforms.",
        ),
        // The parts kept from the edits before: only this page's line is made again.
        (
            "content/docs/guide/beta-tools.md",
            "---\ntitle: Beta Tools\norder: 20\nrequireFeature: beta\n---\n",
            "Tools that may still change.",
        ),
    ];
    for (step, (file, front, first)) in edits.into_iter().enumerate() {
        std::fs::write(site.join(file), format!("{front}{first}\n\n## More\n")).unwrap();
        let c = session.rebuild(&rel(file)).unwrap();
        assert!(
            c.written.iter().any(|p| p == Path::new("llms.txt")),
            "{file}: {c:?}"
        );
        let llms = std::fs::read_to_string(session.out.join("llms.txt")).unwrap();
        assert!(llms.contains(first), "{file}: {llms}");
        let full = tmp.path().join(format!("full-{step}"));
        full_build(&site, &full);
        assert_same_tree(&session.out, &full, file);
    }
}

#[test]
fn a_failed_rebuild_keeps_the_last_good_output() {
    let (_tmp, site, mut session) = built_small_site();
    let before = tree(&session.out);
    std::fs::write(
        site.join("content/docs/guide/start.md"),
        "---\ntitle: Start\n---\n[x](/nowhere)\n",
    )
    .unwrap();
    let errors = session
        .rebuild(&rel("content/docs/guide/start.md"))
        .unwrap_err()
        .into_sorted();
    assert_eq!(errors[0].code, "link.missing-page");
    assert_eq!(tree(&session.out), before);
}

/// A small deterministic generator, so a failing sequence can be replayed.
struct Lcg(u64);
impl Lcg {
    fn next(&mut self, n: usize) -> usize {
        self.0 = self
            .0
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        ((self.0 >> 33) as usize) % n
    }
}

/// Every front-matter key the content stage accepts, with the values an edit may give it:
/// (the file it is edited in, the lines it may become; `""` removes the key, `{n}` is a
/// random number). `the_edits_cover_every_front_matter_key` keeps it complete.
const FRONT_MATTER_EDITS: &[(&str, &str, &[&str])] = &[
    ("title", CHILD, &["title: Child {n}", ""]),
    ("description", CHILD, &["description: About {n}", ""]),
    ("order", CHILD, &["order: {n}", ""]),
    ("weight", SECTION, &["weight: {n}", ""]),
    ("menuLabel", CHILD, &["menuLabel: Label {n}", ""]),
    (
        "icon",
        SECTION,
        &["icon: icons/guide.svg", "icon: icons/choices.svg", ""],
    ),
    ("iconAlt", SECTION, &["iconAlt: Alt {n}", ""]),
    ("aliases", CHILD, &["aliases: [/docs/fm/alias-{n}]", ""]),
    ("requireFeature", CHILD, &["requireFeature: beta", ""]),
    ("hidden", CHILD, &["hidden: true", "hidden: false", ""]),
    ("group", CHILD, &["group: one", "group: two", ""]),
    (
        "groups",
        SECTION,
        &[
            "groups: [{id: one, label: One {n}}, {id: two, label: Two}]",
            "groups: [{id: two, label: Two}, {id: one, label: One}]",
        ],
    ),
    ("page", SECTION, &["page: false", "page: true", ""]),
    ("toc", CHILD, &["toc: false", "toc: true", ""]),
    ("layout", CHILD, &["layout: doc", ""]),
    (
        "template",
        CHILD,
        &["template: true", "template: false", ""],
    ),
    (
        "generate",
        GENERATED,
        &[
            "generate: {data: platforms, as: platform, route: \"/docs/platforms/{{ platform.id }}\"}",
        ],
    ),
    ("id", CHILD, &["id: child-{n}", ""]),
    ("slug", CHILD, &["slug: moved-{n}", ""]),
    ("sidebar_label", CHILD, &["sidebar_label: Side {n}", ""]),
    ("sidebar_position", CHILD, &["sidebar_position: {n}", ""]),
    (
        "hide_table_of_contents",
        CHILD,
        &["hide_table_of_contents: true", ""],
    ),
    ("draft", CHILD, &["draft: true", "draft: false", ""]),
    (
        "unlisted",
        CHILD,
        &["unlisted: true", "unlisted: false", ""],
    ),
    ("keywords", CHILD, &["keywords: [a, b{n}]", ""]),
    ("tags", CHILD, &["tags: [t{n}]", ""]),
    ("image", CHILD, &["image: icons/guide.svg", ""]),
    (
        "last_update",
        CHILD,
        &["last_update: {date: 2024-01-0{n}}", ""],
    ),
    (
        "sidebar_class_name",
        CHILD,
        &["sidebar_class_name: c{n}", ""],
    ),
    (
        "sidebar_custom_props",
        CHILD,
        &["sidebar_custom_props: {k: {n}}", ""],
    ),
    ("sidebar_key", CHILD, &["sidebar_key: k{n}", ""]),
    ("hide_title", CHILD, &["hide_title: true", ""]),
    ("pagination_label", CHILD, &["pagination_label: P{n}", ""]),
    ("pagination_next", CHILD, &["pagination_next: null", ""]),
    ("pagination_prev", CHILD, &["pagination_prev: null", ""]),
    ("displayed_sidebar", CHILD, &["displayed_sidebar: s{n}", ""]),
    (
        "custom_edit_url",
        CHILD,
        &["custom_edit_url: https://example.test/{n}", ""],
    ),
    (
        "toc_min_heading_level",
        CHILD,
        &["toc_min_heading_level: 2", ""],
    ),
    (
        "toc_max_heading_level",
        CHILD,
        &["toc_max_heading_level: 3", "toc_max_heading_level: 2", ""],
    ),
    (
        "parse_number_prefixes",
        CHILD,
        &["parse_number_prefixes: false", ""],
    ),
];
const SECTION: &str = "content/docs/fm/_index.md";
const CHILD: &str = "content/docs/fm/child.md";
const GENERATED: &str = "content/docs/platforms/_templates/platform.md";

#[test]
fn the_edits_cover_every_front_matter_key() {
    let all = serde_json::to_value(docgen::content::FrontMatter::default()).unwrap();
    let keys: Vec<&String> = all.as_object().unwrap().keys().collect();
    for key in &keys {
        assert!(
            FRONT_MATTER_EDITS.iter().any(|(k, _, _)| k == key),
            "the front-matter key `{key}` is never edited by the randomised test"
        );
    }
    assert_eq!(
        keys.len(),
        FRONT_MATTER_EDITS.len(),
        "edits of unknown keys"
    );
}

/// Gives `key` in the front matter of `path` the line `line` (none removes it), replacing the
/// key's lines, continuation lines included.
fn set_front_matter_key(path: &Path, key: &str, line: Option<&str>) {
    let text = std::fs::read_to_string(path).unwrap();
    let rest = text.strip_prefix("---\n").unwrap();
    let (front, body) = rest.split_once("\n---\n").unwrap();
    let mut lines: Vec<String> = Vec::new();
    let mut skipping = false;
    for l in front.lines() {
        if l.starts_with(&format!("{key}:")) {
            skipping = true;
            continue;
        }
        if skipping && l.starts_with(' ') {
            continue;
        }
        skipping = false;
        lines.push(l.to_string());
    }
    lines.extend(line.map(str::to_string));
    std::fs::write(path, format!("---\n{}\n---\n{body}", lines.join("\n"))).unwrap();
}

#[test]
fn randomised_edits_always_equal_a_fresh_full_build() {
    let (tmp, site, mut session) = built_small_site();
    // A section of its own for the front-matter edits, which nothing else links to, and a
    // writer's copy of the page template.
    std::fs::create_dir_all(site.join("content/docs/fm")).unwrap();
    std::fs::write(
        site.join(SECTION),
        "---\ntitle: Matter\norder: 9\n---\nThe section.\n",
    )
    .unwrap();
    std::fs::write(
        site.join(CHILD),
        "---\ntitle: Child\n---\n## One\n\nText.\n\n## Two\n",
    )
    .unwrap();
    std::fs::create_dir_all(site.join("templates")).unwrap();
    let template = site.join("templates/page.html");
    let shipped = common::repo_root().join("templates/page.html");
    std::fs::copy(&shipped, &template).unwrap();
    session.rebuild(&HashSet::new()).unwrap();
    let mut rng = Lcg(0x5eed);
    let pages = [
        "content/docs/guide/start.md",
        "content/docs/guide/beta-tools.md",
        "content/docs/guide/secret.md",
        "content/partners/_index.md",
    ];
    let mut extra = 0;
    for step in 0..60 {
        let mut changed = HashSet::new();
        let action = rng.next(11);
        match action {
            0 | 1 => {
                // Retitle or reorder a page.
                let p = pages[rng.next(pages.len())];
                rewrite_lines(&site.join(p), |l| {
                    if l.starts_with("title:") && action == 0 {
                        Some(format!("title: Page {}", rng.next(1000)))
                    } else if l.starts_with("order:") {
                        Some(format!("order: {}", rng.next(50)))
                    } else {
                        None
                    }
                });
                changed.insert(PathBuf::from(p));
            }
            2 => {
                // Change a body and its headings.
                let p = pages[rng.next(2)];
                let text = std::fs::read_to_string(site.join(p)).unwrap();
                std::fs::write(
                    site.join(p),
                    format!("{text}\n## Added {}\n\nMore text.\n", rng.next(1000)),
                )
                .unwrap();
                changed.insert(PathBuf::from(p));
            }
            3 => {
                // Add a page.
                extra += 1;
                let p = format!("content/docs/guide/extra-{extra}.md");
                std::fs::write(site.join(&p), format!("---\ntitle: Extra {extra}\norder: {}\n---\nSee [start](/docs/guide/start).\n", rng.next(40))).unwrap();
                changed.insert(PathBuf::from(p));
            }
            4 if extra > 0 => {
                // Remove the newest added page.
                let p = format!("content/docs/guide/extra-{extra}.md");
                std::fs::remove_file(site.join(&p)).unwrap();
                extra -= 1;
                changed.insert(PathBuf::from(p));
            }
            5 => {
                // Change the data behind the generated pages.
                let p = "content/data/platforms.yaml";
                let name = ["Alpha", "Alfa", "Alpha Two"][rng.next(3)];
                rewrite_lines(&site.join(p), |l| {
                    l.contains("id: alpha").then(|| {
                        l.replacen(
                            &l[l.find("name: ").unwrap()..l.find(", language").unwrap()],
                            &format!("name: {name}"),
                            1,
                        )
                    })
                });
                changed.insert(PathBuf::from(p));
            }
            6 | 7 => {
                // Give one front-matter key another value, or remove it.
                let (key, file, values) = FRONT_MATTER_EDITS[rng.next(FRONT_MATTER_EDITS.len())];
                let value =
                    values[rng.next(values.len())].replace("{n}", &(1 + rng.next(8)).to_string());
                set_front_matter_key(
                    &site.join(file),
                    key,
                    (!value.is_empty()).then_some(&*value),
                );
                changed.insert(PathBuf::from(file));
            }
            8 => {
                // Change a partial that a page includes.
                let p = "content/_partials/intro.md";
                let text = std::fs::read_to_string(site.join(p)).unwrap();
                std::fs::write(
                    site.join(p),
                    format!("{text}\nIntro line {}.\n", rng.next(100)),
                )
                .unwrap();
                changed.insert(PathBuf::from(p));
            }
            9 => {
                // Change the writer's page template, or the legacy routes.
                if rng.next(2) == 0 {
                    let text = std::fs::read_to_string(&shipped).unwrap();
                    std::fs::write(&template, format!("{text}<!-- v{} -->\n", rng.next(100)))
                        .unwrap();
                    changed.insert(PathBuf::from("templates/page.html"));
                } else {
                    let p = "redirects.yaml";
                    let page = ["start", "beta-tools"][rng.next(2)];
                    rewrite_lines(&site.join(p), |l| {
                        l.trim_start().starts_with("params: {page:").then(|| {
                            format!(
                                "    params: {{page: {{start: {page}, begin: \"start#install\"}}}}"
                            )
                        })
                    });
                    changed.insert(PathBuf::from(p));
                }
            }
            _ => {
                // Change the configuration every page shows.
                let p = "site.yaml";
                let title = format!("title: Small Docs {}", rng.next(100));
                rewrite_lines(&site.join(p), |l| {
                    l.starts_with("title:").then(|| title.clone())
                });
                changed.insert(PathBuf::from(p));
            }
        }
        session
            .rebuild(&changed)
            .unwrap_or_else(|e| panic!("step {step} (action {action}): {:?}", e.into_sorted()));
        if rng.next(3) == 0 {
            failing_edit_then_fix(&mut session, &site, rng.next(4), step);
        }
        let full = tmp.path().join(format!("full-{step}"));
        full_build(&site, &full);
        assert_same_tree(
            &session.out,
            &full,
            &format!("step {step} (action {action})"),
        );
        std::fs::remove_dir_all(&full).unwrap();
    }
}

/// Saves an edit together with a mistake that fails the rebuild in one stage (content,
/// configuration, publishing, writing): the output must stay byte for byte the last good
/// build. Then fixes the mistake alone; the caller checks the output equals a fresh build.
fn failing_edit_then_fix(session: &mut Session, site: &Path, stage: usize, step: usize) {
    let before = tree(&session.out);
    let retitled = "content/docs/guide/beta-tools.md";
    rewrite_lines(&site.join(retitled), |l| {
        l.starts_with("title:")
            .then(|| format!("title: Beta Tools {step}"))
    });
    let (broken, blocker) = match stage {
        0 => ("content/docs/guide/secret.md", None),
        1 | 2 => ("site.yaml", None),
        _ => (
            retitled,
            Some(
                session
                    .out
                    .join("docs/guide/beta-tools/.index.html.docgen-tmp"),
            ),
        ),
    };
    let original = std::fs::read(site.join(broken)).unwrap();
    match stage {
        0 => std::fs::write(site.join(broken), "---\ntitle: [unclosed\n---\n").unwrap(),
        1 => std::fs::write(site.join(broken), [&original[..], b"areas: [\n"].concat()).unwrap(),
        2 => {
            let text = String::from_utf8(original.clone()).unwrap();
            let text = text.replace("data: platforms,", "data: no-such-data,");
            std::fs::write(site.join(broken), text).unwrap();
        }
        // A folder where the new bytes of the page must go: the write fails.
        _ => std::fs::create_dir_all(blocker.as_ref().unwrap()).unwrap(),
    }
    let changed = HashSet::from([PathBuf::from(retitled), PathBuf::from(broken)]);
    assert!(
        session.rebuild(&changed).is_err(),
        "step {step}: stage {stage} must fail"
    );
    assert!(
        tree(&session.out) == before,
        "step {step}: a failed rebuild (stage {stage}) changed the output"
    );
    match &blocker {
        Some(dir) => std::fs::remove_dir(dir).unwrap(),
        None => std::fs::write(site.join(broken), &original).unwrap(),
    }
    session
        .rebuild(&HashSet::from([PathBuf::from(broken)]))
        .unwrap_or_else(|e| panic!("step {step}: fix of stage {stage}: {:?}", e.into_sorted()));
}

struct Server {
    child: Child,
    port: u16,
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
    }
}

fn start_server(site: &Path, out: &Path) -> Server {
    let mut child = Command::new(env!("CARGO_BIN_EXE_docgen"))
        .args(["serve", "--port", "0", "--root"])
        .arg(site)
        .arg("--out")
        .arg(out)
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stderr = BufReader::new(child.stderr.take().unwrap());
    let mut port = 0;
    let mut line = String::new();
    while port == 0 && stderr.read_line(&mut line).unwrap() > 0 {
        if let Some(i) = line.find("http://127.0.0.1:") {
            port = line[i + 17..]
                .trim()
                .trim_end_matches(|c: char| !c.is_ascii_digit())
                .split('/')
                .next()
                .unwrap()
                .parse()
                .unwrap();
        }
        line.clear();
    }
    // Keep draining the log so the server never blocks on a full pipe.
    std::thread::spawn(move || for _ in stderr.lines() {});
    assert!(port > 0, "the server did not say where it listens");
    Server { child, port }
}

/// A raw HTTP/1.0 GET (the path is sent exactly as given, `..` included).
fn get(port: u16, path: &str) -> (u16, String, String) {
    let mut s = TcpStream::connect(("127.0.0.1", port)).unwrap();
    write!(s, "GET {path} HTTP/1.0\r\nHost: localhost\r\n\r\n").unwrap();
    let mut response = String::new();
    s.read_to_string(&mut response).unwrap();
    let status = response[9..12].parse().unwrap();
    let (head, body) = response.split_once("\r\n\r\n").unwrap_or((&response, ""));
    let location = head
        .lines()
        .find_map(|l| {
            l.strip_prefix("Location: ")
                .or_else(|| l.strip_prefix("location: "))
        })
        .unwrap_or("")
        .to_string();
    (status, location, body.to_string())
}

#[test]
fn the_server_answers_like_a_cdn_and_refuses_to_leave_the_output() {
    let tmp = tempfile::tempdir().unwrap();
    let server = start_server(&fixture("small-site"), &tmp.path().join("out"));
    let p = server.port;
    let (status, _, body) = get(p, "/docs/guide/start");
    assert_eq!(status, 200);
    assert!(body.contains("<title>Getting Started | Small Docs</title>"));
    assert!(
        body.contains("/_docgen/live.js"),
        "pages get the live-reload script"
    );
    assert_eq!(get(p, "/docs/guide/start/").0, 200);
    assert_eq!(
        get(p, "/o/docs/guide/start"),
        (302, "/docs/guide/start".into(), String::new())
    );
    assert_eq!(
        get(p, "/old/alpha/setup").0,
        200,
        "a legacy route's own page"
    );
    let (status, location, _) = get(p, "/old/no/such/page");
    assert_eq!((status, location.as_str()), (301, "/docs"));
    // An area's own 404 page, the nearest `404.html` above the path, at any depth.
    for missing in ["/partners/missing", "/partners/deep/missing/page"] {
        let (status, _, body) = get(p, missing);
        assert_eq!(status, 404, "{missing}");
        assert!(
            body.contains("Unable to load the current page."),
            "{missing}"
        );
    }
    let (status, _, body) = get(p, "/nowhere");
    assert_eq!(status, 404);
    assert!(body.contains("Page not found"));
    for attack in [
        "/../../../../etc/passwd",
        "/docs/%2e%2e/%2e%2e/%2e%2e/%2e%2e/etc/passwd",
        "/docs/..%2f..%2f..%2f..%2fetc%2fpasswd",
        "/%5c..%5c..%5cetc%5cpasswd",
    ] {
        let (status, _, body) = get(p, attack);
        assert_eq!(status, 404, "{attack}");
        assert!(!body.contains("root:"), "{attack}");
    }
}

#[test]
fn the_server_refuses_symbolic_links_out_of_the_output() {
    let tmp = tempfile::tempdir().unwrap();
    let out = docgen_out_with_link(tmp.path());
    assert!(docgen::serve::http::resolve(&out, "/leak").is_none());
    assert!(docgen::serve::http::resolve(&out, "/inside").is_some());
}

fn docgen_out_with_link(tmp: &Path) -> PathBuf {
    let out = tmp.join("out");
    std::fs::create_dir_all(&out).unwrap();
    std::fs::write(tmp.join("secret.txt"), "secret").unwrap();
    std::fs::write(out.join("inside"), "ok").unwrap();
    #[cfg(unix)]
    std::os::unix::fs::symlink(tmp.join("secret.txt"), out.join("leak")).unwrap();
    out
}

#[test]
fn an_error_shows_on_open_pages_and_a_fix_reloads_them() {
    let tmp = tempfile::tempdir().unwrap();
    let site = tmp.path().join("site");
    copy_dir(&fixture("small-site"), &site);
    let server = start_server(&site, &tmp.path().join("out"));
    let mut reader = common::live_stream(server.port);
    std::thread::sleep(Duration::from_millis(300));

    let page = site.join("content/docs/guide/start.md");
    let good = std::fs::read_to_string(&page).unwrap();
    std::fs::write(
        &page,
        good.replace(
            "title: Getting Started",
            "title: Getting Started\ntitel: typo",
        ),
    )
    .unwrap();
    let text = common::next_errors(&mut reader);
    assert!(text.contains("content/docs/guide/start.md:3:1"), "{text}");
    assert!(text.contains("did you mean `title`?"), "{text}");
    // The last good page is still served.
    let (status, _, body) = get(server.port, "/docs/guide/start");
    assert_eq!(status, 200);
    assert!(body.contains("Getting Started"));

    std::fs::write(
        &page,
        good.replace("title: Getting Started", "title: Fixed Start"),
    )
    .unwrap();
    common::next_event(&mut reader, "reload");
    let (_, _, body) = get(server.port, "/docs/guide/start");
    assert!(body.contains("<title>Fixed Start | Small Docs</title>"));
}

/// The resident memory of a process, in KiB (Linux only).
fn resident_kib(pid: u32) -> Option<u64> {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
    let line = status.lines().find(|l| l.starts_with("VmRSS:"))?;
    line.split_whitespace().nth(1)?.parse().ok()
}

#[test]
fn a_huge_request_head_does_not_grow_the_server() {
    let tmp = tempfile::tempdir().unwrap();
    let server = start_server(&fixture("small-site"), &tmp.path().join("out"));
    let response = common::send_huge_header(server.port, 50 * 1024 * 1024);
    assert!(
        response.is_empty() || response.starts_with("HTTP/1.1 431"),
        "{response}"
    );
    if let Some(kib) = resident_kib(server.child.id()) {
        assert!(kib < 100 * 1024, "the server holds {kib} KiB");
    }
    assert_eq!(get(server.port, "/docs/guide/start").0, 200);
}

#[test]
fn a_site_that_never_built_shows_its_errors_until_fixed() {
    let tmp = tempfile::tempdir().unwrap();
    let site = tmp.path().join("site");
    copy_dir(&fixture("small-site"), &site);
    let page = site.join("content/docs/guide/start.md");
    let good = std::fs::read_to_string(&page).unwrap();
    let broken = good.replace(
        "title: Getting Started",
        "title: Getting Started\ntitel: typo",
    );
    std::fs::write(&page, broken).unwrap();
    let server = start_server(&site, &tmp.path().join("out"));

    let (status, _, body) = get(server.port, "/docs/guide/start");
    assert_eq!(status, 503);
    assert!(body.contains("<pre>"), "{body}");
    assert!(body.contains("content/docs/guide/start.md:3:1"), "{body}");
    assert!(body.contains("/_docgen/live.js"), "{body}");

    // The watcher starts after the server says where it listens: the fix is saved again
    // every second until it is seen.
    let deadline = std::time::Instant::now() + Duration::from_secs(10);
    for attempt in 0.. {
        if attempt % 5 == 0 {
            std::fs::write(&page, &good).unwrap();
        }
        std::thread::sleep(Duration::from_millis(200));
        let (status, _, body) = get(server.port, "/docs/guide/start");
        if status == 200 {
            assert!(body.contains("<title>Getting Started | Small Docs</title>"));
            break;
        }
        assert!(
            std::time::Instant::now() < deadline,
            "still {status} after the fix"
        );
    }
}

/// An edit that failed leaves the cache holding a version the output never showed: the fix
/// that follows is measured against the last good output, not against the failed version.
#[test]
fn after_a_failed_rebuild_a_body_fix_still_renders_what_the_failed_edit_changed() {
    let (tmp, site, mut session) = built_small_site();

    // A new title (seen by other pages' menus) with a broken link: the rebuild fails.
    let start = site.join("content/docs/guide/start.md");
    let good = std::fs::read_to_string(&start).unwrap();
    let retitled = good.replace("title: Getting Started", "title: First Steps");
    std::fs::write(&start, format!("{retitled}\n[gone](/docs/nowhere)\n")).unwrap();
    assert!(
        session
            .rebuild(&rel("content/docs/guide/start.md"))
            .is_err()
    );

    // Fixing the link alone changes only the body against the failed version.
    std::fs::write(&start, &retitled).unwrap();
    let c = session
        .rebuild(&rel("content/docs/guide/start.md"))
        .unwrap();
    assert!(
        c.rendered.len() > 1,
        "the new title reaches other pages: {c:?}"
    );
    let full = tmp.path().join("full");
    full_build(&site, &full);
    assert_same_tree(&session.out, &full, "after the fix");
}

#[test]
fn a_body_edit_is_checked_for_its_own_links_and_for_the_anchors_other_pages_link_to() {
    let (tmp, site, mut session) = built_small_site();
    let start = site.join("content/docs/guide/start.md");
    let good = std::fs::read_to_string(&start).unwrap();
    let codes = |e: docgen::diagnostics::Diagnostics| -> Vec<(String, String)> {
        e.into_sorted()
            .into_iter()
            .map(|d| (d.code.to_string(), d.file.unwrap().display().to_string()))
            .collect()
    };

    // A body-only edit passes, and was taken as one (only this page and its alias rendered).
    std::fs::write(&start, format!("{good}\nOne more line.\n")).unwrap();
    let c = session
        .rebuild(&rel("content/docs/guide/start.md"))
        .unwrap();
    assert_eq!(c.rendered, ["/docs/guide/start", "/docs/start"]);

    // Its own new link leads nowhere.
    std::fs::write(&start, format!("{good}\n[gone](/docs/nowhere)\n")).unwrap();
    let e = session
        .rebuild(&rel("content/docs/guide/start.md"))
        .unwrap_err();
    assert_eq!(
        codes(e),
        [(
            "link.missing-page".into(),
            "content/docs/guide/start.md".into()
        )]
    );
    std::fs::write(&start, &good).unwrap();
    session
        .rebuild(&rel("content/docs/guide/start.md"))
        .unwrap();

    // Renaming the heading that the platform pages link to (`#install`) breaks their links.
    std::fs::write(&start, good.replacen("## Install\n", "## Setup\n", 1)).unwrap();
    let e = session
        .rebuild(&rel("content/docs/guide/start.md"))
        .unwrap_err();
    let found = codes(e);
    assert!(found.contains(&(
        "link.missing-anchor".into(),
        "content/docs/platforms/_templates/platform.md".into()
    )));
    assert!(found.contains(&("redirect.missing-anchor".into(), "redirects.yaml".into())));
    // The same as a check of the whole site finds.
    let whole = docgen::BuildOptions {
        root: site.clone(),
        out: None,
        force: false,
        overrides: Default::default(),
        extensions: Default::default(),
    };
    assert_eq!(
        found,
        codes(docgen::build(&whole, &docgen::Silent).unwrap_err())
    );
    std::fs::write(&start, &good).unwrap();
    session
        .rebuild(&rel("content/docs/guide/start.md"))
        .unwrap();
    let full = tmp.path().join("full");
    full_build(&site, &full);
    assert_same_tree(&session.out, &full, "after the fixes");
}

#[test]
fn a_search_index_made_while_pages_changed_is_not_written() {
    let (tmp, site, mut session) = built_small_site();
    let start = site.join("content/docs/guide/start.md");
    let good = std::fs::read_to_string(&start).unwrap();
    assert!(session.search_job().unwrap().is_none(), "nothing is due");

    std::fs::write(&start, format!("{good}\nFirstword here.\n")).unwrap();
    session
        .rebuild_pages(&rel("content/docs/guide/start.md"))
        .unwrap();
    let job = session.search_job().unwrap().expect("the index is due");
    // The writer saves again while the index is being made: what it made is stale.
    std::fs::write(&start, format!("{good}\nSecondword here.\n")).unwrap();
    session
        .rebuild_pages(&rel("content/docs/guide/start.md"))
        .unwrap();
    assert!(session.finish_search(job.run()).unwrap().is_empty());

    let job = session.search_job().unwrap().expect("still due");
    assert!(!session.finish_search(job.run()).unwrap().is_empty());
    assert!(session.search_job().unwrap().is_none());
    let full = tmp.path().join("full");
    full_build(&site, &full);
    assert_same_tree(&session.out, &full, "after the second index");
}

#[test]
fn editing_a_file_included_from_outside_content_updates_the_page() {
    let tmp = tempfile::tempdir().unwrap();
    let site = tmp.path().join("site");
    copy_dir(&fixture("includes"), &site);
    let out = tmp.path().join("out");
    let mut session = Session::new(&site, &out, false, Default::default()).unwrap();
    session.rebuild(&HashSet::new()).unwrap();
    let code = site.canonicalize().unwrap().join("code");
    assert_eq!(session.outside_dependencies(), vec![code.clone()]);
    let page = out.join("book/index.md");
    assert!(!std::fs::read_to_string(&page).unwrap().contains("z: i32"));

    rewrite_lines(&code.join("example.rs"), |l| {
        (l == "    y: i32,").then(|| "    y: i32,\n    z: i32,".to_string())
    });
    let changes = session.rebuild(&rel("code/example.rs")).unwrap();
    assert_eq!(changes.rendered, vec!["/book".to_string()]);
    let twin = std::fs::read_to_string(&page).unwrap();
    assert!(twin.contains("    y: i32,\n    z: i32,\n}"), "{twin}");
    let html = std::fs::read_to_string(out.join("book/index.html")).unwrap();
    assert!(html.contains("z"), "the page is rendered again");

    // The same output as a full build of the edited site.
    let full = tmp.path().join("full");
    full_build(&site, &full);
    assert_same_tree(&out, &full, "after editing an included file");
}

/// Each doc's address and title, in doc order, as the index's excerpt files give them.
fn pages(index: &Index) -> Vec<(String, String)> {
    let text = |v: &serde_json::Value| v.as_str().unwrap_or_default().to_string();
    index
        .records()
        .iter()
        .map(|r| (text(&r[0]), text(&r[2])))
        .collect()
}

#[test]
fn a_body_edit_puts_its_words_in_the_search_index_with_its_page() {
    let (tmp, site, mut session) = built_small_site();
    let before = Index::read(&session.out);
    let start = site.join("content/docs/guide/start.md");
    let good = std::fs::read_to_string(&start).unwrap();
    std::fs::write(&start, format!("{good}\nQuokkaword here.\n")).unwrap();
    let changes = session
        .rebuild_pages(&rel("content/docs/guide/start.md"))
        .unwrap();
    // In the same write as the page, before the writer pauses: the shard holding the new word
    // was written again where it was.
    assert!(
        changes
            .written
            .iter()
            .any(|p| p.starts_with("_docgen/search/s")),
        "{:?}",
        changes.written
    );
    assert!(changes.removed.is_empty());
    let now = Index::read(&session.out);
    assert_eq!(pages(&now), pages(&before), "every doc, in its place");
    let doc = before
        .records()
        .iter()
        .position(|r| r[0].as_str().unwrap().ends_with("/guide/start"))
        .unwrap() as u64;
    let (df, postings) = now.postings("quokkaword").unwrap();
    assert_eq!((df, postings[0].0), (1, doc));
    let record = now.records()[doc as usize].to_string();
    assert!(record.contains("Quokkaword here."), "its excerpt: {record}");
    let known = before.terms();
    let new: Vec<String> = now
        .terms()
        .into_iter()
        .filter(|t| !known.contains(t))
        .collect();
    assert_eq!(new, ["here", "quokkaword"]);

    // When the writer pauses, the index is made whole: as a build makes it.
    let job = session.search_job().unwrap().expect("the index is due");
    session.finish_search(job.run()).unwrap();
    let full = tmp.path().join("full");
    full_build(&site, &full);
    assert_same_tree(&session.out, &full, "after the index was made whole");
}

#[test]
fn a_session_over_a_previous_build_keeps_every_page_in_its_search_index() {
    let tmp = tempfile::tempdir().unwrap();
    let site = tmp.path().join("site");
    copy_dir(&fixture("small-site"), &site);
    let out = tmp.path().join("out");
    full_build(&site, &out);
    let built = pages(&Index::read(&out));
    let mut session = Session::new(&site, &out, false, Default::default()).unwrap();
    session.rebuild(&HashSet::new()).unwrap();

    let start = site.join("content/docs/guide/start.md");
    let good = std::fs::read_to_string(&start).unwrap();
    std::fs::write(&start, format!("{good}\nQuokkaword here.\n")).unwrap();
    session
        .rebuild_pages(&rel("content/docs/guide/start.md"))
        .unwrap();
    let now = Index::read(&out);
    assert_eq!(
        pages(&now),
        built,
        "the pages the session did not render keep their records"
    );
    assert_eq!(now.postings("quokkaword").unwrap().0, 1);
    let job = session.search_job().unwrap().expect("the index is due");
    session.finish_search(job.run()).unwrap();
    assert_eq!(pages(&Index::read(&out)), built);
    let full = tmp.path().join("full");
    full_build(&site, &full);
    assert_same_tree(&out, &full, "after an edit in a session over a build");
}
