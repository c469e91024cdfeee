//! The preview server's fast path: after an edit of page bodies alone (`Site::edited_bodies`),
//! only the edited pages can look different, and of the tables only their entries of the right
//! menu. Everything else in the output folder is as the last write left it.

use std::path::{Path, PathBuf};

use std::collections::HashMap;
use std::sync::Arc;

use rayon::prelude::*;
use rustc_hash::{FxHashMap, FxHashSet};

use super::transaction::Transaction;
use super::{
    ChangedPage, Changes, OutputState, forget_digests, one_per_place, stage_if_changed, stage_page,
    update,
};
use crate::PAGES_PER_JOB;
use crate::diagnostics::Diagnostics;
use crate::model::Site;
use crate::render::Renderer;
use crate::{search, view};

const RIGHT_MENU: &str = "_docgen/right-menu.json";

/// `right-menu.json` by its entries: each page's entry, serialised, by page number.
#[derive(Debug)]
pub(super) struct RightMenu {
    entries: Vec<Option<String>>,
}

impl RightMenu {
    pub(super) fn of(site: &Site<'_>) -> Self {
        RightMenu {
            entries: (0..site.pages.len())
                .into_par_iter()
                .map(|i| site.pages[i].is_page.then(|| entry(site, i)))
                .collect(),
        }
    }

    /// Puts in the entry of page `i` as it is now; whether it changed.
    fn update(&mut self, site: &Site<'_>, i: usize) -> bool {
        let new = entry(site, i);
        let slot = &mut self.entries[i];
        if slot.as_deref() == Some(new.as_str()) {
            return false;
        }
        *slot = Some(new);
        true
    }

    /// The table's bytes: what `tables::right_menu` writes, joined from the entries.
    fn bytes(&self) -> Vec<u8> {
        let size: usize = self.entries.iter().flatten().map(|e| e.len() + 1).sum();
        let mut out = Vec::with_capacity(size + 2);
        out.push(b'[');
        for (n, e) in self.entries.iter().flatten().enumerate() {
            if n > 0 {
                out.push(b',');
            }
            out.extend_from_slice(e.as_bytes());
        }
        out.push(b']');
        out
    }
}

/// `.docgen-renders` by its entries, by page number: an edit of bodies makes again only the
/// edited pages' entries, and the file is written when the writer pauses (`Renders::due`).
#[derive(Debug)]
pub(super) struct Renders {
    entries: Vec<Option<Vec<u8>>>,
    /// Whether an entry changed since the file was written.
    due: bool,
}

impl Renders {
    pub(super) fn of(site: &Site<'_>) -> Self {
        Renders {
            entries: (0..site.pages.len())
                .into_par_iter()
                .map(|i| Self::entry(site, i))
                .collect(),
            due: false,
        }
    }

    fn entry(site: &Site<'_>, i: usize) -> Option<Vec<u8>> {
        site.pages[i]
            .kept_render()
            .and_then(crate::content::render_cache::entry)
    }

    fn update(&mut self, site: &Site<'_>, i: usize) {
        let new = Self::entry(site, i);
        if self.entries[i] != new {
            self.entries[i] = new;
            self.due = true;
        }
    }

    /// The file's path and bytes when an entry changed since it was written: what
    /// `content::render_cache::write` writes for the site as it is.
    pub(super) fn due(&mut self) -> Option<(PathBuf, Vec<u8>)> {
        use crate::content::render_cache;
        if !std::mem::take(&mut self.due) {
            return None;
        }
        let mut bytes = Vec::new();
        render_cache::write_entries(self.entries.iter().flatten(), &mut bytes)
            .expect("writing to memory does not fail");
        Some((render_cache::FILE.into(), bytes))
    }
}

fn entry(site: &Site<'_>, i: usize) -> String {
    serde_json::to_string(&view::tables::right_menu_entry(site, i)).expect("serializable")
}

/// Renders and writes the pages `edited` (page numbers) if their HTML changed, then their
/// entries of the right menu. The caller made sure the last write succeeded with the same
/// templates, site view and assets (`output::write`), and gives the change to stage them in.
pub(super) fn write_edited(
    site: &Site<'_>,
    renderer: &Renderer<'_, '_>,
    change: Transaction<'_>,
    state: &mut OutputState,
    edited: &FxHashSet<usize>,
) -> Result<Changes, Diagnostics> {
    let timing = std::env::var_os("DOCGEN_TIMINGS").is_some();
    let t = std::time::Instant::now();
    let mut pages: Vec<usize> = edited.iter().copied().collect();
    pages.sort_unstable();
    let routes: Vec<(&str, &crate::model::RouteEntry)> = pages
        .iter()
        .flat_map(|&i| site.routes_of(i))
        .filter_map(|r| site.routes.get_key_value(r))
        .map(|(r, e)| (r.as_str(), e))
        .collect();
    let known = &state.files;
    let workers = renderer.workers();
    let rendered: Vec<_> = routes
        .par_iter()
        .with_max_len(PAGES_PER_JOB)
        .map_init(
            || workers.lend(),
            |lent, &(r, e)| {
                let fp = renderer.page_fingerprint(r, e);
                let same = state.page_is_current(r, fp, super::llms::enabled(site));
                let shown = (site, renderer, lent.worker());
                (!same).then(|| stage_page(shown, &change, known, (None, true), (r, e, fp)))
            },
        )
        .flatten()
        .collect();
    let mut changed = Vec::with_capacity(rendered.len());
    let mut errors = Vec::new();
    for r in rendered {
        match r {
            Ok(p) => changed.push(p),
            Err(d) => errors.push(d),
        }
    }
    if !errors.is_empty() {
        return Err(one_per_place(errors));
    }
    if timing {
        eprintln!(
            "  {} edited pages staged: {:.1?}",
            change.len(),
            t.elapsed()
        );
    }
    let mut now: Vec<(PathBuf, update::Written)> = changed
        .iter()
        .flat_map(|p| p.files.iter().cloned())
        .collect();

    // The table of contents of every page, of which only the edited entries are made again.
    let right_menu = state.right_menu.take();
    let mut table_changed = right_menu.is_none();
    let mut right_menu = right_menu.unwrap_or_else(|| RightMenu::of(site));
    for &i in &pages {
        table_changed |= right_menu.update(site, i);
    }
    let table = PathBuf::from(RIGHT_MENU);
    // After a failed write it is made whole again, and written at the pause.
    let renders = state.renders.get_or_insert_with(|| Renders {
        due: true,
        ..Renders::of(site)
    });
    for &i in &pages {
        renders.update(site, i);
    }
    let mut llms = state.llms.take();
    let staged = (|| -> Result<(), Diagnostics> {
        let one = |d| Diagnostics(vec![d]);
        if table_changed || !known.contains_key(&table) {
            now.push(
                stage_if_changed(&change, known, table.clone(), &right_menu.bytes())
                    .map_err(one)?,
            );
        }
        for f in super::llms::files(site).iter() {
            // `llms.txt` is made again from its parts: only the edited pages' lines change.
            if f.path == Path::new(super::llms::LLMS) {
                // Made now from the site as edited, it is compared whole with the file.
                let mut changed = llms.is_none();
                let index = llms.get_or_insert_with(|| super::llms::Index::of(site));
                for &i in &pages {
                    changed |= index.update(site, i);
                }
                if changed || !known.contains_key(&f.path) {
                    let text = index.text();
                    now.push(
                        stage_if_changed(&change, known, f.path.clone(), text.as_bytes())
                            .map_err(one)?,
                    );
                }
                continue;
            }
            let bytes = f.bytes().map_err(one)?;
            now.push(stage_if_changed(&change, known, f.path.clone(), &bytes).map_err(one)?);
        }
        Ok(())
    })();
    // On failure the table is left out of the state, so it is made whole next time.
    staged?;
    // The search index: the shards and the excerpt file the edited pages' words touch, in
    // place, in the same change as the pages (when it cannot be, it is made whole when the
    // writer pauses).
    let mut live = state.live_search.take();
    if let (Some(index), Some(plan)) = (&mut live, &state.search_plan) {
        match search_in_place(index, plan, &changed, &state.search) {
            Some(update) => {
                for (path, bytes) in update.files {
                    now.push(
                        stage_if_changed(&change, known, path, &bytes)
                            .map_err(|d| Diagnostics(vec![d]))?,
                    );
                }
            }
            None => live = None,
        }
    }
    if timing && live.is_some() {
        eprintln!("  search index updated in place: {:.1?}", t.elapsed());
    }
    let mut changes = Changes {
        written: now
            .iter()
            .filter(|(path, digest)| known.get(path) != Some(digest))
            .map(|(path, _)| path.clone())
            .collect(),
        ..Changes::default()
    };
    changes.written.sort();
    // The marker is brought up to date in the writer's pause (`write_marker_if_due`): until
    // then the files written now are newer than it, so a build in between writes them again.
    let gate = state.gate.clone();
    if let Err(e) = change.commit(&[], None, gate.as_deref()) {
        forget_digests(state, now.into_iter().collect());
        return Err(e);
    }
    state.right_menu = Some(right_menu);
    state.llms = llms;
    state.live_search = live;
    state.files.extend(now);
    for page in changed {
        state.remember(&page.route, page.fingerprint, page.indexed);
        changes.rendered.push(page.route);
    }
    if timing {
        eprintln!("  edited pages and right menu written: {:.1?}", t.elapsed());
    }

    if state.search_plan.is_some() {
        // The postings and the edited pages' excerpts change: the index is made again when the
        // writer pauses.
        state.search_due = true;
        state.search_key = None;
        state.generation += 1;
    }
    // The marker lists the same files, with older digests until `write_search` brings it up
    // to date when the writer pauses: a build over this folder meanwhile sees files newer
    // than the marker and writes them again, which is what it does with any changed file.
    state.marker_due = true;
    Ok(changes)
}

/// Updates the search index in place (`search::live`) for the pages `changed`, whose words
/// `search` still holds as they were; `None` when it cannot be.
fn search_in_place(
    index: &mut search::live::Live,
    plan: &search::Plan,
    changed: &[ChangedPage],
    search: &HashMap<String, Arc<search::Terms>>,
) -> Option<search::live::Update> {
    let mut edits = Vec::new();
    for page in changed {
        if let Some(doc) = plan.doc_of(&page.route) {
            edits.push(search::live::Edit {
                doc,
                old: search.get(&page.route)?,
                new: page.indexed.as_ref()?,
            });
        }
    }
    if edits.is_empty() {
        return Some(search::live::Update::default());
    }
    // The words of every doc as they are now, for the edited docs' excerpt files.
    let routes: FxHashMap<search::Doc, &str> = plan.docs().map(|(r, d)| (d, r)).collect();
    let record = |doc: search::Doc| -> Option<&search::Terms> {
        match edits.iter().find(|e| e.doc == doc) {
            Some(e) => Some(e.new),
            None => search.get(*routes.get(&doc)?).map(|t| &**t),
        }
    };
    index.update(plan, &edits, &record)
}
