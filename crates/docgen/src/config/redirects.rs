//! `redirects.yaml`: legacy route patterns with named parameters, expanded at build time.

use std::collections::BTreeMap;

use serde::Deserialize;

#[derive(Debug, Clone, Deserialize, Default)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct RedirectsConfig {
    /// The old documentation's base path; every rule's `from` is relative to it.
    pub legacy_base: String,
    /// Where every other path under the legacy base goes; defaults to the site's home.
    pub home: Option<String>,
    /// Named value lists shared by all rules.
    #[serde(default)]
    pub params: BTreeMap<String, ParamValues>,
    #[serde(default)]
    pub rules: Vec<Rule>,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Rule {
    /// Pattern relative to the legacy base, with `{name}` parameters.
    pub from: String,
    /// Destination route, with the same parameters.
    pub to: String,
    /// Parameters of this rule only (they override shared ones of the same name).
    #[serde(default)]
    pub params: BTreeMap<String, ParamValues>,
}

/// A parameter's values: a list, or a map from the legacy value to the value used in `to`.
#[derive(Debug, Clone, Deserialize)]
#[serde(
    untagged,
    expecting = "a list of values, or a map from each legacy value to the value used in `to`"
)]
pub enum ParamValues {
    List(Vec<String>),
    Map(BTreeMap<String, String>),
}

impl ParamValues {
    /// (legacy value, destination value) pairs, in a stable order.
    pub fn pairs(&self) -> Vec<(&str, &str)> {
        match self {
            ParamValues::List(v) => v.iter().map(|s| (s.as_str(), s.as_str())).collect(),
            ParamValues::Map(m) => m.iter().map(|(k, v)| (k.as_str(), v.as_str())).collect(),
        }
    }
}
