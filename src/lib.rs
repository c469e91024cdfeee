//! docgen: a static-site generator for developer documentation.
//!
//! The pipeline runs in stages, each a module with one job, data passed forward:
//! `config` → `content` (with `markdown`) → `model` → `checks` → `render` → `output`.
//! `serve` drives the same pipeline for the local preview server.

pub mod checks;
pub mod config;
pub mod content;
pub mod diagnostics;
pub mod fuzzing;
pub mod markdown;
pub mod model;
pub mod output;
pub mod render;
pub mod serve;

use std::collections::HashSet;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use diagnostics::{Diagnostic, Diagnostics};

/// What to build and where.
#[derive(Debug, Clone)]
pub struct BuildOptions {
    pub root: PathBuf,
    /// `None` for `check`: validate everything, write nothing.
    pub out: Option<PathBuf>,
    pub overrides: config::Overrides,
}

/// The outcome of a successful build.
#[derive(Debug, Clone)]
pub struct Report {
    pub pages: usize,
    pub redirects: usize,
    pub stats: Option<output::Stats>,
    pub timings: Vec<(&'static str, Duration)>,
}

/// Progress of the stages, for a progress display.
pub trait Progress: Sync {
    fn stage(&self, _name: &'static str) {}
}

pub struct Silent;
impl Progress for Silent {}

/// Runs the whole pipeline. On any content error nothing is written.
pub fn build(opts: &BuildOptions, progress: &dyn Progress) -> Result<Report, Diagnostics> {
    let started = Instant::now();
    progress.stage("config");
    let config = config::load(&opts.root, &opts.overrides)?;
    if let Some(out) = &opts.out {
        output::check_out_dir(&opts.root, &config.content_dir(), out)
            .map_err(|d| Diagnostics(vec![d]))?;
    }
    let mut cache = content::Cache::default();
    let mut timings = Vec::new();
    let report = with_site(&config, &mut cache, &HashSet::new(), progress, |site| {
        timings.push(("read+check", started.elapsed()));
        let mut report = Report {
            pages: site.routes.len(),
            redirects: site.redirects.len(),
            stats: None,
            timings: Vec::new(),
        };
        // Compiling the templates is part of checking too.
        let renderer = render::Renderer::new(site).map_err(template_error)?;
        if let Some(out) = &opts.out {
            progress.stage("render");
            let write_started = Instant::now();
            report.stats = Some(output::write(site, &renderer, out)?);
            timings.push(("render+write", write_started.elapsed()));
        }
        Ok(report)
    });
    report.map(|mut r| {
        r.timings = timings;
        r
    })
}

/// The stages every run shares — content (through `cache`), assets, model, checks — and then
/// `then` with the validated site. All errors of a run are collected before giving up.
pub fn with_site<T>(
    config: &config::Config,
    cache: &mut content::Cache,
    changed: &HashSet<PathBuf>,
    progress: &dyn Progress,
    then: impl FnOnce(&model::Site<'_>) -> Result<T, Diagnostics>,
) -> Result<T, Diagnostics> {
    progress.stage("content");
    let (content, mut errors) = content::load_cached(config, cache, changed);
    let assets = match model::assets::load(config) {
        Ok(a) => a,
        Err(e) => {
            errors.extend(e.0);
            return Err(errors);
        }
    };
    progress.stage("model");
    let site = match model::build(config, &content, assets) {
        Ok(s) => s,
        Err(e) => {
            errors.extend(e.0);
            return Err(errors);
        }
    };
    progress.stage("checks");
    errors.extend(checks::run(&site, &content.failed).0);
    if !errors.is_empty() {
        return Err(errors);
    }
    then(&site)
}

/// A template of the shell that does not compile.
pub fn template_error(e: minijinja::Error) -> Diagnostics {
    Diagnostics(vec![
        Diagnostic::new(
            "template.invalid",
            format!("a template does not compile: {e:#}"),
        )
        .hint("fix the template under templates/"),
    ])
}

/// The default output folder of a site.
pub fn default_out(root: &Path) -> PathBuf {
    root.join("dist")
}
