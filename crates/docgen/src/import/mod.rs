//! `docgen import mdbook|docusaurus SRC [DEST]`: writes docgen's configuration (`site.yaml`,
//! `_category_.yaml` files, `redirects.yaml`) for an existing book or Docusaurus site. Pages
//! are never changed: in place the new files sit beside the book's own and `content:` points
//! at its folder; with another DEST the content tree is copied as it is. Only new files are
//! written. Whatever has no docgen equivalent is listed with its file and line.

pub mod docusaurus;
pub mod js;
pub mod mdbook;

use std::collections::BTreeMap;
use std::path::{Component, Path, PathBuf};

use crate::diagnostics::Diagnostic;
use crate::scaffold::write_new;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    Mdbook,
    Docusaurus,
}

impl Kind {
    fn name(self) -> &'static str {
        match self {
            Kind::Mdbook => "mdbook",
            Kind::Docusaurus => "docusaurus",
        }
    }
}

/// What a converter read: the site's configuration in docgen's terms and what it could not
/// express. Paths of notes are relative to the source folder.
#[derive(Debug, Default)]
pub struct Converted {
    /// The content folder, relative to the source folder (`src`, `docs`).
    pub content: PathBuf,
    pub site: Site,
    /// `_category_.yaml` files to write, by folder relative to the content folder.
    pub categories: BTreeMap<PathBuf, Category>,
    /// Legacy routes, relative to the content folder's routes.
    pub redirects: Option<Redirects>,
    /// A folder of static files to copy to `static/` when importing elsewhere.
    pub static_dir: Option<PathBuf>,
    pub notes: Vec<Diagnostic>,
    /// The pages docgen will build from the content folder.
    pub pages: usize,
}

/// The `site.yaml` keys an import can set.
#[derive(Debug, Default)]
pub struct Site {
    pub title: Option<String>,
    pub url: Option<String>,
    pub copyright: Option<String>,
    pub logo: Option<String>,
    /// Holds only when the pages keep their paths relative to the site root (in place).
    pub edit_url: Option<(String, Diagnostic)>,
    pub menu_links: Vec<(String, String)>,
    pub footer: Vec<(String, String)>,
    pub math: bool,
    pub math_brackets: bool,
}

#[derive(Debug, Default, Clone, PartialEq)]
pub struct Category {
    pub label: Option<String>,
    pub position: Option<i64>,
    pub items: Vec<Item>,
    pub hidden: Vec<String>,
}

#[derive(Debug, Clone, PartialEq)]
pub struct Item {
    pub name: String,
    pub label: Option<String>,
}

#[derive(Debug, Default)]
pub struct Redirects {
    pub legacy_base: String,
    /// (from relative to the base, to) pairs.
    pub rules: Vec<(String, String)>,
}

/// The result of an import: the files written and what was not converted.
#[derive(Debug)]
pub struct Outcome {
    pub kind: Kind,
    /// The docgen site root.
    pub root: PathBuf,
    /// New files, relative to the site root.
    pub written: Vec<PathBuf>,
    /// Files copied into `content/` and `static/` (imports into another folder).
    pub copied: usize,
    pub pages: usize,
    pub notes: Vec<Diagnostic>,
}

/// A note for the report: something of the source with no docgen equivalent.
pub fn note(
    code: &'static str,
    file: impl AsRef<Path>,
    line: usize,
    message: String,
) -> Diagnostic {
    Diagnostic::new(code, message)
        .in_file(file)
        .at(line, 1)
        .warning()
}

pub fn run(kind: Kind, src: &Path, dest: Option<&Path>) -> Result<Outcome, Diagnostic> {
    if !src.is_dir() {
        return Err(Diagnostic::new(
            "usage.import-source",
            format!("{} is not a folder", src.display()),
        )
        .hint("pass the folder that holds book.toml or docusaurus.config.js"));
    }
    let mut converted = match kind {
        Kind::Mdbook => mdbook::convert(src)?,
        Kind::Docusaurus => docusaurus::convert(src)?,
    };
    let same = dest.is_none_or(|d| crate::paths::resolve(d) == crate::paths::resolve(src));
    let root = dest.unwrap_or(src).to_path_buf();
    let mut files: Vec<(PathBuf, Vec<u8>)> = Vec::new();
    let mut copies: Vec<(PathBuf, PathBuf)> = Vec::new();
    let content_in_site = if same {
        converted.content.clone()
    } else {
        let from = src.join(&converted.content);
        collect_copies(&from, Path::new("content"), &mut copies)?;
        if let Some(dir) = &converted.static_dir
            && src.join(dir).is_dir()
        {
            collect_copies(&src.join(dir), Path::new("static"), &mut copies)?;
        }
        list_escaping_includes(src, &converted.content, &mut converted.notes);
        PathBuf::from("content")
    };
    if !same && let Some((_, why)) = converted.site.edit_url.take() {
        converted.notes.push(why);
    }
    files.push((
        PathBuf::from("site.yaml"),
        site_yaml(kind, &converted, &content_in_site).into_bytes(),
    ));
    for (folder, category) in &converted.categories {
        let rel = content_in_site.join(folder).join("_category_.yaml");
        files.push((rel, category_yaml(category).into_bytes()));
    }
    if let Some(r) = &converted.redirects {
        files.push((
            PathBuf::from("redirects.yaml"),
            redirects_yaml(r).into_bytes(),
        ));
    }
    // Nothing is written unless every file is new.
    let targets = files
        .iter()
        .map(|(p, _)| p)
        .chain(copies.iter().map(|(_, p)| p));
    for rel in targets {
        let path = root.join(rel);
        if path.exists() || path.is_symlink() {
            return Err(Diagnostic::new(
                "usage.file-exists",
                format!(
                    "{} exists; docgen import never changes an existing file",
                    path.display()
                ),
            )
            .hint("move it away (or import into another folder: `docgen import KIND SRC DEST`)"));
        }
    }
    for (from, rel) in &copies {
        let to = root.join(rel);
        make_parent(&to)?;
        let bytes = std::fs::read(from).map_err(|e| io_error(from, &e))?;
        write_new(&to, &bytes)?;
    }
    let mut written = Vec::new();
    for (rel, bytes) in files {
        let path = root.join(&rel);
        make_parent(&path)?;
        write_new(&path, &bytes)?;
        written.push(rel);
    }
    let mut notes = converted.notes;
    notes.sort_by(|a, b| (&a.file, a.line, &a.message).cmp(&(&b.file, b.line, &b.message)));
    Ok(Outcome {
        kind,
        root,
        written,
        copied: copies.len(),
        pages: converted.pages,
        notes,
    })
}

fn make_parent(path: &Path) -> Result<(), Diagnostic> {
    match path.parent() {
        Some(p) => std::fs::create_dir_all(p).map_err(|e| io_error(p, &e)),
        None => Ok(()),
    }
}

fn io_error(path: &Path, e: &std::io::Error) -> Diagnostic {
    Diagnostic::new("usage.io", format!("{}: {e}", path.display()))
}

/// Every file under `from`, to be copied under `to` unchanged (symbolic links are skipped).
fn collect_copies(
    from: &Path,
    to: &Path,
    out: &mut Vec<(PathBuf, PathBuf)>,
) -> Result<(), Diagnostic> {
    for entry in walkdir::WalkDir::new(from).sort_by_file_name() {
        let entry = entry.map_err(|e| Diagnostic::new("usage.io", e.to_string()))?;
        if entry.file_type().is_file() {
            let rel = entry
                .path()
                .strip_prefix(from)
                .expect("walked below `from`");
            out.push((entry.path().to_path_buf(), to.join(rel)));
        }
    }
    Ok(())
}

/// The `{{#include}}`-style directives of every page that reach outside the content folder:
/// once the tree is copied elsewhere they no longer resolve.
fn list_escaping_includes(src: &Path, content: &Path, notes: &mut Vec<Diagnostic>) {
    let root = src.join(content);
    for entry in walkdir::WalkDir::new(&root)
        .sort_by_file_name()
        .into_iter()
        .flatten()
    {
        let path = entry.path();
        if !is_markdown(path) {
            continue;
        }
        let Ok(text) = std::fs::read_to_string(path) else {
            continue;
        };
        let page_dir = path
            .parent()
            .unwrap_or(&root)
            .strip_prefix(&root)
            .unwrap_or(Path::new(""));
        for (line, target) in include_targets(&text) {
            let joined = normalise(&page_dir.join(&target));
            if joined.is_none() {
                let file = content.join(path.strip_prefix(&root).unwrap_or(path));
                notes.push(note(
                    "import.include-outside",
                    file,
                    line,
                    format!(
                        "`{target}` is outside the copied content folder: the include is not converted (import in place to keep it)"
                    ),
                ));
            }
        }
    }
}

/// The files named by mdBook's include directives (`{{#include f}}`, `{{#include f:anchor}}`,
/// `{{#rustdoc_include f:1:3}}`, `{{#playground f}}`), with their lines.
pub fn include_targets(text: &str) -> Vec<(usize, String)> {
    let mut out = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let mut rest = line;
        while let Some(start) = rest.find("{{#") {
            let after = &rest[start + 3..];
            let Some(end) = after.find("}}") else { break };
            let inner = after[..end].trim();
            let (directive, arg) = inner.split_once(char::is_whitespace).unwrap_or((inner, ""));
            if matches!(
                directive,
                "include" | "rustdoc_include" | "playground" | "playpen"
            ) {
                let file = arg.split_whitespace().next().unwrap_or("");
                let file = file.split(':').next().unwrap_or("");
                if !file.is_empty() {
                    out.push((i + 1, file.to_string()));
                }
            }
            rest = &after[end + 2..];
        }
    }
    out
}

/// `a/../b` → `b`; `None` when the path climbs above its start.
pub fn normalise(path: &Path) -> Option<PathBuf> {
    let mut out = PathBuf::new();
    for c in path.components() {
        match c {
            Component::Normal(p) => out.push(p),
            Component::CurDir => {}
            Component::ParentDir => {
                if !out.pop() {
                    return None;
                }
            }
            _ => return None,
        }
    }
    Some(out)
}

pub fn is_markdown(path: &Path) -> bool {
    matches!(
        path.extension().and_then(|e| e.to_str()),
        Some("md" | "mdx" | "markdown")
    )
}

/// The title docgen gives a page: front matter `title`, else the first `# H1`, else the file
/// name as the content stage makes it (`content::title_from_name`, a folder's own page by its
/// folder). Used to write a menu label only where the source's label differs.
pub fn page_title(text: &str, file: &Path) -> String {
    let split = crate::content::frontmatter::split(text);
    if let Some((yaml, _)) = split.yaml {
        for line in yaml.lines() {
            if let Some(v) = line.strip_prefix("title:") {
                return unquote(v.trim()).to_string();
            }
        }
    }
    let mut fenced = false;
    for line in split.body.lines() {
        let t = line.trim_start();
        if t.starts_with("```") || t.starts_with("~~~") {
            fenced = !fenced;
        }
        if !fenced && let Some(h) = t.strip_prefix("# ") {
            return h.trim().trim_end_matches('#').trim().to_string();
        }
    }
    let is_index = crate::content::route_of(file).1;
    let named = if is_index {
        file.parent().unwrap_or(file)
    } else {
        file
    };
    crate::content::title_from_name(named)
}

fn unquote(v: &str) -> &str {
    v.strip_prefix('"')
        .and_then(|v| v.strip_suffix('"'))
        .or_else(|| v.strip_prefix('\'').and_then(|v| v.strip_suffix('\'')))
        .unwrap_or(v)
}

/// A YAML scalar: plain when it reads back as the same string, else double-quoted (JSON's
/// escaping is valid YAML).
pub fn yaml_str(s: &str) -> String {
    let plain = !s.is_empty()
        && s.chars()
            .all(|c| c.is_alphanumeric() || " -_./()'&,!?".contains(c))
        && !s.starts_with(['-', ' ', '\'', '?', '!', '&'])
        && !s.ends_with(' ')
        && !matches!(
            s.to_ascii_lowercase().as_str(),
            "true" | "false" | "yes" | "no" | "on" | "off" | "null" | "~"
        )
        && s.parse::<f64>().is_err();
    if plain {
        s.to_string()
    } else {
        serde_json::to_string(s).expect("strings serialize")
    }
}

fn site_yaml(kind: Kind, c: &Converted, content: &Path) -> String {
    let s = &c.site;
    let mut y = format!(
        "# Written by `docgen import {}`: the site's configuration in docgen's terms. The pages\n# are read as they are. See README.md (\"site.yaml\") for every key.\n",
        kind.name()
    );
    if let Some(t) = &s.title {
        y += &format!("title: {}\n", yaml_str(t));
    }
    if let Some(u) = &s.url {
        y += &format!("url: {}\n", yaml_str(u));
    }
    if let Some(cp) = &s.copyright {
        y += &format!("copyright: {}\n", yaml_str(cp));
    }
    if let Some(l) = &s.logo {
        y += &format!("logo: {}\n", yaml_str(l));
    }
    if let Some((e, _)) = &s.edit_url {
        y += &format!("editUrl: {}\n", yaml_str(e));
    }
    y += "# The folder of the pages, relative to this file.\n";
    y += &format!("content: {}\n", yaml_str(&content.to_string_lossy()));
    y += "markdown:\n";
    y += "  anchors: github       # heading ids as GitHub makes them, like the source\n";
    if s.math {
        y += "  math: true\n";
    }
    if s.math_brackets {
        y += "  mathBrackets: true    # \\\\( \\\\) and \\\\[ \\\\] as MathJax reads them\n";
    }
    let links = |key: &str, list: &[(String, String)]| {
        if list.is_empty() {
            return String::new();
        }
        let mut out = format!("{key}:\n");
        for (label, url) in list {
            out += &format!(
                "  - {{displayName: {}, url: {}}}\n",
                yaml_str(label),
                yaml_str(url)
            );
        }
        out
    };
    y += &links("menuLinks", &s.menu_links);
    y += &links("footer", &s.footer);
    y
}

fn category_yaml(c: &Category) -> String {
    let mut y = String::from("# Written by `docgen import`: the menu of this folder.\n");
    if let Some(l) = &c.label {
        y += &format!("label: {}\n", yaml_str(l));
    }
    if let Some(p) = c.position {
        y += &format!("position: {p}\n");
    }
    if !c.items.is_empty() {
        y += "items:\n";
        for item in &c.items {
            match &item.label {
                Some(l) => {
                    y += &format!(
                        "  - {{name: {}, label: {}}}\n",
                        yaml_str(&item.name),
                        yaml_str(l)
                    )
                }
                None => y += &format!("  - {}\n", yaml_str(&item.name)),
            }
        }
    }
    if !c.hidden.is_empty() {
        y += "hidden:\n";
        for h in &c.hidden {
            y += &format!("  - {}\n", yaml_str(h));
        }
    }
    y
}

fn redirects_yaml(r: &Redirects) -> String {
    let mut y = format!(
        "# Written by `docgen import`: the book's redirects as legacy routes.\nlegacyBase: {}\nrules:\n",
        yaml_str(&r.legacy_base)
    );
    for (from, to) in &r.rules {
        y += &format!("  - {{from: {}, to: {}}}\n", yaml_str(from), yaml_str(to));
    }
    y
}

impl Outcome {
    pub fn render_human(&self) -> String {
        let mut out = String::new();
        for f in &self.written {
            out += &format!("wrote {}\n", self.root.join(f).display());
        }
        if self.copied > 0 {
            out += &format!(
                "copied {} files into {}\n",
                self.copied,
                self.root.display()
            );
        }
        out += &format!("{} pages to build\n", self.pages);
        if self.notes.is_empty() {
            out += "everything was converted\n";
        } else {
            out += &format!("\nnot converted ({}):\n", self.notes.len());
            for n in &self.notes {
                out += &format!("  {}: {}\n", n.location(), n.message);
            }
        }
        out += &format!(
            "\nnext: docgen serve --root {}    (then docgen build --root {})\n",
            self.root.display(),
            self.root.display()
        );
        out
    }

    pub fn render_json(&self) -> String {
        serde_json::json!({
            "kind": self.kind.name(),
            "root": self.root,
            "written": self.written,
            "copied": self.copied,
            "pages": self.pages,
            "notConverted": self.notes,
        })
        .to_string()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn include_targets_read_every_form() {
        let t = "a {{#include ../x.rs}} b\n{{#include f.md:anchor}}\n{{#rustdoc_include ../../e.rs:1:3}}\n{{#playground p.rs editable}}\n{{#title T}}\n";
        let got: Vec<_> = include_targets(t)
            .into_iter()
            .map(|(l, f)| format!("{l}:{f}"))
            .collect();
        assert_eq!(got, ["1:../x.rs", "2:f.md", "3:../../e.rs", "4:p.rs"]);
    }

    #[test]
    fn yaml_strings_read_back_as_written() {
        for s in [
            "Intro",
            "true",
            "1.5",
            "a: b",
            "# x",
            "- y",
            "Ünïcode title",
            "",
            "it's",
        ] {
            let y = format!("k: {}\n", yaml_str(s));
            let v: BTreeMap<String, String> = yaml_serde::from_str(&y).unwrap();
            assert_eq!(v["k"], s, "{y}");
        }
    }

    #[test]
    fn titles_as_docgen_reads_them() {
        let p = Path::new("dir/intro.md");
        assert_eq!(page_title("---\ntitle: \"T\"\n---\n# H\n", p), "T");
        assert_eq!(page_title("```\n# not\n```\n# Heading #\n", p), "Heading");
        assert_eq!(page_title("text\n", p), "Intro");
        assert_eq!(
            page_title("text\n", Path::new("first-steps/README.md")),
            "First steps"
        );
    }
}
