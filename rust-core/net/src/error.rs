//! Errors of links and of discovery.
//!
//! [`LinkError`] is what every [`Link`](crate::Link) reports; [`DiscoveryError`] is what the
//! mDNS layer reports; [`NetError`] joins them for the high-level helpers ([`host`](crate::host),
//! [`join`](crate::join), [`browse`](crate::browse)).

use std::io;

/// What can go wrong on a [`Link`](crate::Link).
///
/// After any error from [`Link::recv`](crate::Link::recv) the link is dead and should be
/// dropped (a byte stream cannot be trusted after a framing error). The one recoverable error
/// is [`LinkError::FrameTooLarge`] returned by [`Link::send`](crate::Link::send): nothing was
/// sent and the link stays usable.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum LinkError {
    /// The link was closed, by this side or in an orderly way by the peer.
    #[error("link closed")]
    Closed,
    /// The connection was lost: the peer vanished, the connection was reset, or a test fault
    /// plan cut the link.
    #[error("connection lost")]
    Reset,
    /// A frame is larger than the link accepts (on send: nothing was sent; on receive: the
    /// peer announced it, and the link is closed before anything is allocated).
    #[error("frame of {len} bytes exceeds the limit of {max} bytes")]
    FrameTooLarge {
        /// Size of the frame (or the size its header announced).
        len: usize,
        /// The link's limit.
        max: usize,
    },
    /// The peer violated the framing (bad length prefix, bad fragment header).
    #[error("malformed framing: {0}")]
    Malformed(&'static str),
    /// The peer stopped reading: `waiting` bytes would have had to wait for it (see
    /// [`tcp::SEND_BACKLOG`](crate::tcp::SEND_BACKLOG)); the link is closed.
    #[error("the other device stopped reading ({waiting} bytes waiting to be sent)")]
    Stalled {
        /// Bytes that were waiting, the refused frame included.
        waiting: usize,
    },
    /// Connecting or accepting did not complete in time.
    #[error("timed out")]
    Timeout,
    /// The host name to dial could not be looked up (no such name, no network, no
    /// resolver); `reason` is the system's.
    #[error("cannot find {name}: {reason}")]
    Lookup {
        /// The name looked up.
        name: String,
        /// Why, in the system's words.
        reason: String,
    },
    /// Any other I/O error from the operating system.
    #[error("i/o error: {0}")]
    Io(#[from] io::Error),
}

impl LinkError {
    /// Maps an I/O error to the most telling variant: resets, aborts and broken pipes become
    /// [`LinkError::Reset`], time-outs [`LinkError::Timeout`], everything else stays
    /// [`LinkError::Io`].
    pub fn from_io(err: io::Error) -> LinkError {
        match err.kind() {
            io::ErrorKind::ConnectionReset
            | io::ErrorKind::ConnectionAborted
            | io::ErrorKind::BrokenPipe
            | io::ErrorKind::UnexpectedEof
            | io::ErrorKind::NotConnected => LinkError::Reset,
            io::ErrorKind::TimedOut | io::ErrorKind::WouldBlock => LinkError::Timeout,
            _ => LinkError::Io(err),
        }
    }

    /// True when the link cannot be used any more after this error.
    pub fn is_fatal(&self) -> bool {
        !matches!(self, LinkError::FrameTooLarge { .. } | LinkError::Timeout)
    }
}

/// What can go wrong while advertising or browsing with mDNS.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum DiscoveryError {
    /// The mDNS daemon refused a command or failed (sockets, interfaces, shut down).
    #[error("mDNS daemon: {0}")]
    Daemon(#[from] mdns_sd::Error),
    /// The advertisement cannot be published as given (name too long, bad characters).
    #[error("invalid advertisement: {0}")]
    InvalidAdvertisement(String),
    /// The daemon did not confirm its shutdown in time.
    #[error("mDNS daemon did not shut down in time")]
    ShutdownTimeout,
    /// No matching peer was found in time.
    #[error("no matching peer found in time")]
    NotFound,
}

/// Any error of the high-level helpers ([`host`](crate::host), [`join`](crate::join),
/// [`browse`](crate::browse), [`join_named`](crate::join_named)).
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum NetError {
    /// A link error (connect, accept, bind).
    #[error(transparent)]
    Link(#[from] LinkError),
    /// A discovery error.
    #[error(transparent)]
    Discovery(#[from] DiscoveryError),
    /// The address is not `host:port`, `ip:port` or `[ipv6]:port` (a name that cannot be
    /// looked up is a [`LinkError::Lookup`]).
    #[error("bad address {0:?}: expected host:port, like 192.168.1.20:7368")]
    BadAddress(String),
}

impl From<io::Error> for NetError {
    fn from(err: io::Error) -> Self {
        NetError::Link(LinkError::from_io(err))
    }
}
