//! Property tests: postcard round trip of every message; decoding random bytes never
//! panics (envelopes, handshake payloads, frames, encrypted frames, whole sessions).

use banco_game::{Color, MatchGame};
use banco_protocol::crypto::{Handshake, Identity};
use banco_protocol::frame::{FrameDecoder, MAX_FRAME_LEN, encode_frame};
use banco_protocol::message::{
    AbortReason, Accept, Body, ClockSpec, DeclineReason, Envelope, ErrorCode, Hello, MAX_FEN_LEN,
    MAX_PARAMS_LEN, MoveMsg, Propose, Resume,
};
use banco_protocol::sim::CountingGame;
use banco_protocol::{Session, SessionConfig};
use proptest::prelude::*;

fn color() -> impl Strategy<Value = Color> {
    prop_oneof![Just(Color::Red), Just(Color::Black)]
}

fn propose() -> impl Strategy<Value = Propose> {
    (
        any::<u8>(),
        any::<u8>(),
        color(),
        proptest::option::of((any::<u32>(), any::<u32>())),
        proptest::option::of(".{0,80}"),
        proptest::collection::vec(any::<u8>(), 0..=MAX_PARAMS_LEN),
    )
        .prop_map(|(game, rules, color, clock, fen, params)| Propose {
            game,
            rules,
            color,
            clock: clock.map(|(base_ms, increment_ms)| ClockSpec {
                base_ms,
                increment_ms,
            }),
            fen: fen.filter(|f: &String| f.len() <= MAX_FEN_LEN),
            params,
        })
}

fn accept() -> impl Strategy<Value = Accept> {
    proptest::collection::vec(any::<u8>(), 0..=MAX_PARAMS_LEN).prop_map(|params| Accept { params })
}

fn body() -> impl Strategy<Value = Body> {
    prop_oneof![
        (
            any::<u8>(),
            any::<u32>(),
            "[a-zA-Z0-9 ]{0,64}",
            any::<[u8; 32]>()
        )
            .prop_map(|(version, caps, name, sas)| Body::Hello(Hello {
                version,
                caps,
                name,
                sas
            })),
        propose().prop_map(Body::Propose),
        accept().prop_map(Body::Accept),
        any::<u8>().prop_map(|r| Body::Decline {
            reason: DeclineReason(r)
        }),
        (any::<u8>(), any::<u16>(), any::<u32>(), any::<u32>()).prop_map(
            |(ply, mv, hash, clock)| Body::Move(MoveMsg {
                ply,
                mv,
                hash,
                clock
            })
        ),
        any::<u32>().prop_map(|ply| Body::UndoRequest { ply }),
        any::<bool>().prop_map(|accept| Body::UndoReply { accept }),
        Just(Body::DrawOffer),
        (any::<bool>(), any::<u32>()).prop_map(|(accept, ply)| Body::DrawReply { accept, ply }),
        any::<u32>().prop_map(|ply| Body::Resign { ply }),
        any::<u32>().prop_map(|ply| Body::Flag { ply }),
        Just(Body::Ping),
        Just(Body::Pong),
        (
            any::<[u8; 8]>(),
            any::<u32>(),
            proptest::option::of(any::<[u8; 32]>())
        )
            .prop_map(|(session, last_seen, sas_reveal)| Body::Resume(Resume {
                session,
                last_seen,
                sas_reveal
            })),
        Just(Body::Bye),
        any::<u16>().prop_map(|c| Body::Error { code: ErrorCode(c) }),
        Just(Body::Ack),
        any::<[u8; 10]>().prop_map(|link| Body::Reveal { link }),
        any::<u32>().prop_map(|ply| Body::ClaimDraw { ply }),
        (any::<u32>(), any::<u32>()).prop_map(|(ply, hash)| Body::Resync { ply, hash }),
        any::<u8>().prop_map(|r| Body::Abort {
            reason: AbortReason(r)
        }),
        any::<u32>().prop_map(|ply| Body::TimeForfeit { ply }),
    ]
}

proptest! {
    // Deterministic: a fixed seed.
    #![proptest_config(ProptestConfig {
        failure_persistence: None,
        ..banco_game::testing::proptest_config(None, 0xB4C0)
    })]

    #[test]
    fn envelope_round_trip(seq in 0u8..16, ack in 0u8..16, body in body()) {
        let env = Envelope::new(seq, ack, body);
        let bytes = env.encode();
        prop_assert_eq!(Envelope::decode(&bytes), Ok(env));
    }

    #[test]
    fn proposals_and_acceptances_round_trip(seq in 0u8..16, ack in 0u8..16, p in propose(), a in accept()) {
        for body in [Body::Propose(p), Body::Accept(a)] {
            let env = Envelope::new(seq, ack, body);
            let bytes = env.encode();
            prop_assert_eq!(Envelope::decode(&bytes), Ok(env));
        }
    }

    #[test]
    fn random_proposal_and_acceptance_bytes_never_panic(
        tag in prop_oneof![Just(1u8), Just(2u8)],
        header in any::<u8>(),
        rest in proptest::collection::vec(any::<u8>(), 0..400),
    ) {
        // A header and the tag of Propose or Accept, then anything: decoding gives an
        // error, or a message within the limits that encodes and decodes to itself.
        let mut bytes = vec![header, tag];
        bytes.extend_from_slice(&rest);
        if let Ok(env) = Envelope::decode(&bytes) {
            prop_assert_eq!(Envelope::decode(&env.encode()), Ok(env.clone()));
            let ok = match &env.body {
                Body::Propose(p) => p.params.len() <= MAX_PARAMS_LEN
                    && p.fen.as_ref().is_none_or(|f| f.len() <= MAX_FEN_LEN),
                Body::Accept(a) => a.params.len() <= MAX_PARAMS_LEN,
                _ => false,
            };
            prop_assert!(ok, "{:?}", env);
        }
    }

    #[test]
    fn random_bytes_never_panic(bytes in proptest::collection::vec(any::<u8>(), 0..200)) {
        let _ = Envelope::decode(&bytes);
        let _ = Hello::from_payload(&bytes);
        let _ = banco_protocol::KnownPeers::import(&bytes);
        let mut d = FrameDecoder::new();
        let mut input = &bytes[..];
        while let Ok(Some(_)) = d.decode(&mut input) {}
        prop_assert!(d.buffered() <= MAX_FRAME_LEN);
    }

    #[test]
    fn frames_survive_any_chunking(
        payloads in proptest::collection::vec(proptest::collection::vec(any::<u8>(), 0..300), 0..8),
        chunk in 1usize..50,
    ) {
        let mut wire = Vec::new();
        for p in &payloads {
            encode_frame(p, &mut wire).unwrap();
        }
        let mut d = FrameDecoder::new();
        let mut got = Vec::new();
        for c in wire.chunks(chunk) {
            let mut input = c;
            while let Some(f) = d.decode(&mut input).unwrap() {
                got.push(f);
            }
        }
        prop_assert_eq!(got, payloads);
    }

    #[test]
    fn sessions_survive_random_frames(frames in proptest::collection::vec(proptest::collection::vec(any::<u8>(), 0..120), 1..20)) {
        // A responder waiting for a handshake, fed garbage.
        let mut s: Session<CountingGame> = Session::new(SessionConfig::new("x", CountingGame::kinds()), Identity::from_secret([5; 32]), [6; 32]);
        s.accept(0).unwrap();
        for (i, f) in frames.iter().enumerate() {
            s.handle_datagram(f, i as u64);
            while s.poll_transmit().is_some() {}
        }
        while s.poll_event().is_some() {}
        prop_assert!(s.game().is_none());
    }

    #[test]
    fn transport_rejects_random_frames(bytes in proptest::collection::vec(any::<u8>(), 0..100)) {
        let (a, b) = (Identity::from_secret([1; 32]), Identity::from_secret([2; 32]));
        let mut i = Handshake::initiator(&a, [3; 32]).unwrap();
        let mut r = Handshake::responder(&b, [4; 32]).unwrap();
        r.read_message(&i.write_message(&[]).unwrap()).unwrap();
        i.read_message(&r.write_message(&[]).unwrap()).unwrap();
        r.read_message(&i.write_message(&[]).unwrap()).unwrap();
        let mut t = r.finish().unwrap().transport;
        prop_assert!(t.open(&bytes).is_err());
    }
}

proptest! {
    #![proptest_config(ProptestConfig {
        failure_persistence: None,
        ..banco_game::testing::proptest_config(None, 0xFA12)
    })]

    /// Parameters from a peer: a fair-draw or seed commitment parses or is refused, never
    /// panics, and a valid one splits off exactly the application's bytes.
    #[test]
    fn commitments_in_random_params_parse_or_are_refused(
        params in proptest::collection::vec(any::<u8>(), 0..64),
        head in any::<[u8; 10]>(),
        tail in proptest::collection::vec(any::<u8>(), 0..8),
    ) {
        use banco_protocol::fairdraw::{commitment, parse_commitment};
        use banco_protocol::seed::parse_seed_commitment;
        let _ = parse_commitment(&params);
        let _ = parse_seed_commitment(&params);
        let mut wire = commitment(&head).to_vec();
        wire.extend_from_slice(&tail);
        prop_assert_eq!(parse_commitment(&wire), Ok((head, &tail[..])));
    }

    /// Only the true next link of a chain verifies; any other value is refused and changes
    /// nothing.
    #[test]
    fn only_the_next_link_verifies(
        secret in any::<[u8; 32]>(),
        session in any::<[u8; 8]>(),
        other in any::<[u8; 10]>(),
        steps in 1u32..20,
    ) {
        use banco_protocol::fairdraw::{ChainVerifier, HashChain};
        let chain = HashChain::new(secret, session, Color::Black);
        let mut v = ChainVerifier::new(chain.head(), session, Color::Black);
        for k in 1..steps {
            prop_assert_eq!(v.accept(chain.link(k).unwrap_or_default()), Ok(k));
        }
        let next = chain.link(steps).unwrap_or_default();
        if other != next {
            prop_assert!(v.accept(other).is_err());
            prop_assert_eq!(v.received(), steps - 1);
        }
        prop_assert_eq!(v.accept(next), Ok(steps));
    }

    /// Tickets are always below the total weight.
    #[test]
    fn tickets_stay_in_range(
        session in any::<[u8; 8]>(),
        red in any::<[u8; 10]>(),
        black in any::<[u8; 10]>(),
        step in any::<u32>(),
        ply in any::<u32>(),
        total in 1u64..,
    ) {
        let t = banco_protocol::fairdraw::draw_ticket(session, step, ply, &red, &black, total);
        prop_assert!(t < total);
    }
}
