//! The earlier versions of a site with versions (`versions:` in site.yaml), written into the
//! same transaction as the latest: each a whole build of its own content (pages, tables, menu
//! shards, search index, assets) under its folder (`12.x/...`), without the files only the
//! site's root has (sitemap, `robots.txt`, `_redirects`, `_headers`).

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use rayon::prelude::*;

use super::files::{data_files, templated_pages};
use super::transaction::Transaction;
use super::update::Written;
use crate::PAGES_PER_JOB;
use crate::diagnostics::{Diagnostic, Diagnostics};
use crate::model::Site;
use crate::render::Renderer;
use crate::search;

/// An earlier version to write: its folder in the output, its validated site and renderer.
pub struct Older<'a> {
    /// The folder it is written under (its name, its routes' first part).
    pub folder: &'a str,
    pub site: &'a Site<'a>,
    pub renderer: &'a Renderer<'a, 'a>,
    /// A digest of everything its files are made from (its commit, the configuration, the
    /// templates, the other versions' routes): equal keys, equal files (see `OutputState`).
    pub key: u64,
}

impl std::fmt::Debug for Older<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Older")
            .field("folder", &self.folder)
            .field("key", &self.key)
            .finish()
    }
}

/// Files of a build that belong to the site's root alone: an earlier version has none.
fn root_only(path: &Path) -> bool {
    let Some(name) = path.to_str() else {
        return false;
    };
    matches!(name, "_redirects" | "_headers" | "robots.txt")
        || (name.starts_with("sitemap") && name.ends_with(".xml") && !name.contains('/'))
}

/// Renders every file of `older` and stages, under its folder, those whose bytes differ from
/// what `known` says the output holds; gives every file with its digest.
pub(super) fn stage(
    older: &Older<'_>,
    change: &Transaction<'_>,
    known: &HashMap<PathBuf, Written>,
) -> Result<Vec<(PathBuf, Written)>, Diagnostics> {
    let (site, renderer) = (older.site, older.renderer);
    let folder = Path::new(older.folder);
    let put = |file: &Path, bytes: &[u8]| -> Result<(PathBuf, Written), Diagnostic> {
        let path = folder.join(file);
        let digest = Written::of(bytes);
        if known.get(&path) != Some(&digest) {
            change.stage(&path, bytes)?;
        }
        Ok((path, digest))
    };
    let plan = search::Plan::new(site);
    let postings = search::Postings::default();
    let routes: Vec<_> = site.written_routes().collect();
    let workers = renderer.workers();
    let pages: Vec<Result<Vec<(PathBuf, Written)>, Diagnostic>> = routes
        .par_iter()
        .with_max_len(PAGES_PER_JOB)
        .map_init(
            || workers.lend(),
            |lent, (route, entry)| {
                let shown = (site, renderer, lent.worker());
                let page = super::render_page(shown, plan.is_some(), true, route, entry)?;
                if let (Some(plan), Some(terms)) = (&plan, &page.indexed)
                    && let Some(doc) = plan.doc_of(route)
                {
                    postings.add(doc, terms);
                }
                let mut files = vec![put(&super::route_file(route), page.html.as_bytes())?];
                if let Some((twin, bytes)) = &page.twin {
                    files.push(put(twin, bytes)?);
                }
                Ok(files)
            },
        )
        .collect();
    let (templated, mut errors) = templated_pages(site, renderer);
    let (data, data_errors) = data_files(site, renderer);
    errors.extend(data_errors.0);
    let mut all = Vec::new();
    for r in pages {
        match r {
            Ok(files) => all.extend(files),
            Err(d) => errors.push(d),
        }
    }
    for (file, bytes) in templated.iter().filter(|(f, _)| !root_only(f)) {
        match put(file, bytes) {
            Ok(f) => all.push(f),
            Err(d) => errors.push(d),
        }
    }
    for file in data.iter().filter(|f| !root_only(&f.path)) {
        let made = file.make().and_then(|made| {
            let path = folder.join(&file.path);
            let digest = made.written(&file.path)?;
            if known.get(&path) != Some(&digest) {
                change.stage_with(&path, |to| made.write_to(to))?;
            }
            Ok((path, digest))
        });
        match made {
            Ok(f) => all.push(f),
            Err(d) => errors.push(d),
        }
    }
    if let Some(plan) = &plan {
        let made = postings.make_files(plan, &mut |file, bytes| match put(&file, &bytes) {
            Ok(f) => all.push(f),
            Err(d) => errors.push(d),
        });
        if let Err(e) = made {
            errors.push(super::search_index::unreadable_records(e));
        }
    }
    if errors.is_empty() {
        Ok(all)
    } else {
        Err(super::one_per_place(errors.0))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_roots_own_files_are_not_written_per_version() {
        for f in [
            "_redirects",
            "_headers",
            "robots.txt",
            "sitemap.xml",
            "sitemap-2.xml",
        ] {
            assert!(root_only(Path::new(f)), "{f}");
        }
        // Its pages link their own favicon, under the version's base path.
        for f in [
            "index.html",
            "favicon.ico",
            "_docgen/nav.json",
            "docs/sitemap.xml",
            "s/app.1234.js",
        ] {
            assert!(!root_only(Path::new(f)), "{f}");
        }
    }
}
