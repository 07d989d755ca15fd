//! A guest that has not reached its host yet (`banco join`, review revA D5): a join that
//! never connected and ends — the input ended, `quit`, or an unattended join (`--ai`)
//! that gave up after `--give-up-secs` — exits non-zero with the reason (`could not reach
//! 127.0.0.1:1: connection refused`), where it used to exit 0, or retry for ever. Once a
//! link came up the match reconnects after cuts for as long as it takes, as before.

use crate::CliError;
use std::time::{Duration, Instant};

/// `--give-up-secs` when not given.
pub(super) const GIVE_UP_SECS: u64 = 30;

/// What a guest dialled and how its attempts went, until a link comes up.
pub(super) struct Unreached {
    /// The host as typed (`HOST:PORT`, a name, or Bluetooth).
    target: String,
    /// Why the last attempt failed.
    last_failure: Option<String>,
    /// When an unattended join stops trying, and after how long.
    give_up: Option<(Instant, Duration)>,
    /// The input ended before any attempt failed: the first failure ends the join.
    pub(super) input_ended: bool,
}

impl Unreached {
    /// A join of `target`; `unattended` (the engine plays it) gives up after `give_up`.
    pub(super) fn new(target: &str, unattended: bool, give_up: Duration) -> Unreached {
        Unreached {
            target: target.to_owned(),
            last_failure: None,
            give_up: unattended.then(|| (Instant::now() + give_up, give_up)),
            input_ended: false,
        }
    }

    /// An attempt failed for `reason` (the system's words, `Connection refused (os error
    /// 111)`).
    pub(super) fn failed(&mut self, reason: &str) {
        self.last_failure = Some(reason.to_owned());
    }

    /// Whether an attempt failed already (its reason is known).
    pub(super) fn has_failed(&self) -> bool {
        self.last_failure.is_some()
    }

    /// How long an unattended join still tries (`None`: for as long as it takes).
    pub(super) fn time_left(&self) -> Option<Duration> {
        self.give_up
            .map(|(at, _)| at.saturating_duration_since(Instant::now()))
    }

    /// The error a join that ends unconnected exits with.
    pub(super) fn error(&self) -> CliError {
        let reason = self
            .last_failure
            .as_deref()
            .map_or_else(|| "no answer".to_owned(), plain_reason);
        let after = match self.give_up {
            Some((at, secs)) if Instant::now() >= at => {
                format!(" (gave up after {} s)", secs.as_secs())
            }
            _ => String::new(),
        };
        CliError::Failure(format!(
            "could not reach {}: {reason}{after}",
            super::shown(&self.target)
        ))
    }
}

/// A failed attempt's reason in the sentence's words: lower case first, without the
/// system's error number nor the error's kind (`i/o error: Connection refused (os error
/// 111)` → `connection refused`).
fn plain_reason(reason: &str) -> String {
    let reason = super::shown(reason);
    let reason = reason.strip_prefix("i/o error: ").unwrap_or(&reason);
    let reason = match reason.rfind(" (os error ") {
        Some(at) if reason.ends_with(')') => reason.get(..at).unwrap_or_default(),
        _ => reason,
    };
    let mut chars = reason.chars();
    chars.next().map_or_else(String::new, |first| {
        first.to_lowercase().chain(chars).collect()
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_reason_reads_as_part_of_the_sentence() {
        assert_eq!(
            plain_reason("i/o error: Connection refused (os error 111)"),
            "connection refused"
        );
        assert_eq!(
            plain_reason("cannot find x.local: gone"),
            "cannot find x.local: gone"
        );
        assert_eq!(plain_reason(""), "");
        let mut u = Unreached::new("127.0.0.1:1", false, Duration::from_secs(30));
        assert_eq!(u.time_left(), None);
        assert!(!u.has_failed());
        u.failed("Connection refused (os error 111)");
        assert!(u.has_failed());
        assert!(matches!(
            u.error(),
            CliError::Failure(m) if m == "could not reach 127.0.0.1:1: connection refused"
        ));
    }
}
