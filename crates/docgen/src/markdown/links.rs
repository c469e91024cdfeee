//! Resolution of the links a writer puts in Markdown: routes, relative `.md` paths, anchors.

/// What a link in a page points at.
#[derive(Debug, Clone, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub enum Target {
    /// Outside the site (a URL with a scheme, `//host`, `mailto:`), left as written.
    External,
    /// A page of the site, by route, with an optional anchor.
    Page {
        route: String,
        anchor: Option<String>,
    },
    /// An anchor on the same page.
    SamePage { anchor: String },
    /// A path that climbs above the content folder.
    OutsideContent,
    /// A file that is not a page (an image, a download), left as written.
    Asset,
}

/// Resolves `dest` written in the page at `route`, whose Markdown file is `file_route_dir`
/// (the route of the folder holding the file, e.g. `/documentation/mediation/android`).
pub fn resolve(dest: &str, route: &str, file_dir: &str) -> Target {
    if dest.is_empty() {
        return Target::External;
    }
    if dest.starts_with("//") || has_scheme(dest) {
        return Target::External;
    }
    let (path, anchor) = match dest.split_once('#') {
        Some((p, a)) => (p, Some(a)),
        None => (dest, None),
    };
    let path = path.split('?').next().unwrap_or("");
    if path.is_empty() {
        return match anchor {
            Some(a) => Target::SamePage {
                anchor: percent_decode(a),
            },
            None => Target::External,
        };
    }
    let is_markdown = path.ends_with(".md") || path.ends_with(".mdx");
    let last = path.rsplit('/').next().unwrap_or("");
    if !is_markdown && last.contains('.') && !last.ends_with(".html") {
        return Target::Asset;
    }
    let base = if path.starts_with('/') {
        "/"
    } else if is_markdown {
        file_dir
    } else {
        // Like a browser at the route's URL: relative to the route's parent.
        parent(route)
    };
    let Some(joined) = join(base, path) else {
        return Target::OutsideContent;
    };
    let route = route_of_path(&joined);
    Target::Page {
        route,
        anchor: anchor.map(percent_decode),
    }
}

/// `route` in the locale whose route prefix is `prefix` (`/zh`; "" for the default), unless it
/// already names a locale (one of `prefixes`): every page exists in every locale.
pub fn localise(route: &mut String, prefix: &str, prefixes: &[String]) {
    if prefix.is_empty() {
        return;
    }
    let under = |p: &str| {
        route == p || (route.starts_with(p) && route.as_bytes().get(p.len()) == Some(&b'/'))
    };
    if prefixes.iter().any(|p| under(p)) {
        return;
    }
    *route = if route == "/" {
        prefix.to_string()
    } else {
        format!("{prefix}{route}")
    };
}

/// `guide/intro.md` or `intro.mdx#a`: a path to a Markdown file relative to the page, not
/// climbing (`../`) or starting from the top (`/`).
pub fn is_relative_markdown(dest: &str) -> bool {
    let path = dest.split(['#', '?']).next().unwrap_or("");
    (path.ends_with(".md") || path.ends_with(".mdx"))
        && !path.starts_with('/')
        && !path.starts_with("../")
        && !has_scheme(path)
}

fn has_scheme(s: &str) -> bool {
    match s.find(':') {
        Some(i) => {
            s[..i]
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || "+-.".contains(c))
                && i > 0
                && !s[..i].contains('/')
        }
        None => false,
    }
}

fn parent(route: &str) -> &str {
    match route.rfind('/') {
        Some(0) | None => "/",
        Some(i) => &route[..i],
    }
}

/// Joins a relative path onto a base folder, normalising `.` and `..`; `None` if it climbs
/// above the root.
fn join(base: &str, rel: &str) -> Option<String> {
    let mut parts: Vec<&str> = if rel.starts_with('/') {
        Vec::new()
    } else {
        base.split('/').filter(|s| !s.is_empty()).collect()
    };
    for seg in rel.split('/') {
        match seg {
            "" | "." => {}
            ".." => {
                parts.pop()?;
            }
            s => parts.push(s),
        }
    }
    Some(format!("/{}", parts.join("/")))
}

/// `/a/b.md` → `/a/b`, `/a/_index.md` (or `index.md`, `README.md`, `index.html`) → `/a`,
/// `/a/` → `/a`.
pub fn route_of_path(path: &str) -> String {
    let mut p = path.trim_end_matches('/');
    let index_names = crate::config::INDEX_NAMES
        .iter()
        .copied()
        .chain(["index.html"]);
    for name in index_names {
        if p == name {
            p = "";
            break;
        }
        if let Some(stripped) = p.strip_suffix(name).and_then(|s| s.strip_suffix('/')) {
            p = stripped;
            break;
        }
    }
    let p = p
        .strip_suffix(".md")
        .or_else(|| p.strip_suffix(".mdx"))
        .or_else(|| p.strip_suffix(".html"))
        .unwrap_or(p);
    if p.is_empty() {
        "/".to_string()
    } else {
        p.to_string()
    }
}

/// Decodes `%XX` escapes so `#a%20b` and `#a b` name the same anchor.
pub fn percent_decode(s: &str) -> String {
    percent_encoding::percent_decode_str(s)
        .decode_utf8_lossy()
        .into_owned()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn page(route: &str, anchor: Option<&str>) -> Target {
        Target::Page {
            route: route.into(),
            anchor: anchor.map(Into::into),
        }
    }

    #[test]
    fn routes_and_markdown_paths() {
        let r = "/docs/android/banners";
        let dir = "/docs/android";
        assert_eq!(resolve("/docs/ios", r, dir), page("/docs/ios", None));
        assert_eq!(
            resolve("/docs/ios/#x", r, dir),
            page("/docs/ios", Some("x"))
        );
        assert_eq!(resolve("../ios/_index.md", r, dir), page("/docs/ios", None));
        assert_eq!(
            resolve("./app-open.md#load", r, dir),
            page("/docs/android/app-open", Some("load"))
        );
        assert_eq!(
            resolve("interstitials", r, dir),
            page("/docs/android/interstitials", None)
        );
        assert_eq!(
            resolve("#top", r, dir),
            Target::SamePage {
                anchor: "top".into()
            }
        );
        assert_eq!(resolve("https://x.test/a", r, dir), Target::External);
        assert_eq!(resolve("mailto:a@b.c", r, dir), Target::External);
        assert_eq!(resolve("/s/logo.svg", r, dir), Target::Asset);
        assert_eq!(resolve("../../../x.md", r, dir), Target::OutsideContent);
        assert_eq!(resolve("/_index.md", r, dir), page("/", None));
        assert_eq!(resolve("../ios/README.md", r, dir), page("/docs/ios", None));
        assert_eq!(
            resolve("README.md#a", r, dir),
            page("/docs/android", Some("a"))
        );
        assert_eq!(
            resolve("intro.mdx", r, dir),
            page("/docs/android/intro", None)
        );
        assert_eq!(
            resolve("NOTREADME.md", r, dir),
            page("/docs/android/NOTREADME", None)
        );
    }

    #[test]
    fn links_stay_in_their_locale() {
        let prefixes = ["/zh".to_string(), "/ar".to_string()];
        let localised = |r: &str, p: &str| {
            let mut r = r.to_string();
            localise(&mut r, p, &prefixes);
            r
        };
        assert_eq!(localised("/docs/a", "/zh"), "/zh/docs/a");
        assert_eq!(localised("/", "/zh"), "/zh");
        assert_eq!(localised("/ar/docs", "/zh"), "/ar/docs");
        assert_eq!(localised("/zhx", "/zh"), "/zh/zhx");
        assert_eq!(localised("/docs/a", ""), "/docs/a");
    }

    #[test]
    fn anchors_are_percent_decoded() {
        assert_eq!(percent_decode("a%20b"), "a b");
        assert_eq!(percent_decode("100%"), "100%");
    }
}
