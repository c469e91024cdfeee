//! Words of the search index. The app's search engine splits queries by the same rules
//! (`frontend/src/search/engine.ts`), so both sides must change together; both are tested against
//! the same vectors, `crates/docgen-cli/tests/vectors/search-tokens.json`.
//!
//! A token is a run of letters, digits and `_`, indexed whole and lower-cased, so that code
//! identifiers are found as written (`MaxInterstitialAd`, `AUCTION_PRICE`, `dsp_latency`).
//! Its parts are indexed too — split on `_`, then into camel-case runs — so that
//! `interstitial` finds `MaxInterstitialAd` and `price` finds `AUCTION_PRICE`.
//!
//! Han, kana and Hangul (`config::locales::is_cjk`) end a token: their runs are indexed as
//! overlapping pairs of characters (bigrams), a run of one character as itself, so that
//! Chinese and Japanese text, written without spaces, is found by any word of it.

use crate::config::locales::is_cjk;

/// Calls `emit` with each term of `text`: every whole token, then its parts.
pub fn for_each_term(text: &str, mut emit: impl FnMut(&str)) {
    if text.is_ascii() {
        for_each_ascii_term(text, emit);
        return;
    }
    let mut lower = String::new();
    for token in text.split(|c: char| !(c.is_alphanumeric() || c == '_')) {
        for_each_segment(token, |segment, cjk| {
            if cjk {
                for_each_pair(segment, &mut emit);
            } else {
                for_each_token_term(segment, &mut lower, &mut emit);
            }
        });
    }
}

/// The terms of a token with no Han, kana or Hangul in it: whole, then its parts.
fn for_each_token_term(token: &str, lower: &mut String, emit: &mut impl FnMut(&str)) {
    lower_into(lower, token);
    if keep(lower) {
        emit(lower);
    }
    if token.chars().all(|c| c.is_lowercase() || c.is_numeric()) {
        // No case change and no `_`: no parts.
        return;
    }
    for_each_part(token, |part| {
        lower_into(lower, part);
        if part.len() != token.len() && keep(lower) {
            emit(lower);
        }
    });
}

/// The maximal runs of `token` that are all Han, kana or Hangul (`true`) or all not, in order.
fn for_each_segment(token: &str, mut each: impl FnMut(&str, bool)) {
    let mut start = 0;
    let mut kind = None;
    for (i, c) in token.char_indices() {
        let cjk = is_cjk(c);
        if kind.is_some_and(|k| k != cjk) {
            each(&token[start..i], !cjk);
            start = i;
        }
        kind = Some(cjk);
    }
    if let Some(k) = kind {
        each(&token[start..], k);
    }
}

/// The terms of a run of Han, kana or Hangul: each pair of neighbouring characters (`横幅广告`
/// → `横幅`, `幅广`, `广告`), or the character alone in a run of one. Without a dictionary no
/// one knows where its words end; a query split the same way finds the pairs of its words.
fn for_each_pair(run: &str, emit: &mut impl FnMut(&str)) {
    // Where each character after the first starts, then the end.
    let mut ends = run
        .char_indices()
        .map(|(i, _)| i)
        .skip(1)
        .chain([run.len()]);
    let (mut pair, Some(mut second)) = (0, ends.next()) else {
        return;
    };
    if second == run.len() {
        if !run.is_empty() {
            emit(run);
        }
        return;
    }
    for end in ends {
        emit(&run[pair..end]);
        (pair, second) = (second, end);
    }
}

/// The same for ASCII text (nearly all of it), in one pass over its bytes: the indexer spends
/// most of its time here.
fn for_each_ascii_term(text: &str, mut emit: impl FnMut(&str)) {
    let bytes = text.as_bytes();
    // The current token lower-cased, when it has upper-case letters (most words have none).
    let mut lowered = String::new();
    let mut i = 0;
    while i < bytes.len() {
        if ASCII[bytes[i] as usize] == 0 {
            i += 1;
            continue;
        }
        let start = i;
        let mut seen = 0;
        while i < bytes.len() && ASCII[bytes[i] as usize] != 0 {
            seen |= ASCII[bytes[i] as usize];
            i += 1;
        }
        let (upper, underscore) = (seen & UPPER != 0, seen & UNDERSCORE != 0);
        let token = &text[start..i];
        let lower = if upper {
            lowered.clear();
            lowered.push_str(token);
            lowered.make_ascii_lowercase();
            lowered.as_str()
        } else {
            token
        };
        if keep(lower) {
            emit(lower);
        }
        if upper || underscore {
            for_each_ascii_part(token.as_bytes(), |from, to| {
                let part = &lower[from..to];
                if to - from != token.len() && keep(part) {
                    emit(part);
                }
            });
        }
    }
}

const WORD: u8 = 1;
const UPPER: u8 = 2;
const UNDERSCORE: u8 = 4;

/// Per ASCII byte: whether it is part of a token (`WORD`), and if so whether an upper-case
/// letter or `_` (both mean the token has parts).
static ASCII: [u8; 256] = {
    let mut table = [0u8; 256];
    let mut b = 0;
    while b < 128 {
        let c = b as u8;
        table[b] = if c.is_ascii_uppercase() {
            WORD | UPPER
        } else if c == b'_' {
            WORD | UNDERSCORE
        } else if c.is_ascii_alphanumeric() {
            WORD
        } else {
            0
        };
        b += 1;
    }
    table
};

/// `for_each_part` over ASCII bytes, giving byte ranges of the token.
fn for_each_ascii_part(token: &[u8], mut emit: impl FnMut(usize, usize)) {
    let mut start = 0;
    while start < token.len() {
        if token[start] == b'_' {
            start += 1;
            continue;
        }
        // `_` is of no case, so a run never crosses it.
        let kind = |i: usize| class(char::from(token[i]));
        let end = run_end(token.len(), start, kind, |i| token[i] == b's');
        emit(start, end);
        start = end;
    }
}

/// Where the camel-case run starting at `start` ends (see `for_each_part`), given the class
/// of each position and whether it is an `s` (for "IDs").
fn run_end(
    len: usize,
    start: usize,
    kind: impl Fn(usize) -> Class,
    is_s: impl Fn(usize) -> bool,
) -> usize {
    let mut end = start + 1;
    match kind(start) {
        Class::Upper => {
            if end < len && kind(end) == Class::Lower {
                while end < len && kind(end) == Class::Lower {
                    end += 1;
                }
            } else {
                while end < len && kind(end) == Class::Upper {
                    end += 1;
                }
                if end + 1 == len && is_s(end) {
                    // "IDs", "URLs": one word.
                    end += 1;
                } else if end < len && kind(end) == Class::Lower && end - start > 1 {
                    end -= 1;
                }
            }
        }
        k => {
            while end < len && kind(end) == k {
                end += 1;
            }
        }
    }
    end
}

/// `text` lower-cased into `out` (most text is ASCII, which needs no case tables).
fn lower_into(out: &mut String, text: &str) {
    out.clear();
    if text.is_ascii() {
        out.push_str(text);
        out.make_ascii_lowercase();
    } else {
        // The whole word at once, as JavaScript's `toLowerCase` does: a capital sigma at the end
        // of a word is `ς` (`ΟΔΟΣ` is `οδος`), which a char-by-char mapping cannot tell.
        out.push_str(&text.to_lowercase());
    }
}

/// Terms of one character say nothing, unless they are digits (`iOS 2`, `OpenRTB 2`).
fn keep(term: &str) -> bool {
    let mut chars = term.chars();
    match (chars.next(), chars.next()) {
        (Some(c), None) => c.is_ascii_digit(),
        (Some(_), Some(_)) => true,
        _ => false,
    }
}

/// The camel-case runs of each `_`-separated piece: `[A-Z]?[a-z]+`, `[A-Z]+` not followed by
/// a lower-case letter, and `[0-9]+` (letters of any script by their case). Capitals and an `s`
/// are one word ("IDs") only at the end of the whole token, as in `for_each_ascii_part`.
fn for_each_part(token: &str, mut emit: impl FnMut(&str)) {
    let mut pieces = token.split('_').peekable();
    while let Some(piece) = pieces.next() {
        let ends_token = pieces.peek().is_none();
        let chars: Vec<(usize, char)> = piece.char_indices().collect();
        let mut start = 0;
        while start < chars.len() {
            let end = run_end(
                chars.len(),
                start,
                |i| class(chars[i].1),
                |i| ends_token && chars[i].1 == 's',
            );
            let from = chars[start].0;
            let to = chars.get(end).map_or(piece.len(), |c| c.0);
            emit(&piece[from..to]);
            start = end;
        }
    }
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Class {
    Upper,
    Lower,
    Digit,
    Other,
}

fn class(c: char) -> Class {
    if c.is_uppercase() {
        Class::Upper
    } else if c.is_lowercase() {
        Class::Lower
    } else if c.is_numeric() {
        Class::Digit
    } else {
        Class::Other
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn terms(text: &str) -> Vec<String> {
        let mut out = Vec::new();
        for_each_term(text, |t| out.push(t.to_string()));
        out
    }

    #[test]
    fn identifiers_are_whole_words_and_their_parts() {
        assert_eq!(
            terms("MaxInterstitialAd"),
            ["maxinterstitialad", "max", "interstitial", "ad"]
        );
        assert_eq!(
            terms("AUCTION_PRICE"),
            ["auction_price", "auction", "price"]
        );
        assert_eq!(terms("dsp_latency"), ["dsp_latency", "dsp", "latency"]);
        assert_eq!(terms("OpenRTB2"), ["openrtb2", "open", "rtb", "2"]);
        assert_eq!(terms("RTBRequest"), ["rtbrequest", "rtb", "request"]);
    }

    /// The vectors the app's search engine is tested against too (`frontend/test/searchTokens.test.ts`).
    /// Each input is also read with a non-ASCII word appended (one letter, so no term of its
    /// own): the general path must give what the ASCII fast path gives.
    #[test]
    fn terms_match_the_shared_vectors() {
        #[derive(serde::Deserialize)]
        struct Case {
            input: String,
            tokens: Vec<String>,
        }
        #[derive(serde::Deserialize)]
        struct Vectors {
            cases: Vec<Case>,
        }
        let v: Vectors = serde_json::from_str(include_str!(
            "../../../docgen-cli/tests/vectors/search-tokens.json"
        ))
        .expect("the vectors parse");
        assert!(v.cases.len() > 30);
        for c in &v.cases {
            assert_eq!(terms(&c.input), c.tokens, "{:?}", c.input);
            let general = format!("{} é", c.input);
            assert_eq!(terms(&general), c.tokens, "{general:?}");
        }
    }

    #[test]
    fn prose_is_split_on_punctuation_and_lower_cased() {
        assert_eq!(
            terms("The GDPR: deleted device-IDs, v2.0 (a)"),
            ["the", "gdpr", "deleted", "device", "ids", "v2", "0"]
        );
        assert_eq!(terms("Über café"), ["über", "café"]);
    }
}
