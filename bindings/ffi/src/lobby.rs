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
/// dropped; browsing or advertising after `stop` starts mDNS again.
#[derive(uniffi::Object)]
pub struct Lobby {
    /// The running mDNS daemon; `None` once stopped.
    discovery: Mutex<Option<Discovery>>,
    /// Where mDNS runs (to start it again after a stop).
    config: DiscoveryConfig,
    browser: BrowseThread,
}

/// The thread that hands a lobby's peer events to its listener, with its own stop flag. A
/// listener may call its lobby back from it (browse again, stop): the thread is then never
/// joined by itself, it ends once the callback returns.
#[derive(Default)]
struct BrowseThread(Mutex<Option<(Arc<AtomicBool>, JoinHandle<()>)>>);

impl BrowseThread {
    /// Stops the thread running now (if any) and starts one that reports the events `next`
    /// returns (waiting at most the given time for each) to `listener`.
    fn start(
        &self,
        mut next: impl FnMut(Duration) -> Option<PeerEvent> + Send + 'static,
        listener: Arc<dyn LobbyListener>,
    ) -> Result<(), BancoError> {
        self.stop();
        // Held until the new handle is stored: a listener that stops the lobby from the new
        // thread at once then waits here instead of finding nothing to stop.
        let mut slot = self.0.lock().unwrap_or_else(PoisonError::into_inner);
        let stop = Arc::new(AtomicBool::new(false));
        let flag = stop.clone();
        let handle = std::thread::Builder::new()
            .name("banco-lobby".into())
            .spawn(move || {
                while !stop.load(Ordering::Relaxed) {
                    let Some(e) = next(Duration::from_millis(200)) else {
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
        *slot = Some((flag, handle));
        Ok(())
    }

    fn stop(&self) {
        let old = self.0.lock().unwrap_or_else(PoisonError::into_inner).take();
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

impl Lobby {
    fn stop_browsing(&self) {
        self.browser.stop();
    }

    /// `f` with the running mDNS daemon, started again first if the lobby was stopped.
    fn with_discovery<R>(
        &self,
        f: impl FnOnce(&Discovery) -> Result<R, BancoError>,
    ) -> Result<R, BancoError> {
        let mut d = self
            .discovery
            .lock()
            .unwrap_or_else(PoisonError::into_inner);
        if d.is_none() {
            *d = Some(start_discovery(&self.config)?);
        }
        match d.as_ref() {
            Some(d) => f(d),
            None => Err(BancoError::Internal("mDNS did not start".to_owned())),
        }
    }
}

fn start_discovery(config: &DiscoveryConfig) -> Result<Discovery, BancoError> {
    Discovery::start(config).map_err(|e| BancoError::Network(e.to_string()))
}

#[uniffi::export]
impl Lobby {
    /// Starts mDNS on `interfaces` (names like `wlan0`; empty for every interface).
    #[uniffi::constructor]
    pub fn new(interfaces: Vec<String>) -> Result<Arc<Lobby>, BancoError> {
        guard(|| {
            let config = DiscoveryConfig::on_interfaces(interfaces);
            let discovery = start_discovery(&config)?;
            Ok(Arc::new(Lobby {
                discovery: Mutex::new(Some(discovery)),
                config,
                browser: BrowseThread::default(),
            }))
        })
    }

    /// Starts browsing: `listener` hears about every Banco host (including ones already
    /// there). Browsing again replaces the listener; after [`Lobby::stop`] it starts mDNS
    /// again.
    pub fn browse(&self, listener: Arc<dyn LobbyListener>) -> Result<(), BancoError> {
        guard(|| {
            let browser = self
                .with_discovery(|d| d.browse().map_err(|e| BancoError::Network(e.to_string())))?;
            self.browser
                .start(move |wait| browser.recv(Some(wait)), listener)
        })
    }

    /// Advertises a host on `port` under `player_name`; returns the advertisement's id.
    /// ([`crate::Match::host`] can advertise by itself; this is for custom set-ups.)
    /// The name follows the rule of [`crate::Match::host`]'s: cleaned of control and
    /// invisible characters, and refused with `InvalidArgument` when nothing is left.
    /// After [`Lobby::stop`] it starts mDNS again.
    pub fn advertise(&self, player_name: String, port: u16) -> Result<String, BancoError> {
        guard(|| {
            let name = banco_app::network::player_name(&player_name)?;
            let ad = Advertisement::new(
                &name,
                <banco_app::any::AnyGame as banco_game::MatchGame>::kinds().to_vec(),
                u16::from(PROTOCOL_VERSION),
                "",
            );
            self.with_discovery(|d| {
                d.advertise(&ad, port)
                    .map_err(|e| BancoError::Network(e.to_string()))
            })
        })
    }

    /// Withdraws an advertisement made by [`Lobby::advertise`] (after [`Lobby::stop`],
    /// which withdrew them all, there is nothing to do).
    pub fn withdraw(&self, id: String) -> Result<(), BancoError> {
        guard(|| {
            let d = self
                .discovery
                .lock()
                .unwrap_or_else(PoisonError::into_inner);
            match d.as_ref() {
                Some(d) => d
                    .withdraw(&id)
                    .map_err(|e| BancoError::Network(e.to_string())),
                None => Ok(()),
            }
        })
    }

    /// Stops browsing and advertising (mDNS stops: its advertisements are withdrawn).
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

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, clippy::expect_used)]
    use super::*;
    use std::sync::mpsc::{self, Sender};

    fn peer(id: &str) -> PeerInfo {
        PeerInfo {
            id: id.to_owned(),
            name: id.to_owned(),
            games: Vec::new(),
            protocol_version: None,
            fingerprint: String::new(),
            host: "h.local.".to_owned(),
            port: 1,
            addresses: vec!["192.0.2.1:1".parse().unwrap()],
        }
    }

    /// Events from a list, then nothing.
    fn script(ids: &[&str]) -> impl FnMut(Duration) -> Option<PeerEvent> + Send + 'static {
        let mut events: Vec<PeerEvent> = ids
            .iter()
            .rev()
            .map(|id| PeerEvent::PeerFound(peer(id)))
            .collect();
        move |wait| {
            events.pop().or_else(|| {
                std::thread::sleep(wait.min(Duration::from_millis(5)));
                None
            })
        }
    }

    /// A listener that, on the first peer, browses again (replacing itself) and on the
    /// second stops browsing, all from the lobby's own thread.
    struct CallsBack {
        thread: Arc<BrowseThread>,
        seen: Sender<String>,
        me: Mutex<Option<Arc<dyn LobbyListener>>>,
    }

    impl LobbyListener for CallsBack {
        fn on_peer_found(&self, peer: LobbyPeer) {
            if peer.id == "first" {
                let me = self.me.lock().unwrap().clone().unwrap();
                self.thread.start(script(&["second"]), me).unwrap();
            } else {
                self.thread.stop();
            }
            let _ = self.seen.send(peer.id);
        }
        fn on_peer_updated(&self, _peer: LobbyPeer) {}
        fn on_peer_lost(&self, _id: String) {}
        fn on_error(&self, _message: String) {}
    }

    /// Before, the lobby joined its own thread here (a deadlock error, the callback cut
    /// short by a panic): the listener never got past its call.
    #[test]
    fn a_listener_may_browse_again_and_stop_from_the_lobby_thread() {
        let thread = Arc::new(BrowseThread::default());
        let (seen, got) = mpsc::channel();
        let listener = Arc::new(CallsBack {
            thread: Arc::clone(&thread),
            seen,
            me: Mutex::new(None),
        });
        let as_dyn: Arc<dyn LobbyListener> = listener.clone();
        *listener.me.lock().unwrap() = Some(as_dyn.clone());
        thread.start(script(&["first"]), as_dyn).unwrap();
        let wait = Duration::from_secs(10);
        assert_eq!(got.recv_timeout(wait).as_deref(), Ok("first"));
        assert_eq!(got.recv_timeout(wait).as_deref(), Ok("second"));
        // Stopped from its own thread: nothing runs any more, and stopping again is a no-op.
        assert!(thread.0.lock().unwrap().is_none());
        thread.stop();
        *listener.me.lock().unwrap() = None;
    }
}
