//! Stage 7: write the output folder. Everything goes into a temporary sibling folder that is
//! swapped in only when all of it was written, so a failed build leaves the old output as it was.

mod edited;
mod files;
pub mod guard;
pub mod headers;
pub mod llms;
pub mod publish;
mod search_index;
pub mod sitemap;
pub mod tables;
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

/// Where the favicon is published: the place browsers ask for it.
pub const FAVICON_ROUTE: &str = "/favicon.ico";

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
    confined(rel)?;
    let path = root.join(rel);
    std::fs::write(&path, bytes).map_err(|e| io_error(&path, e))
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

/// Writes the whole site to `out`, which `guard::claim` accepted. Over a previous build that
/// lists its files, only what changed is written (see `update`); otherwise everything goes
/// into a new sibling folder that replaces `out` only when all of it was written. Either way
/// everything is rendered and validated before the first byte reaches `out`.
pub fn write(
    site: &Site<'_>,
    renderer: &Renderer<'_, '_>,
    out: &Path,
) -> Result<Stats, Diagnostics> {
    if guard::is_ours(out)
        && !holds_links(out)
        && let Some((previous, marked_at)) = update::Manifest::read(out)
    {
        return update::update(site, renderer, out, &previous, marked_at);
    }
    let tmp = fresh_sibling(out, "tmp").map_err(|d| Diagnostics(vec![d]))?;
    let result = write_into(site, renderer, &tmp);
    match result {
        Ok(stats) => {
            swap(&tmp, out).map_err(|d| {
                let _ = std::fs::remove_dir_all(&tmp);
                Diagnostics(vec![d])
            })?;
            Ok(stats)
        }
        Err(e) => {
            let _ = std::fs::remove_dir_all(&tmp);
            Err(e)
        }
    }
}

/// Whether a symbolic link was put into the output folder (docgen writes none): writing or
/// deleting through it could reach outside, so such a folder is replaced as a whole instead.
fn holds_links(out: &Path) -> bool {
    walkdir::WalkDir::new(out)
        .into_iter()
        .any(|e| e.map_or(true, |e| e.path_is_symlink()))
}

/// Creates a new folder beside `out` (`.dist.tmp-PID-N`), never reusing an existing one: the
/// only folders docgen deletes are those it made itself.
fn fresh_sibling(out: &Path, kind: &str) -> Result<PathBuf, Diagnostic> {
    let name = out
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_else(|| "dist".into());
    let parent = out.parent().unwrap_or(Path::new("."));
    std::fs::create_dir_all(parent).map_err(|e| io_error(parent, e))?;
    for n in 0.. {
        let candidate = parent.join(format!(".{name}.{kind}-{}-{n}", std::process::id()));
        match std::fs::create_dir(&candidate) {
            Ok(()) => return Ok(candidate),
            Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => continue,
            Err(e) => return Err(io_error(&candidate, e)),
        }
    }
    unreachable!("some name is free")
}

fn swap(tmp: &Path, out: &Path) -> Result<(), Diagnostic> {
    if std::fs::symlink_metadata(out).is_ok() {
        // Renamed aside first, so a failed swap can put it back.
        let old = fresh_sibling(out, "old")?;
        std::fs::remove_dir(&old).map_err(|e| io_error(&old, e))?;
        std::fs::rename(out, &old).map_err(|e| io_error(out, e))?;
        if let Err(e) = std::fs::rename(tmp, out) {
            let _ = std::fs::rename(&old, out);
            return Err(io_error(out, e));
        }
        let _ = std::fs::remove_dir_all(&old);
    } else {
        std::fs::rename(tmp, out).map_err(|e| io_error(out, e))?;
    }
    Ok(())
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
                        let bytes = f.bytes()?;
                        write_file(tmp, &f.path, &bytes)?;
                        Ok((f.path.clone(), update::Written::of(&bytes)))
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
    let marker = tmp.join(guard::MARKER);
    std::fs::write(&marker, manifest.marker_text())
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
    let mut dir = path.parent();
    while let Some(d) = dir.filter(|d| *d != out) {
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
}

impl OutputState {
    /// Remembers what a page was written with: its render fingerprint, and its words for the
    /// search index when it is indexed.
    fn remember(&mut self, route: &str, fingerprint: u64, indexed: Option<search::Terms>) {
        if let Some(terms) = indexed {
            self.search
                .insert(route.to_string(), std::sync::Arc::new(terms));
        }
        self.pages.insert(route.to_string(), fingerprint);
    }

    /// Writes the marker when the files it lists changed: it lists them as a full build's does.
    fn write_marker(&mut self, out: &Path) -> Result<(), Diagnostics> {
        let manifest = update::Manifest(self.files.iter().map(|(p, w)| (p.clone(), *w)).collect());
        let marker = manifest.marker_text();
        if marker != self.marker {
            let path = out.join(guard::MARKER);
            std::fs::write(&path, &marker).map_err(|e| Diagnostics(vec![io_error(&path, e)]))?;
            self.marker = marker;
        }
        self.marker_due = false;
        Ok(())
    }
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

/// A page rendered again by the preview server.
struct ChangedPage {
    route: String,
    fingerprint: u64,
    file: PathBuf,
    html: Vec<u8>,
    indexed: Option<search::Terms>,
    twin: Option<(PathBuf, Vec<u8>)>,
}

/// Where the new bytes of `path` are written before they are renamed over it: named after the
/// whole file name, so files that differ only in their extension never share one.
fn staging_path(path: &Path) -> PathBuf {
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy())
        .unwrap_or_default();
    path.with_file_name(format!(".{name}.docgen-tmp"))
}

/// Writes `bytes` beside `out/rel` and renames them over it: a reader sees the old file or
/// the new one, never half of one.
pub(crate) fn replace_file(out: &Path, rel: &Path, bytes: &[u8]) -> Result<(), Diagnostic> {
    let path = out.join(rel);
    let tmp = staging_path(&path);
    std::fs::write(&tmp, bytes)
        .and_then(|()| std::fs::rename(&tmp, &path))
        .map_err(|e| {
            let _ = std::fs::remove_file(&tmp);
            io_error(&path, e)
        })
}

pub(crate) fn write_replacing(out: &Path, files: &[(PathBuf, Vec<u8>)]) -> Result<(), Diagnostics> {
    let outside: Vec<Diagnostic> = files
        .iter()
        .filter_map(|(rel, _)| confined(rel).err())
        .collect();
    if !outside.is_empty() {
        return Err(Diagnostics(outside));
    }
    create_dirs(out, files.iter().map(|(p, _)| p.as_path())).map_err(|d| Diagnostics(vec![d]))?;
    // All new bytes go beside their files first; only when every one is written are they
    // renamed into place, so a failed write (a full disk) changes nothing a reader sees.
    let staged: Vec<(PathBuf, PathBuf, Result<(), Diagnostic>)> = files
        .par_iter()
        .map(|(rel, bytes)| {
            let path = out.join(rel);
            let tmp = staging_path(&path);
            let written = std::fs::write(&tmp, bytes).map_err(|e| io_error(&path, e));
            (tmp, path, written)
        })
        .collect();
    let errors: Vec<Diagnostic> = staged
        .iter()
        .filter_map(|(_, _, r)| r.as_ref().err().cloned())
        .collect();
    if !errors.is_empty() {
        for (tmp, _, written) in &staged {
            if written.is_ok() {
                let _ = std::fs::remove_file(tmp);
            }
        }
        return Err(Diagnostics(errors));
    }
    let errors: Vec<Diagnostic> = staged
        .par_iter()
        .filter_map(|(tmp, path, _)| {
            std::fs::rename(tmp, path)
                .map_err(|e| io_error(path, e))
                .err()
        })
        .collect();
    if errors.is_empty() {
        Ok(())
    } else {
        Err(Diagnostics(errors))
    }
}

/// Brings `out` up to date in place: renders only the pages whose inputs changed (by their
/// render fingerprint), writes only files whose bytes changed (each by write-then-rename, so a
/// reader never sees half a file), and removes files that are no longer part of the site. The
/// folder then equals a fresh full build of the same input.
///
/// Everything is rendered before the first write, so a failure anywhere leaves the folder as
/// the last good build; a failed write makes the next run rewrite every file.
///
/// `edited`: the routes of the only pages that changed since the last successful write, when
/// nothing any other page shows changed; then only those pages are fingerprinted and rendered.
pub fn write_incremental(
    site: &Site<'_>,
    renderer: &Renderer<'_, '_>,
    out: &Path,
    state: &mut OutputState,
    edited: Option<&[String]>,
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
    let indexing = site.config.site.search.enabled;
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
    // The menu, the routes or anything else may have changed: the tables are made whole.
    state.right_menu = None;
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
    // Whatever can fail renders before the first write: the pages and the other templated
    // files, side by side. The data files (tables, shards) cannot fail once the checks passed,
    // so they are made after the pages are written: the edited page is not kept waiting.
    let (rendered, (others, other_errors)) = rayon::join(
        || -> Vec<Result<ChangedPage, Diagnostic>> {
            todo.par_iter()
                .map(|(r, e, fp)| {
                    render_page(site, renderer, indexing, true, r, e).map(|p| ChangedPage {
                        route: r.to_string(),
                        fingerprint: *fp,
                        file: route_file(r),
                        html: p.html.into_bytes(),
                        indexed: p.indexed,
                        twin: p.twin,
                    })
                })
                .collect()
        },
        || templated_files(site, renderer),
    );
    let mut pages = Vec::with_capacity(rendered.len());
    let mut errors = Diagnostics::default();
    for r in rendered {
        match r {
            Ok(p) => pages.push(p),
            Err(d) => errors.push(d),
        }
    }
    errors.extend(other_errors.0);
    if !errors.is_empty() {
        return Err(one_per_place(errors.0));
    }
    if timing {
        eprintln!("  rendered: {:.1?}", t.elapsed());
    }

    let mut wanted: HashMap<PathBuf, update::Written> = HashMap::with_capacity(routes.len() + 64);
    let twins = llms::enabled(site);
    for (r, _) in &routes {
        let f = route_file(r);
        if let Some(&d) = state.files.get(&f) {
            wanted.insert(f, d);
        }
        if twins {
            let t = llms::twin_file(r);
            if let Some(&d) = state.files.get(&t) {
                wanted.insert(t, d);
            }
        }
    }
    // The pages first: the one being edited is what the writer is waiting for.
    let mut pages_to_write: Vec<(PathBuf, Vec<u8>)> = Vec::new();
    let mut fingerprints = Vec::with_capacity(pages.len());
    for page in pages {
        let d = update::Written::of(&page.html);
        if state.files.get(&page.file) != Some(&d) {
            pages_to_write.push((page.file.clone(), page.html));
        }
        wanted.insert(page.file, d);
        if let Some((file, bytes)) = page.twin {
            let d = update::Written::of(&bytes);
            if state.files.get(&file) != Some(&d) {
                pages_to_write.push((file.clone(), bytes));
            }
            wanted.insert(file, d);
        }
        fingerprints.push((page.route, page.fingerprint, page.indexed));
    }
    let mut others_to_write = Vec::new();
    for (file, bytes) in others {
        let d = update::Written::of(&bytes);
        if state.files.get(&file) != Some(&d) {
            others_to_write.push((file.clone(), bytes));
        }
        wanted.insert(file, d);
    }
    // One write for all, so that a failure leaves every file as it was.
    let pages_written = pages_to_write.len();
    pages_to_write.extend(others_to_write);
    if let Err(e) = write_replacing(out, &pages_to_write) {
        forget_digests(state, wanted);
        return Err(e);
    }
    if timing {
        eprintln!(
            "  {pages_written} pages and {} other files written: {:.1?}",
            pages_to_write.len() - pages_written,
            t.elapsed()
        );
    }
    let (data, mut data_errors) = data_files(site, renderer);
    let mut data_to_write = Vec::new();
    let mut keep = |path: PathBuf, bytes: Vec<u8>| {
        let d = update::Written::of(&bytes);
        if state.files.get(&path) != Some(&d) {
            data_to_write.push((path.clone(), bytes));
        }
        wanted.insert(path, d);
    };
    // The changed files are held until they are written together (a preview's first write
    // holds every asset once; later ones only what an edit changed).
    for file in data {
        match file.bytes() {
            Ok(bytes) => keep(file.path.clone(), bytes),
            Err(d) => data_errors.push(d),
        }
    }
    // The search index is written by `write_search`, apart from the pages: the files it has
    // now stay until then.
    for (path, d) in &state.files {
        if path.starts_with(search::FOLDER) {
            wanted.insert(path.clone(), *d);
        }
    }
    let plan = search::Plan::new(site);
    match &plan {
        Some(plan) => state.search.retain(|route, _| plan.doc_of(route).is_some()),
        None => state.search.clear(),
    }
    state.search_plan = plan.map(std::sync::Arc::new);
    state.search_due = true;
    state.generation += 1;
    let data_written = if data_errors.is_empty() {
        write_replacing(out, &data_to_write)
    } else {
        Err(data_errors)
    };
    if let Err(e) = data_written {
        forget_digests(state, wanted);
        return Err(e);
    }
    if timing {
        eprintln!(
            "  {} data files written: {:.1?}",
            data_to_write.len(),
            t.elapsed()
        );
    }
    pages_to_write.extend(data_to_write);
    let mut changes = Changes {
        written: pages_to_write.into_iter().map(|(p, _)| p).collect(),
        ..Changes::default()
    };
    changes.written.sort();
    for old in state.files.keys() {
        if !wanted.contains_key(old) {
            remove_written(out, old);
            changes.removed.push(old.clone());
        }
    }
    changes.removed.sort();
    if global != state.global {
        state.pages.clear();
    }
    for (route, fp, indexed) in fingerprints {
        state.remember(&route, fp, indexed);
        changes.rendered.push(route);
    }
    state.pages.retain(|r, _| site.routes.contains_key(r));
    state.files = wanted;
    state.global = global;
    state.write_marker(out)?;
    Ok(changes)
}

/// After a failed write some files may hold new bytes: forget every digest, so the next run
/// rewrites them all and removes whatever is not part of the site.
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
