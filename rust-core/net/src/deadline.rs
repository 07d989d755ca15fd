//! [`deadline_after`]: the instant a wait of a caller's length ends, for any length.
//!
//! `Instant::now() + timeout` panics when the sum does not fit an [`Instant`], which a
//! caller's "wait forever" (`Duration::MAX`) or a command line's huge `--browse-secs` does.
//! Every wait of this crate whose length comes from outside takes its deadline here.
//!
//! ```
//! use banco_net::deadline_after;
//! use std::time::{Duration, Instant};
//!
//! let soon = deadline_after(Duration::from_millis(5));
//! assert!(soon > Instant::now() - Duration::from_secs(1));
//! // A wait too long to count is a century: no panic.
//! let never = deadline_after(Duration::MAX);
//! assert!(never > Instant::now() + Duration::from_secs(50 * 365 * 24 * 3600));
//! ```

use std::time::{Duration, Instant};

/// The longest wait counted: about a century. Longer waits end then.
pub const LONGEST_WAIT: Duration = Duration::from_secs(100 * 365 * 24 * 3600);

/// The instant `timeout` from now; a `timeout` beyond [`LONGEST_WAIT`] (or one the
/// platform's clock cannot count) is that century, or as far as the clock counts.
pub fn deadline_after(timeout: Duration) -> Instant {
    let now = Instant::now();
    let mut wait = timeout.min(LONGEST_WAIT);
    loop {
        if let Some(t) = now.checked_add(wait) {
            return t;
        }
        if wait.is_zero() {
            return now;
        }
        wait /= 2;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn any_length_gives_an_instant_in_order() {
        let now = Instant::now();
        let mut last = now;
        for secs in [0, 1, 60, 86_400, u64::from(u32::MAX), u64::MAX] {
            let t = deadline_after(Duration::from_secs(secs));
            assert!(t >= last, "{secs}");
            last = t;
        }
        assert!(deadline_after(Duration::MAX) >= last);
    }
}
