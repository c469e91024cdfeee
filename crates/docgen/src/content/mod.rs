//! Stage 2: read `content/` — pages (Markdown with front matter), data (YAML) and partials —
//! expand data-driven pages, and render every body to HTML, in parallel.

pub mod category;
pub mod excerpt;
pub mod files;
pub mod frontmatter;
pub mod git;
pub mod git_tree;
pub mod include;
pub mod locales;
pub mod render_cache;
pub mod spill;
pub mod templating;

use std::collections::hash_map::DefaultHasher;
use std::collections::{BTreeMap, HashSet};
use std::hash::{Hash, Hasher};
use std::path::{Path, PathBuf};
use std::sync::Arc;

use rayon::prelude::*;

use crate::config::{Config, yaml};
use crate::diagnostics::{Diagnostic, Diagnostics};
use crate::markdown::{self, Rendered};
pub use frontmatter::{FrontMatter, Layout, MenuGroup};

/// One page of the site (or a section entry without a page).
#[derive(Debug)]
pub struct Page {
    /// The canonical route.
    pub route: String,
    /// The source file, relative to the site root (the template file for generated pages).
    pub file: PathBuf,
    /// For generated pages: which item made it, e.g. `platform=android`.
    pub item: Option<String>,
    /// Line of the file where the body starts (links report their lines from it).
    pub body_line: usize,
    pub front: FrontMatter,
    pub title: String,
    /// Position among menu siblings; pages without one follow those with one, by file name.
    pub order: Option<i64>,
    /// From an `_index.md`: a menu section.
    pub is_index: bool,
    /// False for a section declared with `page: false`: in the menu, never written.
    pub is_page: bool,
    pub hidden: bool,
    pub toc: bool,
    /// What rendering the body found: headings, ids and links (its HTML is in `body`).
    pub rendered: Rendered,
    pub body: Body,
    /// Without a description in the front matter: the start of its text, which stands for one
    /// (`excerpt`).
    pub excerpt: Option<Box<str>>,
    /// The Markdown of a templated or generated page as expanded (for its Markdown twin): the
    /// file alone cannot give it. Others read their file again.
    pub markdown: Option<Arc<str>>,
    /// The Markdown of a page that is its own file's, put aside for its twin (`spill`: in
    /// memory within its budget, else in the temporary file): read back as it was parsed,
    /// without opening the file again.
    pub source: Option<spill::Spilled>,
    /// A digest of the Markdown the page was read from (its twin shows it as written); for a
    /// folder's section, whether the folder has a category file of its own.
    pub source_digest: u64,
    /// What the page does not render as written (see `Diagnostic::warning`); the build goes on.
    pub warnings: Vec<Diagnostic>,
    /// The files its include directives read, resolved (and, on a site with locales, the
    /// files whose appearing or changing changes the page: its source, its translations).
    pub includes: Vec<PathBuf>,
    /// Its locale: an index of `Config::locales`, 0 the default.
    pub locale: usize,
    /// What it is to its source page (see `locales::Translation`).
    pub translation: locales::Translation,
    /// What its body's render was made from, for the next build over this one's output
    /// (`render_cache`): only for a page that is the plain Markdown of its own file.
    pub render_record: Option<render_cache::Record>,
}

/// The bytes of page bodies held in memory so far, and how many may be (`crate::held_bytes`).
struct HeldBodies {
    held: std::sync::atomic::AtomicUsize,
    limit: usize,
}

/// A page's HTML body. Bodies are held in memory up to a budget for the whole site
/// (`crate::held_bytes`); past it, a page that is the plain Markdown of its own file keeps only a
/// digest and its body waits in a temporary file (`spill`) until the page is written, so a
/// large site's build never holds every body at once.
#[derive(Debug)]
pub enum Body {
    Held(String),
    /// Held until the budget decides (see `Page::fit_budget`); the body of a generated or
    /// templated page, which the file alone cannot reproduce, is always kept.
    Rereadable(String),
    /// Not in memory: read back from the spill file when it could be put there (past the
    /// budget), else rendered again from its file (a render taken from the previous build).
    FromFile {
        digest: u64,
        spilled: Option<spill::Spilled>,
    },
}

impl Body {
    /// The HTML when it is in memory.
    pub fn held(&self) -> Option<&str> {
        match self {
            Body::Held(html) | Body::Rereadable(html) => Some(html),
            Body::FromFile { .. } => None,
        }
    }
}

impl Page {
    pub fn menu_label(&self) -> &str {
        self.front.menu_label.as_deref().unwrap_or(&self.title)
    }

    pub fn layout(&self) -> Layout {
        self.front.layout.unwrap_or_default()
    }

    /// The text of the page's file, for the excerpt of a diagnostic (not kept in memory: a
    /// large site would hold all of its sources twice).
    pub fn source_text(&self, root: &Path) -> Arc<str> {
        crate::config::source::read(root, &self.file).unwrap_or_else(|_| Arc::from(""))
    }

    /// Keeps the body in memory while the bodies kept so far stay within `budget`; otherwise
    /// puts it in `spill`, keeping its digest.
    fn fit_budget(&mut self, budget: &HeldBodies, spill: &Arc<spill::Spill>) {
        use std::sync::atomic::Ordering;
        let Body::Rereadable(html) = &mut self.body else {
            return;
        };
        let size = html.len();
        let fits = budget
            .held
            .fetch_update(Ordering::Relaxed, Ordering::Relaxed, |n| {
                (n + size <= budget.limit).then_some(n + size)
            })
            .is_ok();
        self.body = if fits {
            Body::Held(std::mem::take(html))
        } else {
            Body::FromFile {
                digest: body_digest(html),
                spilled: spill.put(html),
            }
        };
    }

    /// A digest of the page as the rest of the site sees it: its route and file, its place
    /// and label in the menu and breadcrumbs, its aliases, what hides it, the files it
    /// publishes, the scripts the site's Content-Security-Policy lists. Made from every field
    /// of the page and every front-matter key except those that show on its own files only
    /// (`Page::OWN_FIELDS`, `FrontMatter::OWN_KEYS`), so a new field or key counts as shape
    /// until it is declared as the page's own: an edit that changes no shape is an edit of
    /// bodies (see `Content::edited_bodies`).
    pub fn shape_digest(&self) -> u64 {
        let mut h = rustc_hash::FxHasher::default();
        self.digest_fields(&mut h, false);
        h.finish()
    }

    /// A digest of everything the page was read into: its HTML and Markdown, and every field
    /// the view and the Markdown twin may show. Made with the same walk over every field as
    /// `shape_digest`, so nothing can be left out by hand.
    pub fn own_digest(&self) -> u64 {
        let mut h = rustc_hash::FxHasher::default();
        self.digest_fields(&mut h, true);
        h.finish()
    }

    /// The fields of a page that show on its own files only (besides the front matter's
    /// `FrontMatter::OWN_KEYS`); `digest_fields` names each field, so adding one to `Page`
    /// does not compile until it is placed.
    pub const OWN_FIELDS: &[&str] = &[
        "toc",
        "excerpt",
        "rendered.html",
        "rendered.headings",
        "rendered.ids",
        "rendered.links",
        "body",
        "markdown",
        "includes",
        "translation",
    ];

    /// The fields no output file shows (where diagnostics point, what they say).
    const NOT_SHOWN: &[&str] = &[
        "body_line",
        "render_record",
        "warnings",
        "rendered.problems",
        "rendered.warnings",
    ];

    /// Feeds `h` the page's shape (`own` false) or all of it (`own` true).
    fn digest_fields(&self, h: &mut rustc_hash::FxHasher, own: bool) {
        // No `..`: a field added to either struct must be placed here.
        let Page {
            route,
            file,
            item,
            body_line,
            front,
            title,
            order,
            is_index,
            is_page,
            hidden,
            toc,
            rendered,
            body,
            excerpt,
            markdown,
            // The Markdown again, as `source_digest` has it.
            source: _,
            source_digest,
            warnings,
            includes,
            locale,
            translation,
            render_record,
        } = self;
        let Rendered {
            html,
            headings,
            ids,
            links,
            problems,
            warnings: rendering_warnings,
            files,
            inline_scripts,
            twin_links,
        } = rendered;
        let mut debug = |name: &str, value: &dyn std::fmt::Debug| {
            let counts = if own {
                !Page::NOT_SHOWN.contains(&name)
            } else {
                !Page::OWN_FIELDS.contains(&name) && !Page::NOT_SHOWN.contains(&name)
            };
            if counts {
                name.hash(h);
                std::fmt::Write::write_fmt(&mut HashWriter(h), format_args!("{value:?}"))
                    .expect("hashing does not fail");
            }
        };
        debug("route", route);
        debug("file", file);
        debug("item", item);
        debug("body_line", body_line);
        debug("title", title);
        debug("order", order);
        debug("is_index", is_index);
        debug("is_page", is_page);
        debug("hidden", hidden);
        debug("toc", toc);
        debug("excerpt", &Hashed(excerpt));
        debug("rendered.headings", &Hashed(headings));
        debug("rendered.links", &Hashed(links));
        debug("rendered.problems", problems);
        debug("rendered.warnings", rendering_warnings);
        debug("rendered.files", &Hashed(files));
        debug("rendered.inline_scripts", &Hashed(inline_scripts));
        debug("warnings", warnings);
        debug("includes", &Hashed(includes));
        debug("locale", locale);
        debug("translation", translation);
        debug("render_record", render_record);
        // The ids in order: the set's own order is not the same for equal sets.
        let mut ids: Vec<&String> = ids.iter().collect();
        ids.sort_unstable();
        debug("rendered.ids", &Hashed(&ids));
        if own {
            // Large: hashed, not formatted.
            source_digest.hash(h);
            html.hash(h);
            markdown.hash(h);
            // Read from the Markdown with it: changes only with it.
            twin_links.hash(h);
            // The same digest whether the body is held or not (`DOCGEN_HELD_MB`).
            match body {
                Body::Held(b) | Body::Rereadable(b) => body_digest(b).hash(h),
                Body::FromFile { digest, .. } => digest.hash(h),
            }
        }
        front.digest_keys(h, own);
    }
    /// The files besides its own that the page was made from (images and downloads it refers
    /// to, files it includes), resolved: when one changes, the page is made again.
    pub fn dependencies(&self) -> impl Iterator<Item = &PathBuf> {
        self.rendered
            .files
            .iter()
            .map(|f| &f.source)
            .chain(&self.includes)
    }

    /// What the next build over this one's output may take of the page's render instead of
    /// rendering its body again (see `render_cache`).
    pub fn kept_render(&self) -> Option<render_cache::Kept<'_>> {
        let record = self.render_record.as_ref()?;
        let html_digest = match &self.body {
            Body::Held(html) | Body::Rereadable(html) => body_digest(html),
            Body::FromFile { digest, .. } => *digest,
        };
        Some(render_cache::Kept {
            file: &self.file,
            record,
            rendered: &self.rendered,
            html_digest,
            excerpt: self.excerpt.as_deref(),
        })
    }

    /// "content/x.md" or "content/_t/x.md (item platform=android)", for messages.
    pub fn origin(&self) -> String {
        match &self.item {
            Some(item) => format!("{} ({item})", self.file.display()),
            None => self.file.display().to_string(),
        }
    }
}

/// Everything read from `content/`.
#[derive(Default)]
pub struct Content {
    /// Sorted by route. Shared, so the preview server can keep pages across rebuilds.
    pub pages: Vec<Arc<Page>>,
    /// Routes of page files that could not be read: links to them are not reported again.
    pub failed: HashSet<String>,
    /// Some pages are unknown (a data file or a `generate` template failed): links and
    /// routes that might lead to them are not checked, so one mistake gives one error.
    pub incomplete: bool,
    /// The data files by name (file name without `.yaml`).
    pub data: Arc<BTreeMap<String, yaml_serde::Value>>,
    /// When only page files were edited since the previous load through the same cache, and
    /// none of them changed anything another page shows (see `Page::shape_digest`): the routes
    /// of the pages read again. Every other page would render as before.
    pub edited_bodies: Option<Vec<String>>,
    /// When each page file last changed, from git (empty outside git).
    pub last_updated: Arc<git::LastUpdated>,
    /// What the listing found that the build goes on without (a translation into a language
    /// the site does not configure, a translation without a source).
    pub warnings: Vec<Diagnostic>,
}

/// Reads and renders the content tree. Pages that fail are reported and left out, so the later
/// stages can still report everything else in the same run.
pub fn load(config: &Config) -> (Content, Diagnostics) {
    load_cached(config, &mut Cache::default(), &HashSet::new())
}

/// Pages parsed by an earlier run, reused while their file is unchanged and, for templated
/// pages, the data and partials they may read are unchanged too. The preview server keeps one
/// across rebuilds; a full build starts from an empty one.
#[derive(Default)]
pub struct Cache {
    entries: rustc_hash::FxHashMap<PathBuf, CacheEntry>,
    /// Digest of the data files and partials (templated pages read them).
    inputs: u64,
    /// Digest of the configuration every page is rendered with (features, base path, ...).
    config: u64,
    /// Digest of the folders' category files.
    categories: u64,
    /// The last listing of the content folder with its data and partials, reused when an
    /// edit only modified existing pages.
    listing: Option<Listing>,
    /// The pages of the last load, in order, when every file was read without an error: an
    /// edit of bodies alone replaces its pages in place.
    sorted: Option<Vec<Arc<Page>>>,
    /// The files' last commits, read once per cache: a preview server keeps the dates it
    /// started with (commits are not edits), a build reads them afresh.
    last_updated: Option<Arc<git::LastUpdated>>,
    /// The files pages refer to (images, downloads), as last measured.
    measured: files::Measured,
    /// The renders a previous build left in the output folder (see `render_cache`), until
    /// the pages are read.
    previous: Option<Arc<render_cache::Previous>>,
    /// For an earlier version's content: the commit the cached pages were read from. Its files
    /// never change, so while the commit and the configuration stay, the last load is reused.
    commit: Option<String>,
}

#[derive(Clone)]
struct Listing {
    files: Arc<Files>,
    data: Arc<BTreeMap<String, yaml_serde::Value>>,
    partials: Arc<BTreeMap<String, String>>,
    categories: Arc<category::Categories>,
    errors: Vec<Diagnostic>,
    /// A data file or partial could not be read: templated pages would only repeat that.
    data_failed: bool,
    /// The data as each locale's pages read it (the default's first): a data file's
    /// translation (`name.zh.yaml`) in place of the file.
    locale_data: Vec<Arc<BTreeMap<String, yaml_serde::Value>>>,
    warnings: Vec<Diagnostic>,
}

struct CacheEntry {
    stamp: Option<(std::time::SystemTime, u64)>,
    /// The other files its pages read (images, downloads, included files), resolved, with
    /// their stamps when read: the page is read again when one of them changes.
    deps: Vec<(PathBuf, Option<(std::time::SystemTime, u64)>)>,
    /// Reads data or partials (`generate` or `template`): parsed again when they change.
    templated: bool,
    result: Result<Vec<Arc<Page>>, Vec<Diagnostic>>,
}

impl Cache {
    /// A cache that takes what it can from the renders a previous build left in the output
    /// folder `out` (see `render_cache`): the next load renders only pages whose body, or
    /// what their render was made from, changed.
    pub fn over_output(out: &Path) -> Cache {
        let previous = render_cache::Previous::read(out);
        Cache {
            previous: (!previous.is_empty()).then(|| Arc::new(previous)),
            ..Cache::default()
        }
    }

    /// Every file besides the pages that the cached pages were made from (resolved): what a
    /// preview server must watch too.
    pub fn dependencies(&self) -> impl Iterator<Item = &PathBuf> {
        self.entries
            .values()
            .flat_map(|e| e.deps.iter().map(|(d, _)| d))
    }
}

/// Like `load`, reusing `cache`; files in `changed` are read again whatever their timestamps.
pub fn load_cached(
    config: &Config,
    cache: &mut Cache,
    changed: &HashSet<PathBuf>,
) -> (Content, Diagnostics) {
    let content_dir = config.content_dir();
    let mut errors = Diagnostics::default();
    let present = match &config.snapshot {
        None => content_dir.is_dir(),
        Some(s) => s
            .files_under(rel_to_root(config, &content_dir))
            .next()
            .is_some(),
    };
    if !present {
        errors.push(
            Diagnostic::new(
                "content.missing",
                format!("no content folder at {}", content_dir.display()),
            )
            .hint("create content/ with Markdown pages, or pass --root pointing at the site"),
        );
        return (Content::default(), errors);
    }
    let config_digest = {
        let mut h = DefaultHasher::new();
        (format!("{:?}", config.site), &config.base_path).hash(&mut h);
        h.finish()
    };
    if config_digest != cache.config {
        // Every page's HTML depends on it: nothing parsed before can be reused.
        cache.entries.clear();
        cache.listing = None;
        cache.config = config_digest;
    }
    let commit = config.snapshot.as_ref().map(|s| s.commit.clone());
    if commit.is_some() && commit == cache.commit {
        if let (Some(sorted), Some(listing), Some(last_updated)) =
            (&cache.sorted, &cache.listing, &cache.last_updated)
        {
            let content = Content {
                pages: sorted.clone(),
                failed: HashSet::new(),
                incomplete: false,
                data: listing.data.clone(),
                edited_bodies: None,
                last_updated: last_updated.clone(),
                warnings: listing.warnings.clone(),
            };
            return (content, Diagnostics(listing.errors.clone()));
        }
    } else if commit != cache.commit {
        cache.entries.clear();
        cache.listing = None;
        cache.sorted = None;
        cache.last_updated = None;
        cache.commit = commit;
    }
    // One `git log` for the whole tree, beside the reading of the content.
    let git = match &cache.last_updated {
        Some(known) => Ok(known.clone()),
        None => Err(git::Pending::start_at(
            &config.root,
            &content_dir,
            config.snapshot.as_ref().map(|s| s.commit.as_str()),
        )),
    };
    // Only existing pages were edited: the listing, data and partials are as they were.
    let only_pages_edited = !changed.is_empty()
        && cache.listing.is_some()
        && changed
            .iter()
            .all(|p| cache.entries.contains_key(p) && config.root.join(p).is_file());
    let listing = match (&cache.listing, only_pages_edited) {
        (Some(l), true) => l.clone(),
        _ => {
            let mut found = Diagnostics::default();
            let files = match &config.snapshot {
                None => list_files(config, &content_dir, &mut found),
                Some(snapshot) => list_snapshot(config, snapshot, &content_dir),
            };
            let listed = found.0.len();
            let (data, locale_data, data_digest) = load_data(config, &files.data, &mut found);
            let (partials, partials_digest) = load_partials(config, &files.partials, &mut found);
            let data_failed = found.0.len() > listed;
            let (categories, categories_digest) =
                load_categories(config, &files.categories, &mut found);
            if categories_digest != cache.categories {
                // Categories place pages in the menu: every page is placed again.
                cache.entries.clear();
                cache.categories = categories_digest;
            }
            let inputs = {
                let mut h = DefaultHasher::new();
                (data_digest, partials_digest).hash(&mut h);
                h.finish()
            };
            if inputs != cache.inputs {
                cache.entries.retain(|_, e| !e.templated);
                cache.inputs = inputs;
            }
            let data = Arc::new(data);
            let locale_data = std::iter::once(data.clone())
                .chain(locale_data.into_iter().map(Arc::new))
                .collect();
            let warnings = files.warnings.clone();
            let l = Listing {
                files: Arc::new(files),
                locale_data,
                warnings,
                data,
                partials: Arc::new(partials),
                categories: Arc::new(categories),
                errors: found.0,
                data_failed,
            };
            cache.listing = Some(l.clone());
            l
        }
    };
    errors.extend(listing.errors.iter().cloned());
    let (files, data) = (&*listing.files, &listing.data);
    // One engine per locale: a locale's pages read its data.
    let engines: Vec<templating::Engine<'_>> = listing
        .locale_data
        .iter()
        .map(|d| templating::Engine::new(d, &listing.partials, config))
        .collect();
    let categories = &*listing.categories;

    // A snapshot's files have no times: its pages are parsed once per cache (see `Cache`).
    let on_disk = config.snapshot.is_none();
    let stamp = |rel: &PathBuf| {
        if !on_disk {
            return None;
        }
        std::fs::metadata(config.root.join(rel))
            .ok()
            .and_then(|m| Some((m.modified().ok()?, m.len())))
    };
    let held = HeldBodies {
        held: std::sync::atomic::AtomicUsize::new(0),
        limit: crate::held_bytes(files.pages.len()),
    };
    // The Markdown kept for the twins has a budget of its own, the size of the bodies'.
    let spill = Arc::new(spill::Spill::holding(held.limit));
    let known = Known {
        measured: &cache.measured,
        previous: cache.previous.as_deref(),
        spill: &spill,
    };
    let parse = |rel: &PathBuf, stamp| {
        let (result, templated) = load_page(config, &engines, categories, known, rel);
        let mut deps: Vec<PathBuf> = result
            .iter()
            .flatten()
            .flat_map(|p| p.dependencies())
            .cloned()
            .collect();
        deps.sort();
        deps.dedup();
        CacheEntry {
            stamp,
            deps: deps
                .into_iter()
                .map(|d| {
                    let s = files::stamp(&d);
                    (d, s)
                })
                .collect(),
            templated,
            result: result.map(|ps| {
                // Not collected in place: that would keep the `Vec<Page>`'s allocation, a whole
                // `Page` per page, behind the few bytes of each `Arc` to the end of the build.
                let mut arcs = Vec::with_capacity(ps.len());
                arcs.extend(ps.into_iter().map(|mut p| {
                    p.fit_budget(&held, &spill);
                    Arc::new(p)
                }));
                arcs
            }),
        }
    };
    let mut edited_bodies = None;
    if only_pages_edited {
        // The listing is as it was: read the edited pages again, and those that read them.
        let edited: Vec<PathBuf> = changed.iter().map(|p| config.root.join(p)).collect();
        let mut again: Vec<&PathBuf> = changed.iter().collect();
        again.extend(cache.entries.iter().filter_map(|(rel, e)| {
            let reads_edited = e.deps.iter().any(|(d, _)| edited.contains(d));
            (reads_edited && !changed.contains(rel)).then_some(rel)
        }));
        let fresh: Vec<(PathBuf, CacheEntry)> = again
            .par_iter()
            .map(|rel| ((*rel).clone(), parse(rel, stamp(rel))))
            .collect();
        edited_bodies = bodies_only(&cache.entries, &fresh);
        if let (Some(_), Some(sorted)) = (&edited_bodies, &mut cache.sorted) {
            replace_in_place(sorted, &fresh);
        } else {
            cache.sorted = None;
        }
        cache.entries.extend(fresh);
    } else {
        cache.sorted = None;
        let fresh: Vec<Option<CacheEntry>> = files
            .pages
            .par_iter()
            .with_max_len(crate::PAGES_PER_JOB)
            .map(|rel| {
                let stamp = stamp(rel);
                let reusable = !changed.contains(rel)
                    && stamp.is_some()
                    && cache.entries.get(rel).is_some_and(|e| {
                        e.stamp == stamp
                            && e.deps.iter().all(|(d, was)| {
                                *was == files::stamp(d)
                                    && !changed.iter().any(|c| config.root.join(c) == *d)
                            })
                    });
                (!reusable).then(|| parse(rel, stamp))
            })
            .collect();
        let listed: rustc_hash::FxHashSet<&PathBuf> = files.pages.iter().collect();
        cache.entries.retain(|rel, _| listed.contains(rel));
        for (rel, entry) in files.pages.iter().zip(fresh) {
            if let Some(e) = entry {
                cache.entries.insert(rel.clone(), e);
            }
        }
    }
    // Read into the pages: from here on the cache's own entries serve.
    cache.previous = None;

    if let Some(sorted) = &cache.sorted
        && !listing.data_failed
    {
        let last_updated = git.unwrap_or_else(|pending| Arc::new(pending.wait()));
        cache.last_updated = Some(last_updated.clone());
        let content = Content {
            pages: sorted.clone(),
            failed: HashSet::new(),
            incomplete: false,
            data: data.clone(),
            edited_bodies,
            last_updated,
            warnings: listing.warnings.clone(),
        };
        return (content, errors);
    }
    // The entries are exactly the listed files now; their order does not matter before the sort.
    let mut pages = Vec::with_capacity(cache.entries.len());
    let mut failed = HashSet::new();
    let mut incomplete = listing.data_failed;
    for (rel, entry) in &cache.entries {
        match &entry.result {
            Ok(ps) => pages.extend(ps.iter().cloned()),
            Err(ds) => {
                // With a broken data file, its own error is the one to fix first.
                if !(listing.data_failed && entry.templated) {
                    errors.extend(ds.iter().cloned());
                }
                failed.extend(locales::routes_of_file(config, rel));
                incomplete |= entry.templated;
            }
        }
    }
    if !incomplete {
        pages.extend(folder_sections(config, &pages, categories));
    }
    pages.sort_by(by_route);
    cache.sorted = (failed.is_empty() && !incomplete).then(|| pages.clone());
    let last_updated = git.unwrap_or_else(|pending| Arc::new(pending.wait()));
    cache.last_updated = Some(last_updated.clone());
    (
        Content {
            pages,
            failed,
            incomplete,
            data: data.clone(),
            edited_bodies,
            last_updated,
            warnings: listing.warnings.clone(),
        },
        errors,
    )
}

/// The order of `Content::pages`.
fn by_route(a: &Arc<Page>, b: &Arc<Page>) -> std::cmp::Ordering {
    a.route.cmp(&b.route).then_with(|| a.file.cmp(&b.file))
}

/// Puts the pages read again in the places of their earlier versions (which had the same
/// routes and files, see `bodies_only`).
fn replace_in_place(sorted: &mut [Arc<Page>], fresh: &[(PathBuf, CacheEntry)]) {
    for page in fresh
        .iter()
        .filter_map(|(_, e)| e.result.as_ref().ok())
        .flatten()
    {
        if let Ok(i) = sorted.binary_search_by(|p| by_route(p, page)) {
            sorted[i] = page.clone();
        }
    }
}

/// The routes of the pages read again, if each is what it was to every other page.
fn bodies_only(
    before: &rustc_hash::FxHashMap<PathBuf, CacheEntry>,
    fresh: &[(PathBuf, CacheEntry)],
) -> Option<Vec<String>> {
    let mut routes = Vec::new();
    for (rel, entry) in fresh {
        let (Ok(old), Ok(new)) = (&before.get(rel)?.result, &entry.result) else {
            return None;
        };
        // A page whose shape changed (a title, an order, the files it publishes, ...) changes
        // what other pages show: the whole output is brought up to date, not only the page.
        if old.len() != new.len()
            || old
                .iter()
                .zip(new)
                .any(|(a, b)| a.shape_digest() != b.shape_digest())
        {
            return None;
        }
        routes.extend(new.iter().map(|p| p.route.clone()));
    }
    Some(routes)
}

#[derive(Default)]
struct Files {
    pages: Vec<PathBuf>,
    data: Vec<PathBuf>,
    partials: Vec<PathBuf>,
    categories: Vec<PathBuf>,
    /// Files that look like pages but are none (see `locales::sort_out`).
    warnings: Vec<Diagnostic>,
}

/// Lists the files of `content/`, relative to the site root, in a stable order.
fn list_files(config: &Config, content_dir: &Path, errors: &mut Diagnostics) -> Files {
    let mut files = Files::default();
    let canonical_root = content_dir
        .canonicalize()
        .unwrap_or_else(|_| content_dir.to_path_buf());
    let walker = walkdir::WalkDir::new(content_dir)
        .sort_by_file_name()
        .into_iter();
    // Never read a build's output as content (a site whose pages sit at its root builds into
    // a folder among them), nor installed packages.
    let not_content = |e: &walkdir::DirEntry| {
        e.file_name().to_string_lossy().starts_with('.')
            || (e.file_type().is_dir()
                && e.depth() > 0
                && (e.file_name() == "node_modules"
                    || e.path().join(crate::paths::MARKER).exists()))
    };
    for entry in walker.filter_entry(|e| !not_content(e)) {
        let entry = match entry {
            Ok(e) => e,
            Err(e) => {
                errors.push(Diagnostic::new(
                    "io.walk",
                    format!("cannot read the content folder: {e}"),
                ));
                continue;
            }
        };
        let path = entry.path();
        let rel = path
            .strip_prefix(&config.root)
            .unwrap_or(path)
            .to_path_buf();
        if entry.path_is_symlink() {
            // A link may point anywhere; only what stays inside content/ is read.
            let problem = match path.canonicalize() {
                Ok(target) if target.starts_with(&canonical_root) => None,
                Ok(_) => Some((
                    "content.outside",
                    "this symbolic link leads outside the content folder".to_string(),
                    "copy the file into content/ instead of linking to it",
                )),
                // ELOOP: the link leads back to itself through other links.
                Err(e) if e.raw_os_error() == Some(40) => Some((
                    "content.link-loop",
                    "this symbolic link is a loop: following it leads back to it".to_string(),
                    "point the link at a real file or folder, or remove it",
                )),
                Err(e) if e.kind() == std::io::ErrorKind::NotFound => Some((
                    "content.broken-link",
                    "this symbolic link points to nothing".to_string(),
                    "point the link at an existing file, or remove it",
                )),
                Err(e) => Some((
                    "content.broken-link",
                    format!("this symbolic link cannot be followed: {e}"),
                    "point the link at a readable file, or remove it",
                )),
            };
            if let Some((code, message, hint)) = problem {
                errors.push(Diagnostic::new(code, message).in_file(&rel).hint(hint));
                continue;
            }
        }
        if !path.is_file() {
            continue;
        }
        let inner = path.strip_prefix(content_dir).unwrap_or(path);
        files.classify(rel, inner);
    }
    locales::sort_out(config, &mut files.pages, &mut files.warnings);
    files
}

/// The relative form of `path` (under the site root) that messages and snapshots use.
fn rel_to_root<'p>(config: &Config, path: &'p Path) -> &'p Path {
    path.strip_prefix(&config.root).unwrap_or(path)
}

/// Lists the files of the content folder an earlier version's snapshot holds, as `list_files`
/// lists those of the working tree (the snapshot holds regular files only).
fn list_snapshot(
    config: &Config,
    snapshot: &crate::config::source::Snapshot,
    content_dir: &Path,
) -> Files {
    let mut files = Files::default();
    let dir = rel_to_root(config, content_dir);
    for rel in snapshot.files_under(dir) {
        let inner = rel.strip_prefix(dir).unwrap_or(rel);
        // Hidden files and folders and installed packages are no content, as on disk.
        let skipped = inner.components().any(|c| {
            let c = c.as_os_str().to_string_lossy();
            c.starts_with('.') || c == "node_modules"
        });
        if !skipped {
            files.classify(rel.clone(), inner);
        }
    }
    locales::sort_out(config, &mut files.pages, &mut files.warnings);
    files
}

impl Files {
    /// Files a file of the content folder (`rel` from the site root, `inner` from the content
    /// folder) as a page, a data file, a partial or a category file; anything else is not read.
    fn classify(&mut self, rel: PathBuf, inner: &Path) {
        let first = inner
            .components()
            .next()
            .map(|c| c.as_os_str().to_string_lossy().into_owned())
            .unwrap_or_default();
        let ext = inner.extension().and_then(|e| e.to_str()).unwrap_or("");
        let file_name = inner.file_name().unwrap_or_default();
        if first == "data" && inner.components().count() > 1 {
            if matches!(ext, "yaml" | "yml") {
                self.data.push(rel);
            }
        } else if first == "_partials" {
            self.partials.push(rel);
        } else if category::FILE_NAMES.iter().any(|n| file_name == *n) {
            self.categories.push(rel);
        } else if matches!(ext, "md" | "mdx") {
            self.pages.push(rel);
        }
    }
}

/// Whether a file is private: a name starting with `_` (other than `_index.md`) or inside a
/// folder starting with `_`. Private files are pages only when they are `generate` templates.
fn is_private(inner: &Path) -> bool {
    let comps: Vec<_> = inner
        .components()
        .map(|c| c.as_os_str().to_string_lossy().into_owned())
        .collect();
    let Some((name, dirs)) = comps.split_last() else {
        return true;
    };
    (name.starts_with('_') && name != "_index.md" && name != "_index.mdx")
        || dirs.iter().any(|d| d.starts_with('_'))
}

/// The category files by the folder holding them, and a digest of their texts.
fn load_categories(
    config: &Config,
    files: &[PathBuf],
    errors: &mut Diagnostics,
) -> (category::Categories, u64) {
    let mut categories = category::Categories::default();
    let mut digest = DefaultHasher::new();
    for rel in files {
        let Some(text) = read(config, rel, errors) else {
            continue;
        };
        (rel, &*text).hash(&mut digest);
        match category::parse(&text, rel) {
            Ok(c) => {
                let folder = config
                    .content_relative(rel)
                    .parent()
                    .unwrap_or(Path::new(""));
                categories.insert(folder.to_path_buf(), c);
            }
            Err(d) => errors.push(d),
        }
    }
    (categories, digest.finish())
}

/// A menu section for every folder that holds pages but no page of its own (no `_index.md`,
/// `index.md` or `README.md`): named by its category or its folder name, never written.
/// Folders above the site's areas are not sections (the areas are the menu's roots).
fn folder_sections(
    config: &Config,
    pages: &[Arc<Page>],
    categories: &category::Categories,
) -> Vec<Arc<Page>> {
    // A route some page answers at, as its own or as an alias, is no folder's section.
    let taken: HashSet<&str> = pages
        .iter()
        .flat_map(|p| std::iter::once(&p.route).chain(&p.front.aliases))
        .map(|r| r.trim_end_matches('/'))
        .collect();
    let areas: Vec<&str> = config.site.areas.iter().map(|a| a.route.as_str()).collect();
    let mut folders: BTreeMap<String, (PathBuf, usize)> = BTreeMap::new();
    for page in pages.iter().filter(|p| p.item.is_none()) {
        let inner = config.content_relative(&page.file);
        let mut folder = inner.parent();
        // A folder's own page sits in the folder it stands for.
        if page.is_index {
            folder = folder.and_then(Path::parent);
        }
        let locale = &config.locales[page.locale];
        while let Some(f) = folder.filter(|f| !f.as_os_str().is_empty()) {
            let route = route_of(&f.join("_index.md")).0;
            let above_an_area = areas.iter().any(|a| {
                *a == route
                    || a.strip_prefix(route.as_str())
                        .is_some_and(|r| r.starts_with('/'))
            });
            let route = locale.route(&route);
            if !taken.contains(route.as_str()) && !above_an_area && !is_private(f) {
                folders
                    .entry(route)
                    .or_insert_with(|| (f.to_path_buf(), page.locale));
            }
            folder = f.parent();
        }
    }
    folders
        .into_iter()
        .map(|(route, (folder, locale))| {
            let placement = categories.placement(&folder.join("_index.md"), true);
            let own = categories.of_folder(&folder);
            let title = placement
                .label
                .clone()
                .unwrap_or_else(|| title_from_name(&folder));
            let file = config
                .content_dir()
                .strip_prefix(&config.root)
                .unwrap_or(Path::new(""))
                .join(&folder);
            Arc::new(Page {
                route,
                file,
                item: None,
                body_line: 1,
                front: FrontMatter::default(),
                title,
                order: placement.order,
                is_index: true,
                is_page: false,
                hidden: placement.hidden,
                toc: false,
                rendered: Rendered::default(),
                body: Body::Held(String::new()),
                excerpt: None,
                markdown: None,
                source: None,
                source_digest: u64::from(own.is_some()),
                warnings: Vec::new(),
                includes: Vec::new(),
                render_record: None,
                locale,
                translation: if locale == 0 {
                    locales::Translation::Source
                } else {
                    locales::Translation::Fallback
                },
            })
        })
        .collect()
}

/// A title made from a file or folder name: `getting-started.md` → "Getting started".
pub fn title_from_name(path: &Path) -> String {
    let stem = path
        .file_stem()
        .map(|s| s.to_string_lossy())
        .unwrap_or_default();
    let words = stem.replace(['-', '_'], " ");
    let words = words.trim();
    let mut chars = words.chars();
    match chars.next() {
        Some(first) => first.to_uppercase().chain(chars).collect(),
        None => String::new(),
    }
}

/// The data files by name, and the data of each locale but the default (each a whole map: a
/// file's translation `name.zh.yaml` in place of `name.yaml`, file for file).
type LoadedData = (
    BTreeMap<String, yaml_serde::Value>,
    Vec<BTreeMap<String, yaml_serde::Value>>,
    u64,
);

fn load_data(config: &Config, files: &[PathBuf], errors: &mut Diagnostics) -> LoadedData {
    let (texts, digest) = read_folder(config, files, "data", errors);
    let mut data = BTreeMap::new();
    let mut translated: Vec<(usize, String, yaml_serde::Value)> = Vec::new();
    for (rel, inner, text) in texts {
        let file_locale = crate::config::locales::file_locale(Path::new(&inner), &config.locales);
        // `data/sdk-api.yaml` is `data["sdk-api"]`.
        let key_of = |inner: &Path| inner.with_extension("").to_string_lossy().into_owned();
        match yaml::parse_value(&text, rel, 1, &text) {
            Ok(v) => match file_locale {
                crate::config::locales::FileLocale::Translation { index, source } => {
                    translated.push((index, key_of(&source), v));
                }
                _ => {
                    data.insert(key_of(Path::new(&inner)), v);
                }
            },
            Err(d) => errors.push(d),
        }
    }
    let mut per_locale: Vec<BTreeMap<String, yaml_serde::Value>> =
        vec![data.clone(); config.locales.len().saturating_sub(1)];
    for (index, key, value) in translated {
        per_locale[index - 1].insert(key, value);
    }
    (data, per_locale, digest)
}

fn load_partials(
    config: &Config,
    files: &[PathBuf],
    errors: &mut Diagnostics,
) -> (BTreeMap<String, String>, u64) {
    let (texts, digest) = read_folder(config, files, "_partials", errors);
    let partials = texts
        .into_iter()
        .map(|(_, inner, text)| (inner, text.to_string()))
        .collect();
    (partials, digest)
}

/// A file of a content folder: its path from the site root, its path inside the folder, its text.
type FolderFile<'a> = (&'a Path, String, Arc<str>);

/// The files of a content folder (`data`, `_partials`): each with its path inside the folder
/// (with `/`) and its text, and a digest of them all that tells a rebuild whether any changed.
fn read_folder<'a>(
    config: &Config,
    files: &'a [PathBuf],
    folder: &str,
    errors: &mut Diagnostics,
) -> (Vec<FolderFile<'a>>, u64) {
    let mut digest = DefaultHasher::new();
    let mut texts = Vec::with_capacity(files.len());
    for rel in files {
        let Some(text) = read(config, rel, errors) else {
            continue;
        };
        (rel, &*text).hash(&mut digest);
        let inner = config
            .content_relative(rel)
            .strip_prefix(folder)
            .unwrap_or(rel)
            .to_string_lossy()
            .replace('\\', "/");
        texts.push((rel.as_path(), inner, text));
    }
    (texts, digest.finish())
}

fn read(config: &Config, rel: &Path, errors: &mut Diagnostics) -> Option<Arc<str>> {
    config.read_text(rel).map_err(|d| errors.push(d)).ok()
}

/// The route of a file by its path inside the content folder: `a/b.md` → `/a/b`,
/// `a/_index.md` → `/a`.
pub fn route_of(inner: &Path) -> (String, bool) {
    let mut route = String::with_capacity(inner.as_os_str().len() + 1);
    let mut is_index = false;
    let mut components = inner.components().peekable();
    while let Some(c) = components.next() {
        let part = c.as_os_str().to_string_lossy();
        let mut part: &str = &part;
        if components.peek().is_none() {
            // The file's name: an index page is its folder's route, another page its stem's.
            is_index = crate::config::INDEX_NAMES.contains(&part) || part == "_index.mdx";
            if is_index {
                break;
            }
            part = part
                .strip_suffix(".md")
                .or_else(|| part.strip_suffix(".mdx"))
                .unwrap_or(part);
        }
        route.push('/');
        route.push_str(part);
    }
    if route.is_empty() {
        route.push('/');
    }
    (route, is_index)
}

/// The route of the folder holding a file inside the content folder.
pub(crate) fn dir_route(inner: &Path) -> String {
    inner
        .parent()
        .map(|p| route_of(&p.join("_index.md")).0)
        .unwrap_or_else(|| "/".into())
}

/// Reads one page file; also says whether it may read data or partials (a conservative guess
/// from its front matter, used to know when to read it again).
/// On a site with locales, a source file gives its page in the default locale and, in every
/// other locale without a translation of it, the same page there (a fallback); a translation
/// gives its page in its locale.
fn load_page(
    config: &Config,
    engines: &[templating::Engine<'_>],
    categories: &category::Categories,
    known: Known<'_>,
    rel: &Path,
) -> (Result<Vec<Page>, Vec<Diagnostic>>, bool) {
    use crate::config::locales::{FileLocale, file_locale, translation_path};
    let mut errors = Diagnostics::default();
    let Some(text) = read(config, rel, &mut errors) else {
        return (Err(errors.0), false);
    };
    let templated = frontmatter::split(&text)
        .yaml
        .is_some_and(|(y, _)| y.contains("generate") || y.contains("template"));
    let placed = |mut pages: Vec<Page>, source: &Path| {
        if !categories.is_empty() {
            for page in pages.iter_mut().filter(|p| p.item.is_none()) {
                place(
                    page,
                    categories.placement(config.content_relative(source), page.is_index),
                );
            }
        }
        pages
    };
    if let FileLocale::Translation { index, source } = file_locale(rel, &config.locales) {
        let pages = parse_page(config, &engines[index], known, rel, &text, index, &source);
        let pages = pages.map(|pages| {
            let stamped = pages.first().and_then(|p| p.front.translated_from.clone());
            let state = locales::freshness(config, &source, stamped.as_deref());
            let warning = locales::freshness_warning(rel, &text, &source, state);
            let mut pages = placed(pages, &source);
            let order = source_order(config, &source);
            for (i, page) in pages.iter_mut().enumerate() {
                // In the menu where its source is, unless it says otherwise.
                if page.order.is_none() {
                    page.order = order;
                }
                page.translation = locales::Translation::Translated {
                    source: source.clone(),
                    state,
                };
                // The source's edits change the translation's freshness.
                page.includes.push(config.root.join(&source));
                // Once per file, not once per generated page.
                if i == 0 {
                    page.warnings.extend(warning.clone());
                }
            }
            pages
        });
        return (pages, templated);
    }
    let pages = match parse_page(config, &engines[0], known, rel, &text, 0, rel) {
        Ok(pages) => placed(pages, rel),
        Err(e) => return (Err(e), templated),
    };
    if config.locales.len() < 2 {
        return (Ok(pages), templated);
    }
    // Where the translations would be: one appearing or going away reads this file again.
    let beside: Vec<PathBuf> = config.locales[1..]
        .iter()
        .map(|l| translation_path(rel, l))
        .collect();
    let mut all = pages;
    let mut failed = Vec::new();
    for (i, translation) in beside.iter().enumerate() {
        if config.has_file(translation) {
            continue;
        }
        match parse_page(config, &engines[i + 1], known, rel, &text, i + 1, rel) {
            Ok(pages) => all.extend(placed(pages, rel).into_iter().map(|mut p| {
                p.translation = locales::Translation::Fallback;
                // What the page does not render is reported once, on the source's page.
                p.warnings.clear();
                p
            })),
            Err(e) => failed.extend(e),
        }
    }
    if !failed.is_empty() {
        return (Err(failed), templated);
    }
    for page in all.iter_mut().filter(|p| p.locale == 0) {
        page.includes
            .extend(beside.iter().map(|t| config.root.join(t)));
    }
    (Ok(all), templated)
}

/// The menu order the page file `source` gives itself (`order:`), when it gives a valid one.
fn source_order(config: &Config, source: &Path) -> Option<i64> {
    let text = config.read_text(source).ok()?;
    let (yaml, line) = frontmatter::split(&text).yaml?;
    frontmatter::parse(yaml, line, source, &text)
        .ok()?
        .order?
        .value()
        .ok()
}

/// What a folder's category says of a page overrides its front matter.
fn place(page: &mut Page, placement: category::Placement) {
    if placement.order.is_some() {
        page.order = placement.order;
    }
    if placement.label.is_some() {
        page.front.menu_label = placement.label;
    }
    page.hidden |= placement.hidden;
}

/// A page file being read: its path, its text and where its parts start, so that every step
/// of reading it points its diagnostics at the right line.
/// What reading a page can reuse: the files measured so far, and the renders of the previous
/// build over whose output this one writes.
#[derive(Clone, Copy)]
struct Known<'a> {
    measured: &'a files::Measured,
    previous: Option<&'a render_cache::Previous>,
    spill: &'a Arc<spill::Spill>,
}

pub(crate) struct SourceFile<'a> {
    pub rel: &'a Path,
    pub text: &'a Arc<str>,
    pub yaml: &'a str,
    pub yaml_line: usize,
    pub body: &'a str,
    pub body_line: usize,
    /// The route of the folder holding the file: relative `.md` links resolve from it.
    pub dir_route: String,
    /// The files pages refer to, as measured so far.
    pub measured: &'a files::Measured,
    /// The renders of the previous build over whose output this one writes.
    pub previous: Option<&'a render_cache::Previous>,
    /// Where bodies wait past the memory budget, and the pages' own Markdown for their twins.
    pub spill: &'a Arc<spill::Spill>,
    /// The body's include directives expanded (`body` is then its text).
    pub expanded: Option<&'a include::Expanded>,
    /// The locale of the pages made from it (an index of `Config::locales`).
    pub locale: usize,
}

impl SourceFile<'_> {
    /// A diagnostic at `line` of this file, with its excerpt.
    pub fn error(&self, code: &'static str, message: impl Into<String>, line: usize) -> Diagnostic {
        Diagnostic::new(code, message)
            .in_file(self.rel)
            .at(line, 1)
            .with_source(self.text)
    }
}

/// One page to be made from a source file: by the file itself, or by one `generate` item.
pub(crate) struct Draft {
    /// For generated pages: which item made it, e.g. `platform=android`.
    pub item: Option<String>,
    pub front: FrontMatter,
    pub route: String,
    pub is_index: bool,
    /// The Markdown body, templates already rendered.
    pub body: String,
    /// The route relative links of the body resolve from.
    pub link_dir: String,
    /// The body is the file's own Markdown, so it can be rendered again from the file.
    pub from_file: bool,
}

/// `source` is the file whose route the pages take (`rel` itself, or the source of the
/// translation `rel`); `locale` the locale they are made in.
fn parse_page(
    config: &Config,
    engine: &templating::Engine<'_>,
    known: Known<'_>,
    rel: &Path,
    text: &Arc<str>,
    locale: usize,
    source: &Path,
) -> Result<Vec<Page>, Vec<Diagnostic>> {
    let split = frontmatter::split(text);
    // Front matter is optional: the title can come from the first `# heading` or the name.
    let (yaml, yaml_line) = split.yaml.unwrap_or(("", 1));
    let front = frontmatter::parse(yaml, yaml_line, rel, text).map_err(|d| vec![d])?;
    let inner = config.content_relative(source);
    let (route, is_index) = route_of(inner);
    let expanded = if split.body.contains("{{#") {
        let project = include::Project::of(&config.root);
        let path = project.root.join(rel);
        let origin = include::Origin {
            path: &path,
            shown: rel,
            text,
            first_line: split.body_line,
        };
        include::expand(split.body, &origin, &project)?
    } else {
        None
    };
    let src = SourceFile {
        rel,
        text,
        yaml,
        yaml_line,
        body: expanded.as_ref().map_or(split.body, |e| e.text.as_str()),
        body_line: split.body_line,
        dir_route: dir_route(inner),
        measured: known.measured,
        previous: known.previous,
        spill: known.spill,
        expanded: expanded.as_ref(),
        locale,
    };
    if let Some(generate) = &front.generate {
        return templating::expand(config, engine, &src, generate);
    }
    if is_private(inner) {
        // A private file without `generate` is a fragment or a draft, not a page.
        return Ok(Vec::new());
    }
    let templated = flag(&front.template, false).map_err(|why| {
        vec![
            src.error("frontmatter.bad-value", why, yaml_line)
                .hint("write true or false"),
        ]
    })?;
    let body = if templated {
        engine.render_body(&src, &front).map_err(|d| vec![d])?
    } else {
        src.body.to_string()
    };
    let link_dir = src.dir_route.clone();
    let draft = Draft {
        item: None,
        front,
        route,
        is_index,
        body,
        link_dir,
        // An expanded body is not the file's own: it is held, not read again.
        from_file: !templated && expanded.is_none(),
    };
    Ok(vec![finish_page(config, &src, draft)?])
}

fn flag(f: &Option<frontmatter::Flag>, default: bool) -> Result<bool, String> {
    f.as_ref().map_or(Ok(default), |f| f.value())
}

/// Turns a draft of `src` into a rendered page.
pub(crate) fn finish_page(
    config: &Config,
    src: &SourceFile<'_>,
    draft: Draft,
) -> Result<Page, Vec<Diagnostic>> {
    let Draft {
        item,
        mut front,
        route,
        is_index,
        body,
        link_dir,
        from_file,
    } = draft;
    let (rel, yaml_line, body_line) = (src.rel, src.yaml_line, src.body_line);
    // In another locale than the default, the page and its aliases are under its prefix, and
    // its body is held (it is not its file's own rendering).
    let locale = &config.locales[src.locale];
    let route = locale.route(&route);
    let from_file = from_file && src.locale == 0;
    if src.locale > 0 {
        for alias in &mut front.aliases {
            *alias = locale.route(alias);
        }
    }
    let mut errors = Vec::new();
    // Templated front matter renders "absent" as an empty string.
    for field in [
        &mut front.description,
        &mut front.menu_label,
        &mut front.icon,
        &mut front.icon_alt,
        &mut front.require_feature,
        &mut front.group,
    ] {
        if field.as_deref().is_some_and(|v| v.trim().is_empty()) {
            *field = None;
        }
    }
    // Messages point at the key they are about.
    // A generated page's key may be given by its template's `generate:` (its route).
    let at_key = |key: &str, code: &'static str, msg: String, hint: &str| {
        let positions = crate::config::yaml::Positions::read(src.yaml, yaml_line);
        let line = positions
            .key(&[key.into()])
            .or_else(|| {
                item.as_ref()
                    .and_then(|_| positions.key(&["generate".into(), key.into()]))
            })
            .map_or(yaml_line, |(line, _)| line);
        let mut d = src.error(code, msg, line).hint(hint);
        if let Some(i) = &item {
            d.message = format!("{} (generated for {i})", d.message);
        }
        d
    };
    // The front matter's title, else the body's first `# heading` (found when rendering),
    // else the file's name.
    let given_title = given_title(&front);
    let order = match front.order.as_ref().map(|n| n.value()) {
        None => None,
        Some(Ok(v)) => Some(v),
        Some(Err(why)) => {
            errors.push(at_key(
                "order",
                "frontmatter.bad-value",
                format!("order: {why}"),
                "write a whole number, e.g. `order: 20`",
            ));
            None
        }
    };
    let mut flag_of = |f: &Option<frontmatter::Flag>, default: bool, key: &str| match f
        .as_ref()
        .map(|f| f.value())
    {
        None => default,
        Some(Ok(v)) => v,
        Some(Err(why)) => {
            errors.push(at_key(
                key,
                "frontmatter.bad-value",
                format!("{key}: {why}"),
                "write true or false",
            ));
            default
        }
    };
    // Docusaurus's `slug` is a second address of the page.
    if let Some(slug) = front
        .slug
        .as_deref()
        .map(str::trim)
        .filter(|s| !s.is_empty())
    {
        let alias = if slug.starts_with('/') {
            slug.trim_end_matches('/').to_string()
        } else {
            format!(
                "{}/{}",
                link_dir.trim_end_matches('/'),
                slug.trim_end_matches('/')
            )
        };
        let alias = if alias.is_empty() {
            "/".to_string()
        } else {
            alias
        };
        let alias = locale.route(&alias);
        if alias != route && !front.aliases.contains(&alias) {
            front.aliases.push(alias);
        }
    }
    let mut notes: Vec<Diagnostic> = front
        .docusaurus_ignored()
        .into_iter()
        .map(|key| {
            at_key(
                key,
                "frontmatter.not-applied",
                format!("`{key}` is a Docusaurus setting docgen does not apply"),
                "remove it, or leave it for a Docusaurus build of the same files",
            )
            .warning()
        })
        .collect();
    let hidden = flag_of(&front.hidden, false, "hidden");
    let toc = flag_of(&front.toc, true, "toc");
    let is_page = flag_of(&front.page, true, "page");
    if !is_page && !is_index {
        errors.push(at_key(
            "page",
            "frontmatter.page-false",
            "`page: false` is only for a section's _index.md".into(),
            "remove it, or use `hidden: true` to keep the page out of the menu",
        ));
    }
    if let Err(why) = crate::config::validate_route(&route) {
        errors.push(at_key(
            "route",
            "page.bad-route",
            format!("the route `{route}` {why}"),
            "rename the file or fix the generate route",
        ));
    }
    if !errors.is_empty() {
        return Err(errors);
    }
    let name_title = || name_title(config, rel, is_index);
    // A page that is the plain Markdown of its own file takes its render from the previous
    // build when nothing it was made from changed, and records its own for the next build.
    let mut render_record = None;
    let mut kept_render = None;
    let mut rendered = if is_page {
        let files = files::Resolver {
            config,
            file: rel,
            measured: src.measured,
        };
        let fallback = given_title.clone().unwrap_or_else(name_title);
        let prefixes = other_locale_prefixes(config);
        let recording = render_cache::Recording::new(&files);
        let resolver: &dyn markdown::FileResolver = if from_file { &recording } else { &files };
        let ctx = markdown::PageContext {
            locale_prefix: &locale.prefix,
            locale_prefixes: &prefixes,
            ..page_context(config, &fallback, &route, &link_dir, resolver, is_mdx(rel))
        };
        if from_file {
            let key = render_cache::key(&body, &ctx, front.description.is_none());
            match src.previous.and_then(|p| p.lookup(rel, key, &files)) {
                Some(hit) => {
                    render_record = Some(hit.record);
                    kept_render = Some((hit.html_digest, hit.excerpt));
                    hit.rendered
                }
                None => {
                    let rendered = markdown::render(&body, &ctx);
                    render_record = Some(recording.into_record(key));
                    rendered
                }
            }
        } else {
            markdown::render(&body, &ctx)
        }
    } else {
        Rendered::default()
    };
    let title = given_title
        .or_else(|| {
            let h1 = rendered.headings.first().filter(|h| h.level == 1)?;
            (!h1.text.is_empty()).then(|| h1.text.clone())
        })
        .unwrap_or_else(name_title);
    // Lines of an expanded body are the writer's lines again; what an include brought in is
    // at its directive.
    let original = |line: usize| src.expanded.map_or(line, |e| e.original_line(line));
    for link in &mut rendered.links {
        link.line = original(link.line);
    }
    let diagnostic = |p: &markdown::Problem| {
        let line = original(p.line);
        let mut d = src
            .error(p.code, p.message.clone(), body_line + line - 1)
            .hint(p.hint.clone());
        d.column = if line == p.line { p.column } else { 1 };
        if let Some(i) = &item {
            d.message = format!("{} (generated for {i})", d.message);
        }
        d
    };
    if !rendered.problems.is_empty() {
        return Err(rendered.problems.iter().map(diagnostic).collect());
    }
    notes.extend(rendered.warnings.iter().map(|p| diagnostic(p).warning()));
    if let Some(e) = src.expanded {
        notes.extend(e.warnings.iter().cloned());
    }
    // The Markdown twin shows the source as written.
    let source_digest = body_source_digest(&body);
    // A page rendered now has its Markdown put aside for its twin; one whose render is the
    // previous build's is mostly not written again, and its twin reads the file when it is.
    let twinned = is_page && config.site.llms.enabled;
    let source = (from_file && twinned && kept_render.is_none())
        .then(|| src.spill.keep(&body))
        .flatten();
    let markdown = (!from_file && twinned).then(|| Arc::from(body));
    let mut page = Page {
        route,
        file: rel.to_path_buf(),
        item,
        body_line,
        front,
        title,
        order,
        is_index,
        is_page,
        hidden,
        toc,
        rendered,
        body: Body::Held(String::new()),
        excerpt: None,
        markdown,
        source,
        source_digest,
        warnings: notes,
        includes: src.expanded.map(|e| e.files.clone()).unwrap_or_default(),
        locale: src.locale,
        translation: locales::Translation::Source,
        render_record: None,
    };
    page.render_record = render_record;
    if let Some((digest, excerpt)) = kept_render {
        page.excerpt = excerpt;
        page.body = Body::FromFile {
            digest,
            spilled: None,
        };
        return Ok(page);
    }
    let html = std::mem::take(&mut page.rendered.html);
    if page.front.description.is_none() {
        page.excerpt = excerpt::of(&html).map(String::into_boxed_str);
    }
    page.body = if from_file {
        Body::Rereadable(html)
    } else {
        Body::Held(html)
    };
    Ok(page)
}

/// Feeds what is formatted into it to a hasher, so a value is hashed by its `Debug` form
/// without being written out whole first.
struct HashWriter<'h, H>(&'h mut H);

impl<H: Hasher> std::fmt::Write for HashWriter<'_, H> {
    fn write_str(&mut self, s: &str) -> std::fmt::Result {
        self.0.write(s.as_bytes());
        Ok(())
    }
}

/// A field shown to `Page::digest_fields` as the digest of its `Hash`: for the long ones (lists
/// of strings), whose `Debug` text takes many times longer to make, escaped a character at a time.
struct Hashed<'a, T>(&'a T);

impl<T: Hash> std::fmt::Debug for Hashed<'_, T> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let mut h = rustc_hash::FxHasher::default();
        self.0.hash(&mut h);
        write!(f, "{:016x}", h.finish())
    }
}

/// The title the front matter gives, if it gives one.
fn given_title(front: &FrontMatter) -> Option<String> {
    front
        .title
        .as_deref()
        .map(str::trim)
        .filter(|t| !t.is_empty())
        .map(str::to_string)
}

/// The title of a page without one in its front matter or an h1: from its file's name.
fn name_title(config: &Config, rel: &Path, is_index: bool) -> String {
    let inner = config.content_relative(rel);
    let named = if is_index {
        inner.parent().unwrap_or(inner)
    } else {
        inner
    };
    match title_from_name(named) {
        t if t.is_empty() => config.site.title.clone().unwrap_or_else(|| "Home".into()),
        t => t,
    }
}

/// The route prefixes of the locales besides the default: a link already under one is kept.
fn other_locale_prefixes(config: &Config) -> Vec<String> {
    config.locales[1..]
        .iter()
        .map(|l| l.prefix.clone())
        .collect()
}

/// A page body from an `.mdx` file is read leniently (see `markdown::PageContext::mdx`).
fn is_mdx(file: &Path) -> bool {
    file.extension()
        .is_some_and(|e| e.eq_ignore_ascii_case("mdx"))
}

/// How a page of the default locale is rendered.
fn page_context<'a>(
    config: &'a Config,
    title: &'a str,
    route: &'a str,
    link_dir: &'a str,
    files: &'a dyn markdown::FileResolver,
    mdx: bool,
) -> markdown::PageContext<'a> {
    let options = &config.site.markdown;
    markdown::PageContext {
        title,
        route,
        file_dir: link_dir,
        base_path: &config.base_path,
        features: &config.site.features,
        allowed_schemes: &config.site.allow_link_schemes,
        files: Some(files),
        anchors: config.site.markdown.anchors,
        math: options.math,
        math_brackets: options.math_brackets,
        line_numbers: options.line_numbers,
        mdx,
        locale_prefix: "",
        locale_prefixes: &[],
    }
}

/// The files a page found when it was first rendered, for rendering it again: they were
/// measured then, and reading them again would give the same names or a changed page.
struct Recorded<'a> {
    files: &'a [markdown::LocalFile],
    links: &'a [markdown::Link],
}

impl markdown::FileResolver for Recorded<'_> {
    fn find(&self, path: &str) -> Result<Option<markdown::LocalFile>, markdown::FileProblem> {
        match self.files.iter().find(|f| f.written == path) {
            Some(f) => Ok(Some(f.clone())),
            // A file docgen writes, or one the page did not name before (it changed since):
            // as written; the digest of the HTML tells the difference.
            None => Ok(None),
        }
    }

    fn page_at_content_root(&self, path: &str) -> bool {
        let from_root = markdown::links::resolve(path, "/", "/");
        self.links
            .iter()
            .any(|l| l.written == path && l.target == from_root)
    }
}

fn body_digest(html: &str) -> u64 {
    let mut h = rustc_hash::FxHasher::default();
    html.hash(&mut h);
    h.finish()
}

/// The HTML body of `page`: the one held in memory, or rendered again from its file (the
/// same steps as the first time, so the same bytes unless the file was edited since).
pub fn body_html<'p>(
    config: &Config,
    page: &'p Page,
) -> Result<std::borrow::Cow<'p, str>, Diagnostic> {
    let (digest, spilled) = match &page.body {
        Body::Held(html) | Body::Rereadable(html) => return Ok(html.as_str().into()),
        Body::FromFile { digest, spilled } => (*digest, spilled),
    };
    // What was put aside is what was rendered (a spill file that failed since is no reason to
    // fail: the page is rendered again).
    if let Some(html) = spilled.as_ref().and_then(|s| s.read().ok())
        && body_digest(&html) == digest
    {
        return Ok(html);
    }
    let changed = || {
        Diagnostic::new(
            "content.changed",
            "this file changed while the site was being built",
        )
        .in_file(&page.file)
        .hint("build again")
    };
    let text = config.read_text(&page.file).map_err(|_| changed())?;
    let dir = dir_route(config.content_relative(&page.file));
    let body = frontmatter::split(&text).body;
    let files = Recorded {
        files: &page.rendered.files,
        links: &page.rendered.links,
    };
    // The context of its first render (a body read again is one of the default locale's).
    let title =
        given_title(&page.front).unwrap_or_else(|| name_title(config, &page.file, page.is_index));
    let prefixes = other_locale_prefixes(config);
    let ctx = markdown::PageContext {
        locale_prefixes: &prefixes,
        ..page_context(
            config,
            &title,
            &page.route,
            &dir,
            &files,
            is_mdx(&page.file),
        )
    };
    let html = markdown::render(body, &ctx).html;
    if body_digest(&html) == digest {
        Ok(html.into())
    } else {
        Err(changed())
    }
}

/// A digest of a page's Markdown body (`Page::source_digest`), by which the twin knows that
/// the file it reads again is the one parsed. Only ever compared within one build, so a fast
/// hash serves.
pub fn body_source_digest(body: &str) -> u64 {
    let mut h = rustc_hash::FxHasher::default();
    body.hash(&mut h);
    h.finish()
}

/// The Markdown body of `page` as the writer meant it: templates and includes expanded, front
/// matter left out.
pub fn body_markdown<'p>(
    config: &Config,
    page: &'p Page,
) -> Result<std::borrow::Cow<'p, str>, Diagnostic> {
    if let Some(md) = &page.markdown {
        return Ok(md.as_ref().into());
    }
    if let Some(md) = page.source.as_ref().and_then(|s| s.read().ok()) {
        return Ok(md);
    }
    let text = config.read_text(&page.file).map_err(|_| {
        Diagnostic::new(
            "content.changed",
            "this file changed while the site was being built",
        )
        .in_file(&page.file)
        .hint("build again")
    })?;
    Ok(frontmatter::split(&text).body.to_string().into())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn routes_mirror_the_tree() {
        assert_eq!(route_of(Path::new("_index.md")), ("/".into(), true));
        assert_eq!(route_of(Path::new("a/_index.md")), ("/a".into(), true));
        assert_eq!(route_of(Path::new("a/b.md")), ("/a/b".into(), false));
        assert_eq!(route_of(Path::new("a/b/c.mdx")), ("/a/b/c".into(), false));
        assert_eq!(route_of(Path::new("a/b/_index.mdx")), ("/a/b".into(), true));
        assert_eq!(
            route_of(Path::new("a/notes.txt")),
            ("/a/notes.txt".into(), false)
        );
        assert_eq!(route_of(Path::new("")), ("/".into(), false));
    }

    /// The start of a PNG file of `w` × `h` pixels: enough to be measured.
    fn png(w: u32, h: u32) -> Vec<u8> {
        let mut bytes = b"\x89PNG\r\n\x1a\n\0\0\0\x0dIHDR".to_vec();
        bytes.extend(w.to_be_bytes());
        bytes.extend(h.to_be_bytes());
        bytes.extend([8, 6, 0, 0, 0, 0, 0, 0, 0]);
        bytes
    }

    #[test]
    fn a_load_over_a_previous_output_takes_the_renders_of_unchanged_pages_only() {
        let tmp = tempfile::tempdir().unwrap();
        let (root, out) = (tmp.path().join("site"), tmp.path().join("out"));
        std::fs::create_dir_all(root.join("content")).unwrap();
        std::fs::write(root.join("site.yaml"), "title: T\n").unwrap();
        let write = |rel: &str, bytes: &[u8]| std::fs::write(root.join(rel), bytes).unwrap();
        write(
            "content/a.md",
            b"# A\n\n## Setup {#setup}\n\n![d](d.png) See [b](b.md#usage).\n\n:::unknown\nx\n:::\n",
        );
        write(
            "content/b.md",
            b"---\ntitle: B\ndescription: Bee.\n---\n\n## Usage\n\nText.\n",
        );
        write("content/c.md", b"# C\n\nThe first words of C.\n");
        write("content/d.png", &png(40, 30));
        let options = crate::BuildOptions {
            root: root.clone(),
            out: Some(out.clone()),
            force: false,
            overrides: Default::default(),
            extensions: Default::default(),
        };
        crate::build(&options, &crate::Silent).expect("the site builds");
        let config = crate::config::load(&root, &Default::default()).unwrap();
        let load = || {
            let mut cache = Cache::over_output(&out);
            let (content, errors) = load_cached(&config, &mut cache, &HashSet::new());
            assert!(errors.is_empty(), "{errors:?}");
            content.pages
        };
        let fresh = || {
            load_cached(&config, &mut Cache::default(), &HashSet::new())
                .0
                .pages
        };
        let kept = |pages: &[Arc<Page>]| -> Vec<String> {
            let mut routes: Vec<String> = pages
                .iter()
                .filter(|p| matches!(p.body, Body::FromFile { .. }))
                .map(|p| p.route.clone())
                .collect();
            routes.sort();
            routes
        };
        // Each page reads as a fresh load reads it: digests, headings, links, warnings, excerpt.
        let same_as_fresh = |pages: &[Arc<Page>]| {
            for (a, b) in pages.iter().zip(fresh()) {
                assert_eq!(a.own_digest(), b.own_digest(), "{}", a.route);
                assert_eq!(format!("{:?}", a.warnings), format!("{:?}", b.warnings));
                assert_eq!(a.excerpt, b.excerpt);
            }
        };

        let pages = load();
        assert_eq!(kept(&pages), ["/a", "/b", "/c"], "nothing changed");
        same_as_fresh(&pages);
        let page = |pages: &[Arc<Page>], route: &str| {
            pages.iter().find(|p| p.route == route).unwrap().clone()
        };
        let a = page(&pages, "/a");
        assert!(
            !a.warnings.is_empty(),
            "a's warning is kept with its render"
        );
        assert_eq!(a.rendered.files[0].size, Some((40, 30)));
        assert_eq!(
            page(&pages, "/c").excerpt.as_deref(),
            Some("The first words of C.")
        );
        // The body is the one the first render made, read again from the file when needed.
        assert!(body_html(&config, &a).unwrap().contains("id=\"setup\""));

        // An edited body, another image, a page's description gone: those pages again.
        write(
            "content/b.md",
            b"---\ntitle: B\ndescription: Bee.\n---\n\n## Usage\n\nText again.\n",
        );
        write("content/d.png", &png(80, 60));
        write(
            "content/c.md",
            b"---\ndescription: Sea.\n---\n# C\n\nThe first words of C.\n",
        );
        let pages = load();
        assert_eq!(kept(&pages), Vec::<String>::new());
        same_as_fresh(&pages);
        assert_eq!(page(&pages, "/a").rendered.files[0].size, Some((80, 60)));

        // Another docgen's renders are not read: the identity in the file's header differs.
        let file = out.join(render_cache::FILE);
        let mut bytes = std::fs::read(&file).unwrap();
        let at = bytes.iter().position(|&b| b == b'\n').unwrap() + 1;
        bytes[at] ^= 0xff;
        std::fs::write(&file, bytes).unwrap();
        crate::build(&options, &crate::Silent).expect("the site builds again");
        assert_eq!(
            kept(&load()),
            ["/a", "/b", "/c"],
            "the build wrote its own renders"
        );
        let mut bytes = std::fs::read(&file).unwrap();
        bytes[at] ^= 0xff;
        std::fs::write(&file, bytes).unwrap();
        assert_eq!(kept(&load()), Vec::<String>::new());
    }

    #[test]
    fn a_body_rendered_again_is_the_same_or_the_file_was_edited() {
        let tmp = tempfile::tempdir().unwrap();
        let root = tmp.path();
        std::fs::create_dir_all(root.join("content")).unwrap();
        std::fs::write(root.join("site.yaml"), "title: T\n").unwrap();
        let file = root.join("content/a.md");
        std::fs::write(&file, "---\ntitle: A\n---\n\n## Setup\n\nSee [b](b.md).\n").unwrap();
        let config = crate::config::load(root, &Default::default()).unwrap();
        let (content, errors) = load(&config);
        assert!(errors.is_empty());
        let mut page = Arc::into_inner(content.pages.into_iter().next().unwrap()).unwrap();
        let (Body::Held(held) | Body::Rereadable(held)) =
            std::mem::replace(&mut page.body, Body::Held(String::new()))
        else {
            panic!("a body is held after reading");
        };
        let digest = body_digest(&held);
        page.body = Body::FromFile {
            digest,
            spilled: None,
        };
        assert_eq!(body_html(&config, &page).unwrap(), held);

        // Put aside, it is read back as it was parsed, whatever the file says now.
        let spill = Arc::new(spill::Spill::default());
        let spilled = spill.put(&held);
        assert!(
            spilled.is_some(),
            "the system's temporary folder takes a file"
        );
        page.body = Body::FromFile { digest, spilled };
        std::fs::write(&file, "---\ntitle: A\n---\n\n## Set up\n").unwrap();
        assert_eq!(body_html(&config, &page).unwrap(), held);

        // Not put aside (or not read back as it was put), it is rendered again: the edit shows.
        page.body = Body::FromFile {
            digest,
            spilled: spill.put("<p>not the body</p>"),
        };
        assert_eq!(
            body_html(&config, &page).unwrap_err().code,
            "content.changed"
        );
    }

    #[test]
    fn an_edit_that_changes_a_page_s_scripts_is_not_a_body_edit() {
        let tmp = tempfile::tempdir().unwrap();
        let root = tmp.path();
        std::fs::create_dir_all(root.join("content")).unwrap();
        std::fs::write(root.join("site.yaml"), "title: T\n").unwrap();
        let file = root.join("content/a.md");
        std::fs::write(&file, "---\ntitle: A\n---\nText.\n").unwrap();
        let config = crate::config::load(root, &Default::default()).unwrap();
        let mut cache = Cache::default();
        let changed: HashSet<PathBuf> = [PathBuf::from("content/a.md")].into();
        assert!(
            load_cached(&config, &mut cache, &HashSet::new())
                .1
                .is_empty()
        );
        // Prose only: the rest of the site (its policy among it) stays as written.
        std::fs::write(&file, "---\ntitle: A\n---\nOther text.\n").unwrap();
        let (content, errors) = load_cached(&config, &mut cache, &changed);
        assert!(errors.is_empty());
        assert_eq!(content.edited_bodies, Some(vec!["/a".to_string()]));
        // A new inline script: `_headers` must list its hash, so the site is written whole.
        std::fs::write(
            &file,
            "---\ntitle: A\n---\nOther text.\n\n<script>go()</script>\n",
        )
        .unwrap();
        let (content, errors) = load_cached(&config, &mut cache, &changed);
        assert!(errors.is_empty());
        assert_eq!(content.pages[0].rendered.inline_scripts, ["go()"]);
        assert_eq!(content.edited_bodies, None);
    }

    #[test]
    fn private_names_are_not_pages() {
        assert!(is_private(Path::new("_draft.md")));
        assert!(is_private(Path::new("a/_templates/x.md")));
        assert!(!is_private(Path::new("a/_index.md")));
        assert!(!is_private(Path::new("a/b.md")));
    }
}
