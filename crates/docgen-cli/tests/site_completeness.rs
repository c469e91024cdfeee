//! Builds the real documentation site of this repository and checks that it is complete: the
//! pages the site map names, a published catalogue whose guide links lead to pages, the legacy
//! root in every table, the credentials of each network in its guide, paged long tables,
//! reader text free of notes about where a fact came from, and platform pages that say only
//! what holds on their platform (headings over the tables they describe, gestures and prompts
//! of the platform's own native sides, Kotlin callbacks with the SDK's nullability, breaking
//! changes apart from the others).

use crate::common;

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

fn root() -> PathBuf {
    common::repo_root()
}

/// The site is built once for all tests of this file.
fn built() -> &'static Path {
    common::built_site()
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
            for p in index_files(&base) {
                pages += 1;
                let text = article_text(&std::fs::read_to_string(&p).unwrap()).to_lowercase();
                for ph in phrases {
                    if text.contains(ph) {
                        found.push(format!("{}: `{ph}`", p.display()));
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
        ("android", 15),
        ("ios", 6),
        ("unity", 25),
        ("flutter", 20),
        ("react-native", 8),
        ("godot", 7),
        ("cordova", 18),
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

#[test]
fn the_sdk_changelogs_reach_the_latest_sourced_release() {
    // 13.6.3 of 2026-06-03 is the newest release the sources give (13.6.4 is only reported
    // by a third party); a date shows only where the data holds one.
    let published = json("docs/v1/sdk-change-logs/android");
    let newest = &published["sdkChangeLogs"][0];
    assert_eq!(newest["version"], "13.6.3");
    assert_eq!(newest["date"], "2026-06-03");
    for id in ["android", "ios", "unity", "godot", "cordova", "adobe-air"] {
        let route = format!("/documentation/mediation/{id}/changelog");
        let text = article_text(&page(&route));
        let published = json(&format!("docs/v1/sdk-change-logs/{id}"));
        let dated = published["sdkChangeLogs"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|r| r["date"].is_string())
            .count();
        assert_eq!(
            text.matches("Released ").count(),
            dated,
            "{route}: a release date that the data does not hold"
        );
        assert!(
            !text.contains("13.6.4"),
            "{route} names the unverified 13.6.4"
        );
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

/// Every `index.html` under `dir`, at any depth.
fn index_files(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for e in std::fs::read_dir(&d).unwrap() {
            let p = e.unwrap().path();
            if p.is_dir() {
                stack.push(p);
            } else if p.file_name().is_some_and(|n| n == "index.html") {
                out.push(p);
            }
        }
    }
    out
}

/// Every built page of the site: its route-relative folder and its HTML.
fn all_pages() -> Vec<(PathBuf, String)> {
    index_files(&built().join("documentation"))
        .into_iter()
        .map(|p| {
            let html = std::fs::read_to_string(&p).unwrap();
            (p, html)
        })
        // Legacy routes are redirect stubs, not reader text.
        .filter(|(_, html)| !html.contains("http-equiv=\"refresh\""))
        .collect()
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
            // A release history, not a few lines: the plugins' whole published history
            // (Godot's, the shortest, has seven releases) and the SDKs' through the latest
            // sourced release.
            assert!(
                words >= 230,
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

#[test]
fn the_glossary_page_defines_every_term_and_sits_in_the_menu() {
    let text = std::fs::read_to_string(root().join("content/data/glossary.yaml")).unwrap();
    let glossary: Vec<yaml_serde::Value> = yaml_serde::from_str(&text).unwrap();
    let route = "/documentation/mediation/max/glossary";
    let html = page(route);
    let text = article_text(&html);
    for entry in &glossary {
        let term = entry["term"].as_str().unwrap();
        let definition = entry["definition"].as_str().unwrap();
        assert!(
            html.contains(&format!(">{term}<a class=\"dg-anchor\"")),
            "{route} has no heading for {term}"
        );
        // The definition as a reader sees it: Markdown code marks are gone, and the page text
        // spaces out inline code, so spaces do not count.
        let squeeze = |s: &str| s.replace('`', "").split_whitespace().collect::<String>();
        assert!(
            squeeze(&text).contains(&squeeze(definition)),
            "{route} lacks the definition of {term}"
        );
    }
    for required in ["Google Bidding", "SDK key", "ad unit ID", "Report Key"] {
        assert!(
            glossary.iter().any(|e| e["term"] == required),
            "the glossary does not define {required}"
        );
    }
    let nav = serde_json::to_string(&json("_docgen/nav.json")).unwrap();
    assert!(
        nav.contains(&format!("\"url\":\"{route}\"")),
        "the menu does not link {route}"
    );
}

/// The route of a built page, from its file: `/documentation/…` without `index.html`.
fn route_of(path: &Path) -> String {
    let rel = path.parent().unwrap().strip_prefix(built()).unwrap();
    format!("/{}", rel.to_string_lossy().replace('\\', "/"))
}

/// The native sides (`android`, `ios`) each platform page is about, by platform id.
fn platform_natives() -> Vec<(String, Vec<String>)> {
    let text = std::fs::read_to_string(root().join("content/data/platforms.yaml")).unwrap();
    let platforms: Vec<yaml_serde::Value> = yaml_serde::from_str(&text).unwrap();
    platforms
        .iter()
        .map(|p| (p["id"].as_str().unwrap().to_string(), strings(&p["native"])))
        .collect()
}

/// The sections of a page's article: each `<h2>`/`<h3>` heading's text and the HTML up to the
/// next heading of either level.
fn sections(html: &str) -> Vec<(String, String)> {
    let start = html.find("<article").unwrap_or(0);
    let end = html[start..]
        .find("</article>")
        .map_or(html.len(), |e| start + e);
    let article = &html[start..end];
    let mut starts: Vec<usize> = article
        .match_indices("<h2")
        .chain(article.match_indices("<h3"))
        .map(|(at, _)| at)
        .collect();
    starts.sort_unstable();
    starts
        .iter()
        .enumerate()
        .map(|(i, &at)| {
            let body_end = starts.get(i + 1).copied().unwrap_or(article.len());
            let close = article[at..].find("</h").map_or(body_end, |c| at + c);
            let title = article_text(&format!("<article>{}</article>", &article[at..close]));
            let title = title.trim_end_matches('#').trim().to_string();
            (title, article[close..body_end].to_string())
        })
        .collect()
}

/// The header cells of the first table in an HTML fragment, as text.
fn table_header(fragment: &str) -> Option<Vec<String>> {
    let table = fragment.find("<table")?;
    let head_end = fragment[table..].find("</thead>")? + table;
    let head = &fragment[table..head_end];
    Some(
        head.split("<th")
            .skip(1)
            .map(|cell| {
                let cell = &cell[cell.find('>').map_or(0, |g| g + 1)..];
                let cell = &cell[..cell.find("</th>").unwrap_or(cell.len())];
                article_text(&format!("<article>{cell}</article>"))
            })
            .collect(),
    )
}

/// Whether the first table of an HTML fragment holds a version number such as `11.3.0`.
fn holds_version_numbers(fragment: &str) -> bool {
    let Some(table) = fragment.find("<table") else {
        return false;
    };
    let end = fragment[table..]
        .find("</table>")
        .map_or(fragment.len(), |e| table + e);
    let text = article_text(&format!("<article>{}</article>", &fragment[table..end]));
    let chars: Vec<char> = text.chars().collect();
    chars
        .windows(3)
        .any(|w| w[0].is_ascii_digit() && w[1] == '.' && w[2].is_ascii_digit())
}

#[test]
fn a_heading_that_names_versions_sits_over_a_table_that_holds_them() {
    assert!(holds_version_numbers(
        "<table><tr><td>MAX SDK 11.3.0 and later</td></tr></table>"
    ));
    assert!(!holds_version_numbers(
        "<table><tr><td>com.applovin.mediation:bidmachine-adapter</td></tr></table>"
    ));
    let mut found = Vec::new();
    let mut native_tables = 0;
    let natives = platform_natives();
    for (path, html) in all_pages() {
        let route = route_of(&path);
        for (title, body) in sections(&html) {
            let Some(header) = table_header(&body) else {
                continue;
            };
            if title.to_lowercase().contains("version") && !holds_version_numbers(&body) {
                found.push(format!("{route}: `{title}` over a table of {header:?}"));
            }
            // The adapter table of a native-ad page names the adapters of the platform's own
            // native sides only: no iOS pod on an Android page.
            if route.contains("/ad-formats/native-") && title == "Supported Adapters" {
                native_tables += 1;
                let id = route.split('/').nth(3).unwrap();
                let own = &natives.iter().find(|(p, _)| p == id).unwrap().1;
                for (side, column) in [("android", "Android adapter"), ("ios", "iOS adapter")] {
                    let shown = header.iter().any(|c| c == column);
                    if shown != own.iter().any(|n| n == side) {
                        found.push(format!("{route}: columns {header:?} for natives {own:?}"));
                    }
                }
            }
        }
    }
    // Every native-ad page of every platform has its adapter table.
    let text = std::fs::read_to_string(root().join("content/data/platforms.yaml")).unwrap();
    let platforms: Vec<yaml_serde::Value> = yaml_serde::from_str(&text).unwrap();
    let native_pages = platforms
        .iter()
        .flat_map(|p| strings(&p["formats"]))
        .filter(|f| f.starts_with("native-"))
        .count();
    assert!(native_pages >= 8, "only {native_pages} native-ad pages");
    assert_eq!(
        native_tables, native_pages,
        "native-ad pages with an adapter table"
    );
    assert!(found.is_empty(), "{}", found.join("\n"));
}

#[test]
fn platform_pages_name_only_their_own_platforms_gestures_and_prompts() {
    // What exists on one native side only: said on a page of a platform that builds for it.
    let ios_only = [
        "App Tracking Transparency",
        "NSUserTrackingUsageDescription",
        "ATTrackingManager",
        "flip the device",
    ];
    let android_only = ["shake the device", "AndroidManifest", "GAID"];
    let natives = platform_natives();
    let mut found = Vec::new();
    let mut checked = 0;
    for (path, html) in all_pages() {
        let route = route_of(&path);
        let Some(id) = route
            .strip_prefix("/documentation/mediation/")
            .and_then(|r| r.split('/').next())
        else {
            continue;
        };
        let Some((_, own)) = natives.iter().find(|(p, _)| p == id) else {
            continue;
        };
        checked += 1;
        let text = article_text(&html);
        for (side, phrases) in [("ios", &ios_only[..]), ("android", &android_only[..])] {
            if own.iter().any(|n| n == side) {
                continue;
            }
            for phrase in phrases {
                if text.contains(phrase) {
                    found.push(format!("{route}: `{phrase}`"));
                }
            }
        }
    }
    assert!(checked > 300, "only {checked} platform pages");
    // A platform that builds for both sides names each side's gesture.
    for (id, own) in &natives {
        let text = article_text(&page(&format!(
            "/documentation/mediation/{id}/testing-networks/creative-debugger"
        )));
        for (side, gesture) in [("android", "shake the device"), ("ios", "flip the device")] {
            assert_eq!(
                text.contains(gesture),
                own.iter().any(|n| n == side),
                "{id} creative debugger: `{gesture}`"
            );
        }
    }
    assert!(found.is_empty(), "{}", found.join("\n"));
}

/// The parameters of each `on…` callback a code block declares: the callback's name, the
/// listener object it sits in (`object : X`, when there is one) and, per parameter, its type
/// and whether it is declared nullable (`Some(true)`), non-null (`Some(false)`) or neither.
type Callback = (String, String, Vec<(String, Option<bool>)>);

/// Each callback `code` declares after `marker` (`override fun on`, `void on`): where its
/// declaration starts, its name and the text between its parentheses.
fn declarations<'a>(code: &'a str, marker: &str, skip: usize) -> Vec<(usize, &'a str, &'a str)> {
    code.match_indices(marker)
        .filter_map(|(at, _)| {
            let rest = &code[at + skip..];
            let open = rest.find('(')?;
            let close = rest.find(')')?;
            Some((at, &rest[..open], &rest[open + 1..close]))
        })
        .collect()
}

fn kotlin_callbacks(code: &str) -> Vec<Callback> {
    declarations(code, "override fun on", "override fun ".len())
        .into_iter()
        .map(|(at, name, params)| {
            let listener = code[..at]
                .rfind("object : ")
                .map(|o| {
                    let l = &code[o + "object : ".len()..];
                    l[..l.find([' ', '{', '(']).unwrap_or(l.len())].to_string()
                })
                .unwrap_or_default();
            let params = params
                .split(',')
                .filter_map(|p| p.split_once(':'))
                .map(|(_, ty)| {
                    let ty = ty.trim();
                    (
                        ty.trim_end_matches('?').to_string(),
                        Some(ty.ends_with('?')),
                    )
                })
                .collect();
            (name.to_string(), listener, params)
        })
        .collect()
}

fn java_callbacks(code: &str) -> Vec<Callback> {
    declarations(code, "void on", "void ".len())
        .into_iter()
        .map(|(_, name, params)| {
            let params = params
                .split(',')
                .filter(|p| !p.trim().is_empty())
                .map(|p| {
                    let words: Vec<&str> = p
                        .split_whitespace()
                        .filter(|w| *w != "final" && !w.starts_with('@'))
                        .collect();
                    let nullable = if p.contains("@Nullable") {
                        Some(true)
                    } else if p.contains("@NonNull") {
                        Some(false)
                    } else {
                        None
                    };
                    (words.first().unwrap_or(&"").to_string(), nullable)
                })
                .collect();
            (name.to_string(), String::new(), params)
        })
        .collect()
}

/// The fenced code blocks of a Markdown twin whose fence names `lang`.
fn fences<'a>(md: &'a str, lang: &str) -> Vec<&'a str> {
    let opener = format!("```{lang} ");
    md.match_indices(&opener)
        .filter_map(|(at, _)| {
            let body = at + md[at..].find('\n')? + 1;
            let end = body + md[body..].find("\n```")?;
            Some(&md[body..end])
        })
        .collect()
}

#[test]
fn kotlin_callbacks_take_the_nullability_the_sdk_declares() {
    // The MAX listener callbacks of SDK 12 and later take non-null ads, errors, rewards and
    // ad unit IDs; Kotlin code that overrides them must say so.
    let sdk_listeners = [
        "onAdLoaded",
        "onAdLoadFailed",
        "onAdDisplayed",
        "onAdDisplayFailed",
        "onAdHidden",
        "onAdClicked",
        "onUserRewarded",
        "onAdExpanded",
        "onAdCollapsed",
        "onAdRevenuePaid",
        "onNativeAdLoaded",
        "onNativeAdLoadFailed",
        "onNativeAdClicked",
        "onNativeAdExpired",
    ];
    let non_null = ["MaxAd", "MaxError", "MaxReward", "String"];
    let mut found = Vec::new();
    let mut checked = 0;
    for (path, _) in all_pages() {
        let Ok(md) = std::fs::read_to_string(path.with_file_name("index.md")) else {
            continue;
        };
        let route = route_of(&path);
        let java: Vec<Callback> = fences(&md, "java")
            .iter()
            .flat_map(|c| java_callbacks(c))
            .collect();
        for code in fences(&md, "kotlin") {
            for (name, listener, params) in kotlin_callbacks(code) {
                if !sdk_listeners.contains(&name.as_str()) {
                    continue;
                }
                checked += 1;
                // The ad placer's listener carries no nullability of its own.
                let placer = listener.contains("AdPlacer");
                for (ty, nullable) in &params {
                    if !placer && non_null.contains(&ty.as_str()) && *nullable == Some(true) {
                        found.push(format!("{route}: {name}(…: {ty}?)"));
                    }
                }
                // The Java twin of the same callback on the page says the same.
                let twin = java
                    .iter()
                    .find(|(n, _, p)| *n == name && p.len() == params.len());
                if let Some((_, _, jparams)) = twin {
                    for ((ty, k), (_, j)) in params.iter().zip(jparams) {
                        if j.is_some() && j != k {
                            found.push(format!(
                                "{route}: {name}: Kotlin `{ty}` nullable {k:?}, Java {j:?}"
                            ));
                        }
                    }
                }
            }
        }
    }
    assert!(checked >= 30, "only {checked} Kotlin callbacks checked");
    assert!(found.is_empty(), "{}", found.join("\n"));
    // The parsers read what they are meant to.
    let k = kotlin_callbacks("object : MaxAdListener {\n override fun onAdLoaded(ad: MaxAd?) {}");
    assert_eq!(k[0].1, "MaxAdListener");
    assert_eq!(k[0].2, vec![("MaxAd".to_string(), Some(true))]);
    let j = java_callbacks(
        "public void onNativeAdLoaded(@Nullable final MaxNativeAdView v, @NonNull final MaxAd ad)",
    );
    assert_eq!(
        j[0].2,
        vec![
            ("MaxNativeAdView".to_string(), Some(true)),
            ("MaxAd".to_string(), Some(false))
        ]
    );
}

#[test]
fn migration_pages_list_as_breaking_only_what_breaks() {
    for platform in ["android", "ios"] {
        let route = format!("/documentation/mediation/{platform}/getting-started/migration123");
        let html = page(&route);
        let all = sections(&html);
        let body = |title: &str| {
            all.iter()
                .find(|(t, _)| t == title)
                .map(|(_, b)| article_text(&format!("<article>{b}</article>")))
                .unwrap_or_else(|| panic!("{route} has no `{title}`"))
        };
        let breaking = body("Other Breaking Changes");
        for addition in [
            "deprecated",
            "supported",
            "New ",
            "introduced",
            "option to",
            "accepts",
        ] {
            assert!(
                !breaking.contains(addition),
                "{route}: `{addition}` listed as breaking"
            );
        }
        assert!(breaking.contains("removed"), "{route}: {breaking}");
        let other = body("Other Changes");
        assert!(
            other.contains("deprecated") && other.contains("supported"),
            "{route}: {other}"
        );
    }
}
