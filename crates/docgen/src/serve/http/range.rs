//! HTTP range requests (RFC 9110, section 14): which bytes of a file of a known length a
//! `Range` header asks for.

/// What to send for a `Range` header and a representation of `len` bytes.
#[derive(Debug, PartialEq, Eq)]
pub enum Ranged {
    /// The whole file, with 200: no range asked for, a unit other than bytes, a header that
    /// does not parse, or several ranges (answered whole rather than as multipart).
    Full,
    /// Bytes `start..=end`, with 206.
    Part { start: u64, end: u64 },
    /// No byte of the file is in the range: 416.
    Unsatisfiable,
}

/// Reads `header` (the `Range` value) for a representation of `len` bytes.
pub fn ranged(header: Option<&str>, len: u64) -> Ranged {
    let Some(header) = header else {
        return Ranged::Full;
    };
    let Some((unit, set)) = header.split_once('=') else {
        return Ranged::Full;
    };
    if !unit.trim().eq_ignore_ascii_case("bytes") || set.contains(',') {
        return Ranged::Full;
    }
    let Some((first, last)) = set.trim().split_once('-') else {
        return Ranged::Full;
    };
    let number = |text: &str| -> Option<u64> {
        let text = text.trim();
        // `u64::from_str` takes a leading `+`, which the grammar does not.
        if text.is_empty() || !text.bytes().all(|b| b.is_ascii_digit()) {
            return None;
        }
        text.parse().ok()
    };
    match (first.trim().is_empty(), last.trim().is_empty()) {
        // `-n`: the last n bytes.
        (true, false) => match number(last) {
            Some(0) => Ranged::Unsatisfiable,
            Some(_) if len == 0 => Ranged::Unsatisfiable,
            Some(n) => Ranged::Part {
                start: len.saturating_sub(n),
                end: len - 1,
            },
            None => Ranged::Full,
        },
        // `a-`: from a to the end.
        (false, true) => match number(first) {
            Some(start) if start < len => Ranged::Part {
                start,
                end: len - 1,
            },
            Some(_) => Ranged::Unsatisfiable,
            None => Ranged::Full,
        },
        // `a-b`: a last position past the end means the end.
        (false, false) => match (number(first), number(last)) {
            (Some(start), Some(end)) if start <= end => {
                if start < len {
                    Ranged::Part {
                        start,
                        end: end.min(len - 1),
                    }
                } else {
                    Ranged::Unsatisfiable
                }
            }
            _ => Ranged::Full,
        },
        (true, true) => Ranged::Full,
    }
}

/// Whether an `If-Range` value lets the range apply: only a strong entity tag equal to the
/// one sent. A date, or a weak tag, sends the whole file, as RFC 9110 allows.
pub fn if_range_holds(if_range: Option<&str>, etag: &str) -> bool {
    if_range.is_none_or(|value| value.trim() == etag)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn part(start: u64, end: u64) -> Ranged {
        Ranged::Part { start, end }
    }

    #[test]
    fn ranges_are_read_as_rfc_9110_says() {
        let r = |h: &str| ranged(Some(h), 1000);
        assert_eq!(ranged(None, 1000), Ranged::Full);
        assert_eq!(r("bytes=0-499"), part(0, 499));
        assert_eq!(r("bytes=500-999"), part(500, 999));
        assert_eq!(r("bytes=500-5000"), part(500, 999));
        assert_eq!(r("bytes=999-999"), part(999, 999));
        assert_eq!(r("bytes=900-"), part(900, 999));
        assert_eq!(r("bytes=-100"), part(900, 999));
        assert_eq!(r("bytes=-5000"), part(0, 999));
        assert_eq!(r("Bytes = 1-2"), part(1, 2));
        assert_eq!(r("bytes=1000-"), Ranged::Unsatisfiable);
        assert_eq!(r("bytes=1000-2000"), Ranged::Unsatisfiable);
        assert_eq!(r("bytes=-0"), Ranged::Unsatisfiable);
        assert_eq!(ranged(Some("bytes=-1"), 0), Ranged::Unsatisfiable);
        assert_eq!(ranged(Some("bytes=0-"), 0), Ranged::Unsatisfiable);
    }

    #[test]
    fn what_does_not_parse_or_asks_for_several_ranges_gets_the_whole_file() {
        for header in [
            "bytes=5-1",
            "bytes=-",
            "bytes=a-b",
            "bytes=+1-2",
            "bytes=1-+2",
            "bytes 0-1",
            "items=0-1",
            "bytes=0-1,5-6",
            "bytes=99999999999999999999999-",
            "",
        ] {
            assert_eq!(ranged(Some(header), 1000), Ranged::Full, "{header:?}");
        }
    }

    #[test]
    fn if_range_needs_the_same_strong_tag() {
        let tag = "\"3e8-17\"";
        assert!(if_range_holds(None, tag));
        assert!(if_range_holds(Some("\"3e8-17\""), tag));
        assert!(!if_range_holds(Some("\"3e8-18\""), tag));
        assert!(!if_range_holds(Some("W/\"3e8-17\""), tag));
        assert!(!if_range_holds(Some("Wed, 21 Oct 2015 07:28:00 GMT"), tag));
    }
}
