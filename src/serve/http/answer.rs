//! What the preview server answers for a GET: the output folder as a CDN would serve it
//! (`_redirects`, the `/o/...` new-tab prefix, `404.html`), never a file outside it, and the
//! diagnostics while no build has succeeded yet.

use std::path::Path;

use hyper::StatusCode;
use hyper::header::{HeaderName, HeaderValue};

use super::Shared;
use super::paths::{decode_path, encode_path, encode_query, is_same_site, resolve};

const LIVE_JS: &str = include_str!("../live.js");
const LIVE_TAG: &str = "<script src=\"/_docgen/live.js\"></script>";
const HTML: &str = "text/html; charset=utf-8";
const TEXT: &str = "text/plain; charset=utf-8";

/// A response, built by the caller; the headers are already checked values.
pub struct Reply {
    pub status: StatusCode,
    pub content_type: HeaderValue,
    pub location: Option<HeaderValue>,
    pub body: Vec<u8>,
}

impl Reply {
    fn new(status: StatusCode, content_type: &'static str, body: Vec<u8>) -> Self {
        Reply {
            status,
            content_type: HeaderValue::from_static(content_type),
            location: None,
            body,
        }
    }

    /// A redirect, or `None` when the location is no valid header value.
    fn redirect(status: StatusCode, location: &str) -> Option<Self> {
        let location = HeaderValue::from_str(location).ok()?;
        Some(Reply {
            location: Some(location),
            ..Reply::new(status, TEXT, Vec::new())
        })
    }
}

/// The answer for a GET or HEAD of `path` (as sent, still percent-encoded) with `query`.
pub fn answer(path: &str, query: Option<&str>, shared: &Shared) -> Reply {
    if path == "/_docgen/live.js" {
        let js = "text/javascript; charset=utf-8";
        return Reply::new(StatusCode::OK, js, LIVE_JS.as_bytes().to_vec());
    }
    if !shared.has_output() && is_page(path) {
        return broken_site(shared);
    }
    let Some(decoded) = decode_path(path) else {
        return not_found(shared, path);
    };
    if let Some(rest) = strip_open_prefix(&decoded) {
        return open_in_tab(rest, query).unwrap_or_else(|| not_found(shared, &decoded));
    }
    match resolve(&shared.out, &decoded) {
        Some(file) => serve_file(&file, StatusCode::OK),
        None => not_found(shared, &decoded),
    }
}

/// Whether a request is for a page rather than an asset: no extension, or `.html`.
fn is_page(path: &str) -> bool {
    let name = path.rsplit('/').next().unwrap_or("");
    !path.starts_with("/_docgen/") && (!name.contains('.') || name.ends_with(".html"))
}

/// The path a new-tab address (`/o/<path>`, or `/o` for the home) leads to.
fn strip_open_prefix(path: &str) -> Option<&str> {
    match path.strip_prefix("/o")? {
        "" => Some("/"),
        rest => rest.starts_with('/').then_some(rest),
    }
}

/// The redirect of a new-tab address to the page itself: only ever a path of this site.
fn open_in_tab(path: &str, query: Option<&str>) -> Option<Reply> {
    if !is_same_site(path) {
        return None;
    }
    let mut location = encode_path(path);
    if let Some(query) = query {
        location.push('?');
        location.push_str(&encode_query(query));
    }
    Reply::redirect(StatusCode::FOUND, &location)
}

fn serve_file(file: &Path, status: StatusCode) -> Reply {
    let Ok(bytes) = std::fs::read(file) else {
        let body = b"cannot read the file".to_vec();
        return Reply::new(StatusCode::INTERNAL_SERVER_ERROR, TEXT, body);
    };
    let content_type = content_type(file);
    let body = if content_type == HTML {
        inject_live(bytes)
    } else {
        bytes
    };
    Reply {
        status,
        content_type,
        location: None,
        body,
    }
}

/// The type of a served file. Files without an extension are the published data documents,
/// which are JSON.
fn content_type(file: &Path) -> HeaderValue {
    if file.extension().is_none() {
        return HeaderValue::from_static("application/json");
    }
    let mime = mime_guess::from_path(file).first_or_octet_stream();
    let text = mime.type_() == mime_guess::mime::TEXT || mime.subtype() == "javascript";
    let value = if text {
        format!("{}; charset=utf-8", mime.essence_str())
    } else {
        mime.essence_str().to_string()
    };
    HeaderValue::from_str(&value).unwrap_or(HeaderValue::from_static("application/octet-stream"))
}

/// Adds the live-reload script to an HTML page as it is served (the files stay as built).
fn inject_live(bytes: Vec<u8>) -> Vec<u8> {
    let Ok(text) = String::from_utf8(bytes) else {
        return Vec::new();
    };
    match text.rfind("</body>") {
        Some(i) => format!("{}{LIVE_TAG}{}", &text[..i], &text[i..]).into_bytes(),
        None => format!("{text}{LIVE_TAG}").into_bytes(),
    }
}

/// One line of `_redirects`: `from to status`, `from` exact or ending in `/*`.
struct Rule<'a> {
    from: &'a str,
    to: &'a str,
    status: &'a str,
}

impl<'a> Rule<'a> {
    fn parse(line: &'a str) -> Option<Self> {
        let parts: Vec<&str> = line.split_whitespace().collect();
        let [from, to, status] = parts[..] else {
            return None;
        };
        Some(Rule { from, to, status })
    }

    /// The splat `path` matches with (empty for an exact match), or `None`.
    fn matches<'p>(&self, path: &'p str) -> Option<&'p str> {
        match self.from.strip_suffix("/*") {
            Some(prefix) => {
                let rest = path.strip_prefix(prefix)?;
                rest.starts_with('/').then(|| rest.trim_start_matches('/'))
            }
            None => (self.from == path).then_some(""),
        }
    }

    /// The rule's redirect for a path with `splat`; a target on this site stays on it.
    fn redirect(&self, splat: &str) -> Option<Reply> {
        let status = StatusCode::from_u16(self.status.parse().ok()?).ok()?;
        let location = self.to.replace(":splat", &encode_path(splat));
        if !status.is_redirection() || (location.starts_with('/') && !is_same_site(&location)) {
            return None;
        }
        Reply::redirect(status, &location)
    }
}

/// Unknown paths: the `_redirects` rules first, then the 404 page.
fn not_found(shared: &Shared, path: &str) -> Reply {
    let rules = std::fs::read_to_string(shared.out.join("_redirects")).unwrap_or_default();
    for rule in rules.lines().filter_map(Rule::parse) {
        let Some(splat) = rule.matches(path) else {
            continue;
        };
        if rule.status == "404" {
            let page = rule.to.replace(":splat", splat);
            if let Some(file) = resolve(&shared.out, &page) {
                return serve_file(&file, StatusCode::NOT_FOUND);
            }
        } else if let Some(reply) = rule.redirect(splat) {
            return reply;
        }
    }
    match resolve(&shared.out, "/404.html") {
        Some(file) => serve_file(&file, StatusCode::NOT_FOUND),
        None => Reply::new(StatusCode::NOT_FOUND, TEXT, b"not found".to_vec()),
    }
}

/// The headers the built `_headers` gives `path` (as sent), as a CDN would add them, so a page
/// that breaks the Content-Security-Policy breaks in the preview too. Cache-Control is left
/// out: the preview never lets a browser cache (its files change with every edit). None
/// while no build has succeeded (the diagnostics page is the server's own).
pub fn site_headers(path: &str, shared: &Shared) -> Vec<(HeaderName, HeaderValue)> {
    if !shared.has_output() {
        return Vec::new();
    }
    let Ok(text) = std::fs::read_to_string(shared.out.join("_headers")) else {
        return Vec::new();
    };
    let rules = crate::output::headers::parse(&text);
    crate::output::headers::for_path(&rules, path)
        .into_iter()
        .filter(|(name, _)| !name.eq_ignore_ascii_case("cache-control"))
        .filter_map(|(name, value)| {
            Some((
                HeaderName::from_bytes(name.as_bytes()).ok()?,
                HeaderValue::from_str(&value).ok()?,
            ))
        })
        .collect()
}

/// The page every page request gets while no build has succeeded: the diagnostics, and the
/// live-reload script that shows them over the page and reloads it once the site builds.
fn broken_site(shared: &Shared) -> Reply {
    let errors = shared.errors.lock().expect("not poisoned").clone();
    let errors = errors.unwrap_or_else(|| "The site has not been built yet.".into());
    let mut html = String::from(
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n\
         <title>The site does not build</title>\n</head>\n<body>\n\
         <h1>The site does not build</h1>\n<pre>",
    );
    crate::markdown::highlight::escape_into(&mut html, &errors);
    html.push_str("</pre>\n");
    html.push_str(LIVE_TAG);
    html.push_str("\n</body>\n</html>\n");
    Reply::new(StatusCode::SERVICE_UNAVAILABLE, HTML, html.into_bytes())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_live_script_is_added_before_the_body_ends() {
        let html =
            String::from_utf8(inject_live(b"<html><body><p>x</p></body></html>".to_vec())).unwrap();
        assert!(html.ends_with("<p>x</p><script src=\"/_docgen/live.js\"></script></body></html>"));
    }

    #[test]
    fn new_tab_addresses_lead_only_to_this_site() {
        let location = |path: &str, query| {
            let rest = strip_open_prefix(path)?;
            open_in_tab(rest, query).and_then(|r| r.location)
        };
        assert_eq!(location("/o", None).unwrap(), "/");
        assert_eq!(
            location("/o/docs/a b", Some("x=1")).unwrap(),
            "/docs/a%20b?x=1"
        );
        assert!(strip_open_prefix("/other").is_none());
        assert!(strip_open_prefix("/on/x").is_none());
        for refused in [
            "/o//evil.example/x",
            "/o/\\evil.example",
            "/o/x\r\nSet-Cookie: a=1",
        ] {
            assert!(location(refused, None).is_none(), "{refused:?}");
        }
    }

    #[test]
    fn a_splat_is_encoded_and_cannot_lead_off_the_site() {
        let rule = Rule::parse("/old/* /:splat 301").unwrap();
        let splat = rule.matches("/old//evil.example/x").unwrap();
        let reply = rule.redirect(splat).unwrap();
        assert_eq!(reply.location.unwrap(), "/evil.example/x");
        let splat = rule.matches("/old/a\r\nb").unwrap();
        assert_eq!(rule.redirect(splat).unwrap().location.unwrap(), "/a%0D%0Ab");
        assert!(rule.matches("/older/x").is_none());
        let exact = Rule::parse("/old /docs 301").unwrap();
        assert_eq!(exact.matches("/old"), Some(""));
    }

    #[test]
    fn pages_are_told_from_assets() {
        assert!(is_page("/docs/guide/start"));
        assert!(is_page("/"));
        assert!(is_page("/docs/index.html"));
        assert!(!is_page("/s/app.css"));
        assert!(!is_page("/_docgen/live"));
    }
}
