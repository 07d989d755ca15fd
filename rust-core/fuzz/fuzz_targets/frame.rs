//! The stream frame decoder: any bytes, in any chunks, give frames within the limit or a
//! clear error, never a panic; every frame decoded re-encodes to the same bytes.
#![no_main]

use banco_protocol::frame::{FrameDecoder, MAX_FRAME_LEN, encode_frame};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    // The first byte picks the chunk size, so frames split across reads are covered.
    let Some((&chunk, rest)) = data.split_first() else {
        return;
    };
    let chunk = usize::from(chunk).max(1);
    let mut decoder = FrameDecoder::new();
    for mut piece in rest.chunks(chunk) {
        while !piece.is_empty() {
            match decoder.decode(&mut piece) {
                Ok(Some(frame)) => {
                    assert!(frame.len() <= MAX_FRAME_LEN);
                    let mut out = Vec::new();
                    encode_frame(&frame, &mut out).expect("a decoded frame re-encodes");
                    let mut again = FrameDecoder::new();
                    let mut slice = out.as_slice();
                    assert_eq!(again.decode(&mut slice).ok().flatten(), Some(frame));
                }
                Ok(None) => {}
                Err(_) => return,
            }
            assert!(decoder.buffered() <= MAX_FRAME_LEN);
        }
    }
});
