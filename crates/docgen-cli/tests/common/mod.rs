//! Helpers shared by the integration tests.
#![allow(dead_code)]

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// The repository's root: the real site (site.yaml, content/, templates/) and the benchmark tools.
pub fn repo_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

pub fn fixture(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures")
        .join(name)
}

/// Runs this build's docgen binary with `args`, without colour.
pub fn docgen(args: &[&str]) -> std::process::Output {
    std::process::Command::new(env!("CARGO_BIN_EXE_docgen"))
        .args(args)
        .env("NO_COLOR", "1")
        .output()
        .expect("run docgen")
}

/// A rendered diagnostic without its spaces, line breaks and frame: a path the renderer wrapped
/// at its width (a long scratch folder) reads whole again.
pub fn squashed(text: &str) -> String {
    text.chars()
        .filter(|c| !c.is_whitespace() && *c != '│')
        .collect()
}

/// What `docgen check --format json` printed for a site: its exit code, its standard output and
/// the diagnostics, one JSON object per line.
pub struct Checked {
    pub code: Option<i32>,
    pub stdout: String,
    pub diagnostics: Vec<serde_json::Value>,
}

/// Runs `docgen check --format json` over the site at `root`.
pub fn check_json(root: &Path) -> Checked {
    let out = docgen(&[
        "check",
        "--format",
        "json",
        "--root",
        root.to_str().expect("a UTF-8 path"),
    ]);
    let stdout = String::from_utf8(out.stdout).expect("UTF-8 output");
    let diagnostics = stdout
        .lines()
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("not JSON ({e}): {l}")))
        .collect();
    Checked {
        code: out.status.code(),
        stdout,
        diagnostics,
    }
}

/// A new scratch folder holding `files` (path, text).
pub fn write_site(files: &[(&str, String)]) -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    for (path, text) in files {
        let path = dir.path().join(path);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, text).unwrap();
    }
    dir
}

/// Builds the site at `root` into `out` (with `extra` options) on a fixed date and without the
/// repository's git dates, fails the test on any error, and returns the output's files.
pub fn build_site(root: &Path, out: &Path, extra: &[&str]) -> BTreeMap<String, Vec<u8>> {
    let result = std::process::Command::new(env!("CARGO_BIN_EXE_docgen"))
        .args(["build", "--quiet", "--root"])
        .arg(root)
        .arg("--out")
        .arg(out)
        .args(extra)
        .env("SOURCE_DATE_EPOCH", "1767225600")
        .env(
            "GIT_CEILING_DIRECTORIES",
            Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures"),
        )
        .output()
        .expect("run docgen");
    assert!(
        result.status.success(),
        "{}",
        String::from_utf8_lossy(&result.stderr)
    );
    tree(out)
}

/// The article of a page up to its meta line (the "Last updated" date comes from git, so it
/// changes with every commit of the fixture).
pub fn article(html: &str) -> &str {
    let start = html.find("<article").expect("an article");
    let end = html[start..]
        .find("<div class=\"dg-page-meta\">")
        .or_else(|| html[start..].find("</article>"))
        .expect("its end")
        + start;
    &html[start..end]
}

/// Copies a folder tree (a fixture site into a scratch folder the test may edit).
pub fn copy_dir(from: &Path, to: &Path) {
    for e in walkdir::WalkDir::new(from) {
        let e = e.unwrap();
        let target = to.join(e.path().strip_prefix(from).unwrap());
        if e.file_type().is_dir() {
            std::fs::create_dir_all(&target).unwrap();
        } else {
            std::fs::copy(e.path(), &target).unwrap();
        }
    }
}

/// Every file of a folder with its bytes, by relative path with `/` separators.
pub fn tree(dir: &Path) -> BTreeMap<String, Vec<u8>> {
    let mut files = BTreeMap::new();
    for e in walkdir::WalkDir::new(dir).sort_by_file_name() {
        let e = e.unwrap();
        if e.file_type().is_file() {
            let rel = e
                .path()
                .strip_prefix(dir)
                .unwrap()
                .to_string_lossy()
                .replace('\\', "/");
            files.insert(rel, std::fs::read(e.path()).unwrap());
        }
    }
    files
}

/// Sends a request head with one header of about `size` bytes to `127.0.0.1:port`, stopping
/// when the server stops reading; returns what the server answered.
pub fn send_huge_header(port: u16, size: usize) -> String {
    use std::io::{Read, Write};
    let mut s = std::net::TcpStream::connect(("127.0.0.1", port)).unwrap();
    s.set_read_timeout(Some(std::time::Duration::from_secs(10)))
        .unwrap();
    let chunk = vec![b'a'; 64 * 1024];
    let mut sent = 0;
    let mut ok = s.write_all(b"GET / HTTP/1.1\r\nHost: x\r\nX-Big: ").is_ok();
    while ok && sent < size {
        ok = s.write_all(&chunk).is_ok();
        sent += chunk.len();
    }
    let _ = s.write_all(b"\r\n\r\n");
    let _ = s.shutdown(std::net::Shutdown::Write);
    let mut response = Vec::new();
    let _ = s.read_to_end(&mut response);
    String::from_utf8_lossy(&response).into_owned()
}

/// A connection to a preview server's live stream (`/_docgen/live`), its reads bounded by 20 s.
pub fn live_stream(port: u16) -> std::io::BufReader<std::net::TcpStream> {
    use std::io::Write;
    let mut s = std::net::TcpStream::connect(("127.0.0.1", port)).expect("connect");
    s.set_read_timeout(Some(std::time::Duration::from_secs(20)))
        .unwrap();
    write!(s, "GET /_docgen/live HTTP/1.1\r\nHost: localhost\r\n\r\n").unwrap();
    std::io::BufReader::new(s)
}

/// The text of the next `errors` event on a live stream (at once when the site is broken when
/// the stream opens).
pub fn next_errors(reader: &mut impl std::io::BufRead) -> String {
    let data: serde_json::Value = serde_json::from_str(&next_event(reader, "errors")).unwrap();
    data["text"].as_str().expect("the errors' text").to_string()
}

/// Reads server-sent events until one named `event` arrives; returns its data. Fails when it
/// has not come within 20 s (the server pings every 15 s, so a read returns at least that often).
pub fn next_event(reader: &mut impl std::io::BufRead, event: &str) -> String {
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(20);
    let mut current = String::new();
    let mut line = String::new();
    loop {
        assert!(
            std::time::Instant::now() < deadline,
            "no `{event}` event within 20 s"
        );
        line.clear();
        assert!(
            reader.read_line(&mut line).unwrap() > 0,
            "the event stream closed before `{event}`"
        );
        let l = line.trim_end();
        if let Some(name) = l.strip_prefix("event: ") {
            current = name.to_string();
        } else if let Some(data) = l.strip_prefix("data: ")
            && current == event
        {
            return data.to_string();
        }
    }
}

/// This repository's own site, built once for every test process that reads it (nextest runs
/// each test in a process of its own), into a folder under target/ named by a key of the
/// docgen binary and the site's files. The first process builds it under an exclusive lock;
/// each process then holds a shared lock on it while it runs, and a later key removes the
/// folders of earlier keys no process holds.
pub fn built_site() -> &'static Path {
    static OUT: std::sync::OnceLock<(PathBuf, std::fs::File)> = std::sync::OnceLock::new();
    let (out, _held) = OUT.get_or_init(|| {
        let tmp = Path::new(env!("CARGO_TARGET_TMPDIR"));
        let out = tmp.join(format!("site-{:016x}", site_key()));
        let lock = std::fs::File::create(out.with_extension("lock")).expect("create the lock");
        lock.lock().expect("take the site's lock");
        let done = out.with_extension("done");
        if !done.exists() {
            let _ = std::fs::remove_dir_all(&out);
            let result = std::process::Command::new(env!("CARGO_BIN_EXE_docgen"))
                .args(["build", "--quiet", "--root"])
                .arg(repo_root())
                .arg("--out")
                .arg(&out)
                .output()
                .expect("run docgen");
            assert!(
                result.status.success(),
                "the site does not build:\n{}",
                String::from_utf8_lossy(&result.stderr)
            );
            std::fs::write(&done, "").expect("mark the build done");
        }
        remove_unheld_builds(tmp, &out);
        lock.unlock().expect("release the site's lock");
        lock.lock_shared().expect("hold the site's lock");
        (out, lock)
    });
    out
}

/// A key of what the site's build is made from: the docgen binary and the site's files (by
/// size and time).
fn site_key() -> u64 {
    use std::hash::{Hash, Hasher};
    let mut h = std::collections::hash_map::DefaultHasher::new();
    let stamp = |path: &Path, h: &mut std::collections::hash_map::DefaultHasher| {
        if let Ok(m) = std::fs::metadata(path) {
            (path, m.len(), m.modified().ok()).hash(h);
        }
    };
    stamp(Path::new(env!("CARGO_BIN_EXE_docgen")), &mut h);
    let root = repo_root();
    for file in ["site.yaml", "redirects.yaml"] {
        stamp(&root.join(file), &mut h);
    }
    for dir in ["content", "templates", "static"] {
        for entry in walkdir::WalkDir::new(root.join(dir))
            .sort_by_file_name()
            .into_iter()
            .flatten()
        {
            stamp(entry.path(), &mut h);
        }
    }
    h.finish()
}

/// Removes the builds of the site other than `keep` that no test process holds.
fn remove_unheld_builds(tmp: &Path, keep: &Path) {
    let Ok(entries) = std::fs::read_dir(tmp) else {
        return;
    };
    for entry in entries.flatten() {
        let lock_path = entry.path();
        let is_site_lock = lock_path.extension().is_some_and(|e| e == "lock")
            && lock_path
                .file_name()
                .is_some_and(|n| n.to_string_lossy().starts_with("site-"));
        let dir = lock_path.with_extension("");
        if !is_site_lock || dir == keep {
            continue;
        }
        if let Ok(lock) = std::fs::File::open(&lock_path)
            && lock.try_lock().is_ok()
        {
            let _ = std::fs::remove_file(dir.with_extension("done"));
            let _ = std::fs::remove_dir_all(&dir);
            let _ = std::fs::remove_file(&lock_path);
        }
    }
}

/// How many pages a build rendered, from the counts of its summary line
/// (`built … in 1.2s (5 rendered, …)`); the build must have succeeded.
pub fn pages_rendered(run: &std::process::Output) -> usize {
    let said = String::from_utf8_lossy(&run.stderr);
    assert!(run.status.success(), "{said}");
    said.split_once(" in ")
        .and_then(|(_, after)| after.split_once('('))
        .and_then(|(_, counts)| counts.split_once(" rendered"))
        .and_then(|(n, _)| n.parse().ok())
        .unwrap_or_else(|| panic!("no count of pages rendered in {said:?}"))
}

/// A written file as text.
pub fn text(files: &BTreeMap<String, Vec<u8>>, path: &str) -> String {
    String::from_utf8(
        files
            .get(path)
            .unwrap_or_else(|| panic!("{path} was not written"))
            .clone(),
    )
    .unwrap()
}

/// The platforms of this repository's site, in its menu order.
pub const PLATFORMS: [&str; 10] = [
    "android",
    "ios",
    "unity",
    "flutter",
    "react-native",
    "unreal",
    "godot",
    "defold",
    "cordova",
    "adobe-air",
];

/// What is wrong with a `_redirects` file for the hosts that read it: a line that is not
/// `from to status`, a status that is not one of a redirect or a rewrite (Cloudflare Pages
/// accepts only 200, 301, 302, 303, 307 and 308), or a static rule after a dynamic one (a splat
/// or a `:placeholder` in its source; Cloudflare Pages wants the static rules first).
pub fn redirect_rule_problems(text: &str) -> Vec<String> {
    const STATUSES: [&str; 6] = ["200", "301", "302", "303", "307", "308"];
    let mut problems = Vec::new();
    let mut first_dynamic: Option<&str> = None;
    for line in text.lines().filter(|l| !l.trim().is_empty()) {
        let fields: Vec<&str> = line.split_whitespace().collect();
        let [from, _to, status] = fields[..] else {
            problems.push(format!("not `from to status`: {line}"));
            continue;
        };
        if !STATUSES.contains(&status) {
            problems.push(format!("status {status} is not a redirect's: {line}"));
        }
        let dynamic = from.contains('*') || from.split('/').any(|s| s.starts_with(':'));
        match (dynamic, first_dynamic) {
            (true, None) => first_dynamic = Some(line),
            (false, Some(before)) => {
                problems.push(format!("static rule `{line}` after dynamic `{before}`"))
            }
            _ => {}
        }
    }
    problems
}

/// Every `href="#id"` of every HTML file among `files` (path → bytes) whose target `id` is not
/// in that file, as `path: #id`. An empty fragment (the top of the page) needs none.
pub fn missing_fragment_targets(files: &BTreeMap<String, Vec<u8>>) -> Vec<String> {
    let unescape = |s: &str| {
        s.replace("&quot;", "\"")
            .replace("&#39;", "'")
            .replace("&lt;", "<")
            .replace("&gt;", ">")
            .replace("&amp;", "&")
    };
    let values = |html: &str, attr: &str| -> Vec<String> {
        html.split(attr)
            .skip(1)
            .filter_map(|s| s.split('"').next())
            .map(unescape)
            .collect()
    };
    let mut missing = Vec::new();
    for (path, bytes) in files.iter().filter(|(p, _)| p.ends_with(".html")) {
        let html = String::from_utf8_lossy(bytes);
        let ids: std::collections::HashSet<String> = values(&html, " id=\"").into_iter().collect();
        for href in values(&html, " href=\"#") {
            // Browsers match the percent-decoded fragment against the ids.
            let id = docgen::markdown::links::percent_decode(&href);
            if !id.is_empty() && !ids.contains(&id) {
                missing.push(format!("{path}: #{href}"));
            }
        }
    }
    missing
}

pub fn pretty_json(files: &BTreeMap<String, Vec<u8>>, path: &str) -> String {
    let v: serde_json::Value =
        serde_json::from_slice(&files[path]).unwrap_or_else(|e| panic!("{path}: {e}"));
    serde_json::to_string_pretty(&v).unwrap()
}

/// The paths of an output's files without their content hashes, sorted (the hashes change
/// with the app's bundle): a listing for a snapshot.
pub fn listing(files: &BTreeMap<String, Vec<u8>>) -> String {
    let mut listing: Vec<String> = files
        .keys()
        .map(|k| {
            unhash(&format!("/s/{k}"))
                .trim_start_matches("/s/")
                .to_string()
        })
        .collect();
    listing.sort();
    listing.join("\n")
}

/// Hashed asset names change with the app bundle; snapshots name them by their stem.
pub fn unhash(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    let mut rest = s;
    while let Some(i) = rest.find("/s/") {
        out.push_str(&rest[..i + 3]);
        rest = &rest[i + 3..];
        let end = rest
            .find(|c: char| c == '"' || c == '\'' || c == ')' || c.is_whitespace())
            .unwrap_or(rest.len());
        let path = &rest[..end];
        let parts: Vec<&str> = path.split('.').collect();
        if parts.len() >= 3 && parts[parts.len() - 2].len() == 10 {
            out.push_str(&format!(
                "{}.HASH.{}",
                parts[..parts.len() - 2].join("."),
                parts[parts.len() - 1]
            ));
        } else {
            out.push_str(path);
        }
        rest = &rest[end..];
    }
    out.push_str(rest);
    out
}
