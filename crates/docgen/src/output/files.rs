//! The files of the output besides the pages: those made from templates (legacy routes and
//! redirects, 404 pages) and those serialised from the model (assets, JSON tables and shards,
//! `_redirects`, the sitemap, published data).

use std::path::{Path, PathBuf};

use rayon::prelude::*;

use super::transaction::Fill;
use super::update::Written;
use super::{headers, sitemap, tables};
use crate::diagnostics::{Diagnostic, Diagnostics};
use crate::model::Site;
use crate::model::assets::{Asset, CopyError};
use crate::model::publish;
use crate::render::Renderer;

/// A file serialised from the model, or copied from the sources. Its bytes are made when it
/// is written, one file at a time, so a large site never holds all of its tables at once (at
/// 100,000 pages they are 150 MB) nor all of its images. Its inputs were validated by the
/// checks, so only a source file changed meanwhile makes it fail.
pub struct DataFile<'r> {
    pub path: PathBuf,
    make: Make<'r>,
}

enum Make<'r> {
    Bytes(Box<dyn Fn() -> Vec<u8> + Send + Sync + 'r>),
    /// A static file or a page's image: copied, never held whole.
    Asset(&'r Asset),
    Streamed(Stream<'r>),
}

/// Writes a file a piece at a time: made twice, once for its digest and once to write it, so
/// it is never held whole (a large site's renders, see `content::render_cache`).
type Stream<'r> =
    std::sync::Arc<dyn Fn(&mut dyn std::io::Write) -> std::io::Result<()> + Send + Sync + 'r>;

/// A data file ready to be written: its bytes, the asset it copies, or what writes it.
pub enum Made<'r> {
    Bytes(Vec<u8>),
    Asset(&'r Asset),
    Streamed(Stream<'r>),
}

impl Made<'_> {
    /// What the manifest records. A copied file is known by its published name, which
    /// carries a hash of its bytes, and its size.
    pub fn written(&self, path: &Path) -> Result<Written, Diagnostic> {
        match self {
            Made::Bytes(bytes) => Ok(Written::of(bytes)),
            Made::Streamed(write) => {
                Written::streamed(|to| write(to)).map_err(|e| super::io_error(path, e))
            }
            Made::Asset(asset) => match asset.held() {
                Some(bytes) => Ok(Written::of(bytes)),
                None => Ok(Written {
                    digest: super::digest(asset.out_path.as_bytes()),
                    size: asset.size().map_err(|e| {
                        Diagnostic::new(
                            "content.changed",
                            format!(
                                "{} changed while the site was being built: {e}",
                                asset.out_path
                            ),
                        )
                        .hint("build again")
                    })?,
                }),
            },
        }
    }

    /// Writes the bytes to `to`, a buffer at a time for a copied file.
    pub fn write_to(&self, to: &mut dyn std::io::Write) -> Result<(), Fill> {
        match self {
            Made::Bytes(bytes) => to.write_all(bytes).map_err(Fill::Write),
            Made::Streamed(write) => write(to).map_err(Fill::Write),
            Made::Asset(asset) => asset.copy_to(to).map_err(|e| match e {
                CopyError::Source(d) => Fill::Source(d),
                CopyError::Write(e) => Fill::Write(e),
            }),
        }
    }
}

impl<'r> DataFile<'r> {
    pub(super) fn later(
        path: impl Into<PathBuf>,
        make: impl Fn() -> Vec<u8> + Send + Sync + 'r,
    ) -> Self {
        DataFile {
            path: path.into(),
            make: Make::Bytes(Box::new(make)),
        }
    }

    fn copy(path: impl Into<PathBuf>, asset: &'r Asset) -> Self {
        DataFile {
            path: path.into(),
            make: Make::Asset(asset),
        }
    }

    fn streamed(
        path: impl Into<PathBuf>,
        write: impl Fn(&mut dyn std::io::Write) -> std::io::Result<()> + Send + Sync + 'r,
    ) -> Self {
        DataFile {
            path: path.into(),
            make: Make::Streamed(std::sync::Arc::new(write)),
        }
    }

    fn ready(path: impl Into<PathBuf>, bytes: Vec<u8>) -> Self {
        DataFile::later(path, move || bytes.clone())
    }

    /// Makes the file: serialises it, or names the asset it copies.
    pub fn make(&self) -> Result<Made<'r>, Diagnostic> {
        match &self.make {
            Make::Bytes(make) => Ok(Made::Bytes(make())),
            Make::Asset(asset) => Ok(Made::Asset(asset)),
            Make::Streamed(write) => Ok(Made::Streamed(write.clone())),
        }
    }

    /// The whole bytes, for the few small files that are compared as they are made.
    pub fn bytes(&self) -> Result<Vec<u8>, Diagnostic> {
        match &self.make {
            Make::Bytes(make) => Ok(make()),
            Make::Asset(asset) => asset.bytes().map(|b| b.into_owned()),
            Make::Streamed(write) => {
                let mut bytes = Vec::new();
                write(&mut bytes).map_err(|e| super::io_error(&self.path, e))?;
                Ok(bytes)
            }
        }
    }
}

/// The files made from templates besides the pages (the legacy routes, the site's own redirects
/// such as the root's, the 404 pages) and `_headers`, whose rules cover the earlier versions
/// written beside the site (`versions`) too: like the pages, they can fail to render.
pub(super) fn templated_files(
    site: &Site<'_>,
    renderer: &Renderer<'_, '_>,
    versions: &[super::versions::Older<'_>],
) -> (Vec<(PathBuf, Vec<u8>)>, Diagnostics) {
    let (mut files, mut errors) = templated_pages(site, renderer);
    if errors.is_empty() {
        match headers_file(site, renderer, &files, versions) {
            Ok(headers) => files.push(headers),
            Err(d) => errors.push(d),
        }
    }
    (files, errors)
}

/// The files made from templates besides the pages: legacy routes, redirects, 404 pages.
pub(super) fn templated_pages(
    site: &Site<'_>,
    renderer: &Renderer<'_, '_>,
) -> (Vec<(PathBuf, Vec<u8>)>, Diagnostics) {
    let mut errors = Diagnostics::default();
    let rendered: Vec<Result<(PathBuf, Vec<u8>), Diagnostic>> = site
        .redirects
        .par_iter()
        .map(|r| match renderer.redirect(r) {
            Ok(html) => Ok((super::route_file(&r.from), html.into_bytes())),
            Err(e) => Err(super::render_error(
                &format!("the legacy route {}", r.from),
                e,
                &site.config.root,
            )),
        })
        .collect();
    let mut files: Vec<(PathBuf, Vec<u8>)> = Vec::with_capacity(rendered.len() + 16);
    for r in rendered {
        match r {
            Ok(f) => files.push(f),
            Err(d) => errors.push(d),
        }
    }
    match renderer.not_found(None) {
        Ok(h) => files.push(("404.html".into(), h.into_bytes())),
        Err(e) => errors.push(super::render_error("404.html", e, &site.config.root)),
    }
    for area in &site.config.site.areas {
        if let Some(nf) = &area.not_found {
            match renderer.not_found(Some((&area.route, &nf.title, &nf.subtitle))) {
                Ok(h) => files.push((
                    Path::new(area.route.trim_start_matches('/')).join("404.html"),
                    h.into_bytes(),
                )),
                Err(e) => errors.push(super::render_error(
                    "an area's 404.html",
                    e,
                    &site.config.root,
                )),
            }
        }
    }
    (files, errors)
}

/// `_headers`, its Content-Security-Policy allowing the inline scripts of the HTML by their
/// hashes: those of every templated file, those of one page of each layout (the scripts a
/// layout's template writes; page data is JSON, which does not run), and those the writers put
/// in the pages' raw HTML (`Rendered::inline_scripts`).
fn headers_file(
    site: &Site<'_>,
    renderer: &Renderer<'_, '_>,
    templated: &[(PathBuf, Vec<u8>)],
    versions: &[super::versions::Older<'_>],
) -> Result<(PathBuf, Vec<u8>), Diagnostic> {
    let mut hashes = std::collections::BTreeSet::new();
    let (firsts, _) = script_hashes(site, renderer, templated, &mut hashes);
    // An earlier version's pages are served under the one policy (two would both apply), which
    // allows their scripts too; their files are cached by the rules of their own folder.
    let mut older_rules = Vec::new();
    for v in versions {
        let (pages, _) = templated_pages(v.site, v.renderer);
        let (firsts, base) = script_hashes(v.site, v.renderer, &pages, &mut hashes);
        older_rules.extend(
            headers::rules(base, &firsts, &Default::default(), None)
                .into_iter()
                .skip(1),
        );
    }
    let api_origin = origin(&site.config.site.api_base);
    let mut rules = headers::rules(&site.config.base_path, &firsts, &hashes, api_origin);
    rules.extend(older_rules);
    Ok(("_headers".into(), headers::text(&rules)?.into_bytes()))
}

/// Adds to `hashes` those of the inline scripts of `site`'s HTML (see `headers_file`); gives
/// the first parts of its routes and its base path.
fn script_hashes<'s>(
    site: &'s Site<'_>,
    renderer: &Renderer<'_, '_>,
    templated: &[(PathBuf, Vec<u8>)],
    hashes: &mut std::collections::BTreeSet<String>,
) -> (std::collections::BTreeSet<String>, &'s str) {
    let mut add = |html: &str| {
        for s in headers::inline_scripts(html) {
            hashes.insert(headers::script_hash(s));
        }
    };
    for (rel, bytes) in templated {
        if rel.extension().is_some_and(|e| e == "html") {
            add(&String::from_utf8_lossy(bytes));
        }
    }
    let mut layouts = Vec::new();
    let mut worker = renderer.worker();
    for (route, entry) in site.written_routes() {
        let layout = site.pages[entry.page].layout();
        if !layouts.contains(&layout) {
            layouts.push(layout);
            // A page that fails is reported where the pages are written, once.
            let shown = (site, renderer, &mut worker);
            if let Ok(page) = super::render_page(shown, false, false, route, entry) {
                add(&page.html);
            }
        }
    }
    for page in site.pages {
        for script in &page.rendered.inline_scripts {
            hashes.insert(headers::script_hash(script));
        }
    }
    let mut firsts = std::collections::BTreeSet::new();
    let routes = site
        .routes
        .keys()
        .map(String::as_str)
        .chain(site.redirects.iter().map(|r| r.from.as_str()));
    for r in routes {
        if let Some(first) = r
            .trim_start_matches('/')
            .split('/')
            .next()
            .filter(|f| !f.is_empty())
        {
            firsts.insert(first.to_string());
        }
    }
    (firsts, &site.config.base_path)
}

/// The origin (`scheme://host[:port]`) of an absolute URL; none for a path of the site.
fn origin(url: &str) -> Option<&str> {
    let (scheme, rest) = url.split_once("://")?;
    let end = rest.find('/').map_or(url.len(), |i| scheme.len() + 3 + i);
    Some(&url[..end])
}

/// The files serialised from the model: assets, JSON tables and shards, `_redirects`, the
/// sitemap and the published data.
pub(super) fn data_files<'r>(
    site: &'r Site<'_>,
    renderer: &'r Renderer<'_, '_>,
) -> (Vec<DataFile<'r>>, Diagnostics) {
    let mut errors = Diagnostics::default();
    let mut files: Vec<DataFile<'r>> = Vec::with_capacity(site.assets.by_name.len() + 64);
    for asset in site.assets.all() {
        files.push(DataFile::copy(asset.out_path.clone(), asset));
    }
    let text = |path: &str, make: fn(&Site<'_>) -> String| {
        DataFile::later(path, move || make(site).into_bytes())
    };
    files.extend([
        text("_docgen/nav.json", tables::nav),
        text("_docgen/right-menu.json", tables::right_menu),
        text("_docgen/breadcrumbs.json", tables::breadcrumbs),
        text("_docgen/footer.json", tables::footer),
        text("_docgen/routes.json", tables::routes),
        text("_redirects", tables::redirects_file),
        text("robots.txt", robots),
    ]);
    files.extend(sitemap::files(site));
    files.extend(super::llms::files(site));
    let favicon = site.assets.by_name.get(SITE_FAVICON);
    let favicon_path = super::FAVICON_ROUTE.trim_start_matches('/');
    files.push(match favicon {
        Some(asset) => DataFile::copy(favicon_path, asset),
        None => DataFile::later(favicon_path, || DEFAULT_FAVICON.to_vec()),
    });
    let shards = renderer.nav_shards();
    files.extend(
        shards
            .files
            .iter()
            .map(|(path, json)| DataFile::later(path.as_str(), move || json.as_bytes().to_vec())),
    );
    files.push(DataFile::later("_docgen/nav/index.json", move || {
        shards.index_json().into_bytes()
    }));
    for p in &site.config.site.publish {
        match publish::documents(p, site.data) {
            Ok(docs) => files.extend(
                docs.into_iter()
                    .map(|(path, json)| DataFile::ready(path, json.into_bytes())),
            ),
            Err(d) => errors.push(d),
        }
    }
    // What the site's extensions publish, made once when they prepared the site.
    for extended in &site.extensions {
        for (path, bytes) in &extended.data_files {
            files.push(DataFile::later(path.as_str(), move || bytes.clone()));
        }
    }
    (files, errors)
}

/// What the pages' renders were made from, for the next build over this output (see
/// `content::render_cache`): the site's own, not an earlier version's.
pub(super) fn renders_file<'r>(site: &'r Site<'_>) -> DataFile<'r> {
    DataFile::streamed(crate::content::render_cache::FILE, move |to| {
        crate::content::render_cache::write(site.pages.iter().filter_map(|p| p.kept_render()), to)
    })
}

/// A site's own favicon (`static/favicon.ico`), published at `/favicon.ico` in place of
/// docgen's.
const SITE_FAVICON: &str = "favicon.ico";
/// docgen's favicon, made from its logo (`frontend/scripts/favicon.mjs`).
const DEFAULT_FAVICON: &[u8] = include_bytes!("../../../../templates/favicon.ico");

/// `robots.txt`: everything may be crawled; the sitemap is named.
fn robots(site: &Site<'_>) -> String {
    format!(
        "User-agent: *\nAllow: /\n\nSitemap: {}\n",
        site.config.absolute("/sitemap.xml")
    )
}
