//! The renders of the previous build, kept in its output folder (`.docgen-renders`), so a build
//! over that output does not render again the Markdown of pages whose source did not change.
//!
//! What the checks and the views need of a page's body is kept: its headings, ids, links,
//! warnings, the files it refers to, its inline scripts, what its Markdown twin rewrites, its
//! excerpt and the digest of its HTML. The HTML itself is not: a page whose view changed is
//! rendered again from its file when it is written (`Body::FromFile`).
//!
//! A page's entry is used only when everything its render was made from is as it was:
//! - its key (`key`): the Markdown of its body and every field of its `PageContext`, under
//!   the docgen that rendered it (`docgen_identity`, in the file's header);
//! - every answer the file resolver gave it (which files exist, what they are published as,
//!   an image's size), asked again: a file that appeared, changed or went away makes the
//!   page be rendered again.
//!
//! The file is one more file of the output, written in the build's transaction (see
//! `output::files`). A missing, unreadable or foreign file only means every page is rendered.

use std::cell::RefCell;
use std::hash::{Hash, Hasher};
use std::io::Write;
use std::ops::Range;
use std::path::Path;

use serde::{Deserialize, Serialize};

use crate::markdown::{
    FileProblem, FileResolver, Heading, Link, LocalFile, PageContext, Problem, Rendered, TwinLinks,
};

/// The file's name in the output folder.
pub const FILE: &str = ".docgen-renders";

/// Starts the file; the number after it changes with the layout of an entry.
const MAGIC: &[u8] = b"docgen renders 1\n";

/// Which docgen renders: a build over the output of another docgen (a new release, or a binary
/// built again) renders every page, as its code may render them differently. The executable's
/// size and time stand for its code; when they cannot be read, no two runs agree.
pub fn docgen_identity() -> u64 {
    static IDENTITY: std::sync::OnceLock<u64> = std::sync::OnceLock::new();
    *IDENTITY.get_or_init(|| {
        let mut h = rustc_hash::FxHasher::default();
        env!("CARGO_PKG_VERSION").hash(&mut h);
        let exe = std::env::current_exe()
            .and_then(std::fs::metadata)
            .and_then(|m| Ok((m.len(), m.modified()?)));
        match exe {
            Ok(file) => file.hash(&mut h),
            Err(_) => (std::process::id(), std::time::SystemTime::now()).hash(&mut h),
        }
        h.finish()
    })
}

/// What a page's render was made from: its key and the resolver's answers.
#[derive(Debug, Clone, PartialEq)]
pub struct Record {
    key: u64,
    queries: Vec<Query>,
}

/// A question the renderer asked the file resolver, with its answer.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
enum Query {
    Find {
        written: String,
        answer: Result<Option<LocalFile>, FileProblem>,
    },
    AtContentRoot {
        written: String,
        answer: bool,
    },
}

impl Query {
    /// Whether `files` gives the same answer now.
    fn holds(&self, files: &dyn FileResolver) -> bool {
        match self {
            Query::Find { written, answer } => files.find(written) == *answer,
            Query::AtContentRoot { written, answer } => {
                files.page_at_content_root(written) == *answer
            }
        }
    }
}

/// The key of a render: the body and every field of the context but the resolver, whose
/// answers are recorded instead. `wants_excerpt`: the page has no description of its own, so
/// its excerpt is kept with the render.
pub fn key(body: &str, ctx: &PageContext<'_>, wants_excerpt: bool) -> u64 {
    // No `..`: a field added to the context must be placed here.
    let PageContext {
        title,
        route,
        file_dir,
        base_path,
        features,
        allowed_schemes,
        files: _,
        anchors,
        math,
        math_brackets,
        line_numbers,
        mdx,
        locale_prefix,
        locale_prefixes,
    } = ctx;
    let mut h = rustc_hash::FxHasher::default();
    body.hash(&mut h);
    (title, route, file_dir, base_path, features, allowed_schemes).hash(&mut h);
    (anchors, math, math_brackets, line_numbers, mdx).hash(&mut h);
    (locale_prefix, locale_prefixes, wants_excerpt).hash(&mut h);
    h.finish()
}

/// A file resolver that records every answer it gives.
pub struct Recording<'a> {
    files: &'a dyn FileResolver,
    queries: RefCell<Vec<Query>>,
}

impl<'a> Recording<'a> {
    pub fn new(files: &'a dyn FileResolver) -> Self {
        Recording {
            files,
            queries: RefCell::new(Vec::new()),
        }
    }

    /// The record of a render of key `key` that asked this resolver.
    pub fn into_record(self, key: u64) -> Record {
        Record {
            key,
            queries: self.queries.into_inner(),
        }
    }
}

impl FileResolver for Recording<'_> {
    fn find(&self, written: &str) -> Result<Option<LocalFile>, FileProblem> {
        let answer = self.files.find(written);
        self.queries.borrow_mut().push(Query::Find {
            written: written.to_string(),
            answer: answer.clone(),
        });
        answer
    }

    fn page_at_content_root(&self, written: &str) -> bool {
        let answer = self.files.page_at_content_root(written);
        self.queries.borrow_mut().push(Query::AtContentRoot {
            written: written.to_string(),
            answer,
        });
        answer
    }
}

/// A render read back: what rendering the body gave, but its HTML.
pub struct Hit {
    /// Its `html` is empty.
    pub rendered: Rendered,
    pub html_digest: u64,
    pub excerpt: Option<Box<str>>,
    pub record: Record,
}

/// An entry as written: borrowed from the page.
#[derive(Serialize)]
struct EntryOut<'a> {
    queries: &'a [Query],
    headings: &'a [Heading],
    /// The ids besides the headings' (most ids are theirs).
    other_ids: Vec<&'a str>,
    links: &'a [Link],
    warnings: &'a [Problem],
    files: &'a [LocalFile],
    inline_scripts: &'a [String],
    twin_links: &'a Option<TwinLinks>,
    html_digest: u64,
    excerpt: Option<&'a str>,
}

/// An entry as read: the same fields, owned.
#[derive(Deserialize)]
struct EntryIn {
    queries: Vec<Query>,
    headings: Vec<Heading>,
    other_ids: Vec<String>,
    links: Vec<Link>,
    warnings: Vec<Problem>,
    files: Vec<LocalFile>,
    inline_scripts: Vec<String>,
    twin_links: Option<TwinLinks>,
    html_digest: u64,
    excerpt: Option<Box<str>>,
}

/// One page's render, as the output writes it.
pub struct Kept<'a> {
    pub file: &'a Path,
    pub record: &'a Record,
    pub rendered: &'a Rendered,
    pub html_digest: u64,
    pub excerpt: Option<&'a str>,
}

/// The start of the file: what it is, and which docgen wrote it.
fn header() -> Vec<u8> {
    let mut bytes = MAGIC.to_vec();
    bytes.extend(docgen_identity().to_le_bytes());
    bytes
}

/// The entry of one page, as the file holds it (none for a file name that is not UTF-8, or
/// a heading whose id is not among the page's ids, which it could not be read back as).
pub fn entry(page: Kept<'_>) -> Option<Vec<u8>> {
    let file = page.file.to_str()?;
    let r = page.rendered;
    // Read back as the headings' ids and these: exact only when the headings' are all ids.
    if !r.headings.iter().all(|h| r.ids.contains(&h.id)) {
        return None;
    }
    let mut other_ids: Vec<&str> = r
        .ids
        .iter()
        .map(String::as_str)
        .filter(|id| !r.headings.iter().any(|h| h.id == *id))
        .collect();
    other_ids.sort_unstable();
    let out = EntryOut {
        queries: &page.record.queries,
        headings: &r.headings,
        other_ids,
        links: &r.links,
        warnings: &r.warnings,
        files: &r.files,
        inline_scripts: &r.inline_scripts,
        twin_links: &r.twin_links,
        html_digest: page.html_digest,
        excerpt: page.excerpt,
    };
    // Serialising owned and borrowed values in memory does not fail.
    let payload = postcard::to_stdvec(&out).ok()?;
    let mut bytes = postcard::to_stdvec(&(file, page.record.key, payload.len() as u64)).ok()?;
    bytes.extend(payload);
    Some(bytes)
}

/// Writes the renders of `pages` (in the order given: the site's, so the file is the same
/// for the same site).
pub fn write<'a>(pages: impl Iterator<Item = Kept<'a>>, to: &mut dyn Write) -> std::io::Result<()> {
    write_entries(pages.filter_map(entry), to)
}

/// Writes the file of these entries (made by `entry`): the header, then each entry.
pub fn write_entries(
    entries: impl Iterator<Item = impl AsRef<[u8]>>,
    to: &mut dyn Write,
) -> std::io::Result<()> {
    to.write_all(&header())?;
    for entry in entries {
        to.write_all(entry.as_ref())?;
    }
    Ok(())
}

/// The renders a previous build left: each page file's key and entry, decoded when asked for.
#[derive(Default)]
pub struct Previous {
    bytes: Vec<u8>,
    entries: rustc_hash::FxHashMap<String, (u64, Range<usize>)>,
}

impl Previous {
    /// The renders kept in the output folder `out` (none when there are none, or they were
    /// written by another docgen, or cannot be read).
    pub fn read(out: &Path) -> Previous {
        std::fs::read(out.join(FILE))
            .ok()
            .and_then(Previous::parse)
            .unwrap_or_default()
    }

    fn parse(bytes: Vec<u8>) -> Option<Previous> {
        let rest = bytes.strip_prefix(MAGIC)?;
        let (identity, mut rest) = rest.split_first_chunk::<8>()?;
        if u64::from_le_bytes(*identity) != docgen_identity() {
            return None;
        }
        let mut entries = rustc_hash::FxHashMap::default();
        while !rest.is_empty() {
            let ((file, key, len), after): ((&str, u64, u64), _) =
                postcard::take_from_bytes(rest).ok()?;
            let len = usize::try_from(len).ok().filter(|&n| n <= after.len())?;
            let start = bytes.len() - after.len();
            entries.insert(file.to_string(), (key, start..start + len));
            rest = &after[len..];
        }
        Some(Previous { bytes, entries })
    }

    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// The render of the page file `file` made with key `key`, if `files` answers every question
    /// it asked as it did then.
    pub fn lookup(&self, file: &Path, key: u64, files: &dyn FileResolver) -> Option<Hit> {
        let (kept, range) = self.entries.get(file.to_str()?)?;
        if *kept != key {
            return None;
        }
        let entry: EntryIn = postcard::from_bytes(&self.bytes[range.clone()]).ok()?;
        if !entry.queries.iter().all(|q| q.holds(files)) {
            return None;
        }
        let ids = entry
            .headings
            .iter()
            .map(|h| h.id.clone())
            .chain(entry.other_ids)
            .collect();
        Some(Hit {
            rendered: Rendered {
                html: String::new(),
                headings: entry.headings,
                ids,
                links: entry.links,
                problems: Vec::new(),
                warnings: entry.warnings,
                files: entry.files,
                inline_scripts: entry.inline_scripts,
                twin_links: entry.twin_links,
            },
            html_digest: entry.html_digest,
            excerpt: entry.excerpt,
            record: Record {
                key,
                queries: entry.queries,
            },
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::site::AnchorRule;
    use crate::markdown;

    /// Files `a.png` (100 × 50) and `gone.png` (missing), as a site's resolver would answer.
    struct Files {
        present: bool,
    }

    impl FileResolver for Files {
        fn find(&self, written: &str) -> Result<Option<LocalFile>, FileProblem> {
            match (written, self.present) {
                ("a.png", true) => Ok(Some(LocalFile {
                    written: written.into(),
                    source: "content/a.png".into(),
                    out_path: "s/a.0123456789.png".into(),
                    from_content: true,
                    size: Some((100, 50)),
                })),
                _ => Err(FileProblem {
                    code: "link.missing-file",
                    message: format!("no file {written}"),
                    hint: "add it".into(),
                }),
            }
        }
    }

    fn context(files: &dyn FileResolver) -> PageContext<'_> {
        PageContext {
            title: "A",
            route: "/a",
            file_dir: "/",
            files: Some(files),
            ..markdown::tests::ctx()
        }
    }

    const BODY: &str = "# A\n\n## Setup {#setup}\n\n![a](a.png) [b](/b#x) [c](#setup)\n\n| a | |\n|---|---|\n| 1 | |\n\n<script>\ngo();\n</script>\n";

    /// Renders `BODY`, writes it as a previous build would, and reads it back.
    fn written_and_read(files: &dyn FileResolver) -> (Rendered, Previous, u64) {
        let recording = Recording::new(files);
        let ctx = PageContext {
            files: Some(&recording),
            ..context(files)
        };
        let key = key(BODY, &ctx, true);
        let rendered = markdown::render(BODY, &ctx);
        let record = recording.into_record(key);
        let mut bytes = Vec::new();
        let kept = Kept {
            file: Path::new("content/a.md"),
            record: &record,
            rendered: &rendered,
            html_digest: 7,
            excerpt: Some("Setup"),
        };
        write(std::iter::once(kept), &mut bytes).unwrap();
        (rendered, Previous::parse(bytes).unwrap(), key)
    }

    #[test]
    fn a_render_reads_back_as_it_was_made_but_its_html() {
        let files = Files { present: true };
        let (rendered, previous, key) = written_and_read(&files);
        assert!(!rendered.files.is_empty() && !rendered.warnings.is_empty());
        assert!(!rendered.inline_scripts.is_empty() && rendered.twin_links.is_some());
        let hit = previous
            .lookup(Path::new("content/a.md"), key, &files)
            .expect("the same body, context and files");
        let back = hit.rendered;
        assert_eq!(back.html, "");
        assert_eq!(back.headings, rendered.headings);
        assert_eq!(back.ids, rendered.ids);
        assert_eq!(format!("{:?}", back.links), format!("{:?}", rendered.links));
        assert_eq!(back.warnings, rendered.warnings);
        assert_eq!(back.files, rendered.files);
        assert_eq!(back.inline_scripts, rendered.inline_scripts);
        assert_eq!(back.twin_links, rendered.twin_links);
        assert_eq!(
            (hit.html_digest, hit.excerpt.as_deref()),
            (7, Some("Setup"))
        );
    }

    #[test]
    fn a_render_is_not_used_when_its_body_context_files_or_docgen_changed() {
        let files = Files { present: true };
        let (_, previous, key) = written_and_read(&files);
        let a = Path::new("content/a.md");
        assert!(previous.lookup(a, key ^ 1, &files).is_none(), "another key");
        assert!(
            previous
                .lookup(Path::new("content/b.md"), key, &files)
                .is_none()
        );
        let gone = Files { present: false };
        assert!(
            previous.lookup(a, key, &gone).is_none(),
            "the image went away"
        );
        // The key covers the body and each field of the context.
        let ctx = context(&files);
        let base = super::key(BODY, &ctx, true);
        assert_ne!(base, super::key("# B\n", &ctx, true));
        assert_ne!(base, super::key(BODY, &ctx, false));
        let others = [
            PageContext {
                route: "/b",
                ..context(&files)
            },
            PageContext {
                math: true,
                ..context(&files)
            },
            PageContext {
                anchors: AnchorRule::Github,
                ..context(&files)
            },
        ];
        for (i, other) in others.iter().enumerate() {
            assert_ne!(base, super::key(BODY, other, true), "context {i}");
        }
        // Another docgen's file, or one cut short, is not read.
        let mut bytes = Vec::new();
        write(std::iter::empty(), &mut bytes).unwrap();
        bytes[MAGIC.len()] ^= 1;
        assert!(Previous::parse(bytes).is_none());
        let mut whole = Vec::new();
        let record = Recording::new(&files).into_record(key);
        let rendered = Rendered::default();
        let kept = Kept {
            file: a,
            record: &record,
            rendered: &rendered,
            html_digest: 1,
            excerpt: None,
        };
        write(std::iter::once(kept), &mut whole).unwrap();
        whole.pop();
        assert!(Previous::parse(whole).is_none());
    }
}
