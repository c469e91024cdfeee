//! The syntax of the regular expressions of `matches`: JavaScript's, without the `u` flag, as
//! the validator runs them (`new RegExp(pattern, flags)`). docgen checks them at build time, so
//! a pattern the browser would refuse fails the build at its column instead.

/// Checks `pattern`; on a mistake, its byte offset in `pattern` and what is wrong.
pub fn check(pattern: &str) -> Result<(), (usize, String)> {
    let b: Vec<(usize, char)> = pattern.char_indices().collect();
    let mut i = 0;
    // Open groups: offset of each `(`, and whether it is a lookbehind (not quantifiable).
    let mut groups: Vec<usize> = Vec::new();
    // Whether the last item can take a quantifier.
    let mut quantifiable = false;
    let mut names: Vec<String> = Vec::new();
    while i < b.len() {
        let (at, c) = b[i];
        match c {
            '\\' => {
                let Some(&(_, e)) = b.get(i + 1) else {
                    return Err((at, "it ends with a lone backslash".into()));
                };
                if e == 'k' && b.get(i + 2).map(|x| x.1) == Some('<') {
                    let close = b[i + 3..].iter().position(|x| x.1 == '>');
                    let Some(close) = close else {
                        return Err((at, "`\\k<` has no closing `>`".into()));
                    };
                    i += 3 + close + 1;
                } else {
                    i += 2;
                }
                quantifiable = !matches!(e, 'b' | 'B');
            }
            '[' => {
                i = class(&b, i)?;
                quantifiable = true;
            }
            '(' => {
                groups.push(at);
                let rest: String = b[i + 1..].iter().take(3).map(|x| x.1).collect();
                if let Some(after) = rest.strip_prefix('?') {
                    let skip = if after.starts_with(':')
                        || after.starts_with('=')
                        || after.starts_with('!')
                    {
                        2
                    } else if after.starts_with("<=") || after.starts_with("<!") {
                        3
                    } else if after.starts_with('<') {
                        let start = i + 3;
                        let close = b[start..].iter().position(|x| x.1 == '>');
                        let Some(close) = close else {
                            return Err((at, "a named group `(?<name>` has no closing `>`".into()));
                        };
                        let name: String = b[start..start + close].iter().map(|x| x.1).collect();
                        let valid = name
                            .chars()
                            .next()
                            .is_some_and(|c| c.is_ascii_alphabetic() || c == '_' || c == '$')
                            && name
                                .chars()
                                .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '$');
                        if !valid {
                            return Err((at, format!("`{name}` is not a group name")));
                        }
                        if names.contains(&name) {
                            return Err((at, format!("two groups are named `{name}`")));
                        }
                        names.push(name);
                        3 + close
                    } else {
                        return Err((
                            at,
                            format!(
                                "`(?{}` is not a group JavaScript knows (it has no inline flags)",
                                after.chars().next().map(String::from).unwrap_or_default()
                            ),
                        ));
                    };
                    i += 1 + skip;
                } else {
                    i += 1;
                }
                quantifiable = false;
            }
            ')' => {
                if groups.pop().is_none() {
                    return Err((at, "this `)` closes no group".into()));
                }
                i += 1;
                quantifiable = true;
            }
            '|' => {
                i += 1;
                quantifiable = false;
            }
            '^' | '$' => {
                i += 1;
                quantifiable = false;
            }
            '*' | '+' | '?' => {
                if !quantifiable {
                    return Err((at, format!("`{c}` has nothing to repeat")));
                }
                i += 1;
                if b.get(i).map(|x| x.1) == Some('?') {
                    i += 1;
                }
                quantifiable = false;
            }
            '{' => match braces(&b, i) {
                Some(Ok(next)) => {
                    if !quantifiable {
                        return Err((at, "`{` repeats nothing".into()));
                    }
                    i = next;
                    if b.get(i).map(|x| x.1) == Some('?') {
                        i += 1;
                    }
                    quantifiable = false;
                }
                Some(Err(message)) => return Err((at, message)),
                // Not a quantifier: a literal brace, as JavaScript reads it without `u`.
                None => {
                    i += 1;
                    quantifiable = true;
                }
            },
            _ => {
                i += 1;
                quantifiable = true;
            }
        }
    }
    if let Some(open) = groups.pop() {
        return Err((open, "this `(` is not closed".into()));
    }
    Ok(())
}

/// A hint for a message of `check`.
pub fn hint(message: &str) -> &'static str {
    if message.contains("inline flags") {
        "write flags after the closing slash instead: /<html/i"
    } else if message.contains("nothing to repeat") || message.contains("repeats nothing") {
        "escape the character to match it literally: \\* \\+ \\? \\{"
    } else if message.contains("backslash") {
        "escape a backslash as \\\\"
    } else {
        "fix the regular expression (JavaScript syntax, as in new RegExp)"
    }
}

/// A character class from `[` at `i`; the index after its `]`.
fn class(b: &[(usize, char)], start: usize) -> Result<usize, (usize, String)> {
    let mut i = start + 1;
    if b.get(i).map(|x| x.1) == Some('^') {
        i += 1;
    }
    let mut prev: Option<char> = None;
    while i < b.len() {
        let (at, c) = b[i];
        match c {
            ']' => return Ok(i + 1),
            '\\' => {
                let Some(&(_, e)) = b.get(i + 1) else {
                    return Err((at, "it ends with a lone backslash".into()));
                };
                prev = match e {
                    'd' | 'D' | 'w' | 'W' | 's' | 'S' => None,
                    'n' => Some('\n'),
                    't' => Some('\t'),
                    'r' => Some('\r'),
                    other => Some(other),
                };
                i += 2;
            }
            '-' if prev.is_some() && b.get(i + 1).is_some_and(|x| x.1 != ']') => {
                let low = prev.expect("checked");
                let (high, step) = match b[i + 1].1 {
                    '\\' => match b.get(i + 2).map(|x| x.1) {
                        Some('d' | 'D' | 'w' | 'W' | 's' | 'S') | None => {
                            i += 1;
                            prev = None;
                            continue;
                        }
                        Some('n') => ('\n', 3),
                        Some('t') => ('\t', 3),
                        Some(e) => (e, 3),
                    },
                    h => (h, 2),
                };
                if high < low {
                    return Err((at, format!("the range `{low}-{high}` is out of order")));
                }
                prev = None;
                i += step;
            }
            c => {
                prev = Some(c);
                i += 1;
            }
        }
    }
    Err((b[start].0, "this `[` is not closed".into()))
}

/// A `{n}`, `{n,}` or `{n,m}` quantifier from `{` at `i`: the index after it; `None` when the
/// brace starts no quantifier (it is then a literal).
fn braces(b: &[(usize, char)], start: usize) -> Option<Result<usize, String>> {
    let close = b[start..].iter().position(|x| x.1 == '}')? + start;
    let inner: String = b[start + 1..close].iter().map(|x| x.1).collect();
    let (low, high) = match inner.split_once(',') {
        Some((l, h)) => (l, Some(h)),
        None => (inner.as_str(), None),
    };
    let digits = |s: &str| !s.is_empty() && s.chars().all(|c| c.is_ascii_digit());
    if !digits(low) || high.is_some_and(|h| !h.is_empty() && !digits(h)) {
        return None;
    }
    if let Some(h) = high.filter(|h| !h.is_empty()) {
        let (l, h): (u64, u64) = (
            low.parse().unwrap_or(u64::MAX),
            h.parse().unwrap_or(u64::MAX),
        );
        if h < l {
            return Some(Err(format!(
                "the repeat `{{{inner}}}` has its numbers out of order"
            )));
        }
    }
    Some(Ok(close + 1))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn javascript_patterns_pass() {
        for p in [
            r"^[A-Za-z0-9-]+(\.[A-Za-z0-9-]+)+$",
            r"^\$\{[A-Z_]+\}$",
            r"<(html|head|body)[\s>]",
            r"^(?!https?:)[a-z][a-z0-9+.-]*:",
            r"(?<!\$\{)auction_",
            r"(?<year>\d{4})-\k<year>",
            r"window\.open\s*\(|location\.(href\s*=|assign\s*\()",
            r"a{2,}b{1,3}?c{4}",
            r"{literal}x{",
            r"[\]/]",
            r"[]",
            r"x*?y+?z??",
            r"\bword\b",
        ] {
            assert_eq!(check(p), Ok(()), "{p}");
        }
    }

    #[test]
    fn mistakes_are_found_where_they_are() {
        for (p, at, what) in [
            ("(ab", 0, "not closed"),
            ("ab)", 2, "closes no group"),
            ("[a-z", 0, "not closed"),
            ("*a", 0, "nothing to repeat"),
            ("a|+", 2, "nothing to repeat"),
            ("a**", 2, "nothing to repeat"),
            ("(?i)x", 0, "inline flags"),
            ("[z-a]", 2, "out of order"),
            ("a{3,1}", 1, "out of order"),
            ("ab\\", 2, "lone backslash"),
            ("(?<1x>a)", 0, "not a group name"),
            ("(?<n>a)(?<n>b)", 7, "named `n`"),
        ] {
            let e = check(p).unwrap_err();
            assert_eq!(e.0, at, "{p}: {e:?}");
            assert!(e.1.contains(what), "{p}: {e:?}");
        }
    }
}
