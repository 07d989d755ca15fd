//! The inbox of one BLE connection: ATT values pushed by the stack's callbacks (a runtime
//! task, or a platform thread through a [`hub`](super::hub)), read by the
//! [`BleLink`](super::BleLink) as the blocking [`AttPipe::read`](super::AttPipe::read) it
//! wants. Once down (closed here, or the connection lost), every read fails the same way.

use std::sync::mpsc::{self, Receiver, RecvTimeoutError, Sender};
use std::sync::{Mutex, MutexGuard, PoisonError};
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

/// Incoming ATT values of one connection, fed by the runtime's tasks, read by the link.
pub(crate) struct Inbox {
    rx: Mutex<(Receiver<Incoming>, Option<Down>)>,
    tx: Sender<Incoming>,
}

/// The feeding end of an [`Inbox`], held by the runtime's tasks.
#[derive(Clone)]
pub(crate) struct InboxTx(Sender<Incoming>);

impl InboxTx {
    /// Delivers one ATT value; false when the inbox is gone.
    pub(crate) fn chunk(&self, value: Vec<u8>) -> bool {
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
        }
    }

    pub(crate) fn sender(&self) -> InboxTx {
        InboxTx(self.tx.clone())
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
            Ok(Incoming::Chunk(c)) => Ok(Some(c)),
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
}
