//! # The Banco GATT service
//!
//! Two devices with no network at all play over Bluetooth LE through one GATT service. The
//! **host is the peripheral** (it advertises and serves), the **guest is the central** (it
//! scans, connects and subscribes). Everything above the characteristics — Noise pairing with
//! the six-digit code, encryption, exactly-once moves, resume after a cut — is the same
//! session as over TCP; this layer only moves frames.
//!
//! | item | UUID | properties | direction, value |
//! |---|---|---|---|
//! | service | [`SERVICE_UUID`] `becd2551-cd92-414a-b34f-80de7c697371` | primary | advertised (complete list of 128-bit service UUIDs) |
//! | write | [`WRITE_UUID`] `becd2552-…` | write without response, write | guest → host: one fragment per write |
//! | notify | [`NOTIFY_UUID`] `becd2553-…` | notify | host → guest: one fragment per notification (CCCD enables it) |
//! | info | [`INFO_UUID`] `becd2554-…` | read | the host's [info](super::info): TXT-record body with display name, games, protocol version, key fingerprint |
//!
//! The four UUIDs differ only in their first 32 bits, like a vendor base UUID with 32-bit
//! aliases. The advertisement carries the flags, the 128-bit service UUID (21 of the 31
//! legacy advertising bytes) and, in the scan response, the local name `Banco <name>`
//! (cut to [`MAX_LOCAL_NAME_BYTES`]); a central filters its scan on the service UUID.
//!
//! ## Connecting
//!
//! 1. The guest scans for [`SERVICE_UUID`], connects, discovers the service, and **reads the
//!    info characteristic** (ATT Read, then Read Blob while the value is longer than
//!    `MTU − 1`): a lobby shows the display name, games and fingerprint, and matches the
//!    same player seen on the LAN by fingerprint. Reading needs a connection in BLE; a lobby
//!    that only lists players disconnects after the read.
//! 2. It **exchanges the MTU** (Exchange MTU request; BlueZ, CoreBluetooth and Android do it
//!    at connection, Android after `requestMtu(517)`): fragments carry up to
//!    [`att_payload`]`(mtu)` = `MTU − 3` bytes (20 at the default MTU of 23, 182 at 185,
//!    512 at most — the longest attribute value).
//! 3. It **subscribes** to the notify characteristic (writes `0x0001` to its CCCD), and the
//!    link is up: frames go out as writes to the write characteristic, and come in as
//!    notifications. The session's handshake starts (the guest dials, the host accepts).
//!
//! ## Fragments and flow control
//!
//! Every frame is cut into fragments of at most `MTU − 3` bytes, each with one header byte
//! (start, end, 6-bit sequence number: see [`fragment`](super::fragment)). Writes without
//! response and notifications are unacknowledged at the ATT layer: a stack whose buffer is
//! full may drop one (Android and iOS report "not ready", some stacks drop silently), and a
//! disconnect loses whatever was queued. The fragment layer never delivers a frame with a
//! missing, repeated or out-of-order fragment: a sequence gap discards the partial frame and
//! the reassembler waits for the next start, so the session sees a lost frame and
//! retransmits it (exactly-once delivery, resume across links). A frame is never corrupt,
//! and the AEAD of the session would refuse one anyway.
//!
//! The guest writes without response when the characteristic allows it, and falls back to
//! writes with response when it does not (or when a write without response is refused).
//! To keep the stack's buffer from overflowing on long frames (handshake messages, a
//! proposal with a FEN), [`WritePacer`] makes every [`WritePacer::BURST`]-th consecutive
//! fragment a write **with** response: the ATT response comes back only after the peer
//! received everything queued before it, so at most `BURST` unacknowledged fragments are in
//! flight. A move frame is one or two fragments and never waits for a response.
//!
//! Disconnects are frequent on phones (screen off, out of range, adapter off): the driver
//! reconnects (the guest scans and connects again, the host keeps advertising) and the
//! session resumes the match as over TCP.
//!
//! ## Figures
//!
//! Measured by `figures_of_a_move_over_ble` in `tests/suite/ble_game.rs` (`cargo test -p
//! banco-net --test suite ble_game::figures -- --nocapture`) from two real sessions playing a
//! 104-ply xiangqi game, and kept true by its assertions:
//!
//! * **An encrypted move frame is 26–27 bytes** (27 typical): the 9–10-byte envelope and
//!   move, the 16-byte Poly1305 tag, a 1-byte explicit nonce (2 bytes once a side has sent
//!   128 frames, so 28 late in long games). The receiver answers every move at once with a
//!   standalone **acknowledgement frame of 19 bytes** (20 late in long games); the next
//!   move carries an ack too.
//! * **Fragments**: 19 frame bytes per fragment at MTU 23, 181 at MTU 185.
//!
//!   | frame | MTU 23 | MTU 185 |
//!   |---|---|---|
//!   | move, 27 bytes | 2 fragments (20 + 9 bytes of ATT value) | 1 (28) |
//!   | ack, 19 bytes | 1 (20) — 2 once it is 20 bytes | 1 (20) |
//!
//! * **Bytes on air**: each ATT write or notification costs [`AIR_BYTES_PER_ATT_OP`] = 21
//!   bytes around its value on the 1M PHY of an encrypted link (preamble 1, access address
//!   4, link-layer header 2, L2CAP header 4, ATT opcode and handle 3, MIC 4, CRC 3), see
//!   [`air_bytes`]. A move is 2 × 21 + 29 = **71 bytes on air at MTU 23** and 21 + 28 =
//!   **49 at MTU 185** (with data length extension, which every phone that negotiates 185
//!   has; without it the 35-byte L2CAP packet takes two link-layer packets, +14 bytes). With
//!   its acknowledgement (41 bytes either way): **112 bytes per move at MTU 23, 90 at MTU
//!   185** — plus the empty link-layer packets (10 bytes each) that acknowledge them.
//! * **ATT operations per move round trip** (my move out and its ack back, the peer's
//!   answer back and its ack out): **6 at MTU 23** (2 + 1 + 2 + 1; 8 late in long games)
//!   and **4 at MTU 185**, all writes without response or notifications — none waits for an
//!   ATT response.
//! * **Latency**: the radio talks once per connection interval `ci`, and a connection event
//!   carries several packets (at least 4 at the 1M PHY on current stacks), so a move's two
//!   fragments leave in the same event. A move waits for the next event: `ci/2` on average,
//!   `ci` at worst, plus well under 1 ms of air time and processing. A round trip (my move
//!   out, an immediate answer back) is two of those: `ci` on average, `2·ci` at worst.
//!
//!   | connection interval | one way, mean | one way, worst | round trip, mean | round trip, worst |
//!   |---|---|---|---|---|
//!   | 7.5 ms (the minimum; Android "high") | 3.75 ms | 7.5 ms | 7.5 ms | 15 ms |
//!   | 15 ms (iOS's usual minimum) | 7.5 ms | 15 ms | 15 ms | 30 ms |
//!   | 30 ms (Android "balanced") | 15 ms | 30 ms | 30 ms | 60 ms |
//!   | 50 ms | 25 ms | 50 ms | 50 ms | 100 ms |
//!
//!   A lost fragment costs a retransmission time-out of the session instead (150 ms at
//!   first in the tests' timing, doubling), so what a player feels on a bad link is the RTO,
//!   not the interval. At every interval a move reaches the other phone far below human
//!   reaction time (~200 ms).
//!
//! ```
//! use banco_net::ble::gatt::{SERVICE_UUID, att_payload, fragments_per_frame, uuid_string};
//!
//! assert_eq!(uuid_string(SERVICE_UUID), "becd2551-cd92-414a-b34f-80de7c697371");
//! assert_eq!(att_payload(23), 20);
//! assert_eq!(att_payload(517), 512);
//! // A 28-byte encrypted move: two fragments at the default MTU, one at MTU 185.
//! assert_eq!(fragments_per_frame(28, 23), 2);
//! assert_eq!(fragments_per_frame(28, 185), 1);
//! ```

/// The Banco primary service.
pub const SERVICE_UUID: u128 = 0xbecd_2551_cd92_414a_b34f_80de_7c69_7371;
/// Guest → host fragments: write without response (and write, as a fallback).
pub const WRITE_UUID: u128 = 0xbecd_2552_cd92_414a_b34f_80de_7c69_7371;
/// Host → guest fragments: notify.
pub const NOTIFY_UUID: u128 = 0xbecd_2553_cd92_414a_b34f_80de_7c69_7371;
/// The host's info (read): see [`info`](super::info).
pub const INFO_UUID: u128 = 0xbecd_2554_cd92_414a_b34f_80de_7c69_7371;

/// The ATT MTU every connection starts with.
pub const DEFAULT_ATT_MTU: u16 = 23;
/// The largest ATT MTU (Bluetooth Core 5.x).
pub const MAX_ATT_MTU: u16 = 517;
/// The longest attribute value, so the largest fragment.
pub const MAX_ATTRIBUTE_LEN: usize = 512;
/// Longest local name put in the scan response, in bytes (the 31-byte legacy scan response
/// less its 2-byte AD header leaves 29).
pub const MAX_LOCAL_NAME_BYTES: usize = 29;

/// Bytes on air around one ATT write or notification (1M PHY, encrypted link): preamble 1,
/// access address 4, link-layer header 2, L2CAP header 4, ATT opcode and handle 3, MIC 4,
/// CRC 3. Assumes the value fits one link-layer packet (20 bytes, or data length extension).
pub const AIR_BYTES_PER_ATT_OP: usize = 21;

/// Bytes on air to carry a frame of `frame_len` bytes at `mtu`: its fragments (one header
/// byte each) and [`AIR_BYTES_PER_ATT_OP`] per fragment.
pub fn air_bytes(frame_len: usize, mtu: u16) -> usize {
    let n = fragments_per_frame(frame_len, mtu);
    n * (AIR_BYTES_PER_ATT_OP + 1) + frame_len
}

/// Fragment size for an ATT MTU: `MTU − 3` (the ATT opcode and handle), from 20 at the
/// minimum MTU of 23 up to 512. MTUs below 23 (not allowed by the specification) count as 23.
pub fn att_payload(mtu: u16) -> usize {
    (usize::from(mtu.max(DEFAULT_ATT_MTU)) - 3).min(MAX_ATTRIBUTE_LEN)
}

/// ATT writes (or notifications) that carry a frame of `frame_len` bytes at `mtu`: each
/// fragment holds `MTU − 4` frame bytes after its header byte.
pub fn fragments_per_frame(frame_len: usize, mtu: u16) -> usize {
    frame_len.div_ceil(att_payload(mtu) - 1).max(1)
}

/// Formats a 128-bit UUID the usual way (lower-case, 8-4-4-4-12).
pub fn uuid_string(uuid: u128) -> String {
    let h = format!("{uuid:032x}");
    format!(
        "{}-{}-{}-{}-{}",
        &h[0..8],
        &h[8..12],
        &h[12..16],
        &h[16..20],
        &h[20..32]
    )
}

/// The local name a host advertises: `Banco <display name>`, cut at a character boundary
/// to [`MAX_LOCAL_NAME_BYTES`]. Only a hint for system Bluetooth menus: a lobby shows the
/// validated name of the info characteristic.
pub fn local_name(display_name: &str) -> String {
    let mut out = String::from("Banco");
    if !display_name.is_empty() {
        out.push(' ');
    }
    for c in display_name.chars() {
        if out.len() + c.len_utf8() > MAX_LOCAL_NAME_BYTES {
            break;
        }
        out.push(c);
    }
    out
}

/// How one ATT write is sent.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum WriteMode {
    /// ATT Write Command: no response, may be dropped when the stack's buffer is full.
    WithoutResponse,
    /// ATT Write Request: the peer answers once it has the value (one round trip).
    WithResponse,
}

/// Chooses the [`WriteMode`] of each fragment a central writes. See the
/// [module docs](self#fragments-and-flow-control).
///
/// ```
/// use banco_net::ble::gatt::{WriteMode, WritePacer};
///
/// let mut pacer = WritePacer::new(true);
/// let modes: Vec<WriteMode> = (0..10).map(|_| pacer.next_mode()).collect();
/// assert_eq!(modes[WritePacer::BURST - 1], WriteMode::WithResponse);
/// assert_eq!(modes.iter().filter(|m| **m == WriteMode::WithResponse).count(), 1);
/// pacer.refused(); // the stack refused a write without response: fall back for good
/// assert_eq!(pacer.next_mode(), WriteMode::WithResponse);
/// ```
#[derive(Clone, Debug)]
pub struct WritePacer {
    without_response: bool,
    unacknowledged: usize,
}

impl WritePacer {
    /// At most this many fragments are written without response in a row.
    pub const BURST: usize = 8;

    /// A pacer for a characteristic that does (`true`) or does not support writes without
    /// response.
    pub fn new(without_response: bool) -> WritePacer {
        WritePacer {
            without_response,
            unacknowledged: 0,
        }
    }

    /// The mode of the next fragment.
    pub fn next_mode(&mut self) -> WriteMode {
        if !self.without_response {
            return WriteMode::WithResponse;
        }
        self.unacknowledged += 1;
        if self.unacknowledged >= Self::BURST {
            self.unacknowledged = 0;
            WriteMode::WithResponse
        } else {
            WriteMode::WithoutResponse
        }
    }

    /// The frame is complete: the next frame starts a new burst once the link has been idle.
    /// Called by the pipe when nothing else is queued.
    pub fn idle(&mut self) {
        self.unacknowledged = 0;
    }

    /// A write without response was refused by the stack: use writes with response from now
    /// on (the refused fragment is lost, and its frame with it).
    pub fn refused(&mut self) {
        self.without_response = false;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn uuids_share_a_base_and_print_right() {
        for (i, u) in [SERVICE_UUID, WRITE_UUID, NOTIFY_UUID, INFO_UUID]
            .into_iter()
            .enumerate()
        {
            assert_eq!(u >> 96, 0xbecd_2551 + i as u128);
            assert_eq!(u & ((1u128 << 96) - 1), SERVICE_UUID & ((1u128 << 96) - 1));
        }
        assert_eq!(
            uuid_string(NOTIFY_UUID),
            "becd2553-cd92-414a-b34f-80de7c697371"
        );
        assert_eq!(uuid_string(1), "00000000-0000-0000-0000-000000000001");
    }

    #[test]
    fn payload_by_mtu() {
        assert_eq!(att_payload(0), 20);
        assert_eq!(att_payload(23), 20);
        assert_eq!(att_payload(185), 182);
        assert_eq!(att_payload(247), 244);
        assert_eq!(att_payload(515), 512);
        assert_eq!(att_payload(u16::MAX), 512);
        assert_eq!(fragments_per_frame(0, 23), 1);
        assert_eq!(fragments_per_frame(19, 23), 1);
        assert_eq!(fragments_per_frame(20, 23), 2);
        assert_eq!(fragments_per_frame(4096, 23), 216);
        assert_eq!(fragments_per_frame(4096, 517), 9);
        assert_eq!(air_bytes(28, 23), 72);
        assert_eq!(air_bytes(28, 185), 50);
        assert_eq!(air_bytes(20, 23), 64);
        assert_eq!(air_bytes(20, 185), 42);
    }

    #[test]
    fn local_names_fit_the_scan_response() {
        assert_eq!(local_name(""), "Banco");
        assert_eq!(local_name("Alice"), "Banco Alice");
        let long = local_name("Nguyễn Văn Anh của Hà Nội");
        assert!(long.len() <= MAX_LOCAL_NAME_BYTES, "{long}");
        assert!(long.starts_with("Banco Nguyễn"));
    }

    #[test]
    fn pacer_bounds_unacknowledged_writes() {
        let mut p = WritePacer::new(true);
        let mut run = 0;
        for _ in 0..100 {
            match p.next_mode() {
                WriteMode::WithoutResponse => run += 1,
                WriteMode::WithResponse => run = 0,
            }
            assert!(run < WritePacer::BURST);
        }
        p.idle();
        assert_eq!(p.next_mode(), WriteMode::WithoutResponse);
        let mut q = WritePacer::new(false);
        assert!((0..5).all(|_| q.next_mode() == WriteMode::WithResponse));
    }
}
