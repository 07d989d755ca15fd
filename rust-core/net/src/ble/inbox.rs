//! The inbox of one BLE connection: ATT values pushed by the stack's callbacks (a runtime
//! task, or a platform thread through a [`hub`](super::hub)), read by the
//! [`BleLink`](super::BleLink) as the blocking [`AttPipe::read`](super::AttPipe::read) it
//! wants. Once down (closed here, or the connection lost), every read fails the same way.
//! At most [`MAX_QUEUED_BYTES`] wait (counting [`VALUE_OVERHEAD`] per value, so many tiny
//! values are bounded too): a central that writes while nobody reads (its link not taken
//! yet, the host paused) loses the rest, as lost ATT writes are lost, instead of growing
//! the host's memory. (A count of values was not enough: 1024 values of an MTU's 514
//! bytes held half a megabyte per central.)

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError, Sender};
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};
use std::time::Duration;

use crate::error::LinkError;

/// Why an inbox stopped.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Down {
    /// Closed by this side (or the peer unsubscribed in an orderly way).
    Closed,
    /// The connection was lost.
    Reset,
}

impl Down {
    fn error(self) -> LinkError {
        match self {
            Down::Closed => LinkError::Closed,
            Down::Reset => LinkError::Reset,
        }
    }
}

pub(crate) enum Incoming {
    Chunk(Vec<u8>),
    Down(Down),
}

/// The most bytes an inbox holds unread: three frames of the largest size at the default
/// MTU (fragments of 19 bytes), well more than a handshake or a move waiting to be read.
pub(crate) const MAX_QUEUED_BYTES: usize = 32 * 1024;

/// What one queued value costs besides its bytes (its allocation and queue node), for
/// [`MAX_QUEUED_BYTES`].
pub(crate) const VALUE_OVERHEAD: usize = 32;

/// The bytes a queued value counts for.
fn cost(value: &[u8]) -> usize {
    value.len().saturating_add(VALUE_OVERHEAD)
}

/// Incoming ATT values of one connection, fed by the runtime's tasks, read by the link.
pub(crate) struct Inbox {
    rx: Mutex<(Receiver<Incoming>, Option<Down>)>,
    tx: Sender<Incoming>,
    /// Bytes sent and not read yet ([`cost`]).
    queued: Arc<AtomicUsize>,
}

/// The feeding end of an [`Inbox`], held by the runtime's tasks.
#[derive(Clone)]
pub(crate) struct InboxTx(Sender<Incoming>, Arc<AtomicUsize>);

impl InboxTx {
    /// Delivers one ATT value (dropped, as a lost write, when it would take the unread
    /// bytes past [`MAX_QUEUED_BYTES`]); false when the inbox is gone.
    pub(crate) fn chunk(&self, value: Vec<u8>) -> bool {
        let cost = cost(&value);
        let before = self.1.fetch_add(cost, Ordering::AcqRel);
        if before.saturating_add(cost) > MAX_QUEUED_BYTES {
            self.1.fetch_sub(cost, Ordering::AcqRel);
            return true;
        }
        self.0.send(Incoming::Chunk(value)).is_ok()
    }

    /// Ends the connection.
    pub(crate) fn down(&self, why: Down) {
        let _ = self.0.send(Incoming::Down(why));
    }
}

fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(PoisonError::into_inner)
}

impl Inbox {
    pub(crate) fn new() -> Inbox {
        let (tx, rx) = mpsc::channel();
        Inbox {
            rx: Mutex::new((rx, None)),
            tx,
            queued: Arc::new(AtomicUsize::new(0)),
        }
    }

    pub(crate) fn sender(&self) -> InboxTx {
        InboxTx(self.tx.clone(), Arc::clone(&self.queued))
    }

    /// Ends the connection from this side: a blocked `read` wakes with `why`.
    pub(crate) fn down(&self, why: Down) {
        let _ = self.tx.send(Incoming::Down(why));
    }

    /// The next value, as [`AttPipe::read`](super::AttPipe::read).
    pub(crate) fn read(&self, timeout: Option<Duration>) -> Result<Option<Vec<u8>>, LinkError> {
        let mut guard = lock(&self.rx);
        let (rx, down) = &mut *guard;
        if let Some(why) = down {
            return Err(why.error());
        }
        let got = match timeout {
            None => rx.recv().map_err(|_| RecvTimeoutError::Disconnected),
            Some(t) => rx.recv_timeout(t),
        };
        match got {
            Ok(Incoming::Chunk(c)) => {
                self.queued.fetch_sub(cost(&c), Ordering::AcqRel);
                Ok(Some(c))
            }
            Ok(Incoming::Down(why)) => {
                *down = Some(why);
                Err(why.error())
            }
            Err(RecvTimeoutError::Timeout) => Ok(None),
            // Cannot happen while `self.tx` lives; treat as a lost link.
            Err(RecvTimeoutError::Disconnected) => {
                *down = Some(Down::Reset);
                Err(LinkError::Reset)
            }
        }
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;

    #[test]
    fn inbox_delivers_then_stays_down() {
        let inbox = Inbox::new();
        let tx = inbox.sender();
        assert!(tx.chunk(vec![1]));
        assert_eq!(inbox.read(Some(Duration::ZERO)).unwrap(), Some(vec![1]));
        assert_eq!(inbox.read(Some(Duration::from_millis(5))).unwrap(), None);
        tx.down(Down::Reset);
        tx.chunk(vec![2]);
        assert!(matches!(inbox.read(None), Err(LinkError::Reset)));
        assert!(matches!(inbox.read(None), Err(LinkError::Reset)));
        let inbox = Inbox::new();
        inbox.down(Down::Closed);
        assert!(matches!(inbox.read(None), Err(LinkError::Closed)));
    }

    #[test]
    fn an_unread_inbox_holds_at_most_its_limit() {
        let inbox = Inbox::new();
        let tx = inbox.sender();
        let fits = MAX_QUEUED_BYTES / (1 + VALUE_OVERHEAD);
        for i in 0..3 * fits {
            assert!(tx.chunk(vec![(i % 251) as u8]));
        }
        let mut read = 0;
        while let Some(c) = inbox.read(Some(Duration::ZERO)).unwrap() {
            assert_eq!(c, vec![(read % 251) as u8], "the first ones, in order");
            read += 1;
        }
        assert_eq!(read, fits);
        // Read, there is room again; `down` is never dropped.
        assert!(tx.chunk(vec![7]));
        tx.down(Down::Reset);
        assert_eq!(inbox.read(None).unwrap(), Some(vec![7]));
        assert!(matches!(inbox.read(None), Err(LinkError::Reset)));
    }

    /// Large values are bounded by their bytes: before, 1024 values of 512 bytes (an MTU
    /// of 517) waited per central, half a megabyte.
    #[test]
    fn large_values_are_bounded_by_their_bytes() {
        let inbox = Inbox::new();
        let tx = inbox.sender();
        for _ in 0..1024 {
            assert!(tx.chunk(vec![7; 512]));
        }
        let mut bytes = 0;
        while let Some(c) = inbox.read(Some(Duration::ZERO)).unwrap() {
            bytes += c.len();
        }
        assert!(bytes <= MAX_QUEUED_BYTES, "{bytes} bytes waited");
        assert!(
            bytes >= MAX_QUEUED_BYTES / 2,
            "{bytes}: room for a few frames"
        );
    }
}
