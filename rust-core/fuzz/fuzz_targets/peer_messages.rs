//! Messages of a paired peer after decryption: whatever plaintext a peer seals with the
//! link's real keys — any envelope, any body, in any order, at any time — is handled by a
//! session of every game (xiangqi, chess, jieqi) without a panic, each move checked
//! against the session's own rules; what the session then holds is a match it can
//! describe.
//!
//! Input: one byte choosing the game (and whether the peer proposes it first), then
//! chunks of `[length, time step, plaintext…]`.
#![no_main]

use banco_app::any::AnyGame;
use banco_game::{Color, GameKind};
use banco_protocol::crypto::Identity;
use banco_protocol::message::{Body, Envelope, Propose, game_code};
use banco_protocol::sim::RawLink;
use banco_protocol::{Session, SessionConfig};
use libfuzzer_sys::fuzz_target;

/// Pairs a raw peer with `victim` (which accepts), announcing `caps`.
fn pair(victim: &mut Session<AnyGame>, caps: u32) -> Option<RawLink> {
    let (mut link, _) = RawLink::dial(victim, banco_protocol::PROTOCOL_VERSION, caps, 0)?;
    while victim.poll_transmit().is_some() {}
    link.resume(victim, 0)?;
    Some(link)
}

fuzz_target!(|data: &[u8]| {
    let [pick, rest @ ..] = data else {
        return;
    };
    let kind = [GameKind::Xiangqi, GameKind::Chess, GameKind::Jieqi][usize::from(pick % 3)];
    let mut victim = Session::<AnyGame>::new(
        SessionConfig::new("victim", &[kind]),
        Identity::from_secret([1; 32]),
        [2; 32],
    );
    let caps = banco_protocol::message::caps_of(&[kind]);
    let Some(mut link) = pair(&mut victim, caps) else {
        return;
    };
    let peer = &mut link.transport;
    let _ = victim.confirm_peer(false);
    let mut now = 1;
    // Half the inputs start with a real proposal of the game, accepted by the victim.
    if pick & 0x80 != 0 {
        let propose = Body::Propose(Propose {
            game: game_code(kind),
            rules: 0,
            color: if pick & 0x40 != 0 {
                Color::Red
            } else {
                Color::Black
            },
            clock: None,
            fen: None,
            params: Vec::new(),
        });
        if let Ok(frame) = peer.seal(&Envelope::new(0, 0, propose).encode()) {
            victim.handle_datagram(&frame, now);
        }
        let _ = victim.accept_proposal(now);
    }
    let mut rest = rest;
    while let [len, step, tail @ ..] = rest {
        let (plain, next) = tail.split_at(usize::from(*len).min(tail.len()));
        rest = next;
        now += u64::from(*step) * 10;
        if victim.poll_timeout().is_some_and(|t| t <= now) {
            victim.handle_timeout(now);
        }
        // Forged nonces are the crypto layer's business: seal the plaintext for real.
        let Ok(frame) = peer.seal(plain) else {
            return;
        };
        victim.handle_datagram(&frame, now);
        while let Some(out) = victim.poll_transmit() {
            let _ = peer.open(&out);
        }
        while victim.poll_event().is_some() {}
    }
    // Whatever happened, the session describes a consistent match.
    if let Some(snap) = victim.snapshot(now) {
        assert_eq!(snap.spec.game, kind);
    }
});
