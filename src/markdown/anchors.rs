//! The site's anchor rule: heading text lowercased, whitespace turned into hyphens.

use std::collections::HashMap;

/// The anchor of a heading text, by the site's rule.
pub fn anchor(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut last_was_space = false;
    for c in text.trim().chars() {
        if c.is_whitespace() {
            // A run of spaces is one word break, not several hyphens.
            if !last_was_space {
                out.push('-');
            }
            last_was_space = true;
        } else {
            out.extend(c.to_lowercase());
            last_was_space = false;
        }
    }
    out
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

    #[test]
    fn follows_the_site_rule() {
        assert_eq!(anchor("Ad Unit Management API"), "ad-unit-management-api");
        assert_eq!(anchor("SDK 12.0.0 Release"), "sdk-12.0.0-release");
        assert_eq!(
            anchor("MAX Error Codes (network-independent)"),
            "max-error-codes-(network-independent)"
        );
        assert_eq!(
            anchor("ad_unit_experiment/[ad_unit_id]"),
            "ad_unit_experiment/[ad_unit_id]"
        );
        assert_eq!(anchor("  Two   spaces "), "two-spaces");
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
