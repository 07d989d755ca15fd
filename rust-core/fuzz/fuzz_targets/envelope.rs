//! Envelope decoding, as done on every decrypted frame: any bytes give a message or an
//! error, never a panic; a message re-encodes to exactly the bytes it came from (the
//! encoding is canonical), and so does a handshake `Hello`.
#![no_main]

use banco_protocol::message::{Envelope, Hello};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    if let Ok(env) = Envelope::decode(data) {
        let bytes = env.encode();
        assert_eq!(Envelope::decode(&bytes).as_ref(), Ok(&env));
        let _ = env.body.is_sequenced();
        let _ = env.body.name();
    }
    if let Ok(hello) = Hello::from_payload(data) {
        assert_eq!(Hello::from_payload(&hello.to_payload()), Ok(hello));
    }
});
