//! [`NearbyLobby`]: one list of the players around from the LAN (mDNS, through a
//! [`Lobby`]) and Bluetooth LE (through a [`BleGuest`]), each player once with the transports
//! it was seen on (matched by key fingerprint) — banco-app's `network::nearby`.
//! [`Match::join_nearby`] connects over the LAN when the player is there, else over
//! Bluetooth — and a player seen on both is reached over Bluetooth when the LAN fails.
//!
//! A player leaves the list when mDNS says its service is gone, or when none of its
//! Bluetooth advertisements has been seen for 30 s (`BLE_STALE`; checked every 2 s) — a
//! phone switched off or walked away never says goodbye over Bluetooth.
//!
//! ```no_run
//! # use banco_ffi::*;
//! # use std::sync::Arc;
//! # fn f(guest: Arc<BleGuest>, listener: Arc<dyn NearbyListener>) -> Result<(), BancoError> {
//! let lobby = NearbyLobby::new(vec![], true, Some(guest))?;
//! lobby.browse(listener)?; // onPlayerFound / onPlayerUpdated / onPlayerLost
//! # Ok(()) }
//! ```

use crate::ble::{BleGuest, BlePeer, BleScanListener};
use crate::error::{BancoError, guard, notify};
use crate::lobby::{Lobby, LobbyListener, LobbyPeer};
use crate::net::{Match, MatchListener, Relay, trust_of};
use crate::types::GameKind;
use banco_app::network::NetMatch;
use banco_app::network::nearby::{self as an, BLE_STALE, Nearby, NearbyChange};
use banco_net::discovery::Advertisement;
use banco_net::driver::{AnyOf, Connector, Dialer};
use std::sync::mpsc::{self, RecvTimeoutError, Sender};
use std::sync::{Arc, Mutex, MutexGuard, PoisonError, Weak};
use std::time::{Duration, Instant};

/// How often stale Bluetooth sightings are looked for.
const PRUNE_EVERY: Duration = Duration::from_secs(2);

fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(PoisonError::into_inner)
}

/// How a player can be reached.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, uniffi::Enum)]
pub enum NearbyTransport {
    /// The local network.
    Lan,
    /// Bluetooth LE.
    Ble,
}

impl From<an::Transport> for NearbyTransport {
    fn from(t: an::Transport) -> Self {
        match t {
            an::Transport::Lan => NearbyTransport::Lan,
            an::Transport::Ble => NearbyTransport::Ble,
        }
    }
}

/// A transport a host could not open, and why ([`Hosting::not_open`]).
#[derive(Clone, Debug, PartialEq, Eq, Hash, uniffi::Record)]
pub struct TransportNotOpen {
    /// The transport.
    pub transport: NearbyTransport,
    /// Why, in words a player can act on.
    pub reason: String,
}

/// Where a host takes guests ([`Match::hosting`]): the transports open, and those asked
/// for that are not, with the reason — the screen shows it as it is.
#[derive(Clone, Debug, PartialEq, Eq, Hash, uniffi::Record)]
pub struct Hosting {
    /// Open on these, the LAN first.
    pub open_on: Vec<NearbyTransport>,
    /// Asked for but not open (Bluetooth off, permission missing), with the reason.
    pub not_open: Vec<TransportNotOpen>,
}

impl From<banco_app::network::Hosting> for Hosting {
    fn from(h: banco_app::network::Hosting) -> Self {
        Hosting {
            open_on: h.open_on.into_iter().map(Into::into).collect(),
            not_open: h
                .not_open
                .into_iter()
                .map(|n| TransportNotOpen {
                    transport: n.transport.into(),
                    reason: n.reason,
                })
                .collect(),
        }
    }
}

#[uniffi::export]
impl Match {
    /// A host: where it takes guests (the LAN, Bluetooth LE) and why a transport asked for
    /// is not open; `null`/`nil` for a guest.
    pub fn hosting(&self) -> Option<Hosting> {
        self.net().hosting().map(Hosting::from)
    }
}

/// A player around.
#[derive(Clone, Debug, PartialEq, Eq, Hash, uniffi::Record)]
pub struct NearbyPlayer {
    /// Stable key of the entry (`fp:<fingerprint>`, else per transport).
    pub key: String,
    /// Display name.
    pub name: String,
    /// Games offered.
    pub games: Vec<GameKind>,
    /// Protocol version, when known.
    pub protocol_version: Option<u16>,
    /// Short key fingerprint (hex), or empty.
    pub fingerprint: String,
    /// Where the player was seen, LAN first: show an icon for each.
    pub transports: Vec<NearbyTransport>,
    /// What [`Match::join_nearby`] will use.
    pub preferred: NearbyTransport,
    /// The LAN record, when seen there.
    pub lan: Option<LobbyPeer>,
    /// The Bluetooth device, when seen there.
    pub ble_device: Option<String>,
}

impl From<&an::NearbyPlayer> for NearbyPlayer {
    fn from(p: &an::NearbyPlayer) -> Self {
        NearbyPlayer {
            key: p.key.clone(),
            name: p.name.clone(),
            games: p.games.iter().map(|&g| g.into()).collect(),
            protocol_version: p.protocol_version,
            fingerprint: p.fingerprint.clone(),
            transports: p.transports().into_iter().map(Into::into).collect(),
            preferred: p.preferred().into(),
            lan: p.lan.clone().map(LobbyPeer::from),
            ble_device: p.ble_device.clone(),
        }
    }
}

/// Hears the list of players around change, on a Rust thread.
#[uniffi::export(with_foreign)]
pub trait NearbyListener: Send + Sync {
    /// A new player.
    fn on_player_found(&self, player: NearbyPlayer);
    /// A known player changed (seen on another transport, renamed).
    fn on_player_updated(&self, player: NearbyPlayer);
    /// A player is gone from every transport.
    fn on_player_lost(&self, key: String);
    /// Discovery reported a problem (it goes on where it can).
    fn on_error(&self, message: String);
}

/// The list and its listener, fed by both discoveries.
struct Feed {
    nearby: Mutex<Nearby>,
    listener: Arc<dyn NearbyListener>,
}

impl Feed {
    fn apply(&self, change: impl FnOnce(&mut Nearby) -> NearbyChange) {
        let change = change(&mut lock(&self.nearby));
        self.tell(change);
    }

    fn tell(&self, change: NearbyChange) {
        let l = &self.listener;
        match change {
            NearbyChange::Added(p) => notify(|| l.on_player_found(NearbyPlayer::from(&p))),
            NearbyChange::Updated(p) => notify(|| l.on_player_updated(NearbyPlayer::from(&p))),
            NearbyChange::Removed { key } => notify(|| l.on_player_lost(key)),
            NearbyChange::Unchanged => {}
        }
    }

    /// A Bluetooth host found at `now`.
    fn ble_found(&self, peer: &BlePeer, now: Instant) {
        let ad = Advertisement::new(
            &peer.name,
            peer.games.iter().map(|&g| g.into()).collect(),
            peer.protocol_version,
            &peer.fingerprint,
        );
        self.apply(|n| n.ble_found(&peer.device, &ad, now));
    }

    /// `device` advertised again at `now`; false when it is not listed.
    fn ble_seen(&self, device: &str, now: Instant) -> bool {
        lock(&self.nearby).ble_seen(device, now)
    }

    /// Drops the Bluetooth hosts not seen for `BLE_STALE` at `now`.
    fn prune(&self, now: Instant) {
        let changes = lock(&self.nearby).expire_ble(now, BLE_STALE);
        for c in changes {
            self.tell(c);
        }
    }
}

impl LobbyListener for Feed {
    fn on_peer_found(&self, peer: LobbyPeer) {
        if let Ok(info) = peer.to_info() {
            self.apply(|n| n.lan_found(info));
        }
    }
    fn on_peer_updated(&self, peer: LobbyPeer) {
        LobbyListener::on_peer_found(self, peer);
    }
    fn on_peer_lost(&self, id: String) {
        self.apply(|n| n.lan_lost(&id));
    }
    fn on_error(&self, message: String) {
        notify(|| self.listener.on_error(message));
    }
}

impl BleScanListener for Feed {
    fn on_peer_found(&self, peer: BlePeer) {
        self.ble_found(&peer, Instant::now());
    }
    fn on_error(&self, message: String) {
        notify(|| self.listener.on_error(message));
    }
}

/// Players around on the LAN and over Bluetooth, each once. Stops when
/// [`NearbyLobby::stop`] is called (browse again to go on) or it is dropped.
#[derive(uniffi::Object)]
pub struct NearbyLobby {
    lan: Option<Arc<Lobby>>,
    ble: Option<Arc<BleGuest>>,
    /// The list being fed, and the pruning thread's stop line (dropped to stop it).
    running: Mutex<Option<(Arc<Feed>, Sender<()>)>>,
}

/// Drops stale Bluetooth hosts from `feed` every [`PRUNE_EVERY`] until `stop` is dropped.
fn spawn_pruner(feed: Weak<Feed>) -> Result<Sender<()>, BancoError> {
    let (stop, stopped) = mpsc::channel::<()>();
    std::thread::Builder::new()
        .name("banco-nearby-prune".into())
        .spawn(move || {
            while let Err(RecvTimeoutError::Timeout) = stopped.recv_timeout(PRUNE_EVERY) {
                let Some(feed) = feed.upgrade() else { return };
                feed.prune(Instant::now());
            }
        })
        .map_err(|e| BancoError::Internal(format!("cannot start the lobby thread: {e}")))?;
    Ok(stop)
}

#[uniffi::export]
impl NearbyLobby {
    /// Browses the LAN (mDNS on `interfaces`, empty for all) when `lan`, and Bluetooth
    /// through `ble` when given.
    #[uniffi::constructor]
    pub fn new(
        interfaces: Vec<String>,
        lan: bool,
        ble: Option<Arc<BleGuest>>,
    ) -> Result<Arc<NearbyLobby>, BancoError> {
        guard(|| {
            let lan = if lan {
                Some(Lobby::new(interfaces)?)
            } else {
                None
            };
            Ok(Arc::new(NearbyLobby {
                lan,
                ble,
                running: Mutex::new(None),
            }))
        })
    }

    /// Starts browsing both; `listener` hears every player (browsing again, also after
    /// [`NearbyLobby::stop`], starts a new list for the new listener).
    pub fn browse(&self, listener: Arc<dyn NearbyListener>) -> Result<(), BancoError> {
        guard(|| {
            let feed = Arc::new(Feed {
                nearby: Mutex::new(Nearby::default()),
                listener,
            });
            let stop = spawn_pruner(Arc::downgrade(&feed))?;
            *lock(&self.running) = Some((Arc::clone(&feed), stop));
            if let Some(lan) = &self.lan {
                lan.browse(Arc::clone(&feed) as Arc<dyn LobbyListener>)?;
            }
            if let Some(ble) = &self.ble {
                let weak = Arc::downgrade(&feed);
                let hook: crate::ble::SeenHook = Arc::new(move |device: &str| {
                    weak.upgrade()
                        .is_none_or(|f| f.ble_seen(device, Instant::now()))
                });
                ble.scan_with(feed, Some(hook))?;
            }
            Ok(())
        })
    }

    /// Stops browsing (mDNS and the Bluetooth scan stop); [`NearbyLobby::browse`] starts
    /// again.
    pub fn stop(&self) -> Result<(), BancoError> {
        guard(|| {
            *lock(&self.running) = None;
            if let Some(lan) = &self.lan {
                lan.stop()?;
            }
            if let Some(ble) = &self.ble {
                ble.stop_scan()?;
            }
            Ok(())
        })
    }
}

#[uniffi::export]
impl Match {
    /// Joins a player of a [`NearbyLobby`] over its preferred transport: the LAN when it
    /// was seen there, else Bluetooth through `ble` (needed then). A player seen on both
    /// (with `ble` given) is dialled over the LAN first and over Bluetooth when the LAN
    /// fails — unreachable, or a device there that is not the player listed — and after
    /// a cut by the way that last worked first. `trust` as in [`Match::host`]. The
    /// fingerprint the player was listed with is checked in the handshake (see
    /// [`Match::join_peer`]): a device that copied it is refused, and when no other way is
    /// left the match ends with `Closed`, saying it is not the player listed.
    #[uniffi::constructor(default(trust = None))]
    pub fn join_nearby(
        player_name: String,
        player: NearbyPlayer,
        ble: Option<Arc<BleGuest>>,
        listener: Arc<dyn MatchListener>,
        trust: Option<Vec<u8>>,
    ) -> Result<Arc<Match>, BancoError> {
        guard(|| match (&player.lan, &player.ble_device, ble) {
            (Some(lan), Some(device), Some(ble)) => {
                let info = lan.to_info()?;
                let (over_ble, ble_fp) = ble.route_to(device);
                if ble_fp.is_some_and(|fp| fp != info.fingerprint) {
                    // Listed apart in truth: only the LAN record is this entry's.
                    return Match::join_peer(player_name, lan.clone(), listener, trust);
                }
                let routes: Vec<Box<dyn Connector>> =
                    vec![Box::new(Dialer::to_peer(&info)), over_ble];
                let any = AnyOf::new(routes).map_err(|e| BancoError::Network(e.to_string()))?;
                let listed = Some(info.fingerprint.as_str()).filter(|fp| !fp.is_empty());
                let inner = NetMatch::join_with(
                    &player_name,
                    any,
                    listed,
                    &[],
                    trust_of(trust)?,
                    Arc::new(Relay(listener)),
                )?;
                Ok(Arc::new(Match { inner }))
            }
            (Some(lan), _, _) => Match::join_peer(player_name, lan.clone(), listener, trust),
            (None, Some(device), Some(ble)) => {
                Match::join_ble(player_name, ble, device.clone(), listener, trust)
            }
            (None, Some(_), None) => Err(BancoError::InvalidArgument(format!(
                "{} is only reachable over Bluetooth: pass the BleGuest",
                player.name
            ))),
            (None, None, _) => Err(BancoError::InvalidArgument(format!(
                "{} has no way to be reached",
                player.name
            ))),
        })
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, clippy::panic)]
    use super::*;

    #[derive(Default)]
    struct Seen(Mutex<Vec<String>>);

    impl NearbyListener for Seen {
        fn on_player_found(&self, p: NearbyPlayer) {
            lock(&self.0).push(format!("found {} {:?}", p.name, p.transports));
        }
        fn on_player_updated(&self, p: NearbyPlayer) {
            lock(&self.0).push(format!(
                "updated {} {:?} {:?}",
                p.name, p.transports, p.preferred
            ));
        }
        fn on_player_lost(&self, key: String) {
            lock(&self.0).push(format!("lost {key}"));
        }
        fn on_error(&self, message: String) {
            lock(&self.0).push(format!("error {message}"));
        }
    }

    fn lan_peer(fp: &str) -> LobbyPeer {
        LobbyPeer {
            id: "an._banco._tcp.local.".into(),
            name: "An".into(),
            games: vec![GameKind::Xiangqi],
            protocol_version: Some(3),
            fingerprint: fp.into(),
            host: "an.local.".into(),
            port: 7368,
            addresses: vec!["192.168.1.20:7368".into()],
        }
    }

    #[test]
    fn both_discoveries_feed_one_list() {
        let seen = Arc::new(Seen::default());
        let feed = Feed {
            nearby: Mutex::new(Nearby::default()),
            listener: seen.clone(),
        };
        BleScanListener::on_peer_found(&feed, ble_peer("dev-1", "a1b2"));
        LobbyListener::on_peer_found(&feed, lan_peer("a1b2"));
        LobbyListener::on_peer_updated(&feed, lan_peer("a1b2"));
        LobbyListener::on_peer_lost(&feed, "an._banco._tcp.local.".into());
        assert_eq!(
            *lock(&seen.0),
            [
                "found An [Ble]",
                "updated An [Lan, Ble] Lan",
                "updated An [Ble] Ble"
            ]
        );
    }

    fn ble_peer(device: &str, fp: &str) -> BlePeer {
        BlePeer {
            device: device.into(),
            name: "An".into(),
            games: vec![GameKind::Xiangqi],
            protocol_version: 3,
            fingerprint: fp.into(),
        }
    }

    #[test]
    fn players_leave_when_mdns_says_so_or_bluetooth_stops_seeing_them() {
        let seen = Arc::new(Seen::default());
        let feed = Feed {
            nearby: Mutex::new(Nearby::default()),
            listener: seen.clone(),
        };
        let t0 = Instant::now();
        let s = |secs| t0 + Duration::from_secs(secs);
        feed.ble_found(&ble_peer("dev-1", "a1b2"), s(0));
        feed.ble_found(&ble_peer("dev-2", "c3d4"), s(0));
        LobbyListener::on_peer_found(&feed, lan_peer("a1b2"));
        // dev-2 keeps advertising; dev-1 (also on the LAN) goes quiet.
        assert!(feed.ble_seen("dev-2", s(20)));
        assert!(!feed.ble_seen("dev-9", s(20)), "not listed: to be read");
        feed.prune(s(30));
        feed.prune(s(31));
        LobbyListener::on_peer_lost(&feed, "an._banco._tcp.local.".into());
        feed.prune(s(51));
        assert_eq!(
            *lock(&seen.0),
            [
                "found An [Ble]",
                "found An [Ble]",
                "updated An [Lan, Ble] Lan",
                "updated An [Lan] Lan",
                "lost fp:a1b2",
                "lost fp:c3d4"
            ]
        );
    }

    /// revB #4: `stop` used to shut the LAN lobby down for good; browsing again failed
    /// with "the lobby is stopped".
    #[test]
    fn browsing_again_after_stop_starts_again() {
        let lobby = NearbyLobby::new(vec![], true, None).unwrap();
        let seen = Arc::new(Seen::default());
        lobby.browse(seen.clone()).unwrap();
        lobby.stop().unwrap();
        lobby.browse(seen.clone()).unwrap();
        lobby.stop().unwrap();
        lobby.stop().unwrap();
        // The LAN lobby alone: advertising starts mDNS again too, withdrawing after a stop
        // has nothing to do.
        let lan = lobby.lan.clone().unwrap();
        let ad = lan.advertise("An".into(), 7368).unwrap();
        lan.stop().unwrap();
        lan.withdraw(ad).unwrap();
        let feed = Arc::new(Feed {
            nearby: Mutex::new(Nearby::default()),
            listener: seen,
        });
        lan.browse(feed).unwrap();
        lan.stop().unwrap();
    }

    #[test]
    fn joining_needs_a_way_to_reach_the_player() {
        struct Nobody;
        impl MatchListener for Nobody {
            fn on_event(&self, _: crate::net::MatchEvent) {}
        }
        let mut player = NearbyPlayer {
            key: "ble:dev-1".into(),
            name: "An".into(),
            games: vec![],
            protocol_version: None,
            fingerprint: String::new(),
            transports: vec![NearbyTransport::Ble],
            preferred: NearbyTransport::Ble,
            lan: None,
            ble_device: Some("dev-1".into()),
        };
        let e = Match::join_nearby("B".into(), player.clone(), None, Arc::new(Nobody), None);
        assert!(matches!(e, Err(BancoError::InvalidArgument(m)) if m.contains("BleGuest")));
        player.ble_device = None;
        let e = Match::join_nearby("B".into(), player, None, Arc::new(Nobody), None);
        assert!(matches!(e, Err(BancoError::InvalidArgument(m)) if m.contains("no way")));
    }

    #[test]
    fn joining_an_entry_whose_record_copied_a_fingerprint_is_refused_the_real_one_joins() {
        use crate::net::MatchEvent;
        use crate::tests_match::{listener, next};
        let host = |trust: Vec<u8>| {
            let (events, rx) = listener();
            let m = Match::host(
                "An".into(),
                "127.0.0.1:0".into(),
                false,
                vec![],
                None,
                events,
                Some(trust),
            )
            .unwrap();
            (m, rx)
        };
        let an_trust = crate::net::new_trust().unwrap();
        let an_fp = crate::net::trust_fingerprint(an_trust.clone()).unwrap();
        let (an, _an_rx) = host(an_trust);
        let (evil, _evil_rx) = host(crate::net::new_trust().unwrap());
        let record = |id: &str, address: String| LobbyPeer {
            id: id.into(),
            addresses: vec![address],
            ..lan_peer(&an_fp.replace('-', ""))
        };
        let feed = Feed {
            nearby: Mutex::new(Nearby::default()),
            listener: Arc::new(Seen::default()),
        };
        LobbyListener::on_peer_found(&feed, record("an._banco", an.address().unwrap()));
        LobbyListener::on_peer_found(&feed, record("evil._banco", evil.address().unwrap()));
        let entry = |key: &str| NearbyPlayer::from(lock(&feed.nearby).get(key).unwrap());
        let (real, forged) = (
            entry(&format!("fp:{}", an_fp.replace('-', ""))),
            entry("lan:evil._banco"),
        );
        assert_eq!(
            forged.fingerprint, real.fingerprint,
            "the copy claims An's key"
        );

        let (events, rx) = listener();
        let fooled = Match::join_nearby("Binh".into(), forged, None, events, None).unwrap();
        let reason = next(&rx, |e| match e {
            MatchEvent::Closed { reason } => Some(reason.clone()),
            MatchEvent::VerifyCode { .. } => panic!("a code shown for an impostor"),
            _ => None,
        });
        assert!(reason.contains("not the player listed"), "{reason}");
        fooled.leave().unwrap();
        evil.leave().unwrap();

        let (events, rx) = listener();
        let guest = Match::join_nearby("Binh".into(), real, None, events, None).unwrap();
        next(&rx, |e| {
            matches!(e, MatchEvent::VerifyCode { .. }).then_some(())
        });
        guest.leave().unwrap();
        an.leave().unwrap();
    }
}
