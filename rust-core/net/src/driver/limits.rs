//! [`AddressLimiter`]: connection attempts a host takes from one address (documented on the type).

use std::collections::HashMap;
use std::net::IpAddr;

/// Addresses remembered at most; the one that waited longest is forgotten first.
const ADDRESSES_MAX: usize = 256;

/// How many connection attempts a host takes from one address: a token bucket per IP
/// address (time passed in, so it is tested without sleeping).
///
/// ```
/// use banco_net::driver::AddressLimiter;
/// use std::net::IpAddr;
///
/// let ip: IpAddr = "192.0.2.7".parse().unwrap();
/// let mut limits = AddressLimiter::new(3, 1_000);
/// assert!((0..3).all(|_| limits.allow(Some(ip), 0)));
/// assert!(!limits.allow(Some(ip), 10)); // a fourth attempt at once is refused
/// assert!(limits.allow(Some("192.0.2.8".parse().unwrap()), 10)); // others are not
/// assert!(limits.allow(Some(ip), 1_010)); // one more a second later
/// assert!(limits.allow(None, 0)); // links without an address (memory, BLE) are not limited
/// ```
#[derive(Clone, Debug)]
pub struct AddressLimiter {
    burst: u32,
    refill_ms: u64,
    /// Address → (tokens, time of the last refill).
    buckets: HashMap<IpAddr, (u32, u64)>,
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

    /// Takes a token for an attempt from `ip` at `now` (ms); false when it must be refused.
    pub fn allow(&mut self, ip: Option<IpAddr>, now: u64) -> bool {
        let Some(ip) = ip else { return true };
        if !self.buckets.contains_key(&ip) && self.buckets.len() >= ADDRESSES_MAX {
            self.forget_oldest();
        }
        let (burst, refill) = (self.burst, self.refill_ms);
        let (tokens, last) = self.buckets.entry(ip).or_insert((burst, now));
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

    fn forget_oldest(&mut self) {
        if let Some(ip) = self
            .buckets
            .iter()
            .min_by_key(|(_, (_, last))| *last)
            .map(|(ip, _)| *ip)
        {
            self.buckets.remove(&ip);
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
            let ip = IpAddr::from(i.to_be_bytes());
            assert!(l.allow(Some(ip), u64::from(i)));
        }
        assert!(l.buckets.len() <= ADDRESSES_MAX);
    }

    #[test]
    fn tokens_come_back_with_time_but_not_above_the_burst() {
        let ip = Some(IpAddr::from([10, 0, 0, 1]));
        let mut l = AddressLimiter::new(2, 100);
        assert!(l.allow(ip, 0) && l.allow(ip, 0) && !l.allow(ip, 0));
        assert!(!l.allow(ip, 99));
        assert!(l.allow(ip, 100));
        // A long pause refills the burst only.
        assert!(l.allow(ip, 10_000) && l.allow(ip, 10_000) && !l.allow(ip, 10_000));
    }
}
