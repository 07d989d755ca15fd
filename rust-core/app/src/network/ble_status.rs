//! Can this phone play over Bluetooth now, and if not, what should the player do? One answer
//! for both shells, from the permissions granted and the adapter's state, so Android and
//! iOS say the same thing and ask for the same permissions.
//!
//! * **Android 12+** (API 31): a host needs `BLUETOOTH_ADVERTISE` and `BLUETOOTH_CONNECT`,
//!   a guest `BLUETOOTH_SCAN` and `BLUETOOTH_CONNECT` (runtime "Nearby devices"
//!   permissions; the manifest declares them, `BLUETOOTH_SCAN` with
//!   `neverForLocation`). **Android 6–11**: scanning needs `ACCESS_FINE_LOCATION` (API 29+;
//!   coarse before, fine is accepted too); hosting needs nothing at run time.
//! * **iOS**: one Bluetooth authorization for both roles (the Info.plist's
//!   `NSBluetoothAlwaysUsageDescription` is shown in the prompt).
//!
//! ```
//! use banco_app::network::ble_status::{BlePermission, BlePlatform, BleRole, BleStep, readiness};
//! use banco_net::ble::hub::AdapterState;
//!
//! let android = BlePlatform::Android { api_level: 34 };
//! let r = readiness(BleRole::Guest, android, &[], false, AdapterState::On);
//! assert_eq!(r.step, BleStep::AskPermissions);
//! assert_eq!(r.missing, vec![BlePermission::Scan, BlePermission::Connect]);
//! let granted = [BlePermission::Scan, BlePermission::Connect];
//! let r = readiness(BleRole::Guest, android, &granted, false, AdapterState::Off);
//! assert_eq!(r.step, BleStep::TurnOnBluetooth);
//! assert!(readiness(BleRole::Guest, android, &granted, false, AdapterState::On).ready());
//! ```

use banco_net::ble::hub::AdapterState;

/// Which side of a Bluetooth match.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum BleRole {
    /// The host: advertises and serves (GATT peripheral).
    Host,
    /// The guest: scans and connects (GATT central).
    Guest,
}

/// The platform and its version.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum BlePlatform {
    /// Android at this API level (`Build.VERSION.SDK_INT`).
    Android {
        /// The API level.
        api_level: u32,
    },
    /// iOS (13 and later).
    Ios,
}

/// A run-time permission a shell asks for.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum BlePermission {
    /// Android 12+ `BLUETOOTH_SCAN`.
    Scan,
    /// Android 12+ `BLUETOOTH_CONNECT`.
    Connect,
    /// Android 12+ `BLUETOOTH_ADVERTISE`.
    Advertise,
    /// Android 6–11 `ACCESS_FINE_LOCATION` (to scan).
    FineLocation,
    /// iOS Bluetooth authorization.
    Bluetooth,
}

impl BlePermission {
    /// The platform's name of the permission (`android.permission.BLUETOOTH_SCAN`, or
    /// `NSBluetoothAlwaysUsageDescription` for iOS's Info.plist key).
    pub fn platform_name(self) -> &'static str {
        match self {
            BlePermission::Scan => "android.permission.BLUETOOTH_SCAN",
            BlePermission::Connect => "android.permission.BLUETOOTH_CONNECT",
            BlePermission::Advertise => "android.permission.BLUETOOTH_ADVERTISE",
            BlePermission::FineLocation => "android.permission.ACCESS_FINE_LOCATION",
            BlePermission::Bluetooth => "NSBluetoothAlwaysUsageDescription",
        }
    }
}

/// What the player should do next.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum BleStep {
    /// Nothing: Bluetooth can be used.
    Ready,
    /// Ask for the missing permissions (the system prompt).
    AskPermissions,
    /// The permissions were refused for good: send the player to the app's settings.
    OpenSettings,
    /// Ask the player to turn Bluetooth on (Android `ACTION_REQUEST_ENABLE`; iOS: Control
    /// Centre or Settings).
    TurnOnBluetooth,
    /// Bluetooth is restarting: wait.
    Wait,
    /// This device cannot: offer the LAN instead.
    Unsupported,
}

/// The answer of [`readiness`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BleReadiness {
    /// What to do next.
    pub step: BleStep,
    /// Permissions still missing, in the order to ask for them.
    pub missing: Vec<BlePermission>,
    /// What to tell the player (`None` when ready).
    pub message: Option<String>,
}

impl BleReadiness {
    /// True when Bluetooth can be used now.
    pub fn ready(&self) -> bool {
        self.step == BleStep::Ready
    }
}

/// The run-time permissions `role` needs on `platform`.
pub fn needed(role: BleRole, platform: BlePlatform) -> Vec<BlePermission> {
    match (platform, role) {
        (BlePlatform::Ios, _) => vec![BlePermission::Bluetooth],
        (BlePlatform::Android { api_level }, BleRole::Host) if api_level >= 31 => {
            vec![BlePermission::Advertise, BlePermission::Connect]
        }
        (BlePlatform::Android { api_level }, BleRole::Guest) if api_level >= 31 => {
            vec![BlePermission::Scan, BlePermission::Connect]
        }
        (BlePlatform::Android { api_level }, BleRole::Guest) if api_level >= 23 => {
            vec![BlePermission::FineLocation]
        }
        (BlePlatform::Android { .. }, _) => Vec::new(),
    }
}

/// Where Bluetooth stands for `role`: `granted` are the permissions the app holds,
/// `denied_for_good` says the system will not show its prompt again (Android's
/// `shouldShowRequestPermissionRationale` false after a refusal; iOS `denied`), `adapter`
/// the adapter's state. Permissions come first: Android reports the adapter as off (or
/// throws) without them.
pub fn readiness(
    role: BleRole,
    platform: BlePlatform,
    granted: &[BlePermission],
    denied_for_good: bool,
    adapter: AdapterState,
) -> BleReadiness {
    let missing: Vec<BlePermission> = needed(role, platform)
        .into_iter()
        .filter(|p| !granted.contains(p))
        .collect();
    let what = match role {
        BleRole::Host => "host a game",
        BleRole::Guest => "find games",
    };
    let settings = match platform {
        BlePlatform::Android { .. } => "Nearby devices",
        BlePlatform::Ios => "Bluetooth",
    };
    if adapter == AdapterState::Unsupported {
        return BleReadiness {
            step: BleStep::Unsupported,
            missing,
            message: AdapterState::Unsupported.message().map(str::to_owned),
        };
    }
    if !missing.is_empty() || adapter == AdapterState::Unauthorized {
        let (step, message) = if denied_for_good || missing.is_empty() {
            (
                BleStep::OpenSettings,
                format!(
                    "To {what} over Bluetooth, allow {settings} for Banco in the system settings"
                ),
            )
        } else {
            (
                BleStep::AskPermissions,
                format!("To {what} over Bluetooth, Banco needs the {settings} permission"),
            )
        };
        return BleReadiness {
            step,
            missing,
            message: Some(message),
        };
    }
    let step = match adapter {
        AdapterState::On => BleStep::Ready,
        AdapterState::Off => BleStep::TurnOnBluetooth,
        AdapterState::Resetting => BleStep::Wait,
        AdapterState::Unauthorized => BleStep::OpenSettings,
        AdapterState::Unsupported => BleStep::Unsupported,
    };
    BleReadiness {
        step,
        missing,
        message: adapter.message().map(str::to_owned),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use BlePermission::*;

    const A34: BlePlatform = BlePlatform::Android { api_level: 34 };
    const A30: BlePlatform = BlePlatform::Android { api_level: 30 };

    #[test]
    fn permissions_by_role_and_platform() {
        assert_eq!(needed(BleRole::Host, A34), vec![Advertise, Connect]);
        assert_eq!(needed(BleRole::Guest, A34), vec![Scan, Connect]);
        assert_eq!(needed(BleRole::Guest, A30), vec![FineLocation]);
        assert_eq!(needed(BleRole::Host, A30), vec![]);
        assert_eq!(
            needed(BleRole::Guest, BlePlatform::Android { api_level: 21 }),
            vec![]
        );
        assert_eq!(needed(BleRole::Host, BlePlatform::Ios), vec![Bluetooth]);
        assert_eq!(
            Advertise.platform_name(),
            "android.permission.BLUETOOTH_ADVERTISE"
        );
    }

    #[test]
    fn the_steps_users_hit() {
        let host = |granted: &[BlePermission], for_good, adapter| {
            readiness(BleRole::Host, A34, granted, for_good, adapter)
        };
        // Nothing granted yet: ask (even with the adapter off: permissions first).
        let r = host(&[], false, AdapterState::Off);
        assert_eq!(
            (r.step, r.missing.clone()),
            (BleStep::AskPermissions, vec![Advertise, Connect])
        );
        assert!(r.message.unwrap().contains("Nearby devices permission"));
        // One granted, the other refused for good: settings.
        let r = host(&[Connect], true, AdapterState::On);
        assert_eq!(
            (r.step, r.missing),
            (BleStep::OpenSettings, vec![Advertise])
        );
        // Granted, adapter off, restarting, on.
        let all = [Advertise, Connect];
        let r = host(&all, false, AdapterState::Off);
        assert_eq!(r.step, BleStep::TurnOnBluetooth);
        assert!(r.message.unwrap().contains("turn it on"));
        assert_eq!(
            host(&all, false, AdapterState::Resetting).step,
            BleStep::Wait
        );
        let r = host(&all, false, AdapterState::On);
        assert!(r.ready() && r.message.is_none() && r.missing.is_empty());
        // Granted here but the system says unauthorized (revoked in settings): settings.
        assert_eq!(
            host(&all, false, AdapterState::Unauthorized).step,
            BleStep::OpenSettings
        );
        assert_eq!(
            host(&all, false, AdapterState::Unsupported).step,
            BleStep::Unsupported
        );
        // iOS: the one authorization; refused means settings.
        let ios = |granted: &[BlePermission], for_good, adapter| {
            readiness(BleRole::Guest, BlePlatform::Ios, granted, for_good, adapter)
        };
        let r = ios(&[], true, AdapterState::Unauthorized);
        assert_eq!(r.step, BleStep::OpenSettings);
        assert!(r.message.unwrap().contains("allow Bluetooth for Banco"));
        assert!(ios(&[Bluetooth], false, AdapterState::On).ready());
    }
}
