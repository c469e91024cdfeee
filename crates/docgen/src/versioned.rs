//! A site with versions (`versions:` in site.yaml): the earlier versions' configurations, each
//! reading its content from its git revision (`content::git_tree`), and the pipeline run once
//! per version up to the validated site, so that one build writes them all in one transaction
//! (`output::versions`).

use std::collections::{HashMap, HashSet};
use std::hash::{Hash, Hasher};
use std::sync::Arc;

use crate::config::source::Snapshot;
use crate::config::{Config, yaml::Step};
use crate::content::git_tree::{self, GitError};
use crate::diagnostics::{Diagnostic, Diagnostics};
use crate::model::versions::{Catalog, Version};
use crate::{Progress, content, extension, model};

/// The earlier versions' files read so far, by version name: the preview server keeps them
/// across rebuilds and reads a version again only when its ref has moved to another commit.
#[derive(Default)]
pub struct Snapshots(HashMap<String, Arc<Snapshot>>);

/// The earlier versions' validated sites, each with its name.
pub type OlderSites<'a, 's> = [(&'a str, &'a model::Site<'s>)];

/// What runs with the earlier versions' sites.
pub type WithOlder<'f, T> = dyn FnMut(&OlderSites<'_, '_>) -> Result<T, Diagnostics> + 'f;

/// An earlier version: its name (its folder) and its configuration.
pub struct OlderConfig {
    pub name: String,
    pub config: Config,
}

/// The configurations of the earlier versions `config` names (none without `versions:`),
/// their content read from git, or reused from `snapshots` while their refs name the same
/// commits. A ref that names no commit, or a site outside a git work tree, is an error at the
/// ref's line of site.yaml.
pub fn older_configs(
    config: &Config,
    snapshots: &mut Snapshots,
) -> Result<Vec<OlderConfig>, Diagnostics> {
    let Some(versions) = &config.site.versions else {
        return Ok(Vec::new());
    };
    let content = config.content_dir();
    let folder = content.strip_prefix(&config.root).unwrap_or(&content);
    let mut errors = Diagnostics::default();
    let mut olders = Vec::new();
    for (i, other) in versions.others.iter().enumerate() {
        let at = |d: Diagnostic| {
            let path: Vec<Step> = vec!["versions".into(), "others".into(), i.into(), "ref".into()];
            match config.site_positions.value(&path) {
                Some((line, column)) => d
                    .in_file("site.yaml")
                    .at(line, column)
                    .with_source(&config.site_source),
                None => d.in_file("site.yaml"),
            }
        };
        let read =
            git_tree::resolve(&config.root, &other.git_ref).and_then(|commit| {
                match snapshots.0.get(&other.name) {
                    Some(s) if s.commit == commit => Ok(s.clone()),
                    _ => git_tree::read(&config.root, &commit, folder).map(Arc::new),
                }
            });
        match read {
            Ok(snapshot) => {
                snapshots.0.insert(other.name.clone(), snapshot.clone());
                olders.push(OlderConfig {
                    name: other.name.clone(),
                    config: config.for_version(&other.name, snapshot),
                });
            }
            Err(e) => errors.push(at(git_problem(&e, &other.name, &other.git_ref))),
        }
    }
    if errors.is_empty() {
        Ok(olders)
    } else {
        Err(errors)
    }
}

fn git_problem(e: &GitError, name: &str, revision: &str) -> Diagnostic {
    match e {
        GitError::NotARepository(why) => Diagnostic::new(
            "version.no-git",
            format!("version {name} is read from git, but {why}"),
        )
        .hint("build the site from a clone of its repository (git clone), or pass --latest-only to build the current version alone"),
        GitError::Unresolved(why) => Diagnostic::new(
            "version.unknown-ref",
            format!("version {name}: {why}"),
        )
        .hint(format!(
            "fetch it (`git fetch --tags`, or `git fetch origin {revision}` for a branch), or check the ref's spelling (`git tag --list`, `git branch --all`)"
        )),
        GitError::Failed(why) => Diagnostic::new(
            "version.git-failed",
            format!("version {name}: reading `{revision}` from git failed: {why}"),
        )
        .hint("check the repository with `git fsck`, then build again"),
    }
}

/// The earlier versions' validated sites, by name, handed to `then` together: each runs the
/// stages `with_site` runs, through its own cache in `caches` (one per version, in order).
/// Their diagnostics name the version and its commit, since their files are not the working
/// tree's.
pub fn with_older<T>(
    olders: &[OlderConfig],
    registry: &extension::Registry,
    caches: &mut [content::Cache],
    progress: &dyn Progress,
    then: &mut WithOlder<'_, T>,
) -> Result<T, Diagnostics> {
    nest(olders, registry, caches, progress, &[], then)
}

fn nest<T>(
    olders: &[OlderConfig],
    registry: &extension::Registry,
    caches: &mut [content::Cache],
    progress: &dyn Progress,
    done: &OlderSites<'_, '_>,
    then: &mut WithOlder<'_, T>,
) -> Result<T, Diagnostics> {
    let Some((older, rest)) = olders.split_first() else {
        return then(done);
    };
    let (cache, rest_caches) = caches
        .split_first_mut()
        .expect("one cache per earlier version");
    let mut failed_here = true;
    let result = crate::with_site(
        &older.config,
        registry,
        cache,
        &HashSet::new(),
        None,
        progress,
        |site| {
            failed_here = false;
            let mut all: Vec<(&str, &model::Site<'_>)> = done.to_vec();
            all.push((&older.name, site));
            nest(rest, registry, rest_caches, progress, &all, then)
        },
    );
    result.map_err(|errors| {
        if failed_here {
            in_version(errors, older)
        } else {
            errors
        }
    })
}

/// Names the version in each of its diagnostics.
fn in_version(errors: Diagnostics, older: &OlderConfig) -> Diagnostics {
    let commit = older
        .config
        .snapshot
        .as_ref()
        .map_or("", |s| crate::config::source::short(&s.commit));
    Diagnostics(
        errors
            .0
            .into_iter()
            .map(|mut d| {
                d.message = format!("{} (version {}, commit {commit})", d.message, older.name);
                d
            })
            .collect(),
    )
}

/// Every version of the build, the latest first; `None` for a site without versions.
pub fn catalog(
    config: &Config,
    latest: &model::Site<'_>,
    olders: &[(&str, &model::Site<'_>)],
) -> Option<Arc<Catalog>> {
    let versions = config.site.versions.as_ref()?;
    let mut all = vec![Version::of(&versions.current.name, latest)];
    all.extend(olders.iter().map(|(name, site)| Version::of(name, site)));
    Some(Arc::new(Catalog { versions: all }))
}

/// What the files of the earlier version `site` are made from besides its own content: its
/// commit, the configuration, and the routes of every version (its version menu links them).
pub fn key(site: &model::Site<'_>, sites: &[&model::Site<'_>], global: u64) -> u64 {
    let mut h = std::collections::hash_map::DefaultHasher::new();
    site.config
        .snapshot
        .as_ref()
        .map(|s| &s.commit)
        .hash(&mut h);
    format!("{:?}", site.config.site).hash(&mut h);
    global.hash(&mut h);
    for s in sites {
        s.routes.len().hash(&mut h);
        for r in s.routes.keys() {
            r.hash(&mut h);
        }
    }
    h.finish()
}

/// The views of the version at `index` of `catalog` (0: the latest), or plain views without
/// versions.
pub fn placed<'s>(
    views: crate::view::Views<'s>,
    catalog: &Option<Arc<Catalog>>,
    index: usize,
) -> crate::view::Views<'s> {
    match catalog {
        Some(catalog) => views.with_versions(crate::view::versions::Placed {
            catalog: catalog.clone(),
            index,
        }),
        None => views,
    }
}

/// The views of the earlier versions' sites (their indexes in `catalog` follow the latest's).
pub fn older_views<'s>(
    older_sites: &[(&str, &'s model::Site<'s>)],
    catalog: &Option<Arc<Catalog>>,
) -> Vec<crate::view::Views<'s>> {
    older_sites
        .iter()
        .enumerate()
        .map(|(i, (_, s))| placed(crate::view::Views::new(s), catalog, i + 1))
        .collect()
}

/// The renderers of `views`; a template that does not compile is an error of the writer's.
pub fn renderers<'v, 's>(
    views: &'v [crate::view::Views<'s>],
    root: &std::path::Path,
) -> Result<Vec<crate::render::Renderer<'v, 's>>, Diagnostics> {
    views
        .iter()
        .map(crate::render::Renderer::new)
        .collect::<Result<Vec<_>, _>>()
        .map_err(|e| crate::template_error(e, root))
}

/// What the output writes of the earlier versions, each with the key of what it is made from.
pub fn outputs<'a>(
    latest: &model::Site<'_>,
    older_sites: &[(&'a str, &'a model::Site<'a>)],
    renderers: &'a [crate::render::Renderer<'a, 'a>],
) -> Vec<crate::output::versions::Older<'a>> {
    let all: Vec<&model::Site<'_>> = std::iter::once(latest)
        .chain(older_sites.iter().map(|(_, s)| *s))
        .collect();
    older_sites
        .iter()
        .zip(renderers)
        .map(|((name, s), r)| crate::output::versions::Older {
            folder: name,
            site: s,
            renderer: r,
            key: key(s, &all, r.global_fingerprint()),
        })
        .collect()
}
