//! A site in three languages (one right to left): routes per locale, fallbacks, `lang`/`dir`,
//! hreflang in heads and the sitemap, translated data and UI strings, and the staleness of
//! translations from `docgen translations stamp` to `check`'s warnings.

use crate::common;

use common::{build_site, check_json, copy_dir, docgen, fixture, pretty_json, text, unhash};

#[test]
fn each_locale_has_every_page_under_its_prefix() {
    let out = tempfile::tempdir().unwrap();
    let files = build_site(&fixture("locales"), out.path(), &[]);
    // A translation, a fallback and the default, each at its route.
    let zh_setup = text(&files, "zh/docs/guide/setup/index.html");
    assert!(
        zh_setup.contains("<html lang=\"zh-Hans\" data-base=\"\">"),
        "{zh_setup}"
    );
    assert!(zh_setup.contains("<title>安装 SDK | Locale Docs</title>"));
    // Its links stay in its locale; its nav names the translated page by its title.
    assert!(zh_setup.contains("href=\"/zh/docs/guide/banners\""));
    assert!(zh_setup.contains(">安装 SDK</a>"));
    // In the menu where its source is (it gives no `order:` of its own).
    let menu = &zh_setup[zh_setup.find("id=\"dg-menu\"").unwrap()..];
    let at = |label: &str| menu.find(label).unwrap_or_else(|| panic!("{label}"));
    assert!(at("安装 SDK") < at(">Banners<") && at(">Banners<") < at(">Rewarded ads<"));
    // Its UI strings are the locale's.
    assert!(zh_setup.contains("跳到正文"));
    let zh_fallback = text(&files, "zh/docs/guide/rewarded/index.html");
    assert!(zh_fallback.contains("<html lang=\"en\" data-base=\"\">"));
    assert!(zh_fallback.contains("data-kind=\"fallback\""));
    assert!(zh_fallback.contains("本页尚未翻译成简体中文"));
    // A fallback's canonical address is its source's.
    assert!(zh_fallback.contains(
        "<link rel=\"canonical\" href=\"https://docs.example.test/docs/guide/rewarded\">"
    ));
    let ar = text(&files, "ar/docs/guide/rewarded/index.html");
    assert!(ar.contains("<html lang=\"ar\" dir=\"rtl\" data-base=\"\">"));
    // Stale (its stamp is not the source's digest): the notice links the source page.
    assert!(ar.contains("data-kind=\"stale\""), "{ar}");
    assert!(ar.contains("<a href=\"/docs/guide/rewarded\" hreflang=\"en\">"));
    for alt in [
        "hreflang=\"en\" href=\"https://docs.example.test/docs/guide/rewarded\"",
        "hreflang=\"ar\" href=\"https://docs.example.test/ar/docs/guide/rewarded\"",
        "hreflang=\"x-default\" href=\"https://docs.example.test/docs/guide/rewarded\"",
    ] {
        assert!(ar.contains(alt), "{alt}");
    }
    // zh has no translation of this page: not an alternate.
    assert!(!ar.contains("<link rel=\"alternate\" hreflang=\"zh-Hans\""));
    // The language menu leads to the same page in every locale.
    for link in [
        "<a href=\"/docs/guide/rewarded\" hreflang=\"en\" lang=\"en\">English</a>",
        "<a href=\"/zh/docs/guide/rewarded\" hreflang=\"zh-Hans\" lang=\"zh-Hans\">简体中文</a>",
        "<a href=\"/ar/docs/guide/rewarded\" hreflang=\"ar\" lang=\"ar\" aria-current=\"true\">العربية</a>",
    ] {
        assert!(ar.contains(link), "{link}");
    }
    // A data file's translation is what the locale's pages read; the others read the default's.
    assert!(text(&files, "zh/docs/guide/banners/index.html").contains("安卓"));
    assert!(text(&files, "ar/docs/guide/banners/index.html").contains("Android"));
    // A translation into a language the site does not configure is no page.
    assert!(!files.keys().any(|k| k.contains("rewarded.fr")));
    let sitemap = text(&files, "sitemap.xml");
    assert!(sitemap.contains("xmlns:xhtml=\"http://www.w3.org/1999/xhtml\""));
    assert!(sitemap.contains("<loc>https://docs.example.test/zh/docs/guide/setup</loc><xhtml:link rel=\"alternate\" hreflang=\"en\""));
    assert!(!sitemap.contains("<loc>https://docs.example.test/zh/docs/guide/rewarded</loc>"));
    // The locale's root leads to its home, which is a home.
    assert!(files.contains_key("zh/index.html"));
    assert!(
        text(&files, "zh/docs/index.html")
            .contains("<meta property=\"og:type\" content=\"website\">")
    );
    assert!(
        text(&files, "zh/docs/guide/setup/index.html")
            .contains("<meta property=\"og:type\" content=\"article\">")
    );
}

/// The output of the three-language site: its files, its routes, the sitemap, each locale's
/// search index and the pages of each kind (a translation, a fallback, a stale right-to-left
/// translation, a locale's home).
#[test]
fn locales_output_matches_the_snapshots() {
    let out = tempfile::tempdir().unwrap();
    let files = build_site(&fixture("locales"), out.path(), &[]);
    insta::assert_snapshot!("locales_files", common::listing(&files));
    insta::assert_snapshot!(
        "locales_routes_json",
        unhash(&pretty_json(&files, "_docgen/routes.json"))
    );
    insta::assert_snapshot!("locales_sitemap", text(&files, "sitemap.xml"));
    for (name, folder) in [("en", ""), ("zh", "zh/"), ("ar", "ar/")] {
        insta::assert_snapshot!(
            format!("locales_search_index_{name}"),
            pretty_json(&files, &format!("{folder}_docgen/search/index.json"))
        );
    }
    for (name, page) in [
        ("translated", "zh/docs/guide/setup"),
        ("fallback", "zh/docs/guide/rewarded"),
        ("stale_rtl", "ar/docs/guide/rewarded"),
        ("locale_home", "zh/docs"),
        ("default", "docs/guide/setup"),
    ] {
        insta::assert_snapshot!(
            format!("locales_page_{name}"),
            unhash(&text(&files, &format!("{page}/index.html")))
        );
    }
}

#[test]
fn check_lists_stale_and_unstamped_translations_until_they_are_stamped() {
    let site = tempfile::tempdir().unwrap();
    copy_dir(&fixture("locales"), site.path());
    let codes = |root: &std::path::Path| -> Vec<(String, String)> {
        let checked = check_json(root);
        assert_eq!(checked.code, Some(0), "{}", checked.stdout);
        let mut v: Vec<(String, String)> = checked
            .diagnostics
            .iter()
            .map(|d| {
                (
                    d["code"].as_str().unwrap().to_string(),
                    d["file"].as_str().unwrap_or("").to_string(),
                )
            })
            .collect();
        v.sort();
        v
    };
    let before = codes(site.path());
    assert_eq!(
        before,
        [
            (
                "translation.stale".into(),
                "content/docs/guide/rewarded.ar.md".into()
            ),
            (
                "translation.unknown-locale".into(),
                "content/docs/guide/rewarded.fr.md".into()
            ),
            (
                "translation.unstamped".into(),
                "content/docs/_index.zh.md".into()
            ),
            (
                "translation.unstamped".into(),
                "content/docs/guide/setup.zh.md".into()
            ),
        ]
    );
    let file = site.path().join("content/docs/guide/setup.zh.md");
    let original = std::fs::read_to_string(&file).unwrap();
    let root = site.path().to_str().unwrap();
    let stamped = docgen(&[
        "translations",
        "stamp",
        "--root",
        root,
        file.to_str().unwrap(),
    ]);
    assert!(
        stamped.status.success(),
        "{}",
        String::from_utf8_lossy(&stamped.stderr)
    );
    let now = std::fs::read_to_string(&file).unwrap();
    // One line more, the rest byte for byte.
    let digest = docgen::content::locales::source_digest(
        &std::fs::read(site.path().join("content/docs/guide/setup.md")).unwrap(),
    );
    assert_eq!(
        now,
        original.replacen(
            "title: 安装 SDK\n",
            &format!("title: 安装 SDK\ntranslatedFrom: {digest}\n"),
            1
        )
    );
    let all = docgen(&["translations", "stamp", "--root", root, "--all"]);
    assert!(all.status.success());
    assert_eq!(
        codes(site.path()),
        [(
            "translation.unknown-locale".into(),
            "content/docs/guide/rewarded.fr.md".into()
        )]
    );
    // The source changes: its translations are stale again.
    std::fs::write(
        site.path().join("content/docs/guide/setup.md"),
        "---\ntitle: Set up the SDK\n---\n\n# Set up the SDK\n\nNew text.\n",
    )
    .unwrap();
    assert!(codes(site.path()).contains(&(
        "translation.stale".into(),
        "content/docs/guide/setup.zh.md".into()
    )));
    // A file that is no translation is refused.
    let refused = docgen(&[
        "translations",
        "stamp",
        "--root",
        root,
        "content/docs/guide/setup.md",
    ]);
    assert_eq!(refused.status.code(), Some(1));
}

/// "Last updated on" is the page's locale's, the date in its place.
#[test]
fn the_last_change_reads_in_the_page_language() {
    let tmp = tempfile::tempdir().unwrap();
    let site = tmp.path().join("site");
    copy_dir(&fixture("locales"), &site);
    for args in [
        &["init", "-q"][..],
        &["add", "."],
        &["commit", "-q", "-m", "first"],
    ] {
        let ok = std::process::Command::new("git")
            .arg("-C")
            .arg(&site)
            .args(args)
            .env("GIT_AUTHOR_DATE", "1717243200 +0000")
            .env("GIT_COMMITTER_DATE", "1717243200 +0000")
            .env("GIT_AUTHOR_NAME", "Writer")
            .env("GIT_AUTHOR_EMAIL", "writer@example.test")
            .env("GIT_COMMITTER_NAME", "Writer")
            .env("GIT_COMMITTER_EMAIL", "writer@example.test")
            .status()
            .expect("git is installed")
            .success();
        assert!(ok, "git {args:?}");
    }
    let out = tmp.path().join("dist");
    let files = build_site(&site, &out, &[]);
    let time = "<time datetime=\"2024-06-01\">June 1, 2024</time>";
    for (page, line) in [
        ("docs/guide/setup", format!("Last updated on {time}</p>")),
        ("zh/docs/guide/setup", format!("最后更新于 {time}</p>")),
        ("ar/docs/guide/rewarded", format!("آخر تحديث في {time}</p>")),
    ] {
        let html = text(&files, &format!("{page}/index.html"));
        assert!(html.contains(&line), "{page}: {line}");
    }
}

/// The top bar of a page with a language menu is drawn from a stencil of its shape with each
/// page's addresses filled in; a writer's template that does more with an address than print
/// it gets every bar rendered in full, so each page still shows its own.
#[test]
fn a_template_that_transforms_the_language_addresses_still_gets_each_pages_own() {
    let tmp = tempfile::tempdir().unwrap();
    let site = tmp.path().join("site");
    copy_dir(&fixture("locales"), &site);
    let macros = std::fs::read_to_string(common::repo_root().join("templates/macros.html"))
        .unwrap()
        .replace(
            "<li><a href=\"{{ l.url|href }}\"",
            "<li data-length=\"{{ l.url|length }}\"><a href=\"{{ l.url|href }}\"",
        );
    assert!(
        macros.contains("data-length"),
        "the language link was found"
    );
    std::fs::create_dir_all(site.join("templates")).unwrap();
    std::fs::write(site.join("templates/macros.html"), macros).unwrap();
    let out = tmp.path().join("out");
    let files = build_site(&site, &out, &[]);
    let mut checked = 0;
    for (path, bytes) in &files {
        if !path.ends_with("index.html") {
            continue;
        }
        let html = String::from_utf8_lossy(bytes);
        for item in html.split("<li data-length=\"").skip(1) {
            let (length, rest) = item.split_once('"').unwrap();
            let href = rest
                .split("href=\"")
                .nth(1)
                .unwrap()
                .split('"')
                .next()
                .unwrap();
            assert_eq!(
                length.parse::<usize>().unwrap(),
                href.len(),
                "{path}: {href}"
            );
            checked += 1;
        }
    }
    assert!(checked > 20, "{checked} language links checked");
}
