//! The preview server's HTTP layer, started in-process over a prepared output folder: hostile
//! URLs and requests, connection limits, content types and the live-reload stream.

use crate::common;

use std::io::{BufRead, BufReader, ErrorKind, Read, Write};
use std::net::TcpStream;
use std::sync::Arc;
use std::time::{Duration, Instant};

use common::send_huge_header;
use docgen::serve::http::{self, Shared};

struct Site {
    _tmp: tempfile::TempDir,
    shared: Arc<Shared>,
    port: u16,
}

/// A `_headers` as docgen writes it, and a rule of the kind a writer might add.
const HEADERS: &str = "# comment\n/*\n  Content-Security-Policy: default-src 'self'; script-src 'self' 'sha256-abc='\n  X-Content-Type-Options: nosniff\n/s/*\n  Cache-Control: public, max-age=31536000, immutable\n/docs/*\n\tX-Frame-Options: DENY\n  Referrer-Policy: no-referrer\n";

/// An output folder with one file of each kind, served as after a good build.
fn site() -> Site {
    let tmp = tempfile::tempdir().unwrap();
    let out = tmp.path().join("out");
    let files = [
        ("index.html", "<html><body><p>home</p></body></html>"),
        (
            "docs/guide/start/index.html",
            "<html><body><p>start</p></body></html>",
        ),
        (
            "404.html",
            "<html><body><p>Page not found</p></body></html>",
        ),
        ("secret/index.html", "<html><body>top secret</body></html>"),
        ("s/app.js", "console.log(1)"),
        ("s/app.css", "body{}"),
        ("s/logo.svg", "<svg xmlns=\"http://www.w3.org/2000/svg\"/>"),
        ("data.json", "{}"),
        ("api/v1/platforms", "{\"platforms\":[]}"),
        ("_redirects", "/old/* /docs 301\n/blog/* /news/:splat 302\n"),
        ("_headers", HEADERS),
    ];
    for (path, text) in files {
        let file = out.join(path);
        std::fs::create_dir_all(file.parent().unwrap()).unwrap();
        std::fs::write(file, text).unwrap();
    }
    std::fs::write(tmp.path().join("outside.txt"), "outside the output").unwrap();
    std::fs::create_dir_all(tmp.path().join("outside-dir")).unwrap();
    std::fs::write(tmp.path().join("outside-dir/x.txt"), "outside the output").unwrap();
    #[cfg(unix)]
    {
        use std::os::unix::fs::symlink;
        symlink(tmp.path().join("outside.txt"), out.join("leak")).unwrap();
        symlink(tmp.path().join("outside-dir"), out.join("docs/more")).unwrap();
        // A link is refused even when it stays inside the output.
        symlink(out.join("data.json"), out.join("alias.json")).unwrap();
    }
    let shared = Arc::new(Shared::new(out.canonicalize().unwrap()));
    shared.mark_built();
    let port = http::start("127.0.0.1", 0, shared.clone()).unwrap().port();
    Site {
        _tmp: tmp,
        shared,
        port,
    }
}

/// A response as it came over the wire.
struct Raw {
    status: u16,
    head: String,
    body: String,
}

impl Raw {
    fn parse(text: &str) -> Raw {
        let (head, body) = text.split_once("\r\n\r\n").unwrap_or((text, ""));
        let status = head.get(9..12).and_then(|s| s.parse().ok()).unwrap_or(0);
        Raw {
            status,
            head: head.to_string(),
            body: body.to_string(),
        }
    }

    /// A header's value (names are case-insensitive).
    fn header(&self, name: &str) -> Option<String> {
        self.head.lines().skip(1).find_map(|line| {
            let (n, v) = line.split_once(':')?;
            n.eq_ignore_ascii_case(name).then(|| v.trim().to_string())
        })
    }
}

fn connect(port: u16) -> TcpStream {
    let s = TcpStream::connect(("127.0.0.1", port)).unwrap();
    s.set_read_timeout(Some(Duration::from_secs(10))).unwrap();
    s
}

/// Sends `request` as raw bytes and reads until the server closes (or 10 s pass).
fn exchange(port: u16, request: &[u8]) -> String {
    let mut s = connect(port);
    s.write_all(request).unwrap();
    read_all(&mut s)
}

fn read_all(s: &mut TcpStream) -> String {
    let mut bytes = Vec::new();
    let mut buf = [0u8; 8192];
    loop {
        match s.read(&mut buf) {
            Ok(0) => break,
            Ok(n) => bytes.extend_from_slice(&buf[..n]),
            Err(e) if e.kind() == ErrorKind::ConnectionReset => break,
            Err(e) => panic!("reading the response: {e}"),
        }
    }
    String::from_utf8_lossy(&bytes).into_owned()
}

/// A GET of `target`, sent exactly as given.
fn get(port: u16, target: &str) -> Raw {
    let request = format!("GET {target} HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n");
    Raw::parse(&exchange(port, request.as_bytes()))
}

/// A `Location` that a browser resolves on this site: one `/`, then neither `/` nor `\`.
fn is_same_site(location: &str) -> bool {
    location.starts_with('/') && !matches!(location.as_bytes().get(1), Some(b'/' | b'\\'))
}

#[test]
fn new_tab_addresses_redirect_only_to_this_site() {
    let site = site();
    let r = get(site.port, "/o/docs/guide/start?x=1");
    assert_eq!(r.status, 302);
    assert_eq!(r.header("location").unwrap(), "/docs/guide/start?x=1");
    for attack in [
        "/o//evil.example/x",
        "/o/%2Fevil.example/x",
        "/o/%2F%2Fevil.example",
        "/o/%5Cevil.example",
        "/o/\\evil.example",
        "/o/%5C%5Cevil.example",
        "/o/%09/evil.example",
        "/o/http://evil.example",
        "/o/http:%2F%2Fevil.example",
    ] {
        let r = get(site.port, attack);
        match r.header("location") {
            Some(location) => assert!(is_same_site(&location), "{attack} -> {location}"),
            None => assert!(r.status == 404 || r.status == 400, "{attack}: {}", r.status),
        }
        if r.status == 404 {
            assert!(r.body.contains("Page not found"), "{attack}: {}", r.body);
        }
    }
}

#[test]
fn no_header_or_body_is_built_from_a_url() {
    let site = site();
    for attack in [
        "/o/%0D%0ASet-Cookie:%20pwned=1",
        "/o/x%0D%0A%0D%0Ainjected-body",
        "/blog/%0D%0ASet-Cookie:%20pwned=1",
        "/blog/x%0D%0A%0D%0Ainjected-body",
    ] {
        let r = get(site.port, attack);
        assert!(r.header("set-cookie").is_none(), "{attack}:\n{}", r.head);
        assert!(!r.head.contains("pwned\r\n"), "{attack}:\n{}", r.head);
        assert!(!r.body.starts_with("injected-body"), "{attack}: {}", r.body);
        if let Some(location) = r.header("location") {
            assert!(is_same_site(&location), "{attack} -> {location}");
            assert!(!location.contains('\r') && !location.contains('\n'));
        }
    }
    let r = get(site.port, "/blog/a%20b%0D%0Ac");
    assert_eq!(r.status, 302);
    assert_eq!(r.header("location").unwrap(), "/news/a%20b%0D%0Ac");
}

#[test]
fn nothing_outside_the_output_is_served() {
    let site = site();
    for attack in [
        "/../outside.txt",
        "/%2e%2e/outside.txt",
        "/docs/..%2f..%2foutside.txt",
        "/%5c..%5coutside.txt",
        "/leak",
        "/docs/more/x.txt",
        "/docs/more/",
        "/alias.json",
    ] {
        let r = get(site.port, attack);
        assert_eq!(r.status, 404, "{attack}");
        assert!(!r.body.contains("outside the output"), "{attack}");
    }
}

#[test]
fn files_have_their_content_types_and_are_never_cached() {
    let site = site();
    for (path, content_type) in [
        ("/docs/guide/start", "text/html; charset=utf-8"),
        ("/s/app.js", "text/javascript; charset=utf-8"),
        ("/s/app.css", "text/css; charset=utf-8"),
        ("/s/logo.svg", "image/svg+xml"),
        ("/data.json", "application/json"),
        ("/api/v1/platforms", "application/json"),
        ("/_docgen/live.js", "text/javascript; charset=utf-8"),
    ] {
        let r = get(site.port, path);
        assert_eq!(r.status, 200, "{path}");
        assert_eq!(r.header("content-type").unwrap(), content_type, "{path}");
        assert_eq!(r.header("cache-control").unwrap(), "no-store", "{path}");
    }
    let page = get(site.port, "/docs/guide/start/");
    assert!(
        page.body
            .ends_with("<p>start</p><script src=\"/_docgen/live.js\"></script></body></html>")
    );
    let missing = get(site.port, "/nowhere");
    assert_eq!(missing.status, 404);
    assert!(missing.body.contains("Page not found"));
    assert_eq!(missing.header("cache-control").unwrap(), "no-store");
    let head = exchange(
        site.port,
        b"HEAD /data.json HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n",
    );
    assert!(
        head.starts_with("HTTP/1.1 200") && head.ends_with("\r\n\r\n"),
        "{head}"
    );
}

#[test]
fn other_methods_get_405_and_a_body_is_never_read_as_a_request() {
    let site = site();
    let smuggled = "GET /secret HTTP/1.1\r\nHost: x\r\n\r\n";
    let chunked = format!("{:x}\r\n{smuggled}\r\n0\r\n\r\n", smuggled.len());
    for (framing, body) in [
        (
            format!("Content-Length: {}", smuggled.len()),
            smuggled.to_string(),
        ),
        ("Transfer-Encoding: chunked".to_string(), chunked),
    ] {
        let mut s = connect(site.port);
        write!(
            s,
            "POST /docs HTTP/1.1\r\nHost: x\r\n{framing}\r\n\r\n{body}"
        )
        .unwrap();
        // A last request closes the connection, so everything answered can be read.
        let _ = write!(
            s,
            "GET /data.json HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n"
        );
        let text = read_all(&mut s);
        let first = Raw::parse(&text);
        assert_eq!(first.status, 405, "{text}");
        assert_eq!(first.header("allow").unwrap(), "GET, HEAD");
        assert!(!text.contains("top secret"), "{framing}: {text}");
        assert!(text.matches("HTTP/1.1 ").count() <= 2, "{framing}: {text}");
    }
    for method in ["PUT", "DELETE", "OPTIONS"] {
        let request = format!("{method} / HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n");
        let r = Raw::parse(&exchange(site.port, request.as_bytes()));
        assert_eq!(r.status, 405, "{method}");
        assert_eq!(r.header("allow").unwrap(), "GET, HEAD", "{method}");
    }
}

#[test]
fn an_oversized_request_head_is_refused_and_the_server_goes_on() {
    let site = site();
    let response = send_huge_header(site.port, 1024 * 1024);
    assert!(
        response.is_empty() || response.starts_with("HTTP/1.1 431"),
        "{response}"
    );
    assert_eq!(get(site.port, "/data.json").status, 200);
}

#[test]
fn idle_connections_do_not_lock_out_a_new_one() {
    let site = site();
    let idle: Vec<TcpStream> = (0..300).map(|_| connect(site.port)).collect();
    std::thread::sleep(Duration::from_millis(300));
    let started = Instant::now();
    let r = get(site.port, "/data.json");
    assert_eq!(r.status, 200);
    assert!(
        started.elapsed() < Duration::from_secs(3),
        "answered after {:?}",
        started.elapsed()
    );
    drop(idle);
}

fn open_event_stream(port: u16) -> BufReader<TcpStream> {
    let mut s = connect(port);
    write!(s, "GET /_docgen/live HTTP/1.1\r\nHost: x\r\n\r\n").unwrap();
    let mut reader = BufReader::new(s);
    let mut line = String::new();
    reader.read_line(&mut line).unwrap();
    assert!(line.starts_with("HTTP/1.1 200"), "{line}");
    let mut head = String::new();
    while line.trim_end() != "" {
        line.clear();
        reader.read_line(&mut line).unwrap();
        head.push_str(&line);
    }
    assert!(
        head.to_ascii_lowercase()
            .contains("content-type: text/event-stream"),
        "{head}"
    );
    reader
}

#[test]
fn the_event_stream_sends_the_current_errors_then_each_broadcast() {
    let site = site();
    *site.shared.errors.lock().unwrap() = Some("a <broken> page".into());
    let mut reader = open_event_stream(site.port);
    assert_eq!(common::next_errors(&mut reader), "a <broken> page");
    site.shared.broadcast("reload", "{}");
    assert_eq!(common::next_event(&mut reader, "reload"), "{}");
}

#[test]
fn without_a_good_build_pages_show_the_diagnostics() {
    let site = site();
    let shared = Arc::new(Shared::new(site.shared.out.clone()));
    *shared.errors.lock().unwrap() = Some("content/a.md:1:1 <oops> & more".into());
    let port = http::start("127.0.0.1", 0, shared.clone()).unwrap().port();
    for page in ["/", "/docs/guide/start", "/nowhere/index.html"] {
        let r = get(port, page);
        assert_eq!(r.status, 503, "{page}");
        assert!(r.header("content-type").unwrap().starts_with("text/html"));
        assert!(
            r.body
                .contains("<pre>content/a.md:1:1 &lt;oops&gt; &amp; more</pre>")
        );
        assert!(
            r.body
                .contains("<script src=\"/_docgen/live.js\"></script>")
        );
    }
    assert_eq!(
        get(port, "/s/app.css").status,
        200,
        "assets are served as they are"
    );
    assert_eq!(get(port, "/_docgen/live.js").status, 200);
    shared.mark_built();
    assert_eq!(get(port, "/docs/guide/start").status, 200);
}

#[test]
fn the_404_page_leads_new_tab_addresses_to_this_site_only() {
    let tmp = tempfile::tempdir().unwrap();
    let opts = docgen::BuildOptions {
        root: common::fixture("small-site"),
        out: Some(tmp.path().join("out")),
        force: false,
        overrides: Default::default(),
        extensions: Default::default(),
    };
    docgen::build(&opts, &docgen::Silent).unwrap_or_else(|e| panic!("{:?}", e.into_sorted()));
    let page = std::fs::read_to_string(tmp.path().join("out/404.html")).unwrap();
    // The path after `/o` is decoded, then must be one `/` and neither `/` nor `\` next.
    let guard = r#"if (!/^\/(?![\/\\])[^\x00-\x1f\x7f]*$/.test(decodeURIComponent(rest))) return;"#;
    let guard_at = page.find(guard).expect("the same-site guard");
    let replace_at = page.find("location.replace(base + rest").unwrap();
    assert!(guard_at < replace_at, "the guard runs before the redirect");
    assert_eq!(page.matches("location.replace(").count(), 1);
    // The CDN's rules for /o/ put a fixed first segment before the splat, never `/:splat`.
    let redirects = std::fs::read_to_string(tmp.path().join("out/_redirects")).unwrap();
    for rule in redirects.lines().filter(|l| l.starts_with("/o/")) {
        let to = rule.split_whitespace().nth(1).unwrap();
        let first = to.trim_start_matches('/').split('/').next().unwrap();
        assert!(
            !first.is_empty() && !first.starts_with(':') && !to.starts_with("//"),
            "{rule}"
        );
    }
    assert!(
        redirects.contains("/o/docs/* /docs/:splat 302"),
        "{redirects}"
    );
}

#[test]
fn the_headers_file_is_applied_to_every_response_but_caching() {
    let site = site();
    let csp = "default-src 'self'; script-src 'self' 'sha256-abc='";
    for target in [
        "/",
        "/docs/guide/start/",
        "/s/app.js",
        "/nowhere",
        "/api/v1/platforms",
    ] {
        let r = get(site.port, target);
        assert_eq!(
            r.header("content-security-policy").as_deref(),
            Some(csp),
            "{target}"
        );
        assert_eq!(
            r.header("x-content-type-options").as_deref(),
            Some("nosniff"),
            "{target}"
        );
        // The preview never lets a browser cache, whatever the CDN rules say.
        assert_eq!(
            r.header("cache-control").as_deref(),
            Some("no-store"),
            "{target}"
        );
        let docs = target.starts_with("/docs/");
        assert_eq!(r.header("x-frame-options").is_some(), docs, "{target}");
        assert_eq!(r.header("referrer-policy").is_some(), docs, "{target}");
    }
    // Without a `_headers`, no such header.
    std::fs::remove_file(site.shared.out.join("_headers")).unwrap();
    assert_eq!(get(site.port, "/").header("content-security-policy"), None);
}

/// A request with extra header lines, read to the end.
fn get_with(port: u16, method: &str, target: &str, headers: &str) -> Raw {
    let request =
        format!("{method} {target} HTTP/1.1\r\nHost: x\r\n{headers}Connection: close\r\n\r\n");
    Raw::parse(&exchange(port, request.as_bytes()))
}

#[test]
fn ranges_of_a_file_are_answered_206_and_416() {
    let site = site();
    let text: String = (0..1000)
        .map(|i| char::from(b'a' + (i % 26) as u8))
        .collect();
    std::fs::write(site.shared.out.join("s/letters.txt"), &text).unwrap();
    let whole = get(site.port, "/s/letters.txt");
    assert_eq!(whole.status, 200);
    assert_eq!(whole.header("accept-ranges").as_deref(), Some("bytes"));
    assert_eq!(whole.header("content-length").as_deref(), Some("1000"));
    assert_eq!(whole.body, text);
    let etag = whole.header("etag").unwrap();
    for (range, status, content_range, body) in [
        ("bytes=10-19", 206, "bytes 10-19/1000", &text[10..20]),
        ("bytes=990-", 206, "bytes 990-999/1000", &text[990..]),
        ("bytes=-5", 206, "bytes 995-999/1000", &text[995..]),
        ("bytes=900-5000", 206, "bytes 900-999/1000", &text[900..]),
        ("bytes=1000-", 416, "bytes */1000", ""),
        ("bytes=-0", 416, "bytes */1000", ""),
    ] {
        let r = get_with(
            site.port,
            "GET",
            "/s/letters.txt",
            &format!("Range: {range}\r\n"),
        );
        assert_eq!(r.status, status, "{range}");
        assert_eq!(
            r.header("content-range").as_deref(),
            Some(content_range),
            "{range}"
        );
        assert_eq!(r.body, body, "{range}");
        let length = body.len().to_string();
        assert_eq!(
            r.header("content-length").as_deref(),
            Some(length.as_str()),
            "{range}"
        );
        // HEAD: the same status and headers, no body.
        let head = get_with(
            site.port,
            "HEAD",
            "/s/letters.txt",
            &format!("Range: {range}\r\n"),
        );
        assert_eq!(head.status, status, "HEAD {range}");
        assert_eq!(head.header("content-range").as_deref(), Some(content_range));
        assert_eq!(
            head.header("content-length").as_deref(),
            Some(length.as_str())
        );
        assert_eq!(head.body, "", "HEAD {range}");
    }
    // Several ranges, or a range with a stale If-Range, get the whole file.
    for headers in [
        "Range: bytes=0-1,5-6\r\n".to_string(),
        "Range: bytes=0-1\r\nIf-Range: \"stale\"\r\n".to_string(),
    ] {
        let r = get_with(site.port, "GET", "/s/letters.txt", &headers);
        assert_eq!((r.status, r.body.len()), (200, 1000), "{headers}");
    }
    let fresh = format!("Range: bytes=0-1\r\nIf-Range: {etag}\r\n");
    let r = get_with(site.port, "GET", "/s/letters.txt", &fresh);
    assert_eq!((r.status, r.body.as_str()), (206, "ab"));
    // A page's range counts the live-reload tag it is sent with.
    let page = get(site.port, "/docs/guide/start/");
    let r = get_with(
        site.port,
        "GET",
        "/docs/guide/start/",
        "Range: bytes=-20\r\n",
    );
    assert_eq!(r.status, 206);
    assert_eq!(r.body, page.body[page.body.len() - 20..]);
}

#[test]
fn a_large_file_is_streamed_to_a_slow_reader_byte_for_byte() {
    let site = site();
    let size = 64 * 1024 * 1024;
    let bytes: Vec<u8> = (0..size).map(|i| (i % 251) as u8).collect();
    std::fs::write(site.shared.out.join("s/big.bin"), &bytes).unwrap();
    let readers: Vec<_> = (0..2)
        .map(|_| {
            let port = site.port;
            std::thread::spawn(move || {
                let mut s = connect(port);
                write!(
                    s,
                    "GET /s/big.bin HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n"
                )
                .unwrap();
                let mut got = Vec::with_capacity(size + 1024);
                let mut buf = [0u8; 64 * 1024];
                let mut reads = 0;
                loop {
                    match s.read(&mut buf) {
                        Ok(0) => break,
                        Ok(n) => got.extend_from_slice(&buf[..n]),
                        Err(e) => panic!("reading: {e}"),
                    }
                    reads += 1;
                    // A slow reader: the server waits on it rather than reading ahead.
                    if reads % 64 == 0 {
                        std::thread::sleep(Duration::from_millis(5));
                    }
                }
                got
            })
        })
        .collect();
    for reader in readers {
        let got = reader.join().unwrap();
        let at = got.windows(4).position(|w| w == b"\r\n\r\n").unwrap() + 4;
        let head = String::from_utf8_lossy(&got[..at]);
        assert!(head.starts_with("HTTP/1.1 200"), "{head}");
        assert!(
            head.to_ascii_lowercase()
                .contains(&format!("content-length: {size}")),
            "{head}"
        );
        assert!(got[at..] == bytes[..], "the streamed bytes differ");
    }
}

#[test]
fn a_flood_of_event_streams_from_one_client_ends_its_oldest_and_locks_nobody_out() {
    let site = site();
    let flood: Vec<TcpStream> = (0..300)
        .map(|_| {
            let mut s = connect(site.port);
            write!(s, "GET /_docgen/live HTTP/1.1\r\nHost: x\r\n\r\n").unwrap();
            s
        })
        .collect();
    let started = Instant::now();
    let r = get(site.port, "/data.json");
    assert_eq!(r.status, 200);
    assert!(
        started.elapsed() < Duration::from_secs(3),
        "answered after {:?}",
        started.elapsed()
    );
    // The oldest streams were told they ended, and closed; the newest are still open.
    let mut oldest = flood.into_iter().next().unwrap();
    let text = read_all(&mut oldest);
    assert!(text.contains("event: ended"), "{text}");
    let mut fresh = open_event_stream(site.port);
    site.shared.broadcast("reload", "{}");
    assert_eq!(common::next_event(&mut fresh, "reload"), "{}");
}

#[test]
fn heads_sent_byte_by_byte_do_not_lock_out_other_clients() {
    let site = site();
    let port = site.port;
    let done = Arc::new(std::sync::atomic::AtomicBool::new(false));
    let slow = {
        let done = done.clone();
        std::thread::spawn(move || {
            let mut slow: Vec<TcpStream> = (0..300)
                .filter_map(|_| TcpStream::connect(("127.0.0.1", port)).ok())
                .collect();
            let head = b"GET / HTTP/1.1\r\nHost: x\r\nX-Slow: ";
            let mut i = 0;
            while !done.load(std::sync::atomic::Ordering::Relaxed) {
                let byte = head.get(i).copied().unwrap_or(b'a');
                // A closed one is left alone; one that reconnects is another connection.
                slow.retain_mut(|s| s.write_all(&[byte]).is_ok());
                i += 1;
                std::thread::sleep(Duration::from_millis(100));
            }
            slow.len()
        })
    };
    std::thread::sleep(Duration::from_millis(1500));
    for _ in 0..3 {
        let started = Instant::now();
        let r = get(port, "/data.json");
        assert_eq!(r.status, 200);
        assert!(
            started.elapsed() < Duration::from_secs(3),
            "answered after {:?}",
            started.elapsed()
        );
    }
    done.store(true, std::sync::atomic::Ordering::Relaxed);
    slow.join().unwrap();
}

#[test]
fn a_request_waits_while_a_rebuild_applies_its_files() {
    let site = site();
    let gate = site.shared.apply_gate().clone();
    let applying = gate.write().unwrap();
    let port = site.port;
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || tx.send(get(port, "/data.json")).unwrap());
    // Not answered while the files are half in place...
    assert!(rx.recv_timeout(Duration::from_millis(300)).is_err());
    std::fs::write(site.shared.out.join("data.json"), "{\"new\":1}").unwrap();
    drop(applying);
    // ...and then answered from the files as the rebuild left them.
    let r = rx.recv_timeout(Duration::from_secs(5)).unwrap();
    assert_eq!((r.status, r.body.as_str()), (200, "{\"new\":1}"));
}
