//! Where the driver gets links from, first and after every cut: a [`Connector`] dials
//! ([`Dialer`], [`Role::Initiator`]) or accepts ([`Acceptor`], [`Role::Responder`]).
//! [`from_fn`] turns a closure into one (tests wrap links in fault injectors this way).

use std::net::SocketAddr;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use crate::discovery::PeerInfo;
use crate::error::LinkError;
use crate::link::BoxLink;
use crate::tcp::{TcpLink, TcpListenerLink};

/// Which side of the Noise handshake a connector's links take.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Role {
    /// The side that dialled: it calls `Session::connect`.
    Initiator,
    /// The side that accepted: it calls `Session::accept`.
    Responder,
}

/// A source of links for the driver. `connect` runs on a thread of its own and may block for
/// up to `timeout`.
pub trait Connector: Send + 'static {
    /// The role of the links this connector makes.
    fn role(&self) -> Role;

    /// Makes a new link: dials, or waits for the peer to dial (a responder returns
    /// [`LinkError::Timeout`] when nobody came in `timeout`).
    fn connect(&mut self, timeout: Duration) -> Result<BoxLink, LinkError>;

    /// A way to end a `connect` running on another thread before its timeout (it then
    /// returns an error at once, and so does every later call), taken before the call. A
    /// driver that stops interrupts its connect thread and waits for it, so the connector
    /// (and the listener it may hold) is gone when the driver is. `None` (the default): the
    /// thread is left to end by its timeout, holding the connector until then.
    fn interrupter(&self) -> Option<Interrupt> {
        None
    }

    /// The last link reached a device that is not the one wanted (its handshake proved
    /// another key than the one the host was listed with): stop taking links by the route
    /// it came by. True when another route is left to try; the default, a connector with
    /// one route, has none (dialling it again reaches the same device).
    fn drop_last_route(&mut self) -> bool {
        false
    }
}

impl Connector for Box<dyn Connector> {
    fn role(&self) -> Role {
        (**self).role()
    }

    fn connect(&mut self, timeout: Duration) -> Result<BoxLink, LinkError> {
        (**self).connect(timeout)
    }

    fn interrupter(&self) -> Option<Interrupt> {
        (**self).interrupter()
    }

    fn drop_last_route(&mut self) -> bool {
        (**self).drop_last_route()
    }
}

/// Ends a connector's `connect` early (see [`Connector::interrupter`]).
#[derive(Clone)]
pub struct Interrupt(Arc<dyn Fn() + Send + Sync>);

impl std::fmt::Debug for Interrupt {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Interrupt")
    }
}

impl Interrupt {
    /// An interrupt that calls `f`.
    pub fn new(f: impl Fn() + Send + Sync + 'static) -> Interrupt {
        Interrupt(Arc::new(f))
    }

    /// Interrupts the connect call.
    pub fn interrupt(&self) {
        (self.0)();
    }
}

/// Dials TCP addresses in order until one answers.
#[derive(Clone, Debug)]
pub struct Dialer {
    target: Target,
}

/// What a [`Dialer`] dials.
#[derive(Clone, Debug)]
enum Target {
    /// These addresses, best first.
    Addrs(Vec<SocketAddr>),
    /// A `host:port` looked up at every attempt.
    Name(String),
}

impl Dialer {
    /// Dials `addrs`, best first.
    pub fn new(addrs: Vec<SocketAddr>) -> Dialer {
        Dialer {
            target: Target::Addrs(addrs),
        }
    }

    /// Dials a discovered peer's addresses.
    pub fn to_peer(peer: &PeerInfo) -> Dialer {
        Dialer::new(peer.addresses.clone())
    }

    /// Dials `host:port` (`phone.local:7368`), looking the name up at every attempt: on the
    /// connect thread, never the caller's (a lookup can take seconds), and again after
    /// every cut, so a host whose address changed (a new DHCP lease, another Wi-Fi) is
    /// found at its new one. A failed lookup is that attempt's error
    /// ([`LinkError::Lookup`], with the system's reason).
    pub fn named(host_port: &str) -> Dialer {
        Dialer {
            target: Target::Name(host_port.to_owned()),
        }
    }
}

/// The addresses of `host_port` (blocking: the system's resolver).
pub(crate) fn lookup(host_port: &str) -> Result<Vec<SocketAddr>, LinkError> {
    let failed = |reason: String| LinkError::Lookup {
        name: host_port
            .rsplit_once(':')
            .map_or(host_port, |(host, _)| host)
            .to_owned(),
        reason,
    };
    let addrs: Vec<SocketAddr> = std::net::ToSocketAddrs::to_socket_addrs(host_port)
        .map_err(|e| failed(e.to_string()))?
        .collect();
    if addrs.is_empty() {
        return Err(failed("it has no address".to_owned()));
    }
    Ok(addrs)
}

impl Connector for Dialer {
    fn role(&self) -> Role {
        Role::Initiator
    }

    fn connect(&mut self, timeout: Duration) -> Result<BoxLink, LinkError> {
        let looked_up;
        let addrs = match &self.target {
            Target::Addrs(addrs) => addrs,
            Target::Name(name) => {
                looked_up = lookup(name)?;
                &looked_up
            }
        };
        Ok(Box::new(TcpLink::connect_any(addrs, timeout)?))
    }
}

/// Accepts TCP connections on a listener (shared with a [`Host`](crate::Host)) in the order
/// they came; the driver runs several handshakes at once, so a newer connection neither
/// waits for nor closes an older one. It can be interrupted ([`Connector::interrupter`]).
#[derive(Clone, Debug)]
pub struct Acceptor {
    listener: Arc<TcpListenerLink>,
    stopped: Arc<AtomicBool>,
}

impl Acceptor {
    /// Accepts on `listener`.
    pub fn new(listener: Arc<TcpListenerLink>) -> Acceptor {
        Acceptor {
            listener,
            stopped: Arc::new(AtomicBool::new(false)),
        }
    }
}

impl Connector for Acceptor {
    fn role(&self) -> Role {
        Role::Responder
    }

    fn connect(&mut self, timeout: Duration) -> Result<BoxLink, LinkError> {
        match self.listener.accept_unless(Some(timeout), &self.stopped)? {
            Some(link) => Ok(Box::new(link)),
            None => Err(LinkError::Timeout),
        }
    }

    fn interrupter(&self) -> Option<Interrupt> {
        let stopped = Arc::clone(&self.stopped);
        // Weak: a pending interrupt must not keep the listener open.
        let listener = Arc::downgrade(&self.listener);
        Some(Interrupt::new(move || {
            stopped.store(true, Ordering::Release);
            if let Some(l) = listener.upgrade() {
                l.wake_acceptors();
            }
        }))
    }
}

/// A connector made of a role and a closure.
pub struct FnConnector<F> {
    role: Role,
    f: F,
}

impl<F> std::fmt::Debug for FnConnector<F> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("FnConnector")
            .field("role", &self.role)
            .finish_non_exhaustive()
    }
}

/// A connector that calls `f` for every link.
pub fn from_fn<F>(role: Role, f: F) -> FnConnector<F>
where
    F: FnMut(Duration) -> Result<BoxLink, LinkError> + Send + 'static,
{
    FnConnector { role, f }
}

impl<F> Connector for FnConnector<F>
where
    F: FnMut(Duration) -> Result<BoxLink, LinkError> + Send + 'static,
{
    fn role(&self) -> Role {
        self.role
    }

    fn connect(&mut self, timeout: Duration) -> Result<BoxLink, LinkError> {
        (self.f)(timeout)
    }
}
