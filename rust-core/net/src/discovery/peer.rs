//! What discovery reports: [`PeerInfo`], [`PeerEvent`], the TXT record layout, and the
//! bookkeeping that turns the daemon's resolutions into found / updated / lost events.
//!
//! Nothing here touches the network, so all of it is unit-tested without a daemon.

use std::collections::HashMap;
use std::net::{IpAddr, SocketAddr, SocketAddrV6};

use banco_game::GameKind;

/// TXT key of the display name.
pub const TXT_NAME: &str = "name";
/// TXT key of the games offered, comma separated (`xiangqi,jieqi`).
pub const TXT_GAMES: &str = "games";
/// TXT key of the protocol version (decimal).
pub const TXT_VERSION: &str = "v";
/// TXT key of the short key fingerprint (hex).
pub const TXT_FINGERPRINT: &str = "fp";

/// Peers remembered by one browser; further ones are ignored (bounded memory).
pub(crate) const MAX_PEERS: usize = 256;

/// A peer seen on the local network.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PeerInfo {
    /// Stable identifier: the mDNS instance full name (`Alice-a1b2c3._banco._tcp.local.`).
    pub id: String,
    /// Display name from the TXT record (the instance name if the record has none).
    pub name: String,
    /// Games offered that this build knows.
    pub games: Vec<GameKind>,
    /// Protocol version from the TXT record, if it parsed.
    pub protocol_version: Option<u16>,
    /// Short key fingerprint from the TXT record (empty if none).
    pub fingerprint: String,
    /// mDNS host name (`banco-a1b2c3.local.`).
    pub host: String,
    /// TCP port.
    pub port: u16,
    /// Addresses to connect to, best first: IPv4, then global IPv6, then link-local IPv6
    /// (with its scope id), loopback last.
    pub addresses: Vec<SocketAddr>,
}

impl PeerInfo {
    /// Builds a peer from the parts of an mDNS resolution. `ips` pairs each address with the
    /// index of the interface it was seen on (the scope of a link-local IPv6 address); `txt`
    /// looks a TXT key up.
    pub fn from_parts<'a>(
        id: &str,
        host: &str,
        port: u16,
        ips: impl IntoIterator<Item = (IpAddr, u32)>,
        txt: impl Fn(&str) -> Option<&'a str>,
    ) -> PeerInfo {
        let instance = id.split("._banco.").next().unwrap_or(id);
        let name = txt(TXT_NAME)
            .filter(|n| !n.is_empty())
            .unwrap_or(instance)
            .to_owned();
        let games = txt(TXT_GAMES)
            .map(|g| {
                g.split(',')
                    .filter_map(|n| GameKind::from_name(n.trim()))
                    .collect()
            })
            .unwrap_or_default();
        let mut addresses: Vec<SocketAddr> = ips
            .into_iter()
            .map(|(ip, scope)| match ip {
                IpAddr::V6(v6) if is_unicast_link_local(ip) => {
                    SocketAddrV6::new(v6, port, 0, scope).into()
                }
                _ => SocketAddr::new(ip, port),
            })
            .collect();
        addresses.sort_by_key(|a| (address_rank(a.ip()), *a));
        addresses.dedup();
        PeerInfo {
            id: id.to_owned(),
            name,
            games,
            protocol_version: txt(TXT_VERSION).and_then(|v| v.trim().parse().ok()),
            fingerprint: txt(TXT_FINGERPRINT).unwrap_or_default().to_owned(),
            host: host.to_owned(),
            port,
            addresses,
        }
    }

    /// True when the peer has at least one IPv4 address.
    pub fn has_ipv4(&self) -> bool {
        self.addresses.iter().any(SocketAddr::is_ipv4)
    }

    /// True when the peer offers `game`.
    pub fn offers(&self, game: GameKind) -> bool {
        self.games.contains(&game)
    }
}

fn is_unicast_link_local(ip: IpAddr) -> bool {
    match ip {
        IpAddr::V6(v6) => v6.segments()[0] & 0xffc0 == 0xfe80,
        IpAddr::V4(v4) => v4.is_link_local(),
    }
}

/// Lower is better.
fn address_rank(ip: IpAddr) -> u8 {
    if ip.is_loopback() {
        4
    } else if ip.is_ipv4() {
        u8::from(is_unicast_link_local(ip))
    } else if is_unicast_link_local(ip) {
        3
    } else {
        2
    }
}

/// What a browser reports.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PeerEvent {
    /// A peer was resolved for the first time (it has a port and at least one address).
    PeerFound(PeerInfo),
    /// A known peer changed: typically more addresses arrived (IPv6 link-local first, IPv4
    /// later), or its TXT record changed. Carries the whole new state.
    PeerUpdated(PeerInfo),
    /// A peer withdrew its advertisement or expired.
    PeerLost {
        /// The [`PeerInfo::id`] of the peer.
        id: String,
    },
    /// The mDNS daemon reported an error (sockets, interfaces). Discovery goes on where it
    /// can; the message is for logs and for the user.
    DaemonError(String),
}

/// Turns resolutions and removals into events, remembering what was reported.
#[derive(Debug, Default)]
pub(crate) struct PeerTracker {
    known: HashMap<String, PeerInfo>,
}

impl PeerTracker {
    pub(crate) fn resolved(&mut self, peer: PeerInfo) -> Option<PeerEvent> {
        if peer.addresses.is_empty() {
            return None;
        }
        let full = self.known.len() >= MAX_PEERS;
        match self.known.get_mut(&peer.id) {
            Some(old) if *old == peer => None,
            Some(old) => {
                *old = peer.clone();
                Some(PeerEvent::PeerUpdated(peer))
            }
            None if full => None,
            None => {
                self.known.insert(peer.id.clone(), peer.clone());
                Some(PeerEvent::PeerFound(peer))
            }
        }
    }

    pub(crate) fn removed(&mut self, id: &str) -> Option<PeerEvent> {
        self.known
            .remove(id)
            .map(|p| PeerEvent::PeerLost { id: p.id })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::net::{Ipv4Addr, Ipv6Addr};

    const ID: &str = "Alice-a1b2._banco._tcp.local.";

    fn txt(key: &str) -> Option<&'static str> {
        match key {
            TXT_NAME => Some("Alice"),
            TXT_GAMES => Some("xiangqi, jieqi,go"),
            TXT_VERSION => Some("3"),
            TXT_FINGERPRINT => Some("a1b2"),
            _ => None,
        }
    }

    fn ll() -> IpAddr {
        IpAddr::V6("fe80::1".parse::<Ipv6Addr>().unwrap())
    }

    #[test]
    fn parses_txt_and_orders_addresses() {
        let ips = [
            (ll(), 7),
            (IpAddr::V6(Ipv6Addr::LOCALHOST), 1),
            (IpAddr::V4(Ipv4Addr::new(10, 0, 0, 2)), 7),
            (IpAddr::V6("2001:db8::5".parse().unwrap()), 7),
        ];
        let p = PeerInfo::from_parts(ID, "banco-a1b2.local.", 4000, ips, txt);
        assert_eq!(p.name, "Alice");
        assert_eq!(p.games, vec![GameKind::Xiangqi, GameKind::Jieqi]);
        assert_eq!(p.protocol_version, Some(3));
        assert_eq!(p.fingerprint, "a1b2");
        assert!(p.offers(GameKind::Jieqi) && !p.offers(GameKind::Chess));
        let shown: Vec<String> = p.addresses.iter().map(ToString::to_string).collect();
        assert_eq!(
            shown,
            [
                "10.0.0.2:4000",
                "[2001:db8::5]:4000",
                "[fe80::1%7]:4000",
                "[::1]:4000"
            ]
        );
        assert!(p.has_ipv4());
    }

    #[test]
    fn missing_txt_falls_back_to_instance_name() {
        let p = PeerInfo::from_parts(ID, "h.local.", 1, [(ll(), 2)], |_| None);
        assert_eq!(p.name, "Alice-a1b2");
        assert!(p.games.is_empty());
        assert_eq!(p.protocol_version, None);
        assert!(!p.has_ipv4());
    }

    #[test]
    fn tracker_reports_found_then_updates_then_lost() {
        let mut t = PeerTracker::default();
        // Resolved without addresses: not reportable yet.
        assert_eq!(
            t.resolved(PeerInfo::from_parts(ID, "h.local.", 1, [], txt)),
            None
        );
        let v6 = PeerInfo::from_parts(ID, "h.local.", 1, [(ll(), 2)], txt);
        assert!(matches!(
            t.resolved(v6.clone()),
            Some(PeerEvent::PeerFound(_))
        ));
        assert_eq!(t.resolved(v6), None);
        let both = PeerInfo::from_parts(
            ID,
            "h.local.",
            1,
            [(ll(), 2), ("10.1.1.1".parse().unwrap(), 2)],
            txt,
        );
        match t.resolved(both) {
            Some(PeerEvent::PeerUpdated(p)) => assert!(p.has_ipv4()),
            other => panic!("{other:?}"),
        }
        assert_eq!(
            t.removed(ID),
            Some(PeerEvent::PeerLost { id: ID.to_owned() })
        );
        assert_eq!(t.removed(ID), None);
    }

    #[test]
    fn tracker_is_bounded() {
        let mut t = PeerTracker::default();
        for i in 0..MAX_PEERS + 10 {
            let id = format!("p{i}._banco._tcp.local.");
            t.resolved(PeerInfo::from_parts(
                &id,
                "h.local.",
                1,
                [(ll(), 2)],
                |_| None,
            ));
        }
        assert_eq!(t.known.len(), MAX_PEERS);
    }
}
