//! The device test plan of Bluetooth LE: ignored tests run by hand on machines with real
//! adapters (CI has none; `tests/net/ble-mock.sh` runs the same code against a mock BlueZ).
//!
//! ## Two Linux machines (BlueZ 5.56 or later, adapters powered: `bluetoothctl power on`)
//!
//! 1. Echo and figures. Machine A (the host, a GATT peripheral):
//!    ```text
//!    cargo test --release -p banco-net --features ble --test ble_devices -- --ignored --nocapture host_echo
//!    ```
//!    Machine B (the guest, a central), within two minutes:
//!    ```text
//!    cargo test --release -p banco-net --features ble --test ble_devices -- --ignored --nocapture guest_echo
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
//! ## Android and iOS phones (until the shells' `BlePeripheral` lands)
//!
//! With Nordic's nRF Connect (a central on both platforms) against `banco host --ble --name
//! Alice` on a Linux machine:
//! 1. Scan: "Banco Alice" shows with service `becd2551-cd92-414a-b34f-80de7c697371`.
//! 2. Connect; read characteristic `becd2554-…` (info): the bytes are `\x0aname=Alice`,
//!    `games=…`, `v=…`, `fp=…` (length-prefixed strings).
//! 3. Enable notifications on `becd2553-…`; write (without response) `c0` + 20 bytes to
//!    `becd2552-…`: the host's session answers nothing to garbage (it is refused by the
//!    handshake), and the host keeps running.
//! 4. Android: request MTU 517 in the app and check the host's log shows larger fragments
//!    (`banco join` with `RUST_LOG` is not needed: the host prints the peer on connect).
//!
//! Then, once the shells implement the peripheral: the same two steps of the Linux plan with
//! the phone as host (`Host over Bluetooth` in the app) and `banco join --ble NAME` on Linux,
//! and phone-to-phone (Android host, iOS guest and the reverse), turning Bluetooth off on
//! either phone mid-game to see the "Bluetooth is off" message and the resume.

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
    loop {
        match link.recv(Some(Duration::from_secs(30))) {
            Ok(Some(frame)) => {
                link.send(&frame).unwrap();
                echoed += 1;
            }
            Ok(None) | Err(_) => break,
        }
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
