//! Building over the previous output: every file is rendered, and each whose bytes changed is
//! staged beside its place as soon as it is made; when all are, one transaction (see
//! `transaction`) renames them in, removes the files that are no longer part of the site and
//! replaces the marker. A failure anywhere leaves the previous build as it was; a no-change
//! rebuild writes nothing but the marker.
//!
//! What the previous build wrote is listed in the marker file (`.docgen-output`): each file's
//! digest and size. A file whose size differs on disk, or that was modified after the marker
//! was written, is written again, so a hand-edited output is repaired.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::time::SystemTime;

use rayon::prelude::*;

use super::files::{data_files, templated_files};
use super::guard::{MARKER, MARKER_TEXT};
use super::transaction::Transaction;
use super::{Stats, confined, one_per_place, render_page};
use crate::diagnostics::{Diagnostic, Diagnostics};
use crate::model::Site;
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
#[derive(Debug, Default, PartialEq)]
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
pub(super) fn unchanged_on_disk(
    out: &Path,
    rel: &Path,
    was: &Written,
    marked_at: SystemTime,
) -> bool {
    std::fs::symlink_metadata(out.join(rel)).is_ok_and(|m| {
        m.is_file() && m.len() == was.size && m.modified().is_ok_and(|t| t <= marked_at)
    })
}

/// Brings `out` (a previous build, listed by `previous`) up to date with `site`, as one
/// transaction.
pub fn update(
    site: &Site<'_>,
    renderer: &Renderer<'_, '_>,
    out: &Path,
    previous: &Manifest,
    marked_at: SystemTime,
) -> Result<Stats, Diagnostics> {
    let routes: Vec<_> = site.written_routes().collect();
    let change = Transaction::begin(out);
    let changed = |rel: &Path, now: &Written| {
        !previous
            .0
            .get(rel)
            .is_some_and(|was| was == now && unchanged_on_disk(out, rel, was, marked_at))
    };
    // Staged at once when changed: memory holds the files being made, not all that changed.
    let put = |rel: &Path, bytes: &[u8]| -> Result<(PathBuf, Written), Diagnostic> {
        let now = Written::of(bytes);
        if changed(rel, &now) {
            change.stage(rel, bytes)?;
        }
        Ok((rel.to_path_buf(), now))
    };
    let plan = search::Plan::new(site);
    let postings = search::Postings::default();
    let pages: Vec<Result<Vec<(PathBuf, Written)>, Diagnostic>> = routes
        .par_iter()
        .map(|(route, entry)| {
            let page = render_page(site, renderer, plan.is_some(), true, route, entry)?;
            let mut made = vec![put(&super::route_file(route), page.html.as_bytes())?];
            if let Some((path, bytes)) = &page.twin {
                made.push(put(path, bytes)?);
            }
            let doc = plan.as_ref().and_then(|p| p.doc_of(route));
            if let (Some(doc), Some(terms)) = (doc, page.indexed) {
                postings.add(doc, &terms);
            }
            Ok(made)
        })
        .collect();
    let (templated, mut errors) = templated_files(site, renderer);
    let (data, data_errors) = data_files(site, renderer);
    errors.extend(data_errors.0);
    // The index is made on one core (its terms in order) while the data files are compared.
    let (index_files, data_made): (_, Vec<Result<(PathBuf, Written), Diagnostic>>) = rayon::join(
        || {
            plan.as_ref()
                .map_or_else(Vec::new, |plan| postings.files(plan))
        },
        || {
            data.par_iter()
                .map(|file| {
                    let made = file.make()?;
                    let now = made.written()?;
                    if changed(&file.path, &now) {
                        change.stage_with(&file.path, |to| made.write_to(to))?;
                    }
                    Ok((file.path.clone(), now))
                })
                .collect()
        },
    );
    let mut manifest = Manifest::default();
    let others = templated
        .iter()
        .chain(&index_files)
        .map(|(rel, bytes)| put(rel, bytes));
    for made in pages.into_iter().chain(others.map(|r| r.map(|m| vec![m]))) {
        match made {
            Ok(files) => manifest.0.extend(files),
            Err(d) => errors.push(d),
        }
    }
    for made in data_made {
        match made {
            Ok((rel, now)) => {
                manifest.0.insert(rel, now);
            }
            Err(d) => errors.push(d),
        }
    }
    errors.extend(manifest.0.keys().filter_map(|rel| confined(rel).err()));
    if !errors.is_empty() {
        // Dropping the change removes what it staged.
        return Err(one_per_place(errors.0));
    }
    let stale: Vec<PathBuf> = previous
        .0
        .keys()
        .filter(|rel| !manifest.0.contains_key(*rel))
        .cloned()
        .collect();
    let written = change.len();
    // The marker is written again after any change, so that the files written now are not
    // taken for hand edits (they are newer than the old marker).
    let marker = (written > 0 || manifest != *previous).then(|| manifest.marker_text());
    change.commit(&stale, marker.as_deref(), None)?;
    Ok(Stats {
        pages: routes.len(),
        redirects: site.redirects.len(),
        files: manifest.0.len(),
        written,
        removed: stale.len(),
    })
}
