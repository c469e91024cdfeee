//! Building over the previous output: every file is rendered and validated first, then only
//! the files whose bytes changed are written (each beside its place, then renamed over it),
//! and files that are no longer part of the site are removed last. A no-change rebuild writes
//! nothing but the marker.
//!
//! What the previous build wrote is listed in the marker file (`.docgen-output`): each file's
//! digest and size. A file whose size differs on disk, or that was modified after the marker
//! was written, is written again, so a hand-edited output is repaired.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::SystemTime;

use rayon::prelude::*;

use super::files::{DataFile, data_files, templated_files};
use super::guard::{MARKER, MARKER_TEXT};
use super::{Stats, confined, create_dirs, one_per_place, render_page, replace_file};
use crate::diagnostics::{Diagnostic, Diagnostics};
use crate::model::{RouteEntry, Site};
use crate::render::Renderer;
use crate::search;

/// A written file: the digest and length of its bytes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Written {
    pub digest: u64,
    pub size: u64,
}

/// The digest of a file whose bytes are not known (a write of it failed): never a real one's.
pub const UNKNOWN: Written = Written { digest: 0, size: 0 };

impl Written {
    pub fn of(bytes: &[u8]) -> Self {
        Written {
            digest: super::digest(bytes),
            size: bytes.len() as u64,
        }
    }
}

/// Every file of a build, by path relative to the output folder.
#[derive(Debug, Default)]
pub struct Manifest(pub BTreeMap<PathBuf, Written>);

const HEADER: &str = "# digest size path, one line per file docgen wrote\n";

impl Manifest {
    /// The marker's text: a sentence for people, then the list (sorted, so deterministic).
    pub fn marker_text(&self) -> String {
        let mut text = String::with_capacity(MARKER_TEXT.len() + self.0.len() * 64);
        text.push_str(MARKER_TEXT);
        text.push_str(HEADER);
        for (path, w) in &self.0 {
            text.push_str(&format!(
                "{:016x} {} {}\n",
                w.digest,
                w.size,
                path.display()
            ));
        }
        text
    }

    /// The list in the marker of `out`, if it has one that reads back completely.
    pub fn read(out: &Path) -> Option<(Manifest, SystemTime)> {
        let path = out.join(MARKER);
        let written_at = std::fs::metadata(&path).ok()?.modified().ok()?;
        let text = std::fs::read_to_string(&path).ok()?;
        let (_, list) = text.split_once(HEADER)?;
        let mut files = BTreeMap::new();
        for line in list.lines() {
            let mut parts = line.splitn(3, ' ');
            let digest = u64::from_str_radix(parts.next()?, 16).ok()?;
            let size = parts.next()?.parse().ok()?;
            let rel = PathBuf::from(parts.next()?);
            if !super::guard::is_confined(&rel) {
                return None;
            }
            files.insert(rel, Written { digest, size });
        }
        Some((Manifest(files), written_at))
    }
}

/// Whether the file on disk is still what the manifest says was written.
fn unchanged_on_disk(out: &Path, rel: &Path, was: &Written, marked_at: SystemTime) -> bool {
    std::fs::symlink_metadata(out.join(rel)).is_ok_and(|m| {
        m.is_file() && m.len() == was.size && m.modified().is_ok_and(|t| t <= marked_at)
    })
}

/// What pass one decided about a file.
enum Fate {
    Same,
    Changed(Vec<u8>),
    /// Changed, but over the memory budget: made again when written.
    MakeAgain,
}

/// A changed file over the memory budget, made a second time when it is written.
enum Again<'x, 'r> {
    Page(&'x str, &'x RouteEntry),
    /// The Markdown twin of the page at that route.
    Twin(&'x str, &'x RouteEntry),
    Data(&'x DataFile<'r>),
}

/// Brings `out` (a previous build, listed by `previous`) up to date with `site`.
pub fn update(
    site: &Site<'_>,
    renderer: &Renderer<'_, '_>,
    out: &Path,
    previous: &Manifest,
    marked_at: SystemTime,
) -> Result<Stats, Diagnostics> {
    let routes: Vec<(&str, &RouteEntry)> = site.written_routes().collect();
    let kept = AtomicUsize::new(0);
    // `may_defer`: the file can be made again later (templated files are few and small, so
    // they are always kept).
    let judge = |rel: &Path, bytes: Vec<u8>, may_defer: bool| -> (Written, Fate) {
        let now = Written::of(&bytes);
        let same = previous
            .0
            .get(rel)
            .is_some_and(|was| *was == now && unchanged_on_disk(out, rel, was, marked_at));
        let fate = if same {
            Fate::Same
        } else if !may_defer || kept.fetch_add(bytes.len(), Ordering::Relaxed) < crate::held_bytes()
        {
            Fate::Changed(bytes)
        } else {
            Fate::MakeAgain
        };
        (now, fate)
    };

    // Pass one: render and validate everything, keeping only the bytes that must be written.
    let plan = search::Plan::new(site);
    let postings = search::Postings::default();
    type Judged = (PathBuf, Written, Fate);
    // A page and its Markdown twin.
    let pages: Vec<Result<(Judged, Option<Judged>), Diagnostic>> = routes
        .par_iter()
        .map(|(route, entry)| {
            let page = render_page(site, renderer, plan.is_some(), true, route, entry)?;
            let rel = super::route_file(route);
            let (now, fate) = judge(&rel, page.html.into_bytes(), true);
            let twin = page.twin.map(|(path, bytes)| {
                let (now, fate) = judge(&path, bytes, true);
                (path, now, fate)
            });
            let doc = plan.as_ref().and_then(|p| p.doc_of(route));
            if let (Some(doc), Some(terms)) = (doc, page.indexed) {
                postings.add(doc, &terms);
            }
            Ok(((rel, now, fate), twin))
        })
        .collect();
    let (templated, mut errors) = templated_files(site, renderer);
    let (data, data_errors) = data_files(site, renderer);
    errors.extend(data_errors.0);
    // The index is made on one core (its terms in order) while the data files are compared.
    let (index_files, data_fates): (_, Vec<Result<(Written, Fate), Diagnostic>>) = rayon::join(
        || {
            plan.as_ref()
                .map_or_else(Vec::new, |plan| postings.files(plan))
        },
        || {
            data.par_iter()
                .map(|f| Ok(judge(&f.path, f.bytes()?, true)))
                .collect()
        },
    );
    let templated_fates: Vec<(PathBuf, Written, Fate)> = templated
        .into_iter()
        .chain(index_files)
        .map(|(rel, bytes)| {
            let (now, fate) = judge(&rel, bytes, false);
            (rel, now, fate)
        })
        .collect();
    let mut decided: Vec<(PathBuf, Written, Fate, Option<Again<'_, '_>>)> =
        Vec::with_capacity(routes.len() + data.len() + templated_fates.len());
    for (page, (route, entry)) in pages.into_iter().zip(&routes) {
        match page {
            Err(d) => errors.push(d),
            Ok(((rel, now, fate), twin)) => {
                decided.push((rel, now, fate, Some(Again::Page(route, entry))));
                if let Some((path, now, fate)) = twin {
                    decided.push((path, now, fate, Some(Again::Twin(route, entry))));
                }
            }
        }
    }
    decided.extend(
        templated_fates
            .into_iter()
            .map(|(rel, now, fate)| (rel, now, fate, None)),
    );
    for (file, judged) in data.iter().zip(data_fates) {
        match judged {
            Ok((now, fate)) => {
                decided.push((file.path.clone(), now, fate, Some(Again::Data(file))))
            }
            Err(d) => errors.push(d),
        }
    }
    let mut manifest = Manifest::default();
    let mut to_write: Vec<(PathBuf, Vec<u8>)> = Vec::new();
    let mut again: Vec<(PathBuf, Again<'_, '_>)> = Vec::new();
    for (rel, now, fate, made_again) in decided {
        match (fate, made_again) {
            (Fate::Changed(bytes), _) => to_write.push((rel.clone(), bytes)),
            (Fate::MakeAgain, Some(what)) => again.push((rel.clone(), what)),
            _ => {}
        }
        manifest.0.insert(rel, now);
    }
    errors.extend(manifest.0.keys().filter_map(|rel| confined(rel).err()));
    if !errors.is_empty() {
        return Err(one_per_place(errors.0));
    }

    // Pass two: write what changed: the kept bytes all staged before any is renamed in, then
    // the files over the memory budget, made again, each written atomically.
    let written = to_write.len() + again.len();
    super::write_replacing(out, &to_write)?;
    create_dirs(out, again.iter().map(|(p, _)| p.as_path())).map_err(|d| Diagnostics(vec![d]))?;
    let failures: Vec<Diagnostic> = again
        .par_iter()
        .filter_map(|(rel, what)| {
            let bytes = match what {
                Again::Page(route, entry) => {
                    render_page(site, renderer, false, false, route, entry)
                        .map(|p| p.html.into_bytes())
                }
                Again::Twin(route, entry) => super::llms::twin(site, route, entry),
                Again::Data(file) => file.bytes(),
            };
            bytes.and_then(|b| replace_file(out, rel, &b)).err()
        })
        .collect();
    if !failures.is_empty() {
        return Err(Diagnostics(failures));
    }

    // Pass three: remove what the previous build wrote and this one did not.
    let mut stale: Vec<&PathBuf> = previous
        .0
        .keys()
        .filter(|rel| !manifest.0.contains_key(*rel))
        .collect();
    stale.sort_by_key(|rel| std::cmp::Reverse(rel.components().count()));
    for rel in &stale {
        super::remove_written(out, rel);
    }
    // Last, the marker: it lists what is there now.
    replace_file(out, Path::new(MARKER), manifest.marker_text().as_bytes())
        .map_err(|d| Diagnostics(vec![d]))?;
    Ok(Stats {
        pages: routes.len(),
        redirects: site.redirects.len(),
        files: manifest.0.len(),
        written,
        removed: stale.len(),
    })
}
