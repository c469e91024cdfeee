//! docgen: a static-site generator for developer documentation.
//!
//! The pipeline runs in stages, each a module with one job, data passed forward:
//! `config` → `content` (with `markdown`) → `model` → `checks` → `view` → `render` → `output`.
//! `serve` drives the same pipeline for the local preview server. `extension` is how a site's
//! own code (registered by the command, enabled in site.yaml) joins the pipeline between the
//! model and the checks; see ARCHITECTURE.md at the repository's root.
//! `scaffold` writes a new site (`docgen init`); `import` writes the configuration of an
//! mdBook or Docusaurus site in docgen's terms (`docgen import`).

// A `Diagnostic` is the error of most fallible steps; it is built on the error path only, so
// its size (a little over 128 bytes) costs nothing where it matters and boxing it would not pay.
#![allow(clippy::result_large_err)]

pub mod checks;
pub mod config;
pub mod content;
pub mod diagnostics;
pub mod extension;
pub mod fuzzing;
pub mod import;
pub mod markdown;
pub mod model;
pub mod output;
pub mod paths;
pub mod render;
pub mod scaffold;
pub mod search;
pub mod serve;
pub(crate) mod versioned;
pub mod view;

pub use versioned::{OlderConfig, Snapshots, older_configs, with_older};

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
    /// Replace an output folder that docgen did not make (never one holding the sources).
    pub force: bool,
    pub overrides: config::Overrides,
    /// The extensions a site may enable.
    pub extensions: extension::Registry,
}

/// The outcome of a successful build.
#[derive(Debug, Clone)]
pub struct Report {
    pub pages: usize,
    pub redirects: usize,
    pub stats: Option<output::Stats>,
    pub timings: Vec<(&'static str, Duration)>,
    /// What the site does not render as written, sorted by file and line.
    pub warnings: Vec<Diagnostic>,
    /// The earlier versions built beside the site (`versions:`), with their numbers of pages.
    pub versions: Vec<(String, usize)>,
}

/// Progress of the stages, for a progress display.
pub trait Progress: Sync {
    fn stage(&self, _name: &'static str) {}
}

pub struct Silent;
impl Progress for Silent {}

/// Runs the whole pipeline. On any content error nothing is written.
pub fn build(opts: &BuildOptions, progress: &dyn Progress) -> Result<Report, Diagnostics> {
    run(opts, progress, false).map(|(report, _)| report)
}

/// `check` (`opts.out` is ignored), then every external link of the site, for a job with
/// network access to try: never part of a build.
pub fn check_external(
    opts: &BuildOptions,
    progress: &dyn Progress,
) -> Result<(Report, Vec<checks::external::ExternalLink>), Diagnostics> {
    let opts = BuildOptions {
        out: None,
        ..opts.clone()
    };
    run(&opts, progress, true)
}

fn run(
    opts: &BuildOptions,
    progress: &dyn Progress,
    external: bool,
) -> Result<(Report, Vec<checks::external::ExternalLink>), Diagnostics> {
    let started = Instant::now();
    progress.stage("config");
    // A usage error stops the run before the output folder is looked at.
    config::check_overrides(&opts.overrides).map_err(|d| Diagnostics(vec![d]))?;
    let root = site_root(&opts.root).map_err(|d| Diagnostics(vec![d]))?;
    let out = match &opts.out {
        Some(out) => {
            Some(output::guard::claim(&root, out, opts.force).map_err(|d| Diagnostics(vec![d]))?)
        }
        None => None,
    };
    // Held until the build ends: no other build or preview server writes the same folder.
    let _lock = match &out {
        Some(out) => Some(output::guard::lock(out).map_err(|d| Diagnostics(vec![d]))?),
        None => None,
    };
    // Whatever a stopped build left is finished or undone first, even if this one fails.
    if let Some(out) = &out {
        output::transaction::recover(out).map_err(|d| Diagnostics(vec![d]))?;
    }
    let config = config::load(&root, &opts.overrides)?;
    // The earlier versions' content, read from git (none without `versions:`).
    let olders = older_configs(&config, &mut Snapshots::default())?;
    let mut older_caches: Vec<content::Cache> = olders.iter().map(|_| Default::default()).collect();
    // A build over its own previous output takes the renders of unchanged pages from it.
    let mut cache = match &out {
        Some(out) if output::guard::is_ours(out) => content::Cache::over_output(out),
        _ => content::Cache::default(),
    };
    let mut timings = Vec::new();
    let report = with_site(
        &config,
        &opts.extensions,
        &mut cache,
        &HashSet::new(),
        None,
        progress,
        |site| {
            with_older(
                &olders,
                &opts.extensions,
                &mut older_caches,
                progress,
                &mut |older_sites| {
                    timings.push(("read+check", started.elapsed()));
                    let mut report = Report {
                        pages: site.routes.len(),
                        redirects: site.redirects.len(),
                        stats: None,
                        timings: Vec::new(),
                        warnings: warnings_of(site),
                        versions: older_sites
                            .iter()
                            .map(|(name, s)| (name.to_string(), s.routes.len()))
                            .collect(),
                    };
                    // An earlier version's files are its commit's: its warnings say which.
                    for (name, s) in older_sites {
                        report
                            .warnings
                            .extend(warnings_of(s).into_iter().map(|mut d| {
                                d.message = format!("{} (version {name})", d.message);
                                d
                            }));
                    }
                    // Compiling the templates is part of checking too.
                    let catalog = versioned::catalog(&config, site, older_sites);
                    let views = versioned::placed(view::Views::new(site), &catalog, 0);
                    let renderer = render::Renderer::new(&views)
                        .map_err(|e| template_error(e, &config.root))?;
                    let older_views = versioned::older_views(older_sites, &catalog);
                    let older_renderers = versioned::renderers(&older_views, &config.root)?;
                    let older = versioned::outputs(site, older_sites, &older_renderers);
                    progress.stage("render");
                    let write_started = Instant::now();
                    match &out {
                        Some(out) => {
                            let mut state =
                                output::OutputState::open(out).map_err(|d| Diagnostics(vec![d]))?;
                            let pass = output::Pass {
                                edited: None,
                                search: true,
                                versions: &older,
                            };
                            let changes = output::write(site, &renderer, out, &mut state, pass)?;
                            report.stats = Some(output::stats(site, &state, &changes));
                            timings.push(("render+write", write_started.elapsed()));
                        }
                        // Rendering fails in ways nothing else finds (the writer's own templates).
                        None => {
                            output::verify(site, &renderer)?;
                            for o in &older {
                                output::verify(o.site, o.renderer)?;
                            }
                            timings.push(("render", write_started.elapsed()));
                        }
                    }
                    let links = if external {
                        checks::external::links(site)
                    } else {
                        Vec::new()
                    };
                    Ok((report, links))
                },
            )
        },
    );
    // Freeing a large site's pages takes a core tens of milliseconds that the build's caller
    // need not wait for: a command exits without it.
    std::thread::spawn(move || drop((cache, older_caches)));
    report.map(|(mut r, links)| {
        r.timings = timings;
        (r, links)
    })
}

/// The stages every run shares — content (through `cache`), assets, model, the enabled
/// extensions of `registry`, checks — and then `then` with the validated site. All errors of a
/// run are collected before giving up.
///
/// `shape`: the shape of the last good build through the same cache. When only page bodies
/// changed since (`Content::edited_bodies`), the model takes it over and the checks look at
/// what the edit can have broken only.
pub fn with_site<T>(
    config: &config::Config,
    registry: &extension::Registry,
    cache: &mut content::Cache,
    changed: &HashSet<PathBuf>,
    shape: Option<&model::Shape>,
    progress: &dyn Progress,
    then: impl FnOnce(&model::Site<'_>) -> Result<T, Diagnostics>,
) -> Result<T, Diagnostics> {
    let extensions = registry.enable(config)?;
    progress.stage("content");
    let (content, mut errors) = content::load_cached(config, cache, changed);
    let assets = match model::assets::load(config) {
        Ok(mut a) => {
            a.add_page_files(config, content.pages.iter().map(|p| &**p));
            for (name, bytes) in extensions.bundles() {
                a.add_bundle(name, bytes);
            }
            a
        }
        Err(e) => {
            errors.extend(e.0);
            return Err(errors);
        }
    };
    progress.stage("model");
    let site = match (shape, &content.edited_bodies) {
        (Some(shape), Some(edited)) if errors.is_empty() => {
            let mut site = model::reshaped(config, &content, assets, shape);
            // An edit may remove an anchor an extension's data leads to: it prepares again.
            let (found, extended) = extensions.prepare(&site);
            errors.extend(found);
            site.extensions = extended;
            progress.stage("checks");
            let found =
                checks::run_after_body_edits(&site, edited, &content.failed, content.incomplete);
            keep_warnings(&mut site, found.0, &mut errors);
            site
        }
        _ => {
            let (mut site, model_errors) = model::build(config, &content, assets);
            errors.extend(model_errors.0);
            let (found, extended) = extensions.prepare(&site);
            errors.extend(found);
            site.extensions = extended;
            progress.stage("checks");
            let found = checks::run(&site, &content.failed, content.incomplete);
            keep_warnings(&mut site, found.0, &mut errors);
            site
        }
    };
    if !errors.is_empty() {
        return Err(errors);
    }
    then(&site)
}

/// The checks' warnings go with the site (`Site::notes`), their errors stop the run.
fn keep_warnings(site: &mut model::Site<'_>, found: Vec<Diagnostic>, errors: &mut Diagnostics) {
    let (warnings, found): (Vec<_>, Vec<_>) = found.into_iter().partition(|d| d.is_warning());
    site.notes.extend(warnings);
    errors.extend(found);
}

/// The warnings of every page of the site and the site's own, in the order diagnostics are
/// printed.
pub fn warnings_of(site: &model::Site<'_>) -> Vec<Diagnostic> {
    let all = site.pages.iter().flat_map(|p| p.warnings.iter().cloned());
    Diagnostics(all.chain(site.notes.iter().cloned()).collect()).into_sorted()
}

/// A template of the shell that does not compile, named by its file when it is the writer's.
pub fn template_error(e: minijinja::Error, root: &Path) -> Diagnostics {
    let d = Diagnostic::new(
        "template.invalid",
        format!("a template does not compile: {e:#}"),
    )
    .hint("fix the template under templates/");
    let d = match render::writers_template(&e, root) {
        Some((rel, source)) => Diagnostic::new(
            "template.invalid",
            format!(
                "the template does not compile: {}",
                e.detail().unwrap_or("syntax error")
            ),
        )
        .in_file(rel)
        .at(e.line().unwrap_or(1), 1)
        .with_source(&source)
        .hint("fix the Jinja syntax here, or delete the file to use docgen's own template"),
        None => d,
    };
    Diagnostics(vec![d])
}

/// The site root, resolved (`x/../site` and links), so everything after uses one spelling of
/// it. It must be an existing folder: anything else is a usage error.
pub fn site_root(root: &Path) -> Result<PathBuf, Diagnostic> {
    let resolved = paths::resolve(root);
    if resolved.is_dir() {
        return Ok(resolved);
    }
    let why = if resolved.exists() {
        "is not a folder"
    } else {
        "does not exist"
    };
    Err(Diagnostic::new(
        "usage.root",
        format!("the site root {} {why}", root.display()),
    )
    .hint("pass --root with the folder that holds site.yaml and content/"))
}

/// Pages a parallel loop over pages hands a thread at a time: few enough that no thread is
/// left with a long run of them while the others have none (a loop's end is on all cores).
pub const PAGES_PER_JOB: usize = 32;

/// Bytes of rendered HTML a build of a site of `pages` pages may hold in memory between
/// reading and writing its pages; past it, bodies wait in a temporary file (`content::spill`),
/// so memory stays bounded at any site size; the Markdown kept for the twins has a budget of the
/// same size (`content::spill`). 64 MB (a 10,000-page site's bodies nearly all
/// fit), less in proportion past 20,000 pages (at 100,000 pages the rest of the build needs the
/// room: 13 MB), or `DOCGEN_HELD_MB` whatever the size (0 holds nothing: the least memory).
pub fn held_bytes(pages: usize) -> usize {
    const DEFAULT_MB: usize = 64;
    const FULL_BUDGET_PAGES: usize = 20_000;
    static GIVEN: std::sync::OnceLock<Option<usize>> = std::sync::OnceLock::new();
    let given = GIVEN.get_or_init(|| {
        std::env::var("DOCGEN_HELD_MB")
            .ok()
            .and_then(|v| v.trim().parse::<usize>().ok())
    });
    match given {
        Some(mb) => mb << 20,
        None => {
            let share = FULL_BUDGET_PAGES as u64 * (DEFAULT_MB << 20) as u64;
            (share / pages.max(FULL_BUDGET_PAGES) as u64) as usize
        }
    }
}

/// The default output folder of a site.
pub fn default_out(root: &Path) -> PathBuf {
    root.join("dist")
}
