//! A response body read from an open file a chunk at a time, so serving a file takes the same
//! memory whatever its size, and a slow reader holds one chunk, not the file.

use std::collections::VecDeque;
use std::fs::File;
use std::io::{self, Read, Seek, SeekFrom};
use std::pin::Pin;
use std::task::{Context, Poll, ready};

use bytes::Bytes;
use hyper::body::{Frame, SizeHint};
use tokio::task::JoinHandle;

/// The most read from the file at once: what one response holds besides hyper's buffer.
pub const CHUNK: usize = 64 * 1024;

/// One piece of a response: bytes of the file, or bytes of the server's own (the live-reload
/// tag added to a page).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Piece {
    File { offset: u64, len: u64 },
    Bytes(Bytes),
}

impl Piece {
    pub fn len(&self) -> u64 {
        match self {
            Piece::File { len, .. } => *len,
            Piece::Bytes(bytes) => bytes.len() as u64,
        }
    }
}

/// The pieces of `pieces` (a representation, in order) that cover bytes `start..end` of it.
pub fn slice(pieces: &[Piece], start: u64, end: u64) -> Vec<Piece> {
    let mut out = Vec::new();
    let mut at = 0;
    for piece in pieces {
        let (from, to) = (start.max(at), end.min(at + piece.len()));
        if from < to {
            let skip = from - at;
            out.push(match piece {
                Piece::File { offset, .. } => Piece::File {
                    offset: offset + skip,
                    len: to - from,
                },
                Piece::Bytes(bytes) => Piece::Bytes(bytes.slice(skip as usize..(to - at) as usize)),
            });
        }
        at += piece.len();
    }
    out
}

/// Streams `pieces` of `file`. Each chunk is read on tokio's blocking threads, one at a time,
/// and only once hyper asks for the next: a reader that stops reading stops the reads.
pub struct FileBody {
    file: Option<File>,
    pieces: VecDeque<Piece>,
    reading: Option<JoinHandle<io::Result<(File, Bytes)>>>,
    remaining: u64,
}

impl FileBody {
    pub fn new(file: File, pieces: Vec<Piece>) -> Self {
        let remaining = pieces.iter().map(Piece::len).sum();
        FileBody {
            file: Some(file),
            pieces: pieces.into(),
            reading: None,
            remaining,
        }
    }
}

fn read_chunk(mut file: File, offset: u64, len: usize) -> io::Result<(File, Bytes)> {
    let mut buf = vec![0; len];
    file.seek(SeekFrom::Start(offset))?;
    // A file cut short since it was opened ends the response with an error, so the client
    // sees a broken transfer rather than a file of the wrong length.
    file.read_exact(&mut buf)?;
    Ok((file, Bytes::from(buf)))
}

impl hyper::body::Body for FileBody {
    type Data = Bytes;
    type Error = io::Error;

    fn poll_frame(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
    ) -> Poll<Option<Result<Frame<Bytes>, io::Error>>> {
        let this = &mut *self;
        loop {
            if let Some(reading) = this.reading.as_mut() {
                let read = ready!(Pin::new(reading).poll(cx));
                this.reading = None;
                let read = read.map_err(io::Error::other).and_then(|r| r);
                return Poll::Ready(Some(read.map(|(file, bytes)| {
                    this.file = Some(file);
                    this.remaining -= bytes.len() as u64;
                    Frame::data(bytes)
                })));
            }
            match this.pieces.pop_front() {
                None => return Poll::Ready(None),
                Some(Piece::Bytes(bytes)) => {
                    this.remaining -= bytes.len() as u64;
                    return Poll::Ready(Some(Ok(Frame::data(bytes))));
                }
                Some(Piece::File { len: 0, .. }) => continue,
                Some(Piece::File { offset, len }) => {
                    let chunk = len.min(CHUNK as u64);
                    if chunk < len {
                        let rest = Piece::File {
                            offset: offset + chunk,
                            len: len - chunk,
                        };
                        this.pieces.push_front(rest);
                    }
                    let Some(file) = this.file.take() else {
                        return Poll::Ready(Some(Err(io::Error::other("the file is gone"))));
                    };
                    this.reading = Some(tokio::task::spawn_blocking(move || {
                        read_chunk(file, offset, chunk as usize)
                    }));
                }
            }
        }
    }

    fn is_end_stream(&self) -> bool {
        self.remaining == 0
    }

    fn size_hint(&self) -> SizeHint {
        SizeHint::with_exact(self.remaining)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use http_body_util::BodyExt;
    use hyper::body::Body as _;

    fn pieces() -> Vec<Piece> {
        vec![
            Piece::File { offset: 0, len: 5 },
            Piece::Bytes(Bytes::from_static(b"<tag>")),
            Piece::File { offset: 5, len: 3 },
        ]
    }

    #[test]
    fn a_slice_keeps_the_pieces_in_range() {
        assert_eq!(slice(&pieces(), 0, 13), pieces());
        assert_eq!(
            slice(&pieces(), 3, 12),
            vec![
                Piece::File { offset: 3, len: 2 },
                Piece::Bytes(Bytes::from_static(b"<tag>")),
                Piece::File { offset: 5, len: 2 },
            ]
        );
        assert_eq!(
            slice(&pieces(), 6, 7),
            vec![Piece::Bytes(Bytes::from_static(b"t"))]
        );
        assert!(slice(&pieces(), 13, 13).is_empty());
    }

    #[test]
    fn a_file_is_streamed_in_chunks_with_the_pieces_between() {
        let tmp = tempfile::tempdir().unwrap();
        let path = tmp.path().join("big");
        let text: Vec<u8> = (0..CHUNK * 2 + 10).map(|i| (i % 251) as u8).collect();
        std::fs::write(&path, &text).unwrap();
        let len = text.len() as u64;
        let runtime = tokio::runtime::Builder::new_current_thread()
            .build()
            .unwrap();
        let body = FileBody::new(
            File::open(&path).unwrap(),
            vec![
                Piece::File {
                    offset: 1,
                    len: len - 2,
                },
                Piece::Bytes(Bytes::from_static(b"!")),
            ],
        );
        assert_eq!(body.size_hint().exact(), Some(len - 1));
        let (frames, bytes) = runtime.block_on(async {
            let mut body = std::pin::pin!(body);
            let (mut frames, mut bytes) = (0, Vec::new());
            while let Some(frame) = body.frame().await {
                let data = frame.unwrap().into_data().unwrap();
                assert!(data.len() <= CHUNK);
                bytes.extend_from_slice(&data);
                frames += 1;
            }
            assert!(body.is_end_stream());
            (frames, bytes)
        });
        assert_eq!(frames, 4);
        assert_eq!(&bytes[..bytes.len() - 1], &text[1..text.len() - 1]);
        assert_eq!(bytes.last(), Some(&b'!'));
    }

    #[test]
    fn a_file_cut_short_ends_the_body_with_an_error() {
        let tmp = tempfile::tempdir().unwrap();
        let path = tmp.path().join("short");
        std::fs::write(&path, b"abc").unwrap();
        let runtime = tokio::runtime::Builder::new_current_thread()
            .build()
            .unwrap();
        let body = FileBody::new(
            File::open(&path).unwrap(),
            vec![Piece::File { offset: 0, len: 10 }],
        );
        let result = runtime.block_on(async { body.collect().await });
        assert!(result.is_err());
    }
}
