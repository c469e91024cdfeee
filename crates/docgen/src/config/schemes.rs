//! Link schemes that run code: refused in links and raw HTML unless the site allows them by
//! name (`allowLinkSchemes`). The config stage checks the site's own addresses with the same
//! rule as the Markdown and raw-HTML readers.

/// The link schemes that run code or carry a document of their own.
pub const UNSAFE_SCHEMES: [&str; 3] = ["javascript", "vbscript", "data"];

/// The scheme of `url` as a browser's URL parser reads it, lower-cased: leading and trailing
/// C0 controls and spaces trimmed, every tab and newline removed. `None` for a relative address.
pub fn scheme_of(url: &str) -> Option<String> {
    let trimmed = url.trim_matches(|c: char| c <= ' ');
    let mut scheme = String::new();
    for c in trimmed.chars().filter(|c| !matches!(c, '\t' | '\n' | '\r')) {
        match c {
            ':' if !scheme.is_empty() => return Some(scheme),
            c if c.is_ascii_alphabetic() => scheme.push(c.to_ascii_lowercase()),
            '0'..='9' | '+' | '-' | '.' if !scheme.is_empty() => scheme.push(c),
            _ => return None,
        }
    }
    None
}

/// The refused scheme of `url`, unless the site allows it by name; `data:` passes where it can
/// only be an image (`data_ok`), as the policy's `img-src 'self' data:` allows.
pub fn refused_scheme(url: &str, allowed: &[String], data_ok: bool) -> Option<String> {
    let scheme = scheme_of(url)?;
    let unsafe_ = UNSAFE_SCHEMES.contains(&scheme.as_str());
    let permitted =
        allowed.iter().any(|a| a.eq_ignore_ascii_case(&scheme)) || (data_ok && scheme == "data");
    (unsafe_ && !permitted).then_some(scheme)
}
