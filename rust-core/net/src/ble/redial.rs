//! Where a reconnecting Bluetooth guest dials: [`Redial`] keeps the host's last known
//! device and, from the second attempt on, looks for the host again by its key fingerprint
//! first — phones (and BlueZ with privacy on) rotate their Bluetooth addresses, so the id a
//! host had may be gone after a cut. The same rule serves the shells' central
//! ([`HubDialer`](super::hub::HubDialer)) and btleplug's (`central::BleDialer`, `banco join
//! --ble`).
//!
//! ```
//! use banco_net::ble::redial::Redial;
//! use std::time::Duration;
//!
//! let mut r = Redial::new("AA:01".to_string(), "a1b2c3");
//! let t = Duration::from_secs(10);
//! // The first attempt dials the id just scanned, without looking.
//! assert_eq!(r.attempt(t, true, |_, _| panic!("no scan")), "AA:01");
//! // Later ones scan for the fingerprint with half the time, and go where it is now.
//! assert_eq!(r.attempt(t, true, |fp, budget| {
//!     assert_eq!((fp, budget), ("a1b2c3", Duration::from_secs(5)));
//!     Some("AA:77".to_string())
//! }), "AA:77");
//! ```

use std::time::Duration;

/// The reconnection rule of a Bluetooth guest: see the [module docs](self).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Redial<D> {
    device: D,
    fingerprint: Option<String>,
    attempts: u64,
}

impl<D> Redial<D> {
    /// Starts from `device` (where the host was just found); an empty `fingerprint` (a
    /// host whose key is not known) always dials `device` again.
    pub fn new(device: D, fingerprint: &str) -> Redial<D> {
        Redial {
            device,
            fingerprint: (!fingerprint.is_empty()).then(|| fingerprint.to_owned()),
            attempts: 0,
        }
    }

    /// Counts one attempt with `timeout` and returns the device to dial. From the second
    /// attempt on, while the radio is on (`radio_on`) and the host's fingerprint is known,
    /// `find(fingerprint, timeout / 2)` looks for it first (the connection keeps the other
    /// half); where it finds nothing, the last device is dialled again.
    pub fn attempt(
        &mut self,
        timeout: Duration,
        radio_on: bool,
        find: impl FnOnce(&str, Duration) -> Option<D>,
    ) -> &D {
        self.attempts += 1;
        if self.attempts > 1
            && radio_on
            && let Some(fp) = &self.fingerprint
            && let Some(found) = find(fp, timeout / 2)
        {
            self.device = found;
        }
        &self.device
    }

    /// The device the next attempt starts from (the last one the host was found at).
    pub fn device(&self) -> &D {
        &self.device
    }

    /// The host's key fingerprint, when known.
    pub fn fingerprint(&self) -> Option<&str> {
        self.fingerprint.as_deref()
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::panic)]
    use super::*;

    use std::cell::RefCell;

    const T: Duration = Duration::from_secs(8);

    type Scans = RefCell<Vec<(String, Duration)>>;

    /// A finder that records each scan and answers `out`.
    fn find(scans: &Scans, out: Option<u32>) -> impl FnOnce(&str, Duration) -> Option<u32> + '_ {
        move |fp, budget| {
            scans.borrow_mut().push((fp.to_owned(), budget));
            out
        }
    }

    #[test]
    fn looks_again_from_the_second_attempt_only_while_the_radio_is_on() {
        let mut r = Redial::new(1u32, "fp");
        let scans = Scans::default();
        assert_eq!(
            *r.attempt(T, true, find(&scans, Some(9))),
            1,
            "first: no scan"
        );
        assert_eq!(
            *r.attempt(T, false, find(&scans, Some(9))),
            1,
            "radio off: no scan"
        );
        assert_eq!(
            *r.attempt(T, true, find(&scans, None)),
            1,
            "not found: the last id"
        );
        assert_eq!(
            *r.attempt(T, true, find(&scans, Some(2))),
            2,
            "found elsewhere"
        );
        assert_eq!(
            *r.attempt(T, true, find(&scans, None)),
            2,
            "the newest id is kept"
        );
        assert_eq!(*r.device(), 2);
        assert_eq!(
            scans.into_inner(),
            vec![("fp".to_owned(), T / 2); 3],
            "one scan per later attempt with the radio on, half the time each"
        );
    }

    #[test]
    fn without_a_fingerprint_the_same_device_is_dialled() {
        let mut r = Redial::new("dev", "");
        assert_eq!(r.fingerprint(), None);
        for _ in 0..3 {
            assert_eq!(
                *r.attempt(T, true, |_, _| panic!("no key to look for")),
                "dev"
            );
        }
    }
}
