//! The search index as last written, kept by the preview server so that a save changes only
//! the shards and the excerpt file its words touch, in the same write as its page.
//!
//! In place, the rest of the index keeps what it was made with: the site's average field
//! lengths, the shards' boundaries and every file's name (a digest of what it held when the
//! index was made whole; the preview server serves them uncached). A word new to the site
//! joins the shard its place in the order falls in. The server makes the index whole again,
//! names and all, as a build would, when the writer pauses.

use rustc_hash::{FxHashMap, FxHashSet};
use std::path::PathBuf;

use super::{
    Doc, ExcerptFiles, FIELDS, MAX_POSTINGS, NO_RECORD, Plan, Posting, Ranked, SHARD_END,
    SHARD_START, Terms, index_json, posting_list, push_entry, score, start_record, stem,
    utf16_order,
};

/// Every locale's index as written.
#[derive(Default)]
pub struct Live {
    locales: Vec<LiveLocale>,
}

/// One locale's index as written: the postings kept of each term, each term's entry as its
/// shard holds it, and the shards' and excerpt files' names.
pub(super) struct LiveLocale {
    /// The field lengths the scores were made with, kept until the index is made whole.
    average: [f32; FIELDS],
    /// Per doc, its field lengths.
    lengths: Vec<[u32; FIELDS]>,
    ids: FxHashMap<Box<str>, u32>,
    terms: Vec<LiveTerm>,
    shards: Vec<LiveShard>,
    excerpts: ExcerptFiles,
}

struct LiveTerm {
    word: Box<str>,
    df: u32,
    /// The postings written, by doc.
    kept: Vec<Posting>,
    /// `[df, postings...]` as its shard holds it.
    entry: String,
}

struct LiveShard {
    first: String,
    name: String,
    /// Its terms, in order.
    terms: Vec<u32>,
}

/// An edit of one doc: the words it gave the index, and those it gives now.
pub struct Edit<'t> {
    pub doc: Doc,
    pub old: &'t Terms,
    pub new: &'t Terms,
}

/// What an update writes: each file's path under the output folder and its bytes.
#[derive(Debug, Default)]
pub struct Update {
    pub files: Vec<(PathBuf, Vec<u8>)>,
}

/// Says how large it is, not what it holds (a site's whole index).
impl std::fmt::Debug for Live {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_list()
            .entries(
                self.locales
                    .iter()
                    .map(|l| (l.lengths.len(), l.ids.len(), l.shards.len())),
            )
            .finish()
    }
}

impl Live {
    pub(super) fn new(locales: Vec<LiveLocale>) -> Self {
        Live { locales }
    }

    /// Applies `edits` to the index made with `plan`; `record` gives a doc's words as they
    /// are now (the excerpt file of an edited doc is made again from its docs' records).
    ///
    /// `None` when an edit cannot be made in place: a shard would be left empty, or two forms
    /// of one stem would be split between shards (the app looks a word's forms up in its
    /// shard), or a doc's words are missing. The live index may then be half updated: the
    /// caller drops it and has the index made whole.
    pub fn update<'r>(
        &mut self,
        plan: &Plan,
        edits: &[Edit<'_>],
        record: &dyn Fn(Doc) -> Option<&'r Terms>,
    ) -> Option<Update> {
        let mut update = Update::default();
        for (l, locale) in self.locales.iter_mut().enumerate() {
            let mine: Vec<&Edit<'_>> = edits
                .iter()
                .filter(|e| e.doc.locale as usize == l)
                .collect();
            if !mine.is_empty() {
                locale.update(plan.locales.get(l)?, &mine, record, &mut update)?;
            }
        }
        Some(update)
    }
}

impl LiveLocale {
    pub(super) fn new(average: [f32; FIELDS], docs: &[([u32; FIELDS], Box<str>)]) -> Self {
        LiveLocale {
            average,
            lengths: docs.iter().map(|d| d.0).collect(),
            ids: FxHashMap::default(),
            terms: Vec::new(),
            shards: Vec::new(),
            excerpts: ExcerptFiles {
                digest: String::new(),
                sizes: Vec::new(),
            },
        }
    }

    /// Keeps a term as written, in shard `shard` (terms come in order).
    pub(super) fn push_term(
        &mut self,
        word: &str,
        shard: usize,
        df: u32,
        kept: Vec<Posting>,
        entry: String,
    ) {
        let id = self.terms.len() as u32;
        self.ids.insert(word.into(), id);
        self.terms.push(LiveTerm {
            word: word.into(),
            df,
            kept,
            entry,
        });
        while self.shards.len() <= shard {
            self.shards.push(LiveShard {
                first: word.to_string(),
                name: String::new(),
                terms: Vec::new(),
            });
        }
        self.shards[shard].terms.push(id);
    }

    /// Keeps the names of the files written: the shards, by first term, and the excerpt files.
    pub(super) fn set_files(&mut self, shards: &[(String, String)], excerpts: &ExcerptFiles) {
        for (kept, (first, name)) in self.shards.iter_mut().zip(shards) {
            kept.first.clone_from(first);
            kept.name.clone_from(name);
        }
        self.excerpts = excerpts.clone();
    }

    fn update<'r>(
        &mut self,
        plan: &super::LocaleIndex,
        edits: &[&Edit<'_>],
        record: &dyn Fn(Doc) -> Option<&'r Terms>,
        update: &mut Update,
    ) -> Option<()> {
        let mut touched: FxHashSet<u32> = FxHashSet::default();
        let mut shards: FxHashSet<usize> = FxHashSet::default();
        let mut excerpt_files: FxHashSet<usize> = FxHashSet::default();
        let firsts_before: Vec<String> = self.shards.iter().map(|s| s.first.clone()).collect();
        for edit in edits {
            let doc = edit.doc.number;
            let d = doc as usize;
            let old_lengths = *self.lengths.get(d)?;
            let new_lengths = edit.new.lengths;
            self.lengths[d] = new_lengths;
            let new: FxHashMap<&str, super::Occurrence> = edit.new.iter().collect();
            let mut old_words: FxHashSet<&str> = FxHashSet::default();
            for (word, at) in edit.old.iter() {
                old_words.insert(word);
                let id = *self.ids.get(word)?;
                // Most words of a save stand where they stood and weigh what they weighed:
                // their entries stay as they are.
                if new.get(word) == Some(&at)
                    && score(at.counts, old_lengths, self.average)
                        == score(at.counts, new_lengths, self.average)
                {
                    continue;
                }
                let term = &mut self.terms[id as usize];
                term.df = term.df.checked_sub(1)?;
                if let Ok(at) = term.kept.binary_search_by_key(&doc, |p| p.doc) {
                    term.kept.remove(at);
                }
                touched.insert(id);
            }
            for (word, at) in edit.new.iter() {
                let id = match self.ids.get(word) {
                    Some(&id) if old_words.contains(word) && !touched.contains(&id) => continue,
                    Some(&id) => id,
                    None => self.add_term(word, &mut shards)?,
                };
                let lengths = &self.lengths;
                let term = &mut self.terms[id as usize];
                term.df += 1;
                let posting = Posting { doc, at };
                match term.kept.binary_search_by_key(&doc, |p| p.doc) {
                    Ok(i) => term.kept[i] = posting,
                    Err(i) => term.kept.insert(i, posting),
                }
                if term.kept.len() > MAX_POSTINGS {
                    drop_weakest(&mut term.kept, lengths);
                }
                touched.insert(id);
            }
            if edit.old.excerpt != edit.new.excerpt {
                excerpt_files.insert(self.excerpt_file_of(d)?);
            }
        }
        let mut touched: Vec<u32> = touched.into_iter().collect();
        touched.sort_unstable();
        for id in touched {
            let term = &self.terms[id as usize];
            if term.df == 0 {
                self.remove_term(id, &mut shards)?;
                continue;
            }
            let lengths = &self.lengths;
            let entry = posting_list(
                term.df,
                &term.kept,
                |d| lengths.get(d as usize).copied().unwrap_or([0; FIELDS]),
                self.average,
            );
            if entry != term.entry {
                self.terms[id as usize].entry = entry;
                shards.insert(self.shard_of(id)?);
            }
        }
        let folder = &plan.folder;
        let mut shards: Vec<usize> = shards.into_iter().collect();
        shards.sort_unstable();
        for i in shards {
            let shard = &self.shards[i];
            let mut bytes = String::from(SHARD_START);
            for (n, &id) in shard.terms.iter().enumerate() {
                if n > 0 {
                    bytes.push(',');
                }
                let term = &self.terms[id as usize];
                push_entry(&mut bytes, &term.word, &term.entry);
            }
            bytes.push_str(SHARD_END);
            update.files.push((
                PathBuf::from(format!("{folder}/{}", shard.name)),
                bytes.into_bytes(),
            ));
        }
        let mut excerpt_files: Vec<usize> = excerpt_files.into_iter().collect();
        excerpt_files.sort_unstable();
        for n in excerpt_files {
            let start: usize = self.excerpts.sizes[..n].iter().map(|&s| s as usize).sum();
            let size = self.excerpts.sizes[n] as usize;
            let mut body = String::new();
            for doc in start..start + size {
                start_record(&mut body, plan.heads.get(doc)?);
                let terms = record(Doc {
                    locale: edits[0].doc.locale,
                    number: doc as u32,
                })?;
                match terms.excerpt.as_str() {
                    "" => body.push_str(NO_RECORD),
                    excerpt => body.push_str(excerpt),
                }
            }
            body.push(']');
            update.files.push((
                PathBuf::from(format!("{folder}/x/{n}.{}.json", self.excerpts.digest)),
                body.into_bytes(),
            ));
        }
        // The shards are listed by their first words.
        if self
            .shards
            .iter()
            .map(|s| &s.first)
            .ne(firsts_before.iter())
        {
            let shards = self
                .shards
                .iter()
                .map(|s| (s.first.clone(), s.name.clone()))
                .collect();
            update.files.push((
                PathBuf::from(format!("{folder}/index.json")),
                index_json(plan, shards, self.excerpts.clone()),
            ));
        }
        Some(())
    }

    /// The excerpt file holding doc `d`.
    fn excerpt_file_of(&self, d: usize) -> Option<usize> {
        let mut end = 0;
        self.excerpts.sizes.iter().position(|&size| {
            end += size as usize;
            d < end
        })
    }

    fn shard_of(&self, id: u32) -> Option<usize> {
        let word = &self.terms[id as usize].word;
        let i = self.shard_for(word);
        self.shards[i].terms.contains(&id).then_some(i)
    }

    /// The shard a word falls in: the last whose first term is at or before it (the first
    /// shard for a word before them all).
    fn shard_for(&self, word: &str) -> usize {
        self.shards
            .partition_point(|s| utf16_order(&s.first, word).is_le())
            .saturating_sub(1)
    }

    /// Adds a word new to the locale to its shard, which is marked in `changed`.
    fn add_term(&mut self, word: &str, changed: &mut FxHashSet<usize>) -> Option<u32> {
        if self.shards.is_empty() {
            return None;
        }
        let id = self.terms.len() as u32;
        self.terms.push(LiveTerm {
            word: word.into(),
            df: 0,
            kept: Vec::new(),
            entry: String::new(),
        });
        self.ids.insert(word.into(), id);
        let i = self.shard_for(word);
        let terms = &self.terms;
        let shard = &self.shards[i];
        let at = shard
            .terms
            .partition_point(|&t| utf16_order(&terms[t as usize].word, word).is_lt());
        let last = at == shard.terms.len();
        if last
            && let Some(next) = self.shards.get(i + 1)
            && stem::stem(word) == stem::stem(&next.first)
        {
            return None;
        }
        let shard = &mut self.shards[i];
        shard.terms.insert(at, id);
        if at == 0 {
            shard.first = word.to_string();
        }
        changed.insert(i);
        Some(id)
    }

    /// Takes a word no doc holds any more out of its shard, which is marked in `changed`.
    fn remove_term(&mut self, id: u32, changed: &mut FxHashSet<usize>) -> Option<()> {
        let i = self.shard_of(id)?;
        let word = self.terms[id as usize].word.clone();
        self.ids.remove(&word);
        let shard = &mut self.shards[i];
        let at = shard.terms.iter().position(|&t| t == id)?;
        shard.terms.remove(at);
        let new_first = *shard.terms.first()?;
        let new_last = *shard.terms.last()?;
        let terms = &self.terms;
        let stem_of = |t: u32| stem::stem(&terms[t as usize].word);
        if at == 0 {
            let first = terms[new_first as usize].word.to_string();
            if i > 0
                && let Some(&before) = self.shards[i - 1].terms.last()
                && stem_of(before) == stem_of(new_first)
            {
                return None;
            }
            self.shards[i].first = first;
        }
        if at == self.shards[i].terms.len()
            && let Some(next) = self.shards.get(i + 1)
            && stem_of(new_last) == stem::stem(&next.first)
        {
            return None;
        }
        changed.insert(i);
        Some(())
    }
}

/// Drops the posting a build would not keep: the lowest weight at the `PIVOT` lengths (see
/// `Ranked`).
fn drop_weakest(kept: &mut Vec<Posting>, lengths: &[[u32; FIELDS]]) {
    let weakest = kept
        .iter()
        .enumerate()
        .map(|(i, &posting)| {
            let l = lengths
                .get(posting.doc as usize)
                .copied()
                .unwrap_or([0; FIELDS]);
            (i, Ranked::new(posting, l))
        })
        .max_by(|a, b| a.1.cmp(&b.1))
        .map(|(i, _)| i);
    if let Some(i) = weakest {
        kept.remove(i);
    }
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeMap;

    use super::super::tests::plan;
    use super::super::{BODY, FOLDER, Postings, TITLE, TermCounter};
    use super::*;

    /// Doc `doc`'s words: a title and body text.
    fn record(doc: u32, body: &str) -> Terms {
        let mut counter = TermCounter::with_capacity(body.len());
        counter.add(&format!("Page {doc}"), TITLE, u16::MAX);
        counter.add(body, BODY, 0);
        counter.finish(format!(
            "\"Page {doc}\",[[\"\",\"\",{:?}]]]",
            &body[..body.len().min(30)]
        ))
    }

    fn body(doc: u32) -> String {
        let words: Vec<String> = (0..40)
            .map(|i| format!("w{:03}", (doc * 7 + i) % 500))
            .collect();
        words.join(" ") + " loading loaded"
    }

    type Files = BTreeMap<PathBuf, Vec<u8>>;

    /// An index's postings of `records`, doc n the n-th.
    fn postings_of(records: &[Terms]) -> Postings {
        let postings = Postings::default();
        for (d, terms) in records.iter().enumerate() {
            let doc = Doc {
                locale: 0,
                number: d as u32,
            };
            postings.add(doc, terms);
        }
        postings
    }

    fn cold(records: &[Terms]) -> Files {
        postings_of(records)
            .files(&plan(records.len() as u32))
            .unwrap()
            .into_iter()
            .collect()
    }

    fn kept(records: &[Terms]) -> (Files, Live) {
        let postings = postings_of(records);
        let mut files = Files::new();
        let live = postings
            .make_files_kept(&plan(records.len() as u32), &mut |p, b| {
                files.insert(p, b);
            })
            .unwrap();
        (files, live)
    }

    /// What the index says, whatever its files' boundaries and names: each term's postings
    /// (df, then doc, score, section) and each doc's excerpt record.
    fn read(files: &Files) -> (BTreeMap<String, Vec<i64>>, Vec<serde_json::Value>) {
        let json = |p: &str| -> serde_json::Value {
            let bytes = files.get(&PathBuf::from(format!("{FOLDER}/{p}")));
            serde_json::from_slice(bytes.unwrap_or_else(|| panic!("no {p}"))).unwrap()
        };
        let index = json("index.json");
        let mut terms = BTreeMap::new();
        for shard in index["shards"].as_array().unwrap() {
            let shard = json(shard[1].as_str().unwrap());
            for (term, list) in shard["t"].as_object().unwrap() {
                let list: Vec<i64> = list
                    .as_array()
                    .unwrap()
                    .iter()
                    .map(|v| v.as_i64().unwrap())
                    .collect();
                let mut doc = 0;
                let mut decoded = vec![list[0]];
                for p in list[1..].chunks(3) {
                    doc += p[0];
                    decoded.extend([doc, p[1], p[2]]);
                }
                terms.insert(term.clone(), decoded);
            }
        }
        let mut records = Vec::new();
        for (n, _) in index["excerpts"]["sizes"]
            .as_array()
            .unwrap()
            .iter()
            .enumerate()
        {
            let digest = index["excerpts"]["digest"].as_str().unwrap();
            records.extend(
                json(&format!("x/{n}.{digest}.json"))
                    .as_array()
                    .unwrap()
                    .clone(),
            );
        }
        (terms, records)
    }

    /// Applies `edits` (doc, new words) to `files` and `live` as the preview server does.
    fn edit(
        files: &mut Files,
        live: &mut Live,
        records: &mut [Terms],
        edits: Vec<(u32, Terms)>,
    ) -> Option<Update> {
        let plan = plan(records.len() as u32);
        let made: Vec<Edit<'_>> = edits
            .iter()
            .map(|(d, new)| Edit {
                doc: Doc {
                    locale: 0,
                    number: *d,
                },
                old: &records[*d as usize],
                new,
            })
            .collect();
        let now = |doc: Doc| -> Option<&Terms> {
            Some(match edits.iter().find(|(d, _)| *d == doc.number) {
                Some((_, new)) => new,
                None => &records[doc.number as usize],
            })
        };
        let update = live.update(&plan, &made, &now)?;
        for (path, bytes) in &update.files {
            assert!(
                files.insert(path.clone(), bytes.clone()).is_some(),
                "{path:?} is a file of the index"
            );
        }
        for (d, new) in edits {
            records[d as usize] = new;
        }
        Some(update)
    }

    #[test]
    fn a_save_changes_only_the_files_its_words_touch_and_the_index_reads_as_a_build() {
        let mut records: Vec<Terms> = (0..300).map(|d| record(d, &body(d))).collect();
        let (mut files, mut live) = kept(&records);
        assert_eq!(files, cold(&records), "kept, the index is written the same");
        let before = files.clone();
        // A word replaced by a new one (as many words: the averages stay what they were).
        let new = body(42).replacen("w294", "zebra", 1);
        assert_ne!(new, body(42));
        let update = edit(
            &mut files,
            &mut live,
            &mut records,
            vec![(42, record(42, &new))],
        )
        .unwrap();
        let shards = update
            .files
            .iter()
            .filter(|(p, _)| p.starts_with(format!("{FOLDER}/s")))
            .count();
        let excerpts = update
            .files
            .iter()
            .filter(|(p, _)| p.starts_with(format!("{FOLDER}/x")))
            .count();
        assert!((1..=2).contains(&shards), "{shards} shards written");
        assert_eq!(excerpts, 1, "the excerpt file of the doc");
        assert_eq!(
            update.files.len(),
            shards + excerpts,
            "index.json lists the same shards"
        );
        assert_eq!(files.len(), before.len());
        let (terms, excerpts) = read(&files);
        assert_eq!((terms.clone(), excerpts.clone()), read(&cold(&records)));
        assert_eq!(terms["zebra"], vec![1, 42, terms["zebra"][2], 0]);
        assert_eq!(excerpts[42][3][0][2], new[..30]);

        // Words gone from the site leave it; the index still reads as a build.
        let update = edit(
            &mut files,
            &mut live,
            &mut records,
            vec![(42, record(42, &body(42)))],
        )
        .unwrap();
        assert!(!update.files.is_empty());
        let (terms, _) = read(&files);
        assert!(!terms.contains_key("zebra"));
        assert_eq!(read(&files), read(&cold(&records)));
    }

    #[test]
    fn a_save_of_a_longer_page_keeps_the_averages_until_the_index_is_made_whole() {
        let mut records: Vec<Terms> = (0..200).map(|d| record(d, &body(d))).collect();
        let (mut files, mut live) = kept(&records);
        let longer = body(7) + " quokka quokka extra words here";
        edit(
            &mut files,
            &mut live,
            &mut records,
            vec![(7, record(7, &longer))],
        )
        .unwrap();
        let (terms, _) = read(&files);
        let (built, _) = read(&cold(&records));
        assert_eq!(
            terms.keys().collect::<Vec<_>>(),
            built.keys().collect::<Vec<_>>()
        );
        assert_eq!(terms["quokka"][..2], built["quokka"][..2], "df and doc");
        // Two saves of one doc in one write, and of two docs.
        edit(
            &mut files,
            &mut live,
            &mut records,
            vec![
                (7, record(7, &body(7))),
                (150, record(150, &(body(150) + " quokka"))),
            ],
        )
        .unwrap();
        let (terms, _) = read(&files);
        assert_eq!(terms["quokka"][..2], [1, 150]);
    }

    #[test]
    fn words_it_cannot_place_or_does_not_know_leave_it_to_a_whole_index() {
        let records: Vec<Terms> = (0..300).map(|d| record(d, &body(d))).collect();
        let (_, mut live) = kept(&records);
        // The old words are not those the index was made with.
        let wrong = record(3, "nothing of this was indexed");
        let plan = plan(300);
        let new = record(3, &body(3));
        let now = |doc: Doc| Some(&records[doc.number as usize]);
        let edits = [Edit {
            doc: Doc {
                locale: 0,
                number: 3,
            },
            old: &wrong,
            new: &new,
        }];
        assert!(live.update(&plan, &edits, &now).is_none());
    }

    #[test]
    fn a_new_word_never_splits_the_forms_of_a_stem_between_shards() {
        assert_eq!(stem::stem("load"), stem::stem("loaded"));
        let mut locale = LiveLocale::new([1.0; FIELDS], &vec![([1, 0, 0, 1], Box::from("")); 2]);
        for (word, shard) in [
            ("alpha", 0),
            ("gamma", 0),
            ("loaded", 1),
            ("loading", 1),
            ("zulu", 1),
        ] {
            locale.push_term(word, shard, 1, vec![], String::new());
        }
        let named = |n: usize, first: &str| (first.to_string(), format!("s/{n}.x.json"));
        locale.set_files(
            &[named(0, "alpha"), named(1, "loaded")],
            &ExcerptFiles {
                digest: "x".into(),
                sizes: vec![2],
            },
        );
        let mut changed = FxHashSet::default();
        assert!(locale.add_term("beta", &mut changed).is_some());
        assert_eq!(changed.iter().copied().collect::<Vec<_>>(), [0]);
        assert_eq!(
            locale.shard_for("aardvark"),
            0,
            "before every shard: the first"
        );
        assert!(locale.add_term("aardvark", &mut changed).is_some());
        assert_eq!(locale.shards[0].first, "aardvark");
        // "load" would end the first shard, "loaded" starts the second.
        assert!(locale.add_term("load", &mut changed).is_none());
        let mut locale2 = LiveLocale::new([1.0; FIELDS], &[]);
        for (word, shard) in [("alpha", 0), ("load", 0), ("loaded", 1), ("zulu", 1)] {
            locale2.push_term(word, shard, 1, vec![], String::new());
        }
        locale2.set_files(
            &[named(0, "alpha"), named(1, "loaded")],
            &ExcerptFiles {
                digest: "x".into(),
                sizes: vec![],
            },
        );
        // Taking out a shard's first word makes the next its first.
        let id = |l: &LiveLocale, w: &str| l.ids[w];
        assert!(
            locale2
                .remove_term(id(&locale2, "alpha"), &mut changed)
                .is_some()
        );
        assert_eq!(locale2.shards[0].first, "load");
        // Taking out "loaded" would make "zulu" the second shard's first: no stem is split.
        assert!(
            locale2
                .remove_term(id(&locale2, "loaded"), &mut changed)
                .is_some()
        );
        assert_eq!(locale2.shards[1].first, "zulu");
        // The last word of a shard goes: the shard would be empty.
        assert!(
            locale2
                .remove_term(id(&locale2, "load"), &mut changed)
                .is_none()
        );
    }
}
