//! [`Nearby`]: one list of the players around, whether seen on the LAN (mDNS) or over
//! Bluetooth LE (the info characteristic), each listed **once** with every transport it was
//! seen on. Two sightings are the same player when they carry the same key fingerprint (an
//! empty fingerprint proves nothing: such sightings are never merged). Connecting prefers
//! the LAN (faster, no MTU, no pairing of radios) and falls back to Bluetooth.
//!
//! **A fingerprint in a listing proves nothing.** mDNS records and Bluetooth info are
//! unauthenticated: anyone nearby can publish a record carrying another player's
//! fingerprint. So a sighting never replaces another one of the same transport already
//! listed under its fingerprint: the first stays; the second is listed apart, with the
//! fingerprint it claimed — a LAN record under `lan:<mDNS id>`, a Bluetooth device under
//! `ble:<device id>` (an impostor in Bluetooth range cannot take over a player's entry,
//! its device, name or games). Joining an entry checks its fingerprint against the key
//! the host proves in the handshake (`NetMatch::join_peer`): an impostor is refused before
//! any code is shown.
//!
//! Every front end feeds it from its discovery callbacks and renders
//! [`Nearby::players`]; each change comes back as a [`NearbyChange`] to forward to the UI.
//!
//! **Leaving the list.** mDNS says when a host goes ([`Nearby::lan_lost`]); Bluetooth never
//! does — a host that stops advertising, walks out of range or switches its adapter off
//! just stops being seen. So every advertisement counts as a sighting
//! ([`Nearby::ble_found`] the first time, [`Nearby::ble_seen`] after), and
//! [`Nearby::expire_ble`], called now and then with the time, drops every Bluetooth
//! sighting older than a stale interval ([`BLE_STALE`] in the apps). Time is passed in, so
//! tests decide what "now" is.
//!
//! ```
//! use banco_app::network::nearby::{BLE_STALE, Nearby, NearbyChange, Transport};
//! use banco_game::GameKind;
//! use banco_net::discovery::{Advertisement, PeerInfo};
//! use std::time::{Duration, Instant};
//!
//! let mut nearby = Nearby::default();
//! let lan = PeerInfo {
//!     id: "An._banco._tcp.local.".into(),
//!     name: "An".into(),
//!     games: vec![GameKind::Xiangqi],
//!     protocol_version: Some(3),
//!     fingerprint: "a1b2c3d4e5f60718".into(),
//!     host: "an.local.".into(),
//!     port: 7368,
//!     addresses: vec!["192.168.1.20:7368".parse().unwrap()],
//! };
//! nearby.lan_found(lan);
//! let ble = Advertisement::new("An", vec![GameKind::Xiangqi], 3, "a1b2c3d4e5f60718");
//! let t0 = Instant::now();
//! let change = nearby.ble_found("AA:BB:CC:DD:EE:FF", &ble, t0);
//! assert!(matches!(change, NearbyChange::Updated(_)));
//! let players = nearby.players();
//! assert_eq!(players.len(), 1);
//! assert_eq!(players[0].transports(), vec![Transport::Lan, Transport::Ble]);
//! assert_eq!(players[0].preferred(), Transport::Lan);
//! // Not seen over Bluetooth for longer than the stale interval: only the LAN is left.
//! let changes = nearby.expire_ble(t0 + BLE_STALE + Duration::from_secs(1), BLE_STALE);
//! assert!(matches!(&changes[..], [NearbyChange::Updated(p)] if p.transports() == [Transport::Lan]));
//! ```

use banco_game::GameKind;
use banco_net::discovery::{Advertisement, PeerInfo};
use std::time::{Duration, Instant};

/// How long a Bluetooth host may go unseen before it leaves the list. Android's scanner
/// reports every advertisement (low-latency mode: several a second; balanced: every few
/// seconds) and iOS does when scanning with duplicates allowed; 30 s rides out a phone
/// that pauses scanning for a while without keeping a gone host for long.
pub const BLE_STALE: Duration = Duration::from_secs(30);

/// How a player can be reached.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Transport {
    /// The local network (TCP, found by mDNS).
    Lan,
    /// Bluetooth LE.
    Ble,
}

/// A player around, with every way to reach them.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NearbyPlayer {
    /// Stable key of the entry: `fp:<fingerprint>` when the player has one, else
    /// `lan:<mDNS id>` or `ble:<device>`.
    pub key: String,
    /// Display name (already cleaned by discovery; the LAN's when seen on both).
    pub name: String,
    /// Games offered.
    pub games: Vec<GameKind>,
    /// Protocol version, when known.
    pub protocol_version: Option<u16>,
    /// Short key fingerprint (hex), or empty.
    pub fingerprint: String,
    /// The mDNS record, when seen on the LAN.
    pub lan: Option<PeerInfo>,
    /// The Bluetooth device id, when seen over Bluetooth.
    pub ble_device: Option<String>,
}

impl NearbyPlayer {
    /// The transports this player was seen on, LAN first.
    pub fn transports(&self) -> Vec<Transport> {
        let mut out = Vec::new();
        if self.lan.is_some() {
            out.push(Transport::Lan);
        }
        if self.ble_device.is_some() {
            out.push(Transport::Ble);
        }
        out
    }

    /// The transport to connect with: the LAN when seen there, else Bluetooth.
    pub fn preferred(&self) -> Transport {
        if self.lan.is_some() {
            Transport::Lan
        } else {
            Transport::Ble
        }
    }

    /// Fills name, games, version and fingerprint from what is known, the LAN first.
    fn refresh(&mut self, ble: Option<&Advertisement>) {
        if let Some(l) = &self.lan {
            self.name.clone_from(&l.name);
            self.games.clone_from(&l.games);
            self.protocol_version = l.protocol_version;
            self.fingerprint.clone_from(&l.fingerprint);
        } else if let Some(b) = ble {
            self.name.clone_from(&b.name);
            self.games.clone_from(&b.games);
            self.protocol_version = Some(b.protocol_version);
            self.fingerprint.clone_from(&b.fingerprint);
        }
    }
}

/// What a sighting changed in the list.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum NearbyChange {
    /// A new player.
    Added(NearbyPlayer),
    /// A known player changed (a new transport, a new name).
    Updated(NearbyPlayer),
    /// A player is no longer seen on any transport.
    Removed {
        /// Its [`NearbyPlayer::key`].
        key: String,
    },
    /// Nothing changed.
    Unchanged,
}

/// The list of players around. See the [module docs](self).
#[derive(Clone, Debug, Default)]
pub struct Nearby {
    players: Vec<NearbyPlayer>,
    /// What each player's Bluetooth info said, by key (kept to refresh when the LAN goes).
    ble_info: Vec<(String, Advertisement)>,
    /// When each Bluetooth device listed was last seen.
    ble_seen: Vec<(String, Instant)>,
}

fn key_for(fingerprint: &str, fallback: String) -> String {
    if fingerprint.is_empty() {
        fallback
    } else {
        format!("fp:{fingerprint}")
    }
}

impl Nearby {
    /// The players, in the order they were first seen.
    pub fn players(&self) -> &[NearbyPlayer] {
        &self.players
    }

    /// The player with `key`.
    pub fn get(&self, key: &str) -> Option<&NearbyPlayer> {
        self.players.iter().find(|p| p.key == key)
    }

    fn ble_of(&self, key: &str) -> Option<&Advertisement> {
        self.ble_info.iter().find(|(k, _)| k == key).map(|(_, a)| a)
    }

    /// After a transport of the player at `i` went (it was `before`): removes the player
    /// when no transport is left, else refreshes it from what is left.
    fn settle(&mut self, i: usize, before: &NearbyPlayer) -> NearbyChange {
        let Some(p) = self.players.get_mut(i) else {
            return NearbyChange::Unchanged;
        };
        if p.lan.is_none() && p.ble_device.is_none() {
            let key = self.players.remove(i).key;
            self.ble_info.retain(|(k, _)| *k != key);
            return NearbyChange::Removed { key };
        }
        let key = p.key.clone();
        let ble = self.ble_of(&key).cloned();
        let p = &mut self.players[i];
        p.refresh(ble.as_ref());
        if p == before {
            NearbyChange::Unchanged
        } else {
            NearbyChange::Updated(p.clone())
        }
    }

    /// The entry a LAN record goes to: the entry holding the same record while its
    /// fingerprint stays the same; else the player with that fingerprint, unless that
    /// entry already holds another LAN record — a second record claiming a fingerprint is
    /// listed apart under `lan:<mDNS id>` (see the module docs), never in place of the
    /// first.
    fn lan_key(&self, peer: &PeerInfo) -> String {
        let own = format!("lan:{}", peer.id);
        let holder = self.players.iter().find(|p| {
            p.lan
                .as_ref()
                .is_some_and(|l| l.id == peer.id && l.fingerprint == peer.fingerprint)
        });
        if let Some(p) = holder {
            return p.key.clone();
        }
        let key = key_for(&peer.fingerprint, own.clone());
        let claimed = self
            .players
            .iter()
            .any(|p| p.key == key && p.lan.as_ref().is_some_and(|l| l.id != peer.id));
        if claimed { own } else { key }
    }

    /// A host seen (or seen again) on the LAN.
    pub fn lan_found(&mut self, peer: PeerInfo) -> NearbyChange {
        let key = self.lan_key(&peer);
        // The same mDNS record under another key (its fingerprint changed): drop it there.
        let moved = self
            .players
            .iter()
            .position(|p| p.key != key && p.lan.as_ref().is_some_and(|l| l.id == peer.id));
        if let Some(i) = moved {
            let before = self.players[i].clone();
            self.players[i].lan = None;
            // Reported by the next call's change only; the list stays consistent.
            let _ = self.settle(i, &before);
        }
        if let Some(i) = self.players.iter().position(|p| p.key == key) {
            let before = self.players[i].clone();
            self.players[i].lan = Some(peer);
            let ble = self.ble_of(&key).cloned();
            self.players[i].refresh(ble.as_ref());
            if self.players[i] == before {
                NearbyChange::Unchanged
            } else {
                NearbyChange::Updated(self.players[i].clone())
            }
        } else {
            let mut p = NearbyPlayer {
                key,
                name: String::new(),
                games: Vec::new(),
                protocol_version: None,
                fingerprint: String::new(),
                lan: Some(peer),
                ble_device: None,
            };
            p.refresh(None);
            self.players.push(p.clone());
            NearbyChange::Added(p)
        }
    }

    /// The LAN host with mDNS id `id` went away.
    pub fn lan_lost(&mut self, id: &str) -> NearbyChange {
        let Some(i) = self
            .players
            .iter()
            .position(|p| p.lan.as_ref().is_some_and(|l| l.id == id))
        else {
            return NearbyChange::Unchanged;
        };
        let before = self.players[i].clone();
        self.players[i].lan = None;
        self.settle(i, &before)
    }

    /// The entry a Bluetooth sighting goes to, by the LAN's rule ([`Nearby::lan_key`]):
    /// the entry holding `device` while its fingerprint stays the same; else the player
    /// with that fingerprint, unless that entry already holds another Bluetooth device — a
    /// second device claiming a fingerprint is listed apart under `ble:<device>`, never in
    /// place of the first (which keeps its device, name and games until it goes stale).
    fn ble_key(&self, device: &str, info: &Advertisement) -> String {
        let own = format!("ble:{device}");
        let holder = self
            .players
            .iter()
            .find(|p| p.ble_device.as_deref() == Some(device) && p.fingerprint == info.fingerprint);
        if let Some(p) = holder {
            return p.key.clone();
        }
        let key = key_for(&info.fingerprint, own.clone());
        let claimed = self
            .players
            .iter()
            .any(|p| p.key == key && p.ble_device.as_deref().is_some_and(|d| d != device));
        if claimed { own } else { key }
    }

    /// A host seen over Bluetooth as `device` at `now`, its info characteristic saying
    /// `info`. A device claiming the fingerprint of a player already listed with another
    /// device is listed apart (see the module docs).
    pub fn ble_found(&mut self, device: &str, info: &Advertisement, now: Instant) -> NearbyChange {
        self.mark_seen(device, now);
        let key = self.ble_key(device, info);
        let moved = self
            .players
            .iter()
            .position(|p| p.key != key && p.ble_device.as_deref() == Some(device));
        if let Some(i) = moved {
            let before = self.players[i].clone();
            self.players[i].ble_device = None;
            let _ = self.settle(i, &before);
        }
        self.ble_info.retain(|(k, _)| *k != key);
        self.ble_info.push((key.clone(), info.clone()));
        if let Some(i) = self.players.iter().position(|p| p.key == key) {
            let before = self.players[i].clone();
            self.players[i].ble_device = Some(device.to_owned());
            self.players[i].refresh(Some(info));
            if self.players[i] == before {
                NearbyChange::Unchanged
            } else {
                NearbyChange::Updated(self.players[i].clone())
            }
        } else {
            let mut p = NearbyPlayer {
                key,
                name: String::new(),
                games: Vec::new(),
                protocol_version: None,
                fingerprint: String::new(),
                lan: None,
                ble_device: Some(device.to_owned()),
            };
            p.refresh(Some(info));
            self.players.push(p.clone());
            NearbyChange::Added(p)
        }
    }

    fn mark_seen(&mut self, device: &str, now: Instant) {
        match self.ble_seen.iter_mut().find(|(d, _)| d == device) {
            Some((_, at)) => *at = (*at).max(now),
            None => self.ble_seen.push((device.to_owned(), now)),
        }
    }

    /// The Bluetooth host `device` advertised again at `now`. False when it is not listed
    /// (never read, or dropped as stale): read its info and call [`Nearby::ble_found`].
    pub fn ble_seen(&mut self, device: &str, now: Instant) -> bool {
        let listed = self
            .players
            .iter()
            .any(|p| p.ble_device.as_deref() == Some(device));
        if listed {
            self.mark_seen(device, now);
        }
        listed
    }

    /// Drops every Bluetooth sighting not seen for more than `stale` at `now` (a player
    /// also on the LAN stays, with the LAN only); the changes, in list order.
    pub fn expire_ble(&mut self, now: Instant, stale: Duration) -> Vec<NearbyChange> {
        let gone: Vec<String> = self
            .ble_seen
            .iter()
            .filter(|(_, at)| now.saturating_duration_since(*at) > stale)
            .map(|(d, _)| d.clone())
            .collect();
        gone.iter()
            .map(|d| self.ble_lost(d))
            .filter(|c| *c != NearbyChange::Unchanged)
            .collect()
    }

    /// The Bluetooth host `device` is no longer seen.
    pub fn ble_lost(&mut self, device: &str) -> NearbyChange {
        self.ble_seen.retain(|(d, _)| d != device);
        let Some(i) = self
            .players
            .iter()
            .position(|p| p.ble_device.as_deref() == Some(device))
        else {
            return NearbyChange::Unchanged;
        };
        let before = self.players[i].clone();
        self.players[i].ble_device = None;
        self.settle(i, &before)
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, clippy::panic)]
    use super::*;

    fn lan(id: &str, name: &str, fp: &str) -> PeerInfo {
        PeerInfo {
            id: id.into(),
            name: name.into(),
            games: vec![GameKind::Xiangqi, GameKind::Chess],
            protocol_version: Some(3),
            fingerprint: fp.into(),
            host: "h.local.".into(),
            port: 7368,
            addresses: vec!["192.168.1.2:7368".parse().unwrap()],
        }
    }

    fn ble(name: &str, fp: &str) -> Advertisement {
        Advertisement::new(name, vec![GameKind::Xiangqi], 3, fp)
    }

    /// `s` seconds after a fixed start: the tests' clock.
    fn at(s: u64) -> Instant {
        static START: std::sync::OnceLock<Instant> = std::sync::OnceLock::new();
        *START.get_or_init(Instant::now) + Duration::from_secs(s)
    }

    #[test]
    fn a_bluetooth_host_not_seen_for_the_stale_interval_leaves_the_list() {
        let mut n = Nearby::default();
        n.ble_found("dev-1", &ble("An", "aaaa"), at(0));
        n.ble_found("dev-2", &ble("Bo", "bbbb"), at(0));
        n.lan_found(lan("bo._banco", "Bo", "bbbb"));
        n.ble_found("dev-3", &ble("Cy", ""), at(0));
        // Advertisements keep An and Cy fresh; Bo's phone stops advertising.
        for s in [10, 20, 30] {
            assert!(n.ble_seen("dev-1", at(s)));
            assert!(n.ble_seen("dev-3", at(s)));
        }
        assert!(
            !n.ble_seen("dev-9", at(30)),
            "never listed: its info must be read"
        );
        assert!(
            n.expire_ble(at(30), BLE_STALE).is_empty(),
            "30 s is not over 30 s"
        );
        let changes = n.expire_ble(at(31), BLE_STALE);
        let [NearbyChange::Updated(bo)] = &changes[..] else {
            panic!("Bo keeps the LAN: {changes:?}")
        };
        assert_eq!(bo.transports(), vec![Transport::Lan]);
        assert_eq!(bo.ble_device, None);
        assert!(n.expire_ble(at(31), BLE_STALE).is_empty(), "dropped once");
        // Then An and Cy go quiet too: both leave, in list order.
        assert_eq!(
            n.expire_ble(at(61), BLE_STALE),
            vec![
                NearbyChange::Removed {
                    key: "fp:aaaa".into()
                },
                NearbyChange::Removed {
                    key: "ble:dev-3".into()
                }
            ]
        );
        assert!(
            !n.ble_seen("dev-1", at(62)),
            "gone: seen again means read again"
        );
        assert_eq!(n.players().len(), 1);
        // Back in range: listed again as new, with its own clock.
        assert!(matches!(
            n.ble_found("dev-1", &ble("An", "aaaa"), at(70)),
            NearbyChange::Added(_)
        ));
        assert!(n.expire_ble(at(100), BLE_STALE).is_empty());
        assert_eq!(n.expire_ble(at(101), BLE_STALE).len(), 1);
    }

    #[test]
    fn a_lan_host_leaves_when_mdns_removes_it() {
        let mut n = Nearby::default();
        n.lan_found(lan("a._banco", "An", "aaaa"));
        n.lan_found(lan("c._banco", "Cam", ""));
        // mDNS records have their own lifetime: expiring Bluetooth leaves them alone.
        assert!(n.expire_ble(at(1_000), BLE_STALE).is_empty());
        assert_eq!(
            n.lan_lost("c._banco"),
            NearbyChange::Removed {
                key: "lan:c._banco".into()
            }
        );
        assert_eq!(
            n.lan_lost("a._banco"),
            NearbyChange::Removed {
                key: "fp:aaaa".into()
            }
        );
        assert!(n.players().is_empty());
        assert_eq!(n.lan_lost("a._banco"), NearbyChange::Unchanged);
    }

    #[test]
    fn the_same_key_on_both_transports_is_one_player_preferring_the_lan() {
        let mut n = Nearby::default();
        let NearbyChange::Added(p) = n.ble_found("dev-1", &ble("An (phone)", "aaaa"), at(0)) else {
            panic!("added")
        };
        assert_eq!(p.key, "fp:aaaa");
        assert_eq!(p.transports(), vec![Transport::Ble]);
        assert_eq!(p.preferred(), Transport::Ble);
        let NearbyChange::Updated(p) = n.lan_found(lan("an._banco", "An", "aaaa")) else {
            panic!("updated")
        };
        assert_eq!(n.players().len(), 1);
        assert_eq!(p.transports(), vec![Transport::Lan, Transport::Ble]);
        assert_eq!(p.preferred(), Transport::Lan);
        assert_eq!(p.name, "An", "the LAN's record is shown");
        assert_eq!(p.games, vec![GameKind::Xiangqi, GameKind::Chess]);
        assert_eq!(
            n.lan_found(lan("an._banco", "An", "aaaa")),
            NearbyChange::Unchanged
        );
        // The LAN goes: still there over Bluetooth, with what its info said.
        let NearbyChange::Updated(p) = n.lan_lost("an._banco") else {
            panic!("updated")
        };
        assert_eq!(p.transports(), vec![Transport::Ble]);
        assert_eq!(p.name, "An (phone)");
        assert_eq!(p.games, vec![GameKind::Xiangqi]);
        assert_eq!(
            n.ble_lost("dev-1"),
            NearbyChange::Removed {
                key: "fp:aaaa".into()
            }
        );
        assert!(n.players().is_empty());
        assert_eq!(n.ble_lost("dev-1"), NearbyChange::Unchanged);
    }

    #[test]
    fn losing_one_of_two_transports_is_an_update_even_when_nothing_else_differs() {
        let mut n = Nearby::default();
        n.ble_found("dev-1", &ble("An", "aaaa"), at(0));
        let mut same = lan("an._banco", "An", "aaaa");
        same.games = vec![GameKind::Xiangqi];
        n.lan_found(same);
        let NearbyChange::Updated(p) = n.lan_lost("an._banco") else {
            panic!("an update")
        };
        assert_eq!(p.transports(), vec![Transport::Ble]);
        let NearbyChange::Updated(p) = n.lan_found(lan("an._banco", "An", "aaaa")) else {
            panic!("an update")
        };
        assert_eq!(p.transports(), vec![Transport::Lan, Transport::Ble]);
        let NearbyChange::Updated(p) = n.ble_lost("dev-1") else {
            panic!("an update")
        };
        assert_eq!(p.transports(), vec![Transport::Lan]);
    }

    #[test]
    fn different_or_missing_fingerprints_are_never_merged() {
        let mut n = Nearby::default();
        n.lan_found(lan("a._banco", "An", "aaaa"));
        n.ble_found("dev-1", &ble("An", "bbbb"), at(0));
        // Without a fingerprint nothing proves two sightings are one player.
        n.lan_found(lan("c._banco", "Cam", ""));
        n.ble_found("dev-2", &ble("Cam", ""), at(0));
        let keys: Vec<&str> = n.players().iter().map(|p| p.key.as_str()).collect();
        assert_eq!(keys, ["fp:aaaa", "fp:bbbb", "lan:c._banco", "ble:dev-2"]);
        assert!(n.players().iter().all(|p| p.transports().len() == 1));
        assert_eq!(n.get("ble:dev-2").unwrap().preferred(), Transport::Ble);
    }

    #[test]
    fn a_second_record_copying_a_fingerprint_is_listed_apart_and_never_replaces_the_first() {
        let mut n = Nearby::default();
        n.ble_found("dev-1", &ble("An", "aaaa"), at(0));
        n.lan_found(lan("an._banco", "An", "aaaa"));
        // A stranger publishes a record with An's (public) fingerprint, its own address and
        // a name of its choosing.
        let mut forged = lan("evil._banco", "An (home)", "aaaa");
        forged.addresses = vec!["192.168.1.66:7368".parse().unwrap()];
        let NearbyChange::Added(apart) = n.lan_found(forged.clone()) else {
            panic!("listed apart")
        };
        assert_eq!(apart.key, "lan:evil._banco");
        assert_eq!(
            apart.fingerprint, "aaaa",
            "what it claimed, checked at the join"
        );
        assert_eq!(apart.transports(), vec![Transport::Lan]);
        let an = n.get("fp:aaaa").unwrap();
        assert_eq!(an.name, "An");
        let addresses = &an.lan.as_ref().unwrap().addresses;
        assert_eq!(addresses[0].to_string(), "192.168.1.2:7368");
        assert_eq!(an.transports(), vec![Transport::Lan, Transport::Ble]);
        // Seen again, each record stays where it is.
        assert_eq!(n.lan_found(forged), NearbyChange::Unchanged);
        let mut moved = lan("an._banco", "An", "aaaa");
        moved.addresses = vec!["192.168.1.3:7368".parse().unwrap()];
        let NearbyChange::Updated(an) = n.lan_found(moved) else {
            panic!("the first record's own update still applies")
        };
        assert_eq!(an.key, "fp:aaaa");
        assert_eq!(an.lan.unwrap().addresses[0].to_string(), "192.168.1.3:7368");
        assert_eq!(n.players().len(), 2);
    }

    /// The Bluetooth twin of the LAN rule: an impostor advertising a listed player's
    /// (public) fingerprint is listed apart; before, it took the entry over (its device,
    /// name and games), and the two devices took turns at every advertisement.
    #[test]
    fn a_second_bluetooth_device_copying_a_fingerprint_is_listed_apart() {
        let mut n = Nearby::default();
        n.ble_found("AA:01", &ble("An", "aaaa"), at(0));
        let mut forged = ble("An (host)", "aaaa");
        forged.games = vec![GameKind::Chess];
        let NearbyChange::Added(apart) = n.ble_found("EE:66", &forged, at(1)) else {
            panic!("listed apart")
        };
        assert_eq!(apart.key, "ble:EE:66");
        assert_eq!(
            apart.fingerprint, "aaaa",
            "what it claimed, checked at the join"
        );
        let an = n.get("fp:aaaa").unwrap();
        assert_eq!(an.ble_device.as_deref(), Some("AA:01"));
        assert_eq!(an.name, "An");
        assert_eq!(an.games, vec![GameKind::Xiangqi]);
        // Both keep advertising: each stays where it is, no re-read needed.
        assert!(n.ble_seen("AA:01", at(2)) && n.ble_seen("EE:66", at(2)));
        assert_eq!(
            n.ble_found("EE:66", &forged, at(3)),
            NearbyChange::Unchanged
        );
        assert_eq!(
            n.ble_found("AA:01", &ble("An", "aaaa"), at(3)),
            NearbyChange::Unchanged
        );
        // The real player's LAN record joins its own entry, not the impostor's.
        n.lan_found(lan("an._banco", "An", "aaaa"));
        assert_eq!(
            n.get("fp:aaaa").unwrap().transports(),
            vec![Transport::Lan, Transport::Ble]
        );
        assert_eq!(n.players().len(), 2);
    }

    #[test]
    fn a_device_whose_key_changes_moves_to_its_new_entry() {
        let mut n = Nearby::default();
        n.lan_found(lan("a._banco", "An", "aaaa"));
        n.ble_found("dev-1", &ble("An", "aaaa"), at(0));
        // The app was reinstalled: the same Bluetooth device now has another key.
        n.ble_found("dev-1", &ble("An", "cccc"), at(0));
        assert_eq!(n.players().len(), 2);
        assert_eq!(n.get("fp:aaaa").unwrap().transports(), vec![Transport::Lan]);
        assert_eq!(
            n.get("fp:cccc").unwrap().ble_device.as_deref(),
            Some("dev-1")
        );
        n.lan_found(lan("a._banco", "An", "cccc"));
        assert_eq!(n.players().len(), 1, "the old entry had nothing left");
        assert_eq!(
            n.get("fp:cccc").unwrap().transports(),
            vec![Transport::Lan, Transport::Ble]
        );
    }
}
