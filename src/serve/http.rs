//! The preview server: the output folder as a CDN would serve it (`_redirects`, the `/o/...`
//! new-tab prefix, `404.html`), never a file outside it, plus the live-reload channel.

use std::io::{BufRead, BufReader, Write};
use std::net::{TcpListener, TcpStream};
use std::path::{Component, Path, PathBuf};
use std::sync::mpsc::{RecvTimeoutError, Sender};
use std::sync::{Arc, Mutex};
use std::time::Duration;

const LIVE_JS: &str = include_str!("live.js");
const LIVE_TAG: &str = "<script src=\"/_docgen/live.js\"></script>";

/// What the server shares with the rebuild loop.
pub struct Shared {
    pub out: PathBuf,
    /// The diagnostics of the last failed rebuild, shown over every page until fixed.
    pub errors: Mutex<Option<String>>,
    listeners: Mutex<Vec<Sender<String>>>,
}

impl Shared {
    pub fn new(out: PathBuf) -> Self {
        Shared {
            out,
            errors: Mutex::new(None),
            listeners: Mutex::new(Vec::new()),
        }
    }

    /// Sends a server-sent event to every open page; closed pages are forgotten.
    pub fn broadcast(&self, event: &str, data: &str) {
        let message = format!("event: {event}\ndata: {data}\n\n");
        self.listeners
            .lock()
            .expect("not poisoned")
            .retain(|tx| tx.send(message.clone()).is_ok());
    }
}

/// Listens on `host:port` (0 picks a free port), one thread per connection; returns the
/// address actually bound. A thread per connection keeps a long-lived live-reload stream from
/// ever holding up a page's other requests.
pub fn start(host: &str, port: u16, shared: Arc<Shared>) -> std::io::Result<std::net::SocketAddr> {
    let listener = TcpListener::bind((host, port))?;
    let addr = listener.local_addr()?;
    std::thread::spawn(move || {
        for stream in listener.incoming().flatten() {
            let shared = shared.clone();
            std::thread::spawn(move || connection(stream, &shared));
        }
    });
    Ok(addr)
}

/// A response: status, content type, extra headers and body.
struct Reply {
    status: u16,
    content_type: &'static str,
    location: Option<String>,
    body: Vec<u8>,
}

impl Reply {
    fn redirect(status: u16, location: String) -> Self {
        Reply {
            status,
            content_type: "text/plain; charset=utf-8",
            location: Some(location),
            body: Vec::new(),
        }
    }
}

fn reason(status: u16) -> &'static str {
    match status {
        200 => "OK",
        301 => "Moved Permanently",
        302 => "Found",
        400 => "Bad Request",
        404 => "Not Found",
        405 => "Method Not Allowed",
        _ => "Internal Server Error",
    }
}

/// Serves the requests of one connection (HTTP/1.1 keep-alive, or one request for HTTP/1.0).
fn connection(stream: TcpStream, shared: &Arc<Shared>) {
    let _ = stream.set_read_timeout(Some(Duration::from_secs(60)));
    let Ok(read_half) = stream.try_clone() else {
        return;
    };
    let mut reader = BufReader::new(read_half);
    let mut stream = stream;
    loop {
        let mut line = String::new();
        if reader.read_line(&mut line).unwrap_or(0) == 0 {
            return;
        }
        let mut parts = line.split_whitespace();
        let (Some(method), Some(target), version) = (
            parts.next(),
            parts.next(),
            parts.next().unwrap_or("HTTP/1.0"),
        ) else {
            return;
        };
        let (method, target) = (method.to_string(), target.to_string());
        let mut keep_alive = version == "HTTP/1.1";
        loop {
            let mut header = String::new();
            if reader.read_line(&mut header).unwrap_or(0) == 0 {
                return;
            }
            let header = header.trim_end();
            if header.is_empty() {
                break;
            }
            if let Some((name, value)) = header.split_once(':')
                && name.eq_ignore_ascii_case("connection")
            {
                let value = value.trim().to_ascii_lowercase();
                keep_alive = if value.contains("close") {
                    false
                } else {
                    keep_alive || value.contains("keep-alive")
                };
            }
        }
        if target.split(['?', '#']).next() == Some("/_docgen/live") {
            return live(stream, shared);
        }
        let reply = if method == "GET" || method == "HEAD" {
            handle(&target, shared)
        } else {
            Reply {
                status: 405,
                content_type: "text/plain; charset=utf-8",
                location: None,
                body: b"only GET and HEAD".to_vec(),
            }
        };
        let mut head = format!(
            "HTTP/1.1 {} {}\r\nContent-Type: {}\r\nContent-Length: {}\r\nCache-Control: no-store\r\nConnection: {}\r\n",
            reply.status,
            reason(reply.status),
            reply.content_type,
            reply.body.len(),
            if keep_alive { "keep-alive" } else { "close" }
        );
        if let Some(location) = &reply.location {
            head.push_str(&format!("Location: {location}\r\n"));
        }
        head.push_str("\r\n");
        let body: &[u8] = if method == "HEAD" { &[] } else { &reply.body };
        if stream
            .write_all(head.as_bytes())
            .and_then(|()| stream.write_all(body))
            .and_then(|()| stream.flush())
            .is_err()
            || !keep_alive
        {
            return;
        }
    }
}

fn content_type(path: &Path) -> &'static str {
    match path.extension().and_then(|e| e.to_str()).unwrap_or("") {
        "html" => "text/html; charset=utf-8",
        "js" | "mjs" => "text/javascript; charset=utf-8",
        "css" => "text/css; charset=utf-8",
        "json" => "application/json",
        "svg" => "image/svg+xml",
        "png" => "image/png",
        "jpg" | "jpeg" => "image/jpeg",
        "gif" => "image/gif",
        "webp" => "image/webp",
        "xml" => "application/xml",
        "txt" | "" => "application/json",
        _ => "application/octet-stream",
    }
}

fn handle(url: &str, shared: &Shared) -> Reply {
    let path = url.split(['?', '#']).next().unwrap_or("/");
    if path == "/_docgen/live.js" {
        return Reply {
            status: 200,
            content_type: "text/javascript; charset=utf-8",
            location: None,
            body: LIVE_JS.as_bytes().to_vec(),
        };
    }
    let Some(decoded) = decode_path(path) else {
        return not_found(shared, path);
    };
    // New-tab links carry an /o prefix; it leads to the page itself.
    if let Some(rest) =
        decoded
            .strip_prefix("/o/")
            .or(if decoded == "/o" { Some("") } else { None })
    {
        let query = url
            .split_once('?')
            .map(|(_, q)| format!("?{q}"))
            .unwrap_or_default();
        return Reply::redirect(302, format!("/{rest}{query}"));
    }
    match resolve(&shared.out, &decoded) {
        Some(file) => serve_file(&file, 200),
        None => not_found(shared, &decoded),
    }
}

/// Percent-decodes a URL path; `None` for anything that could leave the output folder
/// (`..` segments, encoded or not, backslashes, NUL).
pub fn decode_path(path: &str) -> Option<String> {
    let decoded = crate::markdown::links::percent_decode(path);
    if decoded.contains('\0') || decoded.contains('\\') {
        return None;
    }
    if Path::new(&decoded)
        .components()
        .any(|c| matches!(c, Component::ParentDir))
    {
        return None;
    }
    Some(decoded)
}

/// The file for a URL path: the file itself, or a folder's `index.html`; only inside `out`,
/// symbolic links included.
pub fn resolve(out: &Path, path: &str) -> Option<PathBuf> {
    let rel = path.trim_start_matches('/');
    let mut candidate = out.join(rel);
    if candidate.is_dir() {
        candidate = candidate.join("index.html");
    }
    let real = candidate.canonicalize().ok()?;
    let root = out.canonicalize().ok()?;
    (real.starts_with(&root) && real.is_file()).then_some(real)
}

fn serve_file(file: &Path, status: u16) -> Reply {
    let Ok(bytes) = std::fs::read(file) else {
        return Reply {
            status: 500,
            content_type: "text/plain; charset=utf-8",
            location: None,
            body: b"cannot read the file".to_vec(),
        };
    };
    let content_type = content_type(file);
    let body = if content_type.starts_with("text/html") {
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

/// Unknown paths: the `_redirects` rules first, then the 404 page.
fn not_found(shared: &Shared, path: &str) -> Reply {
    let rules = std::fs::read_to_string(shared.out.join("_redirects")).unwrap_or_default();
    for line in rules.lines() {
        let parts: Vec<&str> = line.split_whitespace().collect();
        let [from, to, status] = parts[..] else {
            continue;
        };
        let splat = if let Some(prefix) = from.strip_suffix("/*") {
            match path.strip_prefix(prefix) {
                Some(rest) if rest.starts_with('/') => Some(rest.trim_start_matches('/')),
                _ => continue,
            }
        } else if from == path {
            None
        } else {
            continue;
        };
        let target = match splat {
            Some(s) => to.replace(":splat", s),
            None => to.to_string(),
        };
        if status == "404" {
            if let Some(file) = resolve(&shared.out, &target) {
                return serve_file(&file, 404);
            }
            continue;
        }
        return Reply::redirect(status.parse().unwrap_or(301), target);
    }
    match resolve(&shared.out, "/404.html") {
        Some(file) => serve_file(&file, 404),
        None => Reply {
            status: 404,
            content_type: "text/plain; charset=utf-8",
            location: None,
            body: b"not found".to_vec(),
        },
    }
}

/// Streams server-sent events to one page until it goes away. Written straight to the socket
/// (each event flushed at once), as a buffered HTTP body would hold them back.
fn live(mut stream: TcpStream, shared: &Arc<Shared>) {
    let (tx, rx) = std::sync::mpsc::channel::<String>();
    // A page opened while the site is broken shows the errors at once.
    if let Some(text) = shared.errors.lock().expect("not poisoned").as_ref() {
        let _ = tx.send(format!(
            "event: errors\ndata: {}\n\n",
            serde_json::json!({ "text": text })
        ));
    }
    shared.listeners.lock().expect("not poisoned").push(tx);
    let head = "HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nCache-Control: no-store\r\nConnection: close\r\n\r\n";
    if stream
        .write_all(head.as_bytes())
        .and_then(|()| stream.flush())
        .is_err()
    {
        return;
    }
    loop {
        let message = match rx.recv_timeout(Duration::from_secs(15)) {
            Ok(m) => m,
            // A comment line keeps the connection alive and finds closed pages.
            Err(RecvTimeoutError::Timeout) => ": ping\n\n".to_string(),
            Err(RecvTimeoutError::Disconnected) => return,
        };
        if stream
            .write_all(message.as_bytes())
            .and_then(|()| stream.flush())
            .is_err()
        {
            return;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn traversal_is_refused_encoded_or_not() {
        assert_eq!(decode_path("/a/b"), Some("/a/b".into()));
        assert_eq!(decode_path("/a%20b"), Some("/a b".into()));
        assert!(decode_path("/../etc/passwd").is_none());
        assert!(decode_path("/a/%2e%2e/%2e%2e/etc/passwd").is_none());
        assert!(decode_path("/a/..%2f..%2fetc").is_none());
        assert!(decode_path("/a%5c..%5csecret").is_none());
    }

    #[test]
    fn the_live_script_is_added_before_the_body_ends() {
        let html =
            String::from_utf8(inject_live(b"<html><body><p>x</p></body></html>".to_vec())).unwrap();
        assert!(html.ends_with("<p>x</p><script src=\"/_docgen/live.js\"></script></body></html>"));
    }
}
