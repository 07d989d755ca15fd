//! Framing for stream links (TCP): each frame is a varint (LEB128) length followed by the
//! frame bytes. Frames longer than [`MAX_FRAME_LEN`] are refused *before* any allocation,
//! so a hostile length prefix (say 4 GiB) costs nothing but a clear error.
//!
//! [`FrameDecoder`] accepts bytes in arbitrary chunks, as they come off a socket:
//!
//! ```
//! use banco_protocol::frame::{encode_frame, FrameDecoder};
//!
//! let mut wire = Vec::new();
//! encode_frame(b"hello", &mut wire)?;
//! encode_frame(b"world!", &mut wire)?;
//!
//! let mut decoder = FrameDecoder::new();
//! let mut frames = Vec::new();
//! for chunk in wire.chunks(3) {
//!     let mut input = chunk;
//!     while let Some(frame) = decoder.decode(&mut input)? {
//!         frames.push(frame);
//!     }
//! }
//! assert_eq!(frames, vec![b"hello".to_vec(), b"world!".to_vec()]);
//! # Ok::<(), banco_protocol::frame::FrameError>(())
//! ```

/// Largest frame (ciphertext with its nonce and tag, or a handshake message), in bytes.
pub const MAX_FRAME_LEN: usize = 4096;

/// Longest varint length prefix accepted (enough for any `u64`).
const MAX_PREFIX_BYTES: u32 = 10;

/// Errors of framing.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub enum FrameError {
    /// The length prefix announces a frame above the limit; the stream must be closed.
    #[error("frame of {len} bytes exceeds the limit of {max} bytes; closing the link")]
    TooLarge {
        /// Announced length (saturated at `u64::MAX`).
        len: u64,
        /// The limit.
        max: usize,
    },
    /// The length prefix is not a valid varint; the stream must be closed.
    #[error("malformed frame length prefix; closing the link")]
    BadPrefix,
}

/// Appends `payload` with its varint length prefix to `out`.
pub fn encode_frame(payload: &[u8], out: &mut Vec<u8>) -> Result<(), FrameError> {
    if payload.len() > MAX_FRAME_LEN {
        return Err(FrameError::TooLarge {
            len: payload.len() as u64,
            max: MAX_FRAME_LEN,
        });
    }
    let mut n = payload.len();
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

/// A streaming frame decoder (see the module docs). Memory use is bounded by
/// [`MAX_FRAME_LEN`]; after an error the decoder keeps returning it.
#[derive(Debug, Clone)]
pub struct FrameDecoder {
    max: usize,
    state: State,
}

#[derive(Debug, Clone)]
enum State {
    Prefix { value: u64, shift: u32 },
    Body { need: usize, buf: Vec<u8> },
    Failed(FrameError),
}

impl Default for FrameDecoder {
    fn default() -> Self {
        Self::new()
    }
}

impl FrameDecoder {
    /// A decoder with the protocol's limit, [`MAX_FRAME_LEN`].
    pub fn new() -> Self {
        Self::with_max_len(MAX_FRAME_LEN)
    }

    /// A decoder with a smaller or larger limit (at most what the link layer can afford).
    pub fn with_max_len(max: usize) -> Self {
        FrameDecoder {
            max,
            state: State::Prefix { value: 0, shift: 0 },
        }
    }

    /// Consumes bytes from the front of `input` until one frame is complete (returned) or
    /// `input` is empty (`Ok(None)`). Call again while `input` is not empty.
    pub fn decode(&mut self, input: &mut &[u8]) -> Result<Option<Vec<u8>>, FrameError> {
        loop {
            match &mut self.state {
                State::Failed(e) => return Err(*e),
                State::Prefix { value, shift } => {
                    let Some((&byte, rest)) = input.split_first() else {
                        return Ok(None);
                    };
                    *input = rest;
                    if *shift >= 7 * MAX_PREFIX_BYTES {
                        return Err(self.fail(FrameError::BadPrefix));
                    }
                    let part = u64::from(byte & 0x7f);
                    *value |= part.checked_shl(*shift).unwrap_or(0);
                    if *shift == 63 && part > 1 {
                        return Err(self.fail(FrameError::TooLarge {
                            len: u64::MAX,
                            max: self.max,
                        }));
                    }
                    *shift += 7;
                    let len = *value;
                    if len > self.max as u64 {
                        // Report as soon as the announced length is known to be too big.
                        let len = if byte & 0x80 == 0 {
                            len
                        } else {
                            len.max(self.max as u64 + 1)
                        };
                        return Err(self.fail(FrameError::TooLarge { len, max: self.max }));
                    }
                    if byte & 0x80 == 0 {
                        let need = len as usize;
                        self.state = State::Body {
                            need,
                            buf: Vec::with_capacity(need),
                        };
                    }
                }
                State::Body { need, buf } => {
                    let take = (*need - buf.len()).min(input.len());
                    let (head, rest) = input.split_at(take);
                    buf.extend_from_slice(head);
                    *input = rest;
                    if buf.len() < *need {
                        return Ok(None);
                    }
                    let frame = core::mem::take(buf);
                    self.state = State::Prefix { value: 0, shift: 0 };
                    return Ok(Some(frame));
                }
            }
        }
    }

    /// Bytes of the frame being assembled (for tests of bounded memory).
    pub fn buffered(&self) -> usize {
        match &self.state {
            State::Body { buf, .. } => buf.len(),
            _ => 0,
        }
    }

    fn fail(&mut self, e: FrameError) -> FrameError {
        self.state = State::Failed(e);
        e
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn decode_all(bytes: &[u8]) -> Result<Vec<Vec<u8>>, FrameError> {
        let mut d = FrameDecoder::new();
        let mut input = bytes;
        let mut out = Vec::new();
        while let Some(f) = d.decode(&mut input)? {
            out.push(f);
        }
        Ok(out)
    }

    #[test]
    fn four_gib_prefix_is_refused_without_allocating() {
        // 4 GiB = 2^32 as LEB128.
        let prefix = [0x80, 0x80, 0x80, 0x80, 0x10];
        let mut d = FrameDecoder::new();
        let mut input = &prefix[..];
        let err = d.decode(&mut input).unwrap_err();
        assert_eq!(
            err,
            FrameError::TooLarge {
                len: 1 << 32,
                max: MAX_FRAME_LEN
            }
        );
        assert_eq!(d.buffered(), 0);
        assert!(err.to_string().contains("4294967296"));
        // Poisoned afterwards.
        assert_eq!(d.decode(&mut &[0u8][..]), Err(err));
    }

    #[test]
    fn limit_is_inclusive() {
        let mut wire = Vec::new();
        encode_frame(&[7; MAX_FRAME_LEN], &mut wire).unwrap();
        assert_eq!(decode_all(&wire).unwrap()[0].len(), MAX_FRAME_LEN);
        assert!(encode_frame(&[7; MAX_FRAME_LEN + 1], &mut wire).is_err());
        let mut big = Vec::new();
        big.extend_from_slice(&[0x81, 0x20]); // 4097
        assert!(matches!(
            decode_all(&big),
            Err(FrameError::TooLarge { len: 4097, .. })
        ));
    }

    #[test]
    fn overlong_prefix_is_an_error() {
        let bytes = [0x80; 11];
        assert_eq!(decode_all(&bytes), Err(FrameError::BadPrefix));
        let max = [0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01];
        assert!(matches!(decode_all(&max), Err(FrameError::TooLarge { .. })));
    }

    #[test]
    fn byte_by_byte() {
        let mut wire = Vec::new();
        for n in [0usize, 1, 127, 128, 300] {
            encode_frame(&vec![n as u8; n], &mut wire).unwrap();
        }
        let mut d = FrameDecoder::new();
        let mut got = Vec::new();
        for b in &wire {
            let mut input = core::slice::from_ref(b);
            while let Some(f) = d.decode(&mut input).unwrap() {
                got.push(f.len());
            }
        }
        assert_eq!(got, vec![0, 1, 127, 128, 300]);
    }
}
