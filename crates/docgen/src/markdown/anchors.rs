//! Heading anchors: the text of a heading made into its id, by the site's rule
//! (`markdown.anchors` in site.yaml).

use std::collections::HashMap;

#[path = "slugger_table.rs"]
mod slugger_table;

pub use crate::config::site::AnchorRule;

/// The anchor of a heading text, by `rule`.
pub fn anchor(text: &str, rule: AnchorRule) -> String {
    match rule {
        AnchorRule::Literal => literal(text),
        AnchorRule::Github => github(text),
    }
}

/// Whitespace as JavaScript's `\s` and `trim()` see it, so that the app's copy of the rule
/// (`frontend/src/ui/Heading.tsx`) gives the same ids: Unicode White_Space without U+0085,
/// plus the byte order mark.
fn is_js_space(c: char) -> bool {
    (c.is_whitespace() && c != '\u{85}') || c == '\u{feff}'
}

fn literal(text: &str) -> String {
    // Lower-casing the whole string (not char by char) gives a word-final `Σ` its final form
    // `ς`, as JavaScript's `toLowerCase` does.
    let lower = text.trim_matches(is_js_space).to_lowercase();
    let mut out = String::with_capacity(lower.len());
    let mut last_was_space = false;
    for c in lower.chars() {
        if is_js_space(c) {
            // A run of spaces is one word break, not several hyphens.
            if !last_was_space {
                out.push('-');
            }
            last_was_space = true;
        } else {
            out.push(c);
            last_was_space = false;
        }
    }
    out
}

fn github(text: &str) -> String {
    text.to_lowercase()
        .chars()
        .filter(|&c| !removed_by_github(c))
        .map(|c| if c == ' ' { '-' } else { c })
        .collect()
}

fn removed_by_github(c: char) -> bool {
    let cp = c as u32;
    let i = slugger_table::REMOVED.partition_point(|&(_, end)| end < cp);
    slugger_table::REMOVED
        .get(i)
        .is_some_and(|&(start, _)| start <= cp)
}

/// Hands out unique ids within one page: a repeat gets `-1`, `-2`, ... in document order.
#[derive(Default)]
pub struct UniqueIds {
    seen: HashMap<String, usize>,
}

impl UniqueIds {
    /// Whether an id was handed out already (as itself or as a numbered repeat).
    pub fn is_taken(&self, id: &str) -> bool {
        self.seen.contains_key(id)
    }

    pub fn claim(&mut self, wanted: String) -> String {
        match self.seen.get(&wanted).copied() {
            None => {
                self.seen.insert(wanted.clone(), 0);
                wanted
            }
            Some(mut n) => loop {
                n += 1;
                let candidate = format!("{wanted}-{n}");
                if !self.seen.contains_key(&candidate) {
                    self.seen.insert(wanted.clone(), n);
                    self.seen.insert(candidate.clone(), 0);
                    return candidate;
                }
            },
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde::Deserialize;

    #[test]
    fn the_literal_rule_keeps_punctuation() {
        let a = |t| anchor(t, AnchorRule::Literal);
        assert_eq!(a("Ad Unit Management API"), "ad-unit-management-api");
        assert_eq!(a("SDK 12.0.0 Release"), "sdk-12.0.0-release");
        assert_eq!(
            a("MAX Error Codes (network-independent)"),
            "max-error-codes-(network-independent)"
        );
        assert_eq!(
            a("ad_unit_experiment/[ad_unit_id]"),
            "ad_unit_experiment/[ad_unit_id]"
        );
        assert_eq!(a("  Two   spaces "), "two-spaces");
    }

    #[test]
    fn the_removed_ranges_are_sorted_and_disjoint() {
        let r = slugger_table::REMOVED;
        assert!(r.iter().all(|&(a, b)| a <= b));
        assert!(
            r.windows(2).all(|w| w[0].1 + 1 < w[1].0),
            "merged and in order"
        );
    }

    /// The vectors shared with the app's test (`frontend/src/ui/Heading.test.ts`); the github
    /// values are github-slugger's own output.
    #[test]
    fn both_rules_match_the_shared_vectors() {
        #[derive(Deserialize)]
        struct Case {
            input: String,
            rule: AnchorRule,
            expected: String,
        }
        #[derive(Deserialize)]
        struct Page {
            rule: AnchorRule,
            headings: Vec<String>,
            ids: Vec<String>,
        }
        #[derive(Deserialize)]
        struct Vectors {
            cases: Vec<Case>,
            pages: Vec<Page>,
        }
        let v: Vectors = serde_json::from_str(include_str!(
            "../../../docgen-cli/tests/vectors/anchors.json"
        ))
        .expect("the vectors parse");
        assert!(v.cases.len() > 40);
        for c in &v.cases {
            assert_eq!(
                anchor(&c.input, c.rule),
                c.expected,
                "{:?} by {:?}",
                c.input,
                c.rule
            );
        }
        for p in &v.pages {
            let mut ids = UniqueIds::default();
            let got: Vec<String> = p
                .headings
                .iter()
                .map(|h| ids.claim(anchor(h, p.rule)))
                .collect();
            assert_eq!(got, p.ids, "{:?}", p.headings);
        }
    }

    #[test]
    fn repeats_are_numbered_in_order() {
        let mut ids = UniqueIds::default();
        assert_eq!(ids.claim("a".into()), "a");
        assert_eq!(ids.claim("a".into()), "a-1");
        assert_eq!(ids.claim("a-1".into()), "a-1-1");
        assert_eq!(ids.claim("a".into()), "a-2");
    }
}
