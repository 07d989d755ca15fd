//! A Lines race against a peer that sends anything (`banco_protocol::sim::race_against_forger`):
//! any script of honest and forged race messages, lost messages, our own moves and time
//! passing never panics, and the victim's result and boards stay consistent.
#![no_main]

use banco_protocol::sim::race_against_forger;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    if let Err(fault) = race_against_forger(data) {
        panic!("{fault}");
    }
});
