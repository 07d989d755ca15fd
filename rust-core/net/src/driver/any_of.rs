//! [`AnyOf`]: one connector over several of the same role (documented on the type).

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use super::connector::{Connector, Interrupt, Role};
use crate::error::LinkError;
use crate::link::BoxLink;

/// How long one part is waited on before the next one's turn.
const SLICE: Duration = Duration::from_millis(50);

/// One connector over several of the same role — a host that takes its guest
/// over the LAN or over Bluetooth LE, whichever way it comes (and, after a cut, whichever
/// way it comes back: a match begun on Wi-Fi resumes over Bluetooth).
///
/// Accepting ([`Role::Responder`]), each `connect` waits on the parts in turn, a short
/// slice each, until one gives a link or the time is up; a part that fails (Bluetooth
/// switched off) is skipped while the others still wait, and the error is returned only
/// when every part failed in the same round.
///
/// Dialling ([`Role::Initiator`]: a guest that can reach its host over the LAN or over
/// Bluetooth LE), the parts are routes in order of preference: each `connect` dials one
/// route with the whole time given, the one that gave the last link (the first at the
/// start); when it fails, the next `connect` dials the next route. A route whose link
/// reached a device other than the host listed is dropped for good
/// ([`Connector::drop_last_route`]): an impostor that copied the host's fingerprint into
/// a LAN record does not keep the guest from the real host over Bluetooth.
///
/// ```
/// use banco_net::driver::{AnyOf, Connector, Role, from_fn};
/// use banco_net::memory::{FaultPlan, MemoryLink};
/// use banco_net::{BoxLink, LinkError};
/// use std::time::Duration;
///
/// let nobody = from_fn(Role::Responder, |_| Err::<BoxLink, _>(LinkError::Timeout));
/// let guest = from_fn(Role::Responder, |_| Ok(Box::new(MemoryLink::pair(FaultPlan::none(), 1).0) as BoxLink));
/// let mut any = AnyOf::new(vec![Box::new(nobody), Box::new(guest)])?;
/// assert_eq!(any.role(), Role::Responder);
/// assert!(any.connect(Duration::from_secs(1)).is_ok());
/// # Ok::<(), LinkError>(())
/// ```
pub struct AnyOf {
    parts: Vec<Box<dyn Connector>>,
    role: Role,
    /// The part whose turn is next (rotates, so no part waits behind another for good).
    next: usize,
    /// The part that gave the last link.
    last: Option<usize>,
    stopped: Arc<AtomicBool>,
}

impl std::fmt::Debug for AnyOf {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("AnyOf")
            .field("parts", &self.parts.len())
            .field("role", &self.role)
            .finish_non_exhaustive()
    }
}

impl AnyOf {
    /// One connector over `parts`, which must all have the same role (and be at least one).
    pub fn new(parts: Vec<Box<dyn Connector>>) -> Result<AnyOf, LinkError> {
        let Some(role) = parts.first().map(|p| p.role()) else {
            return Err(LinkError::Io(std::io::Error::other(
                "no connector to take links from",
            )));
        };
        if parts.iter().any(|p| p.role() != role) {
            return Err(LinkError::Io(std::io::Error::other(
                "a connector cannot both dial and accept",
            )));
        }
        Ok(AnyOf {
            parts,
            role,
            next: 0,
            last: None,
            stopped: Arc::new(AtomicBool::new(false)),
        })
    }
}

impl AnyOf {
    /// A dialler's attempt: the route whose turn it is, with the whole time; a failure
    /// passes the turn to the next route.
    fn dial(&mut self, timeout: Duration) -> Result<BoxLink, LinkError> {
        if self.stopped.load(Ordering::Acquire) {
            return Err(LinkError::Closed);
        }
        let i = self.next % self.parts.len().max(1);
        let Some(part) = self.parts.get_mut(i) else {
            return Err(LinkError::Closed);
        };
        match part.connect(timeout) {
            Ok(link) => {
                self.last = Some(i);
                Ok(link)
            }
            Err(e) => {
                self.next = (i + 1) % self.parts.len();
                Err(e)
            }
        }
    }
}

impl Connector for AnyOf {
    fn role(&self) -> Role {
        self.role
    }

    fn connect(&mut self, timeout: Duration) -> Result<BoxLink, LinkError> {
        if self.role == Role::Initiator {
            return self.dial(timeout);
        }
        let deadline = crate::deadline_after(timeout);
        let n = self.parts.len();
        // Failures in a row: when every part failed in turn, the last error is the answer.
        let mut failed = 0;
        loop {
            if self.stopped.load(Ordering::Acquire) {
                return Err(LinkError::Closed);
            }
            let left = deadline.saturating_duration_since(Instant::now());
            if left.is_zero() {
                return Err(LinkError::Timeout);
            }
            let i = self.next % n;
            self.next = (i + 1) % n;
            let Some(part) = self.parts.get_mut(i) else {
                return Err(LinkError::Closed);
            };
            match part.connect(left.min(SLICE)) {
                Ok(link) => {
                    self.last = Some(i);
                    return Ok(link);
                }
                Err(LinkError::Timeout) => failed = 0,
                Err(e) => {
                    failed += 1;
                    if failed >= n {
                        return Err(e);
                    }
                }
            }
        }
    }

    fn drop_last_route(&mut self) -> bool {
        let Some(i) = self.last.take() else {
            return false;
        };
        if self.parts.len() < 2 || i >= self.parts.len() {
            return false;
        }
        self.parts.remove(i);
        self.next = i % self.parts.len();
        true
    }

    fn interrupter(&self) -> Option<Interrupt> {
        let stopped = Arc::clone(&self.stopped);
        let parts: Vec<Interrupt> = self.parts.iter().filter_map(|p| p.interrupter()).collect();
        Some(Interrupt::new(move || {
            stopped.store(true, Ordering::Release);
            for p in &parts {
                p.interrupt();
            }
        }))
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]
    use super::*;
    use crate::driver::from_fn;
    use crate::link::Link;
    use crate::memory::{FaultPlan, MemoryLink};
    use std::sync::Mutex;

    /// A responder that records each wait and answers from `script` (then times out).
    fn scripted(
        name: &'static str,
        log: &Arc<Mutex<Vec<String>>>,
        script: Vec<Result<(), LinkError>>,
    ) -> Box<dyn Connector> {
        scripted_as(Role::Responder, name, log, script)
    }

    /// A connector of `role` that records each wait and answers from `script` (then
    /// times out).
    fn scripted_as(
        role: Role,
        name: &'static str,
        log: &Arc<Mutex<Vec<String>>>,
        mut script: Vec<Result<(), LinkError>>,
    ) -> Box<dyn Connector> {
        let log = Arc::clone(log);
        script.reverse();
        Box::new(from_fn(role, move |t: Duration| {
            log.lock()
                .unwrap()
                .push(format!("{name} {}", t.as_millis()));
            match script.pop() {
                Some(Ok(())) => {
                    let (a, _b) = MemoryLink::pair(FaultPlan::none(), 1);
                    Ok(Box::new(a) as BoxLink)
                }
                Some(Err(e)) => Err(e),
                None => Err(LinkError::Timeout),
            }
        }))
    }

    #[test]
    fn takes_turns_in_slices_until_a_part_gives_a_link() {
        let log = Arc::new(Mutex::new(Vec::new()));
        let lan = scripted("lan", &log, vec![Err(LinkError::Timeout), Ok(())]);
        let ble = scripted("ble", &log, vec![Err(LinkError::Timeout), Ok(())]);
        let mut any = AnyOf::new(vec![lan, ble]).unwrap();
        let link = any.connect(Duration::from_secs(5)).unwrap();
        assert!(link.peer().contains("memory"), "{}", link.peer());
        assert_eq!(*log.lock().unwrap(), ["lan 50", "ble 50", "lan 50"]);
        // The next call starts with the part after the one that answered.
        any.connect(Duration::from_secs(5)).unwrap();
        assert_eq!(log.lock().unwrap().last().unwrap(), "ble 50");
    }

    #[test]
    fn a_failing_part_is_skipped_while_another_waits() {
        let log = Arc::new(Mutex::new(Vec::new()));
        let off = LinkError::Io(std::io::Error::other("Bluetooth is off"));
        let ble = scripted("ble", &log, vec![Err(off), Err(LinkError::Reset), Ok(())]);
        let lan = scripted("lan", &log, vec![]);
        let mut any = AnyOf::new(vec![ble, lan]).unwrap();
        assert!(any.connect(Duration::from_secs(5)).is_ok());
        assert_eq!(
            *log.lock().unwrap(),
            ["ble 50", "lan 50", "ble 50", "lan 50", "ble 50"]
        );
    }

    #[test]
    fn every_part_failing_is_an_error_and_time_running_out_a_timeout() {
        let log = Arc::new(Mutex::new(Vec::new()));
        let a = scripted("a", &log, vec![Err(LinkError::Reset)]);
        let b = scripted("b", &log, vec![Err(LinkError::Closed)]);
        let mut any = AnyOf::new(vec![a, b]).unwrap();
        assert!(matches!(
            any.connect(Duration::from_secs(5)),
            Err(LinkError::Closed)
        ));
        let mut idle = AnyOf::new(vec![scripted("c", &log, vec![])]).unwrap();
        assert!(matches!(
            idle.connect(Duration::from_millis(120)),
            Err(LinkError::Timeout)
        ));
        let waits: Vec<_> = log
            .lock()
            .unwrap()
            .iter()
            .filter(|l| l.starts_with('c'))
            .cloned()
            .collect();
        assert!(waits.len() >= 3 && waits[0] == "c 50", "{waits:?}");
    }

    /// A dialler that records each attempt and answers from `script` (then times out).
    fn dialling(
        name: &'static str,
        log: &Arc<Mutex<Vec<String>>>,
        script: Vec<Result<(), LinkError>>,
    ) -> Box<dyn Connector> {
        scripted_as(Role::Initiator, name, log, script)
    }

    #[test]
    fn a_dialler_keeps_to_the_route_that_works_and_passes_on_failure() {
        let log = Arc::new(Mutex::new(Vec::new()));
        let refused = || LinkError::Io(std::io::Error::other("connection refused"));
        let lan = dialling("lan", &log, vec![Err(refused()), Ok(()), Ok(())]);
        let ble = dialling("ble", &log, vec![Ok(()), Err(LinkError::Reset)]);
        let mut any = AnyOf::new(vec![lan, ble]).unwrap();
        let t = Duration::from_secs(5);
        // Each attempt is one route with the whole time; a failure passes the turn.
        assert!(any.connect(t).is_err());
        assert!(any.connect(t).is_ok());
        // After a cut the route that worked is dialled first.
        assert!(any.connect(t).is_err());
        assert!(any.connect(t).is_ok());
        assert!(any.connect(t).is_ok());
        assert_eq!(
            *log.lock().unwrap(),
            ["lan 5000", "ble 5000", "ble 5000", "lan 5000", "lan 5000"]
        );
    }

    #[test]
    fn a_route_that_reached_another_device_is_dropped_while_another_is_left() {
        let log = Arc::new(Mutex::new(Vec::new()));
        let lan = dialling("lan", &log, vec![Ok(()), Ok(())]);
        let ble = dialling("ble", &log, vec![Ok(()), Ok(())]);
        let mut any = AnyOf::new(vec![lan, ble]).unwrap();
        let t = Duration::from_secs(1);
        assert!(!any.drop_last_route(), "no link yet: nothing to drop");
        assert!(any.connect(t).is_ok());
        assert!(
            any.drop_last_route(),
            "the LAN route goes, Bluetooth is left"
        );
        assert!(any.connect(t).is_ok());
        assert!(any.connect(t).is_ok());
        assert!(!any.drop_last_route(), "the last route is never dropped");
        assert_eq!(*log.lock().unwrap(), ["lan 1000", "ble 1000", "ble 1000"]);
        // One route alone, as any single connector: nothing else to try.
        let mut one = from_fn(Role::Initiator, |_| Err::<BoxLink, _>(LinkError::Timeout));
        assert!(!one.drop_last_route());
    }

    #[test]
    fn parts_must_share_a_role_and_an_interrupt_ends_the_wait() {
        let dial = from_fn(Role::Initiator, |_| Err::<BoxLink, _>(LinkError::Timeout));
        let accept = from_fn(Role::Responder, |_| Err::<BoxLink, _>(LinkError::Timeout));
        let e = AnyOf::new(vec![Box::new(dial), Box::new(accept)]).unwrap_err();
        assert!(e.to_string().contains("both dial and accept"), "{e}");
        assert!(AnyOf::new(vec![]).is_err());

        let log = Arc::new(Mutex::new(Vec::new()));
        let mut any = AnyOf::new(vec![scripted("x", &log, vec![])]).unwrap();
        let stop = any.interrupter().unwrap();
        stop.interrupt();
        assert!(matches!(
            any.connect(Duration::from_secs(60)),
            Err(LinkError::Closed)
        ));
    }
}
