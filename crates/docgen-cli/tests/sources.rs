//! Every source outside `content/` — the writer's templates, `static/`, `site.yaml`,
//! `redirects.yaml` — is read by the rules of the content: nothing outside the site through a
//! link, regular files only, text sources capped in size, UTF-8 without NUL. A refused file is
//! an error naming it, its contents are never printed, and the last output stays as it was.
//! The values written into `_headers` and `_redirects` are validated where they are written.

use crate::common;

use common::{copy_dir, fixture, tree};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

/// A value in docgen's environment that no output or message may show.
const SECRET: &str = "sentinel-secret-8c1f2e";

/// A copy of the small site, built once into `out`, beside a folder of private files.
struct Scratch {
    _tmp: tempfile::TempDir,
    site: PathBuf,
    out: PathBuf,
    private: PathBuf,
}

impl Scratch {
    fn new() -> Self {
        let tmp = tempfile::tempdir().unwrap();
        let site = tmp.path().join("site");
        copy_dir(&fixture("small-site"), &site);
        std::fs::create_dir_all(site.join("templates")).unwrap();
        let private = tmp.path().join("private");
        std::fs::create_dir_all(&private).unwrap();
        std::fs::write(private.join("secret.txt"), SECRET).unwrap();
        std::fs::write(private.join("site.yaml"), format!("title: {SECRET}\n")).unwrap();
        let out = tmp.path().join("dist");
        let s = Scratch {
            _tmp: tmp,
            site,
            out,
            private,
        };
        let first = s.build(&[]);
        assert!(first.status.success(), "{}", stderr(&first));
        s
    }

    /// `docgen build` of the site into `out`, as JSON lines, with the secret in its
    /// environment; it must end within 60 s (a FIFO read would hang it).
    fn build(&self, extra: &[&str]) -> Output {
        self.run("build", extra, "json")
    }

    fn run(&self, command: &str, extra: &[&str], format: &str) -> Output {
        let mut cmd = Command::new(env!("CARGO_BIN_EXE_docgen"));
        cmd.args([command, "--format", format, "--root"])
            .arg(&self.site);
        if command == "build" {
            cmd.arg("--quiet").arg("--out").arg(&self.out);
        }
        let child = cmd
            .args(extra)
            .env("NO_COLOR", "1")
            .env("DOCGEN_TEST_SECRET", SECRET)
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("run docgen");
        let started = Instant::now();
        let id = child.id();
        let waiter = std::thread::spawn(move || child.wait_with_output().unwrap());
        while !waiter.is_finished() {
            if started.elapsed() > Duration::from_secs(60) {
                let _ = Command::new("kill").arg("-9").arg(id.to_string()).status();
                panic!("docgen did not finish within 60 s");
            }
            std::thread::sleep(Duration::from_millis(20));
        }
        let out = waiter.join().unwrap();
        let all = format!("{}{}", stdout(&out), stderr(&out));
        assert!(!all.contains(SECRET), "a refused file was printed: {all}");
        out
    }

    fn path(&self, rel: &str) -> PathBuf {
        self.site.join(rel)
    }

    fn output(&self) -> BTreeMap<String, Vec<u8>> {
        tree(&self.out)
    }

    /// Replaces `rel` of the site with a symbolic link to `target`.
    #[cfg(unix)]
    fn link(&self, rel: &str, target: &Path) {
        let path = self.path(rel);
        if let Ok(m) = std::fs::symlink_metadata(&path) {
            if m.is_dir() {
                std::fs::remove_dir_all(&path).unwrap();
            } else {
                std::fs::remove_file(&path).unwrap();
            }
        }
        std::os::unix::fs::symlink(target, &path).unwrap();
    }
}

fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

/// The diagnostics of a JSON run.
fn diagnostics(o: &Output) -> Vec<serde_json::Value> {
    stdout(o)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("{e}: {l}")))
        .collect()
}

/// Asserts the run failed with `exit`, with a diagnostic `code` on `file`, which the message
/// names too; returns that diagnostic.
fn assert_refused(o: &Output, exit: i32, code: &str, file: &str) -> serde_json::Value {
    assert_eq!(o.status.code(), Some(exit), "{}{}", stdout(o), stderr(o));
    let all = diagnostics(o);
    let found = all
        .iter()
        .find(|d| d["code"] == code && d["file"] == file)
        .unwrap_or_else(|| panic!("no {code} on {file} in {all:#?}"))
        .clone();
    assert!(
        found["message"].as_str().unwrap().contains(file),
        "the message names the file: {found}"
    );
    assert!(found["hint"].as_str().is_some_and(|h| !h.is_empty()));
    found
}

#[cfg(unix)]
#[test]
fn a_template_linked_outside_the_site_is_refused_and_never_printed() {
    let s = Scratch::new();
    let before = s.output();
    std::fs::write(s.private.join("page.html"), SECRET).unwrap();
    for (template, target) in [
        (
            "templates/not_found.html",
            PathBuf::from("/proc/self/environ"),
        ),
        ("templates/base.html", PathBuf::from("/dev/zero")),
        ("templates/page.html", s.private.join("page.html")),
    ] {
        s.link(template, &target);
        let o = s.build(&[]);
        let d = assert_refused(&o, 1, "source.outside", template);
        assert!(
            d["message"]
                .as_str()
                .unwrap()
                .contains(&target.display().to_string()),
            "{d}"
        );
        // The human format shows no excerpt of it either (checked for the secret by `run`).
        let human = s.run("check", &[], "human");
        assert_eq!(human.status.code(), Some(1));
        assert!(stderr(&human).contains(template), "{}", stderr(&human));
        std::fs::remove_file(s.path(template)).unwrap();
    }
    assert_eq!(s.output(), before, "the last output is untouched");
}

#[cfg(unix)]
#[test]
fn a_template_linked_inside_the_site_is_read() {
    let s = Scratch::new();
    std::fs::write(
        s.path("my-404.html"),
        "{% extends \"base.html\" %}{% block body %}<p>custom-not-found</p>{% endblock %}",
    )
    .unwrap();
    s.link("templates/not_found.html", &s.path("my-404.html"));
    let o = s.build(&[]);
    assert!(o.status.success(), "{}", stdout(&o));
    let page = String::from_utf8(s.output()["404.html"].clone()).unwrap();
    assert!(page.contains("custom-not-found"), "{page}");
}

#[cfg(unix)]
#[test]
fn static_linked_outside_the_site_is_refused() {
    let s = Scratch::new();
    let before = s.output();
    std::fs::write(s.private.join("logo.svg"), "<svg/>").unwrap();
    std::fs::create_dir_all(s.private.join("icons")).unwrap();
    std::fs::write(s.private.join("icons/choices.svg"), "<svg/>").unwrap();
    s.link("static", &s.private);
    let o = s.build(&[]);
    assert_refused(&o, 1, "source.outside", "static");
    assert_eq!(s.output(), before);

    // A file inside static/ linked out is refused the same way.
    let s = Scratch::new();
    s.link("static/notes.txt", &s.private.join("secret.txt"));
    let o = s.build(&[]);
    assert_refused(&o, 1, "source.outside", "static/notes.txt");
}

#[cfg(unix)]
#[test]
fn site_yaml_linked_outside_the_site_is_refused() {
    let s = Scratch::new();
    let before = s.output();
    s.link("site.yaml", &s.private.join("site.yaml"));
    let o = s.build(&[]);
    assert_refused(&o, 1, "source.outside", "site.yaml");
    assert_eq!(s.output(), before);
}

#[cfg(unix)]
#[test]
fn redirects_yaml_linked_outside_the_site_is_refused() {
    let s = Scratch::new();
    let before = s.output();
    std::fs::copy(s.path("redirects.yaml"), s.private.join("redirects.yaml")).unwrap();
    s.link("redirects.yaml", &s.private.join("redirects.yaml"));
    let o = s.build(&[]);
    assert_refused(&o, 1, "source.outside", "redirects.yaml");
    assert_eq!(s.output(), before);
}

#[cfg(unix)]
#[test]
fn a_fifo_is_refused_without_waiting_for_it() {
    for rel in ["templates/page.html", "static/pipe.svg", "redirects.yaml"] {
        let s = Scratch::new();
        let before = s.output();
        let path = s.path(rel);
        let _ = std::fs::remove_file(&path);
        let made = Command::new("mkfifo").arg(&path).status().unwrap();
        assert!(made.success());
        let o = s.build(&[]);
        let d = assert_refused(&o, 1, "source.not-a-file", rel);
        assert!(d["message"].as_str().unwrap().contains("FIFO"), "{d}");
        assert_eq!(s.output(), before);
    }
}

#[test]
fn a_template_that_is_not_text_is_an_error_at_its_place() {
    for (bytes, code) in [
        (&b"<p>a\nb\0c</p>"[..], "text.nul"),
        (&b"<p>a\nb\xffc</p>"[..], "text.not-utf8"),
    ] {
        let s = Scratch::new();
        let before = s.output();
        std::fs::write(s.path("templates/faq.html"), bytes).unwrap();
        let o = s.build(&[]);
        let d = &diagnostics(&o)[0];
        assert_eq!(o.status.code(), Some(1));
        assert_eq!(d["code"], code, "{d}");
        assert_eq!(d["file"], "templates/faq.html");
        assert_eq!(
            (d["line"].as_u64(), d["column"].as_u64()),
            (Some(2), Some(2))
        );
        assert_eq!(s.output(), before);
    }
}

#[test]
fn an_unreadable_template_is_an_error_not_the_built_in_one() {
    let s = Scratch::new();
    std::fs::create_dir_all(s.path("templates/page.html")).unwrap();
    let o = s.build(&[]);
    let d = assert_refused(&o, 1, "source.not-a-file", "templates/page.html");
    assert!(d["message"].as_str().unwrap().contains("folder"), "{d}");
}

#[test]
fn an_oversized_site_yaml_is_refused_before_it_is_parsed() {
    let s = Scratch::new();
    let before = s.output();
    let mut text = std::fs::read_to_string(s.path("site.yaml")).unwrap();
    let filler = format!("# {}\n", "x".repeat(1000));
    while text.len() <= 4 << 20 {
        text.push_str(&filler);
    }
    std::fs::write(s.path("site.yaml"), text).unwrap();
    let o = s.build(&[]);
    let d = assert_refused(&o, 1, "source.too-large", "site.yaml");
    assert!(d["message"].as_str().unwrap().contains("4 MB"), "{d}");
    assert_eq!(s.output(), before);
}

#[test]
fn api_base_that_would_break_a_header_is_an_error_at_its_line() {
    let s = Scratch::new();
    let before = s.output();
    let site = std::fs::read_to_string(s.path("site.yaml")).unwrap();
    let line = site
        .lines()
        .position(|l| l.starts_with("apiBase:"))
        .unwrap()
        + 1;
    for bad in [
        r#""https://api.example.test\nSet-Cookie: a=b""#,
        r#""https://api.example.test 'unsafe-eval'""#,
        r#""https://api.example.test;script-src *""#,
        r#""javascript:alert(1)""#,
    ] {
        let edited = site.replace("apiBase: \"\"", &format!("apiBase: {bad}"));
        std::fs::write(s.path("site.yaml"), edited).unwrap();
        let o = s.build(&[]);
        assert_eq!(o.status.code(), Some(1), "{bad}: {}", stdout(&o));
        let all = diagnostics(&o);
        assert_eq!(all.len(), 1, "{all:#?}");
        assert_eq!(all[0]["code"], "config.bad-api-base", "{bad}");
        assert_eq!(all[0]["file"], "site.yaml");
        assert_eq!(all[0]["line"].as_u64(), Some(line as u64), "{bad}");
        assert!(!all[0]["message"].as_str().unwrap().contains('\n'));
    }
    assert_eq!(s.output(), before);
    // A valid API origin is allowed into the policy.
    let edited = site.replace("apiBase: \"\"", "apiBase: https://api.example.test/v1");
    std::fs::write(s.path("site.yaml"), edited).unwrap();
    let o = s.build(&[]);
    assert!(o.status.success(), "{}", stdout(&o));
    let headers = String::from_utf8(s.output()["_headers"].clone()).unwrap();
    assert!(
        headers.contains("connect-src 'self' https://api.example.test;"),
        "{headers}"
    );
}

#[test]
fn a_base_url_with_a_space_is_a_usage_error() {
    let s = Scratch::new();
    let before = s.output();
    for bad in [
        "https://preview.example.test/pr 7/",
        "https://preview.example.test/\n/x",
        "preview.example.test",
        "ftp://preview.example.test",
    ] {
        let o = s.build(&["--base-url", bad]);
        let d = assert_refused_usage(&o);
        assert_eq!(d["code"], "usage.base-url", "{bad}");
        assert!(d["message"].as_str().unwrap().contains("--base-url"));
    }
    assert_eq!(s.output(), before);
}

fn assert_refused_usage(o: &Output) -> serde_json::Value {
    assert_eq!(o.status.code(), Some(2), "{}{}", stdout(o), stderr(o));
    let all = diagnostics(o);
    assert_eq!(all.len(), 1, "{all:#?}");
    all[0].clone()
}
