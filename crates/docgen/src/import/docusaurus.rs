//! Docusaurus: `docusaurus.config.{js,ts,mjs}` and `sidebars.{js,ts,json}` in docgen's terms,
//! read as literals (nothing is run).

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

use super::js::{self, Node, Value};
use super::{Category, Converted, Item, note};
use crate::diagnostics::Diagnostic;

const CONFIG_NAMES: &[&str] = &[
    "docusaurus.config.js",
    "docusaurus.config.ts",
    "docusaurus.config.mjs",
    "docusaurus.config.cjs",
];

/// A page of the docs folder, as Docusaurus names it.
#[derive(Debug)]
struct Doc {
    /// Relative to the docs folder.
    file: PathBuf,
    id: String,
    title: String,
}

pub fn convert(src: &Path) -> Result<Converted, Diagnostic> {
    let Some(config_name) = CONFIG_NAMES.iter().find(|n| src.join(n).is_file()) else {
        return Err(Diagnostic::new(
            "usage.import-source",
            format!(
                "{} holds no docusaurus.config.js (or .ts, .mjs)",
                src.display()
            ),
        )
        .hint("pass the folder of the Docusaurus site"));
    };
    let text = std::fs::read_to_string(src.join(config_name))
        .map_err(|e| Diagnostic::new("usage.io", format!("{config_name}: {e}")))?;
    let config = js::exported(&text).map_err(|(line, msg)| {
        Diagnostic::new(
            "usage.import-source",
            format!("{config_name} cannot be read: {msg}"),
        )
        .in_file(config_name)
        .at(line, 1)
        .hint("the importer reads object literals; simplify this part or write site.yaml by hand")
    })?;
    let mut c = Converted {
        content: PathBuf::from("docs"),
        static_dir: Some(PathBuf::from("static")),
        ..Converted::default()
    };
    let file = Path::new(config_name);
    let mut sidebar_path: Option<PathBuf> = None;
    let mut route_base = "docs".to_string();
    let mut url = None;
    let mut base_url = "/".to_string();
    for (key, node) in config.entries() {
        match (key.as_str(), &node.value) {
            ("title", Value::Str(t)) => c.site.title = Some(t.clone()),
            ("url", Value::Str(u)) => url = Some(u.trim_end_matches('/').to_string()),
            ("baseUrl", Value::Str(b)) => base_url = b.clone(),
            ("presets", Value::Array(presets)) => {
                for preset in presets {
                    read_preset(preset, file, &mut c, &mut sidebar_path, &mut route_base)
                }
            }
            ("themeConfig", Value::Object(_)) => read_theme(node, file, &mut c),
            ("markdown", Value::Object(_)) => {
                for (k, v) in node.entries() {
                    if k == "mermaid" || k == "format" {
                        unconverted(&mut c, file, v.line, format!("markdown.{k}"));
                    }
                    if k == "anchors"
                        && v.get("maintainCase")
                            .is_some_and(|m| m.value == Value::Bool(true))
                    {
                        unconverted(
                            &mut c,
                            file,
                            v.line,
                            "markdown.anchors.maintainCase (docgen's github anchors are lowercase)"
                                .into(),
                        );
                    }
                }
            }
            // Build behaviour docgen has its own rules for (it always fails on broken links).
            (
                "onBrokenLinks"
                | "onBrokenMarkdownLinks"
                | "onBrokenAnchors"
                | "trailingSlash"
                | "organizationName"
                | "projectName"
                | "deploymentBranch"
                | "favicon",
                _,
            ) => {
                if key == "favicon" {
                    unconverted(
                        &mut c,
                        file,
                        node.line,
                        "favicon (docgen publishes static/favicon.ico)".into(),
                    );
                }
            }
            _ => unconverted(&mut c, file, node.line, describe(key, node)),
        }
    }
    if let Some(u) = url {
        let mut path = base_url.trim_matches('/').to_string();
        let rb = route_base.trim_matches('/');
        if !rb.is_empty() {
            path = if path.is_empty() {
                rb.to_string()
            } else {
                format!("{path}/{rb}")
            };
        }
        c.site.url = Some(if path.is_empty() {
            u
        } else {
            format!("{u}/{path}")
        });
    } else if !route_base.trim_matches('/').is_empty() {
        c.notes.push(note(
            "import.not-converted",
            file,
            1,
            format!("routeBasePath \"{route_base}\": docgen serves the docs at the site's root; give the site a url ending in /{route_base} to keep the addresses"),
        ));
    }
    let docs_dir = src.join(&c.content);
    let docs = read_docs(&docs_dir, &c.content, &mut c.notes);
    c.pages = docs.len();
    let sidebar_file = sidebar_path.or_else(|| {
        [
            "sidebars.js",
            "sidebars.ts",
            "sidebars.json",
            "sidebars.mjs",
            "sidebars.cjs",
        ]
        .iter()
        .map(PathBuf::from)
        .find(|p| src.join(p).is_file())
    });
    match sidebar_file {
        Some(sf) if src.join(&sf).is_file() => {
            let text = std::fs::read_to_string(src.join(&sf))
                .map_err(|e| Diagnostic::new("usage.io", format!("{}: {e}", sf.display())))?;
            let parsed = if sf.extension().is_some_and(|e| e == "json") {
                js::exported(&format!("module.exports = {text}"))
            } else {
                js::exported(&text)
            };
            match parsed {
                Ok(sidebars) => read_sidebars(&sidebars, &sf, &docs, &docs_dir, &mut c),
                Err((line, msg)) => c.notes.push(note(
                    "import.not-converted",
                    &sf,
                    line,
                    format!("the sidebars cannot be read ({msg}): the menu follows the folders"),
                )),
            }
        }
        _ => {} // No sidebars file: Docusaurus generates the menu from the folders, as docgen does.
    }
    Ok(c)
}

fn unconverted(c: &mut Converted, file: &Path, line: usize, what: String) {
    c.notes.push(note(
        "import.not-converted",
        file,
        line,
        format!("{what}: docgen has no equivalent"),
    ));
}

fn describe(key: &str, node: &Node) -> String {
    match node.opaque() {
        Some(t) => format!("{key} = {t} (not a literal)"),
        None => key.to_string(),
    }
}

fn read_preset(
    preset: &Node,
    file: &Path,
    c: &mut Converted,
    sidebar_path: &mut Option<PathBuf>,
    route_base: &mut String,
) {
    let options = match &preset.value {
        Value::Array(pair) if pair.len() == 2 => &pair[1],
        Value::Str(_) => return,
        _ => {
            unconverted(c, file, preset.line, describe("preset", preset));
            return;
        }
    };
    for (key, node) in options.entries() {
        match key.as_str() {
            "docs" => {
                for (k, v) in node.entries() {
                    match (k.as_str(), &v.value) {
                        ("path", Value::Str(p)) => c.content = PathBuf::from(p),
                        ("routeBasePath", Value::Str(r)) => *route_base = r.clone(),
                        ("sidebarPath", Value::Str(s)) => *sidebar_path = Some(PathBuf::from(s.trim_start_matches("./"))),
                        ("sidebarPath", Value::Opaque(t)) => {
                            // `require.resolve('./sidebars.js')`: the file named inside.
                            if let Some(name) = t.split('\'').nth(1) {
                                *sidebar_path = Some(PathBuf::from(name.trim_start_matches("./")));
                            }
                        }
                        ("editUrl", Value::Str(e)) => {
                            c.site.edit_url = Some((
                                e.trim_end_matches('/').to_string(),
                                note("import.not-converted", file, v.line, "docs.editUrl: the pages' paths differ from the site's outside its folder; set editUrl by hand".into()),
                            ))
                        }
                        ("remarkPlugins" | "rehypePlugins", Value::Array(list)) => {
                            for p in list {
                                let text = p.opaque().map(str::to_ascii_lowercase).unwrap_or_default();
                                if text.contains("math") || text.contains("katex") {
                                    c.site.math = true;
                                } else {
                                    unconverted(c, file, p.line, format!("docs.{k} {}", p.opaque().unwrap_or("")));
                                }
                            }
                        }
                        ("showLastUpdateTime" | "showLastUpdateAuthor" | "sidebarCollapsible" | "sidebarCollapsed", _) => {}
                        _ => unconverted(c, file, v.line, describe(&format!("docs.{k}"), v)),
                    }
                }
            }
            "theme" | "sitemap" | "gtag" | "googleAnalytics" | "googleTagManager" => {
                if key != "sitemap" {
                    unconverted(c, file, node.line, format!("preset {key}"));
                }
            }
            "blog" if node.value == Value::Bool(false) => {}
            "pages" if node.value == Value::Bool(false) => {}
            _ => unconverted(
                c,
                file,
                node.line,
                format!("preset {key} (docgen builds the docs only)"),
            ),
        }
    }
}

fn read_theme(theme: &Node, file: &Path, c: &mut Converted) {
    for (key, node) in theme.entries() {
        match key.as_str() {
            "navbar" => {
                if let Some(src) = node.get("logo").and_then(|l| l.str_at("src")) {
                    c.site.logo = Some(src.trim_start_matches('/').to_string());
                }
                for item in node.get("items").map(Node::items).unwrap_or_default() {
                    match (item.str_at("href"), item.str_at("label")) {
                        (Some(href), Some(label)) => {
                            c.site.menu_links.push((label.into(), href.into()))
                        }
                        _ => unconverted(
                            c,
                            file,
                            item.line,
                            format!(
                                "navbar item {}",
                                item.str_at("label")
                                    .or(item.str_at("type"))
                                    .unwrap_or("(unnamed)")
                            ),
                        ),
                    }
                }
                if let Some(t) = node.get("title")
                    && t.as_str() != c.site.title.as_deref()
                {
                    unconverted(
                        c,
                        file,
                        t.line,
                        "navbar.title (the top bar shows the site title)".into(),
                    );
                }
            }
            "footer" => {
                for group in node.get("links").map(Node::items).unwrap_or_default() {
                    let links = group
                        .get("items")
                        .map(Node::items)
                        .unwrap_or(std::slice::from_ref(group));
                    if let Some(t) = group.get("title") {
                        unconverted(
                            c,
                            file,
                            t.line,
                            format!(
                                "footer column title \"{}\" (docgen's footer is one row)",
                                t.as_str().unwrap_or("")
                            ),
                        );
                    }
                    for link in links {
                        match (link.str_at("href"), link.str_at("label")) {
                            (Some(href), Some(label)) => {
                                c.site.footer.push((label.into(), href.into()))
                            }
                            _ => unconverted(
                                c,
                                file,
                                link.line,
                                format!(
                                    "footer link {}",
                                    link.str_at("label").unwrap_or("(no label)")
                                ),
                            ),
                        }
                    }
                }
                if let Some(n) = node.get("copyright") {
                    match n.as_str() {
                        Some(t) => {
                            c.site.copyright = Some(
                                t.trim_start_matches("Copyright")
                                    .trim()
                                    .trim_start_matches('©')
                                    .trim()
                                    .to_string(),
                            )
                        }
                        None => unconverted(c, file, n.line, describe("footer.copyright", n)),
                    }
                }
            }
            "image" | "metadata" | "prism" | "colorMode" | "docs" | "tableOfContents"
            | "algolia" | "announcementBar" => {
                unconverted(c, file, node.line, format!("themeConfig.{key}"))
            }
            _ => unconverted(
                c,
                file,
                node.line,
                describe(&format!("themeConfig.{key}"), node),
            ),
        }
    }
}

/// Docusaurus's number prefix of a file or folder name: `01-intro` → `intro`.
pub fn strip_number_prefix(name: &str) -> &str {
    let digits = name.chars().take_while(char::is_ascii_digit).count();
    if digits == 0 {
        return name;
    }
    match name[digits..].strip_prefix(['-', '_', '.']) {
        Some(rest) if !rest.is_empty() => rest.trim_start(),
        _ => name,
    }
}

/// Every page of the docs folder with its Docusaurus id; route differences are noted.
fn read_docs(dir: &Path, content: &Path, notes: &mut Vec<Diagnostic>) -> Vec<Doc> {
    let mut docs = Vec::new();
    for entry in walkdir::WalkDir::new(dir)
        .sort_by_file_name()
        .into_iter()
        .flatten()
    {
        let path = entry.path();
        if !entry.file_type().is_file() || !super::is_markdown(path) {
            continue;
        }
        let rel = path.strip_prefix(dir).unwrap_or(path).to_path_buf();
        if rel
            .components()
            .any(|c| c.as_os_str().to_string_lossy().starts_with('_'))
        {
            continue;
        }
        let text = std::fs::read_to_string(path).unwrap_or_default();
        let fm_id = front_matter(&text, "id");
        let folder: Vec<String> = rel
            .parent()
            .map(|p| {
                p.iter()
                    .map(|s| strip_number_prefix(&s.to_string_lossy()).to_string())
                    .collect()
            })
            .unwrap_or_default();
        let stem = rel
            .file_stem()
            .map(|s| s.to_string_lossy().into_owned())
            .unwrap_or_default();
        let leaf = fm_id
            .clone()
            .unwrap_or_else(|| strip_number_prefix(&stem).to_string());
        let id = folder
            .iter()
            .cloned()
            .chain([leaf.clone()])
            .collect::<Vec<_>>()
            .join("/");
        // The route each tool gives the page.
        let docgen_route = {
            let mut parts: Vec<String> = rel
                .parent()
                .map(|p| p.iter().map(|s| s.to_string_lossy().into_owned()).collect())
                .unwrap_or_default();
            if !matches!(stem.as_str(), "index" | "README" | "_index") {
                parts.push(stem.clone());
            }
            format!("/{}", parts.join("/"))
        };
        let docusaurus_route = match front_matter(&text, "slug") {
            Some(slug) if slug.starts_with('/') => slug,
            Some(slug) => format!(
                "/{}",
                folder
                    .iter()
                    .cloned()
                    .chain([slug])
                    .collect::<Vec<_>>()
                    .join("/")
            ),
            None => {
                let mut parts = folder.clone();
                let is_index = matches!(stem.to_ascii_lowercase().as_str(), "index" | "readme")
                    || folder.last().is_some_and(|f| *f == leaf);
                if !is_index {
                    parts.push(leaf.clone());
                }
                format!("/{}", parts.join("/"))
            }
        };
        if docusaurus_route.trim_end_matches('/') != docgen_route
            && front_matter(&text, "slug").is_none()
        {
            notes.push(note(
                "import.route",
                content.join(&rel),
                1,
                format!("Docusaurus serves this page at {docusaurus_route}, docgen at {docgen_route} (docgen keeps the file's path; add `slug: {docusaurus_route}` to keep the old address)"),
            ));
        }
        let title = super::page_title(&text, &rel);
        docs.push(Doc {
            file: rel,
            id,
            title,
        });
    }
    docs
}

/// A top-level key of the front matter, unquoted.
fn front_matter(text: &str, key: &str) -> Option<String> {
    let rest = text
        .strip_prefix("---\n")
        .or_else(|| text.strip_prefix("---\r\n"))?;
    let end = rest.find("\n---")?;
    rest[..end].lines().find_map(|l| {
        let v = l.strip_prefix(key)?.strip_prefix(':')?.trim();
        Some(super::unquote(v).to_string())
    })
}

/// Sidebars in docgen's menu: the order and labels of each folder's entries, noting what the
/// folders cannot express.
fn read_sidebars(sidebars: &Node, file: &Path, docs: &[Doc], docs_dir: &Path, c: &mut Converted) {
    let by_id: BTreeMap<&str, &Doc> = docs.iter().map(|d| (d.id.as_str(), d)).collect();
    let mut items: BTreeMap<PathBuf, Vec<Item>> = BTreeMap::new();
    let mut labels: BTreeMap<PathBuf, (String, usize)> = BTreeMap::new();
    let mut listed: BTreeSet<PathBuf> = BTreeSet::new();
    let mut autogenerated: BTreeSet<PathBuf> = BTreeSet::new();
    let entries = sidebars.entries();
    for (n, (name, sidebar)) in entries.iter().enumerate() {
        if n > 0 {
            c.notes.push(note(
                "import.not-converted",
                file,
                sidebar.line,
                format!(
                    "sidebar \"{name}\": docgen has one menu; its pages are listed in their folders"
                ),
            ));
        }
        let mut ctx = Walk {
            file,
            by_id: &by_id,
            items: &mut items,
            labels: &mut labels,
            listed: &mut listed,
            autogenerated: &mut autogenerated,
            notes: &mut c.notes,
            menu_links: &mut c.site.menu_links,
        };
        let list: Vec<Node> = match &sidebar.value {
            Value::Array(a) => a.clone(),
            // `{ 'Category': [...] }` shorthand.
            Value::Object(o) => o
                .iter()
                .map(|(k, v)| Node {
                    value: Value::Object(vec![
                        (
                            "type".into(),
                            Node {
                                value: Value::Str("category".into()),
                                line: v.line,
                            },
                        ),
                        (
                            "label".into(),
                            Node {
                                value: Value::Str(k.clone()),
                                line: v.line,
                            },
                        ),
                        ("items".into(), v.clone()),
                    ]),
                    line: v.line,
                })
                .collect(),
            _ => Vec::new(),
        };
        ctx.items_of(&list, None, 0);
    }
    // Pages the sidebars do not show stay out of docgen's menu too.
    let mut hidden: BTreeMap<PathBuf, Vec<String>> = BTreeMap::new();
    for d in docs {
        let (folder, name) = menu_entry(&d.file);
        let under_auto = autogenerated.iter().any(|a| d.file.starts_with(a));
        if !listed.contains(&d.file) && !under_auto {
            hidden.entry(folder).or_default().push(name);
        }
    }
    let folders: BTreeSet<PathBuf> = items
        .keys()
        .chain(hidden.keys())
        .chain(labels.keys())
        .cloned()
        .collect();
    for folder in folders {
        let mut cat = Category {
            items: items.remove(&folder).unwrap_or_default(),
            hidden: hidden.remove(&folder).unwrap_or_default(),
            ..Category::default()
        };
        let mut label_line = None;
        if let Some((l, line)) = labels.get(&folder) {
            cat.label = Some(l.clone());
            label_line = Some(*line);
        }
        cat.hidden.dedup();
        if let Some(existing) = ["_category_.json", "_category_.yml", "_category_.yaml"]
            .iter()
            .find(|n| docs_dir.join(&folder).join(n).is_file())
        {
            // The label the folder's own file gives already needs nothing more.
            let existing_label = std::fs::read_to_string(docs_dir.join(&folder).join(existing))
                .ok()
                .and_then(|t| yaml_serde::from_str::<serde_json::Value>(&t).ok())
                .and_then(|v| v.get("label").and_then(|l| l.as_str()).map(str::to_string));
            if cat.items.is_empty() && cat.hidden.is_empty() && cat.label == existing_label {
                continue;
            }
            c.notes.push(note(
                "import.not-converted",
                file,
                label_line.unwrap_or(1),
                format!(
                    "the menu of {}/ (order, labels, hidden pages) has to go into its existing {existing}, which the importer never changes",
                    folder.display()
                ),
            ));
            continue;
        }
        if cat != Category::default() {
            c.categories.insert(folder, cat);
        }
    }
}

/// The folder whose menu lists a doc, and its name there (a folder's index: the folder).
fn menu_entry(file: &Path) -> (PathBuf, String) {
    let stem = file
        .file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_default();
    let parent = file.parent().unwrap_or(Path::new("")).to_path_buf();
    if matches!(stem.as_str(), "index" | "README" | "_index") && !parent.as_os_str().is_empty() {
        let name = parent
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        (parent.parent().unwrap_or(Path::new("")).to_path_buf(), name)
    } else {
        (
            parent,
            file.file_name()
                .map(|n| n.to_string_lossy().into_owned())
                .unwrap_or_default(),
        )
    }
}

struct Walk<'a> {
    file: &'a Path,
    by_id: &'a BTreeMap<&'a str, &'a Doc>,
    items: &'a mut BTreeMap<PathBuf, Vec<Item>>,
    labels: &'a mut BTreeMap<PathBuf, (String, usize)>,
    listed: &'a mut BTreeSet<PathBuf>,
    autogenerated: &'a mut BTreeSet<PathBuf>,
    notes: &'a mut Vec<Diagnostic>,
    menu_links: &'a mut Vec<(String, String)>,
}

impl Walk<'_> {
    fn note(&mut self, code: &'static str, line: usize, message: String) {
        self.notes.push(note(code, self.file, line, message));
    }

    /// Lists a doc in its folder's menu; returns the folder docgen's menu shows it in.
    fn doc(
        &mut self,
        id: &str,
        label: Option<&str>,
        line: usize,
        expected: Option<&Path>,
    ) -> Option<PathBuf> {
        let Some(doc) = self.by_id.get(id) else {
            self.note(
                "import.missing-file",
                line,
                format!("doc id \"{id}\" matches no page of the docs folder"),
            );
            return None;
        };
        let (folder, name) = menu_entry(&doc.file);
        if let Some(exp) = expected
            && exp != folder
        {
            self.note("import.nesting", line, format!(
                    "\"{id}\" sits in this category in the sidebar, but its file is in {}: docgen's menu follows the folders",
                    if folder.as_os_str().is_empty() { "the top folder".into() } else { format!("{}/", folder.display()) }
                ));
        }
        if self.listed.insert(doc.file.clone()) {
            let label = label.filter(|l| *l != doc.title).map(str::to_string);
            self.items
                .entry(folder.clone())
                .or_default()
                .push(Item { name, label });
        }
        Some(folder)
    }

    /// The items of a sidebar or category. `folder`: the folder the category stands for.
    fn items_of(&mut self, list: &[Node], folder: Option<&Path>, depth: usize) {
        for item in list {
            match &item.value {
                Value::Str(id) => {
                    self.doc(id, None, item.line, folder);
                }
                Value::Object(_) => match item.str_at("type").unwrap_or(if item.get("items").is_some() { "category" } else { "doc" }) {
                    "doc" | "ref" => match item.str_at("id") {
                        Some(id) => {
                            self.doc(id, item.str_at("label"), item.line, folder);
                        }
                        None => self.note("import.not-converted", item.line, "a doc item without an id".into()),
                    },
                    "autogenerated" => {
                        let dir = item.str_at("dirName").unwrap_or(".");
                        let dir = PathBuf::from(dir.trim_start_matches("./").trim_start_matches('.'));
                        self.autogenerated.insert(dir);
                    }
                    "link" => match (item.str_at("label"), item.str_at("href")) {
                        (Some(label), Some(href)) if depth == 0 => self.menu_links.push((label.into(), href.into())),
                        _ => self.note("import.not-converted", item.line, format!(
                            "link \"{}\" inside a category: docgen's menu links sit at the bottom of the menu",
                            item.str_at("label").unwrap_or("")
                        )),
                    },
                    "category" => self.category(item, depth),
                    other => self.note("import.not-converted", item.line, format!("sidebar item of type {other}")),
                },
                _ => self.note("import.not-converted", item.line, format!(
                    "sidebar item {}: not a literal",
                    item.opaque().unwrap_or("")
                )),
            }
        }
    }

    fn category(&mut self, item: &Node, depth: usize) {
        let label = item.str_at("label").unwrap_or("").to_string();
        let children = item.get("items").map(Node::items).unwrap_or_default();
        // The folder the category stands for: its link doc's folder when that doc is a folder
        // index, else the one folder its docs share.
        let mut folder: Option<PathBuf> = None;
        if let Some(link) = item.get("link") {
            match (link.str_at("type"), link.str_at("id")) {
                (Some("doc"), Some(id)) => {
                    if let Some(doc) = self.by_id.get(id) {
                        let (parent, name) = menu_entry(&doc.file);
                        if doc.file.parent().is_some_and(|p| p.ends_with(&name)) {
                            folder = Some(parent.join(name));
                        }
                    }
                    let listed_in = self.doc(id, Some(&label), link.line, None);
                    let _ = listed_in;
                }
                _ => self.note(
                    "import.not-converted",
                    link.line,
                    format!("category \"{label}\": a generated index page"),
                ),
            }
        }
        if folder.is_none() {
            let mut folders: BTreeSet<PathBuf> = BTreeSet::new();
            for child in children {
                let id = child.as_str().or_else(|| child.str_at("id"));
                if let Some(doc) = id.and_then(|id| self.by_id.get(id)) {
                    folders.insert(menu_entry(&doc.file).0);
                }
                if child.str_at("type") == Some("autogenerated") {
                    let dir = child.str_at("dirName").unwrap_or(".");
                    folders.insert(PathBuf::from(dir.trim_start_matches("./")));
                }
            }
            if folders.len() == 1 {
                folder = folders.into_iter().next();
            }
        }
        match &folder {
            Some(f) if !f.as_os_str().is_empty() => {
                self.labels.insert(f.clone(), (label.clone(), item.line));
                self.listed.insert(f.clone());
                if let Some(parent) = f.parent() {
                    let name = f.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
                    let list = self.items.entry(parent.to_path_buf()).or_default();
                    if !list.iter().any(|i| i.name == name) {
                        list.push(Item { name, label: None });
                    }
                }
            }
            _ => self.note("import.nesting", item.line, format!(
                "category \"{label}\" does not match one folder: docgen's menu follows the folders, so its pages are listed in their own folders"
            )),
        }
        self.items_of(children, folder.as_deref(), depth + 1);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn number_prefixes() {
        assert_eq!(strip_number_prefix("01-intro"), "intro");
        assert_eq!(strip_number_prefix("2_setup"), "setup");
        assert_eq!(strip_number_prefix("2024"), "2024");
        assert_eq!(strip_number_prefix("intro"), "intro");
    }
}
