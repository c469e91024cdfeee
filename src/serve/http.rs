//! The preview server: hyper (HTTP/1.1) on a tokio runtime of its own, so the synchronous
//! rebuild loop stays as it is. What it answers is in `answer`; this module takes care of the
//! connections and their limits, and of the live-reload event stream.

mod answer;
mod paths;

use std::convert::Infallible;
use std::net::SocketAddr;
use std::path::PathBuf;
use std::pin::Pin;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::task::{Context, Poll};
use std::time::Duration;

use bytes::Bytes;
use http_body_util::{BodyExt, Full, combinators::BoxBody};
use hyper::body::{Frame, Incoming};
use hyper::header::{self, HeaderValue};
use hyper::server::conn::http1;
use hyper::service::service_fn;
use hyper::{Method, Request, Response, StatusCode};
use hyper_util::rt::{TokioIo, TokioTimer};
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::{OwnedSemaphorePermit, Semaphore, broadcast, mpsc, watch};

pub use paths::{decode_path, resolve};

/// Connections served at once; past it, idle keep-alive connections are closed to make room.
const MAX_CONNECTIONS: usize = 256;
/// The most a request head may take in memory; a larger one is answered 431.
const MAX_HEAD_BYTES: usize = 64 * 1024;
/// How long a request head may take to arrive, also the idle time of a keep-alive connection.
const HEADER_TIMEOUT: Duration = Duration::from_secs(10);
/// How long answering one request (reading its file) may take.
const REQUEST_TIMEOUT: Duration = Duration::from_secs(30);
/// How often an idle event stream gets a comment, which also finds closed pages.
const PING_EVERY: Duration = Duration::from_secs(15);

type Body = BoxBody<Bytes, Infallible>;

/// What the server shares with the rebuild loop.
pub struct Shared {
    pub out: PathBuf,
    /// The diagnostics of the last failed rebuild, shown over every page until fixed.
    pub errors: Mutex<Option<String>>,
    /// Whether a build has succeeded, so the output folder holds a site.
    has_output: AtomicBool,
    events: broadcast::Sender<String>,
}

impl Shared {
    pub fn new(out: PathBuf) -> Self {
        Shared {
            out,
            errors: Mutex::new(None),
            has_output: AtomicBool::new(false),
            events: broadcast::channel(16).0,
        }
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
    std::thread::spawn(move || runtime.block_on(accept(listener, shared)));
    Ok(addr)
}

/// Accepts connections while fewer than `MAX_CONNECTIONS` are open. At the cap it asks the
/// open ones to close when idle, so idle or never-used connections cannot lock new ones out.
async fn accept(listener: TcpListener, shared: Arc<Shared>) {
    let slots = Arc::new(Semaphore::new(MAX_CONNECTIONS));
    let (shed, _) = watch::channel(0u64);
    loop {
        let permit = match slots.clone().try_acquire_owned() {
            Ok(permit) => permit,
            Err(_) => {
                shed.send_modify(|n| *n += 1);
                slots.clone().acquire_owned().await.expect("never closed")
            }
        };
        let stream = match listener.accept().await {
            Ok((stream, _)) => stream,
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
        tokio::spawn(connection(stream, shared.clone(), slot));
    }
}

/// A connection's place among the `MAX_CONNECTIONS`, given back when it is dropped, and the
/// signal to close once idle.
struct Slot {
    _permit: OwnedSemaphorePermit,
    shed: watch::Receiver<u64>,
}

/// Serves one connection's requests; holds its slot until the connection ends.
async fn connection(stream: TcpStream, shared: Arc<Shared>, mut slot: Slot) {
    let service = service_fn(move |request| {
        let shared = shared.clone();
        async move { Ok::<_, Infallible>(respond(request, shared).await) }
    });
    let mut http = http1::Builder::new();
    http.timer(TokioTimer::new())
        .header_read_timeout(HEADER_TIMEOUT)
        .max_buf_size(MAX_HEAD_BYTES);
    let conn = http.serve_connection(TokioIo::new(stream), service);
    let mut conn = std::pin::pin!(conn);
    tokio::select! {
        _ = conn.as_mut() => return,
        _ = slot.shed.changed() => conn.as_mut().graceful_shutdown(),
    }
    // An idle connection closes at once; a busy one after its response.
    let _ = conn.await;
}

/// One request: GET and HEAD only; the event stream, or the answer computed off the runtime's
/// threads (it reads files) within `REQUEST_TIMEOUT`.
async fn respond(request: Request<Incoming>, shared: Arc<Shared>) -> Response<Body> {
    if request.method() != Method::GET && request.method() != Method::HEAD {
        let mut response = plain(StatusCode::METHOD_NOT_ALLOWED, "only GET and HEAD");
        let allow = HeaderValue::from_static("GET, HEAD");
        response.headers_mut().insert(header::ALLOW, allow);
        return response;
    }
    let uri = request.uri();
    if uri.path() == "/_docgen/live" {
        return event_stream(&shared);
    }
    let (path, query) = (uri.path().to_string(), uri.query().map(str::to_string));
    let work = tokio::task::spawn_blocking(move || {
        let reply = answer::answer(&path, query.as_deref(), &shared);
        (reply, answer::site_headers(&path, &shared))
    });
    match tokio::time::timeout(REQUEST_TIMEOUT, work).await {
        Ok(Ok((reply, site_headers))) => {
            let mut response = response(reply);
            for (name, value) in site_headers {
                response.headers_mut().insert(name, value);
            }
            response
        }
        Ok(Err(_)) => plain(StatusCode::INTERNAL_SERVER_ERROR, "the request failed"),
        Err(_) => plain(StatusCode::SERVICE_UNAVAILABLE, "the request took too long"),
    }
}

fn response(reply: answer::Reply) -> Response<Body> {
    let mut response = Response::new(Full::new(Bytes::from(reply.body)).boxed());
    *response.status_mut() = reply.status;
    let headers = response.headers_mut();
    headers.insert(header::CONTENT_TYPE, reply.content_type);
    headers.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
    if let Some(location) = reply.location {
        headers.insert(header::LOCATION, location);
    }
    response
}

fn plain(status: StatusCode, text: &'static str) -> Response<Body> {
    response(answer::Reply {
        status,
        content_type: HeaderValue::from_static("text/plain; charset=utf-8"),
        location: None,
        body: text.as_bytes().to_vec(),
    })
}

/// The live-reload stream: server-sent events from `Shared::broadcast`, the current errors
/// first for a page opened while the site is broken.
fn event_stream(shared: &Shared) -> Response<Body> {
    let events = shared.events.subscribe();
    let errors = shared.errors.lock().expect("not poisoned").clone();
    let first = errors.map(|text| {
        let data = serde_json::json!({ "text": text });
        format!("event: errors\ndata: {data}\n\n")
    });
    let (tx, rx) = mpsc::channel(16);
    tokio::spawn(forward_events(tx, events, first));
    let mut response = Response::new(EventBody(rx).boxed());
    let headers = response.headers_mut();
    let event_stream = HeaderValue::from_static("text/event-stream");
    headers.insert(header::CONTENT_TYPE, event_stream);
    headers.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
    response
}

/// Feeds one page's stream until the page goes away (its body, and so `rx`, is dropped).
async fn forward_events(
    tx: mpsc::Sender<Bytes>,
    mut events: broadcast::Receiver<String>,
    first: Option<String>,
) {
    if let Some(first) = first
        && tx.send(Bytes::from(first)).await.is_err()
    {
        return;
    }
    loop {
        let message = match tokio::time::timeout(PING_EVERY, events.recv()).await {
            Ok(Ok(message)) => message,
            Ok(Err(broadcast::error::RecvError::Lagged(_))) => continue,
            Ok(Err(broadcast::error::RecvError::Closed)) => return,
            // A comment keeps the connection open and finds pages that went away.
            Err(_) => ": ping\n\n".to_string(),
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
    type Error = Infallible;

    fn poll_frame(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
    ) -> Poll<Option<Result<Frame<Bytes>, Infallible>>> {
        self.0
            .poll_recv(cx)
            .map(|event| event.map(|e| Ok(Frame::data(e))))
    }
}
