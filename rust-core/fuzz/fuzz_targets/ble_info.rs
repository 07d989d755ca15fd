//! The BLE info characteristic a host publishes (what its mDNS TXT record carries): any
//! value read from a peer is an advertisement or an `InfoError`, never a panic; the name
//! it yields is clean, and an advertisement read writes back a value that reads the same.
#![no_main]

use banco_net::ble::info::{decode_info, encode_info};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(ad) = decode_info(data) else {
        return;
    };
    assert!(
        !ad.name.chars().any(char::is_control),
        "control characters in {:?}",
        ad.name
    );
    let again = decode_info(&encode_info(&ad)).expect("a written info value reads back");
    assert_eq!(again, ad);
});
