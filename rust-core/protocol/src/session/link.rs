//! State of one link (one connection between the two phones): the handshake, the resume
//! exchange, liveness, and the inbound rate limit.

use crate::crypto::{Handshake, PublicKey, Transport};
use crate::message::Hello;
use crate::sas::Sas;

/// Inbound frames allowed in a burst.
const BURST: u64 = 100;
/// Inbound frames allowed per second, sustained.
const PER_SECOND: u64 = 50;

/// A token bucket over inbound frames: a flood of pings (or of anything) is dropped before
/// decryption, so it costs little and cannot grow any queue.
#[derive(Debug)]
pub(crate) struct RateLimiter {
    milli_tokens: u64,
    last: u64,
    /// Whether the current flood was already reported.
    pub(crate) reported: bool,
}

impl RateLimiter {
    pub(crate) fn new() -> Self {
        RateLimiter {
            milli_tokens: BURST * 1000,
            last: 0,
            reported: false,
        }
    }

    /// Takes a token; false when the frame must be dropped.
    pub(crate) fn allow(&mut self, now: u64) -> bool {
        let elapsed = now.saturating_sub(self.last);
        self.last = self.last.max(now);
        self.milli_tokens =
            (self.milli_tokens + elapsed.saturating_mul(PER_SECOND)).min(BURST * 1000);
        if self.milli_tokens >= 1000 {
            self.milli_tokens -= 1000;
            if self.milli_tokens >= BURST * 500 {
                self.reported = false;
            }
            true
        } else {
            false
        }
    }
}

/// The phase of a link.
pub(crate) enum Phase {
    /// Noise messages are being exchanged.
    Handshake(Box<Handshake>),
    /// The transport is set up.
    Open(Box<Open>),
}

/// A link after its handshake.
pub(crate) struct Open {
    pub(crate) transport: Transport,
    pub(crate) handshake_hash: [u8; 32],
    pub(crate) peer_key: PublicKey,
    pub(crate) peer_hello: Hello,
    /// The responder's commitment (when we initiated) or the initiator's nonce (when we
    /// responded), from the peer's `Hello`.
    pub(crate) peer_sas: [u8; 32],
    /// True once the peer's `Resume` arrived: sequenced messages flow.
    pub(crate) up: bool,
    /// When to send our `Resume` again while the peer's is missing.
    pub(crate) resume_due: u64,
    /// The code of this link, once known.
    pub(crate) sas: Option<Sas>,
}

/// One link.
pub(crate) struct Link {
    pub(crate) initiator: bool,
    pub(crate) started: u64,
    pub(crate) last_rx: u64,
    pub(crate) last_tx: u64,
    /// Our SAS nonce on this link.
    pub(crate) my_nonce: [u8; 32],
    pub(crate) phase: Phase,
}

impl Link {
    pub(crate) fn open(&self) -> Option<&Open> {
        match &self.phase {
            Phase::Open(o) => Some(o),
            Phase::Handshake(_) => None,
        }
    }

    pub(crate) fn is_up(&self) -> bool {
        self.open().is_some_and(|o| o.up)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bucket_refills() {
        let mut r = RateLimiter::new();
        let allowed = (0..1000).filter(|_| r.allow(0)).count();
        assert_eq!(allowed as u64, BURST);
        assert!(!r.allow(10));
        assert!(r.allow(20)); // 20 ms * 50/s = 1 token
    }
}
