//! Bundles the extension's app code (`frontend/src/extensions/adplatform/`, named by its
//! `bundles.mjs`) with esbuild through `frontend/build.mjs --extension adplatform`. The npm
//! packages are those docgen's build script installed: it runs first (`links` in its manifest).

use std::path::Path;
use std::process::Command;

/// What `frontend/build.mjs --extension adplatform` writes.
const BUNDLES: [&str; 2] = ["adplatform.js", "validator.js"];

fn main() {
    let manifest = std::env::var("CARGO_MANIFEST_DIR").expect("set by cargo");
    let frontend = Path::new(&manifest).join("../../frontend");
    let out = Path::new(&std::env::var("OUT_DIR").expect("set by cargo")).join("bundles");
    println!("cargo:rerun-if-changed=../../frontend/src/extensions/adplatform");
    println!("cargo:rerun-if-changed=../../frontend/build.mjs");
    // The app modules the bundles share with the app instead of bundling them.
    println!("cargo:rerun-if-changed=../../frontend/src/blocks/shared.mjs");
    println!("cargo:rerun-if-changed=../../frontend/package-lock.json");
    println!("cargo:rerun-if-env-changed=DOCGEN_PREBUILT_APP");
    std::fs::create_dir_all(&out).expect("create the bundle folder");

    // Bundles built elsewhere, beside the app's.
    if let Ok(prebuilt) = std::env::var("DOCGEN_PREBUILT_APP") {
        for file in BUNDLES {
            std::fs::copy(Path::new(&prebuilt).join(file), out.join(file))
                .unwrap_or_else(|e| panic!("DOCGEN_PREBUILT_APP has no {file}: {e}"));
        }
        return;
    }

    let status = Command::new("node")
        .arg(frontend.join("build.mjs"))
        .args(["--extension", "adplatform", "--outdir"])
        .arg(&out)
        .status()
        .unwrap_or_else(|e| {
            panic!("cannot run node frontend/build.mjs: {e} (Node.js 20 is needed to build docgen)")
        });
    assert!(
        status.success(),
        "node frontend/build.mjs --extension adplatform failed with {status}"
    );
    for file in BUNDLES {
        assert!(
            out.join(file).is_file(),
            "frontend/build.mjs did not write {file}"
        );
    }
}
