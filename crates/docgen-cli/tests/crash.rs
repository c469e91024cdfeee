//! A build is all or nothing: stopped at every file operation (as `kill -9` or a crash would
//! stop it), or failing there as on a full disk, it leaves the output folder byte for byte the
//! previous build or the new one once the next docgen run took the folder, and that run
//! cleans up every file and folder the stopped one left.
//!
//! The stops are injected by `DOCGEN_FAULT` (see `output::transaction::faults`): `crash@N`
//! aborts the process before the N-th operation, `full@N` fails the N-th write and all later
//! ones with "no space left on device".

use crate::common;

use std::collections::BTreeMap;
use std::path::Path;
use std::process::{Command, Output};

use common::{copy_dir, fixture, tree};

type Files = BTreeMap<String, Vec<u8>>;

fn build(root: &Path, out: &Path, fault: Option<&str>, extra: &[&str]) -> Output {
    build_with(root, out, fault, extra, &[])
}

fn build_with(
    root: &Path,
    out: &Path,
    fault: Option<&str>,
    extra: &[&str],
    env: &[(&str, &str)],
) -> Output {
    let mut command = Command::new(env!("CARGO_BIN_EXE_docgen"));
    command
        .args(["build", "--quiet", "--root"])
        .arg(root)
        .arg("--out")
        .arg(out)
        .args(extra)
        .env("NO_COLOR", "1")
        .env("SOURCE_DATE_EPOCH", "1767225600")
        .env(
            "GIT_CEILING_DIRECTORIES",
            Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures"),
        )
        .envs(env.iter().copied());
    if let Some(fault) = fault {
        command.env("DOCGEN_FAULT", fault);
    }
    command.output().expect("run docgen")
}

fn crashed(output: &Output) -> bool {
    use std::os::unix::process::ExitStatusExt;
    output.status.signal() == Some(6)
}

fn stderr(output: &Output) -> String {
    String::from_utf8_lossy(&output.stderr).into_owned()
}

/// The names beside the output folder, but for the lock file.
fn siblings(out: &Path) -> Vec<String> {
    let name = out.file_name().unwrap().to_string_lossy().into_owned();
    let mut list: Vec<String> = std::fs::read_dir(out.parent().unwrap())
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.contains(&name) && *n != name && !n.ends_with(".docgen-lock"))
        .collect();
    list.sort();
    list
}

/// Replaces `to` by a copy of `from` (with its files' times, so a build sees them as it left
/// them), or removes it when `from` is `None`.
fn reset(from: Option<&Path>, to: &Path) {
    if to.exists() {
        std::fs::remove_dir_all(to).unwrap();
    }
    if let Some(from) = from {
        let copied = Command::new("cp")
            .arg("-a")
            .arg(from)
            .arg(to)
            .status()
            .unwrap();
        assert!(copied.success());
    }
}

fn describe(files: &Files, old: &Files, new: &Files) -> String {
    let differ = |other: &Files| {
        files
            .keys()
            .chain(other.keys())
            .filter(|k| files.get(*k) != other.get(*k))
            .take(5)
            .cloned()
            .collect::<Vec<_>>()
    };
    format!(
        "neither old nor new; differs from old at {:?}, from new at {:?}",
        differ(old),
        differ(new)
    )
}

/// The small fixture site (the old build's input) and a copy changed in every way a build
/// can change: a page edited, one added, one removed, the site's title (every page), an
/// image added.
struct Sites {
    _tmp: tempfile::TempDir,
    old_site: std::path::PathBuf,
    new_site: std::path::PathBuf,
    /// A copy of the new site whose checks fail, so a run of it only takes the output.
    broken_site: std::path::PathBuf,
    old: Files,
    new: Files,
    old_out: std::path::PathBuf,
    dir: std::path::PathBuf,
}

fn sites() -> Sites {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().to_path_buf();
    let old_site = dir.join("old-site");
    copy_dir(&fixture("small-site"), &old_site);
    let new_site = dir.join("new-site");
    copy_dir(&old_site, &new_site);
    let edit = |rel: &str, f: &dyn Fn(String) -> String| {
        let path = new_site.join(rel);
        let text = std::fs::read_to_string(&path).unwrap();
        std::fs::write(&path, f(text)).unwrap();
    };
    edit("site.yaml", &|t| t.replacen("title:", "title: New", 1));
    edit("content/docs/guide/secret.md", &|t| {
        t + "\nA new paragraph, and a picture: ![logo](/logo-new.svg)\n"
    });
    std::fs::create_dir_all(new_site.join("static")).unwrap();
    std::fs::write(
        new_site.join("static/logo-new.svg"),
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"4\" height=\"4\"/>",
    )
    .unwrap();
    std::fs::write(
        new_site.join("content/docs/guide/added.md"),
        "---\ntitle: Added\n---\n\nA page that is new.\n",
    )
    .unwrap();
    let broken_site = dir.join("broken-site");
    copy_dir(&new_site, &broken_site);
    std::fs::write(broken_site.join("site.yaml"), "title: [unclosed\n").unwrap();

    let old_out = dir.join("old-out");
    let built = build(&old_site, &old_out, None, &[]);
    assert!(built.status.success(), "{}", stderr(&built));
    let new_out = dir.join("new-out");
    let built = build(&new_site, &new_out, None, &[]);
    assert!(built.status.success(), "{}", stderr(&built));
    let (old, new) = (tree(&old_out), tree(&new_out));
    assert_ne!(old, new);
    Sites {
        _tmp: tmp,
        old_site,
        new_site,
        broken_site,
        old,
        new,
        old_out,
        dir,
    }
}

/// Runs the build of the new site over `start` (a copy of the old output, or nothing) with
/// `crash@N` for N = 1, 2, … until one run finishes; after each stop a run of the broken
/// site (which only recovers the folder) must leave the old or the new build, and a build of
/// the new site the new one with nothing left beside it.
fn crash_everywhere(s: &Sites, start: Option<&Path>, env: &[(&str, &str)]) -> (usize, usize) {
    let out = s.dir.join(format!("out-{}", start.is_some()));
    let (mut old_seen, mut new_seen) = (0, 0);
    for n in 1.. {
        reset(start, &out);
        let run = build_with(&s.new_site, &out, Some(&format!("crash@{n}")), &[], env);
        if !crashed(&run) {
            assert!(run.status.success(), "crash@{n}: {}", stderr(&run));
            assert_eq!(tree(&out), s.new, "a build that was not stopped");
            return (old_seen, new_seen);
        }
        let recovered = build(&s.broken_site, &out, None, &[]);
        assert_eq!(recovered.status.code(), Some(1), "{}", stderr(&recovered));
        let now = if out.exists() {
            tree(&out)
        } else {
            Files::new()
        };
        let empty = Files::new();
        let old = if start.is_some() { &s.old } else { &empty };
        if now == *old {
            old_seen += 1;
        } else if now == s.new {
            new_seen += 1;
        } else {
            panic!("after crash@{n}: {}", describe(&now, old, &s.new));
        }
        assert_eq!(siblings(&out), Vec::<String>::new(), "after crash@{n}");
        // And the next build is whole (checked at some of the stops, to keep the test short).
        if n % 4 == 0 {
            let rebuilt = build_with(&s.new_site, &out, None, &[], env);
            assert!(rebuilt.status.success(), "{}", stderr(&rebuilt));
            assert_eq!(tree(&out), s.new, "the build after crash@{n}");
        }
    }
    unreachable!()
}

#[test]
fn a_build_over_its_previous_output_stopped_anywhere_is_the_old_or_the_new_build() {
    let s = sites();
    let (old, new) = crash_everywhere(&s, Some(&s.old_out), &[]);
    // Stops before the commit leave the old build, after it the new one: both were seen.
    assert!(old > 10 && new > 10, "old {old}, new {new}");
}

#[test]
fn a_build_holding_nothing_in_memory_stopped_anywhere_is_the_old_or_the_new_build() {
    let s = sites();
    // Past the memory budget pages are read again when they are rendered: the same rules.
    let (old, new) = crash_everywhere(&s, Some(&s.old_out), &[("DOCGEN_HELD_MB", "0")]);
    assert!(old > 10 && new > 10, "old {old}, new {new}");
}

#[test]
fn a_first_build_stopped_anywhere_leaves_no_output_or_all_of_it() {
    let s = sites();
    let (none, all) = crash_everywhere(&s, None, &[]);
    assert!(none > 10 && all >= 1, "none {none}, all {all}");
}

#[test]
fn a_forced_build_over_a_foreign_folder_stopped_anywhere_leaves_it_or_the_new_build() {
    let s = sites();
    let foreign = s.dir.join("foreign");
    std::fs::create_dir_all(foreign.join("photos")).unwrap();
    std::fs::write(foreign.join("photos/a.jpg"), "a photo").unwrap();
    let out = s.dir.join("forced");
    for n in 1.. {
        reset(Some(&foreign), &out);
        let run = build(&s.new_site, &out, Some(&format!("crash@{n}")), &["--force"]);
        if !crashed(&run) {
            assert!(run.status.success(), "{}", stderr(&run));
            assert_eq!(tree(&out), s.new);
            break;
        }
        let recovered = build(&s.broken_site, &out, None, &["--force"]);
        assert_eq!(recovered.status.code(), Some(1), "{}", stderr(&recovered));
        let now = tree(&out);
        assert!(now == tree(&foreign) || now == s.new, "after crash@{n}");
        assert_eq!(siblings(&out), Vec::<String>::new(), "after crash@{n}");
    }
}

/// A full disk at any write: the build fails naming the file, and the folder is the old build
/// with nothing left beside or inside it.
#[test]
fn a_full_disk_at_any_write_leaves_the_previous_build() {
    let s = sites();
    let out = s.dir.join("full");
    let mut failures = 0;
    for n in 1.. {
        reset(Some(&s.old_out), &out);
        let run = build(&s.new_site, &out, Some(&format!("full@{n}")), &[]);
        if run.status.success() {
            assert_eq!(tree(&out), s.new);
            break;
        }
        let err = stderr(&run);
        assert_eq!(run.status.code(), Some(1), "full@{n}: {err}");
        // The report wraps long lines (a long file name): its words, joined again.
        let words: Vec<&str> = err.split_whitespace().filter(|w| *w != "│").collect();
        assert!(
            words.join(" ").contains("No space left on device"),
            "full@{n}: {err}"
        );
        assert_eq!(
            tree(&out),
            s.old,
            "full@{n}: the previous build is untouched"
        );
        assert_eq!(siblings(&out), Vec::<String>::new());
        failures += 1;
    }
    assert!(failures > 10, "{failures}");
    // Into a new folder: nothing is left at all.
    let fresh = s.dir.join("fresh");
    let run = build(&s.new_site, &fresh, Some("full@5"), &[]);
    assert_eq!(run.status.code(), Some(1), "{}", stderr(&run));
    assert!(!fresh.exists());
    assert_eq!(siblings(&fresh), Vec::<String>::new());
}

#[test]
fn files_docgen_did_not_write_survive_every_build() {
    let s = sites();
    let out = s.dir.join("kept");
    reset(Some(&s.old_out), &out);
    std::fs::write(out.join("CNAME"), "docs.example.com\n").unwrap();
    std::fs::create_dir_all(out.join("docs/guide")).unwrap();
    std::fs::write(out.join("docs/guide/notes.txt"), "mine").unwrap();
    let run = build(&s.new_site, &out, None, &[]);
    assert!(run.status.success(), "{}", stderr(&run));
    let run = build(&s.old_site, &out, None, &[]);
    assert!(run.status.success(), "{}", stderr(&run));
    let now = tree(&out);
    assert_eq!(now["CNAME"], b"docs.example.com\n");
    assert_eq!(now["docs/guide/notes.txt"], b"mine");
}

#[test]
fn a_symbolic_link_planted_in_the_output_is_refused_and_kept() {
    let s = sites();
    let out = s.dir.join("linked");
    reset(Some(&s.old_out), &out);
    let elsewhere = s.dir.join("elsewhere");
    std::fs::create_dir(&elsewhere).unwrap();
    std::os::unix::fs::symlink(&elsewhere, out.join("added")).unwrap();
    let run = build(&s.new_site, &out, None, &[]);
    let err = stderr(&run);
    assert_eq!(run.status.code(), Some(1), "{err}");
    assert!(
        err.contains("output.link") && err.contains("added"),
        "{err}"
    );
    assert!(out.join("added").is_symlink());
    assert_eq!(std::fs::read_dir(&elsewhere).unwrap().count(), 0);
}

/// Starts `docgen serve` over `out` and waits until it serves (its first build is written):
/// the running server and its port, or, when it stopped before, how it ended and what it said.
fn serve(
    site: &Path,
    out: &Path,
    fault: Option<&str>,
) -> Result<(std::process::Child, u16), (std::process::ExitStatus, String)> {
    use std::io::BufRead;
    let mut command = Command::new(env!("CARGO_BIN_EXE_docgen"));
    command
        .args(["serve", "--port", "0", "--root"])
        .arg(site)
        .arg("--out")
        .arg(out)
        .env("NO_COLOR", "1")
        .env("SOURCE_DATE_EPOCH", "1767225600")
        .env(
            "GIT_CEILING_DIRECTORIES",
            Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures"),
        )
        .stderr(std::process::Stdio::piped());
    if let Some(fault) = fault {
        command.env("DOCGEN_FAULT", fault);
    }
    let mut child = command.spawn().unwrap();
    let mut stderr = std::io::BufReader::new(child.stderr.take().unwrap());
    let mut said = String::new();
    let mut line = String::new();
    while stderr.read_line(&mut line).unwrap_or(0) > 0 {
        if let Some(i) = line.find("http://127.0.0.1:") {
            let port = line[i + 17..]
                .split(|c: char| !c.is_ascii_digit())
                .next()
                .unwrap()
                .parse()
                .unwrap();
            std::thread::spawn(move || for _ in stderr.lines() {});
            return Ok((child, port));
        }
        said.push_str(&line);
        line.clear();
    }
    Err((child.wait().unwrap(), said))
}

fn stop(mut child: std::process::Child) {
    child.kill().unwrap();
    child.wait().unwrap();
}

fn get(port: u16, path: &str) -> String {
    use std::io::{Read, Write};
    let mut s = std::net::TcpStream::connect(("127.0.0.1", port)).unwrap();
    write!(s, "GET {path} HTTP/1.0\r\nHost: localhost\r\n\r\n").unwrap();
    let mut response = String::new();
    s.read_to_string(&mut response).unwrap();
    response
}

/// The preview server's first write over a previous build, stopped at every file operation:
/// the next run finds the old build or the new one, never a mix.
#[test]
fn a_preview_stopped_anywhere_leaves_the_old_or_the_new_build() {
    let s = sites();
    let out = s.dir.join("served");
    reset(Some(&s.old_out), &out);
    let (child, _) = serve(&s.new_site, &out, None).expect("serves");
    stop(child);
    let served = tree(&out);
    let (mut old_seen, mut new_seen) = (0, 0);
    for n in 1.. {
        reset(Some(&s.old_out), &out);
        match serve(&s.new_site, &out, Some(&format!("crash@{n}"))) {
            Ok((child, _)) => {
                stop(child);
                assert_eq!(tree(&out), served);
                break;
            }
            Err((status, said)) => {
                use std::os::unix::process::ExitStatusExt;
                assert_eq!(status.signal(), Some(6), "crash@{n}: {said}");
            }
        }
        let recovered = build(&s.broken_site, &out, None, &[]);
        assert_eq!(recovered.status.code(), Some(1), "{}", stderr(&recovered));
        let now = tree(&out);
        if now == s.old {
            old_seen += 1;
        } else if now == served {
            new_seen += 1;
        } else {
            panic!("after crash@{n}: {}", describe(&now, &s.old, &served));
        }
        assert_eq!(siblings(&out), Vec::<String>::new(), "after crash@{n}");
    }
    assert!(
        old_seen > 10 && new_seen > 0,
        "old {old_seen}, new {new_seen}"
    );
}

/// A rebuild that cannot be written (here a file docgen did not make stands where a new page
/// needs its folder) changes nothing: the edited page is served as it was, and the folder is
/// the last good build.
#[test]
fn a_preview_rebuild_that_fails_to_write_serves_the_last_good_build() {
    let s = sites();
    let site = s.dir.join("editing");
    copy_dir(&s.old_site, &site);
    let out = s.dir.join("preview");
    let (child, port) = serve(&site, &out, None).expect("serves");
    let good = tree(&out);
    let before = get(port, "/docs/guide/secret");
    assert!(before.contains("200 OK"), "{before}");
    std::fs::write(out.join("docs/guide/blocked"), "a file of mine").unwrap();
    std::fs::write(
        site.join("content/docs/guide/blocked.md"),
        "---\ntitle: Blocked\n---\n\nIts folder is taken.\n",
    )
    .unwrap();
    let page = site.join("content/docs/guide/secret.md");
    let text = std::fs::read_to_string(&page).unwrap();
    std::fs::write(&page, text + "\nAn edit that must not be served.\n").unwrap();
    // The rebuild runs and fails (the live stream says so); the page stays as it was.
    let errors = common::next_errors(&mut common::live_stream(port));
    assert!(errors.contains("docs/guide/blocked"), "{errors}");
    let page = get(port, "/docs/guide/secret");
    assert!(page.contains("200 OK"), "{page}");
    assert!(
        !page.contains("must not be served"),
        "served a failed rebuild"
    );
    stop(child);
    let mut expected = good;
    expected.insert("docs/guide/blocked".into(), b"a file of mine".to_vec());
    assert_eq!(tree(&out), expected);
}

#[test]
fn a_build_while_the_preview_server_writes_the_folder_stops_at_once() {
    let s = sites();
    let out = s.dir.join("busy");
    let (child, _) = serve(&s.old_site, &out, None).expect("serves");
    let before = tree(&out);
    let run = build(&s.new_site, &out, None, &[]);
    let err = stderr(&run);
    assert_eq!(run.status.code(), Some(2), "{err}");
    assert!(err.contains("is writing"), "{err}");
    assert_eq!(tree(&out), before);
    stop(child);
}

/// `serve --out` over a previous build removes nothing up front: files docgen did not write
/// stay, and when its own first build fails, the previous build stays whole.
#[test]
fn the_preview_server_keeps_what_it_did_not_write_and_a_good_build() {
    let s = sites();
    let out = s.dir.join("kept-by-serve");
    reset(Some(&s.old_out), &out);
    std::fs::write(out.join("CNAME"), "docs.example.com\n").unwrap();
    let mut with_cname = s.old.clone();
    with_cname.insert("CNAME".into(), b"docs.example.com\n".to_vec());
    let (child, port) = serve(&s.broken_site, &out, None).expect("serves its errors");
    assert!(!get(port, "/").is_empty());
    stop(child);
    assert_eq!(
        tree(&out),
        with_cname,
        "a failed first build changed the folder"
    );
    let (child, _) = serve(&s.new_site, &out, None).expect("serves");
    stop(child);
    assert_eq!(tree(&out)["CNAME"], b"docs.example.com\n");
}

#[test]
fn the_preview_server_refuses_an_output_holding_a_link() {
    let s = sites();
    let out = s.dir.join("linked-serve");
    reset(Some(&s.old_out), &out);
    let elsewhere = s.dir.join("elsewhere-serve");
    std::fs::create_dir(&elsewhere).unwrap();
    std::os::unix::fs::symlink(&elsewhere, out.join("docs/guide/added")).unwrap();
    let (status, said) = serve(&s.new_site, &out, None).map(|_| ()).unwrap_err();
    assert!(!status.success());
    assert!(said.contains("symbolic link"), "{said}");
    assert!(out.join("docs/guide/added").is_symlink());
    assert_eq!(std::fs::read_dir(&elsewhere).unwrap().count(), 0);
}
