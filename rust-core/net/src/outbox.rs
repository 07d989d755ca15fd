//! The sending half of a [`TcpLink`](crate::tcp::TcpLink): a send never blocks its caller.
//!
//! A frame is written at once without waiting (`MSG_DONTWAIT`) when the socket has room —
//! the usual case, with no thread hop — and what does not fit is queued for a writer thread
//! (started the first time it is needed) that waits for the peer to read, up to
//! [`WRITE_TIMEOUT`](crate::tcp::WRITE_TIMEOUT). A peer that stops reading thus costs its
//! own link (after [`SEND_BACKLOG`] bytes, or the timeout) and never freezes the thread
//! that plays a move, which holds the session's lock while it sends.
//!
//! ```
//! use banco_net::{Link, tcp::{TcpListenerLink, TcpLink}};
//! use std::time::Duration;
//!
//! let listener = TcpListenerLink::bind("127.0.0.1:0".parse().unwrap())?;
//! let client = TcpLink::connect(listener.local_addr(), Duration::from_secs(2))?;
//! let server = listener.accept(Some(Duration::from_secs(2)))?.expect("a connection");
//! // The server never reads: sends still return at once, then fail when the backlog is full.
//! let frame = [0u8; 4096];
//! let sent = (0..10_000).take_while(|_| client.send(&frame).is_ok()).count();
//! assert!(sent < 10_000);
//! drop(server);
//! # Ok::<(), banco_net::LinkError>(())
//! ```

use std::collections::VecDeque;
use std::io::{self, Write};
use std::net::{Shutdown, TcpStream};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Condvar, Mutex, MutexGuard, PoisonError};
use std::thread::{self, JoinHandle};

use crate::error::LinkError;

/// Bytes a link holds for a peer that does not read, at most (a move is about 30 bytes);
/// beyond it the link is given up with [`LinkError::Stalled`].
pub const SEND_BACKLOG: usize = 256 * 1024;

struct State {
    /// Bytes waiting for the writer thread, in order.
    queue: VecDeque<u8>,
    /// The writer thread is writing bytes it took out of the queue.
    writing: bool,
    /// Sending failed for good (the link is closed).
    failed: bool,
    /// The writer thread, once started.
    thread: Option<JoinHandle<()>>,
}

struct Shared {
    stream: TcpStream,
    state: Mutex<State>,
    /// Signalled when bytes are queued or the link closes.
    work: Condvar,
    closed: AtomicBool,
}

fn lock(m: &Mutex<State>) -> MutexGuard<'_, State> {
    m.lock().unwrap_or_else(PoisonError::into_inner)
}

/// The sending half of a TCP link (see the [module docs](self)).
pub(crate) struct Outbox {
    shared: Arc<Shared>,
}

impl Outbox {
    /// Sends on `stream` (a handle of its own on the link's socket).
    pub(crate) fn new(stream: TcpStream) -> Outbox {
        Outbox {
            shared: Arc::new(Shared {
                stream,
                state: Mutex::new(State {
                    queue: VecDeque::new(),
                    writing: false,
                    failed: false,
                    thread: None,
                }),
                work: Condvar::new(),
                closed: AtomicBool::new(false),
            }),
        }
    }

    /// Sends the bytes of a whole frame, in order after earlier ones, without blocking.
    pub(crate) fn send(&self, wire: &[u8]) -> Result<(), LinkError> {
        let s = &*self.shared;
        let mut state = lock(&s.state);
        if s.closed.load(Ordering::Acquire) {
            return Err(LinkError::Closed);
        }
        if state.failed {
            return Err(LinkError::Reset);
        }
        let mut rest = wire;
        if state.queue.is_empty() && !state.writing {
            match write_now(&s.stream, wire) {
                Ok(n) => rest = &wire[n..],
                Err(e) => {
                    state.failed = true;
                    return Err(LinkError::from_io(e));
                }
            }
            if rest.is_empty() {
                return Ok(());
            }
        }
        let waiting = state.queue.len() + rest.len();
        if waiting > SEND_BACKLOG {
            state.failed = true;
            drop(state);
            self.close();
            return Err(LinkError::Stalled { waiting });
        }
        state.queue.extend(rest);
        if state.thread.is_none() {
            let shared = Arc::clone(&self.shared);
            match thread::Builder::new()
                .name("banco-link-writer".into())
                .spawn(move || write_queued(&shared))
            {
                Ok(handle) => state.thread = Some(handle),
                Err(e) => {
                    state.failed = true;
                    drop(state);
                    self.close();
                    return Err(LinkError::Io(e));
                }
            }
        }
        s.work.notify_one();
        Ok(())
    }

    /// Bytes queued for the writer thread (not yet handed to the system).
    #[cfg(test)]
    pub(crate) fn queued(&self) -> usize {
        let state = lock(&self.shared.state);
        state.queue.len()
    }

    /// Shuts the socket down (waking a blocked reader and writer) and ends the writer thread.
    /// Queued bytes are dropped. Idempotent.
    pub(crate) fn close(&self) {
        let s = &*self.shared;
        if !s.closed.swap(true, Ordering::AcqRel) {
            // Errors (already disconnected) do not matter.
            let _ = s.stream.shutdown(Shutdown::Both);
        }
        // Taking the lock orders the flag before the writer's next check.
        drop(lock(&s.state));
        s.work.notify_all();
    }
}

impl Drop for Outbox {
    fn drop(&mut self) {
        self.close();
        let thread = lock(&self.shared.state).thread.take();
        if let Some(thread) = thread {
            // The socket is shut down, so a blocked write returns at once.
            let _ = thread.join();
        }
    }
}

/// Writes as much of `buf` as the socket takes now; the number of bytes written.
#[cfg(unix)]
fn write_now(stream: &TcpStream, buf: &[u8]) -> io::Result<usize> {
    #[cfg(any(target_os = "linux", target_os = "android"))]
    const FLAGS: libc::c_int = libc::MSG_DONTWAIT | libc::MSG_NOSIGNAL;
    // Apple platforms: std sets SO_NOSIGPIPE on every socket.
    #[cfg(not(any(target_os = "linux", target_os = "android")))]
    const FLAGS: libc::c_int = libc::MSG_DONTWAIT;
    let socket = socket2::SockRef::from(stream);
    let mut done = 0;
    while done < buf.len() {
        match socket.send_with_flags(&buf[done..], FLAGS) {
            Ok(0) => return Err(io::ErrorKind::WriteZero.into()),
            Ok(n) => done += n,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            Err(e) if e.kind() == io::ErrorKind::WouldBlock => break,
            Err(e) => return Err(e),
        }
    }
    Ok(done)
}

/// Elsewhere every byte goes through the writer thread.
#[cfg(not(unix))]
fn write_now(_stream: &TcpStream, _buf: &[u8]) -> io::Result<usize> {
    Ok(0)
}

/// The writer thread: writes what is queued, waiting for the peer to read (up to the
/// socket's write timeout), until the link closes or a write fails.
fn write_queued(s: &Shared) {
    loop {
        let chunk: Vec<u8> = {
            let mut state = lock(&s.state);
            while state.queue.is_empty() && !s.closed.load(Ordering::Acquire) {
                state = s.work.wait(state).unwrap_or_else(PoisonError::into_inner);
            }
            if s.closed.load(Ordering::Acquire) {
                return;
            }
            state.writing = true;
            state.queue.drain(..).collect()
        };
        let written = (&s.stream).write_all(&chunk);
        let mut state = lock(&s.state);
        state.writing = false;
        if written.is_err() {
            // Timed out on a peer that stopped reading, or the connection broke: the reader
            // sees the shut-down socket and reports the link lost.
            state.failed = true;
            drop(state);
            if !s.closed.swap(true, Ordering::AcqRel) {
                let _ = s.stream.shutdown(Shutdown::Both);
            }
            return;
        }
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, clippy::expect_used)]
    use super::*;
    use crate::Link;
    use crate::tcp::{TcpLink, TcpListenerLink};
    use std::sync::mpsc;
    use std::time::Duration;

    const T: Option<Duration> = Some(Duration::from_secs(5));

    fn pair() -> (TcpLink, TcpLink, TcpListenerLink) {
        let listener = TcpListenerLink::bind("127.0.0.1:0".parse().unwrap()).unwrap();
        let client = TcpLink::connect(listener.local_addr(), Duration::from_secs(2)).unwrap();
        let server = listener.accept(T).unwrap().unwrap();
        (client, server, listener)
    }

    /// A peer that stops reading: the sender is never blocked (before, `send` waited up to
    /// the 10 s write timeout with the session locked); the link is given up once the
    /// backlog is full, and what was queued arrives in order once the peer reads again.
    #[test]
    fn a_peer_that_stops_reading_never_blocks_the_sender() {
        let (c, s, _l) = pair();
        let c = Arc::new(c);
        let (done, finished) = mpsc::channel();
        {
            let c = Arc::clone(&c);
            thread::spawn(move || {
                let mut ok = 0usize;
                let err = loop {
                    let frame = vec![(ok % 251) as u8; 4000];
                    match c.send(&frame) {
                        Ok(()) => ok += 1,
                        Err(e) => break e,
                    }
                    assert!(ok <= 100_000, "a peer that never reads took 400 MB");
                };
                let _ = done.send((ok, err));
            });
        }
        // Not a speed assertion: before the change the sender sat in `write` for 10 s.
        let (ok, err) = finished
            .recv_timeout(Duration::from_secs(5))
            .expect("send returned although the peer stopped reading");
        assert!(matches!(err, LinkError::Stalled { waiting } if waiting > SEND_BACKLOG));
        assert!(ok > 0);
        assert!(matches!(c.send(b"x"), Err(LinkError::Closed)));
        // The frames handed over before the link was given up arrive whole, in order.
        let mut got = 0usize;
        while let Ok(Some(frame)) = s.recv(T) {
            assert_eq!(frame, vec![(got % 251) as u8; 4000]);
            got += 1;
        }
        assert!(got <= ok);
    }

    #[test]
    fn queued_frames_go_out_in_order_when_the_peer_reads_again() {
        let (c, s, _l) = pair();
        // Fill the socket until frames queue, staying under the backlog.
        let mut sent = 0usize;
        while c.outbox.queued() == 0 {
            c.send(&vec![(sent % 251) as u8; 1000]).unwrap();
            sent += 1;
        }
        for _ in 0..20 {
            c.send(&vec![(sent % 251) as u8; 1000]).unwrap();
            sent += 1;
        }
        assert!(c.outbox.queued() > 0);
        for i in 0..sent {
            assert_eq!(s.recv(T).unwrap().unwrap(), vec![(i % 251) as u8; 1000]);
        }
        c.send(b"after").unwrap();
        assert_eq!(s.recv(T).unwrap(), Some(b"after".to_vec()));
    }
}
