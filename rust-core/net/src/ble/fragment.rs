//! Splitting frames into ATT-sized fragments and putting them back together.
//!
//! Each fragment starts with one header byte:
//!
//! ```text
//!   bit 7   START  first fragment of a frame
//!   bit 6   END    last fragment of a frame (a one-fragment frame has both)
//!   bits 0-5       sequence number, +1 per fragment, per direction, modulo 64
//! ```
//!
//! followed by up to `mtu - 1` bytes of the frame. At the default ATT MTU (23, so 20 bytes per
//! write) that leaves 19 bytes of payload per fragment. The sequence number detects a lost or
//! repeated fragment: the partial frame is dropped and the reassembler waits for the next
//! START, so a lost write costs one frame (which the session retransmits), never a corrupt one.
//!
//! ```
//! use banco_net::ble::fragment::{Fragmenter, Reassembler};
//!
//! let mut tx = Fragmenter::new(20);
//! let mut rx = Reassembler::new(4096);
//! let frame: Vec<u8> = (0..50).collect();
//! let pieces = tx.split(&frame);
//! assert_eq!(pieces.len(), 3); // 19 + 19 + 12 bytes
//! assert!(pieces.iter().all(|p| p.len() <= 20));
//! let mut out = None;
//! for p in &pieces {
//!     out = rx.push(p)?;
//! }
//! assert_eq!(out, Some(frame));
//! # Ok::<(), banco_net::ble::fragment::FragmentError>(())
//! ```

/// Header flag: first fragment of a frame.
pub const START: u8 = 0x80;
/// Header flag: last fragment of a frame.
pub const END: u8 = 0x40;
/// Mask of the sequence number in the header.
pub const SEQ_MASK: u8 = 0x3f;
/// Payload bytes of one ATT write at the default MTU of 23.
pub const DEFAULT_ATT_PAYLOAD: usize = 20;

/// Why a fragment was refused. The reassembler has already recovered (dropped the partial
/// frame) when it returns one of these; the caller may count or log them and go on.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum FragmentError {
    /// A fragment without even a header byte.
    #[error("empty fragment")]
    Empty,
    /// A continuation arrived while no frame was being assembled.
    #[error("continuation fragment without a start")]
    NoStart,
    /// A fragment was lost or repeated: the sequence number is not the expected one.
    #[error("fragment sequence gap: expected {expected}, got {got}")]
    Gap {
        /// The sequence number that should have come.
        expected: u8,
        /// The one that came.
        got: u8,
    },
    /// The frame grew past the limit.
    #[error("reassembled frame exceeds {max} bytes")]
    TooLarge {
        /// The limit.
        max: usize,
    },
}

/// Splits frames into fragments for one direction. See the [module docs](self).
#[derive(Clone, Debug)]
pub struct Fragmenter {
    chunk: usize,
    seq: u8,
}

impl Fragmenter {
    /// A fragmenter for writes of at most `mtu_payload` bytes (20 at the default ATT MTU).
    /// Values below 2 are raised to 2 (one header byte and one data byte).
    pub fn new(mtu_payload: usize) -> Fragmenter {
        Fragmenter {
            chunk: mtu_payload.max(2) - 1,
            seq: 0,
        }
    }

    /// Changes the write size for the frames split from now on (the MTU may be learnt after
    /// the link is made); the sequence numbers go on.
    pub fn set_mtu_payload(&mut self, mtu_payload: usize) {
        self.chunk = mtu_payload.max(2) - 1;
    }

    /// Frame bytes carried per fragment.
    pub fn chunk_size(&self) -> usize {
        self.chunk
    }

    /// Splits one frame. An empty frame becomes one header-only fragment.
    pub fn split(&mut self, frame: &[u8]) -> Vec<Vec<u8>> {
        let count = frame.len().div_ceil(self.chunk).max(1);
        let mut out = Vec::with_capacity(count);
        for i in 0..count {
            let lo = i * self.chunk;
            let hi = (lo + self.chunk).min(frame.len());
            let mut header = self.seq & SEQ_MASK;
            if i == 0 {
                header |= START;
            }
            if i + 1 == count {
                header |= END;
            }
            self.seq = (self.seq + 1) & SEQ_MASK;
            let mut piece = Vec::with_capacity(1 + hi - lo);
            piece.push(header);
            piece.extend_from_slice(&frame[lo..hi]);
            out.push(piece);
        }
        out
    }
}

/// Puts fragments back together for one direction. See the [module docs](self).
#[derive(Clone, Debug)]
pub struct Reassembler {
    max: usize,
    partial: Option<Vec<u8>>,
    expected: u8,
    abandoned: u64,
    /// Inside a run of continuations whose start was lost (counted once as a lost frame).
    orphan: bool,
}

impl Reassembler {
    /// A reassembler refusing frames longer than `max` bytes.
    pub fn new(max: usize) -> Reassembler {
        Reassembler {
            max,
            partial: None,
            expected: 0,
            abandoned: 0,
            orphan: false,
        }
    }

    /// Frames lost so far: partial frames given up (on gaps, oversize, or a new START before
    /// the END of the previous frame), and frames whose start was lost (a run of stray
    /// continuations counts once).
    pub fn abandoned(&self) -> u64 {
        self.abandoned
    }

    /// Takes one fragment; returns the frame it completes, if any.
    pub fn push(&mut self, fragment: &[u8]) -> Result<Option<Vec<u8>>, FragmentError> {
        let Some((&header, data)) = fragment.split_first() else {
            return Err(FragmentError::Empty);
        };
        let seq = header & SEQ_MASK;
        if header & START != 0 {
            self.orphan = false;
            if self.partial.take().is_some() {
                self.abandoned += 1;
            }
            self.partial = Some(Vec::new());
        } else {
            if self.partial.is_none() {
                if !self.orphan {
                    self.orphan = true;
                    self.abandoned += 1;
                }
                return Err(FragmentError::NoStart);
            }
            if seq != self.expected {
                self.partial = None;
                self.abandoned += 1;
                return Err(FragmentError::Gap {
                    expected: self.expected,
                    got: seq,
                });
            }
        }
        self.expected = (seq + 1) & SEQ_MASK;
        let Some(buf) = self.partial.as_mut() else {
            return Err(FragmentError::NoStart);
        };
        if buf.len() + data.len() > self.max {
            self.partial = None;
            self.abandoned += 1;
            return Err(FragmentError::TooLarge { max: self.max });
        }
        buf.extend_from_slice(data);
        if header & END != 0 {
            return Ok(self.partial.take());
        }
        Ok(None)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn reassemble(rx: &mut Reassembler, pieces: &[Vec<u8>]) -> Vec<Vec<u8>> {
        pieces
            .iter()
            .filter_map(|p| rx.push(p).ok().flatten())
            .collect()
    }

    #[test]
    fn sizes_and_headers() {
        let mut tx = Fragmenter::new(20);
        assert_eq!(tx.chunk_size(), 19);
        let one = tx.split(b"");
        assert_eq!(one, vec![vec![START | END]]);
        let two = tx.split(&[7; 20]);
        assert_eq!(two.len(), 2);
        assert_eq!(two[0][0], START | 1);
        assert_eq!(two[1][0], END | 2);
        assert_eq!(two[0].len(), 20);
        assert_eq!(two[1].len(), 2);
        let exact = tx.split(&[1; 38]);
        assert_eq!(exact.len(), 2);
    }

    #[test]
    fn round_trip_many_frames_and_sequence_wraps() {
        let mut tx = Fragmenter::new(20);
        let mut rx = Reassembler::new(4096);
        for len in 0..400usize {
            let frame: Vec<u8> = (0..len).map(|i| (i * 7 + len) as u8).collect();
            let pieces = tx.split(&frame);
            assert_eq!(reassemble(&mut rx, &pieces), vec![frame]);
        }
        assert_eq!(rx.abandoned(), 0);
        let big = vec![9u8; 4096];
        let pieces = tx.split(&big);
        assert_eq!(pieces.len(), 4096usize.div_ceil(19));
        assert_eq!(reassemble(&mut rx, &pieces), vec![big]);
    }

    #[test]
    fn lost_fragment_drops_only_that_frame() {
        let mut tx = Fragmenter::new(20);
        let mut rx = Reassembler::new(4096);
        let a = tx.split(&[1; 50]);
        let b = tx.split(&[2; 10]);
        // Middle fragment of `a` lost.
        assert_eq!(rx.push(&a[0]), Ok(None));
        assert_eq!(
            rx.push(&a[2]),
            Err(FragmentError::Gap {
                expected: 1,
                got: 2
            })
        );
        assert_eq!(rx.push(&b[0]), Ok(Some(vec![2; 10])));
        // First fragment lost: continuations are refused until the next start.
        let c = tx.split(&[3; 40]);
        assert_eq!(rx.push(&c[1]), Err(FragmentError::NoStart));
        assert_eq!(rx.push(&c[2]), Err(FragmentError::NoStart));
        // Last fragment lost, then a new frame starts.
        let d = tx.split(&[4; 30]);
        let e = tx.split(&[5; 5]);
        assert_eq!(rx.push(&d[0]), Ok(None));
        assert_eq!(rx.push(&e[0]), Ok(Some(vec![5; 5])));
        // Frames a (gap), c (start lost: its two stray continuations count once) and d.
        assert_eq!(rx.abandoned(), 3);
    }

    #[test]
    fn duplicated_fragment_is_a_gap() {
        let mut tx = Fragmenter::new(20);
        let mut rx = Reassembler::new(4096);
        let a = tx.split(&[1; 30]);
        rx.push(&a[0]).unwrap();
        assert!(matches!(rx.push(&a[0]), Ok(None)));
        assert_eq!(rx.push(&a[1]), Ok(Some(vec![1; 30])));
        let b = tx.split(&[2; 30]);
        rx.push(&b[0]).unwrap();
        rx.push(&b[1]).unwrap();
        assert!(rx.push(&b[1]).is_err());
    }

    #[test]
    fn bounded_by_the_limit_and_garbage_never_panics() {
        let mut tx = Fragmenter::new(20);
        let mut rx = Reassembler::new(30);
        let pieces = tx.split(&[0; 60]);
        let results: Vec<_> = pieces.iter().map(|p| rx.push(p)).collect();
        assert!(results.contains(&Err(FragmentError::TooLarge { max: 30 })));
        assert_eq!(rx.push(&[]), Err(FragmentError::Empty));
        let mut rx = Reassembler::new(64);
        let mut x: u32 = 1;
        for _ in 0..10_000 {
            x ^= x << 13;
            x ^= x >> 17;
            x ^= x << 5;
            let len = (x % 21) as usize;
            let bytes: Vec<u8> = (0..len).map(|i| (x >> (i % 4 * 8)) as u8).collect();
            let _ = rx.push(&bytes);
        }
    }

    #[test]
    fn tiny_mtu_is_raised() {
        let mut tx = Fragmenter::new(0);
        assert_eq!(tx.chunk_size(), 1);
        assert_eq!(tx.split(b"ab").len(), 2);
    }
}
