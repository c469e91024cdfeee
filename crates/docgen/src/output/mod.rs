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
pub mod versions;

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use rayon::prelude::*;

use crate::PAGES_PER_JOB;
use crate::diagnostics::{Diagnostic, Diagnostics};
use crate::model::{RouteEntry, Site};
use crate::render::{Renderer, Worker};
use crate::search;
use files::{data_files, templated_files};
pub use search_index::{
    SearchFiles, SearchJob, finish_search, search_job, write_marker_if_due, write_search,
};
use transaction::Transaction;

pub use crate::model::assets::FAVICON_ROUTE;

/// What a build wrote.
#[derive(Debug, Default, Clone, Copy)]
pub struct Stats {
    pub pages: usize,
    pub redirects: usize,
    pub files: usize,
    /// Pages rendered, of every version: those whose view changed since the output folder's
    /// build, or all of them into a new folder.
    pub rendered: usize,
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

/// How a write goes about its work.
#[derive(Debug, Clone, Copy, Default)]
pub struct Pass<'a> {
    /// The routes of the only pages that changed since the last successful write through the
    /// same state, when nothing any other page shows changed (`Site::edited_bodies`): only
    /// those pages are fingerprinted and rendered.
    pub edited: Option<&'a [String]>,
    /// Make and write the search index in the same transaction; without, it is left for
    /// `write_search` (the preview server makes it while the writer pauses).
    pub search: bool,
    /// The earlier versions of a site with versions, written in the same transaction.
    pub versions: &'a [versions::Older<'a>],
}

/// The one way docgen writes its output, for `docgen build` and for every rebuild of the
/// preview server. `out` is a folder `guard::claim` accepted, whose lock the caller holds and
/// which `transaction::recover` brought to one whole build; `state` is what `out` holds (see
/// `OutputState::open` and `OutputState::with_gate`).
///
/// Everything is rendered and validated before anything a reader sees changes, and the change
/// is one transaction: over a previous build (or into an empty folder), only the files whose
/// bytes changed are staged and renamed in, and the files no longer part of the site removed;
/// otherwise the whole site is written into a new sibling folder that takes the place of `out`
/// when complete. A failure anywhere leaves `out` as the last good build; the folder then
/// equals a fresh full build of the same input.
pub fn write(
    site: &Site<'_>,
    renderer: &Renderer<'_, '_>,
    out: &Path,
    state: &mut OutputState,
    pass: Pass<'_>,
) -> Result<Changes, Diagnostics> {
    if !state.fresh {
        return apply(site, renderer, Transaction::begin(out), state, pass);
    }
    let one = |d| Diagnostics(vec![d]);
    let tmp = siblings::fresh(out).map_err(one)?;
    let written = apply(site, renderer, Transaction::fresh(&tmp), state, pass)
        .and_then(|changes| siblings::swap(&tmp, out).map_err(one).map(|()| changes));
    if written.is_err() {
        let _ = std::fs::remove_dir_all(&tmp);
        // The folder is as it was: the next write starts over.
        *state = OutputState {
            fresh: true,
            gate: state.gate.take(),
            session: state.session,
            ..OutputState::default()
        };
    } else {
        state.fresh = false;
    }
    written
}

/// What a build wrote, from what its write changed.
pub fn stats(site: &Site<'_>, state: &OutputState, changes: &Changes) -> Stats {
    Stats {
        pages: site.routes.len(),
        redirects: site.redirects.len(),
        files: state.files.len(),
        rendered: changes.rendered.len() + changes.older_rendered,
        written: changes.written.len(),
        removed: changes.removed.len(),
    }
}

/// Renders every file of the output without writing any: `check` finds what `build` would.
pub fn verify(site: &Site<'_>, renderer: &Renderer<'_, '_>) -> Result<(), Diagnostics> {
    let workers = renderer.workers();
    let mut errors: Vec<Diagnostic> = site
        .written_routes()
        .collect::<Vec<_>>()
        .par_iter()
        .with_max_len(PAGES_PER_JOB)
        .map_init(
            || workers.lend(),
            |lent, (route, entry)| {
                render_page((site, renderer, lent.worker()), false, true, route, entry).err()
            },
        )
        .flatten()
        .collect();
    let (files, templated_errors) = templated_files(site, renderer, &[]);
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
fn render_page<'r>(
    (site, renderer, worker): (&Site<'_>, &'r Renderer<'_, '_>, &mut Worker<'r>),
    index: bool,
    twin: bool,
    route: &str,
    entry: &RouteEntry,
) -> Result<RenderedPage, Diagnostic> {
    let page = &site.pages[entry.page];
    let body = crate::content::body_html(site.config, page)?;
    let html = renderer.page(worker, route, entry, &body).map_err(|e| {
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

/// What the output folder holds, as far as the writer knows: what the last write through the
/// same state left, or what a previous build's marker lists.
#[derive(Debug, Default)]
pub struct OutputState {
    /// Every file written, with a digest of its bytes.
    files: HashMap<PathBuf, update::Written>,
    /// The marker's text as last written.
    marker: String,
    /// The render fingerprint each page was written with (under `global`), as the marker
    /// lists them.
    pages: HashMap<String, u64>,
    /// The key of the search index the folder holds (`search::Plan::key`), when it is known
    /// to be made from the pages as they are.
    search_key: Option<u64>,
    /// The words each indexed page gave the search index when it was last rendered (kept by a
    /// session only).
    search: HashMap<String, std::sync::Arc<search::Terms>>,
    /// The search index of the pages last written (see `write_search`).
    search_plan: Option<std::sync::Arc<search::Plan>>,
    /// Whether the pages changed since the search index was last written.
    search_due: bool,
    /// The search index as written, which an edit of page bodies updates in place (kept by a
    /// session only, and only while it describes the files).
    live_search: Option<search::live::Live>,
    /// Counts the writes of pages, so a search index made meanwhile is known to be stale.
    generation: u64,
    /// Whether files changed since the marker was last written (see `edited::write_edited`).
    marker_due: bool,
    /// `right-menu.json` by entries, once an edit of page bodies needed it.
    right_menu: Option<edited::RightMenu>,
    /// `llms.txt` by its parts, likewise.
    llms: Option<llms::Index>,
    /// `.docgen-renders` by its entries, likewise; written when the writer pauses.
    renders: Option<edited::Renders>,
    global: u64,
    /// Held for writing while a change is applied, so that whoever serves the folder and
    /// takes it for reading never sees half of one.
    gate: Option<std::sync::Arc<std::sync::RwLock<()>>>,
    /// Kept across writes (the preview server): what each page was rendered from is
    /// remembered, so the next write renders only pages whose view changed.
    session: bool,
    /// The folder holds something docgen cannot bring up to date in place: the next write
    /// makes a new folder beside it.
    fresh: bool,
    /// The files of each earlier version as last written, by its folder, with the key they
    /// were made from (`versions::Older::key`): while both hold, it is not rendered again.
    older: HashMap<String, OlderFiles>,
}

/// An earlier version's key (`versions::Older::key`) and the files it wrote.
type OlderFiles = (u64, Vec<(PathBuf, update::Written)>);

impl OutputState {
    /// The state of an output folder whose readers take `gate` (see `Transaction::commit`),
    /// kept across the writes of a session.
    pub fn with_gate(gate: std::sync::Arc<std::sync::RwLock<()>>) -> Self {
        OutputState {
            gate: Some(gate),
            session: true,
            ..OutputState::default()
        }
    }

    /// The state of `out` for one build: a previous build that lists its files is brought up
    /// to date in place, and so is an empty folder (perhaps a mount point, which cannot be
    /// replaced; its marker goes first, so a stopped build leaves a folder the next one may
    /// clean); anything else is replaced by a new folder.
    pub fn open(out: &Path) -> Result<Self, Diagnostic> {
        let mut state = OutputState::default();
        let previous = guard::is_ours(out)
            .then(|| update::Manifest::read(out))
            .flatten();
        if let Some(previous) = previous {
            state.adopt_read(out, previous);
        } else if std::fs::read_dir(out).is_ok_and(|mut entries| entries.next().is_none()) {
            let marker = update::Manifest::default().marker_text();
            let path = out.join(guard::MARKER);
            std::fs::write(&path, &marker).map_err(|e| io_error(&path, e))?;
            state.marker = marker;
        } else {
            state.fresh = true;
        }
        Ok(state)
    }

    fn gate(&self) -> Option<&std::sync::RwLock<()>> {
        self.gate.as_deref()
    }

    /// Takes over what a previous build left in `out` (its marker's list), so the first write
    /// changes only what differs and removes only what docgen wrote. A file changed since the
    /// marker was written is written again.
    pub fn adopt(&mut self, out: &Path) {
        if let Some(previous) = update::Manifest::read(out) {
            self.adopt_read(out, previous);
        }
    }

    /// `adopt`, with the marker of `out` read (its lists, and when it was written).
    fn adopt_read(&mut self, out: &Path, (previous, marked_at, text): update::Marker) {
        self.marker = text;
        self.global = previous.renders.global;
        self.search_key = previous.renders.search;
        self.pages = previous.renders.pages.into_iter().collect();
        // An earlier version's files are those under its folder.
        self.older = previous
            .renders
            .older
            .into_iter()
            .map(|(folder, key)| {
                let files = previous
                    .files
                    .iter()
                    .filter(|(p, _)| p.starts_with(&folder))
                    .map(|(p, w)| (p.clone(), *w))
                    .collect();
                (folder, (key, files))
            })
            .collect();
        self.files = previous
            .files
            .into_par_iter()
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

    /// Whether the folder holds the page at `route` as rendered with `fingerprint` (under the
    /// state's global fingerprint): its file, and its twin when the site writes `twins`, as
    /// they were written.
    fn page_is_current(&self, route: &str, fingerprint: u64, twins: bool) -> bool {
        let held = |file: &PathBuf| self.files.get(file).is_some_and(|w| *w != update::UNKNOWN);
        self.pages.get(route) == Some(&fingerprint)
            && held(&route_file(route))
            && (!twins || held(&llms::twin_file(route)))
    }

    /// What the marker says the folder's files were made from.
    fn made_from(&self) -> MadeFrom<'_> {
        MadeFrom {
            global: self.global,
            search: self.search_key,
            pages: &self.pages,
            older: &self.older,
        }
    }

    /// Writes the marker when what it lists changed, with the renders' file when its entries
    /// changed (see `edited::Renders`).
    fn write_marker(&mut self, out: &Path) -> Result<(), Diagnostics> {
        let change = Transaction::begin(out);
        let renders = self.stage_renders(&change)?;
        if let Some(marker) = marker_text(&self.files, self.made_from(), &self.marker) {
            if let Err(e) = change.commit(&[], Some(&marker), self.gate()) {
                self.forget_renders(renders);
                return Err(e);
            }
            self.marker = marker;
        }
        self.marker_due = false;
        Ok(())
    }

    /// Stages the renders' file in `change` when its entries changed since it was written,
    /// and lists it with its new digest; its path, to `forget_renders` if the change fails.
    fn stage_renders(&mut self, change: &Transaction<'_>) -> Result<Option<PathBuf>, Diagnostics> {
        let Some((path, bytes)) = self.renders.as_mut().and_then(edited::Renders::due) else {
            return Ok(None);
        };
        let digest = update::Written::streamed(|to| to.write_all(&bytes))
            .expect("writing to memory does not fail");
        if self.files.get(&path) != Some(&digest)
            && let Err(d) = change.stage(&path, &bytes)
        {
            self.forget_renders(Some(path));
            return Err(Diagnostics(vec![d]));
        }
        self.files.insert(path.clone(), digest);
        Ok(Some(path))
    }

    /// The renders' file was not written as staged: it is written whole next time.
    fn forget_renders(&mut self, staged: Option<PathBuf>) {
        if let Some(path) = staged {
            self.files.insert(path, update::UNKNOWN);
        }
        self.renders = None;
    }
}

/// What the marker says the pages and the earlier versions were made from.
struct MadeFrom<'a> {
    global: u64,
    search: Option<u64>,
    pages: &'a HashMap<String, u64>,
    older: &'a HashMap<String, OlderFiles>,
}

/// The marker's text for `files` and what they were made from, when it differs from the text
/// last written: it lists them as a full build's does.
fn marker_text(
    files: &HashMap<PathBuf, update::Written>,
    from: MadeFrom<'_>,
    last: &str,
) -> Option<String> {
    let marker = update::marker_text_of(
        files.iter().map(|(p, w)| (p.as_path(), *w)).collect(),
        (from.global, from.search),
        from.pages.iter().map(|(r, fp)| (r.as_str(), *fp)).collect(),
        from.older
            .iter()
            .map(|(f, (key, _))| (f.as_str(), *key))
            .collect(),
    );
    (marker != last).then_some(marker)
}

/// What a write changed.
#[derive(Debug, Default)]
pub struct Changes {
    /// Pages rendered (their inputs changed, or nothing was known of them).
    pub rendered: Vec<String>,
    /// Pages of earlier versions rendered (a version is rendered whole when what it is made
    /// from changed).
    pub older_rendered: usize,
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

/// A page rendered by a write, its files staged when their bytes changed.
struct ChangedPage {
    route: String,
    fingerprint: u64,
    /// The page's file and its Markdown twin, with their digests.
    files: Vec<(PathBuf, update::Written)>,
    /// Its words, kept for a session's later search indexes.
    indexed: Option<search::Terms>,
}

/// The search index being made by a write: its plan and the postings gathered so far.
struct Indexing<'p> {
    plan: &'p search::Plan,
    postings: &'p search::Postings,
}

/// Renders the page at `route` and stages its files whose bytes differ from what `known`
/// says the output holds; its words go to `index` when one is being made, and are kept when
/// `keep`.
fn stage_page<'r>(
    (site, renderer, worker): (&Site<'_>, &'r Renderer<'_, '_>, &mut Worker<'r>),
    change: &Transaction<'_>,
    known: &HashMap<PathBuf, update::Written>,
    (index, keep): (Option<&Indexing<'_>>, bool),
    (route, entry, fingerprint): (&str, &RouteEntry, u64),
) -> Result<ChangedPage, Diagnostic> {
    let indexing = index.is_some() || (keep && site.config.site.search.enabled);
    let page = render_page((site, renderer, worker), indexing, true, route, entry)?;
    let mut files = vec![(route_file(route), page.html.into_bytes())];
    files.extend(page.twin);
    let files = files
        .into_iter()
        .map(|(file, bytes)| stage_if_changed(change, known, file, &bytes))
        .collect::<Result<_, _>>()?;
    if let (Some(index), Some(terms)) = (index, &page.indexed)
        && let Some(doc) = index.plan.doc_of(route)
    {
        index.postings.add(doc, terms);
    }
    Ok(ChangedPage {
        route: route.to_string(),
        fingerprint,
        files,
        indexed: page.indexed.filter(|_| keep),
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

/// `stage_if_changed` for a file made as it is written.
fn stage_data_file(
    change: &Transaction<'_>,
    known: &HashMap<PathBuf, update::Written>,
    file: &files::DataFile<'_>,
) -> Result<(PathBuf, update::Written), Diagnostic> {
    let made = file.make()?;
    let digest = made.written(&file.path)?;
    if known.get(&file.path) != Some(&digest) {
        change.stage_with(&file.path, |to| made.write_to(to))?;
    }
    Ok((file.path.clone(), digest))
}

/// The body of `write`: renders the pages whose view changed (by their render fingerprint;
/// every page when the state keeps none), stages the files whose bytes changed in `change`,
/// and commits it with the removal of the files no longer part of the site.
fn apply(
    site: &Site<'_>,
    renderer: &Renderer<'_, '_>,
    change: Transaction<'_>,
    state: &mut OutputState,
    Pass {
        edited,
        search,
        versions: older_versions,
    }: Pass<'_>,
) -> Result<Changes, Diagnostics> {
    let global = renderer.global_fingerprint();
    let keep = state.session;
    let timing = std::env::var_os("DOCGEN_TIMINGS").is_some();
    let t = std::time::Instant::now();
    // Only the edited pages (and their aliases) can have changed: no need to look at the rest.
    if let Some(routes) = edited.filter(|_| global == state.global && !state.pages.is_empty()) {
        let pages: rustc_hash::FxHashSet<usize> = routes
            .iter()
            .filter_map(|r| site.routes.get(r.as_str()).map(|e| e.page))
            .collect();
        return edited::write_edited(site, renderer, change, state, &pages);
    }
    let routes: Vec<_> = site.written_routes().collect();
    let twins = llms::enabled(site);
    // The search index's plan is made on one core while the other fingerprints pages.
    let (fingerprinted, plan): (Vec<(&str, &RouteEntry, u64)>, _) = rayon::join(
        || {
            routes
                .par_iter()
                .map(|(r, e)| (*r, *e, renderer.page_fingerprint(r, e)))
                .collect()
        },
        || search::Plan::new(site),
    );
    let todo: Vec<(&str, &RouteEntry, u64)> = fingerprinted
        .par_iter()
        .filter(|(r, _, fp)| global != state.global || !state.page_is_current(r, *fp, twins))
        .copied()
        .collect();
    if timing {
        eprintln!(
            "  fingerprints: {:.1?} ({} to render)",
            t.elapsed(),
            todo.len()
        );
    }
    let fingerprints: HashMap<String, u64> = fingerprinted
        .iter()
        .map(|(r, _, fp)| (r.to_string(), *fp))
        .collect();
    let known = &state.files;
    let search_key = plan
        .as_ref()
        .and_then(|p| p.key(global, |r| fingerprints.get(r).copied()));
    // The index the folder holds was made from these pages as they are: it stays.
    // A session makes it again once, to have its words and to keep it for in-place updates.
    let index_kept = search
        && search_key.is_some()
        && search_key == state.search_key
        && !(keep && state.live_search.is_none())
        && {
            let mut held = known
                .iter()
                .filter(|(p, _)| plan.as_ref().is_some_and(|plan| plan.holds(p)))
                .peekable();
            held.peek().is_some() && held.all(|(_, w)| *w != update::UNKNOWN)
        };
    let postings = search::Postings::default();
    let index = plan
        .as_ref()
        .filter(|_| search && !index_kept)
        .map(|plan| Indexing {
            plan,
            postings: &postings,
        });
    // Each page is staged as soon as it is rendered (memory holds a few pages, not all), while
    // every other file but the search index is made and staged: none depends on the pages'
    // HTML (made after the pages, they left one core idle at the end).
    type Staged = Result<(PathBuf, update::Written), Diagnostic>;
    let (rendered, (others, other_errors)) = rayon::join(
        || -> Vec<Result<ChangedPage, Diagnostic>> {
            let workers = renderer.workers();
            todo.par_iter()
                .with_max_len(PAGES_PER_JOB)
                .map_init(
                    || workers.lend(),
                    |lent, &page| {
                        let shown = (site, renderer, lent.worker());
                        stage_page(shown, &change, known, (index.as_ref(), keep), page)
                    },
                )
                .collect()
        },
        || -> (Vec<Staged>, Diagnostics) {
            let (templated, mut errors) = templated_files(site, renderer, older_versions);
            let (mut data, data_errors) = data_files(site, renderer);
            errors.extend(data_errors.0);
            data.push(files::renders_file(site));
            let staged = templated
                .par_iter()
                .map(|(file, bytes)| stage_if_changed(&change, known, file.clone(), bytes))
                .chain(
                    data.par_iter()
                        .map(|file| stage_data_file(&change, known, file)),
                )
                .collect();
            (staged, errors)
        },
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
    // their files; without `search` the search index stays until `write_search`.
    let mut wanted: HashMap<PathBuf, update::Written> =
        HashMap::with_capacity(routes.len() * if twins { 2 } else { 1 } + 64);
    if pages.len() < routes.len() {
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
    }
    // The pages' files move to the list (a large site's paths are not held twice).
    for page in &mut pages {
        wanted.extend(page.files.drain(..));
    }
    let mut read_words: Vec<(String, search::Terms)> = Vec::new();
    if let Some(index) = &index {
        // The pages not rendered now give the words they gave when they were (a session keeps
        // them), or those their bodies give.
        let fresh: rustc_hash::FxHashSet<&str> = pages.iter().map(|p| p.route.as_str()).collect();
        let unrendered: Vec<(&str, search::Doc)> = index
            .plan
            .docs()
            .filter(|(route, _)| !fresh.contains(route))
            .collect();
        // A session keeps the words read from bodies too: its later indexes need every doc's.
        let read: Vec<Result<(&str, search::Terms), Diagnostic>> = unrendered
            .par_iter()
            .filter_map(|&(route, doc)| {
                if let Some(terms) = state.search.get(route) {
                    postings.add(doc, terms);
                    return None;
                }
                let page = &site.pages[site.routes.get(route)?.page];
                match crate::content::body_html(site.config, page) {
                    Ok(body) => {
                        let terms = search::terms(page, &body);
                        postings.add(doc, &terms);
                        keep.then_some(Ok((route, terms)))
                    }
                    Err(d) => Some(Err(d)),
                }
            })
            .collect();
        for r in read {
            match r {
                Ok((route, terms)) => read_words.push((route.to_string(), terms)),
                Err(d) => errors.push(d),
            }
        }
        if !errors.is_empty() {
            return Err(one_per_place(errors.0));
        }
    } else {
        for (path, d) in known {
            if plan.as_ref().is_some_and(|p| p.holds(path)) {
                wanted.insert(path.clone(), *d);
            }
        }
    }
    if timing {
        eprintln!("  search terms gathered: {:.1?}", t.elapsed());
    }
    let indexing = index.is_some();
    // The index is made with its terms in order, each file staged as it is made.
    let started = std::time::Instant::now();
    let mut index_made = Vec::new();
    let mut live = None;
    if let (true, Some(plan)) = (indexing, &plan) {
        let mut sink = |file, bytes: Vec<u8>| {
            index_made.push(stage_if_changed(&change, known, file, &bytes));
        };
        let made = match keep {
            true => postings
                .make_files_kept(plan, &mut sink)
                .map(|l| live = Some(l)),
            false => postings.make_files(plan, &mut sink),
        };
        if let Err(e) = made {
            index_made.push(Err(search_index::unreadable_records(e)));
        }
        if timing {
            eprintln!("    search index files: {:.1?}", started.elapsed());
        }
    }
    for file in others.into_iter().chain(index_made) {
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
    // The earlier versions: rendered again only when what they are made from changed (or the
    // folder no longer holds what they wrote).
    let mut older = HashMap::with_capacity(older_versions.len());
    let mut older_rendered = 0;
    for version in older_versions {
        let kept = state.older.get(version.folder).filter(|(key, files)| {
            *key == version.key
                && files
                    .iter()
                    .all(|(p, d)| *d != update::UNKNOWN && known.get(p) == Some(d))
        });
        let files = match kept {
            Some((_, files)) => files.clone(),
            None => {
                older_rendered += version.site.routes.len();
                versions::stage(version, &change, known)?
            }
        };
        wanted.extend(files.iter().cloned());
        older.insert(version.folder.to_string(), (version.key, files));
    }
    let mut removed: Vec<PathBuf> = known
        .keys()
        .filter(|old| !wanted.contains_key(*old))
        .cloned()
        .collect();
    removed.par_sort_unstable_by(|a, b| update::path_order(a, b));
    let mut written: Vec<PathBuf> = wanted
        .iter()
        .filter(|(path, digest)| known.get(*path) != Some(digest))
        .map(|(path, _)| path.clone())
        .collect();
    written.par_sort_unstable_by(|a, b| update::path_order(a, b));
    // The marker is written again after any change, so that the files written now are not
    // taken for hand edits (they are newer than the old marker).
    let search_key = if indexing || index_kept {
        search_key
    } else {
        None
    };
    let from = MadeFrom {
        global,
        search: search_key,
        pages: &fingerprints,
        older: &older,
    };
    let marker = marker_text(&wanted, from, "")
        .filter(|text| !change.is_empty() || !removed.is_empty() || *text != state.marker);
    if timing {
        eprintln!("  staged: {:.1?}", t.elapsed());
    }
    let gate = state.gate.clone();
    if let Err(e) = change.commit(&removed, marker.as_deref(), gate.as_deref()) {
        forget_digests(state, wanted);
        return Err(e);
    }
    if timing {
        eprintln!("  {} files written: {:.1?}", written.len(), t.elapsed());
    }

    // Applied: the state describes the folder as it now is. A session keeps the site-wide
    // files by their parts now, so that the first save of a page body, like every later one,
    // makes again only its own (at 10,000 pages, 40 ms on that save otherwise).
    let ((right_menu, llms_index), renders) = match keep {
        true => rayon::join(
            || {
                rayon::join(
                    || Some(edited::RightMenu::of(site)),
                    || llms::enabled(site).then(|| llms::Index::of(site)),
                )
            },
            || Some(edited::Renders::of(site)),
        ),
        false => ((None, None), None),
    };
    state.right_menu = right_menu;
    state.llms = llms_index;
    state.renders = renders;
    state.older = older;
    match &plan {
        Some(plan) if keep => state.search.retain(|route, _| plan.doc_of(route).is_some()),
        _ => state.search.clear(),
    }
    state.search_plan = plan.map(std::sync::Arc::new);
    // The live index describes the files while they are the ones it was made with.
    if !index_kept {
        state.live_search = live;
    }
    state.search_due = !search;
    state.search_key = search_key;
    state.generation += 1;
    state.pages = fingerprints;
    let mut changes = Changes {
        written,
        removed,
        older_rendered,
        ..Changes::default()
    };
    for page in pages {
        if keep {
            state.remember(&page.route, page.fingerprint, page.indexed);
        }
        changes.rendered.push(page.route);
    }
    for (route, terms) in read_words {
        state.search.insert(route, std::sync::Arc::new(terms));
    }
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
    state.live_search = None;
    state.search_key = None;
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
