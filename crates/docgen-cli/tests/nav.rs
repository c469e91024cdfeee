//! The menu at scale: what a page inlines of it is bounded whatever the site's size, every page
//! is reachable through the static menus alone, and the menu tree is split into shards.

use crate::common;

use std::collections::{BTreeMap, BTreeSet, VecDeque};
use std::path::Path;
use std::process::Command;

/// The most items a page shows of one menu level (`view::menu::MENU_WINDOW`).
const WINDOW: usize = 30;

fn write(path: &Path, title: &str, weight: usize) {
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    let text = format!("---\ntitle: \"{title}\"\nweight: {weight}\n---\n\nText of {title}.\n");
    std::fs::write(path, text).unwrap();
}

/// A Hugo-style site with `sections` level-1 sections of 2 pages each, the first of which has
/// `big` pages instead.
fn synthetic(root: &Path, sections: usize, big: usize) {
    write(&root.join("_index.md"), "Home", 0);
    for s in 0..sections {
        let dir = root.join(format!("sec-{s:03}"));
        write(&dir.join("_index.md"), &format!("Section {s:03}"), s);
        for p in 0..if s == 0 { big } else { 2 } {
            write(
                &dir.join(format!("page-{p:03}.md")),
                &format!("Page {s:03} {p:03}"),
                p,
            );
        }
    }
}

fn build(root: &Path, out: &Path) -> BTreeMap<String, Vec<u8>> {
    common::build_site(root, out, &[])
}

fn pages(files: &BTreeMap<String, Vec<u8>>) -> impl Iterator<Item = (&String, String)> {
    files
        .iter()
        .filter(|(k, _)| k.ends_with("index.html"))
        .map(|(k, v)| (k, String::from_utf8(v.clone()).unwrap()))
}

/// The page's left menu, `<nav id="dg-menu">...</nav>`.
fn menu(html: &str) -> &str {
    let start = html.find("<nav id=\"dg-menu\"").expect("a menu");
    let end = start + html[start..].find("</nav>").unwrap();
    &html[start..end]
}

fn hrefs(html: &str) -> impl Iterator<Item = &str> {
    html.split("href=\"")
        .skip(1)
        .map(|s| &s[..s.find('"').unwrap()])
}

fn file_of(route: &str) -> String {
    let r = route.split('#').next().unwrap().trim_matches('/');
    if r.is_empty() {
        "index.html".into()
    } else {
        format!("{r}/index.html")
    }
}

/// Every page file reached from the home page by following the links of the static menus.
fn reachable(files: &BTreeMap<String, Vec<u8>>) -> BTreeSet<String> {
    let mut seen = BTreeSet::from(["index.html".to_string()]);
    let mut queue = VecDeque::from(["index.html".to_string()]);
    while let Some(f) = queue.pop_front() {
        let html = String::from_utf8(files[&f].clone()).unwrap();
        for href in hrefs(menu(&html)) {
            let next = file_of(href);
            if files.contains_key(&next) && seen.insert(next.clone()) {
                queue.push_back(next);
            }
        }
    }
    seen
}

fn max_menu_items(files: &BTreeMap<String, Vec<u8>>) -> usize {
    pages(files)
        .map(|(_, html)| menu(&html).matches("<li").count())
        .max()
        .unwrap()
}

#[test]
fn a_page_inlines_a_bounded_menu_and_every_page_is_reachable_without_javascript() {
    let tmp = tempfile::tempdir().unwrap();
    // Two levels: each at most a window and two "more" items, whatever the site's size.
    let bound = 2 * (WINDOW + 2);
    for (sections, big) in [(10, 5), (120, 130), (300, 400)] {
        let root = tmp.path().join(format!("site-{sections}"));
        synthetic(&root, sections, big);
        let files = build(&root, &tmp.path().join(format!("out-{sections}")));
        assert!(
            max_menu_items(&files) <= bound,
            "{sections} sections: {} items",
            max_menu_items(&files)
        );
        let all: BTreeSet<String> = pages(&files).map(|(k, _)| k.clone()).collect();
        assert_eq!(
            reachable(&files),
            all,
            "{sections} sections: pages the menus do not reach"
        );
        if sections > WINDOW {
            let home = String::from_utf8(files["index.html"].clone()).unwrap();
            assert!(
                menu(&home)
                    .contains("<li class=\"dg-menu-more\"><a href=\"/sec-030\" rel=\"next\">")
            );
            let deep = String::from_utf8(files["sec-000/page-100/index.html"].clone()).unwrap();
            assert_eq!(menu(&deep).matches("class=\"dg-menu-more\"").count(), 3);
        }
    }
}

#[test]
fn the_benchmark_corpus_stays_reachable_through_its_menus() {
    let generator = common::repo_root().join("bench/gen-corpus");
    let tmp = tempfile::tempdir().unwrap();
    let corpus = tmp.path().join("corpus");
    let status = Command::new("python3")
        .arg(&generator)
        .args(["--pages", "2000", "--out"])
        .arg(&corpus)
        .status()
        .expect("run gen-corpus");
    assert!(status.success());
    let files = build(&corpus, &tmp.path().join("out"));
    assert!(max_menu_items(&files) <= 5 * (WINDOW + 2));
    assert_eq!(reachable(&files).len(), 2000);
}

fn json(files: &BTreeMap<String, Vec<u8>>, path: &str) -> serde_json::Value {
    serde_json::from_slice(&files[path]).unwrap_or_else(|e| panic!("{path}: {e}"))
}

/// The ids of a subtree, counting a node whose children are in another shard as a reference,
/// not a node.
fn ids(node: &serde_json::Value, out: &mut Vec<String>) {
    if node.get("sharded").is_none() && node.get("external").is_none() {
        out.push(node["id"].as_str().unwrap().to_string());
    }
    for c in node["children"].as_array().unwrap() {
        ids(c, out);
    }
}

#[test]
fn the_menu_shards_hold_every_node_once_under_names_that_match_their_bytes() {
    let tmp = tempfile::tempdir().unwrap();
    let root = tmp.path().join("site");
    synthetic(&root, 50, 60);
    let files = build(&root, &tmp.path().join("out"));
    let again = build(&root, &tmp.path().join("again"));
    let mut in_nav = Vec::new();
    for n in json(&files, "_docgen/nav.json").as_array().unwrap() {
        ids(n, &mut in_nav);
    }
    let index = json(&files, "_docgen/nav/index.json");
    let entries = index["shards"].as_array().unwrap();
    let index_ids: BTreeSet<&str> = entries.iter().map(|e| e["id"].as_str().unwrap()).collect();
    let mut in_shards = Vec::new();
    for entry in entries {
        let file = entry["file"].as_str().unwrap().trim_start_matches('/');
        let bytes = files
            .get(file)
            .unwrap_or_else(|| panic!("{file} is not written"));
        assert_eq!(bytes, &again[file], "{file} differs between builds");
        let digest: String = xxhash_rust::xxh3::xxh3_128(bytes).to_be_bytes()[..5]
            .iter()
            .map(|b| format!("{b:02x}"))
            .collect();
        assert!(
            file.ends_with(&format!(".{digest}.json")),
            "{file}: not its digest"
        );
        match json(&files, file) {
            serde_json::Value::Array(area) => {
                for stub in area[0]["children"].as_array().unwrap() {
                    let id = stub["id"].as_str().unwrap();
                    assert!(
                        stub.get("sharded").is_none() || index_ids.contains(id),
                        "{id}"
                    );
                }
                area.iter().for_each(|n| ids(n, &mut in_shards))
            }
            section => ids(&section, &mut in_shards),
        }
    }
    in_nav.sort();
    in_shards.sort();
    assert_eq!(in_nav, in_shards);
    // A page names its area's shard and its section's, both in the index.
    let listed: BTreeSet<&str> = entries
        .iter()
        .map(|e| e["file"].as_str().unwrap())
        .collect();
    let page = String::from_utf8(files["sec-000/page-001/index.html"].clone()).unwrap();
    let data = &page[page.find("\"navShards\":").unwrap()..];
    let named: Vec<&str> = data[data.find('[').unwrap() + 1..data.find(']').unwrap()]
        .split(',')
        .map(|s| s.trim_matches('"'))
        .collect();
    assert_eq!(named.len(), 2);
    assert!(named.iter().all(|n| listed.contains(n)));
}

/// The ids the app reads from the pre-rendered menu: every section (and the root) carries
/// its nav id, the one `nav.json` and the shards give it, so the app never derives one.
#[test]
fn the_menu_markup_carries_the_nav_ids_of_its_sections() {
    let tmp = tempfile::tempdir().unwrap();
    let root = tmp.path().join("site");
    synthetic(&root, 40, 3);
    let files = build(&root, &tmp.path().join("out"));
    let mut nav_ids = Vec::new();
    for n in json(&files, "_docgen/nav.json").as_array().unwrap() {
        ids(n, &mut nav_ids);
    }
    let nav_ids: BTreeSet<String> = nav_ids.into_iter().collect();
    for (file, html) in pages(&files) {
        let menu = menu(&html);
        let sections = menu.matches("class=\"dg-menu-section").count();
        let with_id = menu.matches("\" class=\"dg-menu-section").count();
        assert!(
            sections > 0 && sections == with_id,
            "{file}: a section without an id"
        );
        assert!(
            menu.contains("\" class=\"dg-menu-root"),
            "{file}: a root without an id"
        );
        for id in menu.split("data-id=\"").skip(1) {
            let id = &id[..id.find('"').unwrap()];
            assert!(nav_ids.contains(id), "{file}: {id} is not a nav id");
        }
    }
}

/// docgen's page template draws the menu once per section and gives each page its own item
/// (`parts.menu`); a site's own template calling the macro on the page's data draws the same
/// markup, on every page, with long levels cut into windows and sections open at depth; and a
/// template written before `parts`, calling `left_menu(shell)`, still gets the same menu.
#[test]
fn the_menu_drawn_once_per_section_is_the_menu_drawn_per_page() {
    let site = tempfile::tempdir().unwrap();
    common::copy_dir(&common::fixture("shell-site"), site.path());
    let docs = site.path().join("content/documentation/mediation/scale");
    write(&docs.join("_index.md"), "Scale", 90);
    for i in 0..45 {
        write(
            &docs.join(format!("page-{i:02}.md")),
            &format!("Page {i:02}"),
            i,
        );
    }
    for i in 0..3 {
        write(
            &docs.join(format!("deep/part-{i}.md")),
            &format!("Part {i}"),
            i,
        );
    }
    let shared = tempfile::tempdir().unwrap();
    let shared = common::build_site(site.path(), shared.path(), &[]);

    let builtin = std::fs::read_to_string(common::repo_root().join("templates/page.html")).unwrap();
    assert!(builtin.contains("{{ parts.menu }}"));
    std::fs::create_dir_all(site.path().join("templates")).unwrap();
    let with_menu = |menu: &str| {
        let own = builtin
            .replace(
                "{% extends \"base.html\" %}",
                "{% extends \"base.html\" %}\n{% import \"macros.html\" as shell %}",
            )
            .replace("{{ parts.menu }}", menu);
        std::fs::write(site.path().join("templates/page.html"), own).unwrap();
        let out = tempfile::tempdir().unwrap();
        common::build_site(site.path(), out.path(), &[])
    };
    let per_page = with_menu("{{ shell.left_menu(menu, site) }}");
    let called = with_menu("{{ left_menu(shell) }}");

    let pages: Vec<&String> = shared
        .keys()
        .filter(|p| p.ends_with("index.html"))
        .collect();
    assert!(pages.len() > 50);
    for page in pages {
        assert!(
            shared[page] == per_page[page],
            "{page} differs:\n{}",
            common::text(&per_page, page)
        );
        assert!(
            shared[page] == called[page],
            "{page} differs:\n{}",
            common::text(&called, page)
        );
    }
}
