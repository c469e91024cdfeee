//! The site search: a static index the app queries in the reader's browser, written by every
//! build from the page bodies it renders anyway (no second pass over the site, no extra tool).
//!
//! The files, under `_docgen/search/` (all but `index.json` named by a digest of their bytes or
//! inputs, so a CDN may cache them forever):
//! - `index.json`: the list of shards (by first term), the names of the doc lists of each
//!   chunk of 64 pages, and the area and platform of every page, run-length encoded
//!   (`IndexFile`).
//! - `s/<n>.<digest>.json`: a shard of the inverted index: `{"t": {term: [df, doc, weight, ...]}}`
//!   with doc numbers delta-encoded (`shards`). A query fetches the shards of its words only.
//! - `d/<digest>.json`: the addresses of a chunk's pages, in doc order. For the results it
//!   shows, the app reads the title, breadcrumb and sections of each page from the page's own
//!   HTML, the file client-side navigation fetches anyway: the text is not written twice, and
//!   the output holds one small file per 64 pages rather than one per page.
//!
//! Words follow `tokens`; the app's engine (`frontend/src/search/engine.ts`) reads the same
//! format, so both change together.

pub mod text;
pub mod tokens;

use std::hash::{Hash, Hasher};
use std::path::PathBuf;
use std::sync::Mutex;

use rustc_hash::{FxHashMap, FxHasher};
use serde::Serialize;
use sha2::{Digest, Sha256};

use crate::content::Page;
use crate::model::Site;

/// Where the index lives in the output folder.
pub const FOLDER: &str = "_docgen/search";
/// Pages per doc list.
pub const CHUNK: usize = 64;
/// Postings kept per term: the best by weight (a word on every page ranks nothing).
const MAX_POSTINGS: usize = 2000;
/// Bytes of postings per shard before the next one starts (about a third of that gzipped).
const SHARD_BYTES: usize = 24 << 10;

const TITLE_WEIGHT: u32 = 10;
const HEADING_WEIGHT: u32 = 4;

/// Which pages are indexed and under which doc numbers, decided before any page is rendered
/// so each page's words can be added as soon as it is.
#[derive(Debug, Clone)]
pub struct Plan {
    /// Route → doc number, for the indexed pages (canonical routes, in route order).
    docs: FxHashMap<String, u32>,
    /// Per doc, its address with the base path.
    hrefs: Vec<String>,
    /// Per chunk of `CHUNK` docs: the name of its doc list, a digest of the list.
    chunks: Vec<String>,
    index: IndexTables,
}

/// What `index.json` says besides the shards.
#[derive(Debug, Clone)]
struct IndexTables {
    areas: Vec<String>,
    area: Vec<(u32, i32)>,
    platforms: Vec<String>,
    platform: Vec<(u32, i32)>,
}

impl Plan {
    /// `None` when the site turned search off.
    pub fn new(site: &Site<'_>) -> Option<Plan> {
        let config = &site.config.site;
        if !config.search.enabled {
            return None;
        }
        let indexed: Vec<(&str, &Page)> = site
            .routes
            .iter()
            .filter(|(_, e)| indexes(site, e))
            .map(|(r, e)| (r.as_str(), &*site.pages[e.page]))
            .collect();
        let areas: Vec<String> = site
            .nav
            .roots
            .iter()
            .map(|&r| site.nav.nodes[r].label.clone())
            .collect();
        let platforms: Vec<String> = config
            .search
            .platforms
            .iter()
            .map(|p| p.display_name.clone())
            .collect();
        let mut area = Vec::new();
        let mut platform = Vec::new();
        for (route, _) in &indexed {
            let a = site
                .area_of(route)
                .and_then(|n| site.nav.roots.iter().position(|&r| r == n))
                .map_or(-1, |i| i as i32);
            push_run(&mut area, a);
            push_run(&mut platform, platform_of(site, route));
        }
        let hrefs: Vec<String> = indexed.iter().map(|(r, _)| site.href(r)).collect();
        let chunks = hrefs.chunks(CHUNK).map(chunk_name).collect();
        Some(Plan {
            docs: indexed
                .iter()
                .enumerate()
                .map(|(i, (r, _))| (r.to_string(), i as u32))
                .collect(),
            hrefs,
            chunks,
            index: IndexTables {
                areas,
                area,
                platforms,
                platform,
            },
        })
    }

    /// The doc lists: (path, bytes).
    fn chunk_files(&self) -> Vec<(PathBuf, Vec<u8>)> {
        self.hrefs
            .chunks(CHUNK)
            .zip(&self.chunks)
            .map(|(hrefs, name)| {
                (
                    PathBuf::from(format!("{FOLDER}/d/{name}.json")),
                    serde_json::to_vec(hrefs).expect("serializable"),
                )
            })
            .collect()
    }

    /// The doc number of the page at `route`, if it is indexed.
    pub fn doc_of(&self, route: &str) -> Option<u32> {
        self.docs.get(route).copied()
    }

    /// The indexed routes and their doc numbers.
    pub fn docs(&self) -> impl Iterator<Item = (&str, u32)> {
        self.docs.iter().map(|(r, &d)| (r.as_str(), d))
    }
}

/// A doc list's name: a digest of the addresses it holds.
fn chunk_name(hrefs: &[String]) -> String {
    let mut h = FxHasher::default();
    hrefs.hash(&mut h);
    format!("{:010x}", h.finish() & 0xff_ffff_ffff)
}

/// Whether the page at a route is found through search: at its canonical route only, and not
/// when it requires a feature the site does not enable.
pub fn indexes(site: &Site<'_>, entry: &crate::model::RouteEntry) -> bool {
    let features = &site.config.site.features;
    site.config.site.search.enabled
        && entry.canonical
        && site.pages[entry.page]
            .front
            .require_feature
            .as_ref()
            .is_none_or(|f| features.contains(f))
}

fn push_run(runs: &mut Vec<(u32, i32)>, value: i32) {
    match runs.last_mut() {
        Some((n, v)) if *v == value => *n += 1,
        _ => runs.push((1, value)),
    }
}

/// The platform of a page: the longest `search.platforms` route that holds it.
fn platform_of(site: &Site<'_>, route: &str) -> i32 {
    site.config
        .site
        .search
        .platforms
        .iter()
        .enumerate()
        .filter(|(_, p)| crate::model::nav::is_prefix(&p.route, route))
        .max_by_key(|(_, p)| p.route.len())
        .map_or(-1, |(i, _)| i as i32)
}

/// A page's distinct words with their weights, in one buffer: a site has millions of them,
/// too many for a string each.
#[derive(Debug, Default)]
pub struct Terms {
    words: String,
    /// Per word: where it ends in `words`, its weight.
    ends: Vec<(u32, u8)>,
}

impl Terms {
    /// The words and weights, in no particular order.
    pub fn iter(&self) -> impl Iterator<Item = (&str, u8)> {
        let mut start = 0;
        self.ends.iter().map(move |&(end, weight)| {
            let word = &self.words[start..end as usize];
            start = end as usize;
            (word, weight)
        })
    }

    pub fn len(&self) -> usize {
        self.ends.len()
    }

    pub fn is_empty(&self) -> bool {
        self.ends.is_empty()
    }
}

impl<'a> FromIterator<(&'a str, u8)> for Terms {
    fn from_iter<I: IntoIterator<Item = (&'a str, u8)>>(iter: I) -> Self {
        let mut terms = Terms::default();
        for (word, weight) in iter {
            terms.words.push_str(word);
            terms.ends.push((terms.words.len() as u32, weight));
        }
        terms
    }
}

/// Sums the weights of a page's words as they are split: each distinct word is copied once,
/// into the buffer that becomes its `Terms`, and looked up by its place in that buffer, so a
/// repeated word costs a hash and a compare, not a string.
#[derive(Default)]
struct TermCounter {
    words: String,
    /// Per distinct word, in the order first seen: where it starts and ends in `words`.
    spans: Vec<(u32, u32)>,
    weights: Vec<u32>,
    /// Indexes into `spans`, by the word's hash.
    table: hashbrown::HashTable<u32>,
}

impl TermCounter {
    /// Sized for `text_len` bytes of text: prose has about one new word per 17 bytes, and a
    /// table that never grows is never rehashed.
    fn with_capacity(text_len: usize) -> Self {
        let words = text_len / 12 + 16;
        TermCounter {
            words: String::with_capacity(words * 8),
            spans: Vec::with_capacity(words),
            weights: Vec::with_capacity(words),
            table: hashbrown::HashTable::with_capacity(words),
        }
    }

    fn add(&mut self, text: &str, weight: u32) {
        tokens::for_each_term(text, |term| {
            let hash = hash_of(term);
            let (words, spans) = (&self.words, &self.spans);
            let word = |i: &u32| {
                let (start, end) = spans[*i as usize];
                &words[start as usize..end as usize]
            };
            if let Some(&i) = self.table.find(hash, |i| word(i) == term) {
                self.weights[i as usize] += weight;
                return;
            }
            let start = self.words.len() as u32;
            self.words.push_str(term);
            self.spans.push((start, self.words.len() as u32));
            self.weights.push(weight);
            let (words, spans) = (&self.words, &self.spans);
            self.table
                .insert_unique(hash, spans.len() as u32 - 1, |&i| {
                    let (start, end) = spans[i as usize];
                    hash_of(&words[start as usize..end as usize])
                });
        });
    }

    fn finish(self) -> Terms {
        Terms {
            ends: self
                .spans
                .iter()
                .zip(&self.weights)
                .map(|(&(_, end), &w)| (end, w.min(255) as u8))
                .collect(),
            words: self.words,
        }
    }
}

fn hash_of(word: &str) -> u64 {
    let mut h = FxHasher::default();
    h.write(word.as_bytes());
    h.finish()
}

/// The weighted words of a page, from its rendered body.
pub fn terms(page: &Page, body_html: &str) -> Terms {
    let text = text::read(body_html);
    let mut counter =
        TermCounter::with_capacity(page.title.len() + text.headings.len() + text.body.len());
    counter.add(&page.title, TITLE_WEIGHT);
    counter.add(&text.headings, HEADING_WEIGHT);
    counter.add(&text.body, 1);
    counter.finish()
}

/// The inverted index being gathered: pages add their words as they are rendered, from any
/// thread, in any order.
#[derive(Default)]
pub struct Postings(Mutex<Vocabulary>);

#[derive(Default)]
struct Vocabulary {
    ids: FxHashMap<Box<str>, u32>,
    terms: Vec<TermPostings>,
}

/// One term's postings as they arrive: how many docs hold it, and the best `MAX_POSTINGS` of
/// them. Only those are written, so only those are kept: memory grows with the vocabulary,
/// not with the site (at 100,000 pages a term on every page would otherwise hold 100,000).
#[derive(Default)]
struct TermPostings {
    df: u32,
    /// (doc, weight); trimmed to the best `MAX_POSTINGS` whenever it reaches twice that, so
    /// adding stays O(1) on average.
    kept: Vec<(u32, u8)>,
}

impl TermPostings {
    fn add(&mut self, doc: u32, weight: u8) {
        self.df += 1;
        self.kept.push((doc, weight));
        if self.kept.len() >= 2 * MAX_POSTINGS {
            self.trim();
        }
    }

    /// Keeps the best `MAX_POSTINGS`: a higher weight, then a lower doc number, so the result
    /// does not depend on the order the docs arrived in.
    fn trim(&mut self) {
        if self.kept.len() > MAX_POSTINGS {
            let better = |a: &(u32, u8), b: &(u32, u8)| b.1.cmp(&a.1).then(a.0.cmp(&b.0));
            self.kept.select_nth_unstable_by(MAX_POSTINGS, better);
            self.kept.truncate(MAX_POSTINGS);
        }
    }

    /// The kept postings by doc.
    fn by_doc(mut self) -> Vec<(u32, u8)> {
        self.trim();
        self.kept.sort_unstable();
        self.kept
    }
}

impl Postings {
    pub fn add(&self, doc: u32, terms: &Terms) {
        let mut v = self.0.lock().expect("not poisoned");
        for (term, weight) in terms.iter() {
            let id = match v.ids.get(term) {
                Some(&id) => id,
                None => {
                    let id = v.terms.len() as u32;
                    v.ids.insert(term.into(), id);
                    v.terms.push(TermPostings::default());
                    id
                }
            };
            v.terms[id as usize].add(doc, weight);
        }
    }

    /// `index.json`, the shards and the doc lists: (path, bytes).
    pub fn files(self, plan: &Plan) -> Vec<(PathBuf, Vec<u8>)> {
        let mut v = self.0.into_inner().expect("not poisoned");
        let mut terms: Vec<(Box<str>, u32)> = v.ids.into_iter().collect();
        // JavaScript compares strings by UTF-16 code units; the app looks shards up so.
        terms.sort_by_cached_key(|(t, _)| t.encode_utf16().collect::<Vec<u16>>());
        let mut files = Vec::new();
        let mut shards: Vec<(String, String)> = Vec::new();
        let mut shard = String::from("{\"t\":{");
        let mut first: Option<&str> = None;
        let mut finish = |shard: &mut String, first: &str, files: &mut Vec<(PathBuf, Vec<u8>)>| {
            shard.push_str("}}");
            let digest = Sha256::digest(shard.as_bytes());
            let hash: String = digest.iter().take(5).map(|b| format!("{b:02x}")).collect();
            let name = format!("s/{}.{hash}.json", shards.len());
            files.push((
                PathBuf::from(format!("_docgen/search/{name}")),
                std::mem::take(shard).into_bytes(),
            ));
            shards.push((first.to_string(), name));
            *shard = String::from("{\"t\":{");
        };
        for (term, id) in &terms {
            let postings = std::mem::take(&mut v.terms[*id as usize]);
            let df = postings.df;
            let entry = posting_list(df, &postings.by_doc());
            if first.is_some() && shard.len() + entry.len() > SHARD_BYTES {
                finish(&mut shard, first.take().unwrap_or_default(), &mut files);
            }
            if first.is_none() {
                first = Some(term);
            } else {
                shard.push(',');
            }
            shard.push_str(&serde_json::to_string(&**term).expect("a string"));
            shard.push(':');
            shard.push_str(&entry);
        }
        if let Some(f) = first {
            finish(&mut shard, f, &mut files);
        }
        files.extend(plan.chunk_files());
        let index = IndexFile {
            version: 2,
            docs: plan.docs.len(),
            shards,
            chunk: CHUNK,
            chunks: &plan.chunks,
            areas: &plan.index.areas,
            area: &plan.index.area,
            platforms: &plan.index.platforms,
            platform: &plan.index.platform,
        };
        files.push((
            PathBuf::from("_docgen/search/index.json"),
            serde_json::to_vec(&index).expect("serializable"),
        ));
        files
    }
}

/// `[df, doc, weight, doc delta, weight, ...]` for one term, its postings in doc order.
fn posting_list(df: u32, pairs: &[(u32, u8)]) -> String {
    let mut out = String::with_capacity(pairs.len() * 6 + 8);
    out.push('[');
    out.push_str(&df.to_string());
    let mut previous = 0;
    for &(doc, weight) in pairs {
        use std::fmt::Write;
        let _ = write!(out, ",{},{weight}", doc - previous);
        previous = doc;
    }
    out.push(']');
    out
}

/// `_docgen/search/index.json`.
#[derive(Serialize)]
struct IndexFile<'a> {
    version: u32,
    docs: usize,
    /// [first term, file under `_docgen/search/`], in term order.
    shards: Vec<(String, String)>,
    /// Docs per doc list, and the names of the lists (`d/<name>.json`), in doc order.
    chunk: usize,
    chunks: &'a [String],
    areas: &'a [String],
    /// Run-length: [count, area index or -1] over the docs in order.
    area: &'a [(u32, i32)],
    platforms: &'a [String],
    platform: &'a [(u32, i32)],
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn posting_lists_are_delta_encoded_and_capped_by_weight() {
        let mut t = TermPostings::default();
        for (doc, weight) in [(7, 1), (3, 10), (12, 2)] {
            t.add(doc, weight);
        }
        assert_eq!(posting_list(t.df, &t.by_doc()), "[3,3,10,4,1,5,2]");
        // 3000 docs arriving out of order, every third heavy.
        let mut t = TermPostings::default();
        for i in 0..3000u32 {
            let doc = (i * 7919) % 3000;
            t.add(doc, if doc % 3 == 0 { 9 } else { 1 });
        }
        assert_eq!(t.df, 3000, "df counts every doc");
        let kept = t.by_doc();
        assert_eq!(kept.len(), MAX_POSTINGS);
        // All 1000 heavy docs are kept, then the light ones with the lowest numbers.
        assert_eq!(kept.iter().filter(|(_, w)| *w == 9).count(), 1000);
        let light: Vec<u32> = kept
            .iter()
            .filter(|(_, w)| *w == 1)
            .map(|(d, _)| *d)
            .collect();
        assert_eq!(light.last(), Some(&1499));
        assert!(kept.windows(2).all(|w| w[0].0 < w[1].0));
    }

    #[test]
    fn shards_split_the_vocabulary_in_order_and_are_deterministic() {
        let make = || {
            let postings = Postings::default();
            for doc in 0..400u32 {
                let words: Vec<(String, u8)> = (0..60)
                    .map(|i| (format!("w{:03}", (doc * 7 + i) % 900), (i % 5) as u8 + 1))
                    .collect();
                let terms: Terms = words.iter().map(|(w, n)| (w.as_str(), *n)).collect();
                postings.add(doc, &terms);
            }
            let hrefs: Vec<String> = (0..400).map(|d| format!("/p{d}")).collect();
            let plan = Plan {
                docs: (0..400).map(|d| (format!("/p{d}"), d)).collect(),
                chunks: hrefs.chunks(CHUNK).map(chunk_name).collect(),
                hrefs,
                index: IndexTables {
                    areas: vec![],
                    area: vec![],
                    platforms: vec![],
                    platform: vec![],
                },
            };
            postings.files(&plan)
        };
        let files = make();
        let shards: Vec<_> = files
            .iter()
            .filter(|(p, _)| p.starts_with("_docgen/search/s"))
            .collect();
        assert!(shards.len() > 3, "several shards");
        let index = files
            .iter()
            .find(|(p, _)| p.ends_with("index.json"))
            .unwrap();
        let index: serde_json::Value = serde_json::from_slice(&index.1).unwrap();
        let firsts: Vec<&str> = index["shards"]
            .as_array()
            .unwrap()
            .iter()
            .map(|s| s[0].as_str().unwrap())
            .collect();
        assert!(firsts.windows(2).all(|w| w[0] < w[1]));
        for (path, bytes) in shards {
            assert!(
                bytes.len() <= SHARD_BYTES + 200,
                "{path:?} is {} bytes",
                bytes.len()
            );
        }
        // The doc lists hold the pages' addresses in doc order, 64 to a list.
        let lists: Vec<Vec<String>> = index["chunks"]
            .as_array()
            .unwrap()
            .iter()
            .map(|name| {
                let path = PathBuf::from(format!("{FOLDER}/d/{}.json", name.as_str().unwrap()));
                let list = files.iter().find(|(p, _)| *p == path).unwrap();
                serde_json::from_slice(&list.1).unwrap()
            })
            .collect();
        assert_eq!(lists.len(), 7);
        assert_eq!(lists[1][0], "/p64");
        assert_eq!(lists.concat().len(), 400);
        let again = make();
        assert_eq!(files, again, "the same input makes the same bytes");
    }

    #[test]
    fn a_page_counts_each_word_once_with_its_weights_summed() {
        // Far more distinct words than the counter was sized for, so its table grows.
        let text: String = (0..3000).map(|i| format!("w{} Same ", i % 1500)).collect();
        let mut counter = TermCounter::with_capacity(10);
        counter.add("Same Title", TITLE_WEIGHT);
        counter.add(&text, 1);
        let terms = counter.finish();
        let counted: FxHashMap<&str, u8> = terms.iter().collect();
        assert_eq!(terms.len(), counted.len(), "no word twice");
        assert_eq!(counted.len(), 1500 + 2);
        assert_eq!(counted["title"], TITLE_WEIGHT as u8);
        assert_eq!(counted["w7"], 2, "two occurrences of weight 1");
        assert_eq!(counted["same"], 255, "capped at a byte");
    }
}
