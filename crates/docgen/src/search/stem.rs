//! Light stemming: the forms of a word a reader may type for another (`banners` for `banner`,
//! `loading` and `loaded` for `load`, `policies` for `policy`). The app's engine matches a query
//! word to the index's words with the same stem (`stem` in `frontend/src/search/engine.ts`);
//! both are tested against `crates/docgen-cli/tests/vectors/search-stems.json`. The writer
//! keeps the words of one stem in one shard, so the app finds them all in the shard it loads.
//!
//! Only lower-case ASCII words are stemmed (others are returned as they are); the rules take
//! off a plural, then `-ing` or `-ed`, then a final `e`, and write a final `y` as `i`, so that
//! `cache`/`caching` and `policy`/`policies` meet.

use std::borrow::Cow;

/// The stem of a lower-case term.
pub fn stem(word: &str) -> Cow<'_, str> {
    let b = word.as_bytes();
    if b.len() < 3 || !b.iter().all(|c| c.is_ascii_lowercase()) {
        return Cow::Borrowed(word);
    }
    let mut s = word.to_string();
    // Plurals.
    if (s.len() > 4 && s.ends_with("ies")) || s.ends_with("sses") {
        s.truncate(s.len() - 2);
    } else if s.ends_with('s') && !(s.ends_with("ss") || s.ends_with("us") || s.ends_with("is")) {
        s.pop();
    }
    // -ing and -ed, when a word of three letters or more is left.
    let mut suffix = false;
    if s.len() >= 7 && s.ends_with("ing") {
        s.truncate(s.len() - 3);
        suffix = true;
    } else if s.len() >= 5 && s.ends_with("ied") {
        s.truncate(s.len() - 2);
    } else if s.len() >= 5 && s.ends_with("ed") {
        s.truncate(s.len() - 2);
        suffix = true;
    }
    if suffix {
        let n = s.len();
        let t = s.as_bytes();
        if n >= 4 && t[n - 1] == t[n - 2] && b"bdgmnprt".contains(&t[n - 1]) {
            s.pop();
        }
    }
    if s.len() > 4 && s.ends_with('e') {
        s.pop();
    }
    if s.len() > 3 && s.ends_with('y') {
        s.pop();
        s.push('i');
    }
    if s == word {
        Cow::Borrowed(word)
    } else {
        Cow::Owned(s)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn forms_of_a_word_meet() {
        for group in [
            &["banner", "banners"][..],
            &["load", "loads", "loading", "loaded"],
            &["cache", "caches", "caching", "cached"],
            &["policy", "policies"],
            &["reward", "rewarded", "rewarding", "rewards"],
            &["stop", "stopped", "stopping"],
            &["apply", "applied", "applies"],
            &["ad", "ads"],
        ] {
            let stems: Vec<Cow<str>> = group.iter().map(|w| stem(w)).collect();
            assert!(
                stems.windows(2).all(|w| w[0] == w[1]),
                "{group:?}: {stems:?}"
            );
        }
        for (a, b) in [
            ("string", "str"),
            ("class", "cla"),
            ("status", "stat"),
            ("bus", "bu"),
        ] {
            assert_ne!(stem(a), stem(b), "{a} {b}");
        }
        assert_eq!(stem("MaxAd"), "MaxAd", "not lower-case ASCII: as it is");
        assert_eq!(stem("called"), "call", "a double l stays");
    }

    #[test]
    fn stems_match_the_shared_vectors() {
        #[derive(serde::Deserialize)]
        struct Case {
            word: String,
            stem: String,
        }
        #[derive(serde::Deserialize)]
        struct Vectors {
            cases: Vec<Case>,
        }
        let v: Vectors = serde_json::from_str(include_str!(
            "../../../docgen-cli/tests/vectors/search-stems.json"
        ))
        .expect("the vectors parse");
        assert!(v.cases.len() > 30);
        for c in &v.cases {
            assert_eq!(stem(&c.word), c.stem, "{:?}", c.word);
        }
    }
}
