//! [`AddressLimiter`]: connection attempts a host takes from one address (documented on the
//! type), and [`PeerSource`], what "one address" is for each kind of link.

use std::collections::HashMap;
use std::net::IpAddr;

use crate::link::Link;

/// Where a connection comes from, as far as a host can tell: its IP address (TCP), or, for
/// a link without one, the platform's id of the device (a Bluetooth central). The host's
/// per-address limits ([`AddressLimiter`], [`DriverConfig::max_pending_per_address`],
/// unanswered codes) count per source.
///
/// [`DriverConfig::max_pending_per_address`]: super::DriverConfig::max_pending_per_address
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum PeerSource {
    /// An IP address.
    Ip(IpAddr),
    /// A device id (Bluetooth), as [`Link::peer_device`] reports it.
    Device(String),
}

impl PeerSource {
    /// The source of `link`: its IP address, else its device id; `None` for links with
    /// neither (the in-memory test link), which no per-source limit applies to.
    pub fn of(link: &dyn Link) -> Option<PeerSource> {
        link.peer_ip()
            .map(PeerSource::Ip)
            .or_else(|| link.peer_device().map(PeerSource::Device))
    }
}

impl From<IpAddr> for PeerSource {
    fn from(ip: IpAddr) -> Self {
        PeerSource::Ip(ip)
    }
}

/// Addresses remembered at most; the one that waited longest is forgotten first.
const ADDRESSES_MAX: usize = 256;

/// How many connection attempts a host takes from one address: a token bucket per
/// [`PeerSource`] (time passed in, so it is tested without sleeping). The host keeps two:
/// attempts per address, and codes per address that went unanswered.
///
/// ```
/// use banco_net::driver::{AddressLimiter, PeerSource};
/// use std::net::IpAddr;
///
/// let ip = PeerSource::Ip("192.0.2.7".parse().unwrap());
/// let mut limits = AddressLimiter::new(3, 1_000);
/// assert!((0..3).all(|_| limits.allow(Some(&ip), 0)));
/// assert!(!limits.allow(Some(&ip), 10)); // a fourth attempt at once is refused
/// let other = PeerSource::Ip("192.0.2.8".parse().unwrap());
/// assert!(limits.allow(Some(&other), 10)); // others are not
/// assert!(limits.allow(Some(&ip), 1_010)); // one more a second later
/// // A Bluetooth central is limited by its device id.
/// let central = PeerSource::Device("4C:1F:00:00:00:01".into());
/// assert!((0..3).all(|_| limits.allow(Some(&central), 0)));
/// assert!(!limits.has_token(Some(&central), 10)); // looked at without taking a token
/// assert!(limits.allow(None, 0)); // links without a source (memory) are not limited
/// ```
#[derive(Clone, Debug)]
pub struct AddressLimiter {
    burst: u32,
    refill_ms: u64,
    /// Source → (tokens, time of the last refill).
    buckets: HashMap<PeerSource, (u32, u64)>,
}

impl AddressLimiter {
    /// At most `burst` attempts at once from one address, then one more every `refill_ms`.
    pub fn new(burst: u32, refill_ms: u64) -> AddressLimiter {
        AddressLimiter {
            burst: burst.max(1),
            refill_ms: refill_ms.max(1),
            buckets: HashMap::new(),
        }
    }

    /// Takes a token for an attempt from `source` at `now` (ms); false when it must be
    /// refused.
    pub fn allow(&mut self, source: Option<&PeerSource>, now: u64) -> bool {
        let Some(source) = source else { return true };
        if !self.buckets.contains_key(source) && self.buckets.len() >= ADDRESSES_MAX {
            self.forget_oldest();
        }
        let (burst, refill) = (self.burst, self.refill_ms);
        let (tokens, last) = self.buckets.entry(source.clone()).or_insert((burst, now));
        let earned = now.saturating_sub(*last) / refill;
        if earned > 0 {
            *tokens = u32::try_from(u64::from(*tokens).saturating_add(earned))
                .unwrap_or(u32::MAX)
                .min(burst);
            *last = last.saturating_add(earned.saturating_mul(refill));
        }
        if *tokens == 0 {
            return false;
        }
        *tokens -= 1;
        true
    }

    /// Whether `source` has a token left at `now` (without taking it).
    pub fn has_token(&self, source: Option<&PeerSource>, now: u64) -> bool {
        let Some((tokens, last)) = source.and_then(|s| self.buckets.get(s)) else {
            return true;
        };
        *tokens > 0 || now.saturating_sub(*last) >= self.refill_ms
    }

    fn forget_oldest(&mut self) {
        if let Some(source) = self
            .buckets
            .iter()
            .min_by_key(|(_, (_, last))| *last)
            .map(|(source, _)| source.clone())
        {
            self.buckets.remove(&source);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn many_addresses_never_grow_the_table_past_its_cap() {
        let mut l = AddressLimiter::new(2, 100);
        for i in 0..1_000u32 {
            let ip = PeerSource::Ip(IpAddr::from(i.to_be_bytes()));
            assert!(l.allow(Some(&ip), u64::from(i)));
        }
        assert!(l.buckets.len() <= ADDRESSES_MAX);
    }

    #[test]
    fn tokens_come_back_with_time_but_not_above_the_burst() {
        let ip = PeerSource::Ip(IpAddr::from([10, 0, 0, 1]));
        let ip = Some(&ip);
        let mut l = AddressLimiter::new(2, 100);
        assert!(l.allow(ip, 0) && l.allow(ip, 0) && !l.allow(ip, 0));
        assert!(!l.allow(ip, 99));
        assert!(l.allow(ip, 100));
        // A long pause refills the burst only.
        assert!(l.allow(ip, 10_000) && l.allow(ip, 10_000) && !l.allow(ip, 10_000));
    }
}
