//! Site extensions: the code one site brings to the pipeline, kept out of the generator.
//!
//! The `docgen` command registers the extensions it knows (`Registry`); a site enables them by
//! name in `site.yaml`:
//!
//! ```yaml
//! extensions:
//!   adplatform:          # the name an extension registers under
//!     bidRules: { ... }  # its own settings, read by the extension
//! ```
//!
//! An enabled extension is asked once per build, after the model is built and before the
//! checks (`Enabled::prepare`); what it prepares flows forward with the model
//! (`model::Site::extensions`): its diagnostics join the checks', its data files are written
//! with the site's, its entries join the site view every page holds. Its bundles (the scripts
//! of its islands) are published beside the app's only while it is enabled; the site view
//! names the bundle of each of its islands (`Extended::islands`), which the app imports on a
//! page that holds one.
//!
//! This module sits between the model and the checks: it may import `config`, `model` and the
//! shared modules, and no later stage.

use std::fmt;
use std::sync::Arc;

use crate::config::Config;
use crate::diagnostics::{Diagnostic, Diagnostics, did_you_mean};
use crate::model::{Extended, Site};

/// One site's code for the pipeline.
pub trait Extension: Send + Sync {
    /// The name a site enables it by (`extensions.<name>` in site.yaml).
    fn name(&self) -> &'static str;
    /// Reads the extension's settings (the value under its name in site.yaml). A problem is a
    /// diagnostic in site.yaml: `Settings::diagnostic` places it.
    fn enable(&self, settings: &Settings<'_>) -> Result<Box<dyn Enabled>, Vec<Diagnostic>>;
}

/// An extension a site enabled, with its settings read.
pub trait Enabled: Send + Sync {
    /// Bundles published beside the app's own while the extension is enabled, by their name
    /// under the app's (`docgen/NAME.js`, published with a hashed name like the app).
    fn bundles(&self) -> Vec<(&'static str, &'static [u8])> {
        Vec::new()
    }
    /// Everything the extension makes of the built model, once per build.
    fn prepare(&self, site: &Site<'_>) -> Prepared;
}

/// What an extension made of a site: problems, for the checks, and what the later stages
/// publish.
#[derive(Debug, Default)]
pub struct Prepared {
    /// Errors and warnings, reported with the checks'.
    pub diagnostics: Vec<Diagnostic>,
    /// What flows on with the model to the view and the output.
    pub extended: Extended,
}

/// The value under an extension's name in site.yaml, and where it is written.
pub struct Settings<'a> {
    pub name: &'static str,
    pub value: &'a yaml_serde::Value,
    /// The text of site.yaml, for diagnostics.
    pub source: &'a Arc<str>,
    /// The line of the extension's name in site.yaml.
    pub line: usize,
}

impl Settings<'_> {
    /// The settings as the extension's typed struct; a mismatch is a diagnostic at the
    /// extension's entry in site.yaml.
    pub fn parse<T: serde::de::DeserializeOwned>(&self) -> Result<T, Diagnostic> {
        yaml_serde::from_value(self.value.clone()).map_err(|e| {
            self.diagnostic(
                "extension.settings",
                format!(
                    "the settings of the extension `{}` are not valid: {e}",
                    self.name
                ),
            )
            .hint("see the extension's settings in the README")
        })
    }

    /// A diagnostic at the extension's entry in site.yaml.
    pub fn diagnostic(&self, code: &'static str, message: impl Into<String>) -> Diagnostic {
        at_line(
            Diagnostic::new(code, message).in_file("site.yaml"),
            self.source,
            self.line,
        )
    }
}

fn at_line(d: Diagnostic, source: &Arc<str>, line: usize) -> Diagnostic {
    if line == 0 {
        return d;
    }
    let column = source
        .lines()
        .nth(line - 1)
        .map_or(1, |l| l.len() - l.trim_start().len() + 1);
    d.at(line, column).with_source(source)
}

/// The extensions a build may enable, registered by the command that runs it.
#[derive(Clone, Default)]
pub struct Registry {
    known: Vec<Arc<dyn Extension>>,
}

impl fmt::Debug for Registry {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list().entries(self.names()).finish()
    }
}

impl Registry {
    pub fn new(known: Vec<Arc<dyn Extension>>) -> Self {
        Registry { known }
    }

    /// The names of the registered extensions, in registration order.
    pub fn names(&self) -> impl Iterator<Item = &'static str> + '_ {
        self.known.iter().map(|e| e.name())
    }

    /// The extensions `config` enables, with their settings read. A name no registered
    /// extension has is an error at its line in site.yaml, naming the known ones.
    pub fn enable(&self, config: &Config) -> Result<Active, Diagnostics> {
        let source = &config.site_source;
        let mut enabled = Vec::new();
        let mut errors = Vec::new();
        for (name, value) in &config.site.extensions {
            let line = config
                .site_positions
                .key(&["extensions".into(), name.as_str().into()])
                .map_or(0, |(line, _)| line);
            let Some(extension) = self.known.iter().find(|e| e.name() == name) else {
                let known: Vec<&str> = self.names().collect();
                let listed = if known.is_empty() {
                    "this docgen has no extensions".to_string()
                } else {
                    format!("known extensions: {}", known.join(", "))
                };
                let hint = match did_you_mean(name, known.iter().copied()) {
                    Some(s) => format!("did you mean `{s}`? ({listed})"),
                    None => listed,
                };
                errors.push(
                    at_line(
                        Diagnostic::new(
                            "config.unknown-extension",
                            format!("site.yaml enables the extension `{name}`, which this docgen does not have"),
                        )
                        .in_file("site.yaml"),
                        source,
                        line,
                    )
                    .hint(hint),
                );
                continue;
            };
            let settings = Settings {
                name: extension.name(),
                value,
                source,
                line,
            };
            match extension.enable(&settings) {
                Ok(e) => enabled.push(e),
                Err(e) => errors.extend(e),
            }
        }
        if errors.is_empty() {
            Ok(Active(enabled))
        } else {
            Err(Diagnostics(errors))
        }
    }
}

/// The extensions one site enabled, in the order site.yaml lists them.
#[derive(Default)]
pub struct Active(Vec<Box<dyn Enabled>>);

impl Active {
    /// Every bundle of the enabled extensions.
    pub fn bundles(&self) -> impl Iterator<Item = (&'static str, &'static [u8])> + '_ {
        self.0.iter().flat_map(|e| e.bundles())
    }

    /// Each extension's work over the model, once per build.
    pub fn prepare(&self, site: &Site<'_>) -> (Vec<Diagnostic>, Vec<Extended>) {
        let mut diagnostics = Vec::new();
        let mut extended = Vec::new();
        for e in &self.0 {
            let prepared = e.prepare(site);
            diagnostics.extend(prepared.diagnostics);
            extended.push(prepared.extended);
        }
        (diagnostics, extended)
    }
}
