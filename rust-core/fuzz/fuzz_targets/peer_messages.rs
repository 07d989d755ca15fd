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
use banco_protocol::crypto::{Handshake, Identity, Transport};
use banco_protocol::message::{Body, Envelope, Hello, Propose, Resume, game_code};
use banco_protocol::{Session, SessionConfig};
use libfuzzer_sys::fuzz_target;

/// Pairs a raw peer with `victim` (which accepts), as the protocol tests' raw peer does.
fn pair(victim: &mut Session<AnyGame>, caps: u32) -> Option<Transport> {
    let id = Identity::from_secret([77; 32]);
    let mut hs = Handshake::initiator(&id, [78; 32]).ok()?;
    victim.accept(0).ok()?;
    victim.handle_datagram(&hs.write_message(&[]).ok()?, 0);
    let m2 = victim.poll_transmit()?;
    Hello::from_payload(&hs.read_message(&m2).ok()?).ok()?;
    let hello = Hello {
        version: banco_protocol::PROTOCOL_VERSION,
        caps,
        name: "raw".into(),
        sas: [79; 32],
    };
    victim.handle_datagram(&hs.write_message(&hello.to_payload()).ok()?, 0);
    let mut transport = hs.finish().ok()?.transport;
    while victim.poll_transmit().is_some() {}
    let resume = Envelope::new(
        0,
        0,
        Body::Resume(Resume {
            session: [0; 8],
            last_seen: 0,
            sas_reveal: None,
        }),
    );
    victim.handle_datagram(&transport.seal(&resume.encode()).ok()?, 0);
    Some(transport)
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
    let Some(mut peer) = pair(&mut victim, caps) else {
        return;
    };
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
