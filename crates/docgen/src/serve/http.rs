//! The preview server: hyper (HTTP/1.1) on a tokio runtime of its own, so the synchronous
//! rebuild loop stays as it is. What it answers is in `answer`; this module takes care of the
//! connections and their limits, and of the live-reload event stream.

mod answer;
mod body;
mod paths;
mod range;

use std::collections::{HashMap, VecDeque};
use std::convert::Infallible;
use std::io;
use std::net::{IpAddr, SocketAddr};
use std::path::PathBuf;
use std::pin::Pin;
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, PoisonError, RwLock};
use std::task::{Context, Poll};
use std::time::{Duration, Instant};

use bytes::Bytes;
use http_body_util::{BodyExt, Empty, Full, combinators::BoxBody};
use hyper::body::{Frame, Incoming, SizeHint};
use hyper::header::{self, HeaderValue};
use hyper::server::conn::http1;
use hyper::service::service_fn;
use hyper::{Method, Request, Response, StatusCode};
use hyper_util::rt::{TokioIo, TokioTimer};
use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::{Notify, OwnedSemaphorePermit, Semaphore, broadcast, mpsc, watch};

pub use paths::{decode_path, resolve};

/// Connections served at once; past it, connections not answering a request are closed to
/// make room.
const MAX_CONNECTIONS: usize = 256;
/// Live-reload streams open at once, all clients together: well under `MAX_CONNECTIONS`, so
/// streams (which keep their connection busy) never take every slot.
const MAX_STREAMS: usize = 64;
/// Live-reload streams one client address may hold. A new one ends the oldest (a tab told so
/// connects again when it is next looked at), so the tab in use always gets reloads.
const MAX_STREAMS_PER_CLIENT: usize = 8;
/// The most a request head may take in memory; a larger one is answered 431.
const MAX_HEAD_BYTES: usize = 64 * 1024;
/// How long a request head may take to arrive, counted from when it is awaited, not reset
/// by each byte; also the idle time of a keep-alive connection.
const HEADER_TIMEOUT: Duration = Duration::from_secs(10);
/// How long finding and opening the file of a request may take. The file itself is streamed
/// afterwards, as slowly as the client reads, under `STALL_TIMEOUT`.
const REQUEST_TIMEOUT: Duration = Duration::from_secs(30);
/// How long a response may go without a byte moving before its connection is closed: a
/// slow download goes on as long as it moves, a client that stopped reading does not.
const STALL_TIMEOUT: Duration = Duration::from_secs(60);
/// When connections are closed to make room, how long a new one has to send its request.
const SHED_GRACE: Duration = Duration::from_secs(1);
/// How often an idle event stream gets a comment, which also finds closed pages.
const PING_EVERY: Duration = Duration::from_secs(15);

/// The timeouts, apart so the tests of this module can shorten them.
#[derive(Clone, Copy)]
struct Limits {
    header: Duration,
    stall: Duration,
    shed_grace: Duration,
}

const LIMITS: Limits = Limits {
    header: HEADER_TIMEOUT,
    stall: STALL_TIMEOUT,
    shed_grace: SHED_GRACE,
};

type Body = BoxBody<Bytes, io::Error>;

/// What the server shares with the rebuild loop.
pub struct Shared {
    pub out: PathBuf,
    /// The diagnostics of the last failed rebuild, shown over every page until fixed.
    pub errors: Mutex<Option<String>>,
    /// Whether a build has succeeded, so the output folder holds a site.
    has_output: AtomicBool,
    events: broadcast::Sender<String>,
    /// Held for reading while a request finds and opens its file, and for writing while a
    /// rebuild moves its files into place: no request sees a half-applied rebuild. An open
    /// file is streamed after the guard is released (it keeps its bytes if renamed over).
    pub apply_gate: Arc<RwLock<()>>,
}

impl Shared {
    pub fn new(out: PathBuf) -> Self {
        Shared {
            out,
            errors: Mutex::new(None),
            has_output: AtomicBool::new(false),
            events: broadcast::channel(16).0,
            apply_gate: Arc::new(RwLock::new(())),
        }
    }

    /// The gate the writer of the output folder takes for writing while it renames a
    /// rebuild's files into place (see `apply_gate`).
    pub fn apply_gate(&self) -> &Arc<RwLock<()>> {
        &self.apply_gate
    }

    /// Sends a server-sent event to every open page.
    pub fn broadcast(&self, event: &str, data: &str) {
        // An error only means no page is open.
        let _ = self
            .events
            .send(format!("event: {event}\ndata: {data}\n\n"));
    }

    /// Records that a build succeeded: pages are served from the output from now on.
    pub fn mark_built(&self) {
        self.has_output.store(true, Ordering::Release);
    }

    pub fn has_output(&self) -> bool {
        self.has_output.load(Ordering::Acquire)
    }
}

/// Listens on `host:port` (0 picks a free port) and serves from a thread of its own; returns
/// the address actually bound.
pub fn start(host: &str, port: u16, shared: Arc<Shared>) -> std::io::Result<SocketAddr> {
    start_with(host, port, shared, LIMITS)
}

fn start_with(
    host: &str,
    port: u16,
    shared: Arc<Shared>,
    limits: Limits,
) -> std::io::Result<SocketAddr> {
    let listener = std::net::TcpListener::bind((host, port))?;
    let addr = listener.local_addr()?;
    listener.set_nonblocking(true)?;
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .max_blocking_threads(16)
        .thread_name("docgen-http")
        .enable_all()
        .build()?;
    let listener = {
        let _context = runtime.enter();
        TcpListener::from_std(listener)?
    };
    std::thread::spawn(move || runtime.block_on(accept(listener, shared, limits)));
    Ok(addr)
}

/// Accepts connections while fewer than `MAX_CONNECTIONS` are open. At the cap it asks the
/// open ones to make room: those not answering a request close (an idle keep-alive, a head
/// still arriving), so neither idle nor slow connections can lock new ones out.
async fn accept(listener: TcpListener, shared: Arc<Shared>, limits: Limits) {
    let slots = Arc::new(Semaphore::new(MAX_CONNECTIONS));
    let streams = Arc::new(Streams::default());
    let (shed, _) = watch::channel(0u64);
    loop {
        let permit = match slots.clone().try_acquire_owned() {
            Ok(permit) => permit,
            Err(_) => {
                shed.send_modify(|n| *n += 1);
                slots.clone().acquire_owned().await.expect("never closed")
            }
        };
        let (stream, peer) = match listener.accept().await {
            Ok(accepted) => accepted,
            Err(_) => {
                // Out of file descriptors, or a connection reset before it was accepted.
                tokio::time::sleep(Duration::from_millis(50)).await;
                continue;
            }
        };
        let slot = Slot {
            _permit: permit,
            shed: shed.subscribe(),
        };
        let client = Client {
            shared: shared.clone(),
            streams: streams.clone(),
            address: peer.ip().to_canonical(),
        };
        tokio::spawn(connection(stream, client, slot, limits));
    }
}

/// A connection's place among the `MAX_CONNECTIONS`, given back when it is dropped, and the
/// signal to make room.
struct Slot {
    _permit: OwnedSemaphorePermit,
    shed: watch::Receiver<u64>,
}

/// What a connection's requests are answered with.
#[derive(Clone)]
struct Client {
    shared: Arc<Shared>,
    streams: Arc<Streams>,
    address: IpAddr,
}

/// Serves one connection's requests; holds its slot until the connection ends. The
/// connection is dropped (closed) when a response stalls, or when room is needed and it is
/// not answering a request.
async fn connection(stream: TcpStream, client: Client, mut slot: Slot, limits: Limits) {
    let accepted = tokio::time::Instant::now();
    let progress = Arc::new(Progress::new());
    let busy = Arc::new(AtomicUsize::new(0));
    let service = {
        let (progress, busy) = (progress.clone(), busy.clone());
        service_fn(move |request| {
            let answering = Answering::new(&busy);
            progress.touch();
            let client = client.clone();
            async move {
                let response = respond(request, client).await;
                Ok::<_, Infallible>(response.map(|body| Tracked {
                    body,
                    _answering: answering,
                }))
            }
        })
    };
    let mut http = http1::Builder::new();
    http.timer(TokioTimer::new())
        .header_read_timeout(limits.header)
        .max_buf_size(MAX_HEAD_BYTES);
    let io = Watched {
        stream,
        progress: progress.clone(),
    };
    let conn = http.serve_connection(TokioIo::new(io), service);
    let mut conn = std::pin::pin!(conn);
    let mut shedding = false;
    loop {
        let answering = busy.load(Ordering::Acquire) > 0;
        if answering && progress.idle() >= limits.stall {
            return;
        }
        let shed_at = accepted + limits.shed_grace;
        if shedding && !answering && tokio::time::Instant::now() >= shed_at {
            return;
        }
        // Answering, the stall is checked when it would be due; otherwise hyper's header
        // timeout governs, and the loop only wakes now and then.
        let next_check = match answering {
            true => limits.stall.saturating_sub(progress.idle()),
            false => limits.stall,
        };
        let mut wake = tokio::time::Instant::now() + next_check;
        if shedding {
            wake = wake.min(shed_at.max(tokio::time::Instant::now() + limits.shed_grace / 4));
        }
        tokio::select! {
            _ = conn.as_mut() => return,
            changed = slot.shed.changed(), if !shedding => {
                if changed.is_ok() {
                    shedding = true;
                    // A response under way is finished first, then the connection closes.
                    conn.as_mut().graceful_shutdown();
                }
            }
            _ = tokio::time::sleep_until(wake) => {}
        }
    }
}

/// When bytes last moved on a connection.
struct Progress {
    since: Instant,
    /// Milliseconds from `since`.
    last: AtomicU64,
}

impl Progress {
    fn new() -> Self {
        Progress {
            since: Instant::now(),
            last: AtomicU64::new(0),
        }
    }

    fn touch(&self) {
        let now = self.since.elapsed().as_millis() as u64;
        self.last.fetch_max(now, Ordering::Relaxed);
    }

    /// How long since bytes last moved.
    fn idle(&self) -> Duration {
        let last = Duration::from_millis(self.last.load(Ordering::Relaxed));
        self.since.elapsed().saturating_sub(last)
    }
}

/// A connection's socket, noting each time bytes are read or written.
struct Watched {
    stream: TcpStream,
    progress: Arc<Progress>,
}

impl Watched {
    fn noted<T>(
        &self,
        poll: Poll<io::Result<T>>,
        moved: impl Fn(&T) -> bool,
    ) -> Poll<io::Result<T>> {
        if let Poll::Ready(Ok(value)) = &poll
            && moved(value)
        {
            self.progress.touch();
        }
        poll
    }
}

impl AsyncRead for Watched {
    fn poll_read(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        let before = buf.filled().len();
        let poll = Pin::new(&mut self.stream).poll_read(cx, buf);
        let moved = buf.filled().len() > before;
        self.noted(poll, |_| moved)
    }
}

impl AsyncWrite for Watched {
    fn poll_write(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<io::Result<usize>> {
        let poll = Pin::new(&mut self.stream).poll_write(cx, buf);
        self.noted(poll, |n| *n > 0)
    }

    fn poll_write_vectored(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        bufs: &[io::IoSlice<'_>],
    ) -> Poll<io::Result<usize>> {
        let poll = Pin::new(&mut self.stream).poll_write_vectored(cx, bufs);
        self.noted(poll, |n| *n > 0)
    }

    fn is_write_vectored(&self) -> bool {
        self.stream.is_write_vectored()
    }

    fn poll_flush(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.stream).poll_flush(cx)
    }

    fn poll_shutdown(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.stream).poll_shutdown(cx)
    }
}

/// Counts a request as being answered from its head until its response body is dropped
/// (sent, or given up).
struct Answering(Arc<AtomicUsize>);

impl Answering {
    fn new(busy: &Arc<AtomicUsize>) -> Self {
        busy.fetch_add(1, Ordering::AcqRel);
        Answering(busy.clone())
    }
}

impl Drop for Answering {
    fn drop(&mut self) {
        self.0.fetch_sub(1, Ordering::AcqRel);
    }
}

/// A response body that keeps its request counted as answered while it is sent.
struct Tracked {
    body: Body,
    _answering: Answering,
}

impl hyper::body::Body for Tracked {
    type Data = Bytes;
    type Error = io::Error;

    fn poll_frame(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
    ) -> Poll<Option<Result<Frame<Bytes>, io::Error>>> {
        Pin::new(&mut self.body).poll_frame(cx)
    }

    fn is_end_stream(&self) -> bool {
        self.body.is_end_stream()
    }

    fn size_hint(&self) -> SizeHint {
        self.body.size_hint()
    }
}

/// One request: GET and HEAD only; the event stream, or the answer found off the runtime's
/// threads (it opens files) within `REQUEST_TIMEOUT`, under the apply gate's read guard.
async fn respond(request: Request<Incoming>, client: Client) -> Response<Body> {
    let method = request.method().clone();
    if method != Method::GET && method != Method::HEAD {
        let mut response = plain(StatusCode::METHOD_NOT_ALLOWED, "only GET and HEAD");
        let allow = HeaderValue::from_static("GET, HEAD");
        response.headers_mut().insert(header::ALLOW, allow);
        return response;
    }
    let uri = request.uri();
    if uri.path() == "/_docgen/live" {
        return event_stream(&client);
    }
    let text = |name| {
        let value = request.headers().get(name)?;
        value.to_str().ok().map(str::to_string)
    };
    let (range, if_range) = (text(header::RANGE), text(header::IF_RANGE));
    let (path, query) = (uri.path().to_string(), uri.query().map(str::to_string));
    let shared = client.shared;
    let work = tokio::task::spawn_blocking(move || {
        let ask = answer::Ask {
            path: &path,
            query: query.as_deref(),
            range: range.as_deref(),
            if_range: if_range.as_deref(),
        };
        // A rebuild's files are renamed into place under the write guard: what is found and
        // opened here is all from before it or all from after it.
        let _whole = shared
            .apply_gate
            .read()
            .unwrap_or_else(PoisonError::into_inner);
        let reply = answer::answer(&ask, &shared);
        (reply, answer::site_headers(&path, &shared))
    });
    match tokio::time::timeout(REQUEST_TIMEOUT, work).await {
        Ok(Ok((reply, site_headers))) => {
            let mut response = response(reply, method == Method::HEAD);
            for (name, value) in site_headers {
                response.headers_mut().insert(name, value);
            }
            response
        }
        Ok(Err(_)) => plain(StatusCode::INTERNAL_SERVER_ERROR, "the request failed"),
        Err(_) => plain(StatusCode::SERVICE_UNAVAILABLE, "the request took too long"),
    }
}

/// The response for a reply; for HEAD, the same headers (`Content-Length` included) and no
/// body, so a file is not even read.
fn response(reply: answer::Reply, head: bool) -> Response<Body> {
    let length = reply.body.len();
    let body = match reply.body {
        _ if head => Empty::new().map_err(|never| match never {}).boxed(),
        answer::Content::Bytes(bytes) => Full::new(Bytes::from(bytes))
            .map_err(|never| match never {})
            .boxed(),
        answer::Content::File { file, pieces } => body::FileBody::new(file, pieces).boxed(),
    };
    let mut response = Response::new(body);
    *response.status_mut() = reply.status;
    let headers = response.headers_mut();
    headers.insert(header::CONTENT_TYPE, reply.content_type);
    headers.insert(header::CONTENT_LENGTH, HeaderValue::from(length));
    headers.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
    if let Some(location) = reply.location {
        headers.insert(header::LOCATION, location);
    }
    for (name, value) in reply.headers {
        headers.insert(name, value);
    }
    response
}

fn plain(status: StatusCode, text: &'static str) -> Response<Body> {
    let reply = answer::Reply {
        status,
        content_type: HeaderValue::from_static("text/plain; charset=utf-8"),
        location: None,
        headers: Vec::new(),
        body: answer::Content::Bytes(text.as_bytes().to_vec()),
    };
    response(reply, false)
}

/// The live-reload streams open, by client address, oldest first.
#[derive(Default)]
struct Streams {
    open: Mutex<OpenStreams>,
}

#[derive(Default)]
struct OpenStreams {
    next_id: u64,
    total: usize,
    by_client: HashMap<IpAddr, VecDeque<(u64, Arc<Notify>)>>,
}

/// One open stream's place in `Streams`, given back when dropped.
struct Ticket {
    streams: Arc<Streams>,
    client: IpAddr,
    id: u64,
    /// Told when a newer stream of the same client takes the place.
    ended: Arc<Notify>,
}

impl Streams {
    /// A place for a new stream of `client`: the client's oldest is ended when it has
    /// `MAX_STREAMS_PER_CLIENT`; `None` when all clients together have `MAX_STREAMS`.
    fn open(self: &Arc<Self>, client: IpAddr) -> Option<Ticket> {
        let mut open = self.open.lock().unwrap_or_else(PoisonError::into_inner);
        let open = &mut *open;
        let mine = open.by_client.get(&client).map_or(0, VecDeque::len);
        if mine >= MAX_STREAMS_PER_CLIENT {
            let list = open.by_client.get_mut(&client).expect("has streams");
            if let Some((_, oldest)) = list.pop_front() {
                oldest.notify_one();
                open.total -= 1;
            }
        } else if open.total >= MAX_STREAMS {
            return None;
        }
        let id = open.next_id;
        open.next_id += 1;
        open.total += 1;
        let ended = Arc::new(Notify::new());
        let list = open.by_client.entry(client).or_default();
        list.push_back((id, ended.clone()));
        Some(Ticket {
            streams: self.clone(),
            client,
            id,
            ended,
        })
    }

    #[cfg(test)]
    fn count(&self, client: IpAddr) -> usize {
        let open = self.open.lock().unwrap();
        open.by_client.get(&client).map_or(0, VecDeque::len)
    }
}

impl Drop for Ticket {
    fn drop(&mut self) {
        let mut open = self
            .streams
            .open
            .lock()
            .unwrap_or_else(PoisonError::into_inner);
        let open = &mut *open;
        let Some(list) = open.by_client.get_mut(&self.client) else {
            return;
        };
        // An ended stream was taken off already.
        if let Some(i) = list.iter().position(|(id, _)| *id == self.id) {
            list.remove(i);
            open.total -= 1;
        }
        if list.is_empty() {
            open.by_client.remove(&self.client);
        }
    }
}

/// The live-reload stream: server-sent events from `Shared::broadcast`, the current errors
/// first for a page opened while the site is broken. Its connection closes when it ends.
fn event_stream(client: &Client) -> Response<Body> {
    let Some(ticket) = client.streams.open(client.address) else {
        let mut response = plain(
            StatusCode::SERVICE_UNAVAILABLE,
            "too many live-reload streams",
        );
        let retry = HeaderValue::from_static("30");
        response.headers_mut().insert(header::RETRY_AFTER, retry);
        return response;
    };
    let shared = &client.shared;
    let events = shared.events.subscribe();
    let errors = shared.errors.lock().expect("not poisoned").clone();
    let first = errors.map(|text| {
        let data = serde_json::json!({ "text": text });
        format!("event: errors\ndata: {data}\n\n")
    });
    let (tx, rx) = mpsc::channel(16);
    tokio::spawn(forward_events(tx, events, first, ticket));
    let mut response = Response::new(EventBody(rx).boxed());
    let headers = response.headers_mut();
    let event_stream = HeaderValue::from_static("text/event-stream");
    headers.insert(header::CONTENT_TYPE, event_stream);
    headers.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
    headers.insert(header::CONNECTION, HeaderValue::from_static("close"));
    response
}

/// What a stream ended for a newer one of the same client sends last: the page stops
/// reconnecting until it is looked at again.
const ENDED: &str = "event: ended\ndata: {}\n\n";

/// Feeds one page's stream until the page goes away (its body, and so `rx`, is dropped) or a
/// newer stream of the same client takes its place.
async fn forward_events(
    tx: mpsc::Sender<Bytes>,
    mut events: broadcast::Receiver<String>,
    first: Option<String>,
    ticket: Ticket,
) {
    if let Some(first) = first
        && tx.send(Bytes::from(first)).await.is_err()
    {
        return;
    }
    loop {
        let message = tokio::select! {
            _ = ticket.ended.notified() => {
                let _ = tx.send(Bytes::from_static(ENDED.as_bytes())).await;
                return;
            }
            _ = tx.closed() => return,
            next = tokio::time::timeout(PING_EVERY, events.recv()) => match next {
                Ok(Ok(message)) => message,
                Ok(Err(broadcast::error::RecvError::Lagged(_))) => continue,
                Ok(Err(broadcast::error::RecvError::Closed)) => return,
                // A comment keeps the connection open and finds pages that went away.
                Err(_) => ": ping\n\n".to_string(),
            },
        };
        if tx.send(Bytes::from(message)).await.is_err() {
            return;
        }
    }
}

/// A response body that sends each event as it comes, so none waits in a buffer.
struct EventBody(mpsc::Receiver<Bytes>);

impl hyper::body::Body for EventBody {
    type Data = Bytes;
    type Error = io::Error;

    fn poll_frame(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
    ) -> Poll<Option<Result<Frame<Bytes>, io::Error>>> {
        self.0
            .poll_recv(cx)
            .map(|event| event.map(|e| Ok(Frame::data(e))))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::{Read, Write};

    #[test]
    fn a_client_keeps_its_newest_streams_and_all_clients_share_a_budget() {
        let streams = Arc::new(Streams::default());
        let me: IpAddr = "127.0.0.1".parse().unwrap();
        let first = streams.open(me).unwrap();
        let mut mine: Vec<Ticket> = (1..MAX_STREAMS_PER_CLIENT)
            .map(|_| streams.open(me).unwrap())
            .collect();
        assert_eq!(streams.count(me), MAX_STREAMS_PER_CLIENT);
        // One more ends the oldest, which is told so.
        mine.push(streams.open(me).unwrap());
        assert_eq!(streams.count(me), MAX_STREAMS_PER_CLIENT);
        let runtime = tokio::runtime::Builder::new_current_thread()
            .enable_time()
            .build()
            .unwrap();
        runtime.block_on(async {
            tokio::time::timeout(Duration::from_secs(1), first.ended.notified())
                .await
                .expect("the oldest stream is ended");
        });
        drop(first);
        assert_eq!(streams.count(me), MAX_STREAMS_PER_CLIENT);
        drop(mine.pop());
        assert_eq!(streams.count(me), MAX_STREAMS_PER_CLIENT - 1);
        // Other clients fill the budget; past it a new stream is refused, not another's ended.
        let mut others = Vec::new();
        for i in 0.. {
            let other = IpAddr::from([10, 0, (i / 200) as u8, (i % 200) as u8]);
            match streams.open(other) {
                Some(ticket) => others.push(ticket),
                None => break,
            }
        }
        assert_eq!(others.len() + mine.len(), MAX_STREAMS);
        assert!(streams.open("10.1.1.1".parse().unwrap()).is_none());
        drop(others);
        assert!(streams.open("10.1.1.1".parse().unwrap()).is_some());
    }

    fn quick_server(out: &std::path::Path, limits: Limits) -> u16 {
        let shared = Arc::new(Shared::new(out.to_path_buf()));
        shared.mark_built();
        start_with("127.0.0.1", 0, shared, limits).unwrap().port()
    }

    const QUICK: Limits = Limits {
        header: Duration::from_millis(400),
        stall: Duration::from_millis(400),
        shed_grace: Duration::from_millis(100),
    };

    /// Reads until the server closes; how many bytes came and when it closed.
    fn read_until_closed(stream: &mut std::net::TcpStream) -> (usize, Instant) {
        let mut buf = vec![0; 64 * 1024];
        let mut total = 0;
        loop {
            match stream.read(&mut buf) {
                Ok(0) | Err(_) => return (total, Instant::now()),
                Ok(n) => total += n,
            }
        }
    }

    #[test]
    fn a_head_sent_byte_by_byte_is_cut_at_the_header_timeout() {
        let tmp = tempfile::tempdir().unwrap();
        let port = quick_server(tmp.path(), QUICK);
        let mut slow = std::net::TcpStream::connect(("127.0.0.1", port)).unwrap();
        let started = Instant::now();
        let head = b"GET / HTTP/1.1\r\nHost: x\r\nX-Slow: ";
        let mut closed_after = None;
        for byte in head.iter().chain(std::iter::repeat(&b'a')) {
            if slow.write_all(&[*byte]).is_err() {
                closed_after = Some(started.elapsed());
                break;
            }
            std::thread::sleep(Duration::from_millis(20));
            assert!(started.elapsed() < Duration::from_secs(5), "never closed");
        }
        let closed_after = closed_after.unwrap();
        assert!(closed_after >= QUICK.header, "{closed_after:?}");
    }

    #[test]
    fn a_response_nobody_reads_is_closed_a_download_that_moves_is_not() {
        let tmp = tempfile::tempdir().unwrap();
        let size = 32 * 1024 * 1024;
        std::fs::write(tmp.path().join("big.bin"), vec![7u8; size]).unwrap();
        let port = quick_server(tmp.path(), QUICK);
        let request = b"GET /big.bin HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n";
        // Stops reading: the socket buffers fill, nothing moves, the server gives up.
        let mut stalled = std::net::TcpStream::connect(("127.0.0.1", port)).unwrap();
        stalled.write_all(request).unwrap();
        std::thread::sleep(QUICK.stall * 4);
        stalled
            .set_read_timeout(Some(Duration::from_secs(5)))
            .unwrap();
        let (got, _) = read_until_closed(&mut stalled);
        assert!(got < size, "the whole file came: {got}");
        // Reads slowly but steadily, for longer than the stall timeout in all: it all comes.
        let mut slow = std::net::TcpStream::connect(("127.0.0.1", port)).unwrap();
        slow.set_read_timeout(Some(Duration::from_secs(5))).unwrap();
        slow.write_all(request).unwrap();
        let started = Instant::now();
        let mut buf = vec![0; 4 * 1024 * 1024];
        let mut total = 0;
        while let Ok(n @ 1..) = slow.read(&mut buf) {
            total += n;
            std::thread::sleep(Duration::from_millis(50));
        }
        assert!(started.elapsed() > QUICK.stall, "{:?}", started.elapsed());
        assert!(total > size, "{total}");
    }
}
