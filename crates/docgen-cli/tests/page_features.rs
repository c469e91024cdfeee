//! What every page gives its readers besides its content, on the fixture sites: OpenGraph and
//! Twitter card meta, previous and next pages, "Edit this page", the last change from git;
//! and the files around the pages: robots.txt, favicon.ico, the sitemap with `lastmod`.

use crate::common;

use common::{copy_dir, fixture, text, tree};
use std::collections::BTreeMap;
use std::path::Path;
use std::process::{Command, Output};

/// Builds `root` into `out`. Git may not look above `ceiling` (the fixtures live in this
/// repository, whose history must not reach their output).
fn build_with(root: &Path, out: &Path, ceiling: &Path, path_var: Option<&str>) -> Output {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_docgen"));
    cmd.args(["build", "--quiet", "--root"])
        .arg(root)
        .arg("--out")
        .arg(out)
        .env("SOURCE_DATE_EPOCH", "1767225600")
        .env("GIT_CEILING_DIRECTORIES", ceiling);
    if let Some(p) = path_var {
        cmd.env("PATH", p);
    }
    let output = cmd.output().expect("run docgen");
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    output
}

fn small_site() -> (tempfile::TempDir, BTreeMap<String, Vec<u8>>) {
    let tmp = tempfile::tempdir().unwrap();
    let out = tmp.path().join("dist");
    let fixtures = fixture("small-site");
    build_with(&fixtures, &out, fixtures.parent().unwrap(), None);
    let files = tree(&out);
    (tmp, files)
}

/// The `content` of `<meta {attr}="{name}" content="...">` in a page's head.
fn meta(html: &str, attr: &str, name: &str) -> Option<String> {
    let head = &html[..html.find("</head>").expect("a head")];
    let start = head.find(&format!("<meta {attr}=\"{name}\" content=\""))?;
    let rest = &head[start..];
    let value = rest.split("content=\"").nth(1)?.split('"').next()?;
    Some(value.to_string())
}

fn between<'a>(html: &'a str, open: &str, close: &str) -> Option<&'a str> {
    let start = html.find(open)? + open.len();
    let end = html[start..].find(close)? + start;
    Some(&html[start..end])
}

/// The pages of a built site: route → HTML, without legacy-route pages.
fn pages(files: &BTreeMap<String, Vec<u8>>) -> BTreeMap<String, String> {
    files
        .iter()
        .filter(|(p, _)| p.ends_with("index.html"))
        .map(|(p, b)| {
            let route = format!(
                "/{}",
                p.trim_end_matches("index.html").trim_end_matches('/')
            );
            (
                if route.is_empty() { "/".into() } else { route },
                String::from_utf8(b.clone()).unwrap(),
            )
        })
        .filter(|(_, html)| html.contains("id=\"dg-page-data\""))
        .collect()
}

#[test]
fn robots_txt_names_the_sitemap_and_favicon_ico_is_an_icon() {
    let (_tmp, files) = small_site();
    let robots = text(&files, "robots.txt");
    assert!(robots.starts_with("User-agent: *\n"), "{robots}");
    assert!(
        robots
            .lines()
            .any(|l| l == "Sitemap: https://docs.example.test/sitemap.xml"),
        "{robots}"
    );
    let ico = &files["favicon.ico"];
    assert_eq!(&ico[..4], &[0, 0, 1, 0], "an ICO header");
    let count = u16::from_le_bytes([ico[4], ico[5]]) as usize;
    assert!(count >= 1);
    for i in 0..count {
        let e = &ico[6 + 16 * i..6 + 16 * (i + 1)];
        let size = u32::from_le_bytes(e[8..12].try_into().unwrap()) as usize;
        let offset = u32::from_le_bytes(e[12..16].try_into().unwrap()) as usize;
        assert!(offset + size <= ico.len(), "image {i} lies inside the file");
    }
    // Every page names it.
    for (route, html) in pages(&files) {
        assert!(
            html.contains("<link rel=\"icon\" href=\"/favicon.ico\""),
            "{route}"
        );
    }
    // Outside git nothing is known about the pages' last changes.
    let sitemap = text(&files, "sitemap.xml");
    assert!(sitemap.contains("<urlset"), "{sitemap}");
    assert!(!sitemap.contains("<lastmod>"), "{sitemap}");
}

#[test]
fn a_sites_own_favicon_is_published_in_place_of_docgens() {
    let tmp = tempfile::tempdir().unwrap();
    let site = tmp.path().join("site");
    copy_dir(&fixture("small-site"), &site);
    let own = b"\0\0\x01\0\x01\0own icon bytes";
    std::fs::write(site.join("static/favicon.ico"), own).unwrap();
    let out = tmp.path().join("dist");
    build_with(&site, &out, tmp.path(), None);
    assert_eq!(std::fs::read(out.join("favicon.ico")).unwrap(), own);
}

#[test]
fn every_page_has_open_graph_and_twitter_card_meta() {
    let (_tmp, files) = small_site();
    let pages = pages(&files);
    assert!(pages.len() >= 8, "{:?}", pages.keys());
    for (route, html) in &pages {
        let title = between(html, "<title>", "</title>").unwrap();
        let canonical = between(html, "<link rel=\"canonical\" href=\"", "\"").unwrap();
        let og = |name: &str| {
            meta(html, "property", name).unwrap_or_else(|| panic!("{route}: no {name}"))
        };
        assert_eq!(format!("{} | Small Docs", og("og:title")), title, "{route}");
        assert_eq!(og("og:url"), canonical, "{route}");
        assert_eq!(og("og:site_name"), "Small Docs", "{route}");
        let kind = og("og:type");
        assert_eq!(
            kind,
            if route == "/docs" {
                "website"
            } else {
                "article"
            },
            "{route}"
        );
        // A page without a description of its own is described by the start of its text.
        let description =
            meta(html, "name", "description").unwrap_or_else(|| panic!("{route}: no description"));
        assert!(!description.is_empty(), "{route}");
        assert_eq!(og("og:description"), description, "{route}");
        assert_eq!(
            meta(html, "name", "twitter:card").as_deref(),
            Some("summary"),
            "{route}"
        );
    }
    // The generated page has no description in its front matter: its first paragraph.
    assert_eq!(
        meta(&pages["/docs/platforms/beta"], "name", "description").as_deref(),
        Some("Integrate on Beta with Swift.")
    );
}

/// A link of the previous/next navigation: (label, href).
type Link = Option<(String, String)>;

/// The previous and next links of a page.
fn pager(html: &str) -> (Link, Link) {
    let Some(nav) = between(html, "<nav class=\"dg-page-nav\"", "</nav>") else {
        return (None, None);
    };
    let link = |rel: &str| {
        let a = nav
            .split("<a ")
            .find(|a| a.contains(&format!("rel=\"{rel}\"")))?;
        let href = between(a, "href=\"", "\"")?.to_string();
        let title = between(a, "<span class=\"dg-page-nav-title\">", "</span>")?.to_string();
        Some((title, href))
    };
    (link("prev"), link("next"))
}

#[test]
fn pages_link_to_their_neighbours_in_menu_order_without_javascript() {
    let (_tmp, files) = small_site();
    let pages = pages(&files);
    let start = &pages["/docs/guide/start"];
    assert_eq!(
        pager(start),
        (
            Some(("Guide".into(), "/docs/guide".into())),
            Some(("Beta Tools".into(), "/docs/guide/beta-tools".into()))
        )
    );
    // The links are in the article, where the app carries them along.
    let article = between(start, "<article class=\"dg-article\"", "</article>").unwrap();
    assert!(article.contains("class=\"dg-page-nav\""));
    // Following "next" from the area's root walks every listed page of the area once, and
    // each page's "previous" leads back.
    let mut walked = vec!["/docs".to_string()];
    while let (_, Some((_, next))) = pager(&pages[walked.last().unwrap()]) {
        assert!(!walked.contains(&next), "a cycle at {next}: {walked:?}");
        let (prev, _) = pager(&pages[&next]);
        assert_eq!(prev.map(|p| p.1).as_ref(), walked.last(), "{next}");
        walked.push(next);
    }
    assert_eq!(
        walked,
        [
            "/docs",
            "/docs/guide",
            "/docs/guide/start",
            "/docs/guide/beta-tools",
            "/docs/platforms",
            // A page outside the section's menu groups comes before them, as in the menu.
            "/docs/platforms/gamma",
            "/docs/platforms/alpha",
            "/docs/platforms/beta",
            "/docs/api/reference",
        ]
    );
    // Secret Tools is behind a feature the site does not enable: the menu hides it, so do the
    // links.
    assert!(!walked.iter().any(|r| r == "/docs/guide/secret"));
    // The menu's names: the area root by the area's name.
    assert_eq!(
        pager(&pages["/docs/guide"]).0,
        Some(("Guides".into(), "/docs".into()))
    );
}

#[test]
fn edit_this_page_leads_to_the_pages_source() {
    let (_tmp, files) = small_site();
    let pages = pages(&files);
    let edit = |route: &str| {
        let html = &pages[route];
        let a = between(html, "<a class=\"dg-edit-link\"", "</a>")
            .unwrap_or_else(|| panic!("{route}: no edit link"));
        assert!(a.ends_with(">Edit this page"), "{a}");
        between(a, "href=\"", "\"").unwrap().to_string()
    };
    let base = "https://git.example.test/small-docs/edit/main";
    assert_eq!(
        edit("/docs/guide/start"),
        format!("{base}/content/docs/guide/start.md")
    );
    // An alias shows the page's own file; a generated page its template.
    assert_eq!(edit("/docs/start"), edit("/docs/guide/start"));
    assert_eq!(
        edit("/docs/platforms/beta"),
        format!("{base}/content/docs/platforms/_templates/platform.md")
    );
    // Without editUrl there is no link.
    let tmp = tempfile::tempdir().unwrap();
    let site = tmp.path().join("site");
    copy_dir(&fixture("small-site"), &site);
    let yaml = std::fs::read_to_string(site.join("site.yaml")).unwrap();
    let without: String = yaml
        .lines()
        .filter(|l| !l.starts_with("editUrl:"))
        .map(|l| format!("{l}\n"))
        .collect();
    assert_ne!(yaml, without);
    std::fs::write(site.join("site.yaml"), without).unwrap();
    let out = tmp.path().join("dist");
    build_with(&site, &out, tmp.path(), None);
    let html = std::fs::read_to_string(out.join("docs/guide/start/index.html")).unwrap();
    assert!(!html.contains("dg-edit-link"));
}

fn git(root: &Path, args: &[&str], date: &str) {
    let ok = Command::new("git")
        .arg("-C")
        .arg(root)
        .args(args)
        .env("GIT_AUTHOR_DATE", date)
        .env("GIT_COMMITTER_DATE", date)
        .env("GIT_AUTHOR_NAME", "Writer")
        .env("GIT_AUTHOR_EMAIL", "writer@example.test")
        .env("GIT_COMMITTER_NAME", "Writer")
        .env("GIT_COMMITTER_EMAIL", "writer@example.test")
        .output()
        .expect("git is installed")
        .status
        .success();
    assert!(ok, "git {args:?}");
}

#[test]
fn the_last_change_comes_from_git_and_reaches_the_page_and_the_sitemap() {
    let tmp = tempfile::tempdir().unwrap();
    let site = tmp.path().join("site");
    copy_dir(&fixture("small-site"), &site);
    git(&site, &["init", "-q"], "1704067200 +0000");
    git(&site, &["add", "."], "1704067200 +0000");
    git(&site, &["commit", "-q", "-m", "first"], "1704067200 +0000"); // 2024-01-01
    let start = site.join("content/docs/guide/start.md");
    let edited = std::fs::read_to_string(&start).unwrap() + "\nMore.\n";
    std::fs::write(&start, edited).unwrap();
    git(
        &site,
        &["commit", "-q", "-am", "second"],
        "1717243200 +0000",
    ); // 2024-06-01
    let out = tmp.path().join("dist");
    build_with(&site, &out, tmp.path(), None);

    let html = std::fs::read_to_string(out.join("docs/guide/start/index.html")).unwrap();
    assert!(
        html.contains(
            "<p class=\"dg-last-updated\">Last updated on <time datetime=\"2024-06-01\">June 1, 2024</time></p>"
        ),
        "{}",
        between(&html, "<footer class=\"dg-page-footer\"", "</footer>").unwrap_or("no footer")
    );
    let other = std::fs::read_to_string(out.join("docs/guide/beta-tools/index.html")).unwrap();
    assert!(other.contains("<time datetime=\"2024-01-01\">January 1, 2024</time>"));
    let sitemap = std::fs::read_to_string(out.join("sitemap.xml")).unwrap();
    assert!(
        sitemap.contains(
            "<url><loc>https://docs.example.test/docs/guide/start</loc><lastmod>2024-06-01</lastmod></url>"
        ),
        "{sitemap}"
    );
    assert!(
        sitemap.contains(
            "<url><loc>https://docs.example.test/docs/guide/beta-tools</loc><lastmod>2024-01-01</lastmod></url>"
        ),
        "{sitemap}"
    );

    // Without git on the PATH the build still succeeds, without dates.
    let out2 = tmp.path().join("dist2");
    build_with(&site, &out2, tmp.path(), Some(""));
    let html = std::fs::read_to_string(out2.join("docs/guide/start/index.html")).unwrap();
    assert!(!html.contains("dg-last-updated"));
    let sitemap = std::fs::read_to_string(out2.join("sitemap.xml")).unwrap();
    assert!(!sitemap.contains("<lastmod>"), "{sitemap}");
}
