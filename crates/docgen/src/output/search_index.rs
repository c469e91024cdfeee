//! The preview server's search index: made from the words each page gave when it was last
//! rendered, apart from the pages. Gathering the postings of every page is the slow part, so it
//! is a job that runs off the server's loop on a snapshot; its files are written only if no
//! page changed meanwhile.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use super::transaction::Transaction;
use super::{OutputState, marker_text, update};
use crate::diagnostics::{Diagnostic, Diagnostics};
use crate::search::{self, Plan, Terms};

/// What the search index is made from: the plan and each doc's record, as of one write.
pub struct SearchJob {
    generation: u64,
    /// The key of the index made (`search::Plan::key`).
    key: Option<u64>,
    plan: Arc<Plan>,
    records: Vec<(search::Doc, Arc<Terms>)>,
}

/// The shards, excerpt files and `index.json` a job made, and the index kept for in-place
/// updates.
pub struct SearchFiles {
    generation: u64,
    key: Option<u64>,
    files: Result<(Vec<IndexFile>, search::live::Live), Diagnostic>,
}

/// A file of the index: its path under the output folder and its bytes.
type IndexFile = (PathBuf, Vec<u8>);

/// The search index's excerpt records, kept in a temporary file while pages render, could not
/// be read back.
pub(super) fn unreadable_records(e: std::io::Error) -> Diagnostic {
    Diagnostic::new(
        "io.search-records",
        format!("cannot read back the search index's excerpt records from a temporary file: {e}"),
    )
    .hint("check the free space and permissions of the system's temporary folder (TMPDIR)")
}

impl SearchJob {
    /// Gathers the postings and serialises the shards: the work that takes time.
    pub fn run(self) -> SearchFiles {
        let postings = search::Postings::default();
        for (doc, terms) in &self.records {
            postings.add(*doc, terms);
        }
        let mut files = Vec::new();
        let made = postings.make_files_kept(&self.plan, &mut |path, bytes| {
            files.push((path, bytes));
        });
        SearchFiles {
            generation: self.generation,
            key: self.key,
            files: made.map(|live| (files, live)).map_err(unreadable_records),
        }
    }
}

/// The index to make when the pages changed since it was last written.
pub fn search_job(state: &OutputState) -> Option<SearchJob> {
    let plan = state.search_plan.as_ref().filter(|_| state.search_due)?;
    let records = plan
        .docs()
        .filter_map(|(route, doc)| Some((doc, state.search.get(route)?.clone())))
        .collect();
    Some(SearchJob {
        generation: state.generation,
        key: plan.key(state.global, |r| state.pages.get(r).copied()),
        plan: plan.clone(),
        records,
    })
}

/// Writes what a job made, and the marker, unless pages were written since the job was taken (then the files are stale, and a new job is due). The
/// names of the files written or removed.
pub fn finish_search(
    out: &Path,
    state: &mut OutputState,
    made: SearchFiles,
) -> Result<Vec<PathBuf>, Diagnostics> {
    if made.generation != state.generation {
        return Ok(Vec::new());
    }
    let (files, live) = made.files.map_err(|d| Diagnostics(vec![d]))?;
    let change = Transaction::begin(out);
    let renders = state.stage_renders(&change)?;
    let mut wanted: HashMap<PathBuf, update::Written> = HashMap::new();
    let mut written = Vec::new();
    for (path, bytes) in files {
        let d = update::Written::of(&bytes);
        if state.files.get(&path) != Some(&d) {
            change
                .stage(&path, &bytes)
                .map_err(|d| Diagnostics(vec![d]))?;
            written.push(path.clone());
        }
        wanted.insert(path, d);
    }
    let stale: Vec<PathBuf> = state
        .files
        .keys()
        .filter(|p| {
            state.search_plan.as_ref().is_some_and(|plan| plan.holds(p)) && !wanted.contains_key(*p)
        })
        .cloned()
        .collect();
    let mut files = state.files.clone();
    for path in &stale {
        files.remove(path);
    }
    files.extend(wanted);
    state.search_key = made.key;
    let marker = marker_text(&files, state.made_from(), &state.marker);
    if let Err(e) = change.commit(&stale, marker.as_deref(), state.gate()) {
        state.search_key = None;
        state.forget_renders(renders);
        return Err(e);
    }
    state.files = files;
    if let Some(marker) = marker {
        state.marker = marker;
    }
    state.marker_due = false;
    state.search_due = false;
    state.live_search = Some(live);
    Ok(written.into_iter().chain(stale).collect())
}

pub fn write_search(out: &Path, state: &mut OutputState) -> Result<Vec<PathBuf>, Diagnostics> {
    match search_job(state) {
        Some(job) => finish_search(out, state, job.run()),
        None => {
            write_marker_if_due(out, state)?;
            Ok(Vec::new())
        }
    }
}

/// Writes the marker if files changed since it was written (see `edited::write_edited`).
pub fn write_marker_if_due(out: &Path, state: &mut OutputState) -> Result<(), Diagnostics> {
    if state.marker_due {
        state.write_marker(out)?;
    }
    Ok(())
}
