//! Page bodies past the memory budget (`crate::held_bytes`), and the Markdown the pages' twins
//! show, kept until their pages are written: the Markdown in memory within a budget of its own,
//! the rest in a temporary file. Reading 7 KB back costs a few microseconds, where rendering the
//! Markdown again cost a fifth of a page's build: at 100,000 pages, nine bodies in ten are past
//! the budget. The file is unnamed (gone when the last page holding it is dropped) and in the
//! system's temporary folder, like the search index's excerpt records; a text held in memory
//! costs nothing to put or take, where one written to a disk's file system costs its journal.

use std::borrow::Cow;
use std::fs::File;
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, OnceLock};

/// The texts put aside by one load of the content; the file is made when the first is put.
#[derive(Debug, Default)]
pub struct Spill {
    /// `None` when no file could be made: the pages then render and read their files again.
    file: OnceLock<Option<File>>,
    /// The end of what was written: each text reserves its bytes here, then writes them
    /// without a lock.
    end: AtomicU64,
    /// Bytes `keep` may still hold in memory.
    room: AtomicUsize,
}

/// One text put aside: in memory, or where it is in its spill file.
#[derive(Debug)]
pub struct Spilled(Place);

#[derive(Debug)]
enum Place {
    Held(Box<str>),
    File {
        spill: Arc<Spill>,
        at: u64,
        len: usize,
    },
}

impl Spill {
    /// A spill whose `keep` holds up to `room` bytes in memory before it writes to the file.
    pub fn holding(room: usize) -> Self {
        Spill {
            room: AtomicUsize::new(room),
            ..Spill::default()
        }
    }

    /// Holds `text` in memory while the room lasts, else puts it in the file (see `put`).
    pub fn keep(self: &Arc<Self>, text: &str) -> Option<Spilled> {
        let fits = self
            .room
            .fetch_update(Ordering::Relaxed, Ordering::Relaxed, |room| {
                room.checked_sub(text.len())
            })
            .is_ok();
        if fits {
            return Some(Spilled(Place::Held(text.into())));
        }
        self.put(text)
    }

    /// Puts `text` in the file; `None` when it cannot be written (no temporary folder, a full
    /// disk), and the page renders its body (or reads its file) again when it is written.
    pub fn put(self: &Arc<Self>, text: &str) -> Option<Spilled> {
        let file = self
            .file
            .get_or_init(|| tempfile::tempfile().ok())
            .as_ref()?;
        let at = self.end.fetch_add(text.len() as u64, Ordering::Relaxed);
        write_at(file, text.as_bytes(), at).ok()?;
        Some(Spilled(Place::File {
            spill: Arc::clone(self),
            at,
            len: text.len(),
        }))
    }
}

impl Spilled {
    /// The text as it was put.
    pub fn read(&self) -> std::io::Result<Cow<'_, str>> {
        let (spill, at, len) = match &self.0 {
            Place::Held(text) => return Ok(Cow::Borrowed(text)),
            Place::File { spill, at, len } => (spill, *at, *len),
        };
        let file = spill.file.get().and_then(Option::as_ref).ok_or_else(|| {
            std::io::Error::new(std::io::ErrorKind::NotFound, "no spill file was made")
        })?;
        let mut bytes = vec![0; len];
        read_at(file, &mut bytes, at)?;
        String::from_utf8(bytes)
            .map(Cow::Owned)
            .map_err(|e| std::io::Error::new(std::io::ErrorKind::InvalidData, e))
    }
}

#[cfg(unix)]
fn write_at(file: &File, bytes: &[u8], at: u64) -> std::io::Result<()> {
    std::os::unix::fs::FileExt::write_all_at(file, bytes, at)
}

#[cfg(unix)]
fn read_at(file: &File, bytes: &mut [u8], at: u64) -> std::io::Result<()> {
    std::os::unix::fs::FileExt::read_exact_at(file, bytes, at)
}

// Elsewhere nothing is spilled: positioned writes from several threads are Unix's.
#[cfg(not(unix))]
fn write_at(_: &File, _: &[u8], _: u64) -> std::io::Result<()> {
    Err(std::io::ErrorKind::Unsupported.into())
}

#[cfg(not(unix))]
fn read_at(_: &File, _: &mut [u8], _: u64) -> std::io::Result<()> {
    Err(std::io::ErrorKind::Unsupported.into())
}

#[cfg(all(test, unix))]
mod tests {
    use super::*;

    #[test]
    fn bodies_read_back_as_they_were_put_from_any_thread() {
        let spill = Arc::new(Spill::default());
        let bodies: Vec<String> = (0..64)
            .map(|i| format!("<p>body {i} é {}</p>", "x".repeat(i * 37)))
            .collect();
        let spilled: Vec<Spilled> = std::thread::scope(|s| {
            let handles: Vec<_> = bodies
                .chunks(16)
                .map(|chunk| {
                    let spill = &spill;
                    s.spawn(move || {
                        chunk
                            .iter()
                            .map(|b| spill.put(b).unwrap())
                            .collect::<Vec<_>>()
                    })
                })
                .collect();
            handles
                .into_iter()
                .flat_map(|h| h.join().unwrap())
                .collect()
        });
        for (body, at) in bodies.iter().zip(&spilled) {
            assert_eq!(&at.read().unwrap(), body);
        }
    }

    #[test]
    fn kept_texts_are_held_while_the_room_lasts_then_written() {
        let spill = Arc::new(Spill::holding(10));
        let kept: Vec<Spilled> = ["12345", "6789", "abc", "d"]
            .iter()
            .map(|t| spill.keep(t).unwrap())
            .collect();
        let held = |s: &Spilled| matches!(s.0, Place::Held(_));
        // 5 + 4 fit in 10, 3 more do not, 1 more still does.
        assert_eq!(
            kept.iter().map(held).collect::<Vec<_>>(),
            [true, true, false, true]
        );
        let texts: Vec<_> = kept
            .iter()
            .map(|s| s.read().unwrap().into_owned())
            .collect();
        assert_eq!(texts, ["12345", "6789", "abc", "d"]);
        assert!(!held(&spill.put("e").unwrap()), "put always writes");
    }
}
