//! The preview server: the output folder as a CDN would serve it (`_redirects`, the `/o/...`
//! new-tab prefix, `404.html`), never a file outside it, plus the live-reload channel.

use std::io::Write;
use std::path::{Component, Path, PathBuf};
use std::sync::mpsc::{RecvTimeoutError, Sender};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use tiny_http::{Header, Request, Response, Server, StatusCode};

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

/// Starts the worker threads; returns the address actually bound.
pub fn start(host: &str, port: u16, shared: Arc<Shared>) -> std::io::Result<std::net::SocketAddr> {
    let server = Server::http((host, port)).map_err(|e| std::io::Error::other(e.to_string()))?;
    let addr = server
        .server_addr()
        .to_ip()
        .ok_or_else(|| std::io::Error::other("not an IP address"))?;
    let server = Arc::new(server);
    for _ in 0..4 {
        let (server, shared) = (server.clone(), shared.clone());
        std::thread::spawn(move || {
            while let Ok(request) = server.recv() {
                handle(request, &shared);
            }
        });
    }
    Ok(addr)
}

fn header(name: &str, value: &str) -> Header {
    Header::from_bytes(name.as_bytes(), value.as_bytes()).expect("valid header")
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

fn handle(request: Request, shared: &Arc<Shared>) {
    let url = request.url().to_string();
    let path = url.split(['?', '#']).next().unwrap_or("/").to_string();
    match path.as_str() {
        "/_docgen/live" => return live(request, shared),
        "/_docgen/live.js" => {
            let _ = request.respond(
                Response::from_string(LIVE_JS)
                    .with_header(header("Content-Type", "text/javascript; charset=utf-8")),
            );
            return;
        }
        _ => {}
    }
    let Some(decoded) = decode_path(&path) else {
        return not_found(request, shared, &path);
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
        let _ = request.respond(
            Response::empty(302).with_header(header("Location", &format!("/{rest}{query}"))),
        );
        return;
    }
    match resolve(&shared.out, &decoded) {
        Some(file) => serve_file(request, shared, &file, 200),
        None => not_found(request, shared, &decoded),
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

fn serve_file(request: Request, shared: &Shared, file: &Path, status: u16) {
    let Ok(bytes) = std::fs::read(file) else {
        let _ = request.respond(Response::empty(500));
        return;
    };
    let ctype = content_type(file);
    let body = if ctype.starts_with("text/html") {
        inject_live(bytes)
    } else {
        bytes
    };
    let _ = shared; // the overlay is fetched by the live script itself
    let _ = request.respond(
        Response::from_data(body)
            .with_status_code(StatusCode(status))
            .with_header(header("Content-Type", ctype))
            .with_header(header("Cache-Control", "no-store")),
    );
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
fn not_found(request: Request, shared: &Shared, path: &str) {
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
                return serve_file(request, shared, &file, 404);
            }
            continue;
        }
        let code: u16 = status.parse().unwrap_or(301);
        let _ = request.respond(Response::empty(code).with_header(header("Location", &target)));
        return;
    }
    match resolve(&shared.out, "/404.html") {
        Some(file) => serve_file(request, shared, &file, 404),
        None => {
            let _ = request.respond(Response::from_string("not found").with_status_code(404));
        }
    }
}

/// Streams server-sent events to one page until it goes away. Written straight to the socket
/// (each event flushed at once), as a buffered HTTP body would hold them back.
fn live(request: Request, shared: &Arc<Shared>) {
    let (tx, rx) = std::sync::mpsc::channel::<String>();
    // A page opened while the site is broken shows the errors at once.
    if let Some(text) = shared.errors.lock().expect("not poisoned").as_ref() {
        let _ = tx.send(format!(
            "event: errors\ndata: {}\n\n",
            serde_json::json!({ "text": text })
        ));
    }
    shared.listeners.lock().expect("not poisoned").push(tx);
    std::thread::spawn(move || {
        let mut stream = request.into_writer();
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
    });
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
