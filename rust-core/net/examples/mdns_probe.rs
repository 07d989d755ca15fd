//! A small probe of mDNS discovery, used by `tests/net/mdns-netns.sh` inside network
//! namespaces (never run it where multicast would reach a real network you do not own).
//!
//! ```text
//! mdns_probe advertise --name NAME [--iface IF]... [--port PORT] [--for SECS] [--guests N]
//!     host on PORT (0: any), advertise NAME with the games a session offering xiangqi and
//!     chess announces, echo one frame of each of N guests (1), then withdraw
//! mdns_probe browse --expect NAME [--iface IF]... [--timeout SECS] [--connect] [--rebrowse]
//!     browse until NAME resolves and check that it offers xiangqi and chess; print the
//!     discovery time; with --connect, join it and exchange a frame; with --rebrowse,
//!     browse twice on one daemon and drop the first browser before listening to the
//!     second (as a lobby browsed again does)
//! mdns_probe join --name NAME [--iface IF]... [--timeout SECS]
//!     what `banco join NAME` does: find the host by name, connect, exchange a frame
//! mdns_probe reachable [--port PORT]
//!     listen on 0.0.0.0:PORT (0: any, no mDNS) and print the addresses a guest can type,
//!     one a line, best first (`Host::reachable`, what `banco host` shows as `join with:`)
//! ```

use std::process::ExitCode;
use std::time::{Duration, Instant};

use banco_game::GameKind;
use banco_net::discovery::{Advertisement, Discovery, DiscoveryConfig, PeerEvent};
use banco_net::{Advertise, Link, host, join_named, join_peer};
use banco_protocol::sim::CountingGame;
use banco_protocol::{Identity, PROTOCOL_VERSION, Session, SessionConfig};

/// The games the probe's host offers (the counting game stands in for both).
const OFFERS: [GameKind; 2] = [GameKind::Xiangqi, GameKind::Chess];

struct Args {
    mode: String,
    name: String,
    interfaces: Vec<String>,
    port: u16,
    seconds: u64,
    connect: bool,
    rebrowse: bool,
    guests: usize,
}

fn parse() -> Result<Args, String> {
    let mut it = std::env::args().skip(1);
    let mode = it
        .next()
        .ok_or("missing mode: advertise, browse, join or reachable")?;
    let mut args = Args {
        mode,
        name: String::new(),
        interfaces: Vec::new(),
        port: 0,
        seconds: 15,
        connect: false,
        rebrowse: false,
        guests: 1,
    };
    while let Some(flag) = it.next() {
        let mut value = || it.next().ok_or(format!("{flag} needs a value"));
        match flag.as_str() {
            "--name" | "--expect" => args.name = value()?,
            "--iface" => args.interfaces.push(value()?),
            "--port" => args.port = value()?.parse().map_err(|e| format!("--port: {e}"))?,
            "--for" | "--timeout" => {
                args.seconds = value()?.parse().map_err(|e| format!("{flag}: {e}"))?;
            }
            "--connect" => args.connect = true,
            "--rebrowse" => args.rebrowse = true,
            "--guests" => args.guests = value()?.parse().map_err(|e| format!("--guests: {e}"))?,
            other => return Err(format!("unknown argument {other}")),
        }
    }
    if args.name.is_empty() && args.mode != "reachable" {
        return Err("a name is needed (--name / --expect)".into());
    }
    Ok(args)
}

fn advertise(args: &Args) -> Result<(), String> {
    // What a host advertises comes from its session: exactly the games it offers.
    let session: Session<CountingGame> = Session::new(
        SessionConfig::new(&args.name, &OFFERS),
        Identity::from_secret([0x0b; 32]),
        [0xad; 32],
    );
    let ad = Advertisement::of_session(&session);
    let config = DiscoveryConfig::on_interfaces(args.interfaces.clone());
    let listen = format!("0.0.0.0:{}", args.port)
        .parse()
        .map_err(|e| format!("{e}"))?;
    let h = host(listen, Some(Advertise { ad, config })).map_err(|e| e.to_string())?;
    println!(
        "advertising {:?} as {:?} on port {}",
        args.name,
        h.service_name(),
        h.local_addr().port()
    );
    let deadline = Instant::now() + Duration::from_secs(args.seconds);
    for _ in 0..args.guests {
        let left = deadline.saturating_duration_since(Instant::now());
        let Some(link) = h.accept(Some(left)).map_err(|e| e.to_string())? else {
            println!("nobody more connected in {} s", args.seconds);
            break;
        };
        if let Some(frame) = link
            .recv(Some(Duration::from_secs(5)))
            .map_err(|e| e.to_string())?
        {
            link.send(&frame).map_err(|e| e.to_string())?;
            println!("echoed {} bytes to {}", frame.len(), link.peer());
        }
        // Let the echo reach the guest before the link goes.
        let _ = link.recv(Some(Duration::from_secs(2)));
    }
    h.shutdown().map_err(|e| e.to_string())?;
    println!("advertisement withdrawn, daemon stopped");
    Ok(())
}

fn browse_for(args: &Args) -> Result<(), String> {
    let config = DiscoveryConfig::on_interfaces(args.interfaces.clone());
    let start = Instant::now();
    let discovery = Discovery::start(&config).map_err(|e| e.to_string())?;
    let browser = discovery.browse().map_err(|e| e.to_string())?;
    let browser = if args.rebrowse {
        // The second browse replaces the first; dropping the first must not stop it.
        let second = discovery.browse().map_err(|e| e.to_string())?;
        drop(browser);
        second
    } else {
        browser
    };
    let deadline = start + Duration::from_secs(args.seconds);
    let mut found = None;
    loop {
        let left = deadline.saturating_duration_since(Instant::now());
        if left.is_zero() {
            break;
        }
        // Once resolved, wait a little longer for an IPv4 address (they come in updates).
        let wait = if found.is_some() {
            left.min(Duration::from_secs(2))
        } else {
            left
        };
        let Some(event) = browser.recv(Some(wait)) else {
            break;
        };
        let ms = start.elapsed().as_millis();
        match event {
            PeerEvent::PeerFound(p) | PeerEvent::PeerUpdated(p) if p.name == args.name => {
                println!(
                    "{ms} ms: {} resolved at {:?} (games {:?}, v{:?}, fp {})",
                    p.name, p.addresses, p.games, p.protocol_version, p.fingerprint
                );
                if found.is_none() {
                    println!("discovery: resolved {:?} in {ms} ms", p.name);
                }
                let ipv4 = p.has_ipv4();
                found = Some(p);
                if ipv4 {
                    println!("discovery: IPv4 address after {ms} ms");
                    break;
                }
            }
            other => println!("{ms} ms: {other:?}"),
        }
    }
    let peer = found.ok_or_else(|| format!("{:?} not found in {} s", args.name, args.seconds))?;
    if peer.games != OFFERS || peer.protocol_version != Some(u16::from(PROTOCOL_VERSION)) {
        return Err(format!(
            "the host advertises games {:?} and version {:?}, expected {OFFERS:?} and {PROTOCOL_VERSION}",
            peer.games, peer.protocol_version
        ));
    }
    println!("games offered: {:?}", peer.games);
    if args.connect {
        let link = join_peer(&peer, Duration::from_secs(3)).map_err(|e| format!("connect: {e}"))?;
        link.send(b"banco probe").map_err(|e| e.to_string())?;
        let echo = link
            .recv(Some(Duration::from_secs(5)))
            .map_err(|e| e.to_string())?;
        if echo.as_deref() != Some(&b"banco probe"[..]) {
            return Err(format!("bad echo {echo:?}"));
        }
        println!("connected to {} and exchanged a frame", link.peer());
        link.close();
    }
    drop(browser);
    discovery.shutdown().map_err(|e| e.to_string())?;
    Ok(())
}

/// `banco join NAME`: browse for the name, connect, exchange a frame.
fn join_by_name(args: &Args) -> Result<(), String> {
    let config = DiscoveryConfig::on_interfaces(args.interfaces.clone());
    let start = Instant::now();
    let (link, peer) = join_named(&args.name, &config, Duration::from_secs(args.seconds))
        .map_err(|e| e.to_string())?;
    link.send(b"banco join").map_err(|e| e.to_string())?;
    let echo = link
        .recv(Some(Duration::from_secs(5)))
        .map_err(|e| e.to_string())?;
    if echo.as_deref() != Some(&b"banco join"[..]) {
        return Err(format!("bad echo {echo:?}"));
    }
    println!(
        "joined {:?} by name at {} in {} ms",
        peer.name,
        link.peer(),
        start.elapsed().as_millis()
    );
    link.close();
    Ok(())
}

/// Where a guest can dial a host listening on every interface.
fn reachable(args: &Args) -> Result<(), String> {
    let h = host(([0, 0, 0, 0], args.port).into(), None).map_err(|e| e.to_string())?;
    for a in h.reachable() {
        println!("{a}");
    }
    Ok(())
}

fn main() -> ExitCode {
    let result = parse().and_then(|args| match args.mode.as_str() {
        "advertise" => advertise(&args),
        "browse" => browse_for(&args),
        "join" => join_by_name(&args),
        "reachable" => reachable(&args),
        other => Err(format!("unknown mode {other}")),
    });
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("mdns_probe: {e}");
            ExitCode::FAILURE
        }
    }
}
