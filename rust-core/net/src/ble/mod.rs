//! Bluetooth LE: frames carried over an ATT "pipe" (GATT writes one way, notifications the
//! other), fragmented into ATT-sized chunks.
//!
//! * [`gatt`] — **the Banco GATT service** (UUIDs, characteristics, connecting, MTU, flow
//!   control, the figures of a move on air): the page to read first.
//! * [`info`] — the read-only info characteristic (display name, games, protocol version,
//!   key fingerprint), encoded and validated; the one display-name validator.
//! * [`fragment`] — frames into fragments of `MTU − 3` bytes and back, never delivering a
//!   frame with a lost, repeated or reordered fragment.
//! * [`BleLink`] — a [`Link`] over any [`AttPipe`].
//! * [`hub`] — Bluetooth stacks outside Rust (the phones' GATT server and scanner, through
//!   the FFI's foreign traits): their callbacks drive a [`hub::PeripheralHub`] or
//!   [`hub::CentralHub`], which hand out one [`BleLink`] per connection.
//! * With the `ble` feature: `central` (btleplug: scan, read info, connect, subscribe — Linux,
//!   macOS, iOS, Windows), `peripheral` (bluer: the GATT application and LE advertisement on
//!   Linux) and `stack` (their errors and private runtime). Nothing async is exported.
//!
//! The platform part — a GATT server on the phone (through the shells), or a central — only
//! has to move small chunks: it implements [`AttPipe`]. [`BleLink`] turns any pipe into a
//! [`Link`] with the [`fragment`] layer, so the same code is tested here over the in-memory
//! link ([`LinkPipe`]) and runs over real radios in the apps.
//!
//! ```
//! use banco_net::{Link, ble::{BleLink, LinkPipe}, memory::{FaultPlan, MemoryLink}};
//! use std::time::Duration;
//!
//! // An in-memory "radio" that carries at most 20 bytes per write.
//! let (a, b) = MemoryLink::pair_with_limit(FaultPlan::none(), 3, 20);
//! let (a, b) = (BleLink::new(LinkPipe::new(a)), BleLink::new(LinkPipe::new(b)));
//! let frame = vec![42u8; 100];
//! a.send(&frame)?;
//! assert_eq!(b.recv(Some(Duration::from_secs(1)))?, Some(frame));
//! # Ok::<(), banco_net::LinkError>(())
//! ```

#[cfg(feature = "ble")]
pub mod central;
pub mod fragment;
pub mod gatt;
pub mod hub;
mod inbox;
pub mod info;
#[cfg(all(feature = "ble", target_os = "linux"))]
pub mod peripheral;
pub mod redial;
#[cfg(feature = "ble")]
pub mod stack;
pub mod writer;

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};
use std::time::{Duration, Instant};

use crate::error::LinkError;
use crate::link::{Link, MAX_FRAME_SIZE};
use fragment::{DEFAULT_ATT_PAYLOAD, Fragmenter, Reassembler};
use writer::Writer;

/// A channel of small chunks to one BLE peer, as the platform provides it: ATT writes (or
/// notifications) of at most [`AttPipe::mtu_payload`] bytes, delivered in order or lost.
pub trait AttPipe: Send + Sync {
    /// Largest chunk one write carries: `ATT_MTU - 3`, 20 at the default MTU.
    fn mtu_payload(&self) -> usize {
        DEFAULT_ATT_PAYLOAD
    }

    /// Writes one chunk (at most `mtu_payload` bytes).
    fn write(&self, chunk: &[u8]) -> Result<(), LinkError>;

    /// Waits for the next chunk, like [`Link::recv`].
    fn read(&self, timeout: Option<Duration>) -> Result<Option<Vec<u8>>, LinkError>;

    /// Disconnects; wakes a blocked `read`.
    fn close(&self);

    /// Everything queued was written: the link is idle until the next frame, which may
    /// start a new burst of writes without response (see `gatt::WritePacer::idle`).
    fn idle(&self) {}

    /// A short description of the peer for logs.
    fn peer(&self) -> String {
        String::from("ble")
    }

    /// The platform's id of the peer device, when known ([`Link::peer_device`]).
    fn peer_device(&self) -> Option<String> {
        None
    }
}

/// Any [`Link`] used as an ATT pipe: one chunk per frame, `mtu_payload` equal to the link's
/// frame limit (capped at 512, the largest ATT attribute). For tests over
/// [`MemoryLink`](crate::memory::MemoryLink) with a 20-byte limit.
#[derive(Debug)]
pub struct LinkPipe<L: Link> {
    link: L,
}

impl<L: Link> LinkPipe<L> {
    /// Wraps `link`.
    pub fn new(link: L) -> LinkPipe<L> {
        LinkPipe { link }
    }

    /// The wrapped link.
    pub fn inner(&self) -> &L {
        &self.link
    }
}

impl<L: Link> AttPipe for LinkPipe<L> {
    fn mtu_payload(&self) -> usize {
        self.link.max_frame_size().min(512)
    }
    fn write(&self, chunk: &[u8]) -> Result<(), LinkError> {
        self.link.send(chunk)
    }
    fn read(&self, timeout: Option<Duration>) -> Result<Option<Vec<u8>>, LinkError> {
        self.link.recv(timeout)
    }
    fn close(&self) {
        self.link.close();
    }
    fn peer(&self) -> String {
        format!("ble over {}", self.link.peer())
    }
}

/// A [`Link`] over an [`AttPipe`]: frames are split into fragments on send and reassembled on
/// receive. A lost chunk loses its frame (counted in [`BleLink::frames_lost`]), never corrupts
/// one. Sends never block: fragments are written by a thread of the link's own (see
/// [`writer`]). See the [module docs](self).
pub struct BleLink<P: AttPipe + 'static> {
    pipe: Arc<P>,
    writer: Writer<P>,
    tx: Mutex<Fragmenter>,
    rx: Mutex<Reassembler>,
    max_frame: usize,
    lost: AtomicU64,
}

impl<P: AttPipe + 'static> std::fmt::Debug for BleLink<P> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("BleLink")
            .field("peer", &self.pipe.peer())
            .field("max_frame", &self.max_frame)
            .finish_non_exhaustive()
    }
}

fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(PoisonError::into_inner)
}

impl<P: AttPipe + 'static> BleLink<P> {
    /// A link over `pipe` with the default 4 KiB frame limit.
    pub fn new(pipe: P) -> BleLink<P> {
        BleLink::with_limit(pipe, MAX_FRAME_SIZE)
    }

    /// A link over `pipe` with a chosen frame limit.
    pub fn with_limit(pipe: P, max_frame: usize) -> BleLink<P> {
        let mtu = pipe.mtu_payload();
        let pipe = Arc::new(pipe);
        BleLink {
            writer: Writer::new(Arc::clone(&pipe)),
            pipe,
            tx: Mutex::new(Fragmenter::new(mtu)),
            rx: Mutex::new(Reassembler::new(max_frame)),
            max_frame,
            lost: AtomicU64::new(0),
        }
    }

    /// Frames lost so far on receive (a fragment of theirs was lost, repeated or reordered);
    /// see [`Reassembler::abandoned`].
    pub fn frames_lost(&self) -> u64 {
        self.lost.load(Ordering::Relaxed)
    }

    /// The pipe underneath.
    pub fn pipe(&self) -> &P {
        &self.pipe
    }

    /// Waits until every fragment sent so far was handed to the pipe (at most `timeout`):
    /// the write's error when one failed, [`LinkError::Timeout`] when still writing.
    pub fn flush(&self, timeout: Duration) -> Result<(), LinkError> {
        self.writer.flush(timeout)
    }
}

impl<P: AttPipe + 'static> Link for BleLink<P> {
    fn send(&self, frame: &[u8]) -> Result<(), LinkError> {
        if frame.len() > self.max_frame {
            return Err(LinkError::FrameTooLarge {
                len: frame.len(),
                max: self.max_frame,
            });
        }
        // Holding the fragmenter while queueing keeps the frame's chunks contiguous. The MTU
        // is read again for every frame: a peripheral learns it from the central's writes.
        let mut tx = lock(&self.tx);
        tx.set_mtu_payload(self.pipe.mtu_payload());
        self.writer.send(tx.split(frame))
    }

    fn recv(&self, timeout: Option<Duration>) -> Result<Option<Vec<u8>>, LinkError> {
        let deadline = timeout.and_then(|t| Instant::now().checked_add(t));
        let mut rx = lock(&self.rx);
        loop {
            let left = deadline.map(|d| d.saturating_duration_since(Instant::now()));
            let Some(chunk) = self.pipe.read(left)? else {
                return Ok(None);
            };
            let pushed = rx.push(&chunk);
            self.lost.store(rx.abandoned(), Ordering::Relaxed);
            if let Ok(Some(frame)) = pushed {
                return Ok(Some(frame));
            }
        }
    }

    fn max_frame_size(&self) -> usize {
        self.max_frame
    }

    fn close(&self) {
        self.writer.close();
    }

    fn peer(&self) -> String {
        self.pipe.peer()
    }

    fn peer_device(&self) -> Option<String> {
        self.pipe.peer_device()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::memory::{FaultPlan, MemoryLink};

    fn ble_pair(
        plan: FaultPlan,
        seed: u64,
    ) -> (BleLink<LinkPipe<MemoryLink>>, BleLink<LinkPipe<MemoryLink>>) {
        let (a, b) = MemoryLink::pair_with_limit(plan, seed, 20);
        (
            BleLink::new(LinkPipe::new(a)),
            BleLink::new(LinkPipe::new(b)),
        )
    }

    #[test]
    fn frames_of_every_size_cross_a_20_byte_pipe() {
        let (a, b) = ble_pair(FaultPlan::none(), 1);
        for len in [0usize, 1, 18, 19, 20, 38, 39, 200, 4096] {
            let frame: Vec<u8> = (0..len).map(|i| i as u8).collect();
            a.send(&frame).unwrap();
            assert_eq!(b.recv(Some(Duration::from_secs(2))).unwrap(), Some(frame));
        }
        let frames_sent = a.pipe().inner().stats().sent;
        assert_eq!(frames_sent, 1 + 1 + 1 + 1 + 2 + 2 + 3 + 11 + 216);
        assert!(matches!(
            a.send(&[0; 4097]),
            Err(LinkError::FrameTooLarge { .. })
        ));
    }

    #[test]
    fn lost_writes_lose_whole_frames_only() {
        let (a, b) = ble_pair(FaultPlan::none().with_drop(0.05), 11);
        let frames: Vec<Vec<u8>> = (0..100u8).map(|i| vec![i; 45]).collect();
        let mut got = Vec::new();
        // In batches, so the in-memory queue (256 chunks) never fills up.
        for batch in frames.chunks(10) {
            for f in batch {
                a.send(f).unwrap();
            }
            while let Ok(Some(f)) = b.recv(Some(Duration::from_millis(30))) {
                got.push(f);
            }
        }
        assert!(got.len() < 100 && got.len() > 50, "{}", got.len());
        // Every frame that came out is one that went in, intact and in order.
        let mut it = frames.iter();
        for g in &got {
            assert!(it.any(|f| f == g));
        }
        assert!(b.frames_lost() > 0);
    }

    #[test]
    fn close_reaches_the_peer() {
        let (a, b) = ble_pair(FaultPlan::none(), 1);
        a.close();
        assert!(matches!(
            b.recv(Some(Duration::from_secs(1))),
            Err(LinkError::Closed)
        ));
        assert!(b.peer().starts_with("ble over memory"));
    }
}
