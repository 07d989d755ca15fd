//! Connectors that make [`MemoryLink`] pairs on demand, for driver tests with reconnects
//! and no sockets.

use std::sync::mpsc::{self, Receiver, RecvTimeoutError, Sender};
use std::sync::{Arc, Mutex, PoisonError};
use std::time::Duration;

use super::{Cutter, FaultPlan, MemoryLink};
use crate::driver::{Connector, Role};
use crate::error::LinkError;
use crate::link::BoxLink;

/// A pair of [`Connector`]s joined in memory: every dial makes a
/// new [`MemoryLink`] pair (seeded `seed + n` for the `n`-th link) under `plan` and hands one
/// end to the acceptor. For driver tests with reconnects and no sockets.
pub fn connectors(plan: FaultPlan, seed: u64) -> (MemoryDialer, MemoryAcceptor) {
    let (tx, rx) = mpsc::channel();
    let dialer = MemoryDialer {
        plan,
        seed,
        count: 0,
        tx,
        cutters: Arc::default(),
    };
    (dialer, MemoryAcceptor { rx })
}

/// The dialling half of [`connectors`].
#[derive(Debug)]
pub struct MemoryDialer {
    plan: FaultPlan,
    seed: u64,
    count: u64,
    tx: Sender<MemoryLink>,
    cutters: Arc<Mutex<Option<Cutter>>>,
}

impl MemoryDialer {
    /// A handle that cuts whichever link this dialer made last.
    pub fn last_link(&self) -> LastLink {
        LastLink {
            cutter: Arc::clone(&self.cutters),
        }
    }
}

/// Cuts the latest link of a [`MemoryDialer`] (see [`MemoryDialer::last_link`]).
#[derive(Clone, Debug)]
pub struct LastLink {
    cutter: Arc<Mutex<Option<Cutter>>>,
}

impl LastLink {
    /// Cuts the latest link, if there is one; true if there was.
    pub fn cut(&self) -> bool {
        let cutter = self
            .cutter
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .clone();
        cutter.map(|c| c.cut()).is_some()
    }
}

impl Connector for MemoryDialer {
    fn role(&self) -> Role {
        Role::Initiator
    }

    fn connect(&mut self, _timeout: Duration) -> Result<BoxLink, LinkError> {
        let (ours, theirs) = MemoryLink::pair(self.plan, self.seed.wrapping_add(self.count));
        self.count += 1;
        *self.cutters.lock().unwrap_or_else(PoisonError::into_inner) = Some(ours.cutter());
        self.tx.send(theirs).map_err(|_| LinkError::Reset)?;
        Ok(Box::new(ours))
    }
}

/// The accepting half of [`connectors`].
#[derive(Debug)]
pub struct MemoryAcceptor {
    rx: Receiver<MemoryLink>,
}

impl Connector for MemoryAcceptor {
    fn role(&self) -> Role {
        Role::Responder
    }

    fn connect(&mut self, timeout: Duration) -> Result<BoxLink, LinkError> {
        match self.rx.recv_timeout(timeout) {
            Ok(link) => Ok(Box::new(link)),
            Err(RecvTimeoutError::Timeout) => Err(LinkError::Timeout),
            Err(RecvTimeoutError::Disconnected) => Err(LinkError::Closed),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_dial_reaches_the_acceptor_and_can_be_cut() {
        let (mut dialer, mut acceptor) = connectors(FaultPlan::none(), 1);
        let cut = dialer.last_link();
        assert!(!cut.cut());
        assert!(matches!(
            acceptor.connect(Duration::from_millis(1)),
            Err(LinkError::Timeout)
        ));
        for _ in 0..2 {
            let ours = dialer.connect(Duration::from_secs(1)).unwrap();
            let theirs = acceptor.connect(Duration::from_secs(1)).unwrap();
            ours.send(b"hi").unwrap();
            assert_eq!(
                theirs.recv(Some(Duration::from_secs(1))).unwrap(),
                Some(b"hi".to_vec())
            );
            assert!(cut.cut());
            assert!(matches!(theirs.recv(None), Err(LinkError::Reset)));
        }
        assert_eq!(dialer.role(), Role::Initiator);
        assert_eq!(acceptor.role(), Role::Responder);
        drop(acceptor);
        assert!(dialer.connect(Duration::from_secs(1)).is_err());
    }
}
