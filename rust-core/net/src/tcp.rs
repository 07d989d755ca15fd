//! TCP links: varint-length-delimited frames (the codec of
//! [`banco_protocol::frame`], 4 KiB limit checked before allocation) over a `TCP_NODELAY`
//! stream, connect with a timeout, and a listener whose `accept` takes a timeout. A send
//! never blocks: what the socket cannot take at once goes to a writer thread (see
//! [`SEND_BACKLOG`]), so a peer that stops reading cannot freeze the sender.
//!
//! ```
//! use banco_net::{Link, tcp::{TcpListenerLink, TcpLink}};
//! use std::time::Duration;
//!
//! let listener = TcpListenerLink::bind("127.0.0.1:0".parse().unwrap())?;
//! let client = TcpLink::connect(listener.local_addr(), Duration::from_secs(2))?;
//! let server = listener.accept(Some(Duration::from_secs(2)))?.expect("a connection");
//! client.send(b"move")?;
//! assert_eq!(server.recv(Some(Duration::from_secs(2)))?, Some(b"move".to_vec()));
//! # Ok::<(), banco_net::LinkError>(())
//! ```

use std::collections::VecDeque;
use std::io::{self, Read};
use std::net::{IpAddr, Ipv4Addr, Ipv6Addr, SocketAddr, TcpListener, TcpStream, ToSocketAddrs};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Condvar, Mutex, MutexGuard, PoisonError};
use std::thread::{self, JoinHandle};
use std::time::{Duration, Instant};

use banco_protocol::frame::{FrameDecoder, FrameError, encode_frame};

use crate::error::LinkError;
use crate::link::{Link, MAX_FRAME_SIZE};
use crate::outbox::Outbox;

pub use crate::outbox::SEND_BACKLOG;

/// How long the writer thread waits for a peer that stopped reading before the link is
/// given up ([`TcpLink::send`] itself never waits).
pub const WRITE_TIMEOUT: Duration = Duration::from_secs(10);
/// Connections accepted but not yet taken by [`TcpListenerLink::accept`]; more are refused.
const ACCEPT_BACKLOG: usize = 8;
/// Size of the read buffer of a link.
const READ_CHUNK: usize = 4096;

struct Reader {
    stream: TcpStream,
    decoder: FrameDecoder,
    /// Bytes of an unfinished frame were consumed (EOF now means a broken stream).
    mid_frame: bool,
    buf: Box<[u8]>,
    start: usize,
    end: usize,
    /// The read timeout currently set on the socket, to skip redundant syscalls.
    timeout: Option<Duration>,
}

/// A TCP connection carrying length-delimited frames. See the [module docs](self).
pub struct TcpLink {
    reader: Mutex<Reader>,
    /// The sending half; it also shuts the socket down (never blocking, so `close` cannot
    /// block).
    pub(crate) outbox: Outbox,
    closed: AtomicBool,
    peer: SocketAddr,
    max_frame: usize,
}

impl std::fmt::Debug for TcpLink {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("TcpLink")
            .field("peer", &self.peer)
            .finish_non_exhaustive()
    }
}

fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(PoisonError::into_inner)
}

impl TcpLink {
    /// Connects to `addr`, giving up after `timeout`.
    pub fn connect(addr: SocketAddr, timeout: Duration) -> Result<TcpLink, LinkError> {
        let stream = TcpStream::connect_timeout(&addr, timeout).map_err(LinkError::from_io)?;
        TcpLink::from_stream(stream)
    }

    /// Tries each address in turn (as DNS or discovery listed them) until one connects; each
    /// attempt gets `timeout`. Returns the last error if none does.
    pub fn connect_any(addrs: &[SocketAddr], timeout: Duration) -> Result<TcpLink, LinkError> {
        let mut last = LinkError::Timeout;
        for addr in addrs {
            match TcpLink::connect(*addr, timeout) {
                Ok(link) => return Ok(link),
                Err(e) => last = e,
            }
        }
        Err(last)
    }

    /// Resolves `addr` (`host:port`) and connects to the first address that answers.
    pub fn connect_to(addr: impl ToSocketAddrs, timeout: Duration) -> Result<TcpLink, LinkError> {
        let addrs: Vec<SocketAddr> = addr
            .to_socket_addrs()
            .map_err(LinkError::from_io)?
            .collect();
        TcpLink::connect_any(&addrs, timeout)
    }

    /// Wraps a connected stream: sets `TCP_NODELAY` and a write timeout.
    pub fn from_stream(stream: TcpStream) -> Result<TcpLink, LinkError> {
        TcpLink::from_stream_with_limit(stream, MAX_FRAME_SIZE)
    }

    /// Like [`TcpLink::from_stream`] with a smaller frame limit (the protocol's 4 KiB is the
    /// largest).
    pub fn from_stream_with_limit(
        stream: TcpStream,
        max_frame: usize,
    ) -> Result<TcpLink, LinkError> {
        let max_frame = max_frame.min(MAX_FRAME_SIZE);
        stream.set_nodelay(true)?;
        stream.set_write_timeout(Some(WRITE_TIMEOUT))?;
        let peer = stream.peer_addr()?;
        let reader = Reader {
            stream: stream.try_clone()?,
            decoder: FrameDecoder::with_max_len(max_frame),
            mid_frame: false,
            buf: vec![0; READ_CHUNK].into_boxed_slice(),
            start: 0,
            end: 0,
            timeout: None,
        };
        Ok(TcpLink {
            reader: Mutex::new(reader),
            outbox: Outbox::new(stream),
            closed: AtomicBool::new(false),
            peer,
            max_frame,
        })
    }

    /// The peer's address.
    pub fn peer_addr(&self) -> SocketAddr {
        self.peer
    }

    fn closed_error(&self, err: LinkError) -> LinkError {
        if self.closed.load(Ordering::Acquire) {
            LinkError::Closed
        } else {
            err
        }
    }
}

fn frame_error(err: FrameError) -> LinkError {
    match err {
        FrameError::TooLarge { len, max } => LinkError::FrameTooLarge {
            len: usize::try_from(len).unwrap_or(usize::MAX),
            max,
        },
        FrameError::BadPrefix => LinkError::Malformed("bad length prefix"),
    }
}

impl Link for TcpLink {
    fn send(&self, frame: &[u8]) -> Result<(), LinkError> {
        if frame.len() > self.max_frame {
            return Err(LinkError::FrameTooLarge {
                len: frame.len(),
                max: self.max_frame,
            });
        }
        let mut wire = Vec::with_capacity(frame.len() + 3);
        encode_frame(frame, &mut wire).map_err(frame_error)?;
        if self.closed.load(Ordering::Acquire) {
            return Err(LinkError::Closed);
        }
        self.outbox.send(&wire).map_err(|e| self.closed_error(e))
    }

    fn recv(&self, timeout: Option<Duration>) -> Result<Option<Vec<u8>>, LinkError> {
        let deadline = timeout.and_then(|t| Instant::now().checked_add(t));
        let mut guard = lock(&self.reader);
        let r = &mut *guard;
        let mut read_once = false;
        loop {
            if self.closed.load(Ordering::Acquire) {
                return Err(LinkError::Closed);
            }
            let mut input = &r.buf[r.start..r.end];
            let before = input.len();
            let frame = r.decoder.decode(&mut input).map_err(frame_error);
            let used = before - input.len();
            r.start += used;
            if let Some(frame) = frame? {
                r.mid_frame = false;
                return Ok(Some(frame));
            }
            r.mid_frame |= used > 0;
            // The buffer is used up: read more.
            r.start = 0;
            r.end = 0;
            let wait = match deadline {
                None => None,
                Some(d) => {
                    let left = d.saturating_duration_since(Instant::now());
                    if left.is_zero() && read_once {
                        return Ok(None);
                    }
                    // At least one millisecond (a zero timeout means "for ever" to the OS),
                    // so even `Some(Duration::ZERO)` reads what is already there.
                    Some(Duration::from_millis(left.as_millis().max(1) as u64))
                }
            };
            read_once = true;
            if r.timeout != wait {
                r.stream.set_read_timeout(wait)?;
                r.timeout = wait;
            }
            match r.stream.read(&mut r.buf) {
                Ok(0) => {
                    let err = if r.mid_frame {
                        LinkError::Reset
                    } else {
                        LinkError::Closed
                    };
                    return Err(self.closed_error(err));
                }
                Ok(n) => r.end = n,
                Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                Err(e)
                    if matches!(
                        e.kind(),
                        io::ErrorKind::WouldBlock | io::ErrorKind::TimedOut
                    ) =>
                {
                    if deadline.is_some_and(|d| Instant::now() >= d) {
                        return Ok(None);
                    }
                }
                Err(e) => return Err(self.closed_error(LinkError::from_io(e))),
            }
        }
    }

    fn max_frame_size(&self) -> usize {
        self.max_frame
    }

    fn close(&self) {
        self.closed.store(true, Ordering::Release);
        // Shuts the socket down: wakes a reader blocked in `read` and ends the writer.
        self.outbox.close();
    }

    fn peer(&self) -> String {
        format!("tcp {}", self.peer)
    }

    fn peer_ip(&self) -> Option<IpAddr> {
        Some(self.peer.ip())
    }
}

impl Drop for TcpLink {
    fn drop(&mut self) {
        self.close();
    }
}

/// A listening TCP socket whose [`accept`](TcpListenerLink::accept) takes a timeout.
///
/// A background thread blocks in `accept(2)` and hands connections over through a small
/// bounded queue (connections beyond it are refused), so waiting costs no CPU. Dropping the
/// listener stops the thread.
///
/// An unspecified address (`0.0.0.0` or `[::]`) listens on every interface in **both**
/// families: a peer found by mDNS is often known first by its IPv6 link-local address only,
/// and a guest that dials it must not be refused.
pub struct TcpListenerLink {
    local: SocketAddr,
    /// Connections accepted and not yet taken, shared with the accept threads.
    incoming: Arc<Incoming>,
    stop: Arc<AtomicBool>,
    /// Each accept thread with the address its socket is bound to.
    threads: Vec<(SocketAddr, JoinHandle<()>)>,
}

impl std::fmt::Debug for TcpListenerLink {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("TcpListenerLink")
            .field("local", &self.local)
            .finish_non_exhaustive()
    }
}

/// Connections accepted and not yet taken (at most [`ACCEPT_BACKLOG`]); the condition
/// variable wakes waiting `accept`s when one comes or when an acceptor is interrupted.
#[derive(Default)]
struct Incoming {
    links: Mutex<VecDeque<TcpLink>>,
    ready: Condvar,
}

/// The sockets to listen on for `addr` (see [`TcpListenerLink`] for unspecified addresses).
fn bind_sockets(addr: SocketAddr) -> Result<Vec<TcpListener>, LinkError> {
    if !addr.ip().is_unspecified() {
        return Ok(vec![TcpListener::bind(addr)?]);
    }
    let any_v4 = SocketAddr::new(Ipv4Addr::UNSPECIFIED.into(), addr.port());
    match TcpListener::bind(SocketAddr::new(Ipv6Addr::UNSPECIFIED.into(), addr.port())) {
        Ok(v6) => {
            let port = v6.local_addr()?.port();
            let mut sockets = vec![v6];
            // A dual-stack IPv6 socket already takes IPv4 (this bind then fails with
            // "address in use"); where sockets are IPv6-only, IPv4 needs its own.
            if let Ok(v4) = TcpListener::bind(SocketAddr::new(any_v4.ip(), port)) {
                sockets.push(v4);
            }
            Ok(sockets)
        }
        // No IPv6 on this machine.
        Err(_) => Ok(vec![TcpListener::bind(any_v4)?]),
    }
}

impl TcpListenerLink {
    /// Binds `addr` (port 0 picks a free port) and starts accepting.
    pub fn bind(addr: SocketAddr) -> Result<TcpListenerLink, LinkError> {
        let sockets = bind_sockets(addr)?;
        let stop = Arc::new(AtomicBool::new(false));
        let mut link = TcpListenerLink {
            local: addr,
            incoming: Arc::new(Incoming::default()),
            stop,
            threads: Vec::new(),
        };
        for socket in sockets {
            let bound = socket.local_addr()?;
            link.local = SocketAddr::new(addr.ip(), bound.port());
            let stop = Arc::clone(&link.stop);
            let incoming = Arc::clone(&link.incoming);
            // On error `link` is dropped, which stops the threads started so far.
            let thread = thread::Builder::new()
                .name("banco-accept".into())
                .spawn(move || accept_loop(&socket, &incoming, &stop))?;
            link.threads.push((bound, thread));
        }
        Ok(link)
    }

    /// The bound address (with the real port when bound to port 0).
    pub fn local_addr(&self) -> SocketAddr {
        self.local
    }

    /// Waits for the next connection: `Ok(None)` if `timeout` passes first; `None` as timeout
    /// waits for ever.
    pub fn accept(&self, timeout: Option<Duration>) -> Result<Option<TcpLink>, LinkError> {
        self.accept_unless(timeout, &AtomicBool::new(false))
    }

    /// Like [`accept`](TcpListenerLink::accept), but returns [`LinkError::Closed`] as soon as
    /// `stop` is set and [`TcpListenerLink::wake_acceptors`] called (how a driver that ends
    /// stops its connect thread at once).
    pub fn accept_unless(
        &self,
        timeout: Option<Duration>,
        stop: &AtomicBool,
    ) -> Result<Option<TcpLink>, LinkError> {
        let deadline = timeout.and_then(|t| Instant::now().checked_add(t));
        let mut links = lock(&self.incoming.links);
        loop {
            if stop.load(Ordering::Acquire) {
                return Err(LinkError::Closed);
            }
            if let Some(link) = links.pop_front() {
                return Ok(Some(link));
            }
            links = match deadline {
                None => self
                    .incoming
                    .ready
                    .wait(links)
                    .unwrap_or_else(PoisonError::into_inner),
                Some(d) => {
                    let left = d.saturating_duration_since(Instant::now());
                    if left.is_zero() {
                        return Ok(None);
                    }
                    self.incoming
                        .ready
                        .wait_timeout(links, left)
                        .unwrap_or_else(PoisonError::into_inner)
                        .0
                }
            };
        }
    }

    /// Wakes every thread waiting in [`TcpListenerLink::accept_unless`] to check its stop
    /// flag.
    pub fn wake_acceptors(&self) {
        // Taking the lock orders the callers' flags before the waiters' next check.
        drop(lock(&self.incoming.links));
        self.incoming.ready.notify_all();
    }

    /// Like [`accept`](TcpListenerLink::accept), but when several connections are waiting,
    /// returns the newest and closes the older ones. After a cut this picks the peer's
    /// latest dial over attempts it has already given up on.
    pub fn accept_newest(&self, timeout: Option<Duration>) -> Result<Option<TcpLink>, LinkError> {
        let Some(mut link) = self.accept(timeout)? else {
            return Ok(None);
        };
        let mut links = lock(&self.incoming.links);
        while let Some(newer) = links.pop_front() {
            link.close();
            link = newer;
        }
        Ok(Some(link))
    }
}

fn accept_loop(listener: &TcpListener, incoming: &Incoming, stop: &AtomicBool) {
    let mut failures = 0u32;
    loop {
        let accepted = listener.accept();
        if stop.load(Ordering::Acquire) {
            return;
        }
        match accepted {
            Ok((stream, _)) => {
                failures = 0;
                let Ok(link) = TcpLink::from_stream(stream) else {
                    continue;
                };
                let mut links = lock(&incoming.links);
                if links.len() >= ACCEPT_BACKLOG {
                    // Nobody is taking connections fast enough: refuse this one.
                    link.close();
                    continue;
                }
                links.push_back(link);
                drop(links);
                incoming.ready.notify_one();
            }
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            Err(_) => {
                // Out of descriptors and the like: back off instead of spinning.
                failures = failures.saturating_add(1);
                thread::sleep(Duration::from_millis(10 * u64::from(failures.min(100))));
            }
        }
    }
}

impl Drop for TcpListenerLink {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::Release);
        for (bound, thread) in self.threads.drain(..) {
            // Wake the thread blocked in accept(2) with a connection to ourselves (over the
            // other family's loopback if need be: a dual-stack socket takes both).
            let port = bound.port();
            let targets: [IpAddr; 2] = match bound {
                SocketAddr::V4(a) if !a.ip().is_unspecified() => [a.ip().to_owned().into(); 2],
                SocketAddr::V6(a) if !a.ip().is_unspecified() => [a.ip().to_owned().into(); 2],
                SocketAddr::V4(_) => [Ipv4Addr::LOCALHOST.into(), Ipv4Addr::LOCALHOST.into()],
                SocketAddr::V6(_) => [Ipv6Addr::LOCALHOST.into(), Ipv4Addr::LOCALHOST.into()],
            };
            let woke = targets.iter().any(|ip| {
                TcpStream::connect_timeout(&SocketAddr::new(*ip, port), Duration::from_secs(1))
                    .is_ok()
            });
            if woke {
                let _ = thread.join();
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Write;

    const T: Option<Duration> = Some(Duration::from_secs(5));

    impl TcpLink {
        /// The socket, to write raw bytes past the framing.
        fn raw_stream(&self) -> TcpStream {
            lock(&self.reader).stream.try_clone().unwrap()
        }
    }

    fn pair() -> (TcpLink, TcpLink, TcpListenerLink) {
        let listener = TcpListenerLink::bind("127.0.0.1:0".parse().unwrap()).unwrap();
        let client = TcpLink::connect(listener.local_addr(), Duration::from_secs(2)).unwrap();
        let server = listener.accept(T).unwrap().unwrap();
        (client, server, listener)
    }

    #[test]
    fn frames_both_ways() {
        let (c, s, _l) = pair();
        for i in 0..50u16 {
            c.send(&vec![i as u8; usize::from(i) * 30]).unwrap();
        }
        for i in 0..50u16 {
            assert_eq!(
                s.recv(T).unwrap().unwrap(),
                vec![i as u8; usize::from(i) * 30]
            );
        }
        s.send(b"").unwrap();
        s.send(b"pong").unwrap();
        assert_eq!(c.recv(T).unwrap(), Some(Vec::new()));
        assert_eq!(c.recv(T).unwrap(), Some(b"pong".to_vec()));
        assert!(c.peer().starts_with("tcp 127.0.0.1:"));
    }

    #[test]
    fn recv_times_out_and_keeps_partial_frames() {
        let (c, s, _l) = pair();
        assert_eq!(s.recv(Some(Duration::from_millis(20))).unwrap(), None);
        assert_eq!(s.recv(Some(Duration::ZERO)).unwrap(), None);
        // Half a frame, a timeout, then the rest.
        let mut raw = c.raw_stream();
        raw.write_all(&[5, b'h', b'e']).unwrap();
        assert_eq!(s.recv(Some(Duration::from_millis(30))).unwrap(), None);
        raw.write_all(b"llo").unwrap();
        assert_eq!(s.recv(T).unwrap(), Some(b"hello".to_vec()));
    }

    #[test]
    fn zero_timeout_polls_what_is_there() {
        let (c, s, _l) = pair();
        c.send(b"ready").unwrap();
        let mut got = None;
        for _ in 0..200 {
            got = s.recv(Some(Duration::ZERO)).unwrap();
            if got.is_some() {
                break;
            }
            thread::sleep(Duration::from_millis(5));
        }
        assert_eq!(got, Some(b"ready".to_vec()));
    }

    #[test]
    fn accept_newest_drops_stale_connections() {
        let listener = TcpListenerLink::bind("127.0.0.1:0".parse().unwrap()).unwrap();
        let old = TcpLink::connect(listener.local_addr(), Duration::from_secs(2)).unwrap();
        let new = TcpLink::connect(listener.local_addr(), Duration::from_secs(2)).unwrap();
        // Let the accept thread queue both.
        thread::sleep(Duration::from_millis(50));
        let server = listener.accept_newest(T).unwrap().unwrap();
        new.send(b"new").unwrap();
        assert_eq!(server.recv(T).unwrap(), Some(b"new".to_vec()));
        assert!(matches!(
            old.recv(T),
            Err(LinkError::Closed | LinkError::Reset)
        ));
    }

    #[test]
    fn oversized_frames() {
        let (c, s, _l) = pair();
        assert!(matches!(
            c.send(&[0; 5000]),
            Err(LinkError::FrameTooLarge { .. })
        ));
        c.send(b"still fine").unwrap();
        assert_eq!(s.recv(T).unwrap(), Some(b"still fine".to_vec()));
        // A hostile prefix announcing 1 MiB is refused before anything is allocated.
        let mut raw = c.raw_stream();
        raw.write_all(&[0x80, 0x80, 0x40]).unwrap();
        assert!(matches!(
            s.recv(T),
            Err(LinkError::FrameTooLarge { max: 4096, .. })
        ));
    }

    #[test]
    fn peer_close_and_local_close() {
        let (c, s, _l) = pair();
        c.send(b"bye").unwrap();
        drop(c);
        assert_eq!(s.recv(T).unwrap(), Some(b"bye".to_vec()));
        assert!(matches!(s.recv(T), Err(LinkError::Closed)));

        let (c, s, _l) = pair();
        let s = Arc::new(s);
        let reader = {
            let s = Arc::clone(&s);
            thread::spawn(move || s.recv(None))
        };
        thread::sleep(Duration::from_millis(20));
        s.close();
        assert!(matches!(reader.join().unwrap(), Err(LinkError::Closed)));
        assert!(matches!(s.send(b"x"), Err(LinkError::Closed)));
        drop(c);
    }

    #[test]
    fn accept_times_out_and_listener_drops_cleanly() {
        let listener = TcpListenerLink::bind("127.0.0.1:0".parse().unwrap()).unwrap();
        assert!(
            listener
                .accept(Some(Duration::from_millis(20)))
                .unwrap()
                .is_none()
        );
        let addr = listener.local_addr();
        drop(listener);
        // The port is closed now.
        assert!(TcpLink::connect(addr, Duration::from_millis(500)).is_err());
    }

    #[test]
    fn unspecified_address_listens_in_both_families() {
        let listener = TcpListenerLink::bind("0.0.0.0:0".parse().unwrap()).unwrap();
        let port = listener.local_addr().port();
        assert!(listener.local_addr().ip().is_unspecified());
        for ip in ["127.0.0.1", "::1"] {
            let ip: IpAddr = ip.parse().unwrap();
            // Skip IPv6 where the machine has none.
            let Ok(client) = TcpLink::connect(SocketAddr::new(ip, port), Duration::from_secs(2))
            else {
                assert!(ip.is_ipv6(), "IPv4 loopback must connect");
                continue;
            };
            let server = listener.accept(T).unwrap().unwrap();
            client.send(b"hi").unwrap();
            assert_eq!(server.recv(T).unwrap(), Some(b"hi".to_vec()));
        }
        drop(listener);
        assert!(
            TcpLink::connect(
                SocketAddr::from(([127, 0, 0, 1], port)),
                Duration::from_millis(500)
            )
            .is_err()
        );
    }

    #[test]
    fn connect_to_a_closed_port_fails() {
        let l = TcpListener::bind("127.0.0.1:0").unwrap();
        let addr = l.local_addr().unwrap();
        drop(l);
        assert!(TcpLink::connect_any(&[addr, addr], Duration::from_millis(500)).is_err());
        assert!(matches!(
            TcpLink::connect_any(&[], Duration::from_millis(1)),
            Err(LinkError::Timeout)
        ));
    }
}
