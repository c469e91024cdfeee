//! The search index a build writes, read back as the app's engine reads it: shards found by
//! their first term, delta-encoded postings, the pages' addresses in doc lists.

mod common;

use common::{fixture, tree};
use serde_json::Value;
use std::collections::BTreeMap;
use std::path::Path;
use std::process::Command;

struct Index {
    files: BTreeMap<String, Vec<u8>>,
    meta: Value,
}

impl Index {
    fn build(site: &Path, out: &Path) -> Index {
        let status = Command::new(env!("CARGO_BIN_EXE_docgen"))
            .args(["build", "--quiet", "--root"])
            .arg(site)
            .arg("--out")
            .arg(out)
            .env("SOURCE_DATE_EPOCH", "1767225600")
            .status()
            .expect("run docgen");
        assert!(status.success());
        let files = tree(out);
        let meta = serde_json::from_slice(&files["_docgen/search/index.json"]).unwrap();
        Index { files, meta }
    }

    fn json(&self, rel: &str) -> Value {
        serde_json::from_slice(&self.files[&format!("_docgen/search/{rel}")])
            .unwrap_or_else(|e| panic!("{rel}: {e}"))
    }

    /// The shard that holds `term`: the last whose first term is not after it.
    fn shard_of(&self, term: &str) -> Value {
        let shards = self.meta["shards"].as_array().unwrap();
        let i = shards.partition_point(|s| s[0].as_str().unwrap() <= term);
        self.json(shards[i.saturating_sub(1)][1].as_str().unwrap())
    }

    /// (df, [(doc, weight)]) of a term, or None when it is not indexed.
    fn postings(&self, term: &str) -> Option<(u64, Vec<(u64, u64)>)> {
        let list = self.shard_of(term)["t"].get(term)?.clone();
        let n: Vec<u64> = list
            .as_array()
            .unwrap()
            .iter()
            .map(|v| v.as_u64().unwrap())
            .collect();
        let mut doc = 0;
        let pairs = n[1..]
            .chunks(2)
            .map(|p| {
                doc += p[0];
                (doc, p[1])
            })
            .collect();
        Some((n[0], pairs))
    }

    /// The address of the page of `doc`, from its doc list.
    fn url_of(&self, doc: u64) -> String {
        let chunk = self.meta["chunk"].as_u64().unwrap();
        let list = self.meta["chunks"][(doc / chunk) as usize]
            .as_str()
            .unwrap();
        self.json(&format!("d/{list}.json"))[(doc % chunk) as usize]
            .as_str()
            .unwrap()
            .to_string()
    }

    /// The doc of the page at `url`.
    fn doc_at(&self, url: &str) -> u64 {
        (0..self.meta["docs"].as_u64().unwrap())
            .find(|&d| self.url_of(d) == url)
            .unwrap_or_else(|| panic!("{url} is not indexed"))
    }

    /// Expands a run-length table to one value per doc.
    fn per_doc(&self, table: &str) -> Vec<i64> {
        self.meta[table]
            .as_array()
            .unwrap()
            .iter()
            .flat_map(|run| {
                std::iter::repeat_n(run[1].as_i64().unwrap(), run[0].as_u64().unwrap() as usize)
            })
            .collect()
    }
}

#[test]
fn the_index_finds_pages_by_title_heading_body_and_identifier() {
    let tmp = tempfile::tempdir().unwrap();
    let index = Index::build(&fixture("small-site"), &tmp.path().join("out"));
    let reference = index.doc_at("/docs/api/reference");

    // A title word weighs more than the same word in a body.
    let (_, refs) = index
        .postings("reference")
        .expect("a title word is indexed");
    let weight = refs.iter().find(|(d, _)| *d == reference).unwrap().1;
    assert!(weight >= 10, "title weight {weight}");

    // Text made from data and partials is indexed like any other.
    assert!(
        index
            .postings("204")
            .unwrap()
            .1
            .iter()
            .any(|(d, _)| *d == reference)
    );

    // A heading word weighs more than a body word; the menu, footer and table of contents are
    // not part of any page's text.
    let (_, errors) = index.postings("errors").expect("a heading word is indexed");
    let weight = errors.iter().find(|(d, _)| *d == reference).unwrap().1;
    assert!(weight >= 4, "heading weight {weight}");
    assert!(
        index.postings("cookies").is_none(),
        "footer text is not indexed"
    );

    // Every doc list names pages that were written, in doc order, 64 to a list.
    let docs = index.meta["docs"].as_u64().unwrap();
    let urls: Vec<String> = (0..docs).map(|d| index.url_of(d)).collect();
    let mut sorted = urls.clone();
    sorted.sort();
    assert_eq!(urls, sorted, "docs in route order");
    for url in &urls {
        let file = format!(
            "{}/index.html",
            url.trim_end_matches('/').trim_start_matches('/')
        );
        assert!(index.files.contains_key(&file), "{file} is not written");
    }
    // No page text is written twice: the results read it from the pages.
    assert!(
        !index
            .files
            .keys()
            .any(|f| f.starts_with("_docgen/search/f/"))
    );
}

#[test]
fn areas_platforms_and_hidden_features_shape_the_index() {
    let tmp = tempfile::tempdir().unwrap();
    let index = Index::build(&fixture("small-site"), &tmp.path().join("out"));
    let docs = index.meta["docs"].as_u64().unwrap() as usize;
    assert_eq!(
        index.meta["areas"],
        serde_json::json!(["Guides", "Partners"])
    );
    let areas = index.per_doc("area");
    let platforms = index.per_doc("platform");
    assert_eq!((areas.len(), platforms.len()), (docs, docs));
    let alpha = index.doc_at("/docs/platforms/alpha") as usize;
    assert_eq!(platforms[alpha], 0);
    assert_eq!(platforms.iter().filter(|p| **p == 0).count(), 1);
    assert_eq!(areas[index.doc_at("/partners") as usize], 1);
    // A page behind a feature the site does not enable is not found through search either.
    assert!((0..docs as u64).all(|d| index.url_of(d) != "/docs/guide/secret"));
    // Every shard the index names exists, and shards hold their terms in order.
    let mut last = String::new();
    for s in index.meta["shards"].as_array().unwrap() {
        let shard = index.json(s[1].as_str().unwrap());
        let terms: Vec<&String> = shard["t"].as_object().unwrap().keys().collect();
        assert_eq!(terms[0].as_str(), s[0].as_str().unwrap());
        assert!(terms.iter().all(|t| **t >= last));
        last = terms.last().unwrap().to_string();
    }
}
