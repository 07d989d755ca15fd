//! Length-delimited frames for byte streams (TCP): an unsigned LEB128 varint length, then the
//! payload.
//!
//! The decoder is streaming (feed it whatever the socket returned) and checks the announced
//! length against the limit *before* allocating, so a hostile prefix costs nothing.
//!
//! ```
//! use banco_net::frame::{FrameDecoder, encode_frame};
//!
//! let mut wire = Vec::new();
//! encode_frame(b"hello", 4096, &mut wire)?;
//! assert_eq!(wire[0], 5);
//! let mut decoder = FrameDecoder::new(4096);
//! let mut input = &wire[..];
//! assert_eq!(decoder.decode(&mut input)?, Some(b"hello".to_vec()));
//! assert!(input.is_empty());
//! # Ok::<(), banco_net::LinkError>(())
//! ```
//!
//! This is the same wire format as `banco-protocol`'s frame codec; once that crate lands this
//! module delegates to it.

use crate::error::LinkError;

/// Longest varint accepted: five bytes cover any `u32`.
const MAX_VARINT_BYTES: u32 = 5;

/// Appends `payload` with its varint length prefix to `out`. Fails with
/// [`LinkError::FrameTooLarge`] (nothing appended) if `payload` is longer than `max`.
pub fn encode_frame(payload: &[u8], max: usize, out: &mut Vec<u8>) -> Result<(), LinkError> {
    if payload.len() > max {
        return Err(LinkError::FrameTooLarge {
            len: payload.len(),
            max,
        });
    }
    let mut n = payload.len();
    out.reserve(payload.len() + 5);
    loop {
        let byte = (n & 0x7f) as u8;
        n >>= 7;
        if n == 0 {
            out.push(byte);
            break;
        }
        out.push(byte | 0x80);
    }
    out.extend_from_slice(payload);
    Ok(())
}

#[derive(Debug)]
enum State {
    /// Reading the varint: value so far and how many bytes were read.
    Length { value: usize, count: u32 },
    /// Reading `len` bytes of payload into `frame`.
    Body { len: usize, frame: Vec<u8> },
}

/// Streaming decoder of varint-length-prefixed frames. See the [module docs](self).
#[derive(Debug)]
pub struct FrameDecoder {
    max: usize,
    state: State,
}

impl FrameDecoder {
    /// A decoder that rejects frames longer than `max` bytes.
    pub fn new(max: usize) -> FrameDecoder {
        FrameDecoder {
            max,
            state: State::Length { value: 0, count: 0 },
        }
    }

    /// The frame limit.
    pub fn max(&self) -> usize {
        self.max
    }

    /// True when no partial frame is buffered (the stream is at a frame boundary).
    pub fn is_idle(&self) -> bool {
        matches!(self.state, State::Length { count: 0, .. })
    }

    /// Consumes bytes from the front of `input` until one frame is complete (returned) or the
    /// input is used up (`Ok(None)`; call again with more bytes). Errors are final: the stream
    /// is out of sync and must be closed.
    pub fn decode(&mut self, input: &mut &[u8]) -> Result<Option<Vec<u8>>, LinkError> {
        loop {
            match &mut self.state {
                State::Length { value, count } => {
                    let Some((&byte, rest)) = input.split_first() else {
                        return Ok(None);
                    };
                    *input = rest;
                    if *count >= MAX_VARINT_BYTES {
                        return Err(LinkError::Malformed("length prefix too long"));
                    }
                    *value |= usize::from(byte & 0x7f) << (7 * *count);
                    *count += 1;
                    if *value > self.max {
                        return Err(LinkError::FrameTooLarge {
                            len: *value,
                            max: self.max,
                        });
                    }
                    if byte & 0x80 == 0 {
                        let len = *value;
                        // The limit was checked above: this allocation is bounded.
                        self.state = State::Body {
                            len,
                            frame: Vec::with_capacity(len),
                        };
                    }
                }
                State::Body { len, frame } => {
                    let want = *len - frame.len();
                    let take = want.min(input.len());
                    frame.extend_from_slice(&input[..take]);
                    *input = &input[take..];
                    if frame.len() < *len {
                        return Ok(None);
                    }
                    let done = std::mem::take(frame);
                    self.state = State::Length { value: 0, count: 0 };
                    return Ok(Some(done));
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn decode_all(decoder: &mut FrameDecoder, mut input: &[u8]) -> Result<Vec<Vec<u8>>, LinkError> {
        let mut frames = Vec::new();
        while let Some(f) = decoder.decode(&mut input)? {
            frames.push(f);
        }
        assert!(input.is_empty());
        Ok(frames)
    }

    #[test]
    fn round_trip_various_sizes() {
        for len in [0usize, 1, 127, 128, 300, 4095, 4096] {
            let payload: Vec<u8> = (0..len).map(|i| i as u8).collect();
            let mut wire = Vec::new();
            encode_frame(&payload, 4096, &mut wire).unwrap();
            let prefix = if len < 128 { 1 } else { 2 };
            assert_eq!(wire.len(), len + prefix);
            let mut d = FrameDecoder::new(4096);
            assert_eq!(decode_all(&mut d, &wire).unwrap(), vec![payload]);
            assert!(d.is_idle());
        }
    }

    #[test]
    fn golden_prefix_bytes() {
        let mut wire = Vec::new();
        encode_frame(&[0xaa; 300], 4096, &mut wire).unwrap();
        assert_eq!(&wire[..2], &[0xac, 0x02]);
    }

    #[test]
    fn byte_by_byte_streaming() {
        let mut wire = Vec::new();
        for i in 0..10u8 {
            encode_frame(&vec![i; usize::from(i) * 20], 4096, &mut wire).unwrap();
        }
        let mut d = FrameDecoder::new(4096);
        let mut frames = Vec::new();
        for b in &wire {
            let mut input = std::slice::from_ref(b);
            if let Some(f) = d.decode(&mut input).unwrap() {
                frames.push(f);
            }
            assert!(input.is_empty());
        }
        assert_eq!(frames.len(), 10);
        assert_eq!(frames[3], vec![3u8; 60]);
    }

    #[test]
    fn oversized_is_rejected_before_allocation() {
        let mut wire = Vec::new();
        assert!(matches!(
            encode_frame(&[0; 4097], 4096, &mut wire),
            Err(LinkError::FrameTooLarge {
                len: 4097,
                max: 4096
            })
        ));
        assert!(wire.is_empty());
        // A prefix announcing 2^32 - 1 bytes fails on its third byte.
        let mut d = FrameDecoder::new(4096);
        let mut input: &[u8] = &[0xff, 0xff, 0xff, 0xff, 0x0f];
        assert!(matches!(
            d.decode(&mut input),
            Err(LinkError::FrameTooLarge { .. })
        ));
    }

    #[test]
    fn overlong_varint_is_malformed() {
        let mut d = FrameDecoder::new(usize::MAX);
        let mut input: &[u8] = &[0x80, 0x80, 0x80, 0x80, 0x80, 0x01];
        assert!(matches!(d.decode(&mut input), Err(LinkError::Malformed(_))));
    }
}
