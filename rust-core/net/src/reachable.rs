//! The addresses a guest on the LAN can type to reach a host: a host listening on an
//! unspecified address (`0.0.0.0:7368`, `[::]:7368`) listens on every interface, and
//! `0.0.0.0` is nothing a guest can dial. [`reachable`] lists this machine's interface
//! addresses with the bound port instead, best first; [`reachable_from`] makes the choice
//! from a list of interfaces given to it (the rule, testable without a network).
//!
//! ```
//! use banco_net::reachable::{InterfaceAddr, reachable_from};
//! let interfaces = [
//!     InterfaceAddr::up("lo", "127.0.0.1".parse()?),
//!     InterfaceAddr::up("rmnet0", "100.71.3.9".parse()?),
//!     InterfaceAddr::up("wlan0", "192.168.1.20".parse()?),
//!     InterfaceAddr::up("wlan0", "fe80::1c2d:3eff:fe4f:5a6b".parse()?),
//! ];
//! let listed = reachable_from("0.0.0.0:7368".parse()?, &interfaces);
//! let listed: Vec<String> = listed.iter().map(ToString::to_string).collect();
//! // The LAN's private address first, the carrier's after; no loopback, no link-local.
//! assert_eq!(listed, ["192.168.1.20:7368", "100.71.3.9:7368"]);
//! # Ok::<(), std::net::AddrParseError>(())
//! ```

use std::net::{IpAddr, SocketAddr};

/// One address of one of this machine's network interfaces, as the system lists it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct InterfaceAddr {
    /// The interface's name (`wlan0`, `en0`).
    pub name: String,
    /// The address.
    pub ip: IpAddr,
    /// The interface is up and running (a down one reaches nobody).
    pub up: bool,
    /// A point-to-point link (a VPN tunnel, a cellular link), listed after the others of
    /// its kind: a guest in the same room is on the broadcast LAN.
    pub point_to_point: bool,
}

impl InterfaceAddr {
    /// An address of an interface that is up, not point-to-point.
    #[must_use]
    pub fn up(name: &str, ip: IpAddr) -> InterfaceAddr {
        InterfaceAddr {
            name: name.to_owned(),
            ip,
            up: true,
            point_to_point: false,
        }
    }
}

/// How good an address is for a guest on the LAN, smallest first; `None` for one never
/// listed before the loopback fallback.
///
/// IPv6 link-local addresses (`fe80::/10`) are never listed: dialling one needs a scope,
/// and the scope is the *guest's* interface (`fe80::1%en0` on the guest), which the host
/// cannot know: the host's own interface index would only mislead. (A guest that found
/// the host with mDNS gets its link-local address with the right scope.)
fn rank(ip: IpAddr) -> Option<u8> {
    match ip {
        IpAddr::V4(v4) if v4.is_loopback() || v4.is_unspecified() => None,
        IpAddr::V4(v4) if v4.is_private() => Some(0),
        IpAddr::V4(v4) if v4.is_link_local() => Some(2),
        IpAddr::V4(_) => Some(1),
        IpAddr::V6(v6) if v6.is_loopback() || v6.is_unspecified() => None,
        IpAddr::V6(v6) if v6.is_unicast_link_local() => None,
        IpAddr::V6(v6) if v6.is_unique_local() => Some(3),
        IpAddr::V6(_) => Some(4),
    }
}

/// The addresses a guest can dial to reach a host listening on `listen`, on a machine with
/// `interfaces`, best first:
///
/// * a host listening on one address is reached there: `[listen]`;
/// * a host listening on an unspecified address (`0.0.0.0`, `[::]`: every interface, both
///   IPv4 and IPv6 — see [`TcpListenerLink`](crate::tcp::TcpListenerLink)) is reached at
///   each address of an interface that is up, with the bound port: IPv4 first — private
///   addresses (the LAN: `192.168.…`, `10.…`, `172.16–31.…`), then others (a carrier's),
///   then self-assigned `169.254.…` — then IPv6 unique-local, then global; on each rank
///   point-to-point links after the others, and otherwise the system's order; each address
///   once. IPv6 link-local addresses are left out (their scope is the guest's interface);
///   loopback is listed only when nothing else is (the same machine can still join).
///
/// Empty when no interface is up.
#[must_use]
pub fn reachable_from(listen: SocketAddr, interfaces: &[InterfaceAddr]) -> Vec<SocketAddr> {
    if !listen.ip().is_unspecified() {
        return vec![listen];
    }
    let port = listen.port();
    let up = || interfaces.iter().filter(|i| i.up);
    let mut ranked: Vec<(u8, bool, IpAddr)> = up()
        .filter_map(|i| rank(i.ip).map(|r| (r, i.point_to_point, i.ip)))
        .collect();
    // Stable: the system's order within a rank.
    ranked.sort_by_key(|&(r, p2p, _)| (r, p2p));
    let mut ips: Vec<IpAddr> = ranked.into_iter().map(|(_, _, ip)| ip).collect();
    if ips.is_empty() {
        ips = up().map(|i| i.ip).filter(IpAddr::is_loopback).collect();
        ips.sort_by_key(IpAddr::is_ipv6);
    }
    let mut out: Vec<SocketAddr> = Vec::with_capacity(ips.len());
    for ip in ips {
        let addr = SocketAddr::new(ip, port);
        if !out.contains(&addr) {
            out.push(addr);
        }
    }
    out
}

/// This machine's interface addresses, as [`reachable_from`] takes them; empty when the
/// system does not list them.
#[must_use]
pub fn interfaces() -> Vec<InterfaceAddr> {
    if_addrs::get_if_addrs()
        .map(|list| {
            list.into_iter()
                .map(|i| InterfaceAddr {
                    up: i.is_oper_up(),
                    point_to_point: i.is_p2p(),
                    ip: i.ip(),
                    name: i.name,
                })
                .collect()
        })
        .unwrap_or_default()
}

/// The addresses a guest can dial to reach a host listening on `listen` on this machine
/// ([`reachable_from`] with this machine's [`interfaces`]).
#[must_use]
pub fn reachable(listen: SocketAddr) -> Vec<SocketAddr> {
    if !listen.ip().is_unspecified() {
        return vec![listen];
    }
    reachable_from(listen, &interfaces())
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;
    use std::net::{Ipv4Addr, Ipv6Addr};

    const LOOPBACKS: [IpAddr; 2] = [
        IpAddr::V4(Ipv4Addr::LOCALHOST),
        IpAddr::V6(Ipv6Addr::LOCALHOST),
    ];

    fn ip(s: &str) -> IpAddr {
        s.parse().unwrap()
    }

    fn listed(listen: &str, interfaces: &[InterfaceAddr]) -> Vec<String> {
        reachable_from(listen.parse().unwrap(), interfaces)
            .iter()
            .map(ToString::to_string)
            .collect()
    }

    #[test]
    fn a_host_on_every_interface_lists_the_lan_first_then_ipv6() {
        let mut tunnel = InterfaceAddr::up("tun0", ip("10.8.0.2"));
        tunnel.point_to_point = true;
        let interfaces = [
            InterfaceAddr::up("lo", LOOPBACKS[0]),
            InterfaceAddr::up("lo", LOOPBACKS[1]),
            InterfaceAddr::up("eth1", ip("169.254.10.20")),
            InterfaceAddr::up("wlan0", ip("2001:db8::20")),
            tunnel,
            InterfaceAddr::up("wlan0", ip("fe80::1")),
            InterfaceAddr::up("rmnet0", ip("100.71.3.9")),
            InterfaceAddr::up("wlan0", ip("fd00::20")),
            InterfaceAddr::up("wlan0", ip("192.168.1.20")),
            InterfaceAddr::up("eth0", ip("172.20.0.5")),
        ];
        assert_eq!(
            listed("0.0.0.0:7368", &interfaces),
            [
                "192.168.1.20:7368",
                "172.20.0.5:7368",
                "10.8.0.2:7368",
                "100.71.3.9:7368",
                "169.254.10.20:7368",
                "[fd00::20]:7368",
                "[2001:db8::20]:7368",
            ]
        );
        // `[::]` listens on both families the same way (see `bind_sockets`).
        assert_eq!(
            listed("[::]:7368", &interfaces),
            listed("0.0.0.0:7368", &interfaces)
        );
    }

    #[test]
    fn down_interfaces_and_repeats_are_left_out() {
        let mut down = InterfaceAddr::up("eth0", ip("192.168.1.20"));
        down.up = false;
        let interfaces = [
            down,
            InterfaceAddr::up("wlan0", ip("10.0.0.7")),
            InterfaceAddr::up("wlan1", ip("10.0.0.7")),
        ];
        assert_eq!(listed("0.0.0.0:50123", &interfaces), ["10.0.0.7:50123"]);
    }

    #[test]
    fn loopback_only_when_nothing_else_and_never_link_local() {
        let interfaces = [
            InterfaceAddr::up("lo", LOOPBACKS[1]),
            InterfaceAddr::up("veth0", ip("fe80::1")),
            InterfaceAddr::up("lo", LOOPBACKS[0]),
        ];
        assert_eq!(
            listed("0.0.0.0:7368", &interfaces),
            ["127.0.0.1:7368", "[::1]:7368"]
        );
        assert!(listed("0.0.0.0:7368", &[]).is_empty());
        let mut down = InterfaceAddr::up("lo", LOOPBACKS[0]);
        down.up = false;
        assert!(listed("0.0.0.0:7368", &[down]).is_empty());
    }

    #[test]
    fn a_host_on_one_address_is_reached_there() {
        let interfaces = [InterfaceAddr::up("wlan0", ip("192.168.1.20"))];
        assert_eq!(listed("127.0.0.1:4000", &interfaces), ["127.0.0.1:4000"]);
        assert_eq!(listed("[fe80::1%3]:4000", &[]), ["[fe80::1%3]:4000"]);
        assert_eq!(
            reachable("192.168.1.20:7368".parse().unwrap()),
            ["192.168.1.20:7368".parse::<SocketAddr>().unwrap()]
        );
    }

    #[test]
    fn this_machine_lists_no_unspecified_or_link_local_address() {
        for a in reachable("0.0.0.0:7368".parse().unwrap()) {
            assert_eq!(a.port(), 7368);
            assert!(!a.ip().is_unspecified(), "{a}");
            assert!(
                !matches!(a.ip(), IpAddr::V6(v6) if v6.is_unicast_link_local()),
                "{a}"
            );
        }
    }
}
