//! Where a host takes guests: a host opens what it can — the LAN, and Bluetooth LE too when
//! the platform's peripheral starts — and reports which transports opened and why the others
//! did not ([`Hosting`], [`NetMatch::hosting`]), so a screen only shows it. A host that
//! cannot advertise over Bluetooth (off, permission missing, no advertising on this phone)
//! still hosts on the LAN: one call, no fallback written in each front end.
//!
//! ```no_run
//! use banco_app::network::{HostOptions, NetEvent, NetMatch, NetObserver, nearby::Transport};
//! use banco_net::discovery::Advertisement;
//! use banco_net::driver::Dialer;
//! use std::sync::Arc;
//! struct Print;
//! impl NetObserver for Print {
//!     fn event(&self, e: NetEvent) { println!("{e:?}"); }
//! }
//! let options = HostOptions::new("An", "0.0.0.0:7368".parse()?, vec![]);
//! // The second transport could not be offered (say, Bluetooth is off): the LAN alone.
//! let host = NetMatch::host_also(
//!     options,
//!     Err::<fn(&Advertisement) -> Result<Dialer, String>, _>("Bluetooth is off".to_owned()),
//!     Arc::new(Print),
//! )?;
//! let hosting = host.hosting().expect("a host");
//! assert_eq!(hosting.open_on, vec![Transport::Lan]);
//! assert_eq!(hosting.not_open[0].reason, "Bluetooth is off");
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use super::nearby::Transport;
use super::{AutoPropose, HostOptions, NetError, NetMatch, NetObserver, session};
use banco_net::discovery::{Advertisement, DiscoveryConfig};
use banco_net::driver::{AnyOf, Connector};
use banco_net::{Advertise, host};
use std::sync::Arc;

/// A transport a host could not open, and why.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NotOpen {
    /// The transport.
    pub transport: Transport,
    /// Why, in words a player can act on ("Bluetooth is off: turn it on").
    pub reason: String,
}

/// Where a host takes guests (see the module docs).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Hosting {
    /// The transports open, the LAN first.
    pub open_on: Vec<Transport>,
    /// The transports asked for that did not open, with the reason.
    pub not_open: Vec<NotOpen>,
}

impl Hosting {
    /// Open on `transport` alone.
    #[must_use]
    pub fn only(transport: Transport) -> Hosting {
        Hosting {
            open_on: vec![transport],
            not_open: Vec::new(),
        }
    }
}

impl NetMatch {
    /// Hosts a match on the LAN as [`NetMatch::host`] does and, at once, over the links of
    /// the connector `also` makes from the host's advertisement (Bluetooth LE: a GATT
    /// peripheral serving it). One session, one key: the guest comes whichever way it found
    /// the host (a lobby shows the host once, by its key fingerprint), and after a cut may
    /// come back the other way. `address()` is the LAN address.
    ///
    /// When the second transport cannot be used — `also` is `Err(reason)` (the front end
    /// knows it is off or not allowed), or it fails to start — the match is hosted on the
    /// LAN alone and [`NetMatch::hosting`] says why Bluetooth is not open. Only a LAN that
    /// cannot be opened fails the call.
    pub fn host_also<C: Connector>(
        options: HostOptions,
        also: Result<impl FnOnce(&Advertisement) -> Result<C, String>, String>,
        observer: Arc<dyn NetObserver>,
    ) -> Result<NetMatch, NetError> {
        let propose = AutoPropose::of(&options);
        let (session, identity) = session(&options.name, &options.offers, options.trust)?;
        let offers = session.offers().to_vec();
        AutoPropose::check(propose.as_ref(), &offers)?;
        let ad = Advertisement::of_session(&session);
        let other = also.and_then(|start| start(&ad));
        let lan = options.advertise.then(|| Advertise {
            ad,
            config: DiscoveryConfig::default(),
        });
        let hosting = host(options.listen, lan).map_err(|e| NetError::Network(e.to_string()))?;
        let address = hosting.local_addr().to_string();
        let mut open_on = vec![Transport::Lan];
        let mut not_open = Vec::new();
        let mut m = match other {
            Ok(ble) => {
                let connector = AnyOf::new(vec![Box::new(hosting.acceptor()), Box::new(ble)])
                    .map_err(|e| NetError::Network(e.to_string()))?;
                open_on.push(Transport::Ble);
                NetMatch::start(
                    (session, identity),
                    connector,
                    Some(hosting),
                    Some(address),
                    propose,
                    offers,
                    observer,
                )
            }
            Err(reason) => {
                not_open.push(NotOpen {
                    transport: Transport::Ble,
                    reason,
                });
                let acceptor = hosting.acceptor();
                NetMatch::start(
                    (session, identity),
                    acceptor,
                    Some(hosting),
                    Some(address),
                    propose,
                    offers,
                    observer,
                )
            }
        };
        m.open = Some(Hosting { open_on, not_open });
        Ok(m)
    }

    /// Where this match takes guests, and why a transport asked for is not open; `None`
    /// for a guest.
    #[must_use]
    pub fn hosting(&self) -> Option<Hosting> {
        self.open.clone()
    }
}
