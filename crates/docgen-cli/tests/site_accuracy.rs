//! Builds the real documentation site of this repository and checks what a reader relies on:
//! placeholders only for the reader's own values, no link or prose at the example domain, no notes about where a fact came from, the anchor rule on every
//! heading (with the earlier ids kept as second targets), the complete error-code table, current
//! SDK calls in the code snippets and the specification's names of the DSP response codes.

use crate::common;

use std::collections::HashSet;
use std::path::{Path, PathBuf};
use std::sync::OnceLock;

fn root() -> PathBuf {
    common::repo_root()
}

/// The site is built once for all tests of this file.
fn built() -> &'static Path {
    common::built_site()
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
    let mut rest = html;
    // Text up to each tag, then past its `>`.
    while let Some(lt) = memchr::memchr(b'<', rest.as_bytes()) {
        out.push_str(&rest[..lt]);
        match memchr::memchr(b'>', &rest.as_bytes()[lt..]) {
            Some(gt) => rest = &rest[lt + gt + 1..],
            None => {
                rest = "";
                break;
            }
        }
    }
    out.push_str(rest);
    html_escape::decode_html_entities(&out).into_owned()
}

/// The article of a page (what the reader reads), without the shell around it.
fn article(html: &str) -> &str {
    let start = find(html, "<article").unwrap_or(0);
    let end = find(&html[start..], "</article>").map_or(html.len(), |e| start + e);
    &html[start..end]
}

/// `haystack.find(needle)`, through memchr's `memmem`: these checks search every page of the
/// site, and `str::find`'s search is generic code that an unoptimised test build runs slowly.
fn find(haystack: &str, needle: &str) -> Option<usize> {
    memchr::memmem::find(haystack.as_bytes(), needle.as_bytes())
}

/// The inner HTML of every element that starts with `open` and ends with `close`.
fn elements<'a>(html: &'a str, open: &str, close: &str) -> Vec<&'a str> {
    let mut found = Vec::new();
    let mut rest = html;
    while let Some(s) = find(rest, open) {
        let after = &rest[s + open.len()..];
        let Some(gt) = after.find('>') else { break };
        let inner = &after[gt + 1..];
        let Some(e) = find(inner, close) else { break };
        found.push(&inner[..e]);
        rest = &inner[e..];
    }
    found
}

/// Every `«…»` placeholder of a text: (its name, whether it sits inside code).
fn placeholders(article: &str) -> Vec<(String, bool)> {
    let mut found = Vec::new();
    let mut in_code = 0usize;
    let mut rest = article;
    while !rest.is_empty() {
        let next_tag = rest.find('<');
        let next_mark = rest.find('«');
        match (next_tag, next_mark) {
            (Some(t), m) if m.is_none_or(|m| t < m) => {
                let tag = &rest[t..];
                if tag.starts_with("<pre") || tag.starts_with("<code") {
                    in_code += 1;
                } else if tag.starts_with("</pre>") || tag.starts_with("</code>") {
                    in_code = in_code.saturating_sub(1);
                }
                rest = &rest[t + 1..];
            }
            (_, Some(m)) => {
                let after = &rest[m + '«'.len_utf8()..];
                let Some(e) = after.find('»') else { break };
                found.push((text_of(&after[..e]), in_code > 0));
                rest = &after[e..];
            }
            _ => break,
        }
    }
    found
}

/// Words naming a fact of the platform itself (its hosts, macros, scopes, endpoints), which a
/// page states or leaves out but never shows as a value to fill in.
const PLATFORM_FACT_WORDS: [&str; 5] = ["host", "macro", "scope", "endpoint", "domain"];

/// Placeholders stand only for what the reader supplies (an ad unit ID, a key, a user ID), in
/// code; a placeholder in prose, or one standing for a fact of the platform, is a gap.
#[test]
fn placeholders_stand_only_for_the_readers_own_values() {
    let mut problems = Vec::new();
    let mut seen = 0;
    for (name, html) in pages() {
        for (inside, in_code) in placeholders(article(html)) {
            seen += 1;
            let lower = inside.to_lowercase();
            if !in_code {
                problems.push(format!("{name}: «{inside}» in prose"));
            } else if PLATFORM_FACT_WORDS.iter().any(|w| lower.contains(w)) {
                problems.push(format!("{name}: «{inside}»"));
            }
        }
    }
    assert!(seen > 100, "only {seen} placeholders were found");
    assert!(
        problems.is_empty(),
        "placeholders for facts:\n{}",
        problems.join("\n")
    );
}

#[test]
fn the_placeholder_finder_tells_code_from_prose() {
    let found = placeholders(
        "<p>Use «revenue-macro» here.</p><pre><code>load(\"«ad-unit-id»\")</code></pre><p><code>«n»</code></p>",
    );
    assert_eq!(
        found,
        [
            ("revenue-macro".to_string(), false),
            ("ad-unit-id".to_string(), true),
            ("n".to_string(), true),
        ]
    );
}

/// Whether an address points at the reserved example domain.
fn is_example_address(url: &str) -> bool {
    let host = url
        .split_once("://")
        .map_or("", |(_, r)| r)
        .split(['/', '?', '#', ':'])
        .next()
        .unwrap_or("")
        .to_lowercase();
    host == "example.com" || host.ends_with(".example.com")
}

/// The body of a page (what the reader sees and follows), without its scripts.
fn body_without_scripts(html: &str) -> String {
    let body = &html[html.find("<body").unwrap_or(0)..];
    let mut out = String::with_capacity(body.len());
    let mut rest = body;
    while let Some(s) = rest.find("<script") {
        out.push_str(&rest[..s]);
        rest = rest[s..].find("</script>").map_or("", |e| &rest[s + e..]);
    }
    out.push_str(rest);
    out
}

/// The text of an HTML fragment outside its code blocks and inline code.
fn prose_of(html: &str) -> String {
    let mut out = String::new();
    let mut rest = html;
    loop {
        let next = ["<pre", "<code"]
            .iter()
            .filter_map(|t| rest.find(t).map(|at| (at, *t)))
            .min();
        let Some((at, tag)) = next else {
            out.push_str(rest);
            break;
        };
        out.push_str(&rest[..at]);
        let close = if tag == "<pre" { "</pre>" } else { "</code>" };
        rest = rest[at..]
            .find(close)
            .map_or("", |e| &rest[at + e + close.len()..]);
    }
    text_of(&out)
}

/// Links the reader follows (menu, footer, pages) lead to real addresses, and no prose names
/// the example domain; example hosts in the sample bid payloads are the bidder's own systems.
#[test]
fn no_link_or_prose_points_at_the_example_domain() {
    let mut problems = Vec::new();
    for (name, html) in pages() {
        let body = body_without_scripts(html);
        for attr in ["href=\"", "src=\""] {
            for (at, _) in body.match_indices(attr) {
                let value = &body[at + attr.len()..];
                let url = html_escape::decode_html_entities(&value[..value.find('"').unwrap_or(0)])
                    .into_owned();
                if is_example_address(&url) {
                    problems.push(format!("{name}: {attr}{url}"));
                }
            }
        }
        if prose_of(&body).to_lowercase().contains("example.com") {
            problems.push(format!("{name}: example.com in prose"));
        }
    }
    assert!(
        problems.is_empty(),
        "{} links or texts at the example domain:\n{}",
        problems.len(),
        problems.join("\n")
    );
}

#[test]
fn the_example_address_check_knows_the_domain() {
    assert!(is_example_address("https://support.example.com"));
    assert!(is_example_address("https://www.example.com/legal/terms"));
    assert!(is_example_address("http://example.com:8080/x"));
    assert!(!is_example_address("https://support.axon.ai"));
    assert!(!is_example_address("https://www.applovin.com/max/"));
    assert!(!is_example_address("/documentation/mediation"));
    assert!(!is_example_address("https://notexample.com"));
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
            if find(&text, phrase).is_some() {
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
/// The codes of the site's languages other than the default (site.yaml `locales.others`).
fn locale_codes() -> Vec<String> {
    let site: yaml_serde::Value =
        yaml_serde::from_str(&std::fs::read_to_string(root().join("site.yaml")).unwrap()).unwrap();
    site["locales"]["others"]
        .as_sequence()
        .map(|others| {
            others
                .iter()
                .filter_map(|l| l["code"].as_str().map(str::to_string))
                .collect()
        })
        .unwrap_or_default()
}

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
    // A translation keeps its source's anchors, so that a link's fragment lands in every
    // language: its headings may carry the ids of the same page in the default language.
    let codes = locale_codes();
    let ids_of = |html: &str| -> HashSet<String> {
        let mut ids = HashSet::new();
        let mut rest = article(html);
        while let Some(s) = find(rest, " id=\"") {
            let after = &rest[s + 5..];
            let q = after.find('"').unwrap();
            ids.insert(html_escape::decode_html_entities(&after[..q]).into_owned());
            rest = &after[q..];
        }
        ids
    };
    let by_name: std::collections::HashMap<&str, &str> = pages()
        .iter()
        .map(|(n, h)| (n.as_str(), h.as_str()))
        .collect();
    let mut problems = Vec::new();
    let mut headings = 0;
    for (name, html) in pages() {
        let source_ids = name
            .split('/')
            .position(|part| codes.iter().any(|c| c == part))
            .map(|at| {
                let parts: Vec<&str> = name.split('/').collect();
                [&parts[..at], &parts[at + 1..]].concat().join("/")
            })
            .and_then(|source| by_name.get(source.as_str()).map(|h| ids_of(h)))
            .unwrap_or_default();
        for level in 1..=6 {
            let open = format!("<h{level} id=\"");
            // Content headings: in the article, with their anchor link.
            let mut rest = article(html);
            while let Some(s) = find(rest, &open) {
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
                if id != wanted
                    && !numbered_repeat
                    && !explicit.contains(&id)
                    && !source_ids.contains(&id)
                {
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

/// The Amazon Publisher Services guides with, per language of their platform, the text
/// (without whitespace) that hands a key to the MAX ad, up to the key, and the call that then
/// loads the ad.
type ApsGuide = (
    &'static str,
    &'static [(&'static str, &'static str, &'static str)],
);

const UNITY_APS: &[(&str, &str, &str)] = &[(
    "C#",
    "MaxSdk.SetInterstitialLocalExtraParameter(adUnitId,\"",
    "MaxSdk.LoadInterstitial(adUnitId)",
)];

const APS_GUIDES: [ApsGuide; 4] = [
    (
        "/documentation/mediation/android/mediation-setup/amazon",
        &[
            (
                "Java",
                "interstitialAd.setLocalExtraParameter(\"",
                "interstitialAd.loadAd();",
            ),
            (
                "Kotlin",
                "interstitialAd.setLocalExtraParameter(\"",
                "interstitialAd.loadAd()",
            ),
        ],
    ),
    (
        "/documentation/mediation/ios/mediation-setup/amazon",
        &[
            (
                "Swift",
                "interstitialAd.setLocalExtraParameterForKey(\"",
                "interstitialAd.load()",
            ),
            (
                "Objective-C",
                "[self.interstitialAdsetLocalExtraParameterForKey:@\"",
                "[self.interstitialAdloadAd]",
            ),
        ],
    ),
    (
        "/documentation/mediation/unity/mediation-setup/amazon",
        UNITY_APS,
    ),
    (
        "/documentation/mediation/unity/mediation-adapters/amazon",
        UNITY_APS,
    ),
];

/// Every APS guide shows, in each language of its platform, Amazon's response and error handed
/// to the MAX ad under `amazon_ad_response` and `amazon_ad_error` before the MAX ad loads, after
/// APS is initialized with the Amazon app ID.
#[test]
fn every_amazon_guide_passes_amazons_bid_to_max_before_the_load() {
    let mut problems = Vec::new();
    for (route, languages) in APS_GUIDES {
        let html = article(page(route));
        let blocks: Vec<String> = elements(html, "<pre", "</pre>")
            .into_iter()
            .map(|pre| text_of(pre).split_whitespace().collect())
            .filter(|code: &String| code.contains("amazon_ad_"))
            .collect();
        if blocks.len() != languages.len() {
            problems.push(format!(
                "{route}: {} code blocks pass Amazon's bid, {} expected",
                blocks.len(),
                languages.len()
            ));
            continue;
        }
        // Code groups list their languages in tab order, as the blocks follow each other.
        for ((language, set, load), code) in languages.iter().zip(&blocks) {
            if languages.len() > 1 && !html.contains(&format!(">{language}</button>")) {
                problems.push(format!("{route}: no {language} tab"));
            }
            for key in ["amazon_ad_response", "amazon_ad_error"] {
                let call = format!("{set}{key}\"");
                match code.find(&call) {
                    None => problems.push(format!("{route} ({language}): no {call}")),
                    Some(at) if !code[at..].contains(load) => problems.push(format!(
                        "{route} ({language}): {load} does not follow {key}"
                    )),
                    Some(_) => {}
                }
            }
            if !code.contains("«amazon-app-id»") {
                problems.push(format!(
                    "{route} ({language}): APS is not initialized with the Amazon app ID"
                ));
            }
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

/// Google bidding is set up in AdMob: the Google Bidding guide of every platform sends the
/// reader to the AdMob dashboard and account, and names the network in code as the SDK knows
/// it (`ADMOB_NETWORK` for `test_mode_network`).
#[test]
fn google_bidding_guides_take_their_values_from_admob() {
    let mut guides = 0;
    for (name, html) in pages() {
        let text = text_of(article(html))
            .split_whitespace()
            .collect::<Vec<_>>()
            .join(" ");
        for wrong in [
            "Google Bidding's dashboard",
            "Google Bidding dashboard",
            "your Google Bidding account",
        ] {
            assert!(!text.contains(wrong), "{name}: {wrong:?}");
        }
        if !name.starts_with("documentation/")
            || !name.ends_with("/mediation-setup/google/index.html")
        {
            continue;
        }
        guides += 1;
        for needed in ["Google AdMob's dashboard", "your Google AdMob account"] {
            assert!(text.contains(needed), "{name} lacks {needed:?}");
        }
        assert!(
            text.contains("test_mode_network extra parameter to ADMOB_NETWORK"),
            "{name}: the test-mode network name"
        );
    }
    assert_eq!(guides, common::PLATFORMS.len(), "Google Bidding guides");
}

/// The UID2 token goes on each ad unit, on every platform: the Unity data-passing page sets it
/// with the per-format extra-parameter calls, never once SDK-wide.
#[test]
fn unity_sets_the_uid2_token_per_ad_unit() {
    let html = article(page(
        "/documentation/mediation/unity/getting-started/data-passing",
    ));
    let code: String = elements(html, "<pre", "</pre>")
        .into_iter()
        .map(|pre| text_of(pre).split_whitespace().collect::<String>())
        .filter(|code| code.contains("uid2_token"))
        .collect();
    for format in ["Banner", "MRec", "Interstitial", "RewardedAd"] {
        let call = format!("MaxSdk.Set{format}ExtraParameter(\"«ad-unit-id»\",\"uid2_token\",");
        assert!(code.contains(&call), "no {call}");
    }
    assert!(
        !code.contains("MaxSdk.SetExtraParameter(\"uid2_token\""),
        "the token is set SDK-wide"
    );
}

/// The Android and iOS banner pages explain both adaptive types with their 13.x settings, and
/// the loading example sizes the banner's container to the adaptive height, not to a fixed 50
/// or 90 that would clip an adaptive creative.
#[test]
fn adaptive_banners_are_explained_and_not_clipped() {
    let cases = [
        (
            "android",
            [
                "AdaptiveType.ANCHORED",
                "AdaptiveType.INLINE",
                ".setAdaptiveWidth(",
                ".setInlineMaximumHeight(",
            ],
            "MaxAdFormat.BANNER.getAdaptiveSize(this)",
            [
                "if(AppLovinSdkUtils.isTablet(this))90else50",
                "AppLovinSdkUtils.isTablet(this)?90:50",
            ],
        ),
        (
            "ios",
            [
                "adaptiveType=.anchored",
                "adaptiveType=.inline",
                "builder.adaptiveWidth=",
                "builder.inlineMaximumHeight=",
            ],
            "MAAdFormat.banner.adaptiveSize.height",
            [".pad?90:50", "UIUserInterfaceIdiomPad)?90:50"],
        ),
    ];
    for (platform, settings, sizing, fixed) in cases {
        let route = format!("/documentation/mediation/{platform}/ad-formats/banners");
        let html = article(page(&route));
        let code: Vec<String> = elements(html, "<pre", "</pre>")
            .into_iter()
            .map(|pre| text_of(pre).split_whitespace().collect())
            .collect();
        let all = code.concat();
        for setting in settings {
            assert!(all.contains(setting), "{route}: no {setting}");
        }
        let loading: Vec<&String> = code
            .iter()
            .filter(|c| c.contains("createBannerAd"))
            .collect();
        assert!(!loading.is_empty(), "{route}: no loading example");
        for example in loading {
            assert!(
                example.contains(sizing),
                "{route}: the loading example does not size to {sizing}"
            );
            for f in fixed {
                assert!(
                    !example.contains(f),
                    "{route}: the loading example fixes the height ({f})"
                );
            }
        }
    }
}

/// The response deadlines ("within N ms", "N ms response deadline") a text states.
fn deadlines(text: &str) -> Vec<u32> {
    let words: Vec<&str> = text.split_whitespace().collect();
    let mut found = Vec::new();
    for (i, w) in words.iter().enumerate() {
        let ms = words
            .get(i + 1)
            .is_some_and(|n| n.trim_end_matches(['.', ',', ';', '*']) == "ms");
        let Ok(n) = w.trim_matches('*').parse::<u32>() else {
            continue;
        };
        let before = if i > 0 { words[i - 1] } else { "" };
        let after = words.get(i + 2).copied().unwrap_or("");
        if ms && (before == "within" || before == "of" || after == "response") {
            found.push(n);
        }
    }
    found
}

/// Auction Dynamics states the bidders' response deadline, the moment the win notice fires and
/// what `AUCTION_MINIMUM_BID_TO_WIN` means exactly as the DSP pages do.
#[test]
fn auction_dynamics_agrees_with_the_dsp_pages() {
    // Tags become spaces, so that table cells stay apart.
    let text = |route: &str| {
        // Tables break long words with <wbr>, which is no space.
        let spaced = article(page(route))
            .replace("<wbr>", "")
            .replace('<', " <")
            .replace('>', "> ");
        text_of(&spaced)
            .split_whitespace()
            .collect::<Vec<_>>()
            .join(" ")
    };
    let dynamics = text("/documentation/mediation/auctions/auction-dynamics");
    let mut dsp_deadlines = Vec::new();
    for route in [
        "/documentation/dsp",
        "/documentation/dsp/ortb-spec/bid-response",
    ] {
        dsp_deadlines.extend(deadlines(&text(route)));
    }
    dsp_deadlines.dedup();
    assert_eq!(dsp_deadlines.len(), 1, "DSP deadlines {dsp_deadlines:?}");
    let own = deadlines(&dynamics);
    assert!(!own.is_empty(), "Auction Dynamics states no deadline");
    assert!(
        own.iter().all(|d| *d == dsp_deadlines[0]),
        "Auction Dynamics: {own:?}, DSP pages: {dsp_deadlines:?}"
    );
    let response = text("/documentation/dsp/ortb-spec/bid-response");
    for shared in [
        "Win nurl The auction has completed and the ad is sent to the device.",
        "${AUCTION_MINIMUM_BID_TO_WIN} The second-highest bid price; 0 when yours was the only bid.",
    ] {
        assert!(response.contains(shared), "the DSP page lacks {shared:?}");
        assert!(
            dynamics.contains(shared),
            "Auction Dynamics lacks {shared:?}"
        );
    }
    assert!(
        !dynamics.contains("If the ad loads, the winner receives a win notification"),
        "Auction Dynamics sends the win notice after the load"
    );
}

#[test]
fn the_deadline_reader_reads_the_phrasings() {
    assert_eq!(deadlines("Answer within **150 ms**. A slower"), [150]);
    assert_eq!(
        deadlines("Bids that miss the 150 ms response deadline"),
        [150]
    );
    assert_eq!(
        deadlines("the required response time of 120 ms; a slower"),
        [120]
    );
    assert!(deadlines("tmax is 500 ms by default").is_empty());
}

/// The VAST documents of a code block: the block itself when it is XML, or the strings of a
/// JSON block (a bid's `adm`) that hold one.
fn vast_documents(code: &str) -> Result<Vec<String>, String> {
    let trimmed = code.trim();
    if trimmed.starts_with('<') {
        return Ok(vec![trimmed.to_string()]);
    }
    let json: serde_json::Value =
        serde_json::from_str(trimmed).map_err(|e| format!("neither XML nor JSON ({e})"))?;
    let mut found = Vec::new();
    let mut stack = vec![&json];
    while let Some(v) = stack.pop() {
        match v {
            serde_json::Value::String(s) if s.contains("<VAST") => found.push(s.clone()),
            serde_json::Value::Array(a) => stack.extend(a),
            serde_json::Value::Object(o) => stack.extend(o.values()),
            _ => {}
        }
    }
    Ok(found)
}

/// What a VAST document lacks: well-formed XML with a `VAST` root, and for version 4.1 the
/// elements it requires (IAB VAST 4.1: `AdSystem`, `AdTitle`, `Impression`, `AdServingId` and
/// `Creatives` in every `InLine`; a `UniversalAdId` with its `idRegistry` in every `Creative`;
/// `Duration` and `MediaFiles` in every `Linear`; `delivery`, `type`, `width` and `height` on
/// every `MediaFile`).
fn vast_problems(xml: &str) -> Vec<String> {
    let doc = match roxmltree::Document::parse(xml) {
        Ok(doc) => doc,
        Err(e) => return vec![format!("not well-formed XML: {e}")],
    };
    let root = doc.root_element();
    if root.tag_name().name() != "VAST" {
        return vec![format!(
            "the root is <{}>, not <VAST>",
            root.tag_name().name()
        )];
    }
    let Some(version) = root.attribute("version") else {
        return vec!["<VAST> has no version".into()];
    };
    let mut problems = Vec::new();
    if version != "4.1" {
        return problems;
    }
    let child = |node: roxmltree::Node, name: &str| {
        node.children()
            .any(|c| c.is_element() && c.tag_name().name() == name)
    };
    for node in root.descendants().filter(|n| n.is_element()) {
        let (needed_children, needed_attrs): (&[&str], &[&str]) = match node.tag_name().name() {
            "InLine" => (
                &[
                    "AdSystem",
                    "AdTitle",
                    "Impression",
                    "AdServingId",
                    "Creatives",
                ],
                &[],
            ),
            "Creative" => (&["UniversalAdId"], &[]),
            "UniversalAdId" => (&[], &["idRegistry"]),
            "Linear" => (&["Duration", "MediaFiles"], &[]),
            "MediaFile" => (&[], &["delivery", "type", "width", "height"]),
            _ => continue,
        };
        let name = node.tag_name().name();
        for c in needed_children {
            if !child(node, c) {
                problems.push(format!("<{name}> lacks <{c}>"));
            }
        }
        for a in needed_attrs {
            if node.attribute(*a).is_none() {
                problems.push(format!("<{name}> lacks {a}"));
            }
        }
    }
    problems
}

#[test]
fn the_vast_checker_knows_what_4_1_requires() {
    let complete = r#"<VAST version="4.1"><Ad><InLine><AdSystem>B</AdSystem><Impression>https://i</Impression><AdServingId>s</AdServingId><AdTitle>T</AdTitle><Creatives><Creative><UniversalAdId idRegistry="unknown">unknown</UniversalAdId><Linear><Duration>00:00:30</Duration><MediaFiles><MediaFile delivery="progressive" type="video/mp4" width="320" height="480">https://m</MediaFile></MediaFiles></Linear></Creative></Creatives></InLine></Ad></VAST>"#;
    assert_eq!(vast_problems(complete), Vec::<String>::new());
    let without = complete
        .replace("<AdServingId>s</AdServingId>", "")
        .replace(
            r#"<UniversalAdId idRegistry="unknown">unknown</UniversalAdId>"#,
            "",
        );
    assert_eq!(
        vast_problems(&without),
        [
            "<InLine> lacks <AdServingId>",
            "<Creative> lacks <UniversalAdId>"
        ]
    );
    assert!(vast_problems("<VAST version=\"4.1\"><Ad>").len() == 1);
    assert_eq!(
        vast_documents("{\"adm\": \"<VAST version=\\\"4.1\\\"/>\"}")
            .unwrap()
            .len(),
        1
    );
}

/// Every VAST example on the site, shown as XML or inside a bid's `adm`, is a valid VAST
/// document, with the elements version 4.1 requires.
#[test]
fn every_vast_example_is_valid_vast() {
    let mut problems = Vec::new();
    let mut documents = 0;
    for (name, html) in pages() {
        for pre in elements(article(html), "<pre", "</pre>") {
            let code = text_of(pre);
            if !code.contains("<VAST") {
                continue;
            }
            match vast_documents(&code) {
                Err(e) => problems.push(format!("{name}: {e}")),
                Ok(docs) => {
                    for doc in docs {
                        documents += 1;
                        for p in vast_problems(&doc) {
                            problems.push(format!("{name}: {p}"));
                        }
                    }
                }
            }
        }
    }
    assert!(documents >= 4, "only {documents} VAST examples were found");
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

/// Flash is blocked as a creative attribute (OpenRTB 2.5 list 5.3, value 17), not as a banner
/// ad type: no page puts it in `btype`.
#[test]
fn flash_is_a_creative_attribute_not_a_banner_type() {
    let html = article(page("/documentation/dsp/ortb-spec/creative-types"));
    let attributes = text_of(html);
    assert!(
        attributes.contains("Adobe Flash17"),
        "no Flash row of value 17"
    );
    for (name, html) in pages() {
        let text = text_of(article(html));
        for sentence in text.split(". ") {
            if sentence.contains("Flash") && sentence.contains("btype") {
                assert!(
                    sentence.contains("not a banner ad type")
                        || sentence.contains("not as a btype"),
                    "{name}: {sentence:?}"
                );
            }
        }
    }
    let request = text_of(article(page("/documentation/dsp/ortb-spec/bid-request")));
    assert!(
        !request.contains("Flash, iframe and XHTML text ads are always blocked"),
        "the btype field names Flash"
    );
}

/// The `{MACRO}` names a text shows.
fn callback_macros(text: &str) -> HashSet<String> {
    let mut found = HashSet::new();
    for (at, _) in text.match_indices('{') {
        let rest = &text[at + 1..];
        if let Some(end) = rest.find('}') {
            let name = &rest[..end];
            if !name.is_empty() && name.chars().all(|c| c.is_ascii_uppercase() || c == '_') {
                found.insert(name.to_string());
            }
        }
    }
    found
}

/// The server-to-server and API pages state only what a published source gives: the four
/// confirmed rewarded-callback macros (the rest is sent by the platform once enabled), no
/// impression-postback macro, no OAuth scopes for the campaign API and no guessed request shape
/// for the direct-sold report.
#[test]
fn api_pages_state_only_sourced_macros_scopes_and_parameters() {
    let text = |route: &str| text_of(article(page(route)));
    let rewarded = text("/documentation/mediation/features/s2s-rewarded-callback-api");
    let confirmed: HashSet<String> = ["IDFA", "USER_ID", "EVENT_ID", "EVENT_TOKEN"]
        .map(String::from)
        .into();
    assert_eq!(callback_macros(&rewarded), confirmed);
    assert!(
        rewarded
            .split_whitespace()
            .collect::<Vec<_>>()
            .join(" ")
            .contains("Once callbacks are enabled, the platform also sends further macros"),
        "the rewarded page does not say the further macros come with enablement"
    );
    let impression = text("/documentation/mediation/features/s2s-impression-revenue-api");
    assert!(
        callback_macros(&impression).is_empty(),
        "impression postback macros: {:?}",
        callback_macros(&impression)
    );
    let campaign = text("/documentation/mediation/auctions/campaign-management-api").to_lowercase();
    for word in ["oauth", "scope", "campaigns:read"] {
        assert!(
            !campaign.contains(word),
            "the campaign API page names {word:?}"
        );
    }
    let direct = text("/documentation/mediation/reporting-api/direct-sold");
    for guessed in ["api_key", "filter_", "sort_", "offset"] {
        assert!(
            !direct.contains(guessed),
            "the direct-sold page shows {guessed:?}"
        );
    }
}

/// The host names (`name.tld`, lower case) a text mentions, in words or in addresses.
fn host_names(text: &str) -> HashSet<String> {
    const TLDS: [&str; 6] = ["com", "ai", "net", "io", "org", "dev"];
    text.to_lowercase()
        .split(|c: char| !(c.is_ascii_alphanumeric() || c == '.' || c == '-'))
        .map(|t| t.trim_matches(|c| c == '.' || c == '-'))
        .filter(|t| {
            let mut labels = t.split('.');
            let first = labels.next().unwrap_or("");
            let rest: Vec<&str> = labels.collect();
            !first.is_empty()
                && rest.last().is_some_and(|tld| TLDS.contains(tld))
                && rest.iter().all(|l| !l.is_empty())
        })
        .map(str::to_string)
        .collect()
}

#[test]
fn the_host_finder_finds_hosts_and_nothing_else() {
    let found =
        host_names("POST https://r.applovin.com/maxReport, see github.com. Call v1.2 or e.g.");
    let want: HashSet<String> = ["r.applovin.com", "github.com"]
        .into_iter()
        .map(String::from)
        .collect();
    assert_eq!(found, want);
}

#[test]
fn the_ad_review_pages_name_no_unsourced_host() {
    // No source gives the host of the Ad Review rules API: its pages show the paths and the
    // key, and name no host. The hosts they may name are sourced ones: the Gradle plugin's
    // repository of the Ad Review setup and the pages' own source links.
    let hosts: yaml_serde::Value = yaml_serde::from_str(
        &std::fs::read_to_string(root().join("content/data/api-hosts.yaml")).unwrap(),
    )
    .unwrap();
    let mut allowed: HashSet<String> = ["artifacts.applovin.com", "github.com"]
        .into_iter()
        .map(String::from)
        .collect();
    if let yaml_serde::Value::Mapping(map) = &hosts {
        for (_, api) in map {
            if let Some(h) = api["host"].as_str() {
                allowed.insert(h.to_string());
            }
        }
    }
    assert!(
        hosts.get("adReview").is_none(),
        "api-hosts.yaml gives an Ad Review host: show it on the rules API pages and drop this check"
    );
    let mut problems = Vec::new();
    let mut rules_pages = 0;
    for (name, html) in pages() {
        if !name.starts_with("documentation/mediation/ad-review/") {
            continue;
        }
        let body = article(html);
        let text = text_of(body);
        if text.contains("v1/rules") {
            rules_pages += 1;
        }
        let hrefs: String = body
            .split("href=\"")
            .skip(1)
            .filter_map(|s| s.split('"').next())
            .collect::<Vec<_>>()
            .join(" ");
        for host in host_names(&format!("{text} {hrefs}")) {
            if !allowed.contains(&host) {
                problems.push(format!("{name}: {host}"));
            }
        }
        for line in text.lines() {
            if line.trim_start().to_lowercase().starts_with("host:") {
                problems.push(format!("{name}: a Host header: {}", line.trim()));
            }
        }
    }
    assert!(
        rules_pages >= 3,
        "only {rules_pages} pages show the rules API"
    );
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}
