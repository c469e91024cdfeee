//! The ad-platform site's extension of docgen (`extensions: { adplatform: ... }` in its
//! site.yaml): the OpenRTB bidding rules of its data files compiled into the checks of the
//! bid-response validator (`bidrules`), published as `_docgen/bid-rules.json` with the
//! validator's evaluator (`docgen/validator.js`, bundled by this crate's build.rs from
//! `frontend/src/extensions/adplatform/`). Its islands' components are in that folder too,
//! bundled as `docgen/adplatform.js`: published only for a site that enables the extension,
//! and imported by the app only on a page that holds one of them.

// A `Diagnostic` is the error of most fallible steps, as in docgen.
#![allow(clippy::result_large_err)]

pub mod bidrules;
mod typescript;

use docgen::diagnostics::Diagnostic;
use docgen::extension::{Enabled, Extension, Prepared, Settings};
use docgen::model::{Extended, Site};
use serde::{Deserialize, Serialize};
use ts_rs::TS;

use bidrules::BidRulesConfig;

/// The bid-response validator's evaluator, loaded by the validator island on first use.
const VALIDATOR_JS: &[u8] = include_bytes!(concat!(env!("OUT_DIR"), "/bundles/validator.js"));

/// The islands' components (`frontend/src/extensions/adplatform/islands.tsx`), which register
/// the islands of `ISLANDS` with the app when it imports the bundle.
const ISLANDS_JS: &[u8] = include_bytes!(concat!(env!("OUT_DIR"), "/bundles/adplatform.js"));

/// The bundle of the islands, as published under `docgen/`.
const ISLANDS_BUNDLE: &str = "adplatform.js";

/// The islands `ISLANDS_JS` registers.
const ISLANDS: [&str; 3] = [
    "bid-validator",
    "dependency-builder",
    "skadnetwork-generator",
];

/// The extension, as the `docgen` command registers it.
pub struct AdPlatform;

/// The extension's settings in site.yaml.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
struct AdPlatformSettings {
    /// The bid-response validator: rules and field tables compiled into checks.
    #[serde(default)]
    bid_rules: Option<BidRulesConfig>,
}

impl Extension for AdPlatform {
    fn name(&self) -> &'static str {
        "adplatform"
    }

    fn enable(&self, settings: &Settings<'_>) -> Result<Box<dyn Enabled>, Vec<Diagnostic>> {
        // `adplatform:` with nothing under it enables the islands alone.
        let parsed: AdPlatformSettings = if settings.value.is_null() {
            AdPlatformSettings::default()
        } else {
            settings.parse().map_err(|d| vec![d])?
        };
        Ok(Box::new(Configured {
            bid_rules: parsed.bid_rules,
        }))
    }
}

/// The extension as one site configured it.
struct Configured {
    bid_rules: Option<BidRulesConfig>,
}

/// Where a site's bid-response validator lives, with the base path (`site.validator` in the
/// page data).
#[derive(Debug, Serialize, TS)]
pub struct SiteValidator {
    /// `_docgen/bid-rules.json`.
    pub rules: String,
    /// The evaluator module the validator island loads on first use.
    pub script: String,
}

impl Enabled for Configured {
    fn bundles(&self) -> Vec<(&'static str, &'static [u8])> {
        let mut bundles = vec![(ISLANDS_BUNDLE, ISLANDS_JS)];
        if self.bid_rules.is_some() {
            bundles.push(("validator.js", VALIDATOR_JS));
        }
        bundles
    }

    fn prepare(&self, site: &Site<'_>) -> Prepared {
        let mut extended = Extended {
            islands: ISLANDS
                .iter()
                .map(|island| (island.to_string(), ISLANDS_BUNDLE.to_string()))
                .collect(),
            ..Extended::default()
        };
        let Some(cfg) = &self.bid_rules else {
            return Prepared {
                diagnostics: Vec::new(),
                extended,
            };
        };
        // Compiled once per build: the checks and the published document share the result.
        let (rules, diagnostics) = bidrules::prepare(site, cfg);
        if let Some(rules) = rules {
            let json = serde_json::to_string(&rules).expect("serializable");
            extended
                .data_files
                .push((bidrules::PATH.to_string(), json.into_bytes()));
        }
        if let Some(script) = site.assets.href("docgen/validator.js") {
            let view = SiteValidator {
                rules: site.href(&format!("/{}", bidrules::PATH)),
                script,
            };
            extended.site_view.push((
                "validator".to_string(),
                serde_json::to_value(view).expect("serializable"),
            ));
        }
        Prepared {
            diagnostics,
            extended,
        }
    }
}

#[cfg(test)]
mod tests {
    /// The islands the site view names for the bundle are those its entry registers.
    #[test]
    fn islands_are_those_the_bundle_registers() {
        let entry = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("../../frontend/src/extensions/adplatform/islands.tsx");
        let text = std::fs::read_to_string(&entry).expect("the islands' entry");
        let mut registered: Vec<&str> = text
            .split("registerIsland('")
            .skip(1)
            .filter_map(|rest| rest.split('\'').next())
            .collect();
        registered.sort_unstable();
        assert_eq!(registered, super::ISLANDS);
    }
}
