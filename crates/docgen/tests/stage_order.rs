//! The stages import forward only: a stage's files name (`crate::stage…`) no later stage. The
//! order is ARCHITECTURE.md's: config, content and markdown, model, extension, checks, view
//! and search, render, output; serve drives them all. `diagnostics` and `paths` are shared by
//! every stage; items of the crate root (`with_site`, `held_bytes`, …) are the driver's.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

/// Each stage module and its place in the pipeline.
const ORDER: &[(&str, usize)] = &[
    ("config", 0),
    ("content", 1),
    ("markdown", 1),
    ("model", 2),
    ("extension", 3),
    ("checks", 4),
    ("view", 5),
    ("search", 5),
    ("render", 6),
    ("output", 7),
    ("serve", 8),
];

/// Modules beside the pipeline, with the modules they may import.
const BESIDE: &[(&str, &[&str])] = &[
    ("scaffold", &["config"]),
    ("import", &["config", "content", "scaffold"]),
    ("fuzzing", &["config", "content", "markdown", "model"]),
];

/// Modules every stage may import.
const SHARED: &[&str] = &["diagnostics", "paths"];

fn src() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("src")
}

/// The `.rs` files of module `name`: `src/name.rs` or every file under `src/name/`.
fn files_of(name: &str) -> Vec<PathBuf> {
    let file = src().join(format!("{name}.rs"));
    if file.is_file() {
        return vec![file];
    }
    let mut out = Vec::new();
    let mut stack = vec![src().join(name)];
    while let Some(dir) = stack.pop() {
        for entry in std::fs::read_dir(&dir).unwrap_or_else(|e| panic!("{}: {e}", dir.display())) {
            let path = entry.unwrap().path();
            if path.is_dir() {
                stack.push(path);
            } else if path.extension().is_some_and(|e| e == "rs") {
                out.push(path);
            }
        }
    }
    out
}

/// Every module a file names through `crate::`, in paths (`crate::a::b`) and groups
/// (`use crate::{a, b::c}`); comments are skipped.
fn imports(text: &str) -> BTreeSet<String> {
    let mut found = BTreeSet::new();
    let code: String = text
        .lines()
        .map(|l| {
            let t = l.trim_start();
            if t.starts_with("//") { "" } else { l }
        })
        .collect::<Vec<_>>()
        .join("\n");
    let mut rest = code.as_str();
    while let Some(at) = rest.find("crate::") {
        rest = &rest[at + "crate::".len()..];
        if let Some(group) = rest.strip_prefix('{') {
            let end = group.find('}').unwrap_or(group.len());
            for item in group[..end].split(',') {
                let name: String = item
                    .trim()
                    .chars()
                    .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
                    .collect();
                if !name.is_empty() {
                    found.insert(name);
                }
            }
        } else {
            let name: String = rest
                .chars()
                .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
                .collect();
            if !name.is_empty() {
                found.insert(name);
            }
        }
    }
    found
}

fn is_module(name: &str) -> bool {
    ORDER.iter().any(|(m, _)| *m == name)
        || BESIDE.iter().any(|(m, _)| *m == name)
        || SHARED.contains(&name)
}

#[test]
fn the_parser_reads_paths_and_groups() {
    let text = "use crate::config::Config;\n// crate::output::x\nuse crate::{model::Site, view};\nlet x = crate::held_bytes();\n";
    let got: Vec<String> = imports(text).into_iter().collect();
    assert_eq!(got, ["config", "held_bytes", "model", "view"]);
}

#[test]
fn every_module_of_the_crate_has_a_place() {
    let lib = std::fs::read_to_string(src().join("lib.rs")).unwrap();
    for line in lib.lines() {
        if let Some(name) = line
            .strip_prefix("pub mod ")
            .and_then(|l| l.strip_suffix(';'))
        {
            assert!(
                is_module(name),
                "src/{name} is not in the stage order of tests/stage_order.rs (and ARCHITECTURE.md): give it its place"
            );
        }
    }
}

#[test]
fn stages_import_forward_only() {
    let mut back = Vec::new();
    let modules = ORDER
        .iter()
        .map(|(m, _)| *m)
        .chain(BESIDE.iter().map(|(m, _)| *m));
    for module in modules {
        for file in files_of(module) {
            let rel = file
                .strip_prefix(src())
                .unwrap()
                .to_string_lossy()
                .replace('\\', "/");
            let text = std::fs::read_to_string(&file).unwrap();
            for imported in imports(&text) {
                if imported == module
                    || SHARED.contains(&imported.as_str())
                    || !is_module(&imported)
                {
                    continue;
                }
                let allowed = match (
                    ORDER.iter().find(|(m, _)| *m == module),
                    BESIDE.iter().find(|(m, _)| *m == module),
                ) {
                    (Some((_, rank)), _) => ORDER
                        .iter()
                        .find(|(m, _)| *m == imported)
                        .is_some_and(|(_, r)| r <= rank),
                    (_, Some((_, may))) => may.contains(&imported.as_str()),
                    _ => unreachable!(),
                };
                if allowed {
                    continue;
                }
                back.push(format!("src/{rel} imports crate::{imported}"));
            }
        }
    }
    assert!(
        back.is_empty(),
        "a stage imports a later one (data flows forward: pass it on, or move the shared item to \
         an earlier or shared module):\n  {}",
        back.join("\n  ")
    );
}
