//! [`ble_readiness`]: can this phone play over Bluetooth now, and what should the player do
//! (ask for permissions, open the settings, turn Bluetooth on, wait)? banco-app's
//! `network::ble_status`, so both shells ask for the same permissions and say the same words.
//!
//! ```
//! use banco_ffi::{BleAdapterState, BlePermission, BlePlatform, BleRole, BleStep, ble_readiness};
//! let r = ble_readiness(BleRole::Host, BlePlatform::Android { api_level: 34 }, vec![], false,
//!                       BleAdapterState::On);
//! assert_eq!(r.step, BleStep::AskPermissions);
//! assert_eq!(r.missing, vec![BlePermission::Advertise, BlePermission::Connect]);
//! ```

use crate::ble::BleAdapterState;
use banco_app::network::ble_status as bs;

/// Which side of a Bluetooth match.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, uniffi::Enum)]
pub enum BleRole {
    /// Hosting (advertising).
    Host,
    /// Joining (scanning).
    Guest,
}

/// The platform.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, uniffi::Enum)]
pub enum BlePlatform {
    /// Android at an API level (`Build.VERSION.SDK_INT`).
    Android {
        /// The API level.
        api_level: u32,
    },
    /// iOS.
    Ios,
}

/// A run-time permission.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, uniffi::Enum)]
pub enum BlePermission {
    /// Android 12+ `BLUETOOTH_SCAN`.
    Scan,
    /// Android 12+ `BLUETOOTH_CONNECT`.
    Connect,
    /// Android 12+ `BLUETOOTH_ADVERTISE`.
    Advertise,
    /// Android 6–11 `ACCESS_FINE_LOCATION`.
    FineLocation,
    /// iOS Bluetooth authorization.
    Bluetooth,
}

/// What the player should do next.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, uniffi::Enum)]
pub enum BleStep {
    /// Bluetooth can be used.
    Ready,
    /// Show the system prompt for the missing permissions.
    AskPermissions,
    /// Refused for good: open the app's settings.
    OpenSettings,
    /// Ask to turn Bluetooth on.
    TurnOnBluetooth,
    /// Bluetooth is restarting: wait.
    Wait,
    /// Not possible on this device: offer the LAN.
    Unsupported,
}

/// The answer of [`ble_readiness`].
#[derive(Clone, Debug, PartialEq, Eq, Hash, uniffi::Record)]
pub struct BleReadiness {
    /// What to do next.
    pub step: BleStep,
    /// Permissions still missing, in order.
    pub missing: Vec<BlePermission>,
    /// The platform names of `missing` (`android.permission.BLUETOOTH_SCAN`…), to request.
    pub missing_names: Vec<String>,
    /// What to tell the player; `null`/`nil` when ready.
    pub message: Option<String>,
}

impl From<BleRole> for bs::BleRole {
    fn from(r: BleRole) -> Self {
        match r {
            BleRole::Host => bs::BleRole::Host,
            BleRole::Guest => bs::BleRole::Guest,
        }
    }
}

impl From<BlePlatform> for bs::BlePlatform {
    fn from(p: BlePlatform) -> Self {
        match p {
            BlePlatform::Android { api_level } => bs::BlePlatform::Android { api_level },
            BlePlatform::Ios => bs::BlePlatform::Ios,
        }
    }
}

impl From<BlePermission> for bs::BlePermission {
    fn from(p: BlePermission) -> Self {
        match p {
            BlePermission::Scan => bs::BlePermission::Scan,
            BlePermission::Connect => bs::BlePermission::Connect,
            BlePermission::Advertise => bs::BlePermission::Advertise,
            BlePermission::FineLocation => bs::BlePermission::FineLocation,
            BlePermission::Bluetooth => bs::BlePermission::Bluetooth,
        }
    }
}

impl From<bs::BlePermission> for BlePermission {
    fn from(p: bs::BlePermission) -> Self {
        match p {
            bs::BlePermission::Scan => BlePermission::Scan,
            bs::BlePermission::Connect => BlePermission::Connect,
            bs::BlePermission::Advertise => BlePermission::Advertise,
            bs::BlePermission::FineLocation => BlePermission::FineLocation,
            bs::BlePermission::Bluetooth => BlePermission::Bluetooth,
        }
    }
}

impl From<bs::BleStep> for BleStep {
    fn from(s: bs::BleStep) -> Self {
        match s {
            bs::BleStep::Ready => BleStep::Ready,
            bs::BleStep::AskPermissions => BleStep::AskPermissions,
            bs::BleStep::OpenSettings => BleStep::OpenSettings,
            bs::BleStep::TurnOnBluetooth => BleStep::TurnOnBluetooth,
            bs::BleStep::Wait => BleStep::Wait,
            bs::BleStep::Unsupported => BleStep::Unsupported,
        }
    }
}

/// Where Bluetooth stands for `role` on `platform`, with the permissions `granted`, whether
/// the system refuses to ask again (`denied_for_good`), and the adapter's state.
#[uniffi::export]
pub fn ble_readiness(
    role: BleRole,
    platform: BlePlatform,
    granted: Vec<BlePermission>,
    denied_for_good: bool,
    adapter: BleAdapterState,
) -> BleReadiness {
    let granted: Vec<bs::BlePermission> = granted.into_iter().map(Into::into).collect();
    let r = bs::readiness(
        role.into(),
        platform.into(),
        &granted,
        denied_for_good,
        adapter.into(),
    );
    BleReadiness {
        step: r.step.into(),
        missing_names: r
            .missing
            .iter()
            .map(|p| p.platform_name().to_owned())
            .collect(),
        missing: r.missing.into_iter().map(Into::into).collect(),
        message: r.message,
    }
}
