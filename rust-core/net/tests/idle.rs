//! An idle match costs (almost) no CPU: the driver and reader threads park instead of
//! polling. Alone in its own test binary (not a module of `suite`, whose other tests run
//! in parallel in the same process) so that no other test's work is counted.

#![allow(clippy::unwrap_used)]

#[path = "suite/common/mod.rs"]
mod common;

use std::time::Duration;

use banco_net::driver::DriverEvent;
use banco_net::memory::{self, FaultPlan};
use banco_protocol::Event;

/// CPU time (user + system) of this process, in clock ticks (Linux).
fn cpu_ticks() -> Option<u64> {
    let stat = std::fs::read_to_string("/proc/self/stat").ok()?;
    // Fields after the command name, which is in parentheses and may hold spaces.
    let rest = &stat[stat.rfind(')')? + 2..];
    let fields: Vec<&str> = rest.split(' ').collect();
    let utime: u64 = fields.get(11)?.parse().ok()?;
    let stime: u64 = fields.get(12)?.parse().ok()?;
    Some(utime + stime)
}

#[test]
fn idle_link_uses_no_cpu() {
    let (dialer, acceptor) = memory::connectors(FaultPlan::none(), 5);
    let (drivers, rx) = common::spawn_pair(acceptor, dialer);
    let mut up = 0;
    while up < 2 {
        match rx.recv_timeout(Duration::from_secs(10)).unwrap() {
            (side, DriverEvent::Session(Event::VerifyPeer { code, .. })) => {
                drivers[side].confirm_peer(code, false).unwrap();
            }
            (_, DriverEvent::Session(Event::PeerVerified { .. })) => up += 1,
            _ => {}
        }
    }
    let Some(before) = cpu_ticks() else { return };
    // Two keepalive periods of the test timing.
    std::thread::sleep(Duration::from_secs(2));
    let used = cpu_ticks().unwrap() - before;
    // Busy polling would burn ~200 ticks (100 Hz) here; parked threads use ~0.
    assert!(used < 20, "idle drivers used {used} ticks of CPU in 2 s");
    let [h, g] = drivers;
    assert!(h.with_session(|s, _| s.is_link_up()).unwrap());
    drop(h);
    drop(g);
}
