//! [`Refusal`]: why a host turns a dialling device away, told to that device in one short
//! frame before the host closes the link, so the guest's app can say why ("the host is not
//! taking players now") instead of a bare "link closed".
//!
//! The frame is plain bytes outside the protocol, sent only in place of the handshake's
//! or the `Resume`'s answer; it cannot be mistaken for either (a Noise message 2 is at
//! least 96 bytes, an encrypted frame fails to decrypt anyway). Like the closing of a
//! TCP connection it is not authenticated, so a guest only takes it as the reason an
//! attempt failed, never as a reason to give up: it retries as after any failed attempt.
//!
//! ```
//! use banco_net::driver::Refusal;
//!
//! let frame = Refusal::Paused.frame();
//! assert_eq!(Refusal::parse(&frame), Some(Refusal::Paused));
//! assert!(Refusal::Paused.text().contains("not taking players now"));
//! // Anything else is no refusal (a handshake message, a move).
//! assert_eq!(Refusal::parse(b"\x00\x01anything"), None);
//! ```

/// The bytes a refusal frame starts with; one byte of reason follows.
const MAGIC: &[u8] = b"\0banco:refused:";

/// Why a host turned a connection away: told to the dialling device in a short frame
/// outside the protocol ([`Refusal::frame`], read back by [`Refusal::parse`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Refusal {
    /// The host paused pairing after several codes went unconfirmed; it takes players
    /// again after a cool-down or when its player reopens.
    Paused,
    /// Every handshake slot is taken.
    Busy,
    /// This device (its address) tried too often, or hung up on too many codes.
    TooOften,
    /// The host's player is comparing another device's code.
    Comparing,
    /// The host is paired with another device.
    Paired,
}

impl Refusal {
    const ALL: [Refusal; 5] = [
        Refusal::Paused,
        Refusal::Busy,
        Refusal::TooOften,
        Refusal::Comparing,
        Refusal::Paired,
    ];

    fn code(self) -> u8 {
        match self {
            Refusal::Paused => 1,
            Refusal::Busy => 2,
            Refusal::TooOften => 3,
            Refusal::Comparing => 4,
            Refusal::Paired => 5,
        }
    }

    /// The frame that tells the dialling device.
    pub fn frame(self) -> Vec<u8> {
        let mut f = MAGIC.to_vec();
        f.push(self.code());
        f
    }

    /// The refusal a frame carries, if it is one.
    pub fn parse(frame: &[u8]) -> Option<Refusal> {
        let code = frame.strip_prefix(MAGIC)?;
        let [code] = code else { return None };
        Refusal::ALL.into_iter().find(|r| r.code() == *code)
    }

    /// What the dialling device's player is told.
    pub fn text(self) -> &'static str {
        match self {
            Refusal::Paused => {
                "the host is not taking players now (too many pairing codes went unconfirmed); \
                 it takes them again in a minute, or when its player reopens"
            }
            Refusal::Busy => "the host is busy with other connections; try again",
            Refusal::TooOften => "the host turned this device away for now: too many attempts",
            Refusal::Comparing => {
                "the host is comparing another device's code; try again once it is answered"
            }
            Refusal::Paired => "the host is paired with another device",
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_refusal_survives_its_frame_and_nothing_else_parses() {
        for r in Refusal::ALL {
            assert_eq!(Refusal::parse(&r.frame()), Some(r));
        }
        let mut long = Refusal::Busy.frame();
        long.push(0);
        assert_eq!(Refusal::parse(&long), None);
        assert_eq!(Refusal::parse(MAGIC), None);
        let mut unknown = MAGIC.to_vec();
        unknown.push(200);
        assert_eq!(Refusal::parse(&unknown), None);
        assert_eq!(Refusal::parse(&[]), None);
    }
}
