//! The preview server's fast path: after an edit of page bodies alone (`Site::edited_bodies`),
//! only the edited pages can look different, and of the tables only their entries of the right
//! menu. Everything else in the output folder is as the last write left it.

use std::path::PathBuf;

use rayon::prelude::*;
use rustc_hash::FxHashSet;

use super::{
    ChangedPage, Changes, OutputState, forget_digests, one_per_place, render_page, route_file,
    update, write_replacing,
};
use crate::diagnostics::Diagnostics;
use crate::model::Site;
use crate::render::Renderer;
use crate::view;

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

fn entry(site: &Site<'_>, i: usize) -> String {
    serde_json::to_string(&view::tables::right_menu_entry(site, i)).expect("serializable")
}

/// Renders and writes the pages `edited` (page numbers) if their HTML changed, then their
/// entries of the right menu. The caller made sure the last write succeeded with the same
/// templates, site view and assets (`write_incremental`).
pub(super) fn write_edited(
    site: &Site<'_>,
    renderer: &Renderer<'_, '_>,
    out: &std::path::Path,
    state: &mut OutputState,
    edited: &FxHashSet<usize>,
) -> Result<Changes, Diagnostics> {
    let indexing = site.config.site.search.enabled;
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
    let rendered: Vec<_> = routes
        .par_iter()
        .filter_map(|&(r, e)| {
            let fp = renderer.page_fingerprint(r, e);
            let file = route_file(r);
            let same = state.pages.get(r) == Some(&fp)
                && state.files.contains_key(&file)
                && (!super::llms::enabled(site)
                    || state.files.contains_key(&super::llms::twin_file(r)));
            (!same).then(|| {
                render_page(site, renderer, indexing, true, r, e).map(|p| ChangedPage {
                    route: r.to_string(),
                    fingerprint: fp,
                    file,
                    html: p.html.into_bytes(),
                    indexed: p.indexed,
                    twin: p.twin,
                })
            })
        })
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
    // The pages first: they are what the writer waits for. Each page is hashed once, and
    // its bytes move to the writer; its Markdown twin goes with it.
    let mut to_write: Vec<(PathBuf, Vec<u8>)> = Vec::new();
    let mut written_pages = Vec::with_capacity(changed.len());
    for mut page in changed {
        let digest = update::Written::of(&page.html);
        if state.files.get(&page.file) != Some(&digest) {
            to_write.push((page.file.clone(), std::mem::take(&mut page.html)));
        }
        let twin = page.twin.take().map(|(file, bytes)| {
            let d = update::Written::of(&bytes);
            if state.files.get(&file) != Some(&d) {
                to_write.push((file.clone(), bytes));
            }
            (file, d)
        });
        written_pages.push((page, digest, twin));
    }
    if let Err(e) = write_replacing(out, &to_write) {
        let attempted = to_write
            .into_iter()
            .map(|(f, _)| (f, update::UNKNOWN))
            .collect();
        forget_digests(state, attempted);
        return Err(e);
    }
    if timing {
        eprintln!(
            "  {} edited pages written: {:.1?}",
            to_write.len(),
            t.elapsed()
        );
    }
    let mut changes = Changes::default();
    for (page, digest, twin) in written_pages {
        state.files.insert(page.file, digest);
        if let Some((file, d)) = twin {
            state.files.insert(file, d);
        }
        state.remember(&page.route, page.fingerprint, page.indexed);
        changes.rendered.push(page.route);
    }
    changes.written = to_write.into_iter().map(|(f, _)| f).collect();

    // Made from this site, the entries are new: only the bytes can tell what changed.
    let mut table_changed = state.right_menu.is_none();
    let right_menu = state.right_menu.get_or_insert_with(|| RightMenu::of(site));
    for &i in &pages {
        table_changed |= right_menu.update(site, i);
    }
    let table = PathBuf::from(RIGHT_MENU);
    if table_changed || !state.files.contains_key(&table) {
        let bytes = right_menu.bytes();
        let written = update::Written::of(&bytes);
        if state.files.get(&table) != Some(&written) {
            let file = vec![(table.clone(), bytes)];
            if let Err(e) = write_replacing(out, &file) {
                forget_digests(state, [(table, update::UNKNOWN)].into_iter().collect());
                return Err(e);
            }
            state.files.insert(table.clone(), written);
            changes.written.push(table);
        }
    }
    // llms.txt shows descriptions and llms-full.txt every twin: made again from this site.
    let mut llms: Vec<(PathBuf, Vec<u8>)> = Vec::new();
    for f in super::llms::files(site).iter() {
        let bytes = f.bytes().map_err(|d| Diagnostics(vec![d]))?;
        if state.files.get(&f.path) != Some(&update::Written::of(&bytes)) {
            llms.push((f.path.clone(), bytes));
        }
    }
    if let Err(e) = write_replacing(out, &llms) {
        let attempted = llms
            .into_iter()
            .map(|(f, _)| (f, update::UNKNOWN))
            .collect();
        forget_digests(state, attempted);
        return Err(e);
    }
    for (path, bytes) in llms {
        state
            .files
            .insert(path.clone(), update::Written::of(&bytes));
        changes.written.push(path);
    }
    changes.written.sort();
    if timing {
        eprintln!("  right menu: {:.1?}", t.elapsed());
    }

    if state.search_plan.is_some() {
        // Only the postings change: the pages' addresses, and so the doc lists, stay.
        state.search_due = true;
        state.generation += 1;
    }
    // The marker lists the same files, with older digests until `write_search` brings it up
    // to date when the writer pauses: a build over this folder meanwhile sees files newer
    // than the marker and writes them again, which is what it does with any changed file.
    state.marker_due = true;
    Ok(changes)
}
