//! Stage 7: write the output folder, always as one whole build. A new folder is written beside
//! its place and renamed in when complete; a previous build is brought up to date by one
//! transaction (see `transaction`). Either way a failed, killed or crashed build leaves the
//! previous output as it was, and the next build cleans up whatever it left.

mod edited;
mod files;
pub mod guard;
pub mod headers;
pub mod llms;
mod search_index;
mod siblings;
pub mod sitemap;
pub mod tables;
pub mod transaction;
pub mod update;

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use rayon::prelude::*;

use crate::diagnostics::{Diagnostic, Diagnostics};
use crate::model::{RouteEntry, Site};
use crate::render::Renderer;
use crate::search;
use files::{data_files, templated_files};
pub use search_index::{
    SearchFiles, SearchJob, finish_search, search_job, write_marker_if_due, write_search,
};
use transaction::{Fill, Transaction};

pub use crate::model::assets::FAVICON_ROUTE;

/// What a build wrote.
#[derive(Debug, Default, Clone, Copy)]
pub struct Stats {
    pub pages: usize,
    pub redirects: usize,
    pub files: usize,
    /// Files whose bytes were written (every file of a fresh build).
    pub written: usize,
    /// Files of the previous build that are no longer part of the site.
    pub removed: usize,
}

/// The file of a route: `/a/b` → `a/b/index.html`, `/` → `index.html`.
pub fn route_file(route: &str) -> PathBuf {
    let trimmed = route.trim_matches('/');
    if trimmed.is_empty() {
        PathBuf::from("index.html")
    } else {
        Path::new(trimmed).join("index.html")
    }
}

fn io_error(path: &Path, e: std::io::Error) -> Diagnostic {
    Diagnostic::new("io.write", format!("cannot write {}: {e}", path.display()))
        .hint("check the output folder's permissions and free space")
}

/// Writes a file whose folder exists (see `create_dirs`).
fn write_file(root: &Path, rel: &Path, bytes: &[u8]) -> Result<(), Diagnostic> {
    write_file_with(root, rel, |to| to.write_all(bytes).map_err(Fill::Write))
}

/// Writes a file whose folder exists, its bytes given by `fill` through a buffer.
fn write_file_with(
    root: &Path,
    rel: &Path,
    fill: impl FnOnce(&mut dyn std::io::Write) -> Result<(), Fill>,
) -> Result<(), Diagnostic> {
    confined(rel)?;
    let path = root.join(rel);
    transaction::fill_file(&path, fill).map_err(|e| io_error(&path, e))?
}

/// Creates every folder the files need, parents first, once each: cheaper than asking for
/// each file's folder again (the file system is often the slowest part of a build).
fn create_dirs<'p>(root: &Path, files: impl Iterator<Item = &'p Path>) -> Result<(), Diagnostic> {
    let mut dirs = std::collections::BTreeSet::new();
    for f in files {
        let mut d = f.parent();
        while let Some(dir) = d.filter(|d| !d.as_os_str().is_empty()) {
            if !dirs.insert(dir.to_path_buf()) {
                break;
            }
            d = dir.parent();
        }
    }
    // Level by level, parents before children; the folders of one level in parallel, as
    // making folders is what a large build spends most of its time on in the kernel.
    let mut levels: Vec<Vec<PathBuf>> = Vec::new();
    for dir in dirs {
        let depth = dir.components().count();
        if levels.len() < depth {
            levels.resize(depth, Vec::new());
        }
        levels[depth - 1].push(dir);
    }
    for level in levels {
        level.par_iter().try_for_each(|dir| {
            let path = root.join(dir);
            match std::fs::create_dir(&path) {
                Ok(()) => Ok(()),
                Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => Ok(()),
                Err(e) => Err(io_error(&path, e)),
            }
        })?;
    }
    Ok(())
}

/// The last line of defence: the checks refuse such paths with their file and line first.
fn confined(rel: &Path) -> Result<(), Diagnostic> {
    if guard::is_confined(rel) {
        Ok(())
    } else {
        Err(Diagnostic::new(
            "output.outside",
            format!(
                "refusing to write {}: it leads outside the output folder",
                rel.display()
            ),
        )
        .hint("routes, legacy routes and publish paths must be plain relative paths"))
    }
}

fn render_error(what: &str, e: minijinja::Error, root: &Path) -> Diagnostic {
    let d = render_error_message(what, &e);
    // The writer's copy of a template: point at it.
    match crate::render::writers_template(&e, root) {
        Some((rel, source)) => d
            .in_file(rel)
            .at(e.line().unwrap_or(1), 1)
            .with_source(&source),
        None => d,
    }
}

/// A template that fails for every page is one mistake: one diagnostic per place, counting
/// the pages it broke.
fn one_per_place(errors: Vec<Diagnostic>) -> Diagnostics {
    let place = |d: &Diagnostic| d.file.clone().map(|f| (d.code, f, d.line));
    Diagnostics(
        crate::diagnostics::fold_repeats(errors, place)
            .into_iter()
            .map(|(mut d, more)| {
                if more > 0 {
                    d.message = format!("{} (and {more} more)", d.message);
                }
                d
            })
            .collect(),
    )
}

fn render_error_message(what: &str, e: &minijinja::Error) -> Diagnostic {
    if e.kind() == minijinja::ErrorKind::OutOfFuel {
        return Diagnostic::new(
            "template.too-long",
            format!(
                "rendering {what} did not finish within {} steps (template {})",
                crate::content::templating::FUEL,
                e.name().unwrap_or("?")
            ),
        )
        .hint("look for a loop over a huge range or list in your copy of that template under templates/");
    }
    Diagnostic::new("template.render", format!("rendering {what} failed: {e:#}"))
        .hint("fix the template named in the message")
}

/// Writes the whole site to `out`, which `guard::claim` accepted, whose lock the caller holds
/// and which `transaction::recover` brought to one whole build. Over a previous build that lists its files, or into an empty folder, only what
/// changed is written, as one transaction (see `update`); otherwise everything goes into a
/// new sibling folder that takes the place of `out` only when all of it was written. Either
/// way everything is rendered and validated before anything a reader sees changes.
pub fn write(
    site: &Site<'_>,
    renderer: &Renderer<'_, '_>,
    out: &Path,
) -> Result<Stats, Diagnostics> {
    let one = |d| Diagnostics(vec![d]);
    if guard::is_ours(out)
        && let Some((previous, marked_at)) = update::Manifest::read(out)
    {
        return update::update(site, renderer, out, &previous, marked_at);
    }
    // An empty folder (perhaps a mount point, which cannot be replaced) is filled in place;
    // the marker goes first, so a stopped build leaves a folder the next one may clean.
    if std::fs::read_dir(out).is_ok_and(|mut entries| entries.next().is_none()) {
        let empty = update::Manifest::default();
        let marker = out.join(guard::MARKER);
        std::fs::write(&marker, empty.marker_text()).map_err(|e| one(io_error(&marker, e)))?;
        let marked_at = std::fs::metadata(&marker)
            .and_then(|m| m.modified())
            .map_err(|e| one(io_error(&marker, e)))?;
        return update::update(site, renderer, out, &empty, marked_at);
    }
    let tmp = siblings::fresh(out).map_err(one)?;
    let result = write_into(site, renderer, &tmp);
    match result {
        Ok(stats) => {
            siblings::swap(&tmp, out).map_err(|d| {
                let _ = std::fs::remove_dir_all(&tmp);
                one(d)
            })?;
            Ok(stats)
        }
        Err(e) => {
            let _ = std::fs::remove_dir_all(&tmp);
            Err(e)
        }
    }
}

fn write_into(
    site: &Site<'_>,
    renderer: &Renderer<'_, '_>,
    tmp: &Path,
) -> Result<Stats, Diagnostics> {
    let routes: Vec<_> = site.written_routes().collect();
    let page_files: Vec<PathBuf> = routes.iter().map(|(r, _)| route_file(r)).collect();
    let (files, mut errors) = templated_files(site, renderer);
    let (data, data_errors) = data_files(site, renderer);
    errors.extend(data_errors.0);
    let plan = search::Plan::new(site);
    create_dirs(
        tmp,
        page_files
            .iter()
            .map(PathBuf::as_path)
            .chain(files.iter().map(|(p, _)| p.as_path()))
            .chain(data.iter().map(|f| f.path.as_path())),
    )
    .map_err(|d| Diagnostics(vec![d]))?;
    // Each page is written as soon as it is rendered, and its words added to the search index:
    // memory holds a few pages, not all.
    let postings = search::Postings::default();
    let pages: Vec<Result<Vec<(PathBuf, update::Written)>, Diagnostic>> = routes
        .par_iter()
        .zip(&page_files)
        .map(|((route, entry), file)| {
            let page = render_page(site, renderer, plan.is_some(), true, route, entry)?;
            write_file(tmp, file, page.html.as_bytes())?;
            let mut written = vec![(file.clone(), update::Written::of(page.html.as_bytes()))];
            if let Some((path, bytes)) = &page.twin {
                write_file(tmp, path, bytes)?;
                written.push((path.clone(), update::Written::of(bytes)));
            }
            let doc = plan.as_ref().and_then(|p| p.doc_of(route));
            if let (Some(doc), Some(terms)) = (doc, page.indexed) {
                postings.add(doc, &terms);
            }
            Ok(written)
        })
        .collect();
    let mut manifest = update::Manifest::default();
    for page in pages {
        match page {
            Ok(w) => manifest.0.extend(w),
            Err(d) => errors.push(d),
        }
    }
    let write = |(rel, bytes): &(PathBuf, Vec<u8>)| {
        write_file(tmp, rel, bytes)?;
        Ok((rel.clone(), update::Written::of(bytes)))
    };
    // The index is made on one core (its terms in order) while the other files are written.
    let (index_files, mut others): (_, Vec<Result<(PathBuf, update::Written), Diagnostic>>) =
        rayon::join(
            || {
                plan.as_ref()
                    .map_or_else(Vec::new, |plan| postings.files(plan))
            },
            || {
                files
                    .par_iter()
                    .map(write)
                    .chain(data.par_iter().map(|f| {
                        let made = f.make()?;
                        let written = made.written()?;
                        write_file_with(tmp, &f.path, |to| made.write_to(to))?;
                        Ok((f.path.clone(), written))
                    }))
                    .collect()
            },
        );
    create_dirs(tmp, index_files.iter().map(|(p, _)| p.as_path()))
        .map_err(|d| Diagnostics(vec![d]))?;
    others.extend(index_files.par_iter().map(write).collect::<Vec<_>>());
    for file in others {
        match file {
            Ok((rel, w)) => {
                manifest.0.insert(rel, w);
            }
            Err(d) => errors.push(d),
        }
    }
    if !errors.is_empty() {
        return Err(one_per_place(errors.0));
    }
    // The marker last: a folder holding it is a complete build (see `siblings::recover`).
    let marker = tmp.join(guard::MARKER);
    transaction::faults::before_write()
        .and_then(|()| std::fs::write(&marker, manifest.marker_text()))
        .map_err(|e| Diagnostics(vec![io_error(&marker, e)]))?;
    Ok(Stats {
        pages: routes.len(),
        redirects: site.redirects.len(),
        files: manifest.0.len(),
        written: manifest.0.len(),
        removed: 0,
    })
}

/// Renders every file of the output without writing any: `check` finds what `build` would.
pub fn verify(site: &Site<'_>, renderer: &Renderer<'_, '_>) -> Result<(), Diagnostics> {
    let mut errors: Vec<Diagnostic> = site
        .written_routes()
        .collect::<Vec<_>>()
        .par_iter()
        .filter_map(|(route, entry)| render_page(site, renderer, false, true, route, entry).err())
        .collect();
    let (files, templated_errors) = templated_files(site, renderer);
    let (data, data_errors) = data_files(site, renderer);
    errors.extend(templated_errors.0);
    errors.extend(data_errors.0);
    let paths = files
        .iter()
        .map(|(rel, _)| rel)
        .chain(data.iter().map(|f| &f.path));
    errors.extend(paths.filter_map(|rel| confined(rel).err()));
    if errors.is_empty() {
        Ok(())
    } else {
        Err(one_per_place(errors))
    }
}

/// Removes a file docgen wrote, and the folders that leaves empty, so the tree equals a
/// fresh build.
fn remove_written(out: &Path, rel: &Path) {
    let path = out.join(rel);
    let _ = std::fs::remove_file(&path);
    if let Some(dir) = path.parent() {
        remove_empty_folders(out, dir);
    }
}

/// Removes `dir` and its parents below `out` as long as they are empty.
fn remove_empty_folders(out: &Path, dir: &Path) {
    let mut dir = Some(dir);
    while let Some(d) = dir.filter(|d| *d != out && d.starts_with(out)) {
        if std::fs::remove_dir(d).is_err() {
            break;
        }
        dir = d.parent();
    }
}

/// Leaves the marker that lets a later build replace the folder.
pub fn mark(dir: &Path) -> Result<(), Diagnostic> {
    let path = dir.join(guard::MARKER);
    std::fs::write(&path, guard::MARKER_TEXT).map_err(|e| io_error(&path, e))
}

/// A rendered page, the words it gives the search index when it is indexed, and its Markdown
/// twin when the site writes twins.
struct RenderedPage {
    html: String,
    indexed: Option<search::Terms>,
    twin: Option<(PathBuf, Vec<u8>)>,
}

/// Renders a page and, with `index` and when search finds it, its words for the index; with
/// `twin` and when the site writes them, its Markdown twin.
fn render_page(
    site: &Site<'_>,
    renderer: &Renderer<'_, '_>,
    index: bool,
    twin: bool,
    route: &str,
    entry: &RouteEntry,
) -> Result<RenderedPage, Diagnostic> {
    let page = &site.pages[entry.page];
    let body = crate::content::body_html(site.config, page)?;
    let html = renderer.page(route, entry, &body).map_err(|e| {
        let d = render_error(&format!("the page {route}"), e, &site.config.root);
        if d.file.is_some() {
            d
        } else {
            d.in_file(&site.pages[entry.page].file)
        }
    })?;
    let indexed = (index && search::indexes(site, entry)).then(|| search::terms(page, &body));
    let twin = if twin && llms::enabled(site) {
        Some((llms::twin_file(route), llms::twin(site, route, entry)?))
    } else {
        None
    };
    Ok(RenderedPage {
        html,
        indexed,
        twin,
    })
}

/// What the previous incremental write left in the output folder.
#[derive(Debug, Default)]
pub struct OutputState {
    /// Every file written, with a digest of its bytes.
    files: HashMap<PathBuf, update::Written>,
    /// The marker's text as last written.
    marker: String,
    /// The render fingerprint each page was written with.
    pages: HashMap<String, u64>,
    /// The words each indexed page gave the search index when it was last rendered.
    search: HashMap<String, std::sync::Arc<search::Terms>>,
    /// The search index of the pages last written (see `write_search`).
    search_plan: Option<std::sync::Arc<search::Plan>>,
    /// Whether the pages changed since the search index was last written.
    search_due: bool,
    /// Counts the writes of pages, so a search index made meanwhile is known to be stale.
    generation: u64,
    /// Whether files changed since the marker was last written (see `edited::write_edited`).
    marker_due: bool,
    /// `right-menu.json` by entries, once an edit of page bodies needed it.
    right_menu: Option<edited::RightMenu>,
    global: u64,
    /// Held for writing while a change is applied, so that whoever serves the folder and
    /// takes it for reading never sees half of one.
    gate: Option<std::sync::Arc<std::sync::RwLock<()>>>,
}

impl OutputState {
    /// The state of an output folder whose readers take `gate` (see `Transaction::commit`).
    pub fn with_gate(gate: std::sync::Arc<std::sync::RwLock<()>>) -> Self {
        OutputState {
            gate: Some(gate),
            ..OutputState::default()
        }
    }

    fn gate(&self) -> Option<&std::sync::RwLock<()>> {
        self.gate.as_deref()
    }

    /// Takes over what a previous build left in `out` (its marker's list), so the first write
    /// of a session changes only what differs and removes only what docgen wrote. A file
    /// changed since the marker was written is written again.
    pub fn adopt(&mut self, out: &Path) {
        let Some((previous, marked_at)) = update::Manifest::read(out) else {
            return;
        };
        self.files = previous
            .0
            .into_iter()
            .map(|(rel, was)| {
                let same = update::unchanged_on_disk(out, &rel, &was, marked_at);
                (rel, if same { was } else { update::UNKNOWN })
            })
            .collect();
    }

    /// Remembers what a page was written with: its render fingerprint, and its words for the
    /// search index when it is indexed.
    fn remember(&mut self, route: &str, fingerprint: u64, indexed: Option<search::Terms>) {
        if let Some(terms) = indexed {
            self.search
                .insert(route.to_string(), std::sync::Arc::new(terms));
        }
        self.pages.insert(route.to_string(), fingerprint);
    }

    /// Writes the marker when the files it lists changed.
    fn write_marker(&mut self, out: &Path) -> Result<(), Diagnostics> {
        if let Some(marker) = marker_text(&self.files, &self.marker) {
            Transaction::begin(out).commit(&[], Some(&marker), self.gate())?;
            self.marker = marker;
        }
        self.marker_due = false;
        Ok(())
    }
}

/// The marker's text for `files`, when it differs from the text last written: it lists them
/// as a full build's does.
fn marker_text(files: &HashMap<PathBuf, update::Written>, last: &str) -> Option<String> {
    let manifest = update::Manifest(files.iter().map(|(p, w)| (p.clone(), *w)).collect());
    let marker = manifest.marker_text();
    (marker != last).then_some(marker)
}

/// What an incremental write changed.
#[derive(Debug, Default)]
pub struct Changes {
    /// Pages rendered again (their inputs changed).
    pub rendered: Vec<String>,
    /// Files whose bytes changed and were rewritten, in order.
    pub written: Vec<PathBuf>,
    pub removed: Vec<PathBuf>,
}

fn digest(bytes: &[u8]) -> u64 {
    use std::hash::{Hash, Hasher};
    let mut h = rustc_hash::FxHasher::default();
    bytes.hash(&mut h);
    h.finish()
}

/// A page rendered again by the preview server, its files staged when their bytes changed.
struct ChangedPage {
    route: String,
    fingerprint: u64,
    /// The page's file and its Markdown twin, with their digests.
    files: Vec<(PathBuf, update::Written)>,
    indexed: Option<search::Terms>,
}

/// Renders the page at `route` and stages its files whose bytes differ from what `known`
/// says the output holds.
fn stage_page(
    site: &Site<'_>,
    renderer: &Renderer<'_, '_>,
    change: &Transaction<'_>,
    known: &HashMap<PathBuf, update::Written>,
    (route, entry, fingerprint): (&str, &RouteEntry, u64),
) -> Result<ChangedPage, Diagnostic> {
    let indexing = site.config.site.search.enabled;
    let page = render_page(site, renderer, indexing, true, route, entry)?;
    let mut files = vec![(route_file(route), page.html.into_bytes())];
    files.extend(page.twin);
    let files = files
        .into_iter()
        .map(|(file, bytes)| stage_if_changed(change, known, file, &bytes))
        .collect::<Result<_, _>>()?;
    Ok(ChangedPage {
        route: route.to_string(),
        fingerprint,
        files,
        indexed: page.indexed,
    })
}

/// Stages `bytes` as `file` unless `known` says the output holds them already.
fn stage_if_changed(
    change: &Transaction<'_>,
    known: &HashMap<PathBuf, update::Written>,
    file: PathBuf,
    bytes: &[u8],
) -> Result<(PathBuf, update::Written), Diagnostic> {
    let digest = update::Written::of(bytes);
    if known.get(&file) != Some(&digest) {
        change.stage(&file, bytes)?;
    }
    Ok((file, digest))
}

/// Brings `out` up to date in place, as one transaction: renders only the pages whose inputs
/// changed (by their render fingerprint), stages only files whose bytes changed, and removes
/// files that are no longer part of the site. The folder then equals a fresh full build of
/// the same input; a failure anywhere leaves it as the last good build.
///
/// `edited`: the routes of the only pages that changed since the last successful write, when
/// nothing any other page shows changed; then only those pages are fingerprinted and rendered.
/// With `search`, the search index is made and written in the same transaction; without, it
/// is left for `write_search` (the preview server makes it while the writer pauses).
pub fn write_incremental(
    site: &Site<'_>,
    renderer: &Renderer<'_, '_>,
    out: &Path,
    state: &mut OutputState,
    (edited, search): (Option<&[String]>, bool),
) -> Result<Changes, Diagnostics> {
    let global = renderer.global_fingerprint();
    let known_pages = |route: &str| {
        if global == state.global {
            state.pages.get(route).copied()
        } else {
            None
        }
    };
    let timing = std::env::var_os("DOCGEN_TIMINGS").is_some();
    let t = std::time::Instant::now();
    let routes: Vec<_> = site.written_routes().collect();
    // Only the edited pages (and their aliases) can have changed: no need to look at the rest.
    let edited_pages: Option<rustc_hash::FxHashSet<usize>> = edited
        .filter(|_| global == state.global && !state.pages.is_empty())
        .map(|routes| {
            routes
                .iter()
                .filter_map(|r| site.routes.get(r.as_str()).map(|e| e.page))
                .collect()
        });
    if let Some(pages) = &edited_pages {
        return edited::write_edited(site, renderer, out, state, pages);
    }
    let todo: Vec<(&str, &RouteEntry, u64)> = routes
        .par_iter()
        .map(|(r, e)| (*r, *e, renderer.page_fingerprint(r, e)))
        .filter(|(r, _, fp)| {
            known_pages(r) != Some(*fp)
                || !state.files.contains_key(&route_file(r))
                || (llms::enabled(site) && !state.files.contains_key(&llms::twin_file(r)))
        })
        .collect();
    if timing {
        eprintln!(
            "  fingerprints: {:.1?} ({} to render)",
            t.elapsed(),
            todo.len()
        );
    }
    let change = Transaction::begin(out);
    let known = &state.files;
    // Each page is staged as soon as it is rendered, while the other templated files render.
    let (rendered, (others, other_errors)) = rayon::join(
        || -> Vec<Result<ChangedPage, Diagnostic>> {
            todo.par_iter()
                .map(|&page| stage_page(site, renderer, &change, known, page))
                .collect()
        },
        || templated_files(site, renderer),
    );
    let mut pages = Vec::with_capacity(rendered.len());
    let mut errors = other_errors;
    for r in rendered {
        match r {
            Ok(p) => pages.push(p),
            Err(d) => errors.push(d),
        }
    }
    if !errors.is_empty() {
        return Err(one_per_place(errors.0));
    }
    if timing {
        eprintln!("  rendered: {:.1?}", t.elapsed());
    }

    // What the folder holds once the change is applied: the pages not rendered again keep
    // their files, the search index stays until `write_search`.
    let mut wanted: HashMap<PathBuf, update::Written> = HashMap::with_capacity(routes.len() + 64);
    let twins = llms::enabled(site);
    for (r, _) in &routes {
        let f = route_file(r);
        if let Some(&d) = known.get(&f) {
            wanted.insert(f, d);
        }
        if twins {
            let t = llms::twin_file(r);
            if let Some(&d) = known.get(&t) {
                wanted.insert(t, d);
            }
        }
    }
    let plan = search::Plan::new(site);
    if search {
        if let Some(plan) = &plan {
            let fresh: HashMap<&str, &search::Terms> = pages
                .iter()
                .filter_map(|p| Some((p.route.as_str(), p.indexed.as_ref()?)))
                .collect();
            let postings = search::Postings::default();
            for (route, doc) in plan.docs() {
                let terms = fresh
                    .get(route)
                    .copied()
                    .or_else(|| state.search.get(route).map(|t| &**t));
                if let Some(terms) = terms {
                    postings.add(doc, terms);
                }
            }
            for (path, bytes) in postings.files(plan) {
                let (path, d) = stage_if_changed(&change, known, path, &bytes)
                    .map_err(|d| Diagnostics(vec![d]))?;
                wanted.insert(path, d);
            }
        }
    } else {
        for (path, d) in known {
            if path.starts_with(search::FOLDER) {
                wanted.insert(path.clone(), *d);
            }
        }
    }
    for page in &pages {
        wanted.extend(page.files.iter().cloned());
    }
    let (data, data_errors) = data_files(site, renderer);
    errors.extend(data_errors.0);
    let made: Vec<Result<(PathBuf, update::Written), Diagnostic>> = others
        .par_iter()
        .map(|(file, bytes)| stage_if_changed(&change, known, file.clone(), bytes))
        .chain(data.par_iter().map(|file| {
            let made = file.make()?;
            let digest = made.written()?;
            if known.get(&file.path) != Some(&digest) {
                change.stage_with(&file.path, |to| made.write_to(to))?;
            }
            Ok((file.path.clone(), digest))
        }))
        .collect();
    for file in made {
        match file {
            Ok((path, digest)) => {
                wanted.insert(path, digest);
            }
            Err(d) => errors.push(d),
        }
    }
    if !errors.is_empty() {
        return Err(one_per_place(errors.0));
    }
    let mut removed: Vec<PathBuf> = known
        .keys()
        .filter(|old| !wanted.contains_key(*old))
        .cloned()
        .collect();
    removed.sort();
    let mut written: Vec<PathBuf> = wanted
        .iter()
        .filter(|(path, digest)| known.get(*path) != Some(digest))
        .map(|(path, _)| path.clone())
        .collect();
    written.sort();
    let marker = marker_text(&wanted, &state.marker);
    if let Err(e) = change.commit(&removed, marker.as_deref(), state.gate()) {
        forget_digests(state, wanted);
        return Err(e);
    }
    if timing {
        eprintln!("  {} files written: {:.1?}", written.len(), t.elapsed());
    }

    // Applied: the state describes the folder as it now is.
    state.right_menu = None;
    match &plan {
        Some(plan) => state.search.retain(|route, _| plan.doc_of(route).is_some()),
        None => state.search.clear(),
    }
    state.search_plan = plan.map(std::sync::Arc::new);
    state.search_due = !search;
    state.generation += 1;
    if global != state.global {
        state.pages.clear();
    }
    let mut changes = Changes {
        written,
        removed,
        ..Changes::default()
    };
    for page in pages {
        state.remember(&page.route, page.fingerprint, page.indexed);
        changes.rendered.push(page.route);
    }
    state.pages.retain(|r, _| site.routes.contains_key(r));
    state.files = wanted;
    state.global = global;
    if let Some(marker) = marker {
        state.marker = marker;
    }
    state.marker_due = false;
    Ok(changes)
}

/// After a change failed part-way through being applied, some files may hold new bytes:
/// forget every digest, so the next run rewrites them all and removes whatever is not part of
/// the site.
fn forget_digests(state: &mut OutputState, wanted: HashMap<PathBuf, update::Written>) {
    state.pages.clear();
    for file in wanted.into_keys() {
        state.files.insert(file, update::UNKNOWN);
    }
    state.files.values_mut().for_each(|d| *d = update::UNKNOWN);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn routes_map_to_index_files() {
        assert_eq!(route_file("/"), PathBuf::from("index.html"));
        assert_eq!(route_file("/a/b"), PathBuf::from("a/b/index.html"));
    }
}
