//! `docgen serve`: builds, serves the output on localhost, watches the sources, rebuilds what
//! changed and reloads the open pages. A content error keeps the last good output served and
//! shows the diagnostics over the page until the file is fixed.

pub mod http;

use std::collections::HashSet;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::{Duration, Instant};

use notify::{RecursiveMode, Watcher};

use crate::Progress;
use crate::config::{self, Overrides};
use crate::content;
use crate::diagnostics::{self, Diagnostic, Diagnostics, Format};
use crate::model;
use crate::output::{self, Changes, OutputState};
use crate::render::Renderer;
use crate::view::{Views, shards::NavShards};

pub struct ServeOptions {
    pub root: PathBuf,
    /// Where the preview is written; a folder under the system's temporary folder by default.
    pub out: Option<PathBuf>,
    pub host: String,
    pub port: u16,
    pub open: bool,
    pub format: Format,
    /// Replace an output folder that docgen did not make.
    pub force: bool,
    /// The extensions the site may enable.
    pub extensions: crate::extension::Registry,
}

/// The state kept between rebuilds: parsed pages and what the output folder holds.
pub struct Session {
    pub root: PathBuf,
    pub out: PathBuf,
    overrides: Overrides,
    extensions: crate::extension::Registry,
    cache: content::Cache,
    /// The earlier versions' files, by version name, kept while their refs name the same commits.
    snapshots: crate::Snapshots,
    /// The earlier versions' parsed pages, by version name.
    older_caches: std::collections::HashMap<String, content::Cache>,
    state: OutputState,
    /// Paths changed since the last successful rebuild: a failed one does not forget them.
    pending: HashSet<PathBuf>,
    /// The shape and nav shards of the last successful rebuild, which an edit of page bodies
    /// alone leaves as they are.
    last_good: Option<(model::Shape, Arc<NavShards>)>,
    /// Held for the session's life: no build writes the folder the preview serves.
    _lock: output::guard::OutputLock,
}

impl Session {
    /// A session writing into `out`, claimed and locked by the same rules as `docgen build`.
    /// Nothing in the folder is removed up front: the first rebuild brings what a previous
    /// build left there up to date, in one step, and leaves files docgen did not write alone.
    /// Whoever serves the folder takes `gate` for reading while it opens a file.
    pub fn new(
        root: &Path,
        out: &Path,
        force: bool,
        gate: Arc<std::sync::RwLock<()>>,
    ) -> Result<Self, Diagnostic> {
        let root = crate::site_root(root)?;
        let out = output::guard::claim(&root, out, force)?;
        let lock = output::guard::lock(&out)?;
        output::transaction::recover(&out)?;
        let io = |e: std::io::Error| {
            Diagnostic::new("io.write", format!("cannot prepare {}: {e}", out.display()))
                .hint("check the output folder's permissions")
        };
        std::fs::create_dir_all(&out).map_err(io)?;
        let mut state = OutputState::with_gate(gate);
        // Over a previous build, its renders of unchanged pages are taken, as a build does.
        let mut cache = content::Cache::default();
        if output::guard::is_ours(&out) {
            state.adopt(&out);
            cache = content::Cache::over_output(&out);
        } else {
            output::mark(&out)?;
        }
        Ok(Session {
            root,
            out,
            overrides: Overrides::default(),
            extensions: Default::default(),
            cache,
            snapshots: crate::Snapshots::default(),
            older_caches: Default::default(),
            state,
            pending: HashSet::new(),
            last_good: None,
            _lock: lock,
        })
    }

    /// The session with the extensions its site may enable (none by default).
    pub fn with_extensions(mut self, extensions: crate::extension::Registry) -> Self {
        self.extensions = extensions;
        self
    }

    /// Rebuilds after `changed` (paths relative to the root; empty for "check everything") and
    /// brings the output up to date, search index included, leaving it as it was on any error.
    pub fn rebuild(&mut self, changed: &HashSet<PathBuf>) -> Result<Changes, Diagnostics> {
        let mut changes = self.rebuild_with(changed, true)?;
        changes.written.extend(self.write_search()?);
        Ok(changes)
    }

    /// The files outside the watched folders that pages were made from (files included from
    /// the rest of the repository): the folders holding them are watched too.
    pub fn outside_dependencies(&self) -> Vec<PathBuf> {
        let watched: Vec<PathBuf> = watched(&self.root)
            .into_iter()
            .map(|(p, mode)| match mode {
                RecursiveMode::Recursive => p,
                // The root itself: only the files directly in it.
                RecursiveMode::NonRecursive => p.join("site.yaml"),
            })
            .collect();
        let mut dirs: Vec<PathBuf> = self
            .cache
            .dependencies()
            .filter(|d| !watched.iter().any(|w| d.starts_with(w)))
            .filter_map(|d| d.parent().map(Path::to_path_buf))
            .filter(|d| *d != self.root)
            .collect();
        dirs.sort();
        dirs.dedup();
        dirs
    }

    /// Writes the search index for the pages of the last rebuild, if they changed since it
    /// was last written.
    pub fn write_search(&mut self) -> Result<Vec<PathBuf>, Diagnostics> {
        output::write_search(&self.out, &mut self.state)
    }

    /// What the writer's pause is for: the search index to make, if it is due (made off the
    /// loop, then given to `finish_search`); else the marker is brought up to date now.
    pub fn search_job(&mut self) -> Result<Option<output::SearchJob>, Diagnostics> {
        match output::search_job(&self.state) {
            Some(job) => Ok(Some(job)),
            None => output::write_marker_if_due(&self.out, &mut self.state).map(|()| None),
        }
    }

    /// Writes the search index a job made, unless pages changed since it was taken.
    pub fn finish_search(
        &mut self,
        made: output::SearchFiles,
    ) -> Result<Vec<PathBuf>, Diagnostics> {
        output::finish_search(&self.out, &mut self.state, made)
    }

    /// Like `rebuild`, but leaves the search index for `write_search`.
    pub fn rebuild_pages(&mut self, changed: &HashSet<PathBuf>) -> Result<Changes, Diagnostics> {
        self.rebuild_with(changed, false)
    }

    /// Rebuilds, writing the search index in the same transaction when `search` is set.
    fn rebuild_with(
        &mut self,
        changed: &HashSet<PathBuf>,
        search: bool,
    ) -> Result<Changes, Diagnostics> {
        // After a failed rebuild the cache holds pages the output never showed: what an edit
        // changed is then measured against the wrong version, so everything is looked at.
        let since_last_write = self.pending.is_empty();
        self.pending.extend(changed.iter().cloned());
        let config = config::load(&self.root, &self.overrides)?;
        // Earlier versions are read from git again only when their refs moved; their pages are
        // parsed once per commit (see `content::Cache`) and written again only when what they
        // are made from changed (`output::versions::Older::key`).
        let olders = crate::older_configs(&config, &mut self.snapshots)?;
        let mut older_caches: Vec<content::Cache> = olders
            .iter()
            .map(|o| self.older_caches.remove(&o.name).unwrap_or_default())
            .collect();
        let (cache, state, out) = (&mut self.cache, &mut self.state, &self.out);
        let extensions = &self.extensions;
        let last_good = self.last_good.as_ref().filter(|_| since_last_write);
        let timer = StageTimer::new();
        let shape = last_good.map(|(shape, _)| shape);
        let result = crate::with_site(
            &config,
            &self.extensions,
            cache,
            &self.pending,
            shape,
            &timer,
            |site| {
                crate::with_older(
                    &olders,
                    extensions,
                    &mut older_caches,
                    &timer,
                    &mut |older_sites| {
                        timer.stage("render");
                        let catalog = crate::versioned::catalog(&config, site, older_sites);
                        // The model was taken over exactly when only bodies changed: so are the shards.
                        let views = match (site.edited_bodies, last_good) {
                            (Some(_), Some((_, shards))) => {
                                Views::with_shards(site, shards.clone())
                            }
                            _ => Views::new(site),
                        };
                        let views = crate::versioned::placed(views, &catalog, 0);
                        timer.stage("templates");
                        let renderer = Renderer::new(&views)
                            .map_err(|e| crate::template_error(e, &site.config.root))?;
                        let older_views = crate::versioned::older_views(older_sites, &catalog);
                        let older_renderers =
                            crate::versioned::renderers(&older_views, &site.config.root)?;
                        let older = crate::versioned::outputs(site, older_sites, &older_renderers);
                        timer.stage("write");
                        let edited = site.edited_bodies.filter(|_| since_last_write);
                        let pass = output::Pass {
                            edited,
                            search,
                            versions: &older,
                        };
                        let changes = output::write(site, &renderer, out, state, pass)?;
                        timer.stage("done");
                        Ok((changes, site.shape(), views.shards().clone()))
                    },
                )
            },
        );
        for (older, cache) in olders.iter().zip(older_caches) {
            self.older_caches.insert(older.name.clone(), cache);
        }
        match result {
            Ok((changes, shape, shards)) => {
                self.pending.clear();
                self.last_good = Some((shape, shards));
                Ok(changes)
            }
            Err(e) => {
                self.last_good = None;
                Err(e)
            }
        }
    }
}

/// Prints how long each stage of a rebuild took, when DOCGEN_TIMINGS is set.
struct StageTimer {
    enabled: bool,
    last: std::sync::Mutex<(Instant, &'static str)>,
}

impl StageTimer {
    fn new() -> Self {
        StageTimer {
            enabled: std::env::var_os("DOCGEN_TIMINGS").is_some(),
            last: std::sync::Mutex::new((Instant::now(), "config")),
        }
    }
}

impl crate::Progress for StageTimer {
    fn stage(&self, name: &'static str) {
        if self.enabled {
            let mut last = self.last.lock().expect("not poisoned");
            eprintln!("{:>10}: {:.1?}", last.1, last.0.elapsed());
            *last = (Instant::now(), name);
        }
    }
}

fn default_out(root: &Path) -> PathBuf {
    use std::hash::{Hash, Hasher};
    let mut h = std::collections::hash_map::DefaultHasher::new();
    root.canonicalize()
        .unwrap_or_else(|_| root.to_path_buf())
        .hash(&mut h);
    std::env::temp_dir().join(format!("docgen-serve-{:016x}", h.finish()))
}

fn report(errors: Diagnostics, format: Format, color: bool) -> String {
    let list = errors.into_sorted();
    let mut plain = String::new();
    for d in &list {
        match format {
            Format::Json => println!("{}", diagnostics::render_json(d)),
            Format::Github => println!("{}", diagnostics::render_github(d)),
            Format::Human => eprintln!("{}", diagnostics::render_human(d, color)),
        }
        plain.push_str(&diagnostics::render_human(d, false));
        plain.push('\n');
    }
    eprintln!(
        "{} error{}; still serving the last good version",
        list.len(),
        if list.len() == 1 { "" } else { "s" }
    );
    plain
}

/// What the server's loop waits for.
enum Message {
    Files(notify::Result<notify::Event>),
    /// A search index made off the loop (see `Session::search_job`).
    Indexed(output::SearchFiles),
}

/// How long the writer must pause before the search index is written again.
const SEARCH_PAUSE: Duration = Duration::from_millis(250);

/// Runs the preview server until interrupted.
pub fn run(opts: ServeOptions) -> Result<(), String> {
    let out = opts.out.clone().unwrap_or_else(|| default_out(&opts.root));
    let gate = Arc::new(std::sync::RwLock::new(()));
    let mut session = Session::new(&opts.root, &out, opts.force, gate.clone())
        .map_err(|d| d.to_string())?
        .with_extensions(opts.extensions.clone());
    let color = std::io::IsTerminal::is_terminal(&std::io::stderr());
    // Requests take the gate for reading while they open a file; each rebuild is applied
    // while the session holds it for writing.
    let mut shared = http::Shared::new(session.out.clone());
    shared.apply_gate = gate;
    let shared = Arc::new(shared);

    // Watching starts before the first build, so a save made while it runs is not missed.
    // File events and finished search indexes arrive on one channel.
    let (tx, rx) = std::sync::mpsc::channel::<Message>();
    let events = tx.clone();
    let mut watcher = notify::recommended_watcher(move |e| {
        let _ = events.send(Message::Files(e));
    })
    .map_err(|e| format!("cannot watch files: {e}"))?;
    for (path, mode) in watched(&session.root) {
        watcher
            .watch(&path, mode)
            .map_err(|e| format!("cannot watch {}: {e}", path.display()))?;
    }
    let started = Instant::now();
    match session.rebuild(&HashSet::new()) {
        Ok(c) => {
            shared.mark_built();
            eprintln!(
                "built {} pages in {:.0?}",
                c.rendered.len(),
                started.elapsed()
            )
        }
        Err(e) => {
            *shared.errors.lock().expect("not poisoned") = Some(report(e, opts.format, color))
        }
    }
    // Folders outside the sources that pages include files from, watched as pages need them.
    let mut watched_outside: HashSet<PathBuf> = HashSet::new();
    let mut watch_outside = |session: &Session, watcher: &mut notify::RecommendedWatcher| {
        for dir in session.outside_dependencies() {
            if !watched_outside.contains(&dir)
                && watcher.watch(&dir, RecursiveMode::NonRecursive).is_ok()
            {
                watched_outside.insert(dir);
            }
        }
    };
    watch_outside(&session, &mut watcher);
    let addr = http::start(&opts.host, opts.port, shared.clone())
        .map_err(|e| format!("cannot listen on {}:{}: {e}", opts.host, opts.port))?;
    let url = format!("http://{addr}/");
    eprintln!("serving {} on {url} (Ctrl+C to stop)", opts.root.display());
    if opts.open {
        open_browser(&url);
    }

    let ignored = session.out.clone();
    let mut indexing = false;
    let show_errors = |e: Diagnostics| {
        let text = report(e, opts.format, color);
        *shared.errors.lock().expect("not poisoned") = Some(text);
    };
    loop {
        // Wait for a change, then gather the burst an editor's save makes. When the writer
        // pauses, the search index is made on another thread: a save never waits for it.
        let mut events = Vec::new();
        let mut finished = None;
        match rx.recv_timeout(SEARCH_PAUSE) {
            Ok(Message::Files(e)) => events.push(e),
            Ok(Message::Indexed(made)) => finished = Some(made),
            Err(std::sync::mpsc::RecvTimeoutError::Timeout) => {
                if !indexing {
                    match session.search_job() {
                        Ok(Some(job)) => {
                            indexing = true;
                            let tx = tx.clone();
                            std::thread::spawn(move || {
                                let _ = tx.send(Message::Indexed(job.run()));
                            });
                        }
                        Ok(None) => {}
                        Err(e) => show_errors(e),
                    }
                }
                continue;
            }
            Err(std::sync::mpsc::RecvTimeoutError::Disconnected) => return Ok(()),
        }
        while let Ok(m) =
            rx.recv_timeout(Duration::from_millis(if events.is_empty() { 0 } else { 5 }))
        {
            match m {
                Message::Files(e) => events.push(e),
                Message::Indexed(made) => finished = Some(made),
            }
        }
        if let Some(made) = finished {
            indexing = false;
            if let Err(e) = session.finish_search(made) {
                show_errors(e);
            }
        }
        let mut changed = HashSet::new();
        for e in events.into_iter().flatten().filter(is_edit) {
            for p in e.paths {
                if !p.starts_with(&ignored) {
                    changed.insert(
                        p.strip_prefix(&session.root)
                            .map(Path::to_path_buf)
                            .unwrap_or(p),
                    );
                }
            }
        }
        if changed.is_empty() {
            continue;
        }
        let started = Instant::now();
        match session.rebuild_pages(&changed) {
            Ok(c) => {
                shared.mark_built();
                watch_outside(&session, &mut watcher);
                let was_broken = shared.errors.lock().expect("not poisoned").take().is_some();
                eprintln!(
                    "rebuilt in {:.0?}: {} page{} rendered, {} file{} written, {} removed",
                    started.elapsed(),
                    c.rendered.len(),
                    if c.rendered.len() == 1 { "" } else { "s" },
                    c.written.len(),
                    if c.written.len() == 1 { "" } else { "s" },
                    c.removed.len()
                );
                if was_broken || !c.written.is_empty() || !c.removed.is_empty() {
                    shared.broadcast("reload", "{}");
                }
            }
            Err(e) => {
                let text = report(e, opts.format, color);
                shared.broadcast("errors", &serde_json::json!({ "text": text }).to_string());
                *shared.errors.lock().expect("not poisoned") = Some(text);
            }
        }
    }
}

/// Whether an event changes a file (reading files, ours included, must not trigger rebuilds).
fn is_edit(e: &notify::Event) -> bool {
    use notify::event::{EventKind, MetadataKind, ModifyKind};
    match e.kind {
        EventKind::Create(_) | EventKind::Remove(_) => true,
        EventKind::Modify(ModifyKind::Metadata(MetadataKind::AccessTime)) => false,
        EventKind::Modify(_) => true,
        _ => false,
    }
}

/// What to watch: the content, the configuration, the site's templates and static files.
fn watched(root: &Path) -> Vec<(PathBuf, RecursiveMode)> {
    let mut paths = vec![(root.to_path_buf(), RecursiveMode::NonRecursive)];
    for dir in ["content", "templates", "static"] {
        let p = root.join(dir);
        if p.is_dir() {
            paths.push((p, RecursiveMode::Recursive));
        }
    }
    if !root.join("content").is_dir() {
        // A Hugo-style tree is its own content folder.
        paths[0].1 = RecursiveMode::Recursive;
    }
    paths
}

fn open_browser(url: &str) {
    let opener = if cfg!(target_os = "macos") {
        "open"
    } else if cfg!(windows) {
        "explorer"
    } else {
        "xdg-open"
    };
    if std::process::Command::new(opener).arg(url).spawn().is_err() {
        eprintln!("could not open a browser; visit {url}");
    }
}
