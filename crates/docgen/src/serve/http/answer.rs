//! What the preview server answers for a GET: the output folder as a CDN would serve it
//! (`_redirects`, the `/o/...` new-tab prefix, the nearest `404.html`), never a file outside it, and the
//! diagnostics while no build has succeeded yet.

use std::fs::{File, Metadata};
use std::io::{Read, Seek, SeekFrom};
use std::path::Path;

use bytes::Bytes;
use hyper::StatusCode;
use hyper::header::{self, HeaderName, HeaderValue};

use super::Shared;
use super::body::{Piece, slice};
use super::paths::{decode_path, encode_path, encode_query, is_same_site, open};
use super::range::{Ranged, if_range_holds, ranged};

const LIVE_JS: &str = include_str!("../live.js");
const LIVE_TAG: &str = "<script src=\"/_docgen/live.js\"></script>";
const HTML: &str = "text/html; charset=utf-8";
const TEXT: &str = "text/plain; charset=utf-8";

/// How far into a page its `</body>` is looked for, from the end: the live-reload tag goes
/// before the last one there, or at the end of a page without one.
const BODY_END_WITHIN: u64 = 64 * 1024;

/// What a GET or HEAD asks for.
pub struct Ask<'a> {
    /// The path as sent, still percent-encoded.
    pub path: &'a str,
    pub query: Option<&'a str>,
    /// The `Range` and `If-Range` headers, when sent.
    pub range: Option<&'a str>,
    pub if_range: Option<&'a str>,
}

/// A response, built by the caller; the headers are already checked values.
pub struct Reply {
    pub status: StatusCode,
    pub content_type: HeaderValue,
    pub location: Option<HeaderValue>,
    /// Headers of the file's own: ranges, validator.
    pub headers: Vec<(HeaderName, HeaderValue)>,
    pub body: Content,
}

/// A response body: bytes made by the server, or pieces of an open file, streamed. The file
/// was opened while the output folder was whole; it keeps its bytes if a rebuild renames
/// another file over it.
pub enum Content {
    Bytes(Vec<u8>),
    File { file: File, pieces: Vec<Piece> },
}

impl Content {
    pub fn len(&self) -> u64 {
        match self {
            Content::Bytes(bytes) => bytes.len() as u64,
            Content::File { pieces, .. } => pieces.iter().map(Piece::len).sum(),
        }
    }
}

impl Reply {
    fn new(status: StatusCode, content_type: &'static str, body: Vec<u8>) -> Self {
        Reply {
            status,
            content_type: HeaderValue::from_static(content_type),
            location: None,
            headers: Vec::new(),
            body: Content::Bytes(body),
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

/// The answer for a GET or HEAD. It opens the file it serves; call it while the output
/// folder is whole (under `Shared::apply_gate`).
pub fn answer(ask: &Ask, shared: &Shared) -> Reply {
    let (path, query) = (ask.path, ask.query);
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
    match open(&shared.out, &decoded) {
        Some(file) => serve_file(file, Some(ask)),
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

/// A file as found by `open`: whole with 200, or the range asked for (`ask`, None for the
/// 404 page, which is always sent whole with 404).
fn serve_file(
    (path, mut file, meta): (std::path::PathBuf, File, Metadata),
    ask: Option<&Ask>,
) -> Reply {
    let content_type = content_type(&path);
    let len = meta.len();
    let is_html = content_type == HTML;
    let pieces = if is_html {
        let at = body_end(&mut file, len).unwrap_or(len);
        vec![
            Piece::File { offset: 0, len: at },
            Piece::Bytes(Bytes::from_static(LIVE_TAG.as_bytes())),
            Piece::File {
                offset: at,
                len: len - at,
            },
        ]
    } else {
        vec![Piece::File { offset: 0, len }]
    };
    let total: u64 = pieces.iter().map(Piece::len).sum();
    let reply = |status, headers, pieces| Reply {
        status,
        content_type: content_type.clone(),
        location: None,
        headers,
        body: Content::File { file, pieces },
    };
    let Some(ask) = ask else {
        return reply(StatusCode::NOT_FOUND, Vec::new(), pieces);
    };
    let etag = entity_tag(&meta, is_html);
    let mut headers = vec![(header::ACCEPT_RANGES, HeaderValue::from_static("bytes"))];
    if let Ok(value) = HeaderValue::from_str(&etag) {
        headers.push((header::ETAG, value));
    }
    let range = ask.range.filter(|_| if_range_holds(ask.if_range, &etag));
    let content_range = |text: String| {
        (
            header::CONTENT_RANGE,
            HeaderValue::from_str(&text).expect("digits and ASCII"),
        )
    };
    match ranged(range, total) {
        Ranged::Full => reply(StatusCode::OK, headers, pieces),
        Ranged::Part { start, end } => {
            headers.push(content_range(format!("bytes {start}-{end}/{total}")));
            let part = slice(&pieces, start, end + 1);
            reply(StatusCode::PARTIAL_CONTENT, headers, part)
        }
        Ranged::Unsatisfiable => {
            headers.push(content_range(format!("bytes */{total}")));
            let mut reply = Reply::new(StatusCode::RANGE_NOT_SATISFIABLE, TEXT, Vec::new());
            reply.headers = headers;
            reply
        }
    }
}

/// A strong validator of what is served for a file: its length and modification time, and
/// whether the live-reload tag is added. A rebuild that rewrites the file changes it.
fn entity_tag(meta: &Metadata, tagged: bool) -> String {
    let modified = meta
        .modified()
        .ok()
        .and_then(|t| t.duration_since(std::time::UNIX_EPOCH).ok())
        .map_or(0, |d| d.as_nanos());
    let tag = if tagged { "-l" } else { "" };
    format!("\"{:x}-{modified:x}{tag}\"", meta.len())
}

/// Where the live-reload tag goes in a page of `len` bytes: before its last `</body>` within
/// the last `BODY_END_WITHIN` bytes; `None` (the end) without one. Reads that much at most.
fn body_end(file: &mut File, len: u64) -> Option<u64> {
    let start = len.saturating_sub(BODY_END_WITHIN);
    let mut tail = Vec::with_capacity((len - start) as usize);
    file.seek(SeekFrom::Start(start)).ok()?;
    file.take(len - start).read_to_end(&mut tail).ok()?;
    memchr::memmem::rfind(&tail, b"</body>").map(|i| start + i as u64)
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

/// Unknown paths: the `_redirects` rules first, then the nearest `404.html` in a folder above
/// the path (an area's own, else the site's), as Cloudflare Pages and Netlify look it up.
fn not_found(shared: &Shared, path: &str) -> Reply {
    let rules = std::fs::read_to_string(shared.out.join("_redirects")).unwrap_or_default();
    for rule in rules.lines().filter_map(Rule::parse) {
        if let Some(reply) = rule.matches(path).and_then(|splat| rule.redirect(splat)) {
            return reply;
        }
    }
    let mut folder = path;
    while let Some(end) = folder.rfind('/') {
        folder = &folder[..end];
        if let Some(file) = open(&shared.out, &format!("{folder}/404.html")) {
            return serve_file(file, None);
        }
    }
    Reply::new(StatusCode::NOT_FOUND, TEXT, b"not found".to_vec())
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

    /// The bytes a reply sends.
    fn sent(reply: Reply) -> Vec<u8> {
        match reply.body {
            Content::Bytes(bytes) => bytes,
            Content::File { mut file, pieces } => {
                let mut out = Vec::new();
                for piece in pieces {
                    match piece {
                        Piece::Bytes(bytes) => out.extend_from_slice(&bytes),
                        Piece::File { offset, len } => {
                            file.seek(SeekFrom::Start(offset)).unwrap();
                            (&mut file).take(len).read_to_end(&mut out).unwrap();
                        }
                    }
                }
                out
            }
        }
    }

    fn served(name: &str, text: &[u8], range: Option<&str>, if_range: Option<&str>) -> Reply {
        let tmp = tempfile::tempdir().unwrap();
        std::fs::write(tmp.path().join(name), text).unwrap();
        let found = open(tmp.path(), name).unwrap();
        let ask = Ask {
            path: name,
            query: None,
            range,
            if_range,
        };
        serve_file(found, Some(&ask))
    }

    fn header(reply: &Reply, name: HeaderName) -> Option<&str> {
        let (_, value) = reply.headers.iter().find(|(n, _)| *n == name)?;
        value.to_str().ok()
    }

    #[test]
    fn the_live_script_is_added_before_the_last_body_end() {
        let page = b"<html><body><p></body></p></body></html>";
        let reply = served("a.html", page, None, None);
        assert_eq!(
            sent(reply),
            b"<html><body><p></body></p><script src=\"/_docgen/live.js\"></script></body></html>"
        );
        let reply = served("b.html", b"<p>no end", None, None);
        assert_eq!(
            sent(reply),
            b"<p>no end<script src=\"/_docgen/live.js\"></script>"
        );
    }

    #[test]
    fn ranges_are_taken_from_what_is_sent() {
        let reply = served("a.txt", b"0123456789", Some("bytes=2-4"), None);
        assert_eq!(reply.status, StatusCode::PARTIAL_CONTENT);
        assert_eq!(header(&reply, header::CONTENT_RANGE), Some("bytes 2-4/10"));
        assert_eq!(header(&reply, header::ACCEPT_RANGES), Some("bytes"));
        assert_eq!(sent(reply), b"234");
        let reply = served("a.txt", b"0123456789", Some("bytes=10-"), None);
        assert_eq!(reply.status, StatusCode::RANGE_NOT_SATISFIABLE);
        assert_eq!(header(&reply, header::CONTENT_RANGE), Some("bytes */10"));
        assert!(sent(reply).is_empty());
        // A page's ranges count the live-reload tag it is sent with.
        let reply = served("p.html", b"<body></body>", Some("bytes=-14"), None);
        let total = 13 + LIVE_TAG.len();
        let expected = format!("bytes {}-{}/{total}", total - 14, total - 1);
        assert_eq!(
            header(&reply, header::CONTENT_RANGE),
            Some(expected.as_str())
        );
        assert_eq!(sent(reply), b"script></body>");
    }

    #[test]
    fn if_range_sends_the_whole_file_unless_the_tag_matches() {
        let tmp = tempfile::tempdir().unwrap();
        std::fs::write(tmp.path().join("a.txt"), b"0123456789").unwrap();
        let ask = |if_range| Ask {
            path: "a.txt",
            query: None,
            range: Some("bytes=0-0"),
            if_range,
        };
        let found = || open(tmp.path(), "a.txt").unwrap();
        let etag = {
            let reply = serve_file(found(), Some(&ask(None)));
            assert_eq!(reply.status, StatusCode::PARTIAL_CONTENT);
            header(&reply, header::ETAG).unwrap().to_string()
        };
        assert!(etag.starts_with('"') && etag.ends_with('"'), "{etag}");
        let matching = serve_file(found(), Some(&ask(Some(&etag))));
        assert_eq!(matching.status, StatusCode::PARTIAL_CONTENT);
        let stale = serve_file(found(), Some(&ask(Some("\"other\""))));
        assert_eq!(stale.status, StatusCode::OK);
        assert_eq!(sent(stale), b"0123456789");
        let dated = serve_file(found(), Some(&ask(Some("Wed, 21 Oct 2015 07:28:00 GMT"))));
        assert_eq!(dated.status, StatusCode::OK);
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
