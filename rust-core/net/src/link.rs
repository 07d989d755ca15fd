//! The [`Link`] trait (re-exported at the crate root).

use std::net::IpAddr;
use std::sync::Arc;
use std::time::Duration;

use crate::error::LinkError;

/// The default frame limit of every link, as the design fixes it: 4 KiB.
pub const MAX_FRAME_SIZE: usize = 4096;

/// A message-oriented, blocking, thread-safe connection to one peer.
///
/// Every transport — TCP ([`TcpLink`](crate::tcp::TcpLink)), BLE
/// ([`BleLink`](crate::ble::BleLink)) and the in-memory test link
/// ([`MemoryLink`](crate::memory::MemoryLink)) — moves whole frames: what one side passes to
/// [`Link::send`] comes out of the other side's [`Link::recv`] as one frame, or not at all.
///
/// ## Waiting without busy polling
///
/// `recv` blocks until a frame arrives, the timeout passes, or the link dies. Every method
/// takes `&self`, so a link shared through an [`Arc`] can be read by one
/// thread while others send and close it; [`Link::close`] wakes a blocked `recv` at once.
/// That is the readiness mechanism the driver uses: a reader thread parks in
/// `recv`, the driver thread parks on a channel, and nothing spins while the match is idle.
///
/// ```
/// use banco_net::{Link, memory::{FaultPlan, MemoryLink}};
/// use std::time::Duration;
///
/// let (a, b) = MemoryLink::pair(FaultPlan::none(), 1);
/// a.send(b"ping")?;
/// assert_eq!(b.recv(Some(Duration::from_secs(1)))?, Some(b"ping".to_vec()));
/// // Nothing more: a short wait times out with `None`.
/// assert_eq!(b.recv(Some(Duration::from_millis(1)))?, None);
/// # Ok::<(), banco_net::LinkError>(())
/// ```
///
/// Contract shared by all implementations:
/// * frames are delivered whole; a link may lose, duplicate or reorder frames only where its
///   transport does (the in-memory link under a fault plan; BLE when an ATT write is lost);
/// * `send` and `recv` may run at the same time on different threads; concurrent `send`s are
///   serialized so their frames never interleave;
/// * after `close` (on either side, once in-flight frames are drained) `recv` and `send` return
///   [`LinkError::Closed`]; a blocked `recv` wakes up promptly.
pub trait Link: Send + Sync {
    /// Sends one frame. Fails with [`LinkError::FrameTooLarge`] (nothing sent, link still
    /// usable) when `frame` is longer than [`Link::max_frame_size`].
    fn send(&self, frame: &[u8]) -> Result<(), LinkError>;

    /// Waits for the next frame: `Ok(Some(frame))`, or `Ok(None)` when `timeout` passed first.
    /// `None` as timeout waits for ever; `Some(Duration::ZERO)` only polls.
    fn recv(&self, timeout: Option<Duration>) -> Result<Option<Vec<u8>>, LinkError>;

    /// The largest frame this link carries.
    fn max_frame_size(&self) -> usize;

    /// Closes the link in both directions and wakes a blocked `recv`. Idempotent.
    fn close(&self);

    /// A short description of the peer for logs (`tcp 127.0.0.1:4000`, `memory #1`).
    fn peer(&self) -> String {
        String::from("peer")
    }

    /// The peer's IP address, for links that have one (TCP): a host limits the attempts it
    /// takes from one address.
    fn peer_ip(&self) -> Option<IpAddr> {
        None
    }

    /// For links without an IP address, the platform's id of the peer device (a Bluetooth
    /// central's address or identifier): a host limits the attempts it takes from one
    /// device by it, as by an IP address ([`PeerSource`](crate::driver::PeerSource)).
    fn peer_device(&self) -> Option<String> {
        None
    }
}

impl<L: Link + ?Sized> Link for Box<L> {
    fn send(&self, frame: &[u8]) -> Result<(), LinkError> {
        (**self).send(frame)
    }
    fn recv(&self, timeout: Option<Duration>) -> Result<Option<Vec<u8>>, LinkError> {
        (**self).recv(timeout)
    }
    fn max_frame_size(&self) -> usize {
        (**self).max_frame_size()
    }
    fn close(&self) {
        (**self).close();
    }
    fn peer(&self) -> String {
        (**self).peer()
    }
    fn peer_ip(&self) -> Option<IpAddr> {
        (**self).peer_ip()
    }
    fn peer_device(&self) -> Option<String> {
        (**self).peer_device()
    }
}

impl<L: Link + ?Sized> Link for Arc<L> {
    fn send(&self, frame: &[u8]) -> Result<(), LinkError> {
        (**self).send(frame)
    }
    fn recv(&self, timeout: Option<Duration>) -> Result<Option<Vec<u8>>, LinkError> {
        (**self).recv(timeout)
    }
    fn max_frame_size(&self) -> usize {
        (**self).max_frame_size()
    }
    fn close(&self) {
        (**self).close();
    }
    fn peer(&self) -> String {
        (**self).peer()
    }
    fn peer_ip(&self) -> Option<IpAddr> {
        (**self).peer_ip()
    }
    fn peer_device(&self) -> Option<String> {
        (**self).peer_device()
    }
}

/// A boxed link, as the driver and the high-level helpers pass them around.
pub type BoxLink = Box<dyn Link>;
