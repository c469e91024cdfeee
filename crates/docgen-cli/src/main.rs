//! The `docgen` command line: a thin dispatcher over the library's pipeline, with the site
//! extensions it registers (`extensions`).

use std::io::IsTerminal;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Duration;

use clap::{Args, Parser, Subcommand};
use docgen::diagnostics::{self, Format};
use docgen::{BuildOptions, Progress};

/// A build allocates small strings and vectors for every page on every core: mimalloc's
/// per-thread heaps do it in much less time than the system's allocator (README, "Why each
/// dependency is there").
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

#[derive(Parser)]
#[command(
    name = "docgen",
    version,
    about = "Builds a documentation website from Markdown and YAML",
    propagate_version = true
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Build the site into the output folder (swapped in only when the build succeeds).
    Build {
        #[command(flatten)]
        common: Common,
        /// The output folder [default: ROOT/dist].
        #[arg(long, value_name = "DIR")]
        out: Option<PathBuf>,
        /// Replace the output folder even if docgen did not make it (it and everything in it
        /// is deleted). The site's own sources are refused whatever this says.
        #[arg(long)]
        force: bool,
        /// The site URL (scheme, host and optional base path), overriding site.yaml's `url`.
        #[arg(long, value_name = "URL")]
        base_url: Option<String>,
        /// Print nothing but errors.
        #[arg(long, short)]
        quiet: bool,
        /// Build the current version alone, without the earlier versions that site.yaml's
        /// `versions:` reads from git (for a copy of the site outside its repository).
        #[arg(long)]
        latest_only: bool,
    },
    /// Write a small, working site into a new or empty folder.
    Init {
        /// The folder to write the site into (made when missing; must be empty).
        #[arg(default_value = ".")]
        dir: PathBuf,
    },
    /// Write docgen's configuration for an existing mdBook or Docusaurus site. Pages are
    /// never changed; only new files are written.
    Import {
        #[command(subcommand)]
        kind: ImportKind,
    },
    /// Run every validation of a build and write nothing.
    Check {
        #[command(flatten)]
        common: Common,
        /// Also list every external (http/https) link with each place it is written, for a
        /// job with network access to try; nothing is fetched.
        #[arg(long)]
        external: bool,
        /// Check the current version alone, without the earlier versions read from git.
        #[arg(long)]
        latest_only: bool,
    },
    /// Work with the translations of a site with `locales:`.
    Translations {
        #[command(subcommand)]
        action: TranslationsAction,
    },
    /// Build, serve on localhost, rebuild on every change and reload the open pages.
    Serve {
        #[command(flatten)]
        common: Common,
        /// The port to listen on (0 picks a free one).
        #[arg(long, short, default_value_t = 4321)]
        port: u16,
        /// The address to listen on; only this machine can connect unless you change it.
        #[arg(long, default_value = "127.0.0.1")]
        host: String,
        /// Open the site in the default browser.
        #[arg(long)]
        open: bool,
        /// Where the preview is written [default: a folder in the system's temporary folder].
        #[arg(long, value_name = "DIR")]
        out: Option<PathBuf>,
        /// Let the preview replace an output folder that docgen did not make.
        #[arg(long)]
        force: bool,
    },
}

#[derive(Subcommand)]
enum TranslationsAction {
    /// Record in each translation (`page.zh.md`) that it says what its source says now: writes
    /// `translatedFrom: <digest of the source>` into its front matter, nothing else.
    Stamp {
        /// The site root, holding site.yaml and content/.
        #[arg(long, value_name = "DIR", default_value = ".")]
        root: PathBuf,
        /// Every translation of the site instead of the files named.
        #[arg(long, conflicts_with = "files")]
        all: bool,
        /// The translations to stamp.
        #[arg(required_unless_present = "all")]
        files: Vec<PathBuf>,
    },
}

#[derive(Subcommand)]
enum ImportKind {
    /// An mdBook: book.toml and src/SUMMARY.md.
    Mdbook(ImportArgs),
    /// A Docusaurus site: docusaurus.config.{js,ts,mjs} and sidebars.{js,ts,json}.
    Docusaurus(ImportArgs),
}

#[derive(Args)]
struct ImportArgs {
    /// The folder holding book.toml or docusaurus.config.js.
    src: PathBuf,
    /// Where to write the docgen site [default: SRC, in place beside the existing files].
    dest: Option<PathBuf>,
    /// How to print the report: `human`, or `json` (one document).
    #[arg(long, value_enum, default_value_t = Format::Human)]
    format: Format,
}

#[derive(Args)]
struct Common {
    /// The site root, holding site.yaml and content/.
    #[arg(long, value_name = "DIR", default_value = ".")]
    root: PathBuf,
    /// How to print errors: `human` (with source excerpts) or `json` (one object per line).
    #[arg(long, value_enum, default_value_t = Format::Human)]
    format: Format,
}

/// A spinner with the current stage, on a terminal only and only once a build takes a moment.
struct Spinner(Option<indicatif::ProgressBar>);

impl Spinner {
    fn new(enabled: bool) -> Self {
        if !enabled {
            return Spinner(None);
        }
        let bar = indicatif::ProgressBar::hidden();
        bar.set_style(
            indicatif::ProgressStyle::with_template("{spinner} {msg} ({elapsed})")
                .expect("valid template"),
        );
        let shown = bar.clone();
        std::thread::spawn(move || {
            std::thread::sleep(Duration::from_millis(300));
            if !shown.is_finished() {
                shown.set_draw_target(indicatif::ProgressDrawTarget::stderr());
                shown.enable_steady_tick(Duration::from_millis(100));
            }
        });
        Spinner(Some(bar))
    }
    fn finish(&self) {
        if let Some(b) = &self.0 {
            b.finish_and_clear();
        }
    }
}

impl Progress for Spinner {
    fn stage(&self, name: &'static str) {
        if let Some(b) = &self.0 {
            b.set_message(name);
        }
    }
}

/// The site extensions this command knows; a site enables them by name in site.yaml.
fn extensions() -> docgen::extension::Registry {
    docgen::extension::Registry::new(vec![std::sync::Arc::new(docgen_adplatform::AdPlatform)])
}

fn main() -> ExitCode {
    let cli = match Cli::try_parse() {
        Ok(c) => c,
        Err(e) => {
            let _ = e.print();
            // Help and version are not errors; anything else is a usage error.
            return ExitCode::from(if e.use_stderr() { 2 } else { 0 });
        }
    };
    let mut external = false;
    let (opts, format, quiet) = match cli.command {
        Command::Init { dir } => return init(&dir),
        Command::Translations {
            action: TranslationsAction::Stamp { root, all, files },
        } => return stamp(&root, all, &files),
        Command::Import { kind } => {
            let (kind, args) = match kind {
                ImportKind::Mdbook(a) => (docgen::import::Kind::Mdbook, a),
                ImportKind::Docusaurus(a) => (docgen::import::Kind::Docusaurus, a),
            };
            return import(kind, &args);
        }
        Command::Serve {
            common,
            port,
            host,
            open,
            out,
            force,
        } => {
            let opts = docgen::serve::ServeOptions {
                root: common.root,
                out,
                force,
                host,
                port,
                open,
                format: common.format,
                extensions: extensions(),
            };
            return match docgen::serve::run(opts) {
                Ok(()) => ExitCode::SUCCESS,
                Err(e) => {
                    eprintln!("error: {e}");
                    ExitCode::from(2)
                }
            };
        }
        Command::Build {
            common,
            out,
            force,
            base_url,
            quiet,
            latest_only,
        } => {
            let out = out.unwrap_or_else(|| docgen::default_out(&common.root));
            (
                BuildOptions {
                    root: common.root,
                    out: Some(out),
                    force,
                    overrides: docgen::config::Overrides {
                        base_url,
                        latest_only,
                    },
                    extensions: extensions(),
                },
                common.format,
                quiet,
            )
        }
        Command::Check {
            common,
            external: listed,
            latest_only,
        } => {
            external = listed;
            (
                BuildOptions {
                    root: common.root,
                    out: None,
                    force: false,
                    overrides: docgen::config::Overrides {
                        latest_only,
                        ..Default::default()
                    },
                    extensions: extensions(),
                },
                common.format,
                false,
            )
        }
    };
    let stderr_tty = std::io::stderr().is_terminal();
    let in_ci = std::env::var_os("CI").is_some();
    let spinner = Spinner::new(stderr_tty && !quiet && !in_ci && format == Format::Human);
    let result = if external {
        docgen::check_external(&opts, &spinner).map(|(report, links)| {
            let text = match format {
                Format::Human => docgen::checks::external::render_human(&links),
                Format::Github => docgen::checks::external::render_github(&links),
                Format::Json => docgen::checks::external::render_json(&links),
            };
            (report, Some((text, links)))
        })
    } else {
        docgen::build(&opts, &spinner).map(|report| (report, None))
    };
    spinner.finish();
    match result {
        Ok((report, links)) => {
            for d in &report.warnings {
                match format {
                    Format::Json => println!("{}", diagnostics::render_json(d)),
                    Format::Github => println!("{}", diagnostics::render_github(d)),
                    Format::Human => eprintln!("{}", diagnostics::render_human(d, stderr_tty)),
                }
            }
            if let Some((text, links)) = &links {
                print!("{text}");
                if format == Format::Human {
                    let places: usize = links.iter().map(|l| l.places.len()).sum();
                    eprintln!("{} external links in {places} places", links.len());
                }
            }
            if std::env::var_os("DOCGEN_TIMINGS").is_some() {
                for (stage, t) in &report.timings {
                    eprintln!("{stage:>14}: {t:.2?}");
                }
                if let Some(mb) = peak_memory_mb() {
                    eprintln!("   peak memory: {mb} MB");
                }
            }
            if !report.warnings.is_empty() && format == Format::Human {
                let n = report.warnings.len();
                eprintln!("{n} warning{}", if n == 1 { "" } else { "s" });
            }
            if !quiet && format == Format::Human {
                let total: Duration = report.timings.iter().map(|t| t.1).sum();
                // "634 pages" or "634 pages (and 634 of version 12.x)".
                let pages = |n: usize| {
                    let mut text = format!("{n} pages");
                    for (name, count) in &report.versions {
                        text.push_str(&format!(" (and {count} of version {name})"));
                    }
                    text
                };
                match (&opts.out, report.stats) {
                    (Some(out), Some(stats)) => eprintln!(
                        "built {} and {} legacy routes into {} in {:.2?} ({} rendered, {} of {} files written, {} removed)",
                        pages(stats.pages),
                        stats.redirects,
                        out.display(),
                        total,
                        stats.rendered,
                        stats.written,
                        stats.files,
                        stats.removed
                    ),
                    _ => eprintln!(
                        "checked {} and {} legacy routes: no problems ({:.2?})",
                        pages(report.pages),
                        report.redirects,
                        total
                    ),
                }
            }
            ExitCode::SUCCESS
        }
        Err(errors) => {
            let list = errors.into_sorted();
            let usage = list.iter().all(|d| d.code.starts_with("usage."));
            for d in &list {
                match format {
                    Format::Json => println!("{}", diagnostics::render_json(d)),
                    Format::Github => println!("{}", diagnostics::render_github(d)),
                    Format::Human => eprintln!("{}", diagnostics::render_human(d, stderr_tty)),
                }
            }
            if format != Format::Json {
                eprintln!(
                    "{} error{}; nothing was written",
                    list.len(),
                    if list.len() == 1 { "" } else { "s" }
                );
            }
            ExitCode::from(if usage { 2 } else { 1 })
        }
    }
}

/// `docgen translations stamp`: each file stamped or its error printed; 1 if any failed.
fn stamp(root: &Path, all: bool, files: &[PathBuf]) -> ExitCode {
    let stderr_tty = std::io::stderr().is_terminal();
    let root = match docgen::site_root(root) {
        Ok(r) => r,
        Err(d) => return usage_error(&d),
    };
    let config = match docgen::config::load(&root, &Default::default()) {
        Ok(c) => c,
        Err(errors) => {
            for d in errors.into_sorted() {
                eprintln!("{}", diagnostics::render_human(&d, stderr_tty));
            }
            return ExitCode::from(1);
        }
    };
    let targets: Vec<PathBuf> = if all {
        docgen::content::locales::translations(&config)
    } else {
        // Named from the current folder: made relative to the site root.
        let cwd = std::env::current_dir().unwrap_or_default();
        files
            .iter()
            .map(|f| {
                let full = docgen::paths::resolve(&cwd.join(f));
                full.strip_prefix(&root)
                    .map_or(full.clone(), Path::to_path_buf)
            })
            .collect()
    };
    let mut failed = 0;
    for file in &targets {
        match docgen::content::locales::stamp(&config, file) {
            Ok(s) if s.unchanged => {
                eprintln!("{}: already stamped ({})", s.file.display(), s.digest)
            }
            Ok(s) => eprintln!("{}: stamped {}", s.file.display(), s.digest),
            Err(d) => {
                failed += 1;
                eprintln!("{}", diagnostics::render_human(&d, stderr_tty));
            }
        }
    }
    if all && targets.is_empty() {
        eprintln!("the site has no translations");
    }
    if failed > 0 {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    }
}

fn usage_error(d: &diagnostics::Diagnostic) -> ExitCode {
    eprintln!("error: {}", d.message);
    if let Some(hint) = &d.hint {
        eprintln!("hint: {hint}");
    }
    ExitCode::from(2)
}

fn init(dir: &std::path::Path) -> ExitCode {
    match docgen::scaffold::init(dir) {
        Ok(written) => {
            for f in &written {
                println!("wrote {}", dir.join(f).display());
            }
            let root = dir.display();
            println!(
                "\nNext steps:\n  docgen serve --root {root}    # preview on http://127.0.0.1:4321/, reloads on save\n  docgen build --root {root}    # writes the site into {root}/dist/\n  docgen check --root {root}    # every check of a build, for CI"
            );
            ExitCode::SUCCESS
        }
        Err(d) => usage_error(&d),
    }
}

fn import(kind: docgen::import::Kind, args: &ImportArgs) -> ExitCode {
    match docgen::import::run(kind, &args.src, args.dest.as_deref()) {
        Ok(outcome) => {
            match args.format {
                Format::Json => println!("{}", outcome.render_json()),
                _ => print!("{}", outcome.render_human()),
            }
            ExitCode::SUCCESS
        }
        Err(d) => {
            if args.format == Format::Json {
                println!("{}", diagnostics::render_json(&d));
            }
            usage_error(&d)
        }
    }
}

/// The process's peak resident memory, where the system tells it (Linux).
fn peak_memory_mb() -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    let kb: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kb / 1024)
}
