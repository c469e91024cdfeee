//! `docgen init`: the new site builds and checks with no error and no warning, and a folder
//! that holds anything is refused without a change.

use crate::common;

use common::docgen;

#[test]
fn init_writes_a_site_that_builds_and_checks_clean() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("docs");
    let dir_s = dir.to_str().unwrap();
    let out = docgen(&["init", dir_s]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let printed = String::from_utf8_lossy(&out.stdout);
    assert!(
        printed.contains(&format!("docgen serve --root {dir_s}")),
        "{printed}"
    );
    for f in [
        "site.yaml",
        "content/index.md",
        "content/guide/install.md",
        "static/logo.svg",
    ] {
        assert!(dir.join(f).is_file(), "{f}");
    }
    assert_eq!(
        std::fs::read_to_string(dir.join(".gitignore")).unwrap(),
        "dist/\n*.docgen-lock\n"
    );

    let build = docgen(&["build", "--root", dir_s]);
    let stderr = String::from_utf8_lossy(&build.stderr);
    assert!(build.status.success(), "{stderr}");
    assert!(!stderr.contains("warning"), "{stderr}");
    let home = std::fs::read_to_string(dir.join("dist/index.html")).unwrap();
    assert!(home.contains("Welcome"));
    let install = std::fs::read_to_string(dir.join("dist/guide/install/index.html")).unwrap();
    assert!(install.contains("cargo install my-tool"));
    let architecture =
        std::fs::read_to_string(dir.join("dist/guide/architecture/index.html")).unwrap();
    // The diagram is an image beside its page, published under a hashed name with its size.
    let image = architecture
        .split("<img src=\"/s/guide/pipeline.")
        .nth(1)
        .expect("the diagram is shown");
    assert!(image.contains("width=\"480\" height=\"120\""), "{image}");
    let hashed = image.split('"').next().unwrap();
    assert!(
        dir.join(format!("dist/s/guide/pipeline.{hashed}"))
            .is_file()
    );

    let check = docgen(&["check", "--root", dir_s, "--format", "json"]);
    assert!(check.status.success());
    assert_eq!(String::from_utf8_lossy(&check.stdout), "", "no warning");
}

#[test]
fn init_refuses_a_folder_that_is_not_empty() {
    let tmp = tempfile::tempdir().unwrap();
    std::fs::write(tmp.path().join("site.yaml"), "title: Mine\n").unwrap();
    let before = common::tree(tmp.path());
    let out = docgen(&["init", tmp.path().to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("is not empty"), "{stderr}");
    assert_eq!(common::tree(tmp.path()), before, "nothing changed");
}

/// A new site enables no extension: its output holds none of the ad-platform site's code or
/// data (its islands' bundle, the validator's evaluator, the compiled bid rules, the
/// `validator` and `islandScripts` entries of the page data) and its app.js none of the
/// islands' code, while this repository's site, which enables it, has them. An unknown
/// extension name is an error at its line of site.yaml that names the known ones.
#[test]
fn an_init_site_ships_no_extension_and_an_unknown_one_is_named() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("docs");
    let dir_s = dir.to_str().unwrap();
    assert!(docgen(&["init", dir_s]).status.success());
    let build = docgen(&["build", "--root", dir_s]);
    assert!(
        build.status.success(),
        "{}",
        String::from_utf8_lossy(&build.stderr)
    );
    let dist = dir.join("dist");
    let names: Vec<String> = walkdir::WalkDir::new(&dist)
        .into_iter()
        .map(|e| {
            e.unwrap()
                .path()
                .strip_prefix(&dist)
                .unwrap()
                .to_string_lossy()
                .into_owned()
        })
        .collect();
    assert!(
        names.iter().any(|n| n.starts_with("s/docgen/app.")),
        "{names:?}"
    );
    assert!(
        !names.iter().any(|n| n.contains("validator")
            || n.contains("bid-rules")
            || n.contains("adplatform")),
        "{names:?}"
    );
    let home = std::fs::read_to_string(dist.join("index.html")).unwrap();
    assert!(
        !home.contains("validator"),
        "the page data names no validator"
    );
    assert!(
        !home.contains("islandScripts"),
        "the page data names no island script"
    );
    let app = bundle(&dist, "app.");
    for island_text in ISLAND_TEXTS {
        assert!(!app.contains(island_text), "app.js holds {island_text:?}");
    }

    // This repository's site enables the extension: its islands' bundle and the evaluator are
    // published, the page data names the bundle for each island, and app.js still has none of
    // their code.
    let real = common::built_site();
    let islands = bundle(real, "adplatform.");
    for island_text in ISLAND_TEXTS {
        assert!(
            islands.contains(island_text),
            "adplatform.js lacks {island_text:?}"
        );
        assert!(
            !bundle(real, "app.").contains(island_text),
            "app.js holds {island_text:?}"
        );
    }
    assert!(!bundle(real, "validator.").is_empty());
    // The home is a redirect; any page holds the page data.
    let real_page = std::fs::read_to_string(real.join("documentation/skafaq/index.html")).unwrap();
    let script = real_page
        .split("\"islandScripts\":{")
        .nth(1)
        .expect("the page data names the islands' scripts");
    assert!(
        script.contains("\"bid-validator\":\"/s/docgen/adplatform."),
        "{}",
        &script[..script.len().min(300)]
    );

    let site_yaml = std::fs::read_to_string(dir.join("site.yaml")).unwrap();
    let lines = site_yaml.lines().count();
    std::fs::write(
        dir.join("site.yaml"),
        format!("{site_yaml}extensions:\n  adplatfrom: {{}}\n"),
    )
    .unwrap();
    let check = docgen(&["check", "--root", dir_s]);
    assert!(!check.status.success());
    let stderr = String::from_utf8_lossy(&check.stderr);
    assert!(stderr.contains("config.unknown-extension"), "{stderr}");
    assert!(
        stderr.contains(&format!("site.yaml:{}:3", lines + 2)),
        "{stderr}"
    );
    assert!(stderr.contains("did you mean `adplatform`?"), "{stderr}");
}

/// Texts only the ad-platform islands show (the validator's, the SKAdNetwork generator's, the
/// dependency builder's).
const ISLAND_TEXTS: [&str; 3] = [
    "Validation results",
    "Mediated networks",
    "Tick the networks you use to get their lines.",
];

/// The text of the published bundle whose name starts with `prefix` (e.g. `app.` for
/// `s/docgen/app.HASH.js`).
fn bundle(dist: &std::path::Path, prefix: &str) -> String {
    let folder = dist.join("s/docgen");
    let file = std::fs::read_dir(&folder)
        .unwrap()
        .map(|e| e.unwrap().path())
        .find(|p| {
            let name = p.file_name().unwrap().to_string_lossy();
            name.starts_with(prefix) && name.ends_with(".js")
        })
        .unwrap_or_else(|| panic!("no {prefix}*.js in {}", folder.display()));
    std::fs::read_to_string(file).unwrap()
}
