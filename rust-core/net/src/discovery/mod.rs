//! LAN discovery with mDNS / DNS-SD (`mdns-sd`): advertise `_banco._tcp.local.` with a TXT
//! record (display name, games offered, protocol version, short key fingerprint) and browse
//! for peers, reported as [`PeerEvent`]s.
//!
//! ```no_run
//! use banco_net::discovery::{Advertisement, Discovery, DiscoveryConfig, PeerEvent};
//! use banco_game::GameKind;
//! use std::time::Duration;
//!
//! let discovery = Discovery::start(&DiscoveryConfig::default())?;
//! let ad = Advertisement::new("Alice", vec![GameKind::Xiangqi], 1, "a1b2c3");
//! discovery.advertise(&ad, 4000)?;
//! let browser = discovery.browse()?;
//! while let Some(event) = browser.recv(Some(Duration::from_secs(3))) {
//!     if let PeerEvent::PeerFound(peer) = event {
//!         println!("{} at {:?}", peer.name, peer.addresses);
//!     }
//! }
//! discovery.shutdown()?;
//! # Ok::<(), banco_net::DiscoveryError>(())
//! ```
//!
//! Tests never start the daemon in the machine's own network namespace: the parsing and
//! bookkeeping live in [`peer`] and are unit-tested; the daemon itself is exercised by
//! `tests/net/mdns-netns.sh` inside network namespaces it creates.

pub mod peer;

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::mpsc::{self, Receiver, Sender};
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};
use std::thread::{self, JoinHandle};
use std::time::Duration;

use banco_game::{GameKind, MatchGame};
use banco_protocol::{PROTOCOL_VERSION, Session};
use mdns_sd::{
    DaemonEvent, DaemonStatus, IfKind, ScopedIp, ServiceDaemon, ServiceEvent, ServiceInfo,
};

pub use peer::{PeerEvent, PeerInfo};
use peer::{PeerTracker, TXT_FINGERPRINT, TXT_GAMES, TXT_NAME, TXT_VERSION};

use crate::error::DiscoveryError;

/// The DNS-SD service type of Banco.
pub const SERVICE_TYPE: &str = "_banco._tcp.local.";
/// Longest display name put in an advertisement, in bytes (longer names are cut at a
/// character boundary; an instance name may not exceed 63 bytes).
pub const MAX_NAME_BYTES: usize = 40;
/// How long [`Discovery::shutdown`] waits for the daemon.
const SHUTDOWN_WAIT: Duration = Duration::from_secs(3);

/// Where the daemon works.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DiscoveryConfig {
    /// Network interfaces to use, by name (`wlan0`); empty means every interface.
    pub interfaces: Vec<String>,
    /// UDP port of mDNS: 5353 except in experiments.
    pub mdns_port: u16,
}

impl Default for DiscoveryConfig {
    fn default() -> Self {
        DiscoveryConfig {
            interfaces: Vec::new(),
            mdns_port: mdns_sd::MDNS_PORT,
        }
    }
}

impl DiscoveryConfig {
    /// Every interface, standard port, restricted to `interfaces` if not empty.
    pub fn on_interfaces<S: Into<String>>(
        interfaces: impl IntoIterator<Item = S>,
    ) -> DiscoveryConfig {
        DiscoveryConfig {
            interfaces: interfaces.into_iter().map(Into::into).collect(),
            ..Self::default()
        }
    }
}

/// What a host advertises about itself.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Advertisement {
    /// Display name (cut to [`MAX_NAME_BYTES`]).
    pub name: String,
    /// Games offered.
    pub games: Vec<GameKind>,
    /// Protocol version spoken.
    pub protocol_version: u16,
    /// Short fingerprint of the static key, lower-case hex (a few bytes), or empty.
    pub fingerprint: String,
}

/// A name as an advertisement carries it, sent or received (mDNS TXT records, the BLE info
/// characteristic): cleaned by [`clean_name`](banco_protocol::name::clean_name), the one rule
/// of every peer name (control, bidirectional and invisible characters removed, white space
/// collapsed, `unnamed` when nothing is left), then cut to [`MAX_NAME_BYTES`] at a character
/// boundary. A received name is read with the same rule, so what a lobby shows of a peer is
/// what the peer would publish of it.
///
/// ```
/// use banco_net::discovery::{MAX_NAME_BYTES, advertised_name};
/// assert_eq!(advertised_name(" Bob\u{202e}  the  Builder "), "Bob the Builder");
/// let long = advertised_name(&"象".repeat(30)); // 3 bytes a character
/// assert_eq!(long, "象".repeat(13));
/// assert!(long.len() <= MAX_NAME_BYTES);
/// ```
pub fn advertised_name(raw: &str) -> String {
    let clean = banco_protocol::name::clean_name(raw);
    let mut out = String::new();
    for c in clean.chars() {
        if out.len() + c.len_utf8() > MAX_NAME_BYTES {
            break;
        }
        out.push(c);
    }
    out.truncate(out.trim_end().len());
    out
}

impl Advertisement {
    /// An advertisement.
    pub fn new(
        name: &str,
        games: Vec<GameKind>,
        protocol_version: u16,
        fingerprint: &str,
    ) -> Advertisement {
        Advertisement {
            name: name.to_owned(),
            games,
            protocol_version,
            fingerprint: fingerprint.to_owned(),
        }
    }

    /// What a host running `session` advertises: its name, exactly the games it offers
    /// ([`Session::offers`]), the protocol version and its key fingerprint.
    pub fn of_session<G: MatchGame>(session: &Session<G>) -> Advertisement {
        Advertisement::new(
            session.name(),
            session.offers().to_vec(),
            u16::from(PROTOCOL_VERSION),
            &session.local_key().fingerprint(),
        )
    }

    /// The display name as it is advertised ([`advertised_name`] of the name).
    pub fn display_name(&self) -> String {
        advertised_name(&self.name)
    }

    /// The fingerprint keeping only hex digits, at most 16 of them.
    fn clean_fingerprint(&self) -> String {
        self.fingerprint
            .chars()
            .filter(char::is_ascii_hexdigit)
            .take(16)
            .collect::<String>()
            .to_ascii_lowercase()
    }

    /// The DNS-SD instance name: the display name, plus the fingerprint when there is one so
    /// that two players with the same name stay apart.
    pub fn instance_name(&self) -> String {
        let fp = self.clean_fingerprint();
        if fp.is_empty() {
            self.display_name()
        } else {
            format!("{}-{fp}", self.display_name())
        }
    }

    /// The mDNS host name: `banco-<fingerprint>.local.`, or a hash of the instance name.
    pub fn host_name(&self) -> String {
        let fp = self.clean_fingerprint();
        let tag = if fp.is_empty() {
            // FNV-1a: stable across runs and platforms.
            let h = self
                .instance_name()
                .bytes()
                .fold(0xcbf2_9ce4_8422_2325u64, |h, b| {
                    (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
                });
            format!("{:012x}", h >> 16)
        } else {
            fp
        };
        format!("banco-{tag}.local.")
    }

    /// The TXT record, as key/value pairs.
    pub fn txt(&self) -> Vec<(&'static str, String)> {
        let games: Vec<&str> = self.games.iter().map(|g| g.name()).collect();
        vec![
            (TXT_NAME, self.display_name()),
            (TXT_GAMES, games.join(",")),
            (TXT_VERSION, self.protocol_version.to_string()),
            (TXT_FINGERPRINT, self.clean_fingerprint()),
        ]
    }

    /// The `mdns-sd` service record for a host listening on `port`, addresses filled in by the
    /// daemon, restricted to `interfaces` if any.
    fn service_info(
        &self,
        port: u16,
        interfaces: &[String],
    ) -> Result<ServiceInfo, DiscoveryError> {
        let txt = self.txt();
        let mut info = ServiceInfo::new(
            SERVICE_TYPE,
            &self.instance_name(),
            &self.host_name(),
            "",
            port,
            &txt[..],
        )
        .map_err(|e| DiscoveryError::InvalidAdvertisement(e.to_string()))?
        .enable_addr_auto();
        if !interfaces.is_empty() {
            info.set_interfaces(interfaces.iter().map(|i| IfKind::Name(i.clone())).collect());
        }
        Ok(info)
    }
}

type Subscribers = Arc<Mutex<Vec<Sender<PeerEvent>>>>;

/// Runs a daemon command again while the daemon's command queue is full
/// ([`mdns_sd::Error::Again`]), a few times with a short pause.
fn again<T>(mut command: impl FnMut() -> mdns_sd::Result<T>) -> mdns_sd::Result<T> {
    for _ in 0..20 {
        match command() {
            Err(mdns_sd::Error::Again) => thread::sleep(Duration::from_millis(10)),
            done => return done,
        }
    }
    command()
}

fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(PoisonError::into_inner)
}

/// A running mDNS daemon: advertise, browse, shut down. Dropping it shuts the daemon down
/// without waiting; [`Discovery::shutdown`] waits for it and reports failures.
pub struct Discovery {
    daemon: ServiceDaemon,
    interfaces: Vec<String>,
    registered: Mutex<Vec<String>>,
    subscribers: Subscribers,
    monitor: Option<JoinHandle<()>>,
    /// The number of the latest browse: only its [`PeerBrowser`] stops the query.
    latest_browse: Arc<AtomicU64>,
    down: bool,
}

impl std::fmt::Debug for Discovery {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Discovery")
            .field("interfaces", &self.interfaces)
            .finish_non_exhaustive()
    }
}

impl Discovery {
    /// Starts the daemon (a thread of `mdns-sd`) on the configured interfaces.
    pub fn start(config: &DiscoveryConfig) -> Result<Discovery, DiscoveryError> {
        let daemon = ServiceDaemon::new_with_port(config.mdns_port)?;
        if !config.interfaces.is_empty() {
            again(|| daemon.disable_interface(IfKind::All))?;
            let names: Vec<IfKind> = config
                .interfaces
                .iter()
                .map(|i| IfKind::Name(i.clone()))
                .collect();
            again(|| daemon.enable_interface(names.clone()))?;
        }
        let subscribers: Subscribers = Arc::default();
        let events = again(|| daemon.monitor())?;
        let monitor = {
            let subscribers = Arc::clone(&subscribers);
            thread::Builder::new()
                .name("banco-mdns-monitor".into())
                .spawn(move || {
                    // Ends when the daemon shuts down and drops its sender.
                    while let Ok(event) = events.recv() {
                        if let DaemonEvent::Error(e) = event {
                            lock(&subscribers)
                                .retain(|s| s.send(PeerEvent::DaemonError(e.to_string())).is_ok());
                        }
                    }
                })
                .map_err(|e| DiscoveryError::Daemon(mdns_sd::Error::Msg(e.to_string())))?
        };
        Ok(Discovery {
            daemon,
            interfaces: config.interfaces.clone(),
            registered: Mutex::new(Vec::new()),
            subscribers,
            monitor: Some(monitor),
            latest_browse: Arc::new(AtomicU64::new(0)),
            down: false,
        })
    }

    /// Publishes `ad` for a host listening on TCP `port`. Returns the service's full name
    /// (for [`Discovery::withdraw`]). The daemon probes the name first; if another host holds
    /// it, the daemon picks `name (2)` on its own.
    pub fn advertise(&self, ad: &Advertisement, port: u16) -> Result<String, DiscoveryError> {
        let info = ad.service_info(port, &self.interfaces)?;
        let fullname = info.get_fullname().to_owned();
        again(|| self.daemon.register(info.clone()))?;
        lock(&self.registered).push(fullname.clone());
        Ok(fullname)
    }

    /// Withdraws an advertisement (sends the goodbye packets).
    pub fn withdraw(&self, fullname: &str) -> Result<(), DiscoveryError> {
        lock(&self.registered).retain(|n| n != fullname);
        let status = again(|| self.daemon.unregister(fullname))?;
        // The status only tells whether the name was registered; waiting lets the goodbye go.
        let _ = status.recv_timeout(Duration::from_secs(1));
        Ok(())
    }

    /// Starts browsing for Banco hosts. The daemon keeps one query per service type, so a
    /// new browse replaces the one before (whose [`PeerBrowser`] then hears nothing more);
    /// dropping a replaced browser leaves the new query running.
    pub fn browse(&self) -> Result<PeerBrowser, DiscoveryError> {
        let number = self.latest_browse.fetch_add(1, Ordering::SeqCst) + 1;
        let (tx, rx) = mpsc::channel();
        lock(&self.subscribers).push(tx.clone());
        let events = again(|| self.daemon.browse(SERVICE_TYPE))?;
        let thread = thread::Builder::new()
            .name("banco-mdns-browse".into())
            .spawn(move || {
                let mut tracker = PeerTracker::default();
                // Ends when the browse is stopped or the daemon shuts down.
                while let Ok(event) = events.recv() {
                    let out = match event {
                        ServiceEvent::ServiceResolved(r) => {
                            let ips = r.get_addresses().iter().map(scoped);
                            let peer = PeerInfo::from_parts(
                                r.get_fullname(),
                                r.get_hostname(),
                                r.get_port(),
                                ips,
                                |k| r.get_property_val_str(k),
                            );
                            tracker.resolved(peer)
                        }
                        ServiceEvent::ServiceRemoved(_, fullname) => {
                            tracker.removed(&fullname).into_iter().collect()
                        }
                        ServiceEvent::SearchStopped(_) => break,
                        _ => Vec::new(),
                    };
                    if out.into_iter().any(|e| tx.send(e).is_err()) {
                        break;
                    }
                }
            })
            .map_err(|e| DiscoveryError::Daemon(mdns_sd::Error::Msg(e.to_string())))?;
        Ok(PeerBrowser {
            events: rx,
            daemon: self.daemon.clone(),
            thread: Some(thread),
            number,
            latest: Arc::clone(&self.latest_browse),
        })
    }

    /// Withdraws every advertisement, stops the daemon and waits for it.
    pub fn shutdown(mut self) -> Result<(), DiscoveryError> {
        self.stop(SHUTDOWN_WAIT)
    }

    fn stop(&mut self, wait: Duration) -> Result<(), DiscoveryError> {
        if self.down {
            return Ok(());
        }
        self.down = true;
        let names = std::mem::take(&mut *lock(&self.registered));
        for name in names {
            if let Ok(status) = again(|| self.daemon.unregister(&name)) {
                let _ = status.recv_timeout(wait.min(Duration::from_secs(1)));
            }
        }
        let result = match again(|| self.daemon.shutdown()) {
            Ok(status) => match status.recv_timeout(wait) {
                Ok(DaemonStatus::Shutdown) | Err(mdns_sd::RecvTimeoutError::Disconnected) => Ok(()),
                Ok(_) | Err(mdns_sd::RecvTimeoutError::Timeout) => {
                    Err(DiscoveryError::ShutdownTimeout)
                }
            },
            Err(mdns_sd::Error::DaemonShutdown) => Ok(()),
            Err(e) => Err(e.into()),
        };
        if result.is_ok()
            && let Some(monitor) = self.monitor.take()
        {
            let _ = monitor.join();
        }
        result
    }
}

impl Drop for Discovery {
    fn drop(&mut self) {
        let _ = self.stop(Duration::ZERO);
    }
}

fn scoped(ip: &ScopedIp) -> (std::net::IpAddr, u32) {
    let scope = match ip {
        ScopedIp::V6(v6) => v6.scope_id().index,
        _ => 0,
    };
    (ip.to_ip_addr(), scope)
}

/// The stream of [`PeerEvent`]s of one browse. Dropping it stops the browse.
pub struct PeerBrowser {
    events: Receiver<PeerEvent>,
    daemon: ServiceDaemon,
    thread: Option<JoinHandle<()>>,
    /// This browse's number, and the latest one's.
    number: u64,
    latest: Arc<AtomicU64>,
}

impl std::fmt::Debug for PeerBrowser {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("PeerBrowser").finish_non_exhaustive()
    }
}

impl PeerBrowser {
    /// Waits for the next event; `None` when `timeout` passed or discovery stopped.
    pub fn recv(&self, timeout: Option<Duration>) -> Option<PeerEvent> {
        match timeout {
            None => self.events.recv().ok(),
            Some(t) => self.events.recv_timeout(t).ok(),
        }
    }

    /// The underlying channel, for callers that select over several.
    pub fn events(&self) -> &Receiver<PeerEvent> {
        &self.events
    }
}

impl Drop for PeerBrowser {
    fn drop(&mut self) {
        // A replaced browse's query is gone already (its thread ends with it): stopping the
        // service type's query now would stop the browse that replaced it.
        if self.latest.load(Ordering::SeqCst) != self.number {
            return;
        }
        if again(|| self.daemon.stop_browse(SERVICE_TYPE)).is_ok()
            && let Some(thread) = self.thread.take()
        {
            let _ = thread.join();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn advertisement_names_and_txt() {
        let ad = Advertisement::new(
            "Alice",
            vec![GameKind::Xiangqi, GameKind::Jieqi],
            1,
            "A1:B2:C3",
        );
        assert_eq!(ad.instance_name(), "Alice-a1b2c3");
        assert_eq!(ad.host_name(), "banco-a1b2c3.local.");
        let txt = ad.txt();
        assert_eq!(txt[0], ("name", "Alice".to_owned()));
        assert_eq!(txt[1], ("games", "xiangqi,jieqi".to_owned()));
        assert_eq!(txt[2], ("v", "1".to_owned()));
        assert_eq!(txt[3], ("fp", "a1b2c3".to_owned()));
        let info = ad.service_info(4000, &[]).unwrap();
        assert_eq!(info.get_fullname(), "Alice-a1b2c3._banco._tcp.local.");
        assert_eq!(info.get_property_val_str("games"), Some("xiangqi,jieqi"));
    }

    #[test]
    fn a_session_advertises_exactly_the_games_it_offers() {
        use banco_protocol::sim::CountingGame;
        use banco_protocol::{Identity, SessionConfig};
        let config = SessionConfig::new("Bà Ba", &[GameKind::Chess, GameKind::Jieqi]);
        let session: Session<CountingGame> =
            Session::new(config, Identity::from_secret([3; 32]), [4; 32]);
        let ad = Advertisement::of_session(&session);
        // The counting game cannot be jieqi: only chess is offered, and advertised.
        assert_eq!(ad.games, [GameKind::Chess]);
        assert_eq!(ad.name, "Bà Ba");
        assert_eq!(ad.protocol_version, u16::from(PROTOCOL_VERSION));
        assert_eq!(ad.fingerprint, session.local_key().fingerprint());
        assert_eq!(ad.txt()[1], ("games", "chess".to_owned()));
        assert_eq!(ad.txt()[2], ("v", PROTOCOL_VERSION.to_string()));
    }

    #[test]
    fn long_and_odd_names_are_tamed() {
        let ad = Advertisement::new(&"Tướng".repeat(20), vec![], 1, "");
        let name = ad.display_name();
        assert!(name.len() <= MAX_NAME_BYTES && name.starts_with("Tướng"));
        assert!(ad.host_name().starts_with("banco-") && ad.host_name().ends_with(".local."));
        assert_eq!(
            Advertisement::new("\n\t", vec![], 1, "").display_name(),
            banco_protocol::name::UNNAMED
        );
        assert_eq!(
            Advertisement::new(" Al\u{202e}ice\u{200b}  B ", vec![], 1, "").display_name(),
            "Alice B"
        );
        // Stable across runs.
        assert_eq!(
            ad.host_name(),
            Advertisement::new(&"Tướng".repeat(20), vec![], 1, "").host_name()
        );
        assert!(ad.service_info(1, &["eth0".to_owned()]).is_ok());
    }

    #[test]
    fn full_command_queue_is_retried() {
        let mut calls = 0;
        let r = again(|| {
            calls += 1;
            if calls < 3 {
                Err(mdns_sd::Error::Again)
            } else {
                Ok(calls)
            }
        });
        assert_eq!(r, Ok(3));
        assert_eq!(
            again(|| Err::<(), _>(mdns_sd::Error::Again)),
            Err(mdns_sd::Error::Again)
        );
        assert_eq!(
            again(|| Err::<(), _>(mdns_sd::Error::DaemonShutdown)),
            Err(mdns_sd::Error::DaemonShutdown)
        );
    }

    #[test]
    fn config_on_interfaces() {
        let c = DiscoveryConfig::on_interfaces(["veth0"]);
        assert_eq!(c.interfaces, vec!["veth0".to_owned()]);
        assert_eq!(c.mdns_port, 5353);
    }
}
