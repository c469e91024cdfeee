//! `_headers` (the format Netlify and Cloudflare Pages read): a path pattern on a line of its
//! own, then its headers indented as `Name: value`. The preview server applies the same rules
//! (`parse` and `for_path`), so a page that breaks the Content-Security-Policy breaks in the
//! preview too.

use std::borrow::Cow;
use std::collections::BTreeSet;

use sha2::{Digest, Sha256};

use crate::diagnostics::Diagnostic;

/// One rule: a path pattern (exact, or ending in `*` for everything under it) and its headers.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Rule {
    pub pattern: String,
    pub headers: Vec<(String, String)>,
}

pub const IMMUTABLE: &str = "public, max-age=31536000, immutable";
pub const REVALIDATE: &str = "public, max-age=0, must-revalidate";

/// The rules of a site. `base` is the site's base path ("" at the root); `firsts` the first
/// segments of the routes and legacy routes (their HTML is revalidated); `script_hashes` the
/// `sha256-...` sources of every inline script the HTML runs; `api_origin` the origin of the
/// site's API when it is not the site itself.
pub fn rules(
    base: &str,
    firsts: &BTreeSet<String>,
    script_hashes: &BTreeSet<String>,
    api_origin: Option<&str>,
) -> Vec<Rule> {
    let mut script_src = String::from("'self'");
    for h in script_hashes {
        script_src.push_str(&format!(" '{h}'"));
    }
    let mut connect_src = String::from("'self'");
    if let Some(origin) = api_origin {
        connect_src.push(' ');
        connect_src.push_str(origin);
    }
    // style-src without 'unsafe-inline': the templates and the pre-rendered HTML carry no
    // `style="..."` attribute and no inline <style> (the build test checks it); the app sets
    // styles through element.style, which the policy does not govern.
    let csp = format!(
        "default-src 'self'; script-src {script_src}; style-src 'self'; img-src 'self' data:; \
         connect-src {connect_src}; frame-ancestors 'none'; base-uri 'self'; object-src 'none'"
    );
    let header = |n: &str, v: &str| (n.to_string(), v.to_string());
    let mut out = vec![Rule {
        pattern: format!("{base}/*"),
        headers: vec![
            header("Content-Security-Policy", &csp),
            header("X-Content-Type-Options", "nosniff"),
            header("Referrer-Policy", "strict-origin-when-cross-origin"),
        ],
    }];
    // Cache-Control is set by rules that never overlap: where two rules match, Netlify and
    // Cloudflare join their values, and an immutable file must not also be revalidated.
    out.push(Rule {
        pattern: format!("{base}/s/*"),
        headers: vec![header("Cache-Control", IMMUTABLE)],
    });
    let revalidated = [
        format!("{base}/"),
        format!("{base}/index.html"),
        format!("{base}/404.html"),
        // The root page's Markdown twin and the llms files change with the pages.
        format!("{base}/index.md"),
        format!("{base}/llms.txt"),
        format!("{base}/llms-full.txt"),
    ]
    .into_iter()
    .chain(std::iter::once(format!("{base}/_docgen/*")))
    .chain(
        firsts
            .iter()
            .filter(|f| f.as_str() != "s" && f.as_str() != "_docgen")
            .flat_map(|f| [format!("{base}/{f}"), format!("{base}/{f}/*")]),
    );
    for pattern in revalidated {
        out.push(Rule {
            pattern,
            headers: vec![header("Cache-Control", REVALIDATE)],
        });
    }
    out
}

/// The text of `_headers`. The configuration is validated long before, but whatever reaches
/// this file cannot add a line or a header: a pattern's whitespace and control characters are
/// percent-encoded (as a browser sends them), and a header name or value that would break its
/// line is an error.
pub fn text(rules: &[Rule]) -> Result<String, Diagnostic> {
    let mut out = String::new();
    for r in rules {
        out.push_str(&path_field(&r.pattern));
        out.push('\n');
        for (n, v) in &r.headers {
            let name_ok = !n.is_empty()
                && n.bytes()
                    .all(|b| b.is_ascii_alphanumeric() || b"!#$%&'*+-.^_`|~".contains(&b));
            if !name_ok || v.chars().any(char::is_control) || v.trim() != v {
                return Err(Diagnostic::new(
                    "output.bad-header",
                    format!(
                        "the header `{}: {}` for {} cannot be written into _headers: it would break its line",
                        n.escape_debug(),
                        v.escape_debug(),
                        r.pattern.escape_debug()
                    ),
                )
                .hint("check the values site.yaml gives the headers (url, apiBase): no line breaks or control characters"));
            }
            out.push_str(&format!("  {n}: {v}\n"));
        }
    }
    Ok(out)
}

/// A path as one whitespace-separated field of `_headers` or `_redirects`: whitespace and
/// control characters percent-encoded (the form in which a browser requests such a path),
/// everything else as it is.
pub fn path_field(path: &str) -> Cow<'_, str> {
    let breaks = |c: char| c.is_whitespace() || c.is_control();
    if !path.contains(breaks) {
        return Cow::Borrowed(path);
    }
    let mut out = String::with_capacity(path.len() + 8);
    for c in path.chars() {
        if breaks(c) {
            let mut buf = [0; 4];
            for b in c.encode_utf8(&mut buf).bytes() {
                out.push_str(&format!("%{b:02X}"));
            }
        } else {
            out.push(c);
        }
    }
    Cow::Owned(out)
}

/// Reads `_headers`: comments (`#`) and blank lines skipped, indented lines belong to the
/// pattern above them.
pub fn parse(text: &str) -> Vec<Rule> {
    let mut out: Vec<Rule> = Vec::new();
    for line in text.lines() {
        let trimmed = line.trim();
        if trimmed.is_empty() || trimmed.starts_with('#') {
            continue;
        }
        if !line.starts_with([' ', '\t']) {
            out.push(Rule {
                pattern: trimmed.to_string(),
                headers: Vec::new(),
            });
        } else if let (Some(rule), Some((n, v))) = (out.last_mut(), trimmed.split_once(':')) {
            rule.headers
                .push((n.trim().to_string(), v.trim().to_string()));
        }
    }
    out
}

/// Whether a pattern matches a request path: exactly, or, ending in `*`, by its prefix.
pub fn matches(pattern: &str, path: &str) -> bool {
    match pattern.strip_suffix('*') {
        Some(prefix) => path.starts_with(prefix),
        None => pattern == path,
    }
}

/// The headers for a path: every matching rule's, in order (a later one of the same name
/// replaces an earlier one; the rules docgen writes never set one name twice for a path).
pub fn for_path(rules: &[Rule], path: &str) -> Vec<(String, String)> {
    let mut out: Vec<(String, String)> = Vec::new();
    for r in rules.iter().filter(|r| matches(&r.pattern, path)) {
        for (n, v) in &r.headers {
            out.retain(|(m, _)| !m.eq_ignore_ascii_case(n));
            out.push((n.clone(), v.clone()));
        }
    }
    out
}

/// The CSP source of a script's text: `sha256-` and the base64 of its digest.
pub fn script_hash(text: &str) -> String {
    format!("sha256-{}", base64(&Sha256::digest(text.as_bytes())))
}

/// Every inline script that runs in an HTML document: `<script>` elements without `src`
/// whose type is absent or JavaScript (JSON data blocks do not run).
pub fn inline_scripts(html: &str) -> Vec<&str> {
    let mut out = Vec::new();
    let mut rest = html;
    while let Some(at) = rest.find("<script") {
        rest = &rest[at + "<script".len()..];
        let Some(end_tag) = rest.find('>') else { break };
        let attrs = &rest[..end_tag];
        let body = &rest[end_tag + 1..];
        let Some(close) = body.find("</script>") else {
            break;
        };
        let text = &body[..close];
        rest = &body[close..];
        let lower = attrs.to_ascii_lowercase();
        let runs = match attr(&lower, "type") {
            None => true,
            Some(t) => matches!(t.trim(), "" | "text/javascript" | "module"),
        };
        if runs && attr(&lower, "src").is_none() {
            out.push(text);
        }
    }
    out
}

fn attr<'a>(attrs: &'a str, name: &str) -> Option<&'a str> {
    let mut rest = attrs;
    while let Some(at) = rest.find(name) {
        let before = rest[..at].chars().last();
        let after = &rest[at + name.len()..];
        if before.is_some_and(char::is_whitespace) && after.trim_start().starts_with('=') {
            let v = after.trim_start()[1..].trim_start();
            let (q, v) = match v.chars().next() {
                Some(q @ ('"' | '\'')) => (q, &v[1..]),
                _ => (' ', v),
            };
            return Some(v.split(q).next().unwrap_or(""));
        }
        rest = after;
    }
    None
}

fn base64(bytes: &[u8]) -> String {
    const ABC: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    let mut out = String::new();
    for chunk in bytes.chunks(3) {
        let b = [
            chunk[0],
            *chunk.get(1).unwrap_or(&0),
            *chunk.get(2).unwrap_or(&0),
        ];
        let n = (u32::from(b[0]) << 16) | (u32::from(b[1]) << 8) | u32::from(b[2]);
        for i in 0..4 {
            if i <= chunk.len() {
                out.push(ABC[(n >> (18 - 6 * i)) as usize & 63] as char);
            } else {
                out.push('=');
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn base64_of_known_digests() {
        assert_eq!(base64(b"f"), "Zg==");
        assert_eq!(base64(b"fo"), "Zm8=");
        assert_eq!(base64(b"foo"), "Zm9v");
        // The example of the CSP specification.
        assert_eq!(
            script_hash("alert('Hello, world.');"),
            "sha256-qznLcsROx4GACP2dm0UCKCzCG+HiZ1guq6ZZDob/Tng="
        );
    }

    #[test]
    fn inline_scripts_skip_sources_and_data() {
        let html = r#"<script>a()</script><script type="module" src="/x.js"></script>
<script id="d" type="application/json">{"a":1}</script><script type="module">b()</script>"#;
        assert_eq!(inline_scripts(html), vec!["a()", "b()"]);
    }

    #[test]
    fn parse_reads_what_text_writes_and_rules_apply_in_order() {
        let firsts: BTreeSet<String> = ["docs".to_string(), "s".to_string()].into();
        let hashes: BTreeSet<String> = ["sha256-abc".to_string()].into();
        let rules = rules("", &firsts, &hashes, Some("https://api.example.com"));
        assert_eq!(parse(&text(&rules).unwrap()), rules);
        let on = |p: &str, n: &str| {
            for_path(&rules, p)
                .into_iter()
                .find(|(m, _)| m == n)
                .map(|(_, v)| v)
        };
        assert_eq!(
            on("/s/app.1.js", "Cache-Control").as_deref(),
            Some(IMMUTABLE)
        );
        assert_eq!(on("/docs/a/", "Cache-Control").as_deref(), Some(REVALIDATE));
        assert_eq!(
            on("/_docgen/nav.json", "Cache-Control").as_deref(),
            Some(REVALIDATE)
        );
        assert_eq!(on("/sitemap.xml", "Cache-Control"), None);
        let csp = on("/s/app.1.js", "Content-Security-Policy").unwrap();
        assert!(csp.contains("script-src 'self' 'sha256-abc';"), "{csp}");
        assert!(
            csp.contains("connect-src 'self' https://api.example.com;"),
            "{csp}"
        );
    }

    #[test]
    fn nothing_can_add_a_line_or_a_field() {
        let rules = rules("/a b\nX-Evil: 1", &BTreeSet::new(), &BTreeSet::new(), None);
        let written = text(&rules).unwrap();
        assert!(written.starts_with("/a%20b%0AX-Evil:%201/*\n"), "{written}");
        assert!(
            !written.lines().any(|l| l.starts_with("X-Evil")),
            "{written}"
        );
        assert_eq!(parse(&written).len(), rules.len());

        let bad = rules_with_api("https://api.example.com\nSet-Cookie: a=b");
        let e = text(&bad).unwrap_err();
        assert_eq!(e.code, "output.bad-header");
        assert!(e.message.contains("\\n"), "{}", e.message);
        assert!(text(&rules_with_api("https://api.example.com\t")).is_err());
        assert!(text(&rules_with_api("https://api.example.com")).is_ok());
    }

    fn rules_with_api(origin: &str) -> Vec<Rule> {
        rules("", &BTreeSet::new(), &BTreeSet::new(), Some(origin))
    }

    #[test]
    fn path_fields_encode_only_what_breaks_a_line() {
        assert!(matches!(
            path_field("/docs/é/*"),
            Cow::Borrowed("/docs/é/*")
        ));
        assert_eq!(path_field("/a b\tc\r\u{a0}"), "/a%20b%09c%0D%C2%A0");
    }
}
