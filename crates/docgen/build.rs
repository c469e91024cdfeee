//! Bundles the React app in `frontend/` (at the root of the workspace) with esbuild (through
//! `frontend/build.mjs`) so the binary can embed it: `docgen` is then one file that writers run
//! without Node. The bundles of site extensions are built by their own crates.

use std::path::Path;
use std::process::Command;

/// What `frontend/build.mjs` writes for the app.
const BUNDLES: [&str; 3] = ["app.js", "app.css", "search.js"];

fn main() {
    let manifest = std::env::var("CARGO_MANIFEST_DIR").expect("set by cargo");
    let frontend = Path::new(&manifest).join("../../frontend");
    let out = Path::new(&std::env::var("OUT_DIR").expect("set by cargo")).join("app");
    for watched in [
        "src",
        "build.mjs",
        "package.json",
        "package-lock.json",
        "tsconfig.json",
    ] {
        println!("cargo:rerun-if-changed=../../frontend/{watched}");
    }
    println!("cargo:rerun-if-changed=../../templates");
    println!("cargo:rerun-if-env-changed=DOCGEN_PREBUILT_APP");

    // A bundle built elsewhere (e.g. by a packaging step that already ran esbuild).
    if let Ok(prebuilt) = std::env::var("DOCGEN_PREBUILT_APP") {
        std::fs::create_dir_all(&out).expect("create the bundle folder");
        for file in BUNDLES {
            std::fs::copy(Path::new(&prebuilt).join(file), out.join(file))
                .unwrap_or_else(|e| panic!("DOCGEN_PREBUILT_APP has no {file}: {e}"));
        }
        return;
    }

    if !installed_matches_lock(&frontend) {
        // Install exactly what the committed lock file says (again, when it changed since).
        run(
            Command::new("npm")
                .args(["ci", "--no-audit", "--no-fund", "--loglevel=error"])
                .current_dir(&frontend),
            "npm ci",
        );
    }
    std::fs::create_dir_all(&out).expect("create the bundle folder");
    run(
        Command::new("node")
            .arg(frontend.join("build.mjs"))
            .arg("--outdir")
            .arg(&out),
        "node frontend/build.mjs",
    );
    for file in BUNDLES {
        assert!(
            out.join(file).is_file(),
            "frontend/build.mjs did not write {file}"
        );
    }
}

fn run(cmd: &mut Command, what: &str) {
    let status = cmd.status().unwrap_or_else(|e| {
        panic!("cannot run {what}: {e} (Node.js 20 and npm are needed to build docgen)")
    });
    assert!(status.success(), "{what} failed with {status}");
}

/// Whether `node_modules` holds what `package-lock.json` names: npm copies the lock into
/// `node_modules/.package-lock.json` when it installs, so a lock file newer than that copy
/// (a pull that added a package) means the installation is out of date.
fn installed_matches_lock(frontend: &Path) -> bool {
    let modified = |p: &Path| std::fs::metadata(p).and_then(|m| m.modified()).ok();
    match (
        modified(&frontend.join("node_modules/.package-lock.json")),
        modified(&frontend.join("package-lock.json")),
    ) {
        (Some(installed), Some(lock)) => installed >= lock,
        _ => false,
    }
}
