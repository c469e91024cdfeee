//! docgen never destroys a writer's files: output folders it did not make, the site's own
//! sources however the paths are spelled, and nothing outside the output folder. Each case
//! runs the real binary against throwaway folders holding sentinel files.

use crate::common;

use common::{copy_dir, fixture, tree};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

fn docgen(args: &[&str], paths: &[&Path]) -> Output {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_docgen"));
    cmd.args(args);
    for p in paths {
        cmd.arg(p);
    }
    cmd.env("CI", "true").output().expect("run docgen")
}

/// A copy of the small site plus a folder of somebody's photos beside it.
struct Scratch {
    _tmp: tempfile::TempDir,
    base: PathBuf,
    site: PathBuf,
}

impl Scratch {
    fn new() -> Self {
        let tmp = tempfile::tempdir().unwrap();
        let base = tmp.path().to_path_buf();
        let site = base.join("site");
        copy_dir(&fixture("small-site"), &site);
        std::fs::create_dir_all(site.join("templates")).unwrap();
        std::fs::write(site.join("templates/NOTES.txt"), "my template notes").unwrap();
        let photos = base.join("photos");
        std::fs::create_dir_all(photos.join("2026")).unwrap();
        std::fs::write(photos.join("2026/beach.jpg"), "sentinel").unwrap();
        Scratch {
            _tmp: tmp,
            base,
            site,
        }
    }

    /// Every file under the scratch folder (the site and the photos).
    fn everything(&self) -> BTreeMap<String, Vec<u8>> {
        tree(&self.base)
    }
}

fn assert_refused(out: &Output, what: &str) {
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{what}: {stderr}");
    assert!(stderr.contains("usage.out-dir"), "{what}: {stderr}");
}

#[test]
fn a_folder_of_other_files_is_refused_unless_forced() {
    let s = Scratch::new();
    let before = s.everything();
    let photos = s.base.join("photos");
    let out = docgen(&["build", "--root"], &[&s.site]);
    assert!(out.status.success(), "the default output is fine");
    let after_default = s.everything();

    let refused = docgen(
        &["build", "--quiet", "--root"],
        &[&s.site, Path::new("--out"), &photos],
    );
    assert_refused(&refused, "a folder of photos");
    let stderr = String::from_utf8_lossy(&refused.stderr);
    assert!(
        stderr.contains("--force"),
        "the hint names --force: {stderr}"
    );
    assert_eq!(s.everything(), after_default, "nothing may change");
    assert!(before.keys().all(|k| after_default.contains_key(k)));

    let forced = docgen(
        &["build", "--quiet", "--force", "--root"],
        &[&s.site, Path::new("--out"), &photos],
    );
    assert!(forced.status.success());
    assert!(
        !photos.join("2026/beach.jpg").exists(),
        "--force replaces it"
    );
    assert!(photos.join(".docgen-output").is_file());
}

#[test]
fn its_own_output_and_an_empty_folder_are_replaced() {
    let s = Scratch::new();
    let out = s.base.join("empty");
    std::fs::create_dir(&out).unwrap();
    for _ in 0..2 {
        let built = docgen(
            &["build", "--quiet", "--root"],
            &[&s.site, Path::new("--out"), &out],
        );
        assert!(
            built.status.success(),
            "{}",
            String::from_utf8_lossy(&built.stderr)
        );
    }
    assert!(out.join(".docgen-output").is_file());
    assert!(out.join("docs/index.html").is_file());
    let beside: Vec<_> = std::fs::read_dir(&s.base)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    // Only the output's lock file stays beside it, on purpose.
    assert!(
        beside
            .iter()
            .all(|n| !n.starts_with('.') || n == ".empty.docgen-lock"),
        "no temporary folder stays: {beside:?}"
    );
}

#[test]
fn the_sources_are_refused_however_the_paths_are_spelled() {
    let s = Scratch::new();
    let before = s.everything();
    let site = &s.site;
    let spelled_root = s.base.join("x/../site");
    let cases: Vec<(PathBuf, PathBuf)> = vec![
        (site.clone(), site.clone()),
        (site.clone(), s.base.clone()),
        (site.clone(), site.join("static")),
        (site.clone(), site.join("templates")),
        (site.clone(), site.join("content")),
        (site.clone(), site.join("content/docs")),
        (site.clone(), site.join("site.yaml")),
        (site.clone(), site.join("redirects.yaml")),
        (site.clone(), site.join("static/../content")),
        (spelled_root.clone(), site.join("content")),
        (spelled_root.clone(), site.clone()),
        (site.clone(), PathBuf::from("/")),
    ];
    for (root, out) in &cases {
        for force in [false, true] {
            let mut args = vec!["build", "--quiet"];
            if force {
                args.push("--force");
            }
            args.push("--root");
            let result = docgen(&args, &[root, Path::new("--out"), out]);
            assert_refused(
                &result,
                &format!("--root {} --out {}", root.display(), out.display()),
            );
        }
    }
    // A link to a source folder is that folder.
    let link = s.base.join("link-to-static");
    std::os::unix::fs::symlink(site.join("static"), &link).unwrap();
    let result = docgen(
        &["build", "--quiet", "--force", "--root"],
        &[site, Path::new("--out"), &link],
    );
    assert_refused(&result, "a link to static/");
    std::fs::remove_file(&link).unwrap();
    assert_eq!(s.everything(), before, "no source may change");
}

#[test]
fn serve_follows_the_same_rules() {
    let s = Scratch::new();
    let before = s.everything();
    for out in [
        s.site.clone(),
        s.site.join("content"),
        s.base.join("photos"),
    ] {
        let result = Command::new(env!("CARGO_BIN_EXE_docgen"))
            .args(["serve", "--port", "0", "--root"])
            .arg(&s.site)
            .arg("--out")
            .arg(&out)
            .stdin(Stdio::null())
            .output()
            .expect("run docgen serve");
        let stderr = String::from_utf8_lossy(&result.stderr);
        assert_eq!(result.status.code(), Some(2), "{}: {stderr}", out.display());
        assert!(stderr.contains("refusing"), "{stderr}");
    }
    assert_eq!(s.everything(), before);
}

#[test]
fn usage_errors_exit_with_2() {
    let missing = Path::new("/nonexistent/site");
    for cmd in ["check", "build"] {
        let out = docgen(&[cmd, "--root"], &[missing]);
        assert_eq!(out.status.code(), Some(2), "{cmd}");
        assert!(String::from_utf8_lossy(&out.stderr).contains("does not exist"));
    }
}

/// A site whose one legacy route and one publish path try to climb out: refused by `check`
/// as by `build`, and nothing appears outside.
#[test]
fn nothing_is_written_outside_the_output_folder() {
    let s = Scratch::new();
    std::fs::write(
        s.site.join("redirects.yaml"),
        "legacyBase: /old\nrules:\n  - from: \"../../../escaped-legacy\"\n    to: /docs\n",
    )
    .unwrap();
    let site_yaml = std::fs::read_to_string(s.site.join("site.yaml")).unwrap();
    std::fs::write(
        s.site.join("site.yaml"),
        site_yaml.replace("path: api/v1/platforms", "path: ../../escaped-publish"),
    )
    .unwrap();
    for cmd in ["check", "build"] {
        let out = docgen(&[cmd, "--format", "json", "--root"], &[&s.site]);
        assert_eq!(out.status.code(), Some(1), "{cmd}");
        let stdout = String::from_utf8_lossy(&out.stdout);
        assert!(stdout.contains("redirects.bad-route"), "{cmd}: {stdout}");
        assert!(stdout.contains("publish.outside"), "{cmd}: {stdout}");
    }
    let started = Instant::now();
    let names: Vec<String> = walkdir::WalkDir::new(&s.base)
        .into_iter()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    assert!(started.elapsed() < Duration::from_secs(10));
    assert!(!names.iter().any(|n| n.starts_with("escaped")), "{names:?}");
}

/// A link put into the output folder is never written, followed or deleted: the build stops
/// naming it, and both the link and what it points at stay as they were.
#[test]
fn a_link_inside_the_output_is_never_followed() {
    let s = Scratch::new();
    let out = s.base.join("dist");
    let built = docgen(
        &["build", "--quiet", "--root"],
        &[&s.site, Path::new("--out"), &out],
    );
    assert!(built.status.success());
    let photos = s.base.join("photos");
    let guide = out.join("docs/guide");
    std::fs::remove_dir_all(&guide).unwrap();
    std::os::unix::fs::symlink(&photos, &guide).unwrap();
    let before = tree(&photos);
    let rebuilt = docgen(
        &["build", "--quiet", "--root"],
        &[&s.site, Path::new("--out"), &out],
    );
    let stderr = String::from_utf8_lossy(&rebuilt.stderr);
    assert_eq!(rebuilt.status.code(), Some(1), "{stderr}");
    assert!(stderr.contains("output.link"), "{stderr}");
    assert!(common::squashed(&stderr).contains("docs/guide"), "{stderr}");
    assert_eq!(tree(&photos), before, "written or deleted through the link");
    assert!(std::fs::symlink_metadata(&guide).unwrap().is_symlink());
}
