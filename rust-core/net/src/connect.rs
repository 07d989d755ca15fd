//! The high-level helpers the command line and the apps call: [`host`] a match (listen, and
//! advertise on the LAN), [`join`] one by address, [`browse`] for hosts, [`join_named`] a host
//! by its display name (all re-exported at the crate root).

use std::net::SocketAddr;
use std::time::{Duration, Instant};

use std::sync::Arc;

use crate::discovery::{
    Advertisement, Discovery, DiscoveryConfig, PeerBrowser, PeerEvent, PeerInfo,
};
use crate::driver::connector::lookup;
use crate::driver::{Acceptor, Dialer};
use crate::error::{DiscoveryError, LinkError, NetError};
use crate::tcp::{TcpLink, TcpListenerLink};

/// The default TCP port of `banco host`.
pub const DEFAULT_PORT: u16 = 7368;

/// What to advertise while hosting, and on which interfaces.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Advertise {
    /// The advertisement.
    pub ad: Advertisement,
    /// Where the mDNS daemon works.
    pub config: DiscoveryConfig,
}

/// A hosted match: a TCP listener, advertised on the LAN if asked. Dropping it withdraws the
/// advertisement and stops listening.
#[derive(Debug)]
pub struct Host {
    // Declared first so it is dropped (advertisement withdrawn) before the listener closes.
    discovery: Option<Discovery>,
    listener: Arc<TcpListenerLink>,
    service: Option<String>,
}

/// Listens on `listen` (port 0 picks one) and, with `advertise`, publishes the host with mDNS.
///
/// ```
/// use banco_net::{Link, host, join};
/// use std::time::Duration;
///
/// // Host on a free loopback port without mDNS, join it, exchange a frame.
/// let host = host("127.0.0.1:0".parse().unwrap(), None)?;
/// let guest = join(&host.local_addr().to_string(), Duration::from_secs(2))?;
/// let link = host.accept(Some(Duration::from_secs(2)))?.expect("the guest");
/// guest.send(b"hello")?;
/// assert_eq!(link.recv(Some(Duration::from_secs(2)))?, Some(b"hello".to_vec()));
/// # Ok::<(), banco_net::NetError>(())
/// ```
pub fn host(listen: SocketAddr, advertise: Option<Advertise>) -> Result<Host, NetError> {
    let listener = Arc::new(TcpListenerLink::bind(listen)?);
    let (discovery, service) = match advertise {
        None => (None, None),
        Some(Advertise { ad, config }) => {
            let discovery = Discovery::start(&config)?;
            let service = discovery.advertise(&ad, listener.local_addr().port())?;
            (Some(discovery), Some(service))
        }
    };
    Ok(Host {
        discovery,
        listener,
        service,
    })
}

impl Host {
    /// The listening address (with the real port).
    pub fn local_addr(&self) -> SocketAddr {
        self.listener.local_addr()
    }

    /// The addresses a guest can dial to reach this host, best first: where it listens, or
    /// when it listens on every interface (`0.0.0.0`) this machine's LAN addresses with the
    /// port ([`crate::reachable::reachable`]).
    pub fn reachable(&self) -> Vec<SocketAddr> {
        crate::reachable::reachable(self.local_addr())
    }

    /// The mDNS service name, when advertised.
    pub fn service_name(&self) -> Option<&str> {
        self.service.as_deref()
    }

    /// Waits for a guest: `Ok(None)` when `timeout` passes first.
    pub fn accept(&self, timeout: Option<Duration>) -> Result<Option<TcpLink>, LinkError> {
        self.listener.accept(timeout)
    }

    /// A connector accepting on this host's listener, for a [`Driver`](crate::driver::Driver)
    /// (it keeps the listener open after the `Host` is dropped).
    pub fn acceptor(&self) -> Acceptor {
        Acceptor::new(Arc::clone(&self.listener))
    }

    /// Withdraws the advertisement (waiting for the goodbye to go out) and stops listening.
    pub fn shutdown(mut self) -> Result<(), NetError> {
        if let Some(d) = self.discovery.take() {
            d.shutdown()?;
        }
        Ok(())
    }
}

/// Connects to `addr` given as `host:port`, `ip:port` or `[ipv6%scope]:port`, blocking
/// (a name is looked up here first: see [`dialer`] for a connector that does it on its own
/// thread).
pub fn join(addr: &str, timeout: Duration) -> Result<TcpLink, NetError> {
    let addrs = match target(addr)? {
        Ok(a) => vec![a],
        Err(name) => lookup(name)?,
    };
    Ok(TcpLink::connect_any(&addrs, timeout)?)
}

/// A connector dialling `addr` (as for [`join`]) again and again, for a
/// [`Driver`](crate::driver::Driver). It returns at once: a literal address is parsed
/// here, and a name is looked up by the connector on the driver's connect thread at every
/// attempt ([`Dialer::named`]: a failed lookup is that attempt's
/// [`LinkError::Lookup`]). Only an `addr` that is no `host:port` at all is refused here.
///
/// ```
/// use banco_net::{NetError, dialer};
/// assert!(dialer("192.168.1.20:7368").is_ok());
/// assert!(dialer("nonexistent.invalid:7368").is_ok()); // looked up when dialled
/// assert!(matches!(dialer("no port here"), Err(NetError::BadAddress(_))));
/// ```
pub fn dialer(addr: &str) -> Result<Dialer, NetError> {
    Ok(match target(addr)? {
        Ok(a) => Dialer::new(vec![a]),
        Err(name) => Dialer::named(name),
    })
}

/// `addr` as a literal address (`Ok`), or a `host:port` to look up (`Err`); refused when it
/// is neither.
fn target(addr: &str) -> Result<Result<SocketAddr, &str>, NetError> {
    if let Ok(a) = addr.parse::<SocketAddr>() {
        return Ok(Ok(a));
    }
    let bad = || NetError::BadAddress(addr.to_owned());
    let (host, port) = addr.rsplit_once(':').ok_or_else(bad)?;
    if host.trim().is_empty() || port.parse::<u16>().is_err() {
        return Err(bad());
    }
    Ok(Err(addr))
}

/// Connects to a discovered peer, trying its addresses best first.
pub fn join_peer(peer: &PeerInfo, timeout: Duration) -> Result<TcpLink, LinkError> {
    TcpLink::connect_any(&peer.addresses, timeout)
}

/// A running browse with the daemon it owns.
#[derive(Debug)]
pub struct Browser {
    // The browser must go before the daemon.
    peers: PeerBrowser,
    discovery: Discovery,
}

/// Starts an mDNS daemon and browses for hosts.
pub fn browse(config: &DiscoveryConfig) -> Result<Browser, NetError> {
    let discovery = Discovery::start(config)?;
    let peers = discovery.browse()?;
    Ok(Browser { peers, discovery })
}

impl Browser {
    /// Waits for the next event; `None` when `timeout` passed.
    pub fn recv(&self, timeout: Option<Duration>) -> Option<PeerEvent> {
        self.peers.recv(timeout)
    }

    /// Waits until a peer satisfying `accept` is found (or updated into one), for at most
    /// `timeout`. Daemon errors are skipped (they are not fatal to a browse).
    pub fn wait_for(
        &self,
        timeout: Duration,
        mut accept: impl FnMut(&PeerInfo) -> bool,
    ) -> Result<PeerInfo, NetError> {
        let deadline = crate::deadline_after(timeout);
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            if left.is_zero() {
                return Err(DiscoveryError::NotFound.into());
            }
            match self.recv(Some(left)) {
                Some(PeerEvent::PeerFound(p) | PeerEvent::PeerUpdated(p)) if accept(&p) => {
                    return Ok(p);
                }
                Some(_) => {}
                None => return Err(DiscoveryError::NotFound.into()),
            }
        }
    }

    /// Stops browsing and shuts the daemon down.
    pub fn shutdown(self) -> Result<(), NetError> {
        let Browser { peers, discovery } = self;
        drop(peers);
        discovery.shutdown()?;
        Ok(())
    }
}

/// Browses until a host whose display name is `name` (ignoring case) appears, then connects.
pub fn join_named(
    name: &str,
    config: &DiscoveryConfig,
    timeout: Duration,
) -> Result<(TcpLink, PeerInfo), NetError> {
    let deadline = crate::deadline_after(timeout);
    let browser = browse(config)?;
    let peer = browser.wait_for(timeout, |p| p.name.eq_ignore_ascii_case(name))?;
    let left = deadline
        .saturating_duration_since(Instant::now())
        .max(Duration::from_secs(1));
    let link = join_peer(&peer, left)?;
    let _ = browser.shutdown();
    Ok((link, peer))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::link::Link;

    #[test]
    fn host_without_mdns_and_join_by_name_of_address() {
        let h = host("127.0.0.1:0".parse().unwrap(), None).unwrap();
        assert!(h.service_name().is_none());
        let port = h.local_addr().port();
        let guest = join(&format!("localhost:{port}"), Duration::from_secs(2)).unwrap();
        let link = h.accept(Some(Duration::from_secs(2))).unwrap().unwrap();
        link.send(b"hi").unwrap();
        assert_eq!(
            guest.recv(Some(Duration::from_secs(2))).unwrap(),
            Some(b"hi".to_vec())
        );
        h.shutdown().unwrap();
    }

    #[test]
    fn bad_addresses() {
        assert!(matches!(
            join("no port here", Duration::from_millis(100)),
            Err(NetError::BadAddress(_))
        ));
        for bad in ["no port here", ":7368", "phone.local:", "phone.local:99999"] {
            assert!(matches!(dialer(bad), Err(NetError::BadAddress(_))), "{bad}");
        }
    }

    #[test]
    fn a_name_is_looked_up_by_the_dialer_at_each_attempt_with_the_reason_kept() {
        use crate::driver::Connector;
        // `.invalid` never resolves (RFC 6761): no network is needed to fail.
        let mut d = dialer("nonexistent.invalid:7368").expect("no lookup before dialling");
        for _ in 0..2 {
            let e = d
                .connect(Duration::from_secs(1))
                .err()
                .expect("no such host");
            assert!(
                matches!(e, LinkError::Lookup { ref name, .. } if name == "nonexistent.invalid")
            );
            let text = e.to_string();
            assert!(
                text.starts_with("cannot find nonexistent.invalid: "),
                "{text}"
            );
            assert!(
                text.len() > "cannot find nonexistent.invalid: ".len(),
                "{text}"
            );
        }
        assert!(matches!(
            join("nonexistent.invalid:7368", Duration::from_secs(1)),
            Err(NetError::Link(LinkError::Lookup { .. }))
        ));
        // A name that resolves is dialled.
        let h = host("127.0.0.1:0".parse().unwrap(), None).unwrap();
        let mut d = dialer(&format!("localhost:{}", h.local_addr().port())).unwrap();
        let link = d.connect(Duration::from_secs(2)).unwrap();
        link.send(b"hi").unwrap();
        let back = h.accept(Some(Duration::from_secs(2))).unwrap().unwrap();
        assert_eq!(
            back.recv(Some(Duration::from_secs(2))).unwrap(),
            Some(b"hi".to_vec())
        );
    }

    #[test]
    fn join_peer_uses_the_addresses_in_order() {
        let h = host("127.0.0.1:0".parse().unwrap(), None).unwrap();
        let dead = std::net::TcpListener::bind("127.0.0.1:0")
            .unwrap()
            .local_addr()
            .unwrap();
        let peer = PeerInfo {
            id: "x._banco._tcp.local.".into(),
            name: "x".into(),
            games: vec![],
            protocol_version: Some(1),
            fingerprint: String::new(),
            host: "h.local.".into(),
            port: h.local_addr().port(),
            addresses: vec![dead, h.local_addr()],
        };
        let link = join_peer(&peer, Duration::from_secs(1)).unwrap();
        assert_eq!(link.peer_addr(), h.local_addr());
    }
}
