//! Builds the real documentation site of this repository and checks what a reader relies on:
//! no placeholder API hosts, no notes about where a fact came from, the anchor rule on every
//! heading (with the earlier ids kept as second targets), the complete error-code table, current
//! SDK calls in the code snippets and the specification's names of the DSP response codes.

mod common;

use std::collections::HashSet;
use std::path::{Path, PathBuf};
use std::sync::OnceLock;

fn root() -> PathBuf {
    common::repo_root()
}

/// The site is built once for all tests of this file.
fn built() -> &'static Path {
    common::built_site("site-accuracy")
}

/// Every built HTML page: (route-like path, HTML).
fn pages() -> &'static Vec<(String, String)> {
    static PAGES: OnceLock<Vec<(String, String)>> = OnceLock::new();
    PAGES.get_or_init(|| {
        let out = built();
        let mut pages = Vec::new();
        for entry in walkdir::WalkDir::new(out) {
            let entry = entry.unwrap();
            let path = entry.path();
            if path.extension().is_some_and(|e| e == "html") {
                let name = path
                    .strip_prefix(out)
                    .unwrap()
                    .to_string_lossy()
                    .into_owned();
                pages.push((name, std::fs::read_to_string(path).unwrap()));
            }
        }
        assert!(pages.len() > 500, "only {} pages were built", pages.len());
        pages
    })
}

fn page(route: &str) -> &'static str {
    let want = format!("{}/index.html", route.trim_matches('/'));
    pages()
        .iter()
        .find(|(name, _)| *name == want)
        .map(|(_, html)| html.as_str())
        .unwrap_or_else(|| panic!("{route} was not built"))
}

/// The text of an HTML fragment: tags dropped, entities decoded.
fn text_of(html: &str) -> String {
    let mut out = String::with_capacity(html.len());
    let mut in_tag = false;
    for c in html.chars() {
        match c {
            '<' => in_tag = true,
            '>' if in_tag => in_tag = false,
            _ if !in_tag => out.push(c),
            _ => {}
        }
    }
    html_escape::decode_html_entities(&out).into_owned()
}

/// The article of a page (what the reader reads), without the shell around it.
fn article(html: &str) -> &str {
    let start = html.find("<article").unwrap_or(0);
    let end = html[start..]
        .find("</article>")
        .map_or(html.len(), |e| start + e);
    &html[start..end]
}

/// The inner HTML of every element that starts with `open` and ends with `close`.
fn elements<'a>(html: &'a str, open: &str, close: &str) -> Vec<&'a str> {
    let mut found = Vec::new();
    let mut rest = html;
    while let Some(s) = rest.find(open) {
        let after = &rest[s + open.len()..];
        let Some(gt) = after.find('>') else { break };
        let inner = &after[gt + 1..];
        let Some(e) = inner.find(close) else { break };
        found.push(&inner[..e]);
        rest = &inner[e..];
    }
    found
}

#[test]
fn no_page_shows_a_placeholder_api_host() {
    let mut problems = Vec::new();
    for (name, html) in pages() {
        let text = text_of(html);
        let mut rest = text.as_str();
        while let Some(s) = rest.find('«') {
            let after = &rest[s + '«'.len_utf8()..];
            let Some(e) = after.find('»') else { break };
            let inside = &after[..e];
            if inside.to_lowercase().ends_with("host") {
                problems.push(format!("{name}: «{inside}»"));
            }
            rest = &after[e..];
        }
    }
    assert!(
        problems.is_empty(),
        "placeholder hosts:\n{}",
        problems.join("\n")
    );
}

#[test]
fn the_api_pages_show_the_hosts_and_limits_of_the_data_file() {
    let hosts: yaml_serde::Value = yaml_serde::from_str(
        &std::fs::read_to_string(root().join("content/data/api-hosts.yaml")).unwrap(),
    )
    .unwrap();
    let get = |path: &[&str]| -> String {
        let mut v = &hosts;
        for key in path {
            v = &v[*key];
        }
        match v {
            yaml_serde::Value::String(s) => s.clone(),
            yaml_serde::Value::Number(n) => n.to_string(),
            other => panic!("api-hosts.yaml {path:?} is {other:?}"),
        }
    };
    let expect = [
        (
            "/documentation/mediation/reporting-api/max-ad-revenue",
            vec![
                get(&["reporting", "host"]),
                format!("last {} days", get(&["reporting", "windowDays"])),
            ],
        ),
        (
            "/documentation/mediation/features/ad-unit-automation-api",
            vec![
                format!(
                    "{}{}",
                    get(&["management", "host"]),
                    get(&["management", "basePath"])
                ),
                format!(
                    "{} requests per hour",
                    get(&["management", "requestsPerHour"])
                ),
            ],
        ),
        (
            "/documentation/mediation/auctions/campaign-management-api",
            vec![get(&["campaign", "host"])],
        ),
        (
            "/documentation/dsp/reporting",
            vec![get(&["dspReport", "host"])],
        ),
        (
            "/documentation/dsp/gdpr-deleted-device-ids-api",
            vec![get(&["gdpr", "host"])],
        ),
        (
            "/documentation/mediation/features/s2s-rewarded-callback-api",
            vec![
                format!("{} seconds", get(&["s2sRewarded", "timeoutSeconds"])),
                format!("up to {} times", get(&["s2sRewarded", "retries"])),
                "never for test ads".to_string(),
            ],
        ),
    ];
    let mut problems = Vec::new();
    for (route, needles) in expect {
        let text = text_of(article(page(route)))
            .split_whitespace()
            .collect::<Vec<_>>()
            .join(" ");
        for n in needles {
            if !text.contains(&n) {
                problems.push(format!("{route} lacks {n:?}"));
            }
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

/// Phrases that talk about where a fact came from rather than state it.
const SOURCING_PHRASES: [&str; 10] = [
    "at the time of writing",
    "when this page was written",
    "not recorded",
    "demo app does so",
    "this documentation has no",
    "july 2026",
    "listed by the defold extension",
    "no public source",
    "unverified",
    "we could not find",
];

#[test]
fn reader_text_carries_no_sourcing_notes() {
    let mut problems = Vec::new();
    for (name, html) in pages() {
        let text = text_of(article(html)).to_lowercase();
        for phrase in SOURCING_PHRASES {
            if text.contains(phrase) {
                problems.push(format!("{name}: {phrase:?}"));
            }
        }
    }
    assert!(
        problems.is_empty(),
        "{} sourcing notes:\n{}",
        problems.len(),
        problems.join("\n")
    );
}

/// The specification's anchor rule: the heading text lowercased, whitespace turned into hyphens.
fn rule(text: &str) -> String {
    let lower = text.trim().to_lowercase();
    lower.split_whitespace().collect::<Vec<_>>().join("-")
}

/// The ids written explicitly (`{#id}`) on headings of the Markdown sources.
fn explicit_ids() -> HashSet<String> {
    let mut ids = HashSet::new();
    for entry in walkdir::WalkDir::new(root().join("content")) {
        let entry = entry.unwrap();
        if entry.path().extension().is_none_or(|e| e != "md") {
            continue;
        }
        for line in std::fs::read_to_string(entry.path()).unwrap().lines() {
            if !line.starts_with('#') {
                continue;
            }
            if let Some(s) = line.rfind("{#")
                && let Some(e) = line[s..].find('}')
            {
                let id = line[s + 2..s + e].split_whitespace().next().unwrap_or("");
                ids.insert(id.to_string());
            }
        }
    }
    ids
}

#[test]
fn every_heading_follows_the_anchor_rule() {
    let explicit = explicit_ids();
    let mut problems = Vec::new();
    let mut headings = 0;
    for (name, html) in pages() {
        for level in 1..=6 {
            let open = format!("<h{level} id=\"");
            // Content headings: in the article, with their anchor link.
            let mut rest = article(html);
            while let Some(s) = rest.find(&open) {
                let after = &rest[s + open.len()..];
                let q = after.find('"').unwrap();
                let id = html_escape::decode_html_entities(&after[..q]).into_owned();
                let body = &after[q..];
                let close = body.find(&format!("</h{level}>")).unwrap();
                let Some(end) = body[..close].find("<a class=\"dg-anchor\"") else {
                    rest = &body[close..];
                    continue;
                };
                let text = text_of(&body[body.find('>').unwrap() + 1..end]);
                let wanted = rule(&text);
                let numbered_repeat = id
                    .strip_prefix(&wanted)
                    .and_then(|r| r.strip_prefix('-'))
                    .is_some_and(|n| !n.is_empty() && n.chars().all(|c| c.is_ascii_digit()));
                if id != wanted && !numbered_repeat && !explicit.contains(&id) {
                    problems.push(format!(
                        "{name}: #{id} for {text:?} (the rule gives #{wanted})"
                    ));
                }
                headings += 1;
                rest = &body[end..];
            }
        }
    }
    assert!(headings > 3000, "only {headings} headings were found");
    assert!(
        problems.is_empty(),
        "{} headings break the anchor rule:\n{}",
        problems.len(),
        problems.join("\n")
    );
}

#[test]
fn links_written_with_or_without_punctuation_both_land() {
    let cases = [
        (
            "/documentation/mediation/max/get-started-with-max",
            "step-6:-prepare-for-launch",
            "step-6-prepare-for-launch",
        ),
        (
            "/documentation/skafaq",
            "how-do-i-prepare?",
            "how-do-i-prepare",
        ),
        (
            "/documentation/skafaq",
            "what-does-the-ios-14.5-update-change?",
            "what-does-the-ios-145-update-change",
        ),
    ];
    for (route, rule_id, old_id) in cases {
        let html = page(route);
        let heading = ["h2", "h3"]
            .iter()
            .find_map(|h| html.find(&format!("<{h} id=\"{rule_id}\">")))
            .unwrap_or_else(|| panic!("{route}: no heading with the id {rule_id}"));
        let old = format!(" id=\"{old_id}\"");
        let at = html
            .find(&old)
            .unwrap_or_else(|| panic!("{route}: no second target {old_id}"));
        assert!(
            at > heading && at < heading + 200,
            "{route}: the target {old_id} is not at the heading {rule_id}"
        );
    }
}

#[test]
fn the_error_code_table_is_complete_and_links_the_networks() {
    for platform in ["android", "ios", "unity", "flutter"] {
        let route = format!("/documentation/mediation/{platform}/getting-started/errorcodes");
        let html = page(&route);
        let table = elements(html, "<table", "</table>")
            .into_iter()
            .find(|t| t.contains("<code>-5603</code>"))
            .unwrap_or_else(|| panic!("{route}: no MAX error-code table"));
        let mut codes = vec!["-5205", "-5209"];
        if platform != "unity" {
            // -5201 is not part of the Unity plugin's table.
            codes.push("-5201");
        }
        if platform != "ios" {
            codes.push("-5601");
        }
        for code in codes {
            assert!(
                table.contains(&format!("<code>{code}</code>")),
                "{route}: the error-code table lacks {code}"
            );
        }
        if platform == "ios" {
            assert!(
                !table.contains("<code>-5601</code>"),
                "{route}: -5601 is Android only"
            );
        }
        let networks = html
            .split("id=\"error-codes-from-various-networks\"")
            .nth(1)
            .and_then(|s| s.split("most often involved").nth(1))
            .and_then(|s| elements(s, "<ul", "</ul>").into_iter().next())
            .unwrap_or_else(|| panic!("{route}: no network list"));
        let items = elements(networks, "<li", "</li>");
        assert!(
            items.len() >= 10,
            "{route}: {} networks listed",
            items.len()
        );
        for item in items {
            assert!(
                item.contains(&format!("href=\"/documentation/mediation/{platform}/")),
                "{route}: the network entry {item:?} has no link into the platform's pages"
            );
        }
    }
}

/// The argument lists of a call in a code snippet (spaces removed): the text after `call` up to
/// its matching closing parenthesis.
fn call_args<'a>(code: &'a str, call: &str) -> Vec<&'a str> {
    code.match_indices(call)
        .filter_map(|(i, _)| {
            let after = &code[i + call.len()..];
            let mut depth = 0usize;
            for (at, c) in after.char_indices() {
                match c {
                    '(' => depth += 1,
                    ')' if depth == 0 => return Some(&after[..at]),
                    ')' => depth -= 1,
                    _ => {}
                }
            }
            None
        })
        .collect()
}

/// The Android context-like last arguments of the overloads SDK 13.2.0 deprecated.
const CONTEXT_ARGS: [&str; 8] = [
    "this",
    "context",
    "activity",
    "applicationContext",
    "getApplicationContext()",
    "requireContext()",
    "requireActivity()",
    "sdk",
];

/// The deprecated forms a code snippet shows, if any.
fn deprecated_in(code: &str) -> Vec<String> {
    let mut found = Vec::new();
    for call in [
        "AppLovinSdkInitializationConfiguration.builder(",
        "MaxInterstitialAd(",
        "MaxRewardedAd.getInstance(",
        "MaxAppOpenAd(",
        "MaxAdView(",
        "MaxNativeAdLoader(",
    ] {
        for args in call_args(code, call) {
            if let Some((_, last)) = args.rsplit_once(',')
                && (CONTEXT_ARGS.contains(&last) || last.ends_with("Context"))
            {
                found.push(format!("{call}{args})"));
            }
        }
    }
    // Interstitial and rewarded ads on Android show with the Activity as the last argument.
    for call in ["interstitialAd.showAd(", "rewardedAd.showAd("] {
        for args in call_args(code, call) {
            let last = args.rsplit(',').next().unwrap_or("");
            if !["this", "activity", "requireActivity()"].contains(&last) {
                found.push(format!("{call}{args})"));
            }
        }
    }
    // iOS: every initializer that takes an ALSdk.
    for form in ["sdk:ALSdk", "sdk:[ALSdk"] {
        if code.contains(form) {
            found.push(form.to_string());
        }
    }
    // Unity and Unreal.
    for form in [
        "MaxSdk.SetSdkKey(",
        "MaxSdkBase.BannerPosition.",
        "UAppLovinMAX::Initialize()",
    ] {
        if code.contains(form) {
            found.push(form.to_string());
        }
    }
    found
}

#[test]
fn the_deprecated_form_finder_finds_them() {
    let squeeze = |s: &str| s.split_whitespace().collect::<String>();
    for deprecated in [
        "AppLovinSdkInitializationConfiguration.builder( \"KEY\", this )",
        "interstitialAd = MaxInterstitialAd(\"ID\", this)",
        "MaxRewardedAd.getInstance(\"ID\", requireActivity())",
        "new MaxAdView(\"ID\", MaxAdFormat.MREC, context);",
        "interstitialAd.showAd()",
        "rewardedAd.showAd(\"placement\", \"data\")",
        "MAInterstitialAd(adUnitIdentifier: \"ID\", sdk: ALSdk.shared())",
        "[[MAAdView alloc] initWithAdUnitIdentifier: @\"ID\" sdk: [ALSdk shared]];",
    ] {
        assert!(
            !deprecated_in(&squeeze(deprecated)).is_empty(),
            "not recognized as deprecated: {deprecated}"
        );
    }
    for current in [
        "AppLovinSdkInitializationConfiguration.builder(\"KEY\").build()",
        "MaxInterstitialAd(\"ID\")",
        "MaxAdView(\"ID\", MaxAdFormat.BANNER, configuration)",
        "interstitialAd.showAd(this)",
        "rewardedAd.showAd(\"placement\", \"data\", activity)",
        "appOpenAd.showAd()",
        "MAInterstitialAd(adUnitIdentifier: \"ID\")",
    ] {
        assert!(
            deprecated_in(&squeeze(current)).is_empty(),
            "current form taken for deprecated: {current}"
        );
    }
}

#[test]
fn code_snippets_use_the_current_sdk_apis() {
    let mut problems = Vec::new();
    let mut snippets = 0;
    for (name, html) in pages() {
        for pre in elements(html, "<pre", "</pre>") {
            let code: String = text_of(pre).split_whitespace().collect();
            snippets += 1;
            for form in deprecated_in(&code) {
                problems.push(format!("{name}: {form}"));
            }
        }
    }
    assert!(snippets > 1000, "only {snippets} code snippets were found");
    assert!(
        problems.is_empty(),
        "{} deprecated calls in code snippets:\n{}",
        problems.len(),
        problems.join("\n")
    );
}

/// The deprecated forms as the upgrading note names them: there for sure, and nowhere else but
/// in the release notes.
const UPGRADE_NOTE_FORMS: [(&str, &str); 4] = [
    (
        "android",
        "AppLovinSdkInitializationConfiguration.builder(sdkKey, context)",
    ),
    ("android", "MaxInterstitialAd(adUnitId, activity)"),
    ("ios", "-[MAInterstitialAd initWithAdUnitIdentifier:sdk:]"),
    ("ios", "+[MARewardedAd sharedWithAdUnitIdentifier:sdk:]"),
];

#[test]
fn deprecated_forms_are_named_only_in_the_upgrading_note() {
    let note_id = "id=\"upgrading-from-before-13.2.0\"";
    for (platform, form) in UPGRADE_NOTE_FORMS {
        let route = format!("/documentation/mediation/{platform}/getting-started/migration123");
        // Long names in table cells carry `<wbr>` break points, which are not text.
        let html = article(page(&route)).replace("<wbr>", "");
        let start = html
            .find(note_id)
            .unwrap_or_else(|| panic!("{route}: no upgrading note"));
        let end = html[start..].find("<h2 ").map_or(html.len(), |e| start + e);
        let code = format!("<code>{}</code>", html_escape::encode_text(form));
        assert!(
            html[start..end].contains(&code),
            "{route}: the upgrading note does not name {form}"
        );
        for (name, page_html) in pages() {
            // Release notes name what a release deprecated; that is where readers look it up.
            if name.contains("/changelog") {
                continue;
            }
            let body = article(page_html);
            let outside = if name.starts_with(&route[1..]) {
                format!("{}{}", &body[..start], &body[end..])
            } else {
                body.to_string()
            };
            assert!(
                !outside.contains(&code),
                "{name} names the deprecated {form} outside the upgrading note"
            );
        }
    }
}

#[test]
fn dsp_response_codes_carry_the_specification_names() {
    let names = [
        ("100", "Unexpected HTTP response"),
        ("200", "OK"),
        ("204", "No bid"),
        ("300", "Unexpected redirect"),
        ("400", "Bad request"),
        ("403", "Forbidden"),
        ("404", "Endpoint not found or invalid"),
        ("408", "Timeout"),
        ("500", "Internal error"),
        ("502", "Bad gateway"),
        ("503", "Service unavailable"),
        ("2000", "Network allocation error"),
        ("2010", "Network QPS error"),
        ("2020", "Network socket error"),
    ];
    let html = page("/documentation/dsp/reporting");
    let section = html
        .split("id=\"response-codes\"")
        .nth(1)
        .expect("a Response Codes section");
    let table = elements(section, "<table", "</table>")
        .into_iter()
        .next()
        .expect("a response-code table");
    let rows = elements(table, "<tr", "</tr>");
    for (code, name) in names {
        let row = rows
            .iter()
            .find(|r| r.contains(&format!("<code>{code}</code>")))
            .unwrap_or_else(|| panic!("no row for {code}"));
        let meaning = text_of(row);
        let meaning = meaning.trim_start().trim_start_matches(code).trim_start();
        assert!(
            meaning.starts_with(&format!("{name}.")),
            "{code} reads {meaning:?}, not the specification's name {name:?} first"
        );
    }
    let alx = text_of(article(page("/documentation/dsp/alx-reporting")));
    assert!(
        alx.contains("Deal ID (coming soon)"),
        "exchange reporting: Deal ID"
    );
    let changelog = text_of(article(page("/documentation/dsp/ortb-spec/changelog")));
    assert!(changelog.contains("CTV"), "the changelog does not name CTV");
}

/// The word 3-grams of a page's article text, lowercased.
fn word_trigrams(html: &str) -> HashSet<(String, String, String)> {
    let mut text = String::new();
    let mut in_tag = false;
    for c in article(html).chars() {
        match c {
            '<' => {
                in_tag = true;
                text.push(' ');
            }
            '>' if in_tag => in_tag = false,
            _ if !in_tag => text.push(c),
            _ => {}
        }
    }
    let text = html_escape::decode_html_entities(&text).to_lowercase();
    let words: Vec<&str> = text
        .split(|c: char| !(c.is_alphanumeric() || c == '_'))
        .filter(|w| !w.is_empty())
        .collect();
    words
        .windows(3)
        .map(|w| (w[0].to_owned(), w[1].to_owned(), w[2].to_owned()))
        .collect()
}

/// The pages generated once per platform from one template explain what is common to all
/// platforms once, on a shared page, and keep only what differs: their mean pairwise
/// similarity (Jaccard index of word 3-grams) stays well below that of pasted text.
#[test]
fn per_platform_pages_do_not_repeat_the_shared_text() {
    use common::PLATFORMS;
    // (page under the platform, the shared page it links to, highest mean similarity allowed)
    let families = [
        (
            "getting-started/privacy",
            "/documentation/mediation/max/privacy",
            0.6,
        ),
        (
            "testing-networks/test-mode",
            "/documentation/mediation/max/testing-your-integration",
            0.6,
        ),
        (
            "testing-networks/mediation-debugger",
            "/documentation/mediation/max/testing-your-integration",
            0.65,
        ),
        (
            "testing-networks",
            "/documentation/mediation/max/testing-your-integration",
            0.65,
        ),
    ];
    let mut failures = Vec::new();
    for (rel, shared, limit) in families {
        page(shared);
        let grams: Vec<_> = PLATFORMS
            .iter()
            .map(|p| {
                let route = format!("/documentation/mediation/{p}/{rel}");
                let html = page(&route);
                assert!(
                    html.contains(&format!("href=\"{shared}")),
                    "{route} does not link to {shared}"
                );
                word_trigrams(html)
            })
            .collect();
        let mut sum = 0.0;
        let mut pairs = 0.0;
        for (i, a) in grams.iter().enumerate() {
            for b in &grams[i + 1..] {
                let common = a.intersection(b).count() as f64;
                let all = a.union(b).count() as f64;
                sum += common / all;
                pairs += 1.0;
            }
        }
        let mean = sum / pairs;
        if mean >= limit {
            failures.push(format!("{rel}: mean similarity {mean:.3} (limit {limit})"));
        }
    }
    assert!(failures.is_empty(), "{failures:#?}");
}

#[test]
fn the_similarity_measure_tells_pasted_text_from_different_text() {
    let a = "<article><p>Open the Mediation Debugger after the SDK has initialized.</p></article>";
    let b = "<article><p>Open the Mediation Debugger after the SDK has initialized.</p></article>";
    let c = "<article><p>Call applovin.set_test_device_advertising_ids before init.</p></article>";
    assert_eq!(word_trigrams(a), word_trigrams(b));
    assert!(word_trigrams(a).is_disjoint(&word_trigrams(c)));
}
