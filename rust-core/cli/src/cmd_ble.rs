//! `banco host --ble` and `banco join --ble [NAME]`: the same match as over the LAN
//! (pairing code, board, `result … fen …` last line), carried over Bluetooth LE by
//! banco-net's `ble` feature — the host a bluer GATT peripheral (Linux), the guest a btleplug
//! central. A `banco` built without the feature says how to get one. After a cut the guest
//! finds the host again by its key fingerprint (a rescan), not by its address: a phone's
//! (or a privacy-enabled BlueZ's) address rotates (`ble::redial`).
//!
//! ```text
//! cargo build --release -p banco-cli --features ble
//! banco host --ble --name Alice          # machine A
//! banco join --ble Alice                 # machine B (or `banco join --ble` for any host)
//! ```

use crate::CliError;
use banco_app::network::{HostOptions, NetMatch, NetObserver, Trust};
use std::sync::Arc;
use std::time::Duration;

/// What `listening on …` shows for a Bluetooth host.
#[cfg(feature = "ble")]
const ADDRESS: &str = "Bluetooth LE";

/// Hosts over Bluetooth: registers the Banco GATT service and advertises it.
#[cfg(all(feature = "ble", target_os = "linux"))]
pub(crate) fn host(
    options: HostOptions,
    observer: Arc<dyn NetObserver>,
) -> Result<NetMatch, CliError> {
    use banco_net::ble::peripheral::BlePeripheral;
    NetMatch::host_with(
        options,
        ADDRESS,
        |ad| {
            let peripheral = BlePeripheral::start(ad).map_err(|e| e.to_string())?;
            Ok(Arc::new(peripheral).acceptor())
        },
        observer,
    )
    .map_err(|e| CliError::Failure(format!("cannot host over Bluetooth: {e}")))
}

/// Hosting needs a GATT server: BlueZ's, on Linux only.
#[cfg(all(feature = "ble", not(target_os = "linux")))]
pub(crate) fn host(
    _options: HostOptions,
    _observer: Arc<dyn NetObserver>,
) -> Result<NetMatch, CliError> {
    Err(CliError::input(
        "hosting over Bluetooth needs Linux (BlueZ); join with --ble from here",
    ))
}

/// Finds a host over Bluetooth (by display name, or the first one), shows its info, joins;
/// reconnects by the host's key fingerprint.
#[cfg(feature = "ble")]
pub(crate) fn join(
    name: &str,
    target: Option<&str>,
    browse: Duration,
    trust: Option<Trust>,
    observer: Arc<dyn NetObserver>,
) -> Result<NetMatch, CliError> {
    use crate::cmd_net::shown;
    use banco_net::ble::central::BleCentral;
    outln!(
        "looking for {} over Bluetooth…",
        target.unwrap_or("a Banco host")
    );
    let central = Arc::new(
        BleCentral::new().map_err(|e| CliError::Failure(format!("cannot use Bluetooth: {e}")))?,
    );
    let host = central.find(target, browse).map_err(|e| {
        CliError::Failure(format!(
            "cannot find {} over Bluetooth: {e}",
            target.unwrap_or("a host")
        ))
    })?;
    let games: Vec<&str> = host.info.games.iter().map(|g| g.name()).collect();
    outln!(
        "found {} over Bluetooth ({}): offers {}, protocol {}, key {}",
        shown(&host.info.name),
        host.id,
        games.join(", "),
        host.info.protocol_version,
        host.info.fingerprint
    );
    let listed = host.info.fingerprint.clone();
    NetMatch::join_with(
        name,
        central.dialer(host),
        Some(&listed),
        &[],
        trust,
        observer,
    )
    .map_err(|e| CliError::Failure(format!("cannot join over Bluetooth: {e}")))
}

#[cfg(not(feature = "ble"))]
fn unsupported() -> CliError {
    CliError::input(
        "this banco was built without Bluetooth: rebuild it with \
         `cargo build -p banco-cli --features ble` (Linux needs libdbus-1-dev and pkg-config)",
    )
}

/// Without the `ble` feature: says how to get it.
#[cfg(not(feature = "ble"))]
pub(crate) fn host(
    _options: HostOptions,
    _observer: Arc<dyn NetObserver>,
) -> Result<NetMatch, CliError> {
    Err(unsupported())
}

/// Without the `ble` feature: says how to get it.
#[cfg(not(feature = "ble"))]
pub(crate) fn join(
    _name: &str,
    _target: Option<&str>,
    _browse: Duration,
    _trust: Option<Trust>,
    _observer: Arc<dyn NetObserver>,
) -> Result<NetMatch, CliError> {
    Err(unsupported())
}
