//! Builds the real documentation site of this repository and checks that it is complete: the
//! pages the site map names, a published catalogue whose guide links lead to pages, the legacy
//! root in every table, the credentials of each network in its guide, paged long tables, and
//! reader text free of notes about where a fact came from.

mod common;

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

fn root() -> PathBuf {
    common::repo_root()
}

/// The site is built once for all tests of this file.
fn built() -> &'static Path {
    common::built_site("site-completeness")
}

fn page_file(route: &str) -> PathBuf {
    built()
        .join(route.trim_start_matches('/'))
        .join("index.html")
}

fn page(route: &str) -> String {
    std::fs::read_to_string(page_file(route)).unwrap_or_else(|_| panic!("{route} was not built"))
}

fn json(rel: &str) -> serde_json::Value {
    serde_json::from_slice(&std::fs::read(built().join(rel)).unwrap()).unwrap()
}

/// The text a reader sees in a page's article: tags dropped, entities decoded, spaces joined.
fn article_text(html: &str) -> String {
    let start = html.find("<article").unwrap_or(0);
    let end = html[start..]
        .find("</article>")
        .map_or(html.len(), |e| start + e);
    let mut out = String::new();
    let mut in_tag = false;
    for c in html[start..end].chars() {
        match c {
            '<' => in_tag = true,
            '>' if in_tag => {
                in_tag = false;
                out.push(' ');
            }
            _ if !in_tag => out.push(c),
            _ => {}
        }
    }
    let out = out
        .replace("&quot;", "\"")
        .replace("&#39;", "'")
        .replace("&lt;", "<")
        .replace("&gt;", ">")
        .replace("&amp;", "&");
    out.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// The body rows of the table that follows the heading `id` on a page, with the wrapper the
/// table sits in.
fn table_after(html: &str, id: &str) -> (String, usize) {
    let at = html
        .find(&format!("id=\"{id}\""))
        .unwrap_or_else(|| panic!("no heading #{id}"));
    let rest = &html[at..];
    let table = rest.find("<table").expect("a table after the heading");
    let wrapper_start = rest[..table].rfind("<div").expect("a wrapper");
    let wrapper = rest[wrapper_start..table].to_string();
    let end = rest[table..].find("</table>").unwrap() + table;
    let body = &rest[table..end];
    let body = &body[body.find("<tbody>").unwrap()..];
    (wrapper, body.matches("<tr>").count())
}

fn networks() -> Vec<yaml_serde::Value> {
    let text = std::fs::read_to_string(root().join("content/data/networks.yaml")).unwrap();
    yaml_serde::from_str(&text).unwrap()
}

fn strings(v: &yaml_serde::Value) -> Vec<String> {
    v.as_sequence()
        .map(|s| {
            s.iter()
                .filter_map(|x| x.as_str().map(str::to_string))
                .collect()
        })
        .unwrap_or_default()
}

#[test]
fn the_pages_the_site_map_names_exist() {
    // The guides of networks whose adapters are gone stay (the site map names them), as short
    // pages that say since when and what to do.
    for platform in ["android", "ios"] {
        for slug in ["csj", "tencent"] {
            let route = format!("/documentation/mediation/{platform}/mediation-setup/{slug}");
            let text = article_text(&page(&route));
            assert!(
                text.contains("What to Do"),
                "{route} does not say what to do"
            );
        }
    }
    let android_csj = article_text(&page(
        "/documentation/mediation/android/mediation-setup/csj",
    ));
    assert!(
        android_csj.contains("never had an Android adapter"),
        "the Android CSJ page does not say that there was no Android adapter"
    );

    let nav = json("_docgen/nav.json");
    let mediation = nav
        .as_array()
        .unwrap()
        .iter()
        .find(|n| n["url"] == "/documentation/mediation")
        .expect("the mediation area");
    let auctions = mediation["children"]
        .as_array()
        .unwrap()
        .iter()
        .find(|n| n["url"] == "/documentation/mediation/auctions")
        .expect("Demand Partners");
    let leaves: Vec<&str> = auctions["children"]
        .as_array()
        .unwrap()
        .iter()
        .map(|n| n["url"].as_str().unwrap())
        .collect();
    for name in [
        "campaign-management-api",
        "auction-dynamics",
        "custom-adapter",
        "custom-adapter-android",
        "custom-adapter-ios",
        "dsps",
        "dv360",
    ] {
        let route = format!("/documentation/mediation/auctions/{name}");
        assert!(
            leaves.contains(&route.as_str()),
            "{route} is not in the menu under Demand Partners: {leaves:?}"
        );
        assert!(page_file(&route).is_file(), "{route} was not built");
    }
    // The variants of the custom-adapter page are still served.
    for variant in ["android", "ios"] {
        assert!(
            page_file(&format!(
                "/documentation/mediation/auctions/custom-adapter/{variant}"
            ))
            .is_file()
        );
    }
}

#[test]
fn every_catalogue_guide_url_is_a_built_page_of_its_platform() {
    let catalogue = json("docs/v1/mediated_networks");
    let entries = catalogue["networks"].as_array().unwrap();
    let mut with_guide = 0;
    for e in entries {
        let Some(url) = e["guideUrl"].as_str() else {
            continue;
        };
        with_guide += 1;
        let name = &e["displayName"];
        assert!(!url.contains('{'), "{name}: guideUrl `{url}` is a pattern");
        assert!(
            page_file(url).is_file(),
            "{name}: guideUrl `{url}` is not a page"
        );
        let platform = url
            .strip_prefix("/documentation/mediation/")
            .and_then(|r| r.split('/').next())
            .unwrap();
        let platforms: Vec<&str> = e["platform"]
            .as_array()
            .unwrap()
            .iter()
            .filter_map(|p| p.as_str())
            .collect();
        assert!(
            platforms.contains(&platform),
            "{name}: guideUrl `{url}` is not a page of its platform {platforms:?}"
        );
    }
    assert!(with_guide >= 30, "only {with_guide} entries have a guide");
}

#[test]
fn the_legacy_root_is_a_legacy_route_in_every_table() {
    let root_route = "/legacy/documentation/mediation";
    let redirects = std::fs::read_to_string(built().join("_redirects")).unwrap();
    assert!(
        redirects
            .lines()
            .any(|l| l == "/legacy/documentation/mediation /documentation/mediation 301"),
        "no _redirects line for the legacy root"
    );
    let routes = json("_docgen/routes.json");
    assert!(
        routes["redirects"]
            .as_array()
            .unwrap()
            .iter()
            .any(|r| r["from"] == root_route && r["to"] == "/documentation/mediation"),
        "routes.json has no entry for the legacy root"
    );
    assert!(
        page(root_route)
            .contains("<meta http-equiv=\"refresh\" content=\"0; url=/documentation/mediation\">"),
        "the legacy root's page does not send the browser home"
    );
    // The tables and the pages agree: one redirect page per legacy route of routes.json, and
    // one `_redirects` line for each of them.
    for r in routes["redirects"].as_array().unwrap() {
        let from = r["from"].as_str().unwrap();
        assert!(page_file(from).is_file(), "{from} has no page");
        let line = format!("{from} {} 301", r["to"].as_str().unwrap());
        assert!(
            redirects.lines().any(|l| l == line),
            "no _redirects line `{line}`"
        );
    }
}

#[test]
fn each_adapter_guide_names_its_networks_credentials() {
    let mut checked = 0;
    for n in networks() {
        // A network whose adapters are no longer published has a short page instead.
        if n["type"] != "adapter" || n["status"].is_string() {
            continue;
        }
        let slug = n["slug"].as_str().unwrap();
        let c = &n["credentials"];
        assert!(c.is_mapping(), "{slug} has no credentials");
        let mut wanted = strings(&c["max"]);
        wanted.extend(strings(&c["app"]));
        if let Some(unit) = c["adUnit"].as_str() {
            wanted.push(unit.to_string());
        }
        for platform in strings(&n["guidePlatforms"]) {
            let route = format!("/documentation/mediation/{platform}/mediation-setup/{slug}");
            let text = article_text(&page(&route));
            for w in &wanted {
                assert!(text.contains(w.as_str()), "{route} does not name `{w}`");
            }
            assert!(
                !text.contains("the credentials it offers for reporting access"),
                "{route} still has the generic account text"
            );
            checked += 1;
        }
    }
    assert!(checked > 200, "only {checked} guides checked");
    // What the networks' dashboards give, as the specification's readers know them.
    for (slug, values) in [
        ("admob", &["App ID", "ad unit ID"][..]),
        ("unityads", &["Game ID", "placement ID"]),
        ("ironsource", &["App Key", "instance ID"]),
        ("chartboost", &["App ID", "App Signature"]),
    ] {
        let text = article_text(&page(&format!(
            "/documentation/mediation/android/mediation-setup/{slug}"
        )));
        for v in values {
            assert!(text.contains(v), "{slug}: no `{v}`");
        }
    }
    // maio's Maven repository: in the adapter table and in the published data the dependency
    // builder reads.
    let maven = "https://imobile-maio.github.io/maven";
    for route in [
        "/documentation/mediation/android/mediation-adapters",
        "/documentation/mediation/unity/mediation-adapters/android",
    ] {
        assert!(
            // Addresses in table cells carry `<wbr>` break points, which are not text.
            page(route).replace("<wbr>", "").contains(maven),
            "{route} lacks maio's repository"
        );
    }
    let catalogue = json("docs/v1/mediated_networks");
    let maio = catalogue["networks"]
        .as_array()
        .unwrap()
        .iter()
        .find(|e| e["name"] == "MAIO_NETWORK")
        .unwrap();
    assert!(
        maio["headerCode"]["androidRepository"]
            .as_str()
            .is_some_and(|r| r.contains(maven))
    );
}

#[test]
fn long_tables_are_paged_tables_of_fifty_rows() {
    let constants = std::fs::read_to_string(root().join("frontend/src/constants.ts")).unwrap();
    assert!(constants.contains("TABLE_PAGE_SIZES = [50, 100, 500]"));
    assert!(constants.contains("TABLE_DEFAULT_PAGE_SIZE = 50;"));
    let block = std::fs::read_to_string(root().join("frontend/src/blocks/PagedTable.tsx")).unwrap();
    assert!(block.contains("useState<number>(TABLE_DEFAULT_PAGE_SIZE)"));
    assert!(block.contains("total > TABLE_DEFAULT_PAGE_SIZE"));

    let ids: serde_json::Value = json("docs/v1/mediation_sk_adnetwork_ids");
    let unique: BTreeSet<&str> = ids["mediationSKAdnetworkIdsSpecs"]
        .as_array()
        .unwrap()
        .iter()
        .flat_map(|s| s["skAdNetworkIds"].as_array().into_iter().flatten())
        .filter_map(|i| i.as_str())
        .collect();
    for platform in ["ios", "unity", "android"] {
        let route = format!("/documentation/mediation/{platform}/getting-started/skadnetwork-info");
        let (wrapper, rows) = table_after(&page(&route), "all-ids");
        assert!(
            wrapper.contains("data-dg-block=\"table\""),
            "{route}: the ID list is not a paged table: {wrapper}"
        );
        // Every row is in the static page, so it reads without JavaScript; the app pages it.
        assert_eq!(rows, unique.len(), "{route}");
        assert!(rows > 50, "{route}: {rows} rows show no pager");
    }
    for platform in ["unity", "flutter", "react-native", "cordova"] {
        let route = format!("/documentation/mediation/{platform}/mediation-adapters");
        let (wrapper, rows) = table_after(&page(&route), "adapter-catalogue");
        assert!(
            wrapper.contains("data-dg-block=\"table\""),
            "{route}: the adapter catalogue is not a paged table"
        );
        assert!(rows > 50, "{route}: {rows} rows show no pager");
    }
}

#[test]
fn adapter_pages_have_no_sourcing_notes() {
    let phrases = [
        "at the time of writing",
        "not recorded",
        "demo app does so",
        "demo app does",
        "adapter catalog (",
        "listed by the defold",
        "keep working",
        "this documentation has no",
        "as of july 2026",
    ];
    let mut pages = 0;
    let mut found = Vec::new();
    let dir = built().join("documentation/mediation");
    for platform in std::fs::read_dir(&dir).unwrap() {
        let platform = platform.unwrap().path();
        for sub in ["mediation-setup", "mediation-adapters", "changelog"] {
            let base = platform.join(sub);
            if !base.is_dir() {
                continue;
            }
            let mut stack = vec![base];
            while let Some(d) = stack.pop() {
                for e in std::fs::read_dir(&d).unwrap() {
                    let p = e.unwrap().path();
                    if p.is_dir() {
                        stack.push(p);
                    } else if p.file_name().is_some_and(|n| n == "index.html") {
                        pages += 1;
                        let text =
                            article_text(&std::fs::read_to_string(&p).unwrap()).to_lowercase();
                        for ph in phrases {
                            if text.contains(ph) {
                                found.push(format!("{}: `{ph}`", p.display()));
                            }
                        }
                    }
                }
            }
        }
        let skad = platform.join("getting-started/skadnetwork-info/index.html");
        if skad.is_file() {
            pages += 1;
            let text = article_text(&std::fs::read_to_string(&skad).unwrap()).to_lowercase();
            for ph in phrases.iter().chain(&["catalog of"]) {
                if text.contains(ph) {
                    found.push(format!("{}: `{ph}`", skad.display()));
                }
            }
        }
    }
    assert!(pages > 250, "only {pages} pages read");
    assert!(found.is_empty(), "{}", found.join("\n"));
}

#[test]
fn the_plugin_and_ios_changelogs_list_their_releases() {
    for (id, at_least) in [
        ("ios", 6),
        ("unity", 3),
        ("flutter", 20),
        ("react-native", 8),
        ("godot", 5),
        ("cordova", 5),
    ] {
        let route = format!("/documentation/mediation/{id}/changelog");
        let html = page(&route);
        let published = json(&format!("docs/v1/sdk-change-logs/{id}"));
        let releases = published["sdkChangeLogs"].as_array().unwrap();
        assert!(
            releases.len() >= at_least,
            "{route}: only {} releases",
            releases.len()
        );
        for r in releases {
            let version = r["version"].as_str().unwrap();
            assert!(
                html.contains(&format!(">{version}<")),
                "{route} does not show {version}"
            );
            assert!(
                r["notes"].as_array().is_some_and(|n| !n.is_empty()),
                "{id} {version} has no notes"
            );
        }
    }
}

/// The platform ids of the site (content/data/platforms.yaml).
fn platform_ids() -> Vec<String> {
    let text = std::fs::read_to_string(root().join("content/data/platforms.yaml")).unwrap();
    let list: Vec<yaml_serde::Value> = yaml_serde::from_str(&text).unwrap();
    list.iter()
        .map(|p| p["id"].as_str().unwrap().to_string())
        .collect()
}

#[test]
fn each_current_bidder_has_a_guide_on_every_platform_with_a_complete_row() {
    let all = networks();
    let platforms = platform_ids();
    assert_eq!(platforms.len(), 10, "{platforms:?}");
    let catalogue = json("docs/v1/mediated_networks");
    for slug in ["moloco", "bigoads", "pubmatic", "yso-network"] {
        let n = all
            .iter()
            .find(|n| n["slug"] == slug)
            .unwrap_or_else(|| panic!("{slug} is not in networks.yaml"));
        assert!(n["status"].is_null(), "{slug} is marked as removed");
        assert_eq!(n["group"], "bidders", "{slug} is not in the bidders group");
        // An adapter for Android and iOS serves every platform: the plugins take both.
        let native = strings(&n["platform"]);
        assert_eq!(native, ["android", "ios"], "{slug}");
        assert_eq!(strings(&n["guidePlatforms"]), platforms, "{slug}");
        let display = n["displayName"].as_str().unwrap();
        for platform in &platforms {
            let route = format!("/documentation/mediation/{platform}/mediation-setup/{slug}");
            let text = article_text(&page(&route));
            assert!(
                text.contains("Add the Adapter"),
                "{route} is not a full guide"
            );
            assert!(text.contains(display), "{route} does not name {display}");
        }
        let row = catalogue["networks"]
            .as_array()
            .unwrap()
            .iter()
            .find(|e| e["displayName"] == display)
            .unwrap();
        assert!(
            row["size"].as_array().is_some_and(|s| !s.is_empty()),
            "{slug}: no ad formats in the catalogue"
        );
        assert_eq!(
            row["guideUrl"],
            format!("/documentation/mediation/android/mediation-setup/{slug}").as_str()
        );
        assert_eq!(row["bidding"], true, "{slug}");
    }
}

#[test]
fn removed_networks_have_short_pages_that_say_since_when() {
    let mut checked = 0;
    for n in networks() {
        let Some(status) = n["status"].as_str() else {
            continue;
        };
        let slug = n["slug"].as_str().unwrap();
        let date = status
            .split(|c: char| !(c.is_ascii_digit() || c == '-'))
            .find(|w| w.len() == 10 && w.as_bytes()[4] == b'-')
            .unwrap_or_else(|| panic!("{slug}: the status gives no date"));
        for platform in strings(&n["guidePlatforms"]) {
            let route = format!("/documentation/mediation/{platform}/mediation-setup/{slug}");
            let text = article_text(&page(&route));
            assert!(text.contains(date), "{route} does not say since when");
            assert!(
                text.contains("What to Do"),
                "{route} does not say what to do"
            );
            for full in [
                "Add the Adapter",
                "Account Setup",
                "What MAX Asks For",
                "Testing",
            ] {
                assert!(
                    !text.contains(full),
                    "{route} is still a full guide (`{full}`)"
                );
            }
            let words = text.split_whitespace().count();
            assert!(words < 400, "{route}: {words} words is not a short page");
            checked += 1;
        }
    }
    assert!(checked >= 40, "only {checked} pages of removed networks");
}

/// Every built page of the site: its route-relative folder and its HTML.
fn all_pages() -> Vec<(PathBuf, String)> {
    let mut out = Vec::new();
    let mut stack = vec![built().join("documentation")];
    while let Some(d) = stack.pop() {
        for e in std::fs::read_dir(&d).unwrap() {
            let p = e.unwrap().path();
            if p.is_dir() {
                stack.push(p);
            } else if p.file_name().is_some_and(|n| n == "index.html") {
                let html = std::fs::read_to_string(&p).unwrap();
                // Legacy routes are redirect stubs, not reader text.
                if html.contains("http-equiv=\"refresh\"") {
                    continue;
                }
                out.push((p, html));
            }
        }
    }
    out
}

#[test]
fn each_platform_has_a_troubleshooting_page_linked_from_error_codes_and_testing() {
    let nav = serde_json::to_string(&json("_docgen/nav.json")).unwrap();
    for platform in platform_ids() {
        let route = format!("/documentation/mediation/{platform}/testing-networks/troubleshooting");
        let text = article_text(&page(&route));
        for needed in [
            "No Fill",
            "204",
            "-5603",
            "-5001",
            "Adapter Not Initialized",
        ] {
            assert!(text.contains(needed), "{route} does not cover `{needed}`");
        }
        for from in [
            format!("/documentation/mediation/{platform}/getting-started/errorcodes"),
            format!("/documentation/mediation/{platform}/testing-networks"),
        ] {
            assert!(
                page(&from).contains(&format!("href=\"{route}\"")),
                "{from} does not link to {route}"
            );
        }
        assert!(
            nav.contains(&format!("\"{route}\"")),
            "{route} is not in the menu"
        );
    }
    // What is true on one platform only stays there.
    let android = article_text(&page(
        "/documentation/mediation/android/testing-networks/troubleshooting",
    ));
    assert!(!android.contains("Info.plist") && !android.contains("-25"));
    let ios = article_text(&page(
        "/documentation/mediation/ios/testing-networks/troubleshooting",
    ));
    assert!(!ios.contains("AndroidManifest") && !ios.contains("-5602"));
}

#[test]
fn reader_text_does_not_describe_how_the_site_is_built() {
    let phrases = [
        "this site is built",
        "the site is built",
        "when this site",
        "compiled into checks",
        "at build time of this site",
        "on this site",
        "this site's build",
        "generated from the data",
        "generated by docgen",
    ];
    let mut found = Vec::new();
    let pages = all_pages();
    assert!(pages.len() > 500, "only {} pages", pages.len());
    for (path, html) in &pages {
        let text = article_text(html).to_lowercase();
        for ph in phrases {
            if text.contains(ph) {
                found.push(format!("{}: `{ph}`", path.display()));
            }
        }
    }
    assert!(found.is_empty(), "{}", found.join("\n"));
}

#[test]
fn markdown_twins_carry_no_docgen_attribute_syntax() {
    let mut twins = 0;
    let mut found = Vec::new();
    for (path, _) in all_pages() {
        let twin = path.with_file_name("index.md");
        let Ok(md) = std::fs::read_to_string(&twin) else {
            continue;
        };
        twins += 1;
        let mut in_fence = false;
        for (i, line) in md.lines().enumerate() {
            if line.trim_start().starts_with("```") {
                in_fence = !in_fence;
            }
            if in_fence {
                continue;
            }
            let t = line.trim_end();
            let attribute = t.ends_with('}')
                && t.rfind('{').is_some_and(|at| {
                    let block = &t[at..];
                    block.starts_with("{#") || block.starts_with("{.") || block.contains("alias=")
                });
            if attribute || line.contains("{alias=") {
                found.push(format!("{}:{}: {line}", twin.display(), i + 1));
            }
        }
    }
    assert!(twins > 500, "only {twins} twins");
    assert!(found.is_empty(), "{}", found.join("\n"));
}

/// Version strings compare part by part as numbers: 13.10.0 is newer than 13.9.1.
fn version_key(v: &str) -> Vec<u64> {
    v.split('.').map(|p| p.parse().unwrap_or(0)).collect()
}

#[test]
fn every_changelog_is_a_release_history_newest_first() {
    let text = std::fs::read_to_string(root().join("content/data/platforms.yaml")).unwrap();
    let platforms: Vec<yaml_serde::Value> = yaml_serde::from_str(&text).unwrap();
    let mut checked = 0;
    for p in &platforms {
        if p["changelog"] != true {
            continue;
        }
        let id = p["id"].as_str().unwrap();
        let route = format!("/documentation/mediation/{id}/changelog");
        let text = article_text(&page(&route));
        let words = text.split_whitespace().count();
        let published = json(&format!("docs/v1/sdk-change-logs/{id}"));
        let versions: Vec<&str> = published["sdkChangeLogs"]
            .as_array()
            .unwrap()
            .iter()
            .map(|r| r["version"].as_str().unwrap())
            .collect();
        if versions.is_empty() {
            // No published release notes to carry: the page says how versions are told apart
            // and where the history is kept.
            assert!(
                text.contains("repository"),
                "{route} does not say where the history is"
            );
        } else {
            assert!(versions.len() >= 3, "{route}: {versions:?}");
            assert!(
                text.contains("Updating"),
                "{route} does not say how to update"
            );
            assert!(
                words >= 180,
                "{route}: {words} words is not a release history"
            );
        }
        for pair in versions.windows(2) {
            assert!(
                version_key(pair[0]) > version_key(pair[1]),
                "{route}: {} is listed before {}",
                pair[0],
                pair[1]
            );
        }
        checked += 1;
    }
    assert_eq!(checked, 8, "changelog pages checked");
}

/// Where `word` occurs in `text` as a whole word or phrase: not inside an identifier such as
/// `OnMrecAdExpandedEvent`.
fn has_word(text: &str, word: &str) -> bool {
    text.match_indices(word).any(|(at, _)| {
        let before = text[..at].chars().next_back();
        let after = text[at + word.len()..].chars().next();
        let part = |c: Option<char>| c.is_some_and(|c| c.is_alphanumeric() || c == '_');
        !part(before) && !part(after)
    })
}

#[test]
fn reader_text_uses_one_term_for_each_thing() {
    let text = std::fs::read_to_string(root().join("content/data/glossary.yaml")).unwrap();
    let glossary: Vec<yaml_serde::Value> = yaml_serde::from_str(&text).unwrap();
    assert!(
        glossary.len() >= 5,
        "the glossary lists {} terms",
        glossary.len()
    );
    let mut found = Vec::new();
    let pages = all_pages();
    for entry in &glossary {
        let term = entry["term"].as_str().unwrap();
        assert!(
            entry["definition"].as_str().is_some_and(|d| !d.is_empty()),
            "{term} has no definition"
        );
        let avoid = strings(&entry["avoid"]);
        assert!(!avoid.is_empty(), "{term} lists no variant to avoid");
        for (path, html) in &pages {
            let text = article_text(html);
            for v in &avoid {
                if has_word(&text, v) {
                    found.push(format!("{}: `{v}` (write `{term}`)", path.display()));
                }
            }
        }
    }
    assert!(found.is_empty(), "{}", found.join("\n"));
    assert!(has_word("the report key here", "report key"));
    assert!(!has_word("OnMrecAdExpandedEvent", "Mrec"));
}
