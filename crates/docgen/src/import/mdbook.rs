//! mdBook: `book.toml` and `SUMMARY.md` in docgen's terms.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

use toml::de::{DeTable, DeValue};

use super::{Category, Converted, Item, Redirects, note};
use crate::diagnostics::Diagnostic;

pub fn convert(src: &Path) -> Result<Converted, Diagnostic> {
    let book_path = src.join("book.toml");
    let text = std::fs::read_to_string(&book_path).map_err(|e| {
        Diagnostic::new(
            "usage.import-source",
            format!("{}: {e}", book_path.display()),
        )
        .hint("pass the folder that holds the book's book.toml")
    })?;
    let mut c = Converted::default();
    let table = DeTable::parse(&text).map_err(|e| {
        let line = e.span().map_or(1, |s| line_of(&text, s.start));
        Diagnostic::new(
            "usage.import-source",
            format!("book.toml is not valid TOML: {}", e.message()),
        )
        .in_file("book.toml")
        .at(line, 1)
    })?;
    let table = table.get_ref();
    c.content = PathBuf::from("src");
    read_book_toml(table, &text, &mut c);
    let content = src.join(&c.content);
    let summary_path = content.join("SUMMARY.md");
    let summary = std::fs::read_to_string(&summary_path).map_err(|e| {
        Diagnostic::new(
            "usage.import-source",
            format!("{}: {e}", summary_path.display()),
        )
        .hint("an mdBook's chapters are listed in SUMMARY.md in its src folder")
    })?;
    let summary_file = c.content.join("SUMMARY.md");
    let chapters = parse_summary(&summary, &summary_file, &mut c.notes);
    menus(&content, &chapters, &summary_file, &mut c);
    let redirect_table = table
        .get("output")
        .and_then(|o| as_table(o.get_ref()))
        .and_then(|o| o.get("html"))
        .and_then(|h| as_table(h.get_ref()))
        .and_then(|h| h.get("redirect"))
        .and_then(|r| as_table(r.get_ref()));
    if let Some(r) = redirect_table {
        redirects(r, &text, &content, &mut c);
    }
    Ok(c)
}

fn as_table<'a, 'i>(v: &'a DeValue<'i>) -> Option<&'a DeTable<'i>> {
    match v {
        DeValue::Table(t) => Some(t),
        _ => None,
    }
}

fn line_of(text: &str, offset: usize) -> usize {
    text[..offset.min(text.len())].matches('\n').count() + 1
}

/// The book.toml keys docgen reads; every other key is listed.
fn read_book_toml(table: &DeTable<'_>, text: &str, c: &mut Converted) {
    let mut skipped = Vec::new();
    for (key, value) in table {
        let line = line_of(text, key.span().start);
        match (key.get_ref().as_ref(), value.get_ref()) {
            ("book", DeValue::Table(book)) => {
                for (k, v) in book {
                    let line = line_of(text, k.span().start);
                    match (k.get_ref().as_ref(), v.get_ref().as_str()) {
                        ("title", Some(t)) => c.site.title = Some(t.to_string()),
                        ("src", Some(s)) => c.content = PathBuf::from(s),
                        ("language", Some("en")) => {}
                        (other, _) => skipped.push((line, format!("[book] {other}"))),
                    }
                }
            }
            ("output", DeValue::Table(outputs)) => {
                for (name, out) in outputs {
                    let line = line_of(text, name.span().start);
                    match (name.get_ref().as_ref(), out.get_ref()) {
                        ("html", DeValue::Table(html)) => read_html(html, text, c, &mut skipped),
                        (other, _) => skipped.push((line, format!("[output.{other}]"))),
                    }
                }
            }
            (other, DeValue::Table(t)) if !t.is_empty() => {
                for (name, v) in t {
                    let line = line_of(text, name.span().start);
                    let key = match v.get_ref() {
                        DeValue::Table(_) => format!("[{other}.{}]", name.get_ref()),
                        _ => format!("[{other}] {}", name.get_ref()),
                    };
                    skipped.push((line, key));
                }
            }
            (other, _) => skipped.push((line, format!("[{other}]"))),
        }
    }
    for (line, key) in skipped {
        c.notes.push(note(
            "import.not-converted",
            "book.toml",
            line,
            // A key with its own explanation says what to do instead.
            if key.contains(": ") {
                key
            } else {
                format!("{key}: docgen has no equivalent")
            },
        ));
    }
}

fn read_html(
    html: &DeTable<'_>,
    text: &str,
    c: &mut Converted,
    skipped: &mut Vec<(usize, String)>,
) {
    let mut cname = None;
    let mut site_url = None;
    for (k, v) in html {
        let line = line_of(text, k.span().start);
        let key = k.get_ref().as_ref();
        match (key, v.get_ref()) {
            ("mathjax-support", DeValue::Boolean(on)) => {
                c.site.math = *on;
                c.site.math_brackets = *on;
            }
            ("site-url", DeValue::String(u)) => site_url = Some((line, u.to_string())),
            ("cname", DeValue::String(h)) => cname = Some(h.to_string()),
            ("git-repository-url", DeValue::String(u)) => {
                c.site.menu_links.push(("Git repository".into(), u.to_string()))
            }
            ("edit-url-template", DeValue::String(t)) => match t.strip_suffix("/{path}") {
                Some(base) if !base.contains('{') => {
                    c.site.edit_url = Some((
                        base.to_string(),
                        note(
                            "import.not-converted",
                            "book.toml",
                            line,
                            "edit-url-template: the pages' paths differ from the book's outside the book's folder; set editUrl by hand".into(),
                        ),
                    ))
                }
                _ => skipped.push((line, format!("[output.html] edit-url-template = \"{t}\" (docgen appends the file's path to editUrl; this template is not of the form .../{{path}})"))),
            },
            // Read with the redirects of the pages.
            ("redirect", _) => {}
            // mdBook's own default; docgen does the same.
            ("search", DeValue::Table(s)) if s.keys().all(|k| k.get_ref() == "enable") => {}
            (other, DeValue::Table(_)) => skipped.push((line, format!("[output.html.{other}]"))),
            (other, _) => skipped.push((line, format!("[output.html] {other}"))),
        }
    }
    if let Some((line, path)) = site_url {
        match cname {
            Some(host) => c.site.url = Some(format!("https://{host}{}", path.trim_end_matches('/'))),
            None if path.trim_matches('/').is_empty() => {}
            None => skipped.push((
                line,
                format!("[output.html] site-url = \"{path}\": docgen's base path comes with the address; set url: https://HOST{path}"),
            )),
        }
    }
}

/// One entry of SUMMARY.md.
#[derive(Debug)]
struct Chapter {
    label: String,
    /// The file relative to the content folder; `None` for a draft.
    file: Option<PathBuf>,
    line: usize,
    children: Vec<Chapter>,
}

/// The chapters of SUMMARY.md as a tree; part titles, separators and drafts are noted.
fn parse_summary(text: &str, file: &Path, notes: &mut Vec<Diagnostic>) -> Vec<Chapter> {
    // (indent, chapter) stack of open list items.
    let mut roots: Vec<Chapter> = Vec::new();
    let mut stack: Vec<(usize, Chapter)> = Vec::new();
    let mut seen_title = false;
    let mut fenced = false;
    fn close(stack: &mut Vec<(usize, Chapter)>, roots: &mut Vec<Chapter>, min_indent: usize) {
        while stack.last().is_some_and(|(i, _)| *i >= min_indent) {
            let (_, ch) = stack.pop().expect("checked");
            match stack.last_mut() {
                Some((_, parent)) => parent.children.push(ch),
                None => roots.push(ch),
            }
        }
    }
    for (i, raw) in text.lines().enumerate() {
        let line = i + 1;
        let trimmed = raw.trim_start();
        if trimmed.starts_with("```") {
            fenced = !fenced;
        }
        if fenced || trimmed.is_empty() {
            continue;
        }
        let indent = raw.len() - trimmed.len();
        if let Some(h) = trimmed.strip_prefix("# ") {
            close(&mut stack, &mut roots, 0);
            if seen_title || !roots.is_empty() {
                notes.push(note(
                    "import.not-converted",
                    file,
                    line,
                    format!("part title \"{}\": docgen's menu has no part titles; the chapters keep their order", h.trim()),
                ));
            }
            seen_title = true;
            continue;
        }
        if trimmed.chars().all(|c| c == '-') && trimmed.len() >= 3 {
            close(&mut stack, &mut roots, 0);
            notes.push(note(
                "import.not-converted",
                file,
                line,
                "separator: docgen's menu has no separators".into(),
            ));
            continue;
        }
        let item = trimmed
            .strip_prefix("- ")
            .or_else(|| trimmed.strip_prefix("* "))
            .or_else(|| {
                let digits = trimmed.chars().take_while(char::is_ascii_digit).count();
                (digits > 0)
                    .then(|| trimmed[digits..].strip_prefix(". "))
                    .flatten()
            });
        let (is_list, body) = match item {
            Some(b) => (true, b.trim()),
            None => (false, trimmed.trim()),
        };
        let Some((label, target)) = link(body) else {
            continue;
        };
        let file_path = (!target.is_empty()).then(|| {
            let target = target.split('#').next().unwrap_or("");
            PathBuf::from(
                percent_encoding::percent_decode_str(target)
                    .decode_utf8_lossy()
                    .as_ref(),
            )
        });
        if file_path.is_none() {
            notes.push(note(
                "import.draft",
                file,
                line,
                format!(
                    "draft chapter \"{label}\": it has no file, so docgen's menu leaves it out"
                ),
            ));
        }
        let ch = Chapter {
            label,
            file: file_path,
            line,
            children: Vec::new(),
        };
        if is_list {
            close(&mut stack, &mut roots, indent);
            stack.push((indent, ch));
        } else {
            // A prefix or suffix chapter: a link alone on its line.
            close(&mut stack, &mut roots, 0);
            roots.push(ch);
        }
    }
    close(&mut stack, &mut roots, 0);
    roots
}

/// `[label](target)` → (label, target).
fn link(s: &str) -> Option<(String, String)> {
    let s = s.strip_prefix('[')?;
    let mut depth = 1;
    let mut end = None;
    for (i, ch) in s.char_indices() {
        match ch {
            '[' => depth += 1,
            ']' => {
                depth -= 1;
                if depth == 0 {
                    end = Some(i);
                    break;
                }
            }
            _ => {}
        }
    }
    let end = end?;
    let label = s[..end].replace("\\", "");
    let rest = s[end + 1..].strip_prefix('(')?;
    let target = rest[..rest.rfind(')')?].trim().to_string();
    Some((label, target))
}

fn is_index(name: &str) -> bool {
    matches!(name, "README.md" | "index.md" | "_index.md")
}

/// The folder whose menu lists a file: its own folder, or for a folder's index page the
/// folder above (where the folder itself is listed).
fn menu_folder(file: &Path) -> (PathBuf, String) {
    let name = file
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let parent = file.parent().unwrap_or(Path::new("")).to_path_buf();
    if is_index(&name) && parent != Path::new("") {
        let folder = parent
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        (
            parent.parent().unwrap_or(Path::new("")).to_path_buf(),
            folder,
        )
    } else {
        (parent, name)
    }
}

/// The folder a chapter's children sit in when the menu follows the folders.
fn children_folder(file: &Path) -> PathBuf {
    let name = file
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    if is_index(&name) {
        file.parent().unwrap_or(Path::new("")).to_path_buf()
    } else {
        file.with_extension("")
    }
}

/// `_category_.yaml` per folder: the order and labels of SUMMARY.md, and every page or
/// folder SUMMARY.md does not list kept out of the menu.
fn menus(content: &Path, chapters: &[Chapter], summary: &Path, c: &mut Converted) {
    let mut items: BTreeMap<PathBuf, Vec<Item>> = BTreeMap::new();
    let mut listed: BTreeMap<PathBuf, BTreeSet<String>> = BTreeMap::new();
    fn walk(
        chapters: &[Chapter],
        expected: &Path,
        content: &Path,
        summary: &Path,
        items: &mut BTreeMap<PathBuf, Vec<Item>>,
        listed: &mut BTreeMap<PathBuf, BTreeSet<String>>,
        notes: &mut Vec<Diagnostic>,
    ) {
        for ch in chapters {
            let Some(file) = &ch.file else {
                walk(
                    &ch.children,
                    expected,
                    content,
                    summary,
                    items,
                    listed,
                    notes,
                );
                continue;
            };
            let (folder, name) = menu_folder(file);
            if !content.join(file).is_file() {
                notes.push(note(
                    "import.missing-file",
                    summary,
                    ch.line,
                    format!(
                        "\"{}\" links to {}, which does not exist",
                        ch.label,
                        file.display()
                    ),
                ));
            }
            if folder != expected {
                notes.push(note(
                    "import.nesting",
                    summary,
                    ch.line,
                    format!(
                        "\"{}\" is nested under {} in SUMMARY.md, but its file is in {}: docgen's menu follows the folders",
                        ch.label,
                        if expected.as_os_str().is_empty() { "the top".to_string() } else { format!("{}/", expected.display()) },
                        if folder.as_os_str().is_empty() { "the top folder".to_string() } else { format!("{}/", folder.display()) },
                    ),
                ));
            }
            // The book's first page is the site's home, not a menu item.
            if file.parent().is_some_and(|p| p.as_os_str().is_empty()) && is_index(&name) {
                walk(
                    &ch.children,
                    &children_folder(file),
                    content,
                    summary,
                    items,
                    listed,
                    notes,
                );
                continue;
            }
            // Each folder's index page and every ancestor folder are listed in their parents.
            let mut at = folder.clone();
            let mut entry = name.clone();
            loop {
                let set = listed.entry(at.clone()).or_default();
                let first = set.insert(entry.clone());
                if at == folder {
                    let title = std::fs::read_to_string(content.join(file))
                        .map(|t| super::page_title(&t, file))
                        .unwrap_or_default();
                    let label = (title != ch.label).then(|| ch.label.clone());
                    let list = items.entry(at.clone()).or_default();
                    match list.iter_mut().find(|i| i.name == entry) {
                        // Listed before as the folder of an earlier chapter.
                        Some(item) if item.label.is_none() => item.label = label,
                        Some(_) => {}
                        None => list.push(Item {
                            name: entry.clone(),
                            label,
                        }),
                    }
                } else if first {
                    items.entry(at.clone()).or_default().push(Item {
                        name: entry.clone(),
                        label: None,
                    });
                }
                let Some(parent) = at.parent().map(Path::to_path_buf) else {
                    break;
                };
                if at.as_os_str().is_empty() {
                    break;
                }
                entry = at
                    .file_name()
                    .map(|n| n.to_string_lossy().into_owned())
                    .unwrap_or_default();
                at = parent;
            }
            walk(
                &ch.children,
                &children_folder(file),
                content,
                summary,
                items,
                listed,
                notes,
            );
        }
    }
    walk(
        chapters,
        Path::new(""),
        content,
        summary,
        &mut items,
        &mut listed,
        &mut c.notes,
    );
    // What the menu would show that SUMMARY.md does not list.
    let mut pages = 0;
    let mut folders: BTreeSet<PathBuf> = BTreeSet::new();
    folders.insert(PathBuf::new());
    for entry in walkdir::WalkDir::new(content)
        .sort_by_file_name()
        .into_iter()
        .flatten()
    {
        let rel = entry
            .path()
            .strip_prefix(content)
            .unwrap_or(entry.path())
            .to_path_buf();
        if rel.as_os_str().is_empty() {
            continue;
        }
        let name = rel
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        if name.starts_with('_') || name.starts_with('.') {
            continue;
        }
        if entry.file_type().is_dir() {
            folders.insert(rel);
        } else if super::is_markdown(&rel) {
            pages += 1;
        }
    }
    c.pages = pages;
    for folder in &folders {
        let mut hidden = Vec::new();
        let Ok(read) = std::fs::read_dir(content.join(folder)) else {
            continue;
        };
        let mut names: Vec<(String, bool)> = read
            .flatten()
            .map(|e| {
                (
                    e.file_name().to_string_lossy().into_owned(),
                    e.path().is_dir(),
                )
            })
            .collect();
        names.sort();
        let set = listed.get(folder);
        for (name, is_dir) in names {
            if name.starts_with('_') || name.starts_with('.') || is_index(&name) {
                continue;
            }
            let shown = if is_dir {
                has_pages(&content.join(folder).join(&name))
            } else {
                super::is_markdown(Path::new(&name))
            };
            if shown && !set.is_some_and(|s| s.contains(&name)) {
                hidden.push(name);
            }
        }
        let list = items.remove(folder).unwrap_or_default();
        // A folder SUMMARY.md never names is hidden from its parent: nothing to write inside.
        let untouched = set.is_none() && !folder.as_os_str().is_empty();
        if untouched || (list.is_empty() && hidden.is_empty()) {
            continue;
        }
        c.categories.insert(
            folder.clone(),
            Category {
                items: list,
                hidden,
                ..Category::default()
            },
        );
    }
}

fn has_pages(dir: &Path) -> bool {
    walkdir::WalkDir::new(dir)
        .into_iter()
        .flatten()
        .any(|e| e.file_type().is_file() && super::is_markdown(e.path()))
}

/// `[output.html.redirect]`: `"/old/page.html" = "../new/page.html"` as legacy routes, when
/// they share a base that holds no page (a legacy route may not shadow a page).
fn redirects(table: &DeTable<'_>, text: &str, content: &Path, c: &mut Converted) {
    let mut pairs = Vec::new();
    for (from, to) in table {
        let line = line_of(text, from.span().start);
        let from = from.get_ref().to_string();
        let Some(to) = to.get_ref().as_str() else {
            continue;
        };
        let from_route = route_of_html(from.trim_start_matches('/'));
        let to_joined = if to.starts_with('/') {
            Some(PathBuf::from(to.trim_start_matches('/')))
        } else if to.contains("://") {
            None
        } else {
            let dir = Path::new(from.trim_start_matches('/'))
                .parent()
                .unwrap_or(Path::new(""));
            super::normalise(&dir.join(to.split('#').next().unwrap_or("")))
        };
        match to_joined {
            Some(t) if !to.contains('#') => {
                pairs.push((line, from_route, route_of_html(&t.to_string_lossy())))
            }
            _ => c.notes.push(note(
                "import.not-converted",
                "book.toml",
                line,
                format!("redirect \"{from}\" = \"{to}\": docgen's legacy routes lead to a page of the site, without an anchor"),
            )),
        }
    }
    if pairs.is_empty() {
        return;
    }
    // The longest folder every legacy route shares.
    let first: Vec<&str> = pairs[0].1.split('/').collect();
    let mut common = first.len().saturating_sub(1);
    for (_, from, _) in &pairs {
        let parts: Vec<&str> = from.split('/').collect();
        common = common.min(parts.len().saturating_sub(1));
        common = (0..common).take_while(|&i| parts[i] == first[i]).count();
    }
    let base = first[..common].join("/");
    let base_holds_pages = base.trim_matches('/').is_empty()
        || content.join(base.trim_start_matches('/')).exists()
        || content
            .join(format!("{}.md", base.trim_start_matches('/')))
            .exists();
    if base_holds_pages {
        for (line, from, _) in pairs {
            c.notes.push(note(
                "import.not-converted",
                "book.toml",
                line,
                format!("redirect from {from}: docgen's legacy routes live under a base path that holds no pages, and these redirects share none"),
            ));
        }
        return;
    }
    c.redirects = Some(Redirects {
        legacy_base: base.clone(),
        rules: pairs
            .into_iter()
            .map(|(_, from, to)| (from[base.len()..].trim_start_matches('/').to_string(), to))
            .collect(),
    });
}

/// `a/b.html` → `/a/b`; `a/index.html` → `/a`.
fn route_of_html(path: &str) -> String {
    let p = path.trim_end_matches(".html").trim_end_matches(".md");
    let p = p
        .strip_suffix("/index")
        .or_else(|| p.strip_suffix("/README"))
        .unwrap_or(p);
    let p = if p == "index" || p == "README" { "" } else { p };
    format!("/{}", p.trim_matches('/'))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn summary_reads_parts_nesting_prefix_and_drafts() {
        let mut notes = Vec::new();
        let text = "# Summary\n\n[Intro](README.md)\n\n# Guide\n\n- [A](a/README.md)\n    - [B](a/b.md)\n  - [C](a/c.md)\n- [Draft]()\n---\n[End](end.md)\n";
        let ch = parse_summary(text, Path::new("src/SUMMARY.md"), &mut notes);
        let labels: Vec<_> = ch.iter().map(|c| c.label.as_str()).collect();
        assert_eq!(labels, ["Intro", "A", "Draft", "End"]);
        assert_eq!(ch[1].children.len(), 2);
        let codes: Vec<_> = notes.iter().map(|n| (n.code, n.line)).collect();
        assert_eq!(
            codes,
            [
                ("import.not-converted", 5),
                ("import.draft", 10),
                ("import.not-converted", 11)
            ]
        );
    }

    #[test]
    fn html_paths_become_routes() {
        assert_eq!(route_of_html("a/b.html"), "/a/b");
        assert_eq!(route_of_html("a/index.html"), "/a");
        assert_eq!(route_of_html("index.html"), "/");
    }
}
