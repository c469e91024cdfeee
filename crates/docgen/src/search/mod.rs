//! The site search: a static index the app queries in the reader's browser, written by every
//! build from the page bodies it renders anyway (no second pass over the site, no extra tool).
//!
//! The files, under `_docgen/search/` (all but `index.json` named by a digest of their bytes or
//! inputs, so a CDN may cache them forever):
//! - `index.json`: the list of shards (by first term), how many docs each excerpt file holds
//!   and the digest in their names, the area and platform of every doc, run-length encoded, the
//!   docs that are one page across platforms, and the site's synonyms (`IndexFile`).
//! - `s/<n>.<digest>.json`: a shard of the inverted index:
//!   `{"t": {term: [df, doc, score, section, ...]}}` with doc numbers delta-encoded (`shards`).
//!   A query fetches the shards of its words only. `score` is the term's BM25F weight in the doc
//!   (`score`), already normalised by the length of each field, times 4, plus 1 when the term is
//!   in the title and 2 when it is in a heading; `section` is the section it counts most in.
//! - `x/<n>.<digest>.json`: what a result shows of each doc, in doc order, a file per
//!   `EXCERPT_BYTES`, all named by one digest of them all (`excerpt_files`): `[href, [breadcrumb], title, [[anchor, heading, window], ...]]`, one
//!   section per h2/h3 after the text before the first heading (see `text`). A query fetches
//!   the files of the results it shows, never the pages themselves.
//!
//! Docs are numbered in menu order (pages outside the menu after, by route), so a tie between
//! two pages goes to the one the menu shows first, and the pages of one platform are neighbours.
//!
//! Words follow `tokens`, stems `stem`; the app's engine (`frontend/src/search/engine.ts`) reads
//! the same format, so both change together.

pub mod live;
pub mod stem;
pub mod text;
pub mod tokens;

use std::hash::{Hash, Hasher};
use std::path::PathBuf;
use std::sync::Mutex;

use rayon::prelude::*;
use rustc_hash::{FxHashMap, FxHasher};
use serde::Serialize;

use crate::content::Page;
use crate::model::Site;
use crate::paths::{ContentHasher, content_hash};

/// Where the index lives in the output folder.
pub const FOLDER: &str = "_docgen/search";
/// Postings kept per term: the best by weight (a word on every page ranks nothing).
const MAX_POSTINGS: usize = 2000;
/// Bytes of postings per shard before the next one starts (about a third of that gzipped).
const SHARD_BYTES: usize = 24 << 10;
/// Bytes of excerpts per file before the next one starts (about 40% of that gzipped).
const EXCERPT_BYTES: usize = 6 << 10;

/// A page's fields: its title, its h2/h3 headings, the names its tables and definition lists
/// define, and the rest (`text::Text`).
const FIELDS: usize = 4;
const TITLE: usize = 0;
const HEADING: usize = 1;
const NAME: usize = 2;
const BODY: usize = 3;
/// BM25F: what one occurrence in each field but the title is worth…
const FIELD_WEIGHT: [f32; FIELDS] = [0.0, 4.0, 2.5, 1.0];
/// …and the title, saturated on its own and added: a word of the title outweighs any number of
/// mentions in the text.
const TITLE_SHARE: f32 = 2.0;
/// …and how much a field longer than the site's average lowers it (0: not at all).
const FIELD_B: [f32; FIELDS] = [0.3, 0.4, 0.3, 0.75];
/// BM25's term-frequency saturation.
const K1: f32 = 1.2;
/// The field lengths a posting is judged by when a term's postings are cut to `MAX_POSTINGS`,
/// before the site's averages are known: fixed, so the cut does not depend on the order pages
/// arrive in.
const PIVOT: [f32; FIELDS] = [5.0, 60.0, 30.0, 800.0];
/// Steps of a stored score (`score`).
const SCORE_STEPS: f32 = 100.0;
/// No section: a term of the title only.
const NO_SECTION: u16 = u16::MAX;

/// A doc of the index of one locale: an index of `Config::locales` and its number there.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Doc {
    pub locale: u32,
    pub number: u32,
}

/// Which pages are indexed and under which doc numbers, decided before any page is rendered
/// so each page's words can be added as soon as it is.
///
/// Each locale has an index of its own, under its prefix (`zh/_docgen/search/`), holding every
/// page of the locale: its translations, and the default language's pages it shows where it has
/// none (a reader of `/zh/` finds every page there, in the language it is written in).
#[derive(Debug, Clone)]
pub struct Plan {
    /// Route → doc, for the indexed pages (canonical routes, in menu order).
    docs: FxHashMap<String, Doc>,
    /// The index of each locale, the default's first.
    locales: Vec<LocaleIndex>,
    /// A digest of the settings the index is made with (search, locales).
    settings: u64,
}

/// What the index of one locale says besides the words.
#[derive(Debug, Clone, Hash)]
struct LocaleIndex {
    /// Its folder in the output: `FOLDER`, under the locale's prefix.
    folder: String,
    /// Per doc, the start of its excerpt record: its address with the base path and its
    /// breadcrumb, as JSON (`["/a/b",["A"],`).
    heads: Vec<String>,
    index: IndexTables,
}

/// The folder of the index of a locale whose route prefix is `prefix` (`/zh`, "" for the
/// default).
pub fn folder(prefix: &str) -> String {
    match prefix.strip_prefix('/') {
        Some(code) => format!("{code}/{FOLDER}"),
        None => FOLDER.to_string(),
    }
}

/// What `index.json` says besides the shards and excerpt files.
#[derive(Debug, Clone, Hash)]
struct IndexTables {
    areas: Vec<String>,
    /// Per area and platform: the address of its section, for the app to know where the
    /// reader is.
    area_hrefs: Vec<String>,
    area: Vec<(u32, i32)>,
    platforms: Vec<String>,
    platform_hrefs: Vec<String>,
    platform: Vec<(u32, i32)>,
    /// Docs that are one page across platforms (same route below the platform's), in menu order.
    twins: Vec<Vec<u32>>,
    synonyms: Vec<Vec<String>>,
}

impl Plan {
    /// Whether `path` (relative to the output folder) is a file of one of this site's indexes:
    /// under `FOLDER`, at the root or under a locale's prefix (never another version's, whose
    /// folder holds its own).
    pub fn holds(&self, path: &std::path::Path) -> bool {
        self.locales.iter().any(|l| path.starts_with(&l.folder))
    }

    /// `None` when the site turned search off.
    pub fn new(site: &Site<'_>) -> Option<Plan> {
        let config = &site.config.site;
        if !config.search.enabled {
            return None;
        }
        let menu = menu_order(site);
        let mut by_locale: Vec<Vec<(&str, &Page)>> = vec![Vec::new(); site.config.locales.len()];
        for (route, entry) in site.routes.iter().filter(|(_, e)| indexes(site, e)) {
            let page = &*site.pages[entry.page];
            by_locale[page.locale].push((route.as_str(), page));
        }
        let mut docs = FxHashMap::default();
        let mut locales = Vec::with_capacity(by_locale.len());
        for (locale, mut indexed) in by_locale.into_iter().enumerate() {
            // Routes are sorted already: a stable sort by menu place keeps the rest in route order.
            indexed.sort_by_key(|(r, _)| menu.get(*r).copied().unwrap_or(u32::MAX));
            for (number, (route, _)) in indexed.iter().enumerate() {
                docs.insert(
                    route.to_string(),
                    Doc {
                        locale: locale as u32,
                        number: number as u32,
                    },
                );
            }
            let routes: Vec<&str> = indexed.iter().map(|(r, _)| *r).collect();
            locales.push(LocaleIndex::new(site, locale, &routes));
        }
        let mut settings = FxHasher::default();
        format!("{:?}", (&config.search, &site.config.locales)).hash(&mut settings);
        Some(Plan {
            docs,
            locales,
            settings: settings.finish(),
        })
    }

    /// A key of everything the index files are made from: the plan, and each doc's page as
    /// its render fingerprint (`fingerprint`, under `global`) says it is. `None` when a doc's
    /// fingerprint is not known. Equal keys, equal files.
    pub fn key(&self, global: u64, fingerprint: impl Fn(&str) -> Option<u64>) -> Option<u64> {
        let mut docs: Vec<(Doc, &str)> = self.docs.iter().map(|(r, &d)| (d, r.as_str())).collect();
        docs.sort_unstable_by_key(|(d, _)| (d.locale, d.number));
        let mut h = FxHasher::default();
        (global, self.settings, &self.locales).hash(&mut h);
        for (_, route) in docs {
            (route, fingerprint(route)?).hash(&mut h);
        }
        Some(h.finish())
    }

    /// The doc of the page at `route`, if it is indexed.
    pub fn doc_of(&self, route: &str) -> Option<Doc> {
        self.docs.get(route).copied()
    }

    /// The indexed routes and their docs.
    pub fn docs(&self) -> impl Iterator<Item = (&str, Doc)> {
        self.docs.iter().map(|(r, &d)| (r.as_str(), d))
    }
}

impl LocaleIndex {
    /// The index of locale `locale`, of the pages at `routes` (in doc order).
    fn new(site: &Site<'_>, locale: usize, routes: &[&str]) -> LocaleIndex {
        let config = &site.config.site;
        let l = &site.config.locales[locale];
        let of_locale =
            |route: &str| crate::model::locales::locale_of(site.config, route) == locale;
        let roots: Vec<usize> = site
            .nav
            .roots
            .iter()
            .copied()
            .filter(|&r| of_locale(&site.nav.nodes[r].route))
            .collect();
        let areas: Vec<String> = roots
            .iter()
            .map(|&r| site.nav.nodes[r].label.clone())
            .collect();
        let area_hrefs = roots
            .iter()
            .map(|&r| site.href(&site.nav.nodes[r].route))
            .collect();
        let platforms: Vec<String> = config
            .search
            .platforms
            .iter()
            .map(|p| p.display_name.clone())
            .collect();
        let platform_hrefs = config
            .search
            .platforms
            .iter()
            .map(|p| site.href(&l.route(&p.route)))
            .collect();
        let mut twins: std::collections::BTreeMap<&str, Vec<u32>> = Default::default();
        let mut area = Vec::new();
        let mut platform = Vec::new();
        let mut heads = Vec::with_capacity(routes.len());
        for (doc, route) in routes.iter().enumerate() {
            // Platforms are named by their routes in the default locale.
            let unprefixed = l.unprefixed(route).unwrap_or(route);
            let p = platform_of(site, unprefixed);
            if p >= 0 {
                let below = &unprefixed[config.search.platforms[p as usize].route.len()..];
                twins.entry(below).or_default().push(doc as u32);
            }
            let a = site
                .area_of(route)
                .and_then(|n| roots.iter().position(|&r| r == n))
                .map_or(-1, |i| i as i32);
            push_run(&mut area, a);
            push_run(&mut platform, p);
            let crumbs: Vec<&str> = crate::view::page::breadcrumbs(site, route)
                .iter()
                .filter(|c| c.url != *route)
                .map(|c| c.display_name)
                .collect();
            heads.push(format!(
                "[{},{},",
                json_string(&site.href(route)),
                serde_json::to_string(&crumbs).expect("strings")
            ));
        }
        LocaleIndex {
            folder: folder(&l.prefix),
            heads,
            index: IndexTables {
                areas,
                area_hrefs,
                area,
                platforms,
                platform_hrefs,
                platform,
                twins: twins.into_values().filter(|docs| docs.len() > 1).collect(),
                synonyms: config.search.synonyms.clone(),
            },
        }
    }
}

/// Each route of the menu by its place in it, depth first as the menu reads.
fn menu_order<'s>(site: &'s Site<'_>) -> FxHashMap<&'s str, u32> {
    let nav = &site.nav;
    let mut order = FxHashMap::default();
    let mut stack: Vec<usize> = nav.roots.iter().rev().copied().collect();
    while let Some(n) = stack.pop() {
        let node = &nav.nodes[n];
        let next = order.len() as u32;
        order.entry(node.route.as_str()).or_insert(next);
        stack.extend(node.children.iter().rev());
    }
    order
}

fn json_string(s: &str) -> String {
    serde_json::to_string(s).expect("a string")
}

/// Appends `s` as a JSON string to `out`.
fn push_json_string(out: &mut Vec<u8>, s: &str) {
    serde_json::to_writer(out, s).expect("a string");
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

/// Where a term stands in a page: its count in each field (capped at 255), and the section it
/// counts most in (the first whose heading holds it, else the first whose names do, else the
/// first whose text does).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Occurrence {
    pub counts: [u8; FIELDS],
    pub section: u16,
}

/// A page's distinct words with where they stand, its field lengths and what a result shows of
/// it, in few buffers: a site has millions of words, too many for a string each.
#[derive(Debug, Default)]
pub struct Terms {
    words: String,
    /// Per word: where it ends in `words`, where it stands.
    ends: Vec<(u32, Occurrence)>,
    /// Per word: its `hash_of`, which the vocabulary looks it up by.
    hashes: Vec<u64>,
    /// Words per field.
    lengths: [u32; FIELDS],
    /// The end of the page's excerpt record: `"title",[[anchor,heading,window],...]]`.
    excerpt: String,
}

impl Terms {
    /// The words and where they stand, in no particular order.
    pub fn iter(&self) -> impl Iterator<Item = (&str, Occurrence)> {
        let mut start = 0;
        self.ends.iter().map(move |&(end, occurrence)| {
            let word = &self.words[start..end as usize];
            start = end as usize;
            (word, occurrence)
        })
    }

    /// The words with their `hash_of` and where they stand.
    fn iter_hashed(&self) -> impl Iterator<Item = (&str, u64, Occurrence)> {
        self.iter()
            .zip(&self.hashes)
            .map(|((word, at), &hash)| (word, hash, at))
    }

    pub fn len(&self) -> usize {
        self.ends.len()
    }

    pub fn is_empty(&self) -> bool {
        self.ends.is_empty()
    }
}

/// Counts a page's words as they are split: each distinct word is copied once, into the buffer
/// that becomes its `Terms`, and looked up by its place in that buffer, so a repeated word
/// costs a hash and a compare, not a string.
#[derive(Default)]
struct TermCounter {
    words: String,
    /// Per distinct word, in the order first seen.
    counted: Vec<Counted>,
    lengths: [u32; FIELDS],
    /// Indexes into `counted`, by the word's hash.
    table: hashbrown::HashTable<u32>,
}

/// A distinct word of a page as it is counted.
struct Counted {
    /// Where it starts and ends in `TermCounter::words`.
    start: u32,
    end: u32,
    /// Its `hash_of`.
    hash: u64,
    at: Occurrence,
    /// The field its section was taken from (`FIELDS`: none yet).
    section_field: u8,
}

impl TermCounter {
    /// Sized for `text_len` bytes of text: prose has about one new word per 17 bytes, and a
    /// table that never grows is never rehashed.
    fn with_capacity(text_len: usize) -> Self {
        let words = text_len / 12 + 16;
        TermCounter {
            words: String::with_capacity(words * 8),
            counted: Vec::with_capacity(words),
            lengths: [0; FIELDS],
            table: hashbrown::HashTable::with_capacity(words),
        }
    }

    /// Counts the words of `text`, of `field`, in `section`.
    fn add(&mut self, text: &str, field: usize, section: u16) {
        let mut terms = 0;
        tokens::for_each_term(text, |term| {
            terms += 1;
            let hash = hash_of(term);
            let (words, counted) = (self.words.as_bytes(), &self.counted);
            let same = |&i: &u32| {
                let c = &counted[i as usize];
                c.hash == hash && &words[c.start as usize..c.end as usize] == term.as_bytes()
            };
            let i = if let Some(&i) = self.table.find(hash, same) {
                i as usize
            } else {
                let start = self.words.len() as u32;
                self.words.push_str(term);
                self.counted.push(Counted {
                    start,
                    end: self.words.len() as u32,
                    hash,
                    at: Occurrence {
                        counts: [0; FIELDS],
                        section: NO_SECTION,
                    },
                    section_field: FIELDS as u8,
                });
                let counted = &self.counted;
                self.table
                    .insert_unique(hash, counted.len() as u32 - 1, |&i| {
                        counted[i as usize].hash
                    });
                counted.len() - 1
            };
            let c = &mut self.counted[i];
            c.at.counts[field] = c.at.counts[field].saturating_add(1);
            if field != TITLE && (field as u8) < c.section_field {
                c.at.section = section;
                c.section_field = field as u8;
            }
        });
        self.lengths[field] += terms;
    }

    fn finish(self, excerpt: String) -> Terms {
        Terms {
            ends: self.counted.iter().map(|c| (c.end, c.at)).collect(),
            hashes: self.counted.iter().map(|c| c.hash).collect(),
            words: self.words,
            lengths: self.lengths,
            excerpt,
        }
    }
}

fn hash_of(word: &str) -> u64 {
    let mut h = FxHasher::default();
    h.write(word.as_bytes());
    h.finish()
}

/// The words of a page and what a result shows of it, from its rendered body.
pub fn terms(page: &Page, body_html: &str) -> Terms {
    let text = text::read(body_html);
    let mut counter = TermCounter::with_capacity(
        page.title.len() + text.headings.len() + text.names.len() + text.body.len(),
    );
    counter.add(&page.title, TITLE, NO_SECTION);
    let fields = [
        (HEADING, &text.headings),
        (NAME, &text.names),
        (BODY, &text.body),
    ];
    let mut excerpt = Vec::with_capacity(64 + text.sections.len() * 256);
    push_json_string(&mut excerpt, &page.title);
    excerpt.extend_from_slice(b",[");
    for (i, section) in text.sections.iter().enumerate() {
        let n = i.min(NO_SECTION as usize - 1) as u16;
        for (f, (field, text_of)) in fields.iter().enumerate() {
            let end = text
                .sections
                .get(i + 1)
                .map_or(text_of.len(), |next| next.starts[f]);
            counter.add(&text_of[section.starts[f]..end], *field, n);
        }
        if i > 0 {
            excerpt.push(b',');
        }
        excerpt.push(b'[');
        push_json_string(&mut excerpt, &section.anchor);
        excerpt.push(b',');
        push_json_string(&mut excerpt, &section.heading);
        excerpt.push(b',');
        push_json_string(&mut excerpt, &section.window);
        excerpt.push(b']');
    }
    excerpt.extend_from_slice(b"]]");
    counter.finish(String::from_utf8(excerpt).expect("JSON is UTF-8"))
}

/// A term's BM25F weight in a doc: its counts per field, each divided by how much longer than
/// `average` the field is, weighted and summed, then saturated; the title's the same on its
/// own, times `TITLE_SHARE`. At most `MAX_WEIGHT`.
fn bm25f(counts: [u8; FIELDS], lengths: [u32; FIELDS], average: [f32; FIELDS]) -> f32 {
    let normalised = |f: usize| {
        let norm = 1.0 - FIELD_B[f] + FIELD_B[f] * lengths[f] as f32 / average[f].max(1.0);
        counts[f] as f32 / norm
    };
    let saturate = |tf: f32| tf * (K1 + 1.0) / (tf + K1);
    let rest: f32 = (HEADING..FIELDS)
        .filter(|&f| counts[f] > 0)
        .map(|f| FIELD_WEIGHT[f] * normalised(f))
        .sum();
    let title = if counts[TITLE] > 0 {
        TITLE_SHARE * saturate(normalised(TITLE))
    } else {
        0.0
    };
    saturate(rest) + title
}

const MAX_WEIGHT: f32 = (1.0 + TITLE_SHARE) * (K1 + 1.0);

/// A posting as written: the weight in `SCORE_STEPS` steps of `MAX_WEIGHT`, times 4, plus 1
/// when the term is in the title and 2 when it is in a heading.
fn score(counts: [u8; FIELDS], lengths: [u32; FIELDS], average: [f32; FIELDS]) -> u32 {
    let steps = (bm25f(counts, lengths, average) / MAX_WEIGHT * SCORE_STEPS).round();
    let steps = steps.clamp(1.0, SCORE_STEPS) as u32;
    steps * 4 + u32::from(counts[TITLE] > 0) + 2 * u32::from(counts[HEADING] > 0)
}

/// The inverted index of each locale being gathered: pages add their words as they are
/// rendered, from any thread, in any order.
#[derive(Default)]
pub struct Postings(Mutex<Vec<Vocabulary>>);

#[derive(Default)]
struct Vocabulary {
    /// Each word's id, by its `hash_of` (which `Terms` brings along).
    ids: hashbrown::HashTable<WordSlot>,
    /// Per id: the word.
    words: Vec<Box<str>>,
    terms: Vec<TermPostings>,
    /// Per doc: its field lengths and its excerpt record's end (see `Terms`), empty when the
    /// record is in `spilled`.
    docs: Vec<([u32; FIELDS], Box<str>)>,
    spilled: Spill,
}

/// A word's id in the vocabulary's table, and the word itself when it is short (most are):
/// finding it then reads no other memory than the table's.
#[derive(Clone, Copy)]
struct WordSlot {
    id: u32,
    /// The word's length, 255 for any longer.
    len: u8,
    short: [u8; SHORT_WORD],
}

/// Bytes of a word kept in its `WordSlot` (which is then 24 bytes).
const SHORT_WORD: usize = 19;

impl WordSlot {
    fn new(id: u32, word: &str) -> Self {
        let mut short = [0; SHORT_WORD];
        if word.len() <= SHORT_WORD {
            short[..word.len()].copy_from_slice(word.as_bytes());
        }
        WordSlot {
            id,
            len: word.len().min(255) as u8,
            short,
        }
    }

    fn holds(&self, word: &str, words: &[Box<str>]) -> bool {
        self.len as usize == word.len().min(255)
            && if word.len() <= SHORT_WORD {
                &self.short[..word.len()] == word.as_bytes()
            } else {
                &*words[self.id as usize] == word
            }
    }
}

/// Bytes of excerpt records held in memory; the others wait in a file of the system's
/// temporary folder until the excerpt files are made (at 100,000 pages they are 150 MB).
const EXCERPTS_HELD: usize = 32 << 20;

/// The excerpt records past `EXCERPTS_HELD`, in a file that is deleted when closed.
struct Spill {
    /// Bytes of records held in memory before any goes to the file.
    budget: usize,
    /// Bytes of records so far.
    seen: usize,
    file: Option<std::fs::File>,
    end: u64,
    /// Each spilled doc's record: where it starts in the file and its length.
    at: FxHashMap<u32, (u64, u32)>,
}

impl Default for Spill {
    fn default() -> Self {
        Spill {
            budget: EXCERPTS_HELD,
            seen: 0,
            file: None,
            end: 0,
            at: FxHashMap::default(),
        }
    }
}

impl Spill {
    /// Puts `record` in the file once the records in memory fill their share; `false` when it
    /// stays in memory (also when the file cannot be written: memory is the fallback).
    fn keep(&mut self, doc: u32, record: &str) -> bool {
        use std::io::{Seek, SeekFrom, Write};
        self.at.remove(&doc);
        self.seen += record.len();
        if self.seen <= self.budget || record.is_empty() {
            return false;
        }
        if self.file.is_none() {
            self.file = tempfile::tempfile().ok();
        }
        let Some(file) = &mut self.file else {
            return false;
        };
        let written = file
            .seek(SeekFrom::Start(self.end))
            .and_then(|_| file.write_all(record.as_bytes()));
        if written.is_err() {
            return false;
        }
        self.at.insert(doc, (self.end, record.len() as u32));
        self.end += record.len() as u64;
        true
    }

    /// Appends doc `doc`'s record to `out` if it is in the file.
    fn read_into(&mut self, doc: u32, out: &mut String) -> std::io::Result<bool> {
        use std::io::{Read, Seek, SeekFrom};
        let (Some(&(start, len)), Some(file)) = (self.at.get(&doc), &mut self.file) else {
            return Ok(false);
        };
        file.seek(SeekFrom::Start(start))?;
        let mut bytes = vec![0; len as usize];
        file.read_exact(&mut bytes)?;
        let text = String::from_utf8(bytes)
            .map_err(|e| std::io::Error::new(std::io::ErrorKind::InvalidData, e))?;
        out.push_str(&text);
        Ok(true)
    }
}

/// One posting: a doc and where the term stands in it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Posting {
    doc: u32,
    at: Occurrence,
}

/// One term's postings as they arrive: how many docs hold it, and the best `MAX_POSTINGS` of
/// them. Only those are written, so only those are kept: memory grows with the vocabulary,
/// not with the site (at 100,000 pages a term on every page would otherwise hold 100,000).
#[derive(Default)]
struct TermPostings {
    df: u32,
    /// Trimmed to the best `MAX_POSTINGS` whenever it reaches twice that, so adding stays O(1)
    /// on average.
    kept: Vec<Posting>,
}

/// A posting with its weight at the `PIVOT` lengths, ordered best first: a higher weight, then
/// a lower doc number, so the postings kept do not depend on the order the docs arrived in.
#[derive(Debug, Clone, Copy)]
struct Ranked {
    weight: f32,
    posting: Posting,
}

impl Ord for Ranked {
    fn cmp(&self, other: &Self) -> std::cmp::Ordering {
        other
            .weight
            .total_cmp(&self.weight)
            .then(self.posting.doc.cmp(&other.posting.doc))
    }
}

impl PartialOrd for Ranked {
    fn partial_cmp(&self, other: &Self) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}

impl PartialEq for Ranked {
    fn eq(&self, other: &Self) -> bool {
        self.cmp(other).is_eq()
    }
}

impl Eq for Ranked {}

impl Ranked {
    /// `posting` weighed at the `PIVOT` lengths, its doc's field lengths being `lengths`: how a
    /// build's cut and a live update's judge postings alike.
    fn new(posting: Posting, lengths: [u32; FIELDS]) -> Self {
        Ranked {
            weight: bm25f(posting.at.counts, lengths, PIVOT),
            posting,
        }
    }

    /// `posting` weighed by its doc's lengths in `docs` (none known: zero).
    fn of(posting: Posting, docs: &[([u32; FIELDS], Box<str>)]) -> Self {
        let lengths = docs.get(posting.doc as usize).map_or([0; FIELDS], |d| d.0);
        Ranked::new(posting, lengths)
    }
}

impl TermPostings {
    fn add(&mut self, posting: Posting, docs: &[([u32; FIELDS], Box<str>)]) {
        self.df += 1;
        self.kept.push(posting);
        if self.kept.len() >= 2 * MAX_POSTINGS {
            self.trim(docs);
        }
    }

    /// Keeps the best `MAX_POSTINGS` (see `Ranked`). Each posting is weighed once, not at
    /// every comparison.
    fn trim(&mut self, docs: &[([u32; FIELDS], Box<str>)]) {
        if self.kept.len() > MAX_POSTINGS {
            let mut ranked: Vec<Ranked> = self
                .kept
                .drain(..)
                .map(|posting| Ranked::of(posting, docs))
                .collect();
            ranked.select_nth_unstable(MAX_POSTINGS);
            self.kept
                .extend(ranked[..MAX_POSTINGS].iter().map(|r| r.posting));
        }
    }

    /// The kept postings by doc.
    fn by_doc(mut self, docs: &[([u32; FIELDS], Box<str>)]) -> Vec<Posting> {
        self.trim(docs);
        self.kept.sort_unstable_by_key(|p| p.doc);
        self.kept
    }
}

impl Postings {
    pub fn add(&self, doc: Doc, terms: &Terms) {
        let mut guard = self.0.lock().expect("not poisoned");
        let locale = doc.locale as usize;
        if guard.len() <= locale {
            guard.resize_with(locale + 1, Vocabulary::default);
        }
        let v = &mut guard[locale];
        let doc = doc.number;
        let d = doc as usize;
        if v.docs.len() <= d {
            v.docs.resize(d + 1, ([0; FIELDS], Box::from("")));
        }
        let held = match v.spilled.keep(doc, &terms.excerpt) {
            true => Box::default(),
            false => terms.excerpt.as_str().into(),
        };
        v.docs[d] = (terms.lengths, held);
        for (term, hash, at) in terms.iter_hashed() {
            let words = &v.words;
            let id = match v.ids.find(hash, |slot| slot.holds(term, words)) {
                Some(slot) => slot.id,
                None => {
                    let id = v.terms.len() as u32;
                    v.words.push(term.into());
                    v.terms.push(TermPostings::default());
                    let words = &v.words;
                    v.ids.insert_unique(hash, WordSlot::new(id, term), |slot| {
                        hash_of(&words[slot.id as usize])
                    });
                    id
                }
            };
            v.terms[id as usize].add(Posting { doc, at }, &v.docs);
        }
    }

    /// Each locale's `index.json`, shards and excerpt files: (path, bytes).
    pub fn files(self, plan: &Plan) -> std::io::Result<Vec<(PathBuf, Vec<u8>)>> {
        let mut files = Vec::new();
        self.make_files(plan, &mut |path, bytes| files.push((path, bytes)))?;
        Ok(files)
    }

    /// Gives `sink` each locale's shards, excerpt files and `index.json` as they are made,
    /// so a large index is never all in memory; the postings are let go as they are written.
    /// Fails only when the excerpt records kept in a temporary file cannot be read back.
    pub fn make_files(
        self,
        plan: &Plan,
        sink: &mut dyn FnMut(PathBuf, Vec<u8>),
    ) -> std::io::Result<()> {
        self.make(plan, sink, false).map(|_| ())
    }

    /// `make_files`, keeping the index as written for in-place updates (`live::Live`): what a
    /// preview server does.
    pub fn make_files_kept(
        self,
        plan: &Plan,
        sink: &mut dyn FnMut(PathBuf, Vec<u8>),
    ) -> std::io::Result<live::Live> {
        self.make(plan, sink, true)
            .map(|live| live.unwrap_or_default())
    }

    fn make(
        self,
        plan: &Plan,
        sink: &mut dyn FnMut(PathBuf, Vec<u8>),
        keep: bool,
    ) -> std::io::Result<Option<live::Live>> {
        let mut vocabularies = self.0.into_inner().expect("not poisoned").into_iter();
        let mut kept = Vec::new();
        for locale in &plan.locales {
            let v = vocabularies.next().unwrap_or_default();
            let made = locale_files(v, locale, sink, keep)?;
            kept.extend(made);
        }
        Ok(keep.then(|| live::Live::new(kept)))
    }
}

/// The files of one locale's index, given to `sink`; with `keep`, the index as written.
fn locale_files(
    mut v: Vocabulary,
    plan: &LocaleIndex,
    sink: &mut dyn FnMut(PathBuf, Vec<u8>),
    keep: bool,
) -> std::io::Result<Option<live::LiveLocale>> {
    let folder = plan.folder.as_str();
    let mut docs = std::mem::take(&mut v.docs);
    let mut average = [0f32; FIELDS];
    for (lengths, _) in &docs {
        for f in 0..FIELDS {
            average[f] += lengths[f] as f32;
        }
    }
    for a in &mut average {
        *a /= docs.len().max(1) as f32;
    }
    let mut kept = keep.then(|| live::LiveLocale::new(average, &docs));
    let mut terms: Vec<(Box<str>, u32)> =
        std::mem::take(&mut v.words).into_iter().zip(0..).collect();
    // JavaScript compares strings by UTF-16 code units; the app looks shards up so.
    terms.par_sort_unstable_by(|(a, _), (b, _)| utf16_order(a, b));
    let mut shards: Vec<(String, String)> = Vec::new();
    let mut shard = String::from(SHARD_START);
    let mut first: Option<&str> = None;
    let mut previous: Option<&str> = None;
    let finish = |shards: &mut Vec<(String, String)>,
                  shard: &mut String,
                  first: &str,
                  sink: &mut dyn FnMut(PathBuf, Vec<u8>)| {
        shard.push_str(SHARD_END);
        let name = shard_name(shards.len(), shard);
        sink(
            PathBuf::from(format!("{folder}/{name}")),
            std::mem::take(shard).into_bytes(),
        );
        shards.push((first.to_string(), name));
        *shard = String::from(SHARD_START);
    };
    // Each word's posting list is made on every core, a block of words at a time (memory holds
    // one block's lists, not the index); the shards are then filled in the words' order.
    for block in terms.chunks(LIST_BLOCK) {
        let postings: Vec<TermPostings> = block
            .iter()
            .map(|(_, id)| std::mem::take(&mut v.terms[*id as usize]))
            .collect();
        let made: Vec<(u32, Vec<Posting>, String)> = postings
            .into_par_iter()
            .map(|postings| {
                let df = postings.df;
                let by_doc = postings.by_doc(&docs);
                let entry = posting_list(df, &by_doc, |d| lengths_of(&docs, d), average);
                (df, by_doc, entry)
            })
            .collect();
        for ((term, _), (df, by_doc, entry)) in block.iter().zip(made) {
            // A new shard when this one is full, but never between two words of one stem:
            // the app finds a word's forms in the shard of the word.
            if first.is_some()
                && shard.len() + entry.len() > SHARD_BYTES
                && previous.is_none_or(|p| stem::stem(p) != stem::stem(term))
            {
                finish(
                    &mut shards,
                    &mut shard,
                    first.take().unwrap_or_default(),
                    sink,
                );
            }
            if first.is_none() {
                first = Some(term);
            } else {
                shard.push(',');
            }
            push_entry(&mut shard, term, &entry);
            if let Some(kept) = &mut kept {
                kept.push_term(term, shards.len(), df, by_doc, entry);
            }
            previous = Some(term);
        }
    }
    if let Some(f) = first {
        finish(&mut shards, &mut shard, f, sink);
    }
    let excerpts = excerpt_files(plan, &mut docs, &mut v.spilled, sink)?;
    if let Some(kept) = &mut kept {
        kept.set_files(&shards, &excerpts);
    }
    sink(
        PathBuf::from(format!("{folder}/index.json")),
        index_json(plan, shards, excerpts),
    );
    Ok(kept)
}

/// How the shards are sorted: as JavaScript compares strings, by UTF-16 code units. That is
/// UTF-8's byte order, but for a code point past U+FFFF (a surrogate pair, from 0xD800) against
/// one from U+E000 to U+FFFF: so the bytes are compared up to where they differ, and only where
/// those two kinds of characters start there (lead bytes 0xF0-0xF4 against 0xEE-0xEF) is the
/// order the other way round. A difference inside a character both start alike is one between
/// characters of one length, which UTF-8 and UTF-16 order alike.
fn utf16_order(a: &str, b: &str) -> std::cmp::Ordering {
    let (a, b) = (a.as_bytes(), b.as_bytes());
    let same = a.iter().zip(b).take_while(|(x, y)| x == y).count();
    match (a.get(same), b.get(same)) {
        (Some(&x), Some(&y)) => {
            let past_bmp = |c: u8| c >= 0xF0;
            let late_bmp = |c: u8| c == 0xEE || c == 0xEF;
            if (past_bmp(x) && late_bmp(y)) || (late_bmp(x) && past_bmp(y)) {
                y.cmp(&x)
            } else {
                x.cmp(&y)
            }
        }
        (x, y) => x.is_some().cmp(&y.is_some()),
    }
}

/// Words whose posting lists are made side by side, then added to the shards in order.
const LIST_BLOCK: usize = 4096;

const SHARD_START: &str = "{\"t\":{";
const SHARD_END: &str = "}}";

/// A shard's name under the index's folder: its number and a digest of its bytes.
fn shard_name(number: usize, bytes: &str) -> String {
    format!("s/{number}.{}.json", content_hash(bytes.as_bytes()))
}

/// `"term":[postings]`, a shard's entry.
fn push_entry(shard: &mut String, term: &str, entry: &str) {
    shard.push_str(&json_string(term));
    shard.push(':');
    shard.push_str(entry);
}

fn lengths_of(docs: &[([u32; FIELDS], Box<str>)], doc: u32) -> [u32; FIELDS] {
    docs.get(doc as usize).map_or([0; FIELDS], |d| d.0)
}

/// `index.json` of one locale, naming its `shards` and `excerpts`.
fn index_json(
    plan: &LocaleIndex,
    shards: Vec<(String, String)>,
    excerpts: ExcerptFiles,
) -> Vec<u8> {
    let index = IndexFile {
        version: 3,
        docs: plan.heads.len(),
        shards,
        excerpts,
        areas: &plan.index.areas,
        area_hrefs: &plan.index.area_hrefs,
        area: &plan.index.area,
        platforms: &plan.index.platforms,
        platform_hrefs: &plan.index.platform_hrefs,
        platform: &plan.index.platform,
        twins: &plan.index.twins,
        synonyms: &plan.index.synonyms,
    };
    serde_json::to_vec(&index).expect("serializable")
}

/// Writes the excerpt records of every doc, in doc order, a file per `EXCERPT_BYTES`; returns
/// how many docs each file holds and the digest in their names.
///
/// The files are named by their number and one digest of them all, so `index.json` lists no
/// file: at 10,000 pages a name per file would be most of its bytes. The price: a build that
/// changes any excerpt renames them all (a reader's cache of them goes stale with each deploy).
/// The files are made twice, first for the digest, then to be written, so that they are never
/// all in memory (at 100,000 pages they are 150 MB).
fn excerpt_files(
    plan: &LocaleIndex,
    docs: &mut [([u32; FIELDS], Box<str>)],
    spilled: &mut Spill,
    sink: &mut dyn FnMut(PathBuf, Vec<u8>),
) -> std::io::Result<ExcerptFiles> {
    let mut all = ContentHasher::new();
    let mut sizes = Vec::new();
    excerpt_bodies(plan, docs, spilled, false, &mut |body, size| {
        all.update(&body.len().to_le_bytes());
        all.update(body.as_bytes());
        sizes.push(size as u32);
    })?;
    let digest = all.finish();
    let mut n = 0;
    excerpt_bodies(plan, docs, spilled, true, &mut |body, _| {
        sink(
            PathBuf::from(format!("{}/x/{n}.{digest}.json", plan.folder)),
            body.into_bytes(),
        );
        n += 1;
    })?;
    Ok(ExcerptFiles { digest, sizes })
}

/// Each excerpt file's body and number of docs, in order; with `take`, each record is let go
/// once copied.
fn excerpt_bodies(
    plan: &LocaleIndex,
    docs: &mut [([u32; FIELDS], Box<str>)],
    spilled: &mut Spill,
    take: bool,
    each: &mut dyn FnMut(String, usize),
) -> std::io::Result<()> {
    let mut file = String::new();
    let mut size = 0;
    for (doc, head) in plan.heads.iter().enumerate() {
        start_record(&mut file, head);
        // A doc no page gave words for (none, when every page was rendered) still has a title.
        let record = docs.get_mut(doc).map(|d| &mut d.1);
        match record {
            Some(excerpt) if !excerpt.is_empty() => {
                file.push_str(excerpt);
                if take {
                    *excerpt = Box::default();
                }
            }
            _ if spilled.read_into(doc as u32, &mut file)? => {}
            _ => file.push_str(NO_RECORD),
        }
        size += 1;
        if file.len() >= EXCERPT_BYTES {
            file.push(']');
            each(std::mem::take(&mut file), size);
            size = 0;
        }
    }
    if !file.is_empty() {
        file.push(']');
        each(file, size);
    }
    Ok(())
}

/// The end of the record of a doc without words: no title, no sections.
const NO_RECORD: &str = "\"\",[]]";

/// Starts a doc's record in an excerpt file being made: after the one before it, its head.
fn start_record(file: &mut String, head: &str) {
    file.push(if file.is_empty() { '[' } else { ',' });
    file.push_str(head);
}

/// `[df, doc, score, section, doc delta, score, section, ...]` for one term, its postings in
/// doc order; section -1 for a term of the title only.
fn posting_list(
    df: u32,
    postings: &[Posting],
    lengths_of: impl Fn(u32) -> [u32; FIELDS],
    average: [f32; FIELDS],
) -> String {
    let mut out = String::with_capacity(postings.len() * 8 + 8);
    let mut number = itoa::Buffer::new();
    out.push('[');
    out.push_str(number.format(df));
    let mut previous = 0;
    for p in postings {
        let lengths = lengths_of(p.doc);
        out.push(',');
        out.push_str(number.format(p.doc - previous));
        out.push(',');
        out.push_str(number.format(score(p.at.counts, lengths, average)));
        out.push(',');
        if p.at.section == NO_SECTION {
            out.push_str("-1");
        } else {
            out.push_str(number.format(p.at.section));
        }
        previous = p.doc;
    }
    out.push(']');
    out
}

/// The excerpt files, as `index.json` tells them.
#[derive(Serialize, Clone)]
struct ExcerptFiles {
    digest: String,
    sizes: Vec<u32>,
}

/// `_docgen/search/index.json`.
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct IndexFile<'a> {
    version: u32,
    docs: usize,
    /// [first term, file under `_docgen/search/`], in term order.
    shards: Vec<(String, String)>,
    /// The excerpt files: `x/<n>.<digest>.json`, file n holding the `sizes[n]` docs after those
    /// of the files before it.
    excerpts: ExcerptFiles,
    areas: &'a [String],
    /// The address of each area's section.
    area_hrefs: &'a [String],
    /// Run-length: [count, area index or -1] over the docs in order.
    area: &'a [(u32, i32)],
    platforms: &'a [String],
    platform_hrefs: &'a [String],
    platform: &'a [(u32, i32)],
    /// Docs that are one page across platforms, in menu order: they rank together.
    twins: &'a [Vec<u32>],
    /// Groups of phrases a query may use for one another (`search.synonyms`).
    synonyms: &'a [Vec<String>],
}

#[cfg(test)]
pub(super) mod tests {
    use super::*;

    fn at(counts: [u8; FIELDS], section: u16) -> Occurrence {
        Occurrence { counts, section }
    }

    #[test]
    fn words_sort_by_utf16_code_units_as_javascript_compares_them() {
        // ASCII, Latin, a BMP character past the surrogates (U+FF21), characters past U+FFFF
        // (U+1F600, U+20000, U+1F601) that UTF-8 puts after it and UTF-16 before it, prefixes.
        let words = [
            "",
            "a",
            "ab",
            "abc",
            "b",
            "z",
            "é",
            "éa",
            "中",
            "中文",
            "\u{ff21}",
            "\u{ffff}",
            "\u{1f600}",
            "\u{1f601}",
            "\u{20000}",
            "a\u{1f600}",
            "a\u{ff21}",
            "a\u{e000}",
            "a\u{d7ff}",
            "\u{10000}",
            "\u{10400}",
        ];
        for a in words {
            for b in words {
                assert_eq!(
                    utf16_order(a, b),
                    a.encode_utf16().cmp(b.encode_utf16()),
                    "{a:?} against {b:?}"
                );
            }
        }
    }

    #[test]
    fn words_of_characters_at_every_utf8_length_boundary_sort_as_javascript_sorts_them() {
        // Words of up to four characters drawn (by a fixed pseudo-random sequence) from the ends
        // of each UTF-8 length and the ranges either side of the surrogates.
        let alphabet = [
            'a',
            '\u{7f}',
            '\u{80}',
            'é',
            '\u{7ff}',
            '\u{800}',
            '中',
            '\u{d7ff}',
            '\u{e000}',
            '\u{ef00}',
            '\u{ff21}',
            '\u{ffff}',
            '\u{10000}',
            '\u{1f600}',
            '\u{10ffff}',
        ];
        let mut seed = 0x2545_f491_4f6c_dd1du64;
        let mut next = |n: usize| {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            (seed % n as u64) as usize
        };
        let words: Vec<String> = (0..400)
            .map(|_| {
                (0..next(5))
                    .map(|_| alphabet[next(alphabet.len())])
                    .collect()
            })
            .collect();
        for a in &words {
            for b in &words {
                assert_eq!(
                    utf16_order(a, b),
                    a.encode_utf16().cmp(b.encode_utf16()),
                    "{a:?} against {b:?}"
                );
            }
        }
    }

    /// An index of `n` docs of one locale, `/p0`, `/p1`, …
    pub(in crate::search) fn plan(n: u32) -> Plan {
        Plan {
            docs: (0..n)
                .map(|d| {
                    let doc = Doc {
                        locale: 0,
                        number: d,
                    };
                    (format!("/p{d}"), doc)
                })
                .collect(),
            locales: vec![locale_index(n)],
            settings: 0,
        }
    }

    fn locale_index(n: u32) -> LocaleIndex {
        LocaleIndex {
            folder: FOLDER.into(),
            heads: (0..n).map(|d| format!("[\"/p{d}\",[\"Area\"],")).collect(),
            index: IndexTables {
                areas: vec![],
                area_hrefs: vec![],
                area: vec![],
                platforms: vec![],
                platform_hrefs: vec![],
                platform: vec![],
                twins: vec![],
                synonyms: vec![vec!["mrec".into(), "medium rectangle".into()]],
            },
        }
    }

    fn docs(n: usize) -> Vec<([u32; FIELDS], Box<str>)> {
        vec![([3, 10, 0, 300], Box::from("")); n]
    }

    #[test]
    fn each_locale_has_its_folder_under_its_prefix() {
        assert_eq!(folder(""), "_docgen/search");
        assert_eq!(folder("/zh"), "zh/_docgen/search");
        // Two locales' words go to two indexes, each numbering its own docs.
        let postings = Postings::default();
        for (locale, word) in [(0, "banner"), (1, "横幅")] {
            let mut counter = TermCounter::with_capacity(10);
            counter.add(word, BODY, 0);
            postings.add(Doc { locale, number: 0 }, &counter.finish(String::new()));
        }
        let mut zh = locale_index(1);
        zh.folder = folder("/zh");
        let plan = Plan {
            docs: FxHashMap::default(),
            locales: vec![locale_index(1), zh],
            settings: 0,
        };
        // The plan knows its own index files, not another version's (`12.x/_docgen/search`).
        let path = std::path::Path::new;
        assert!(plan.holds(path("_docgen/search/index.json")));
        assert!(plan.holds(path("zh/_docgen/search/s/0.ab.json")));
        assert!(!plan.holds(path("zh/docs/index.html")));
        assert!(!plan.holds(path("12.x/_docgen/search/index.json")));
        let files = postings.files(&plan).unwrap();
        let shard = |folder: &str| -> String {
            let (_, bytes) = files
                .iter()
                .find(|(p, _)| p.starts_with(format!("{folder}/s/")))
                .unwrap();
            String::from_utf8(bytes.clone()).unwrap()
        };
        assert!(shard("_docgen/search").contains("\"banner\""));
        assert!(!shard("_docgen/search").contains("横幅"));
        assert!(shard("zh/_docgen/search").contains("\"横幅\""));
        assert!(!shard("zh/_docgen/search").contains("banner"));
        assert!(
            files
                .iter()
                .any(|(p, _)| p == std::path::Path::new("zh/_docgen/search/index.json"))
        );
    }

    /// A term on five times `MAX_POSTINGS` docs is trimmed while its postings come: what is
    /// kept is the best `MAX_POSTINGS` of all, whatever the order they came in.
    #[test]
    fn the_postings_kept_are_the_best_whatever_the_order_they_come_in() {
        let n = 5 * MAX_POSTINGS as u32;
        // Docs of varied lengths and counts, so that weights differ and some tie.
        let docs: Vec<([u32; FIELDS], Box<str>)> = (0..n)
            .map(|d| ([3, 10, 0, 100 + (d * 37) % 900], Box::from("")))
            .collect();
        let posting = |doc: u32| Posting {
            doc,
            at: at(
                [0, u8::from(doc.is_multiple_of(3)), 0, 1 + (doc % 5) as u8],
                0,
            ),
        };
        let mut expected: Vec<Ranked> = (0..n).map(|d| Ranked::of(posting(d), &docs)).collect();
        expected.sort();
        let mut expected: Vec<u32> = expected[..MAX_POSTINGS]
            .iter()
            .map(|r| r.posting.doc)
            .collect();
        expected.sort_unstable();
        for step in [1, 7919, 104_729] {
            let mut t = TermPostings::default();
            for i in 0..n {
                t.add(posting((i * step) % n), &docs);
            }
            assert_eq!(t.df, n);
            let kept: Vec<u32> = t.by_doc(&docs).iter().map(|p| p.doc).collect();
            assert_eq!(kept, expected, "order {step}");
        }
    }

    #[test]
    fn posting_lists_are_delta_encoded_with_scores_and_sections_and_capped_by_weight() {
        let docs = docs(3000);
        let mut t = TermPostings::default();
        for (doc, counts, section) in [
            (7, [0, 0, 0, 1], 2),
            (3, [1, 1, 0, 0], 0),
            (12, [1, 0, 0, 0], NO_SECTION),
        ] {
            t.add(
                Posting {
                    doc,
                    at: at(counts, section),
                },
                &docs,
            );
        }
        let average = [3.0, 10.0, 1.0, 300.0];
        let list = posting_list(t.df, &t.by_doc(&docs), |d| lengths_of(&docs, d), average);
        let body = score([0, 0, 0, 1], [3, 10, 0, 300], average);
        let both = score([1, 1, 0, 0], [3, 10, 0, 300], average);
        let title = score([1, 0, 0, 0], [3, 10, 0, 300], average);
        assert_eq!(list, format!("[3,3,{both},0,4,{body},2,5,{title},-1]"));
        assert_eq!(both & 3, 3, "flags: in the title and a heading");
        assert_eq!(title & 3, 1);
        assert_eq!(body & 3, 0);
        assert!(both >> 2 > title >> 2 && title >> 2 > body >> 2);
        // 3000 docs arriving out of order, every third holding the word in a heading.
        let mut t = TermPostings::default();
        for i in 0..3000u32 {
            let doc = (i * 7919) % 3000;
            let counts = if doc % 3 == 0 {
                [0, 1, 0, 0]
            } else {
                [0, 0, 0, 1]
            };
            t.add(
                Posting {
                    doc,
                    at: at(counts, 0),
                },
                &docs,
            );
        }
        assert_eq!(t.df, 3000, "df counts every doc");
        let kept = t.by_doc(&docs);
        assert_eq!(kept.len(), MAX_POSTINGS);
        assert_eq!(
            kept.iter().filter(|p| p.at.counts[HEADING] == 1).count(),
            1000
        );
        let light: Vec<u32> = kept
            .iter()
            .filter(|p| p.at.counts[BODY] == 1)
            .map(|p| p.doc)
            .collect();
        assert_eq!(light.last(), Some(&1499), "then the lowest doc numbers");
        assert!(kept.windows(2).all(|w| w[0].doc < w[1].doc));
    }

    #[test]
    fn fields_weigh_title_then_headings_then_names_then_text() {
        let lengths = [5, 20, 20, 500];
        let average = [5.0, 20.0, 20.0, 500.0];
        let one = |f: usize| {
            let mut counts = [0; FIELDS];
            counts[f] = 1;
            bm25f(counts, lengths, average)
        };
        assert!(one(TITLE) > one(HEADING) && one(HEADING) > one(NAME) && one(NAME) > one(BODY));
        // Saturation: ten mentions in the text do not beat the title.
        assert!(bm25f([0, 0, 0, 10], lengths, average) < one(TITLE));
    }

    #[test]
    fn a_long_page_weighs_a_word_less_than_a_short_one() {
        let average = [5.0, 20.0, 20.0, 500.0];
        let short = bm25f([0, 0, 0, 3], [5, 20, 20, 200], average);
        let long = bm25f([0, 0, 0, 3], [5, 20, 20, 5000], average);
        assert!(short > 1.5 * long, "{short} {long}");
        let few_rows = bm25f([0, 0, 2, 0], [5, 20, 10, 500], average);
        let many_rows = bm25f([0, 0, 2, 0], [5, 20, 400, 500], average);
        assert!(
            few_rows > many_rows,
            "a table of many names weighs each less"
        );
    }

    #[test]
    fn a_page_counts_its_words_by_field_and_section() {
        let page_html = concat!(
            "<p>Intro banner</p><h2 id=\"load\">Load a banner</h2><p>Call load.</p>",
            "<table><tr><td>bcat</td><td>Blocked banner categories</td></tr></table>",
        );
        let text = text::read(page_html);
        let mut counter = TermCounter::with_capacity(10);
        counter.add("Banners", TITLE, NO_SECTION);
        let fields = [&text.headings, &text.names, &text.body];
        for (i, section) in text.sections.iter().enumerate() {
            for (f, field) in fields.iter().enumerate() {
                let end = text
                    .sections
                    .get(i + 1)
                    .map_or(field.len(), |n| n.starts[f]);
                counter.add(&field[section.starts[f]..end], f + 1, i as u16);
            }
        }
        let terms = counter.finish(String::new());
        let found: FxHashMap<&str, Occurrence> = terms.iter().collect();
        assert_eq!(
            found["banner"],
            at([0, 1, 0, 2], 1),
            "the section of its heading"
        );
        assert_eq!(found["banners"], at([1, 0, 0, 0], NO_SECTION));
        assert_eq!(found["bcat"], at([0, 0, 1, 0], 1));
        assert_eq!(found["intro"], at([0, 0, 0, 1], 0));
        assert_eq!(terms.lengths, [1, 2, 1, 7], "one-letter words do not count");
    }

    #[test]
    fn many_words_and_a_word_repeated_past_a_byte() {
        // Far more distinct words than the counter was sized for, so its table grows.
        let text: String = (0..3000).map(|i| format!("w{} Same ", i % 1500)).collect();
        let mut counter = TermCounter::with_capacity(10);
        counter.add("Same Title", TITLE, NO_SECTION);
        counter.add(&text, BODY, 0);
        let terms = counter.finish(String::new());
        let counted: FxHashMap<&str, Occurrence> = terms.iter().collect();
        assert_eq!(terms.len(), counted.len(), "no word twice");
        assert_eq!(counted.len(), 1500 + 2);
        assert_eq!(counted["w7"].counts, [0, 0, 0, 2]);
        assert_eq!(counted["same"].counts, [1, 0, 0, 255], "capped at a byte");
    }

    #[test]
    fn excerpt_records_kept_in_a_file_make_the_same_files() {
        let make = |budget: usize| {
            let postings = Postings(Mutex::new(vec![Vocabulary {
                spilled: Spill {
                    budget,
                    ..Spill::default()
                },
                ..Vocabulary::default()
            }]));
            // Out of order, and one doc given twice (a preview server renders it again).
            for doc in (0..300u32).rev().chain([7]) {
                let text = format!("alpha w{} beta", doc % 17);
                let mut counter = TermCounter::with_capacity(text.len());
                counter.add(&text, BODY, 0);
                let record = format!("\"Page {doc} {}\",[[\"\",\"\",\"text\"]]]", "x".repeat(40));
                postings.add(
                    Doc {
                        locale: 0,
                        number: doc,
                    },
                    &counter.finish(record),
                );
            }
            let spilled = postings.0.lock().unwrap()[0].spilled.at.len();
            (postings.files(&plan(300)).unwrap(), spilled)
        };
        let (held, none) = make(usize::MAX);
        let (spilled, in_file) = make(1000);
        assert_eq!(none, 0);
        assert!(in_file > 250, "{in_file} records in the file");
        assert_eq!(held, spilled);
    }

    #[test]
    fn shards_split_the_vocabulary_in_order_and_are_deterministic() {
        let make = || {
            let postings = Postings::default();
            for doc in 0..400u32 {
                let words: Vec<String> = (0..60)
                    .map(|i| format!("w{:03}", (doc * 7 + i) % 900))
                    .collect();
                let text = words.join(" ") + " loading loaded loads";
                let mut counter = TermCounter::with_capacity(text.len());
                counter.add(&text, BODY, 0);
                postings.add(
                    Doc {
                        locale: 0,
                        number: doc,
                    },
                    &counter.finish(format!("\"Page {doc}\",[[\"\",\"\",\"text\"]]]")),
                );
            }
            postings.files(&plan(400)).unwrap()
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
        assert_eq!(index["version"], 3);
        assert_eq!(index["synonyms"][0][1], "medium rectangle");
        let firsts: Vec<&str> = index["shards"]
            .as_array()
            .unwrap()
            .iter()
            .map(|s| s[0].as_str().unwrap())
            .collect();
        assert!(firsts.windows(2).all(|w| w[0] < w[1]));
        // The forms of one stem share a shard.
        assert!(
            firsts
                .iter()
                .all(|f| !f.starts_with("load") || *f == "loaded")
        );
        for (path, bytes) in shards {
            assert!(
                bytes.len() <= SHARD_BYTES + 200 * 8,
                "{path:?} is {} bytes",
                bytes.len()
            );
        }
        // The excerpt files hold every doc in order: address, breadcrumb, title, sections.
        let digest = index["excerpts"]["digest"].as_str().unwrap();
        let mut first = 0;
        let records: Vec<serde_json::Value> = index["excerpts"]["sizes"]
            .as_array()
            .unwrap()
            .iter()
            .enumerate()
            .flat_map(|(n, size)| {
                let path = PathBuf::from(format!("{FOLDER}/x/{n}.{digest}.json"));
                let file = files.iter().find(|(p, _)| *p == path).unwrap();
                assert!(file.1.len() < EXCERPT_BYTES + 200);
                let list: Vec<serde_json::Value> = serde_json::from_slice(&file.1).unwrap();
                assert_eq!(list.len() as u64, size.as_u64().unwrap());
                assert_eq!(list[0][0], format!("/p{first}"));
                first += list.len();
                list
            })
            .collect();
        assert!(
            files
                .iter()
                .filter(|(p, _)| p.starts_with("_docgen/search/x"))
                .count()
                > 3,
            "several excerpt files"
        );
        assert_eq!(records.len(), 400);
        assert_eq!(
            records[64],
            serde_json::json!(["/p64", ["Area"], "Page 64", [["", "", "text"]]])
        );
        assert_eq!(files, make(), "the same input makes the same bytes");
    }
}
