//! What discovery reports: [`PeerInfo`], [`PeerEvent`], the TXT record layout, and the
//! bookkeeping that turns the daemon's resolutions into found / updated / lost events.
//!
//! Nothing here touches the network, so all of it is unit-tested without a daemon.
//!
//! ```
//! use banco_game::GameKind;
//! use banco_net::discovery::peer::{PeerInfo, TXT_GAMES, TXT_NAME};
//! use std::net::IpAddr;
//! // A resolution as the daemon reports it: addresses with their interface, TXT keys.
//! let ips: [(IpAddr, u32); 2] = [("fe80::1".parse()?, 3), ("192.168.1.20".parse()?, 3)];
//! let txt = |key: &str| match key {
//!     TXT_NAME => Some("An\u{202e}"),
//!     TXT_GAMES => Some("xiangqi,jieqi,go"),
//!     _ => None,
//! };
//! let peer = PeerInfo::from_parts("An-a1b2c3._banco._tcp.local.", "an.local.", 7368, ips, txt);
//! assert_eq!(peer.name, "An"); // cleaned on receipt: no bidi override
//! assert_eq!(peer.games, [GameKind::Xiangqi, GameKind::Jieqi]); // `go` is unknown here
//! assert!(peer.offers(GameKind::Jieqi) && !peer.offers(GameKind::Chess));
//! // IPv4 first; a link-local IPv6 address keeps its interface as its scope.
//! assert_eq!(peer.addresses[0].to_string(), "192.168.1.20:7368");
//! assert_eq!(peer.addresses[1].to_string(), "[fe80::1%3]:7368");
//! # Ok::<(), std::net::AddrParseError>(())
//! ```

use std::collections::HashMap;
use std::net::{IpAddr, SocketAddr, SocketAddrV6};

use super::advertised_name;
use banco_game::GameKind;

/// TXT key of the display name.
pub const TXT_NAME: &str = "name";
/// TXT key of the games offered, comma separated (`xiangqi,jieqi`).
pub const TXT_GAMES: &str = "games";
/// TXT key of the protocol version (decimal).
pub const TXT_VERSION: &str = "v";
/// TXT key of the short key fingerprint (hex).
pub const TXT_FINGERPRINT: &str = "fp";

/// Peers remembered by one browser (bounded memory); a new peer beyond it evicts the one
/// heard from least recently, so a flood of fake advertisements cannot hide real hosts.
pub(crate) const MAX_PEERS: usize = 256;
/// Addresses kept per peer, best first (a record listing thousands is cut).
pub const MAX_ADDRESSES: usize = 8;
/// Longest fingerprint kept from a TXT record, in hex digits.
const MAX_FINGERPRINT: usize = 64;

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
        // The one check of names on receipt (control, escape, bidi, invisible characters,
        // length), as for the handshake's greeting, and the cut of an advertised name.
        let name = advertised_name(txt(TXT_NAME).filter(|n| !n.is_empty()).unwrap_or(instance));
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
        addresses.truncate(MAX_ADDRESSES);
        PeerInfo {
            id: id.to_owned(),
            name,
            games,
            protocol_version: txt(TXT_VERSION).and_then(|v| v.trim().parse().ok()),
            fingerprint: txt(TXT_FINGERPRINT)
                .unwrap_or_default()
                .chars()
                .filter(|c| c.is_ascii_hexdigit() || *c == '-')
                .take(MAX_FINGERPRINT)
                .collect(),
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
    /// Each peer with the tick it was last heard of.
    known: HashMap<String, (PeerInfo, u64)>,
    tick: u64,
}

impl PeerTracker {
    /// A resolution: found or updated; a new peer when the table is full first evicts the
    /// peer heard from least recently (reported lost).
    pub(crate) fn resolved(&mut self, peer: PeerInfo) -> Vec<PeerEvent> {
        if peer.addresses.is_empty() {
            return Vec::new();
        }
        self.tick += 1;
        let tick = self.tick;
        if let Some((old, seen)) = self.known.get_mut(&peer.id) {
            *seen = tick;
            if *old == peer {
                return Vec::new();
            }
            *old = peer.clone();
            return vec![PeerEvent::PeerUpdated(peer)];
        }
        let mut out = Vec::new();
        if self.known.len() >= MAX_PEERS {
            let stale = self
                .known
                .iter()
                .min_by_key(|(_, (_, seen))| *seen)
                .map(|(id, _)| id.clone());
            if let Some(ev) = stale.and_then(|id| self.removed(&id)) {
                out.push(ev);
            }
        }
        self.known.insert(peer.id.clone(), (peer.clone(), tick));
        out.push(PeerEvent::PeerFound(peer));
        out
    }

    pub(crate) fn removed(&mut self, id: &str) -> Option<PeerEvent> {
        self.known
            .remove(id)
            .map(|(p, _)| PeerEvent::PeerLost { id: p.id })
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
            vec![]
        );
        let v6 = PeerInfo::from_parts(ID, "h.local.", 1, [(ll(), 2)], txt);
        assert!(matches!(
            t.resolved(v6.clone()).as_slice(),
            [PeerEvent::PeerFound(_)]
        ));
        assert_eq!(t.resolved(v6), vec![]);
        let both = PeerInfo::from_parts(
            ID,
            "h.local.",
            1,
            [(ll(), 2), ("10.1.1.1".parse().unwrap(), 2)],
            txt,
        );
        match t.resolved(both).as_slice() {
            [PeerEvent::PeerUpdated(p)] => assert!(p.has_ipv4()),
            other => panic!("{other:?}"),
        }
        assert_eq!(
            t.removed(ID),
            Some(PeerEvent::PeerLost { id: ID.to_owned() })
        );
        assert_eq!(t.removed(ID), None);
    }

    #[test]
    fn a_flood_of_fake_hosts_evicts_the_stalest_and_never_hides_a_real_one() {
        let mut t = PeerTracker::default();
        let peer = |id: &str| PeerInfo::from_parts(id, "h.local.", 1, [(ll(), 2)], |_| None);
        t.resolved(peer(ID));
        for i in 0..MAX_PEERS + 10 {
            t.resolved(peer(&format!("fake{i}._banco._tcp.local.")));
            // The real host keeps answering: it is never the stalest.
            if i % 100 == 0 {
                t.known.get_mut(ID).unwrap().1 = t.tick + 1;
                t.tick += 1;
            }
        }
        assert_eq!(t.known.len(), MAX_PEERS);
        assert!(t.known.contains_key(ID));
        // A real host arriving after the flood is reported (the stalest fake is lost).
        let events = t.resolved(peer("Bob._banco._tcp.local."));
        assert!(
            matches!(events.as_slice(), [PeerEvent::PeerLost { .. }, PeerEvent::PeerFound(p)] if p.name == "Bob")
        );
    }

    #[test]
    fn addresses_names_and_fingerprints_from_the_wire_are_bounded_and_clean() {
        let many = (0..1000u32).map(|i| (IpAddr::from(i.to_be_bytes()), 0));
        let txt = |k: &str| match k {
            TXT_NAME => Some("Eve\u{1b}]0;owned\u{7}\u{202e}"),
            TXT_FINGERPRINT => Some("ab12\u{1b}[31mzz"),
            _ => None,
        };
        let p = PeerInfo::from_parts(ID, "h.local.", 1, many, txt);
        assert_eq!(p.addresses.len(), MAX_ADDRESSES);
        assert!(banco_protocol::name::is_clean(&p.name), "{:?}", p.name);
        assert!(!p.name.contains('\u{1b}'));
        assert_eq!(p.fingerprint, "ab1231");
        // A long name is cut as a host cuts its own (40 bytes), not only to 32 characters.
        let long = "象".repeat(32);
        let txt = |k: &str| (k == TXT_NAME).then_some(long.as_str());
        let p = PeerInfo::from_parts(ID, "h.local.", 1, [(ll(), 2)], txt);
        assert_eq!(p.name, "象".repeat(13));
    }
}
