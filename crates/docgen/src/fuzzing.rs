//! Entry points that take raw bytes, shared by the fuzz targets (`fuzz/`) and the corpus
//! regression test (`tests/fuzz_corpus.rs`).
//!
//! Each one runs the real code path of one input file, from its bytes to the diagnostics a
//! writer would see: the text checks every file passes first (UTF-8, no NUL bytes), then the
//! parser. None of them may panic, whatever the input; a bad input ends in diagnostics.

use std::path::Path;
use std::sync::Arc;

use crate::config::{self, Overrides, source};
use crate::content::frontmatter;
use crate::diagnostics::{Diagnostic, render_human, render_json};
use crate::markdown::{self, PageContext};
use crate::model::redirects;

/// A page file: its front matter split from the body and parsed into `FrontMatter`.
pub fn frontmatter(data: &[u8]) {
    let Some(source) = text(data, "content/page.md") else {
        return;
    };
    let split = frontmatter::split(&source);
    let Some((yaml, line)) = split.yaml else {
        return;
    };
    match frontmatter::parse(yaml, line, Path::new("content/page.md"), &source) {
        Ok(front) => {
            for n in [&front.order, &front.weight].into_iter().flatten() {
                let _ = n.value();
            }
            for f in [&front.hidden, &front.page, &front.toc, &front.template]
                .into_iter()
                .flatten()
            {
                let _ = f.value();
            }
            if let Some(g) = &front.generate {
                let _ = g.sources();
            }
        }
        Err(d) => show(&d),
    }
}

/// A page body: Markdown with the site's extensions, rendered for a page in a small site.
pub fn markdown(data: &[u8]) {
    let Some(text) = text(data, "content/page.md") else {
        return;
    };
    let features = ["beta".to_string()];
    let ctx = PageContext {
        title: "Fuzz Page",
        route: "/docs/platform/page",
        file_dir: "/docs/platform",
        base_path: "/preview",
        features: &features,
        allowed_schemes: &[],
        files: None,
        // Both anchor rules, chosen by the input.
        anchors: if data.len().is_multiple_of(2) {
            markdown::anchors::AnchorRule::Literal
        } else {
            markdown::anchors::AnchorRule::Github
        },
        math: true,
        math_brackets: true,
        line_numbers: false,
        mdx: text.contains("import "),
        locale_prefix: "",
        locale_prefixes: &[],
    };
    let _ = markdown::render(&text, &ctx);
}

/// `redirects.yaml`: parsed and validated as the build reads it, then expanded into legacy routes.
pub fn redirects_yaml(data: &[u8]) {
    let Some(text) = text(data, "redirects.yaml") else {
        return;
    };
    match config::from_texts(Path::new("site"), None, Some(&text), &Overrides::default()) {
        Ok(config) => {
            if let Some((r, source)) = &config.redirects
                && let Err(e) = redirects::expand(r, source)
            {
                e.0.iter().for_each(show);
            }
        }
        Err(e) => e.0.iter().for_each(show),
    }
}

/// `site.yaml`: parsed into `SiteConfig` and validated as the build reads it.
pub fn site_yaml(data: &[u8]) {
    let Some(text) = text(data, "site.yaml") else {
        return;
    };
    match config::from_texts(Path::new("site"), Some(&text), None, &Overrides::default()) {
        Ok(config) => {
            let _ = config.absolute(config.home());
            for area in &config.site.areas {
                let _ = config.absolute(&area.route);
            }
        }
        Err(e) => e.0.iter().for_each(show),
    }
}

/// The checks every file's bytes pass before a parser sees them.
fn text(data: &[u8], name: &str) -> Option<Arc<str>> {
    source::check(data.to_vec(), Path::new(name))
        .map_err(|d| show(&d))
        .ok()
}

/// Formats a diagnostic both ways the command line prints them.
fn show(d: &Diagnostic) {
    let _ = render_human(d, false);
    let _ = render_json(d);
}
