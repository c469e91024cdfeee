//! Replays the committed fuzz corpus: every file under `tests/fuzz-corpus/<target>/` goes
//! through the `docgen::fuzzing` entry point its fuzz target calls. The fuzzers need a nightly
//! toolchain; this test runs on stable, so every build replays each input that the fuzzers
//! kept, including the ones that once made docgen panic, hang or run out of memory.
//! See TESTING.md.

use std::panic::{self, RefUnwindSafe};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

/// One input taking longer than this is a failure too: the fuzzers run with a 10 s timeout,
/// and no committed input comes near it.
const SLOW: Duration = Duration::from_secs(5);

fn corpus_dir(target: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fuzz-corpus")
        .join(target)
}

/// Runs every file of `dir` through `entry`; returns one line per file that panicked or was
/// too slow.
fn replay(dir: &Path, entry: impl Fn(&[u8]) + RefUnwindSafe) -> Vec<String> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("cannot read {}: {e}", dir.display()))
        .map(|e| e.expect("a directory entry").path())
        .filter(|p| p.is_file())
        .collect();
    files.sort();
    assert!(!files.is_empty(), "no corpus files in {}", dir.display());
    let mut failures = Vec::new();
    for file in files {
        let data = std::fs::read(&file).expect("a corpus file");
        let started = Instant::now();
        let outcome = panic::catch_unwind(|| entry(&data));
        let took = started.elapsed();
        let name = file.file_name().unwrap_or_default().to_string_lossy();
        match outcome {
            Err(payload) => {
                let why = payload
                    .downcast_ref::<String>()
                    .map(String::as_str)
                    .or_else(|| payload.downcast_ref::<&str>().copied())
                    .unwrap_or("a panic");
                failures.push(format!("{name}: panicked: {why}"));
            }
            Ok(()) if took > SLOW => failures.push(format!("{name}: took {took:?}")),
            Ok(()) => {}
        }
    }
    failures
}

fn check(target: &str, entry: impl Fn(&[u8]) + RefUnwindSafe) {
    let failures = replay(&corpus_dir(target), entry);
    assert!(
        failures.is_empty(),
        "{} input(s) of tests/fuzz-corpus/{target} failed:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

#[test]
fn frontmatter_corpus() {
    check("frontmatter", docgen::fuzzing::frontmatter);
}

#[test]
fn markdown_corpus() {
    check("markdown", docgen::fuzzing::markdown);
}

#[test]
fn redirects_yaml_corpus() {
    check("redirects_yaml", docgen::fuzzing::redirects_yaml);
}

#[test]
fn site_yaml_corpus() {
    check("site_yaml", docgen::fuzzing::site_yaml);
}

/// The replay reports a panicking input instead of passing over it.
#[test]
fn a_panicking_input_fails_the_replay() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("fine"), "a").unwrap();
    std::fs::write(dir.path().join("bad"), "b").unwrap();
    let failures = replay(dir.path(), |data| assert_ne!(data, b"b", "boom"));
    assert_eq!(failures.len(), 1, "{failures:?}");
    assert!(failures[0].starts_with("bad: panicked:"), "{failures:?}");
}
