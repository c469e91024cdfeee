//! Builds the real documentation site of this repository and checks it against the
//! expectations under tests/site-expectations/: every route exists with its title, its
//! headings as anchors and matching right-menu entries; and the site is closed.

use crate::common;

use std::collections::{BTreeMap, HashMap};
use std::path::{Path, PathBuf};
use std::process::Command;

use serde::Deserialize;

#[derive(Deserialize)]
struct PageExpectation {
    route: String,
    title: String,
    #[serde(default)]
    anchors: Vec<String>,
}

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

fn expectations() -> Vec<(String, PageExpectation)> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/site-expectations");
    let mut all = Vec::new();
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    files.sort();
    for f in files {
        let name = f.file_name().unwrap().to_string_lossy().into_owned();
        if name == "redirects.yaml" || !name.ends_with(".yaml") {
            continue;
        }
        let text = std::fs::read_to_string(&f).unwrap();
        let list: Vec<PageExpectation> =
            yaml_serde::from_str(&text).unwrap_or_else(|e| panic!("{name}: {e}"));
        all.extend(list.into_iter().map(|p| (name.clone(), p)));
    }
    all
}

fn right_menu() -> HashMap<String, Vec<String>> {
    #[derive(Deserialize)]
    #[serde(rename_all = "camelCase")]
    struct Item {
        hash_name: String,
    }
    #[derive(Deserialize)]
    #[serde(rename_all = "camelCase")]
    struct Entry {
        path_name: Vec<String>,
        right_menu_navs: Vec<Item>,
    }
    let entries: Vec<Entry> =
        serde_json::from_slice(&std::fs::read(built().join("_docgen/right-menu.json")).unwrap())
            .unwrap();
    let mut map = HashMap::new();
    for e in entries {
        let hashes: Vec<String> = e
            .right_menu_navs
            .iter()
            .map(|i| i.hash_name.trim_start_matches('#').to_string())
            .collect();
        for p in e.path_name {
            map.insert(p, hashes.clone());
        }
    }
    map
}

fn html_unescape(s: &str) -> String {
    s.replace("&quot;", "\"")
        .replace("&#39;", "'")
        .replace("&lt;", "<")
        .replace("&gt;", ">")
        .replace("&amp;", "&")
}

#[test]
fn every_expected_route_exists_with_its_title_anchors_and_right_menu() {
    let expected = expectations();
    assert!(
        expected.len() > 100,
        "the expectations list only {} routes",
        expected.len()
    );
    let toc = right_menu();
    let mut problems = Vec::new();
    for (file, e) in &expected {
        let path = page_file(&e.route);
        let Ok(html) = std::fs::read_to_string(&path) else {
            problems.push(format!("{file}: {} was not built", e.route));
            continue;
        };
        let title = html
            .split("<title>")
            .nth(1)
            .and_then(|t| t.split("</title>").next())
            .map(html_unescape)
            .unwrap_or_default();
        if !title.starts_with(&format!("{} | ", e.title)) {
            problems.push(format!(
                "{file}: {} has the title {title:?}, expected {:?}",
                e.route, e.title
            ));
        }
        let entries = toc.get(&e.route);
        for a in &e.anchors {
            let mut escaped = String::new();
            docgen::markdown::highlight::escape_into(&mut escaped, a);
            let id = format!(" id=\"{escaped}\"");
            if !html.contains(&id) {
                problems.push(format!("{file}: {} has no anchor #{a}", e.route));
            }
            let heading = html.contains(&format!("<h1{id}"))
                || html.contains(&format!("<h2{id}"))
                || html.contains(&format!("<h3{id}"));
            if heading && !entries.is_some_and(|t| t.contains(a)) {
                problems.push(format!(
                    "{file}: {} lacks the right-menu entry #{a}",
                    e.route
                ));
            }
        }
    }
    assert!(
        problems.is_empty(),
        "{} problems:\n{}",
        problems.len(),
        problems.join("\n")
    );
}

#[test]
fn the_site_passes_check() {
    let out = Command::new(env!("CARGO_BIN_EXE_docgen"))
        .args(["check", "--root"])
        .arg(root())
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

/// Every internal href and #anchor in every built page resolves inside the output.
#[test]
fn every_internal_link_in_the_output_resolves() {
    let out = built();
    let mut ids: BTreeMap<String, Vec<String>> = BTreeMap::new();
    let mut pages = Vec::new();
    for e in walkdir::WalkDir::new(out) {
        let e = e.unwrap();
        if e.file_name() != "index.html" {
            continue;
        }
        let rel = e
            .path()
            .parent()
            .unwrap()
            .strip_prefix(out)
            .unwrap()
            .to_string_lossy()
            .replace('\\', "/");
        let route = format!("/{rel}").trim_end_matches('/').to_string();
        let route = if route.is_empty() {
            "/".to_string()
        } else {
            route
        };
        let html = std::fs::read_to_string(e.path()).unwrap();
        ids.insert(
            route.clone(),
            html.split(" id=\"")
                .skip(1)
                .filter_map(|s| s.split('"').next())
                .map(html_unescape)
                .collect(),
        );
        pages.push((route, html));
    }
    let mut broken = Vec::new();
    for (route, html) in &pages {
        if html.contains("http-equiv=\"refresh\"") {
            continue;
        }
        for href in html
            .split(" href=\"")
            .skip(1)
            .filter_map(|s| s.split('"').next())
            .map(html_unescape)
        {
            if !href.starts_with('/') && !href.starts_with('#') {
                continue;
            }
            let (path, anchor) = href
                .split_once('#')
                .map_or((href.as_str(), None), |(p, a)| (p, Some(a)));
            let path = if path.is_empty() {
                route.as_str()
            } else {
                path
            };
            // Files (assets, tables, the favicon) must exist; everything else is a page.
            let is_file = path
                .rsplit('/')
                .next()
                .is_some_and(|last| last.contains('.'));
            if path.starts_with("/s/") || path.starts_with("/_docgen/") || is_file {
                if !out.join(path.trim_start_matches('/')).exists() {
                    broken.push(format!("{route}: {href}"));
                }
                continue;
            }
            match ids.get(path) {
                None => broken.push(format!("{route}: {href} (no page)")),
                Some(page_ids) => {
                    if let Some(a) = anchor {
                        // Browsers match the percent-decoded fragment against ids.
                        let a = docgen::markdown::links::percent_decode(a);
                        if !a.is_empty() && !page_ids.contains(&a) {
                            broken.push(format!("{route}: {href} (no anchor)"));
                        }
                    }
                }
            }
        }
    }
    assert!(
        broken.is_empty(),
        "{} broken links:\n{}",
        broken.len(),
        broken
            .iter()
            .take(50)
            .cloned()
            .collect::<Vec<_>>()
            .join("\n")
    );
}

#[derive(Deserialize)]
struct RedirectExpectation {
    route: String,
    redirect: String,
}

/// Every legacy route of the specification is a redirect page that lands on an existing page,
/// and any other legacy path goes home through `_redirects`.
#[test]
fn every_legacy_route_lands_on_an_existing_page() {
    let text = std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/site-expectations/redirects.yaml"),
    )
    .unwrap();
    let expected: Vec<RedirectExpectation> = yaml_serde::from_str(&text).unwrap();
    assert!(
        expected.len() > 500,
        "only {} legacy routes are expected",
        expected.len()
    );
    let mut problems = Vec::new();
    for e in &expected {
        let Ok(html) = std::fs::read_to_string(page_file(&e.route)) else {
            problems.push(format!("{} was not written", e.route));
            continue;
        };
        if !html.contains(&format!(
            "<meta http-equiv=\"refresh\" content=\"0; url={}\">",
            e.redirect
        )) {
            problems.push(format!(
                "{} does not send the browser to {}",
                e.route, e.redirect
            ));
        }
        let dest = e.redirect.split('#').next().unwrap();
        if !page_file(dest).is_file() {
            problems.push(format!("{} lands on {dest}, which is not a page", e.route));
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
    let redirects = std::fs::read_to_string(built().join("_redirects")).unwrap();
    assert!(
        redirects
            .lines()
            .any(|l| l == "/legacy/documentation/mediation/* /documentation/mediation 301"),
        "no catch-all:\n{redirects}"
    );
    let routes: serde_json::Value =
        serde_json::from_slice(&std::fs::read(built().join("_docgen/routes.json")).unwrap())
            .unwrap();
    // Every expanded legacy route, and besides them only the site's own redirects: the root
    // and the folder above the areas, and the same for each language's prefix.
    let listed: Vec<(&str, &str)> = routes["redirects"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| (r["from"].as_str().unwrap(), r["to"].as_str().unwrap()))
        .collect();
    let mut others: Vec<(&str, &str)> = listed
        .iter()
        .copied()
        .filter(|(from, _)| !expected.iter().any(|e| e.route == *from))
        .collect();
    others.sort();
    assert_eq!(
        others,
        [
            ("/", "/documentation/mediation"),
            ("/documentation", "/documentation/mediation"),
            ("/ja", "/ja/documentation/mediation"),
            ("/ja/documentation", "/ja/documentation/mediation"),
            ("/zh", "/zh/documentation/mediation"),
            ("/zh/documentation", "/zh/documentation/mediation"),
        ]
    );
    assert_eq!(
        listed.len(),
        expected.len() + others.len(),
        "routes.json lists every expanded legacy route once"
    );
}

/// What a host needs of the output: `_redirects` holds only redirect statuses, its static rules
/// first; the DSP area's 404 page is the file in its folder (no rule, which would answer before
/// every page of the area); the root and `/documentation` lead to the home page; and every
/// `#fragment` link of every HTML file, the 404 pages included, has its target.
#[test]
fn the_output_is_what_hosts_serve_as_intended() {
    let out = built();
    let redirects = std::fs::read_to_string(out.join("_redirects")).unwrap();
    assert_eq!(
        common::redirect_rule_problems(&redirects),
        Vec::<String>::new()
    );
    for rule in [
        "/ /documentation/mediation 301",
        "/documentation /documentation/mediation 301",
    ] {
        assert!(redirects.lines().any(|l| l == rule), "no `{rule}`");
    }
    assert!(
        !redirects
            .lines()
            .any(|l| l.starts_with("/documentation/dsp")),
        "{redirects}"
    );
    let dsp_404 = std::fs::read_to_string(out.join("documentation/dsp/404.html")).unwrap();
    assert!(dsp_404.contains("<h1 id=\"dg-error-title\">Unable to load the current page.</h1>"));
    assert!(dsp_404.contains("<p id=\"dg-error-subtitle\">Please try again.</p>"));
    for route in ["/", "/documentation"] {
        let html = std::fs::read_to_string(page_file(route)).unwrap();
        assert!(
            html.contains(
                "<meta http-equiv=\"refresh\" content=\"0; url=/documentation/mediation\">"
            ),
            "{route}"
        );
    }
    let missing = common::missing_fragment_targets(&common::tree(out));
    assert!(missing.is_empty(), "{}", missing.join("\n"));
}

/// The rows of every table under each h2/h3 of a page: heading id → rows of cell texts.
fn tables_by_heading(route: &str) -> HashMap<String, Vec<Vec<String>>> {
    let html = std::fs::read_to_string(page_file(route))
        .unwrap_or_else(|_| panic!("{route} was not built"));
    let strip = |s: &str| {
        let mut out = String::new();
        let mut tag = false;
        for c in s.chars() {
            match c {
                '<' => tag = true,
                '>' => tag = false,
                c if !tag => out.push(c),
                _ => {}
            }
        }
        html_unescape(out.trim())
    };
    let mut by_heading: HashMap<String, Vec<Vec<String>>> = HashMap::new();
    let mut current = String::new();
    let mut rest = html.as_str();
    loop {
        let next_heading = ["<h2 id=\"", "<h3 id=\""]
            .iter()
            .filter_map(|h| rest.find(h))
            .min();
        // A field table carries a class: `<table class="dg-fields">`.
        let next_table = rest.find("<table");
        match (next_heading, next_table) {
            (Some(h), t) if t.is_none_or(|t| h < t) => {
                let after = &rest[h + 8..];
                current = html_unescape(&after[..after.find('"').unwrap()]);
                rest = after;
            }
            (_, Some(t)) => {
                let end = rest[t..].find("</table>").unwrap() + t;
                let table = &rest[t..end];
                for row in table.split("<tr>").skip(1) {
                    let cells: Vec<String> = row
                        .split("<td")
                        .skip(1)
                        .map(|c| strip(&c[c.find('>').unwrap() + 1..]))
                        .collect();
                    if !cells.is_empty() {
                        by_heading.entry(current.clone()).or_default().push(cells);
                    }
                }
                rest = &rest[end..];
            }
            _ => break,
        }
    }
    by_heading
}

/// Every object and field of the specification's section 3, in the DSP pages' field tables,
/// with the bid response's required flags as the specification gives them.
#[test]
fn the_bidding_specification_tables_hold_every_field() {
    let request = tables_by_heading("/documentation/dsp/ortb-spec/bid-request");
    let response = tables_by_heading("/documentation/dsp/ortb-spec/bid-response");
    let expect_fields =
        |tables: &HashMap<String, Vec<Vec<String>>>, heading: &str, fields: &str| {
            let rows = tables
                .get(heading)
                .unwrap_or_else(|| panic!("no table under #{heading}"));
            let names: Vec<&str> = rows.iter().map(|r| r[0].as_str()).collect();
            let missing: Vec<&str> = fields
                .split_whitespace()
                .filter(|f| !names.contains(f))
                .collect();
            assert!(
                missing.is_empty(),
                "#{heading} lacks {missing:?} (has {names:?})"
            );
        };
    expect_fields(
        &request,
        "bid-request-object",
        "app at bapp badv bcat device ext id imp regs regs.ext.ccpa regs.ext.consent regs.ext.gdpr regs.ext.us_privacy source source.ext.schain tmax user user.data user.data.name user.data.segment user.ext.consent user.ext.gdpr user.id",
    );
    expect_fields(
        &request,
        "app-object",
        "bundle cat content content.url content.ext ext.orientation_lock id name publisher publisher.id publisher.name publisher.ext.installed_sdk storeurl ver",
    );
    expect_fields(
        &request,
        "device-object",
        "carrier connectiontype devicetype dnt ext.atts ext.ifv geo h w hwv ifa ip ipv6 js language lmt make mccmnc model os osv pxratio ua",
    );
    expect_fields(
        &request,
        "geo-object",
        "city country dma ext.isp ext.org ipservice lat lon locale metro region type zip",
    );
    expect_fields(
        &request,
        "impression-object",
        "banner bidfloor displaymanager displaymanagerserver exp ext ext.skadn ext.skadn.skadnetids ext.skadn.skadnetlist ext.skadn.sourceapp ext.skadn.version ext.skadn.versions id instl metric native rwdd secure tagid video",
    );
    expect_fields(&request, "metric-object", "type value vendor");
    expect_fields(
        &request,
        "video-object",
        "api battr companiontype ext.videotype h w linearity maxbitrate minbitrate maxduration minduration mimes placement playbackmethod plcmt pos protocols skipafter skipmin startdelay",
    );
    expect_fields(
        &request,
        "banner-object",
        "api battr btype ext.bannertype format h w id pos",
    );
    expect_fields(
        &request,
        "native-object",
        "api battr eventtrackers request ver",
    );
    expect_fields(
        &request,
        "native-request",
        "context plcmtcnt plcmttype ver seq privacy assets",
    );

    // The native request assets: id and required flag of each.
    let assets = &request["native-request-assets"];
    for (asset, id, required) in [
        ("Title", "1", "Yes"),
        ("Main image", "2", "Yes"),
        ("Icon", "3", "No"),
        ("Description", "4", "No"),
        ("CTA", "5", "Yes"),
        ("Rating", "6", "No"),
        ("Sponsored-by", "8", "No"),
    ] {
        let row = assets
            .iter()
            .find(|r| r[0].starts_with(asset))
            .unwrap_or_else(|| panic!("no native asset {asset}"));
        assert_eq!(
            (row[1].as_str(), row[2].as_str()),
            (id, required),
            "native asset {asset}"
        );
    }

    // Response objects, with the Required column (the second after the type).
    let required = |heading: &str, fields: &str, required: &str| {
        let rows = response
            .get(heading)
            .unwrap_or_else(|| panic!("no table under #{heading}"));
        for f in fields.split_whitespace() {
            let row = rows
                .iter()
                .find(|r| r[0] == f)
                .unwrap_or_else(|| panic!("#{heading} lacks {f}"));
            let want = if required.split_whitespace().any(|r| r == f) {
                "Yes"
            } else {
                "No"
            };
            assert_eq!(row[2], want, "#{heading}: {f} required");
        }
    };
    required(
        "bid-response-object",
        "bidid cur id nbr seatbid",
        "id seatbid",
    );
    required("seatbid-object", "bid seat", "bid");
    required(
        "bid-object",
        "adid adm adomain api apis attr bundle burl cat cid crid dealid ext h id impid lurl nurl price protocol w",
        "adm adomain burl cat crid id impid price",
    );
    let skadn = response
        .get("skadnetwork-object")
        .expect("a SKAdNetwork table");
    let names: Vec<&str> = skadn.iter().map(|r| r[0].as_str()).collect();
    for f in [
        "campaign",
        "fidelities",
        "itunesitem",
        "network",
        "nonce",
        "productpage",
        "signature",
        "skoverlay",
        "sourceapp",
        "timestamp",
        "version",
    ] {
        assert!(
            names
                .iter()
                .any(|n| *n == f || n.ends_with(&format!(".{f}"))),
            "the skadn table lacks {f}: {names:?}"
        );
    }
}

/// The error catalogue of section 8 on its pages, and the FAQ's sections and facts.
#[test]
fn error_codes_and_faq_facts_are_documented() {
    let codes = |route: &str, heading: &str| -> Vec<String> {
        tables_by_heading(route)
            .get(heading)
            .unwrap_or_else(|| panic!("{route} has no table under #{heading}"))
            .iter()
            .map(|r| r[0].clone())
            .collect()
    };
    let gdpr = codes("/documentation/dsp/gdpr-deleted-device-ids-api", "errors");
    for c in ["200", "400", "403", "500"] {
        assert!(
            gdpr.iter().any(|x| x.split_whitespace().next() == Some(c)),
            "GDPR API error {c}: {gdpr:?}"
        );
    }
    let report = codes("/documentation/dsp/reporting", "response-codes");
    for c in [
        "100", "200", "204", "300", "400", "403", "404", "408", "500", "502", "503", "2000",
        "2010", "2020",
    ] {
        assert!(
            report
                .iter()
                .any(|x| x.split_whitespace().next() == Some(c)),
            "report code {c}: {report:?}"
        );
    }

    let faq = std::fs::read_to_string(page_file("/documentation/skafaq")).unwrap();
    assert!(
        faq.contains("<title>MAX SKA FAQ | "),
        "the FAQ's title names the product, then SKA FAQ"
    );
    for section in [
        "ios-14.5-update-and-advertising-campaigns",
        "changes-to-billing-and-attribution-methods",
        "changes-in-data-granularity",
        "details-about-your-campaigns",
        "creative-testing",
        "clarity-around-optimization-and-reporting",
    ] {
        assert!(
            faq.contains(&format!("<h2 id=\"{section}\"")),
            "FAQ section #{section}"
        );
        assert!(
            faq.contains(&format!("href=\"#{section}\"")),
            "the FAQ's side navigation lists #{section}"
        );
    }
    let text = html_unescape(&faq);
    for fact in [
        "May 19th 2021",
        "90%",
        "iOS 14.0",
        "6.13.3",
        "100 unique campaign ID",
        "Probabilistic Simulator",
        "cost-per-install",
        "mobile measurement partner",
        "/s/",
    ] {
        assert!(text.contains(fact), "the FAQ states {fact:?}");
    }
}

/// The mediation menu follows the specification: its sections in order with icons on level 1,
/// adapter guides in a bidders and an others group on every platform, external links last;
/// and the data the app loads is published with the catalogue's fields.
#[test]
fn the_menu_and_the_published_data_follow_the_specification() {
    let nav: serde_json::Value =
        serde_json::from_slice(&std::fs::read(built().join("_docgen/nav.json")).unwrap()).unwrap();
    let nodes = nav.as_array().unwrap();
    let mediation = nodes
        .iter()
        .find(|n| n["url"] == "/documentation/mediation")
        .expect("the mediation area");
    let sections: Vec<&str> = mediation["children"]
        .as_array()
        .unwrap()
        .iter()
        .map(|n| n["url"].as_str().unwrap())
        .collect();
    let platforms = common::PLATFORMS;
    let mut expected = vec![
        "/documentation/mediation/max",
        "/documentation/mediation/ui-max",
        "/documentation/mediation/auctions",
    ];
    let platform_routes: Vec<String> = platforms
        .iter()
        .map(|p| format!("/documentation/mediation/{p}"))
        .collect();
    expected.extend(platform_routes.iter().map(String::as_str));
    expected.extend([
        "/documentation/mediation/reporting-api",
        "/documentation/mediation/ad-review",
        "/documentation/mediation/features",
    ]);
    assert_eq!(sections, expected);
    for s in mediation["children"].as_array().unwrap() {
        assert!(
            s["icon"]["src"]
                .as_str()
                .is_some_and(|i| i.starts_with("/s/")),
            "{} has no icon",
            s["url"]
        );
    }
    for p in platforms {
        let platform = mediation["children"]
            .as_array()
            .unwrap()
            .iter()
            .find(|n| n["url"] == format!("/documentation/mediation/{p}"))
            .unwrap();
        let setup = platform["children"]
            .as_array()
            .unwrap()
            .iter()
            .find(|n| n["url"] == format!("/documentation/mediation/{p}/mediation-setup"))
            .unwrap_or_else(|| panic!("{p} has no mediation-setup section"));
        let groups: Vec<&str> = setup["children"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|n| !n["isPage"].as_bool().unwrap())
            .map(|n| n["displayName"].as_str().unwrap())
            .collect();
        assert_eq!(groups, ["Bidders", "Others"], "{p}");
    }
    let external: Vec<&str> = nodes
        .iter()
        .filter(|n| n["external"] == true)
        .map(|n| n["displayName"].as_str().unwrap())
        .collect();
    // The specification's other external link, Success Stories, has no published address.
    assert_eq!(external, ["Help Center"]);

    let networks: serde_json::Value =
        serde_json::from_slice(&std::fs::read(built().join("docs/v1/mediated_networks")).unwrap())
            .unwrap();
    let entries = networks["networks"]
        .as_array()
        .expect("{\"networks\": [...]}");
    assert!(entries.len() >= 25, "{} catalogue entries", entries.len());
    for e in entries {
        for field in [
            "name",
            "displayName",
            "platform",
            "type",
            "bidding",
            "size",
            "guideUrl",
            "changelogAndroid",
            "changelogIOS",
            "headerCode",
            "manifestCode",
            "extras",
        ] {
            assert!(e.get(field).is_some(), "{} lacks {field}", e["displayName"]);
        }
    }
    let sdk_names: Vec<&str> = entries
        .iter()
        .filter(|e| e["type"] == "sdk")
        .map(|e| e["displayName"].as_str().unwrap())
        .collect();
    for sdk in ["Adobe AIR", "Android", "Defold", "iOS", "Unity", "Unreal"] {
        assert!(
            sdk_names.iter().any(|n| n.contains(sdk)),
            "no SDK entry for {sdk}: {sdk_names:?}"
        );
    }
    let ids: serde_json::Value = serde_json::from_slice(
        &std::fs::read(built().join("docs/v1/mediation_sk_adnetwork_ids")).unwrap(),
    )
    .unwrap();
    assert!(
        ids["mediationSKAdnetworkIdsSpecs"]
            .as_array()
            .is_some_and(|a| !a.is_empty())
    );
    let changes: serde_json::Value = serde_json::from_slice(
        &std::fs::read(built().join("docs/v1/sdk-change-logs/android")).unwrap(),
    )
    .unwrap();
    assert!(
        changes["sdkChangeLogs"]
            .as_array()
            .is_some_and(|a| !a.is_empty())
    );
    // No user-key documents: a static site has no signed-in user.
    assert!(!built().join("docs/v1/user_keys").exists());
}

/// The `content` of `<meta {attr}="{name}" content="...">` in a page's head.
fn head_meta(html: &str, attr: &str, name: &str) -> Option<String> {
    let head = &html[..html.find("</head>")?];
    let rest = &head[head.find(&format!("<meta {attr}=\"{name}\" content=\""))?..];
    Some(html_unescape(
        rest.split("content=\"").nth(1)?.split('"').next()?,
    ))
}

#[test]
fn every_page_has_open_graph_and_twitter_card_meta() {
    let out = built();
    let mut checked = 0;
    for e in walkdir::WalkDir::new(out) {
        let e = e.unwrap();
        if e.file_name() != "index.html" {
            continue;
        }
        let html = std::fs::read_to_string(e.path()).unwrap();
        if !html.contains("id=\"dg-page-data\"") {
            continue; // a legacy route's page, which sends the reader on
        }
        let at = e.path().strip_prefix(out).unwrap().display().to_string();
        let title = html
            .split("<title>")
            .nth(1)
            .and_then(|t| t.split("</title>").next())
            .map(html_unescape)
            .unwrap();
        let canonical = html
            .split("<link rel=\"canonical\" href=\"")
            .nth(1)
            .and_then(|t| t.split('"').next())
            .map(html_unescape)
            .unwrap();
        let og = |name: &str| head_meta(&html, "property", name).unwrap_or_default();
        assert!(
            title.starts_with(&format!("{} | ", og("og:title"))),
            "{at}: og:title `{}` for <title> `{title}`",
            og("og:title")
        );
        assert_eq!(og("og:url"), canonical, "{at}");
        assert!(
            canonical.starts_with("https://developers.example.com/"),
            "{at}"
        );
        assert_eq!(og("og:site_name"), "MAX Developer Documentation", "{at}");
        assert!(
            ["article", "website"].contains(&og("og:type").as_str()),
            "{at}"
        );
        let description = head_meta(&html, "name", "description").unwrap_or_default();
        assert!(!description.is_empty(), "{at}: no description");
        assert_eq!(og("og:description"), description, "{at}");
        assert_eq!(
            head_meta(&html, "name", "twitter:card").as_deref(),
            Some("summary"),
            "{at}"
        );
        checked += 1;
    }
    assert!(checked >= 500, "only {checked} pages");
}

#[test]
fn the_site_publishes_robots_txt_its_favicon_and_edit_links() {
    let out = built();
    let robots = std::fs::read_to_string(out.join("robots.txt")).unwrap();
    assert!(
        robots.contains("Sitemap: https://developers.example.com/sitemap.xml"),
        "{robots}"
    );
    assert_eq!(
        std::fs::read(out.join("favicon.ico")).unwrap(),
        std::fs::read(root().join("static/favicon.ico")).unwrap(),
        "the site's own favicon, made from its logo"
    );
    let html = std::fs::read_to_string(page_file("/documentation/dsp/testing")).unwrap();
    assert!(html.contains(
        "<a class=\"dg-edit-link\" href=\"https://github.com/example/developer-docs/edit/main/content/documentation/dsp/testing.md\""
    ));
}
