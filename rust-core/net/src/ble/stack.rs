//! What the real Bluetooth stacks share (feature `ble`): the errors they report and the
//! private runtime their async APIs run on (the inbox that turns incoming ATT values into
//! blocking reads is [`super::inbox`], shared with the [`super::hub`]s).
//!
//! Nothing async leaves this crate: btleplug and bluer are async (tokio), so every central
//! and peripheral owns a small tokio runtime (one worker thread, named `banco-ble`) and its
//! public methods block on it. They must not be called from inside a tokio runtime.
//!
//! ```
//! use banco_net::ble::stack::BleError;
//!
//! let e = BleError::NoAdapter;
//! assert_eq!(e.to_string(), "no Bluetooth adapter: plug one in or turn Bluetooth on");
//! ```

use std::time::Duration;

use crate::ble::info::InfoError;
use crate::error::LinkError;

pub(crate) use super::inbox::{Down, Inbox, InboxTx};

/// What can go wrong with a real Bluetooth stack.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum BleError {
    /// No adapter (no hardware, or the Bluetooth service is not running).
    #[error("no Bluetooth adapter: plug one in or turn Bluetooth on")]
    NoAdapter,
    /// The adapter is switched off.
    #[error("Bluetooth is off: turn it on and try again")]
    PoweredOff,
    /// The system refused (permissions on Android/iOS/macOS, policy on Linux).
    #[error("Bluetooth permission denied: allow Banco to use Bluetooth in the system settings")]
    PermissionDenied,
    /// No Banco host answered in time.
    #[error("no Banco host found over Bluetooth in time")]
    NotFound,
    /// The peer has the Banco service but not this characteristic: not a Banco host, or an
    /// incompatible version.
    #[error("the Bluetooth peer lacks the Banco {0} characteristic")]
    MissingCharacteristic(&'static str),
    /// The host's info characteristic was refused.
    #[error("the Bluetooth peer's info was refused: {0}")]
    Info(#[from] InfoError),
    /// An operation did not complete in time.
    #[error("Bluetooth operation timed out")]
    Timeout,
    /// The stack reported an error (the message is the stack's).
    #[error("Bluetooth stack: {0}")]
    Stack(String),
    /// The runtime thread could not be started.
    #[error("cannot start the Bluetooth thread: {0}")]
    Runtime(#[from] std::io::Error),
}

impl From<BleError> for LinkError {
    fn from(e: BleError) -> LinkError {
        match e {
            BleError::Timeout | BleError::NotFound => LinkError::Timeout,
            BleError::Runtime(io) => LinkError::Io(io),
            other => LinkError::Io(std::io::Error::other(other.to_string())),
        }
    }
}

/// The runtime of one central or peripheral: a current-thread tokio runtime driven by a
/// thread of its own (`banco-ble`). Current-thread, so tasks run in the order they were
/// spawned: bluer spawns one task per incoming D-Bus call, and ATT writes must reach the
/// link in the order they came (a multi-thread runtime's LIFO slot would swap them).
/// Other threads block on it through [`BleRuntime::handle`].
pub(crate) struct BleRuntime {
    handle: tokio::runtime::Handle,
    stop: Option<tokio::sync::oneshot::Sender<()>>,
    thread: Option<std::thread::JoinHandle<()>>,
}

impl BleRuntime {
    pub(crate) fn new() -> Result<BleRuntime, BleError> {
        let rt = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()?;
        let handle = rt.handle().clone();
        let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
        let thread = std::thread::Builder::new()
            .name(String::from("banco-ble"))
            .spawn(move || {
                let _ = rt.block_on(stopped);
                // Let tasks finishing their work (unregistrations) run a little.
                rt.shutdown_timeout(Duration::from_millis(100));
            })?;
        Ok(BleRuntime {
            handle,
            stop: Some(stop),
            thread: Some(thread),
        })
    }

    pub(crate) fn handle(&self) -> &tokio::runtime::Handle {
        &self.handle
    }
}

impl Drop for BleRuntime {
    fn drop(&mut self) {
        if let Some(stop) = self.stop.take() {
            let _ = stop.send(());
        }
        if let Some(t) = self.thread.take() {
            // Never join from the runtime's own thread (a task dropping the last handle).
            if t.thread().id() != std::thread::current().id() {
                let _ = t.join();
            }
        }
    }
}

/// Runs `fut` on `rt` for at most `timeout`.
pub(crate) fn block_on_timeout<T>(
    rt: &tokio::runtime::Handle,
    timeout: Duration,
    fut: impl std::future::Future<Output = Result<T, BleError>>,
) -> Result<T, BleError> {
    rt.block_on(async {
        tokio::time::timeout(timeout, fut)
            .await
            .unwrap_or(Err(BleError::Timeout))
    })
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;

    #[test]
    fn errors_become_link_errors() {
        assert!(matches!(
            LinkError::from(BleError::Timeout),
            LinkError::Timeout
        ));
        assert!(
            LinkError::from(BleError::PoweredOff)
                .to_string()
                .contains("Bluetooth is off")
        );
    }
}
