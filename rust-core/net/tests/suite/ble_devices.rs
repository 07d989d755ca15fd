//! The device test plan of Bluetooth LE: ignored tests run by hand on machines with real
//! adapters (CI has none; `tests/net/ble-mock.sh` runs the same code against a mock BlueZ).
//!
//! ## Two Linux machines (BlueZ 5.56 or later, adapters powered: `bluetoothctl power on`)
//!
//! 1. Echo and figures. Machine A (the host, a GATT peripheral):
//!    ```text
//!    cargo test --release -p banco-net --features ble --test suite -- --ignored --nocapture ble_devices::host_echo
//!    ```
//!    Machine B (the guest, a central), within two minutes:
//!    ```text
//!    cargo test --release -p banco-net --features ble --test suite -- --ignored --nocapture ble_devices::guest_echo
//!    ```
//!    B finds A by name (`banco-device-test`), reads the info characteristic, connects and
//!    sends frames of 0 to 600 bytes, each echoed by A; B checks every echo and prints the
//!    negotiated fragment size and the round-trip times (p50, p90, max) of a 28-byte frame
//!    (the size of an encrypted move).
//! 2. A whole game from the terminal, with the same pairing code on both screens:
//!    ```text
//!    cargo build --release -p banco-cli --features ble
//!    A: target/release/banco host --ble --name Alice
//!    B: target/release/banco join --ble Alice
//!    ```
//!    Unattended: add `--ai 3 --yes` on both; both print the same last line `result … fen …`.
//!    Mid-game, on B: `bluetoothctl disconnect <A's address>` — the banner says the link is
//!    down, the guest reconnects and the game resumes at the same ply. Then
//!    `bluetoothctl power off` on A for 20 s and on again: the match resumes too.
//!
//! 3. A stranger cannot take the guest's link: during the game of step 2, a third device
//!    (Linux: `bluetoothctl` → `menu gatt`, `select-attribute becd2552-…`, `write "0xc0 0x01"`;
//!    or nRF Connect) connects to A, enables notifications on `becd2553-…` and writes to
//!    `becd2552-…`: the game goes on without a "reconnecting" banner on B (the stranger's
//!    writes are dropped: the link belongs to the first device that wrote).
//!
//! ## Android and iOS phones (the shells' `AndroidBle.kt` / `AppleBle.swift`)
//!
//! Build and install the apps as their READMEs say (`android-shell`: `cargo ndk …` into
//! `jniLibs`, then `./gradlew installDebug`; `ios-shell`: the Xcode app target with
//! `NSBluetoothAlwaysUsageDescription`). Then, each a whole game to the result on both
//! screens with the same pairing code:
//! 1. Phone hosts, Linux joins: "Host over Bluetooth" on the phone;
//!    `target/release/banco join --ble NAME` on Linux (built as in step 2 above).
//! 2. Linux hosts, phone joins: `banco host --ble --name Alice`; the phone's nearby list shows
//!    Alice once with a Bluetooth icon (and once with both icons if the Linux host is also
//!    on the same Wi-Fi with `banco host` — matched by key fingerprint, joined over the LAN).
//! 3. Phone to phone, both ways (Android host + iOS guest, iOS host + Android guest).
//! 4. States players hit, on each phone: first launch (the system prompt: Android 12+
//!    "Nearby devices", iOS "Bluetooth"); refuse it for good → the app says to allow it in
//!    the settings; Bluetooth off before hosting → "Bluetooth is off: turn it on…"; mid-game,
//!    turn Bluetooth off on either phone for 20 s → the banner "Bluetooth is off…", then the
//!    match resumes at the same ply when it is back (the host advertises again by itself);
//!    walk out of range and back → "Reconnecting…", then resumed.
//! 5. Android MTU: the host's log (`adb logcat`) shows fragments of 182+ bytes after the
//!    guest's `requestMtu(517)`; iOS negotiates by itself (185 typical).
//!
//! Without the apps, nRF Connect (a central on both platforms) against `banco host --ble
//! --name Alice` on Linux checks the service: "Banco Alice" with service
//! `becd2551-cd92-414a-b34f-80de7c697371`; reading `becd2554-…` gives `\x0aname=Alice`,
//! `games=…`, `v=…`, `fp=…` (length-prefixed strings).

#![cfg(feature = "ble")]
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::time::{Duration, Instant};

use banco_game::GameKind;
use banco_net::Link;
use banco_net::ble::AttPipe;
use banco_net::ble::central::BleCentral;
use banco_net::discovery::Advertisement;

const NAME: &str = "banco-device-test";

#[cfg(target_os = "linux")]
#[test]
#[ignore = "needs a Bluetooth adapter; run by hand, see the module docs"]
fn host_echo() {
    use banco_net::ble::peripheral::BlePeripheral;
    let ad = Advertisement::new(NAME, vec![GameKind::Xiangqi], 1, "0123456789abcdef");
    let host = BlePeripheral::start(&ad).unwrap();
    println!("advertising as {NAME} on {}", host.adapter_name());
    let link = host
        .accept(Some(Duration::from_secs(120)))
        .unwrap()
        .expect("a guest within two minutes");
    println!("guest {} subscribed", link.peer());
    let mut echoed = 0;
    while let Ok(Some(frame)) = link.recv(Some(Duration::from_secs(30))) {
        link.send(&frame).unwrap();
        echoed += 1;
    }
    println!("echoed {echoed} frames; {} lost", link.frames_lost());
    assert!(echoed > 0);
}

#[test]
#[ignore = "needs a Bluetooth adapter and `host_echo` running nearby; see the module docs"]
fn guest_echo() {
    let central = BleCentral::new().unwrap();
    let start = Instant::now();
    let host = central.find(Some(NAME), Duration::from_secs(60)).unwrap();
    println!(
        "found {} ({}) in {:?}: {:?}",
        host.info.name,
        host.id,
        start.elapsed(),
        host.info
    );
    assert_eq!(host.info.fingerprint, "0123456789abcdef");
    let link = central.connect(&host, Duration::from_secs(20)).unwrap();
    println!("fragment size {} bytes", link.pipe().mtu_payload());
    for len in [0usize, 1, 19, 20, 28, 100, 182, 183, 600] {
        let frame: Vec<u8> = (0..len).map(|i| (i * 31 + len) as u8).collect();
        link.send(&frame).unwrap();
        let back = link.recv(Some(Duration::from_secs(5))).unwrap();
        assert_eq!(back.as_deref(), Some(&frame[..]), "echo of {len} bytes");
    }
    let mut rtts = Vec::new();
    for i in 0..200u8 {
        let frame = [i; 28];
        let t = Instant::now();
        link.send(&frame).unwrap();
        // A lost fragment loses the frame: count it and go on.
        if link.recv(Some(Duration::from_secs(2))).unwrap().is_some() {
            rtts.push(t.elapsed());
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    rtts.sort();
    let at = |q: usize| rtts[(rtts.len() - 1) * q / 100];
    println!(
        "28-byte round trips: {} of 200, p50 {:?} p90 {:?} max {:?}; frames lost {}",
        rtts.len(),
        at(50),
        at(90),
        at(100),
        link.frames_lost()
    );
    link.close();
}
