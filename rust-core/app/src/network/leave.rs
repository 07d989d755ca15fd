//! Closing a match that is being left ([`NetMatch::leave`](super::NetMatch::leave)) without
//! making the caller wait: when leaving resigned a game in progress, the driver is kept
//! running on a short-lived thread until the other device acknowledged the resignation (at
//! most [`LEAVE_DELIVERY`]), then closed; otherwise it is closed at once.

use super::lock;
use crate::any::AnyGame;
use banco_net::Host;
use banco_net::driver::Driver;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// How long a match left with a resignation to deliver keeps its driver running, with the
/// link up, for the other device to acknowledge it (and what was queued before it) before
/// saying goodbye. The caller of [`NetMatch::leave`](super::NetMatch::leave) does not wait for it.
pub const LEAVE_DELIVERY: Duration = Duration::from_secs(3);

/// Closes the driver taken out of a match that is being left, and drops its listener: on
/// the caller's thread when nothing is to be delivered, else on a thread of its own that
/// first waits (at most `delivery`, [`LEAVE_DELIVERY`] unless the match set another) for the
/// resignation to be acknowledged.
pub(super) fn finish(
    driver: Option<Driver<AnyGame>>,
    hosting: Option<Host>,
    resigned: bool,
    delivery: Duration,
) {
    let close = move |wait: bool| {
        if let Some(d) = driver {
            if wait {
                wait_delivered(&d, delivery);
            }
            let _ = d.close();
            d.shutdown();
        }
        drop(hosting);
    };
    if !resigned {
        close(false);
        return;
    }
    // The closure moves into the thread; if no thread can be started, it comes back and
    // the caller waits as it used to rather than leaving the resignation undelivered.
    let slot = Arc::new(Mutex::new(Some(close)));
    let theirs = Arc::clone(&slot);
    let spawned = std::thread::Builder::new()
        .name("banco-match-leave".into())
        .spawn(move || {
            if let Some(close) = lock(&theirs).take() {
                close(true);
            }
        });
    if spawned.is_err()
        && let Some(close) = lock(&slot).take()
    {
        close(true);
    }
}

/// Waits, at most `limit`, while the link is up and messages are unacknowledged.
fn wait_delivered(d: &Driver<AnyGame>, limit: Duration) {
    let start = Instant::now();
    while start.elapsed() < limit {
        let pending = d
            .read_session(|s, _| s.is_link_up() && s.unacked() > 0)
            .unwrap_or(false);
        if !pending {
            return;
        }
        std::thread::sleep(Duration::from_millis(10));
    }
}
