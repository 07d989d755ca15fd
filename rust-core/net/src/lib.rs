//! # banco-net — all the I/O of Banco
//!
//! Everything below this crate is deterministic and does no I/O; this crate moves the bytes.
//!
//! * [`Link`] — a message-oriented, blocking, thread-safe connection: whole frames in, whole
//!   frames out, a frame limit, close, and [`LinkError`]s. Implemented by
//!   * [`memory::MemoryLink`] — an in-memory pair with a seeded [fault plan](memory::FaultPlan)
//!     (drop, duplicate, reorder, delay, cut) for tests;
//!   * [`tcp::TcpLink`] — varint-length-delimited frames (`banco_protocol::frame`) over
//!     `TCP_NODELAY` sockets, with connect and accept time-outs;
//!   * [`ble::BleLink`] — frames fragmented into 20-byte ATT writes ([`ble::fragment`]) over
//!     any [`ble::AttPipe`] the platform provides.
//! * [`driver`] — runs a `banco-protocol` session over links on its own thread: timers,
//!   reconnects with backoff, resume after a cut, events through a channel or a callback.
//! * [`discovery`] — mDNS / DNS-SD advertising and browsing of `_banco._tcp.local.`.
//! * [`host`], [`join`], [`browse`], [`join_named`] — the high-level helpers of `banco host` and
//!   `banco join`; [`reachable`] — the addresses a guest can type to reach a host listening on
//!   every interface.
//!
//! ```
//! use banco_net::{Link, LinkError, memory::{FaultPlan, MemoryLink}};
//! use std::time::Duration;
//!
//! // A link that loses a fifth of its frames, reproducibly (seed 42).
//! let (a, b) = MemoryLink::pair(FaultPlan::none().with_drop(0.2), 42);
//! for i in 0..100u8 {
//!     a.send(&[i])?;
//! }
//! let mut got = 0;
//! while let Some(_frame) = b.recv(Some(Duration::from_millis(10)))? {
//!     got += 1;
//! }
//! assert_eq!(got, 100 - a.stats().dropped);
//! assert!(got < 100);
//! # Ok::<(), LinkError>(())
//! ```
#![forbid(unsafe_code)]

pub mod ble;
mod connect;
mod deadline;
pub mod discovery;
pub mod driver;
mod error;
mod link;
pub mod memory;
mod outbox;
pub mod reachable;
pub mod tcp;

pub use connect::{
    Advertise, Browser, DEFAULT_PORT, Host, browse, dialer, host, join, join_named, join_peer,
};
pub use deadline::{LONGEST_WAIT, deadline_after};
pub use error::{DiscoveryError, LinkError, NetError};
pub use link::{BoxLink, Link, MAX_FRAME_SIZE};
