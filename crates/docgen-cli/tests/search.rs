//! The search index a build writes, read back as the app's engine reads it: shards found by
//! their first term, delta-encoded postings with scores and sections, the pages' records in
//! excerpt files.

use crate::common;

use common::{fixture, tree};
use serde_json::Value;
use std::collections::BTreeMap;
use std::path::Path;
use std::process::Command;

/// A posting as written: doc, score (with the title and heading flags), section.
type Posting = (u64, u64, i64);

pub(crate) struct Index {
    files: BTreeMap<String, Vec<u8>>,
    meta: Value,
}

impl Index {
    /// The index in the output folder `out`.
    pub(crate) fn read(out: &Path) -> Index {
        let files = tree(out);
        let meta = serde_json::from_slice(&files["_docgen/search/index.json"]).unwrap();
        Index { files, meta }
    }

    /// Every term, in the shards' order.
    pub(crate) fn terms(&self) -> Vec<String> {
        let shards = self.meta["shards"].as_array().unwrap();
        shards
            .iter()
            .flat_map(|s| {
                let shard = self.json(s[1].as_str().unwrap());
                shard["t"]
                    .as_object()
                    .unwrap()
                    .keys()
                    .cloned()
                    .collect::<Vec<_>>()
            })
            .collect()
    }

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
        Index::read(out)
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

    /// (df, [(doc, score, section)]) of a term, or None when it is not indexed.
    pub(crate) fn postings(&self, term: &str) -> Option<(u64, Vec<Posting>)> {
        let list = self.shard_of(term)["t"].get(term)?.clone();
        let n: Vec<i64> = list
            .as_array()
            .unwrap()
            .iter()
            .map(|v| v.as_i64().unwrap())
            .collect();
        let mut doc = 0;
        let postings = n[1..]
            .chunks(3)
            .map(|p| {
                doc += p[0] as u64;
                (doc, p[1] as u64, p[2])
            })
            .collect();
        Some((n[0] as u64, postings))
    }

    /// Every doc's record, in doc order: [address, breadcrumb, title, sections].
    pub(crate) fn records(&self) -> Vec<Value> {
        let digest = self.meta["excerpts"]["digest"].as_str().unwrap();
        (0..self.meta["excerpts"]["sizes"].as_array().unwrap().len())
            .flat_map(|n| {
                let file = self.json(&format!("x/{n}.{digest}.json"));
                file.as_array().unwrap().clone()
            })
            .collect()
    }

    /// The address of the page of `doc`, from its excerpt file.
    fn url_of(&self, doc: u64) -> String {
        self.records()[doc as usize][0]
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

    // A title word is flagged as such (the score's lowest bit) and outweighs body words.
    let (_, refs) = index
        .postings("reference")
        .expect("a title word is indexed");
    let title = refs.iter().find(|(d, ..)| *d == reference).unwrap();
    assert_eq!(title.1 & 1, 1, "in the title: {title:?}");

    // Text made from data and partials is indexed like any other.
    assert!(
        index
            .postings("204")
            .unwrap()
            .1
            .iter()
            .any(|(d, ..)| *d == reference)
    );

    // A heading word is flagged (the second bit) with the section of its heading; the menu,
    // footer and table of contents are not part of any page's text.
    let (_, errors) = index.postings("errors").expect("a heading word is indexed");
    let heading = errors.iter().find(|(d, ..)| *d == reference).unwrap();
    assert_eq!(heading.1 & 2, 2, "in a heading: {heading:?}");
    let records = index.records();
    let sections = records[reference as usize][3].as_array().unwrap();
    let section = &sections[heading.2 as usize];
    assert!(
        section[1]
            .as_str()
            .unwrap()
            .to_lowercase()
            .contains("errors"),
        "the section of the heading: {section}"
    );
    assert!(
        index.postings("cookies").is_none(),
        "footer text is not indexed"
    );

    // Every record names a page that was written, with its title; docs in menu order, each once.
    let docs = index.meta["docs"].as_u64().unwrap();
    assert_eq!(records.len() as u64, docs);
    let mut seen = std::collections::BTreeSet::new();
    for record in &records {
        let url = record[0].as_str().unwrap();
        assert!(seen.insert(url.to_string()), "{url} twice");
        let file = format!(
            "{}/index.html",
            url.trim_end_matches('/').trim_start_matches('/')
        );
        assert!(index.files.contains_key(&file), "{file} is not written");
        assert!(!record[2].as_str().unwrap().is_empty(), "{url} has a title");
    }
    assert_eq!(
        records[reference as usize][2], "API Reference",
        "the title of the reference page"
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
