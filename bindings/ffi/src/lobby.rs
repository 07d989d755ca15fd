//! [`Lobby`]: advertise and browse Banco hosts on the local network (mDNS / DNS-SD,
//! `_banco._tcp.local.`); [`LobbyListener`] hears peers come, change and go.

use crate::error::{BancoError, guard, notify};
use crate::types::GameKind;
use banco_net::discovery::{Advertisement, Discovery, DiscoveryConfig, PeerEvent, PeerInfo};
use banco_protocol::PROTOCOL_VERSION;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, PoisonError};
use std::thread::JoinHandle;
use std::time::Duration;

/// A Banco host seen on the network.
#[derive(Clone, Debug, PartialEq, Eq, Hash, uniffi::Record)]
pub struct LobbyPeer {
    /// Stable id of the advertisement (its DNS-SD instance name).
    pub id: String,
    /// The player's display name.
    pub name: String,
    /// Games offered.
    pub games: Vec<GameKind>,
    /// Protocol version spoken, if advertised.
    pub protocol_version: Option<u16>,
    /// Short fingerprint of the host's key (hex), or empty.
    pub fingerprint: String,
    /// Host name.
    pub host: String,
    /// TCP port.
    pub port: u16,
    /// Addresses to connect to (`ip:port`), best first.
    pub addresses: Vec<String>,
}

impl LobbyPeer {
    /// The discovery record again, addresses checked (for joining).
    pub(crate) fn to_info(&self) -> Result<PeerInfo, BancoError> {
        let addresses: Vec<std::net::SocketAddr> = self
            .addresses
            .iter()
            .filter_map(|a| a.parse().ok())
            .collect();
        if addresses.is_empty() {
            return Err(BancoError::Network(format!(
                "{} has no address to connect to",
                self.name
            )));
        }
        Ok(PeerInfo {
            id: self.id.clone(),
            name: self.name.clone(),
            games: self.games.iter().map(|&g| g.into()).collect(),
            protocol_version: self.protocol_version,
            fingerprint: self.fingerprint.clone(),
            host: self.host.clone(),
            port: self.port,
            addresses,
        })
    }
}

impl From<PeerInfo> for LobbyPeer {
    fn from(p: PeerInfo) -> Self {
        LobbyPeer {
            id: p.id,
            name: p.name,
            games: p.games.into_iter().map(GameKind::from).collect(),
            protocol_version: p.protocol_version,
            fingerprint: p.fingerprint,
            host: p.host,
            port: p.port,
            addresses: p.addresses.iter().map(ToString::to_string).collect(),
        }
    }
}

/// Hears about hosts on the network. Calls come on a Rust-owned thread: a UI shell hops to
/// its UI thread.
#[uniffi::export(with_foreign)]
pub trait LobbyListener: Send + Sync {
    /// A new host.
    fn on_peer_found(&self, peer: LobbyPeer);
    /// A known host changed (name, addresses).
    fn on_peer_updated(&self, peer: LobbyPeer);
    /// A host went away.
    fn on_peer_lost(&self, id: String);
    /// Discovery reported a problem (it keeps going if it can).
    fn on_error(&self, message: String);
}

/// Discovery of Banco hosts on the LAN. Stops when [`Lobby::stop`] is called or it is
/// dropped.
#[derive(uniffi::Object)]
pub struct Lobby {
    discovery: Mutex<Option<Discovery>>,
    /// The browsing thread and its own stop flag.
    browser: Mutex<Option<(Arc<AtomicBool>, JoinHandle<()>)>>,
}

impl Lobby {
    fn stop_browsing(&self) {
        let old = self
            .browser
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .take();
        if let Some((stop, handle)) = old {
            stop.store(true, Ordering::Relaxed);
            // A listener that stops the lobby runs on the lobby's thread: it ends by itself
            // once the callback returns (joining it here would wait for ourselves).
            if handle.thread().id() != std::thread::current().id() {
                let _ = handle.join();
            }
        }
    }
}

#[uniffi::export]
impl Lobby {
    /// Starts mDNS on `interfaces` (names like `wlan0`; empty for every interface).
    #[uniffi::constructor]
    pub fn new(interfaces: Vec<String>) -> Result<Arc<Lobby>, BancoError> {
        guard(|| {
            let config = DiscoveryConfig::on_interfaces(interfaces);
            let discovery =
                Discovery::start(&config).map_err(|e| BancoError::Network(e.to_string()))?;
            Ok(Arc::new(Lobby {
                discovery: Mutex::new(Some(discovery)),
                browser: Mutex::new(None),
            }))
        })
    }

    /// Starts browsing: `listener` hears about every Banco host (including ones already
    /// there). Browsing again replaces the listener.
    pub fn browse(&self, listener: Arc<dyn LobbyListener>) -> Result<(), BancoError> {
        guard(|| {
            let browser = {
                let d = self
                    .discovery
                    .lock()
                    .unwrap_or_else(PoisonError::into_inner);
                let d = d
                    .as_ref()
                    .ok_or_else(|| BancoError::NotAvailable("the lobby is stopped".to_owned()))?;
                d.browse().map_err(|e| BancoError::Network(e.to_string()))?
            };
            self.stop_browsing();
            let stop = Arc::new(AtomicBool::new(false));
            let flag = stop.clone();
            let handle = std::thread::Builder::new()
                .name("banco-lobby".into())
                .spawn(move || {
                    while !stop.load(Ordering::Relaxed) {
                        let Some(e) = browser.recv(Some(Duration::from_millis(200))) else {
                            continue;
                        };
                        match e {
                            PeerEvent::PeerFound(p) => notify(|| listener.on_peer_found(p.into())),
                            PeerEvent::PeerUpdated(p) => {
                                notify(|| listener.on_peer_updated(p.into()));
                            }
                            PeerEvent::PeerLost { id } => notify(|| listener.on_peer_lost(id)),
                            PeerEvent::DaemonError(m) => notify(|| listener.on_error(m)),
                        }
                    }
                })
                .map_err(|e| BancoError::Internal(format!("cannot start the lobby thread: {e}")))?;
            *self.browser.lock().unwrap_or_else(PoisonError::into_inner) = Some((flag, handle));
            Ok(())
        })
    }

    /// Advertises a host on `port` under `player_name`; returns the advertisement's id.
    /// ([`crate::Match::host`] can advertise by itself; this is for custom set-ups.)
    pub fn advertise(&self, player_name: String, port: u16) -> Result<String, BancoError> {
        guard(|| {
            let d = self
                .discovery
                .lock()
                .unwrap_or_else(PoisonError::into_inner);
            let d = d
                .as_ref()
                .ok_or_else(|| BancoError::NotAvailable("the lobby is stopped".to_owned()))?;
            let ad = Advertisement::new(
                &player_name,
                <banco_app::any::AnyGame as banco_game::MatchGame>::kinds().to_vec(),
                u16::from(PROTOCOL_VERSION),
                "",
            );
            d.advertise(&ad, port)
                .map_err(|e| BancoError::Network(e.to_string()))
        })
    }

    /// Withdraws an advertisement made by [`Lobby::advertise`].
    pub fn withdraw(&self, id: String) -> Result<(), BancoError> {
        guard(|| {
            let d = self
                .discovery
                .lock()
                .unwrap_or_else(PoisonError::into_inner);
            let d = d
                .as_ref()
                .ok_or_else(|| BancoError::NotAvailable("the lobby is stopped".to_owned()))?;
            d.withdraw(&id)
                .map_err(|e| BancoError::Network(e.to_string()))
        })
    }

    /// Stops browsing and advertising.
    pub fn stop(&self) -> Result<(), BancoError> {
        guard(|| {
            self.stop_browsing();
            if let Some(d) = self
                .discovery
                .lock()
                .unwrap_or_else(PoisonError::into_inner)
                .take()
            {
                let _ = d.shutdown();
            }
            Ok(())
        })
    }
}

impl Drop for Lobby {
    fn drop(&mut self) {
        let _ = self.stop();
    }
}
