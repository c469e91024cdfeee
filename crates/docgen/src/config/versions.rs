//! `versions:` in site.yaml: the versions of the documentation a build writes. The current one
//! is the working tree, at the root of the site; every other one is read from a git revision of
//! the site's own repository (its `content/`; see `content::git_tree`) and written under
//! `/<name>/`.

use serde::Deserialize;

use crate::diagnostics::Diagnostic;

/// `versions:`.
#[derive(Debug, Clone, Deserialize, PartialEq, Eq, Hash)]
#[serde(deny_unknown_fields)]
pub struct Versions {
    /// The version the working tree holds: the latest, at the root.
    pub current: CurrentVersion,
    /// The earlier versions, in the order of the version menu (after the current one).
    #[serde(default)]
    pub others: Vec<OtherVersion>,
}

#[derive(Debug, Clone, Deserialize, PartialEq, Eq, Hash)]
#[serde(deny_unknown_fields)]
pub struct CurrentVersion {
    /// As the version menu shows it, e.g. `13.x`.
    pub name: String,
}

#[derive(Debug, Clone, Deserialize, PartialEq, Eq, Hash)]
#[serde(deny_unknown_fields)]
pub struct OtherVersion {
    /// As the version menu shows it and the first part of its routes: `12.x` → `/12.x/...`.
    pub name: String,
    /// The git revision its content is read from: a tag, a branch, a commit — anything
    /// `git rev-parse` accepts.
    #[serde(rename = "ref")]
    pub git_ref: String,
}

/// Folders of the output docgen itself writes at the root: no version may be named like one.
const RESERVED: [&str; 4] = ["_docgen", "s", "o", "404.html"];

/// Why a version name cannot be the first part of a route, if it cannot.
fn bad_name(name: &str) -> Option<&'static str> {
    if name.is_empty() {
        return Some("is empty");
    }
    if name == "." || name == ".." {
        return Some("is a path step, not a name");
    }
    if !name
        .chars()
        .all(|c| c.is_ascii_alphanumeric() || matches!(c, '.' | '-' | '_'))
    {
        return Some(
            "may hold only letters, digits, `.`, `-` and `_` (it is a folder of the site)",
        );
    }
    RESERVED
        .contains(&name)
        .then_some("is a folder docgen writes itself")
}

/// A key path of site.yaml and what is wrong there.
pub type Problem = (Vec<crate::config::yaml::Step>, Diagnostic);

/// The names and refs, checked: each name one folder of the site, unique, and not the first
/// folder of a route the current version has as its own (an area); each ref a revision, not an
/// option of git.
pub fn check(v: &Versions, areas: &[crate::config::site::Area]) -> Vec<Problem> {
    let mut problems = Vec::new();
    let at = |i: Option<usize>, key: &str| -> Vec<crate::config::yaml::Step> {
        match i {
            None => vec!["versions".into(), "current".into(), key.into()],
            Some(i) => vec!["versions".into(), "others".into(), i.into(), key.into()],
        }
    };
    let hint_name = "name it like `12.x` or `v2` (letters, digits, `.`, `-`, `_`)";
    if let Some(why) = bad_name(&v.current.name).filter(|_| !v.current.name.is_empty()) {
        // The current version is at the root: its name is shown, never a folder, but a name
        // that could not be one would be refused the moment it became an earlier version.
        problems.push((
            at(None, "name"),
            Diagnostic::new(
                "config.bad-version",
                format!("versions.current.name `{}` {why}", v.current.name),
            )
            .hint(hint_name),
        ));
    }
    if v.current.name.is_empty() {
        problems.push((
            at(None, "name"),
            Diagnostic::new("config.bad-version", "versions.current.name is empty").hint(hint_name),
        ));
    }
    let mut seen = vec![v.current.name.as_str()];
    for (i, other) in v.others.iter().enumerate() {
        let name = other.name.as_str();
        let problem = if let Some(why) = bad_name(name) {
            Some(format!("version name `{name}` {why}"))
        } else if seen.contains(&name) {
            Some(format!("version name `{name}` is given twice"))
        } else if areas
            .iter()
            .any(|a| a.route.trim_start_matches('/').split('/').next() == Some(name))
        {
            Some(format!(
                "version name `{name}` is the first folder of an area's route: its pages would take the area's place"
            ))
        } else {
            None
        };
        if let Some(message) = problem {
            problems.push((
                at(Some(i), "name"),
                Diagnostic::new("config.bad-version", message).hint(hint_name),
            ));
        }
        seen.push(name);
        let r = other.git_ref.trim();
        if r.is_empty() || r.starts_with('-') || r.contains(['\n', '\0']) {
            problems.push((
                at(Some(i), "ref"),
                Diagnostic::new(
                    "config.bad-version-ref",
                    format!("ref `{}` is not a git revision", other.git_ref.escape_debug()),
                )
                .hint("give a tag, a branch or a commit of the site's repository, e.g. `ref: sdk-12.x`"),
            ));
        }
    }
    problems
}

#[cfg(test)]
mod tests {
    use super::*;

    fn versions(others: &[(&str, &str)]) -> Versions {
        Versions {
            current: CurrentVersion {
                name: "13.x".into(),
            },
            others: others
                .iter()
                .map(|(n, r)| OtherVersion {
                    name: n.to_string(),
                    git_ref: r.to_string(),
                })
                .collect(),
        }
    }

    #[test]
    fn names_are_single_folders_and_unique() {
        assert!(check(&versions(&[("12.x", "sdk-12.x"), ("v11", "v11")]), &[]).is_empty());
        for bad in ["", "..", "12/x", "a b", "_docgen", "13.x"] {
            let found = check(&versions(&[(bad, "t")]), &[]);
            assert_eq!(found.len(), 1, "{bad:?}");
            assert_eq!(found[0].1.code, "config.bad-version");
        }
    }

    #[test]
    fn refs_are_revisions_not_options() {
        for bad in ["", " ", "--output=x", "a\nb"] {
            let found = check(&versions(&[("12.x", bad)]), &[]);
            assert_eq!(found.len(), 1, "{bad:?}");
            assert_eq!(found[0].1.code, "config.bad-version-ref");
        }
    }
}
