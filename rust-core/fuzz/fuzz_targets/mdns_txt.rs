//! The mDNS TXT record parser of LAN discovery: any TXT values and instance names make a
//! peer (or are ignored), never a panic.
#![no_main]

use banco_net::discovery::PeerInfo;
use libfuzzer_sys::fuzz_target;
use std::net::{IpAddr, Ipv4Addr, Ipv6Addr};

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    // id \n key=value \n key=value ...
    let mut lines = text.split('\n');
    let id = lines.next().unwrap_or_default();
    let pairs: Vec<(&str, &str)> = lines.filter_map(|l| l.split_once('=')).collect();
    let ips = [
        (IpAddr::V4(Ipv4Addr::new(192, 168, 1, 2)), 1),
        (IpAddr::V6(Ipv6Addr::new(0xfe80, 0, 0, 0, 0, 0, 0, 1)), 3),
        (IpAddr::V6(Ipv6Addr::LOCALHOST), 0),
    ];
    let port = u16::from(data.first().copied().unwrap_or(0)) << 8 | 0x37;
    let peer = PeerInfo::from_parts(id, "host.local.", port, ips, |key| {
        pairs.iter().find(|(k, _)| *k == key).map(|(_, v)| *v)
    });
    assert_eq!(peer.port, port);
    // A received name is shown as a host publishes its own: clean, at most 40 bytes.
    assert!(banco_protocol::name::is_clean(&peer.name), "{:?}", peer.name);
    assert!(peer.name.len() <= banco_net::discovery::MAX_NAME_BYTES, "{:?}", peer.name);
    let _ = peer.has_ipv4();
});
