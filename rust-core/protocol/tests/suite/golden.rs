//! Golden bytes: the frozen wire layout of every message. A failure here means the
//! layout changed: bump `PROTOCOL_VERSION` and update the table on purpose.

use banco_game::Color;
use banco_protocol::PROTOCOL_VERSION;
use banco_protocol::message::{
    AbortReason, Accept, Body, CAP_CHESS, CAP_XIANGQI, ClockSpec, DeclineReason, Envelope,
    ErrorCode, Hello, MoveMsg, Propose, Resume,
};

/// A normal chess move as the chess crate encodes it: from | to << 6 (a1 = 0 … h8 = 63).
const fn chess_code(from: u16, to: u16) -> u16 {
    from | to << 6
}

fn samples() -> Vec<(&'static str, Envelope)> {
    let env = |seq, ack, body| Envelope::new(seq, ack, body);
    vec![
        (
            "hello",
            env(
                0,
                0,
                Body::Hello(Hello {
                    version: 2,
                    caps: CAP_XIANGQI | CAP_CHESS,
                    name: "An".into(),
                    sas: [0xab; 32],
                }),
            ),
        ),
        (
            "propose",
            env(
                1,
                2,
                Body::Propose(Propose {
                    game: 0,
                    rules: 1,
                    color: Color::Black,
                    clock: Some(ClockSpec {
                        base_ms: 300_000,
                        increment_ms: 5_000,
                    }),
                    fen: None,
                    params: Vec::new(),
                }),
            ),
        ),
        (
            "propose_untimed",
            env(
                1,
                2,
                Body::Propose(Propose {
                    game: 0,
                    rules: 0,
                    color: Color::Red,
                    clock: None,
                    fen: None,
                    params: Vec::new(),
                }),
            ),
        ),
        (
            "propose_chess_fen_params",
            env(
                1,
                2,
                Body::Propose(Propose {
                    game: 2,
                    rules: 1,
                    color: Color::Black,
                    clock: None,
                    fen: Some("4k3/8/8/8/8/8/8/R3K3 w Q - 0 1".into()),
                    params: vec![1, 2, 3],
                }),
            ),
        ),
        ("accept", env(2, 3, Body::Accept(Accept::default()))),
        (
            "accept_params",
            env(
                2,
                3,
                Body::Accept(Accept {
                    params: vec![0x5a; 32],
                }),
            ),
        ),
        (
            "decline",
            env(
                3,
                4,
                Body::Decline {
                    reason: DeclineReason::BUSY,
                },
            ),
        ),
        (
            "move",
            env(
                5,
                4,
                Body::Move(MoveMsg {
                    ply: 12,
                    mv: 7 * 90 + 34,
                    hash: 0x1234_5678,
                    clock: 42,
                }),
            ),
        ),
        (
            "move_chess_e2e4",
            env(
                5,
                4,
                Body::Move(MoveMsg {
                    ply: 0,
                    mv: chess_code(12, 28),
                    hash: 0x1234_5678,
                    clock: 42,
                }),
            ),
        ),
        ("undo_request", env(6, 5, Body::UndoRequest { ply: 10 })),
        ("undo_reply", env(7, 6, Body::UndoReply { accept: true })),
        ("draw_offer", env(8, 7, Body::DrawOffer)),
        (
            "draw_reply",
            env(
                9,
                8,
                Body::DrawReply {
                    accept: false,
                    ply: 200,
                },
            ),
        ),
        ("resign", env(10, 9, Body::Resign { ply: 33 })),
        ("flag", env(11, 10, Body::Flag { ply: 34 })),
        ("ping", env(12, 11, Body::Ping)),
        ("pong", env(13, 12, Body::Pong)),
        (
            "resume",
            env(
                14,
                13,
                Body::Resume(Resume {
                    session: [1, 2, 3, 4, 5, 6, 7, 8],
                    last_seen: 300,
                    sas_reveal: None,
                }),
            ),
        ),
        (
            "resume_reveal",
            env(
                14,
                13,
                Body::Resume(Resume {
                    session: [9; 8],
                    last_seen: 0,
                    sas_reveal: Some([0xcd; 32]),
                }),
            ),
        ),
        ("bye", env(15, 14, Body::Bye)),
        (
            "error",
            env(
                0,
                15,
                Body::Error {
                    code: ErrorCode::DESYNC,
                },
            ),
        ),
        ("ack", env(1, 0, Body::Ack)),
        ("reveal", env(2, 1, Body::Reveal { link: [0xee; 10] })),
        ("claim_draw", env(3, 2, Body::ClaimDraw { ply: 101 })),
        (
            "propose_jieqi_commitment",
            env(
                4,
                3,
                Body::Propose(Propose {
                    game: 1,
                    rules: 0,
                    color: Color::Red,
                    clock: None,
                    fen: None,
                    params: banco_protocol::fairdraw::commitment(&[0x5a; 10]).to_vec(),
                }),
            ),
        ),
        (
            "seed_reveal",
            env(6, 5, Body::SeedReveal { value: [0x5e; 32] }),
        ),
        (
            "race_move",
            env(
                7,
                6,
                Body::RaceMove {
                    turn: 300,
                    from: 40,
                    to: 80,
                },
            ),
        ),
        ("race_stop", env(8, 7, Body::RaceStop { turns: 301 })),
        ("race_cut", env(9, 8, Body::RaceCut { turns: 40 })),
        (
            "propose_lines_race",
            env(
                9,
                8,
                Body::Propose(Propose {
                    game: 3,
                    rules: 0,
                    color: Color::Black,
                    clock: None,
                    fen: None,
                    params: {
                        let mut p = vec![1];
                        p.extend_from_slice(&[0x77; 32]);
                        p.extend_from_slice(&[5, 0x2c, 0x01]);
                        p
                    },
                }),
            ),
        ),
        (
            "accept_jieqi_commitment",
            env(
                5,
                4,
                Body::Accept(Accept {
                    params: banco_protocol::fairdraw::commitment(&[0xa5; 10]).to_vec(),
                }),
            ),
        ),
        (
            "resync",
            env(
                4,
                3,
                Body::Resync {
                    ply: 12,
                    hash: 0x1234_5678,
                },
            ),
        ),
        (
            "abort",
            env(
                5,
                4,
                Body::Abort {
                    reason: AbortReason::POSITIONS_DIFFER,
                },
            ),
        ),
        ("time_forfeit", env(6, 5, Body::TimeForfeit { ply: 40 })),
    ]
}

fn hex(bytes: &[u8]) -> String {
    bytes
        .iter()
        .fold(String::new(), |acc, b| acc + &format!("{b:02x}"))
}

const GOLDEN: &[(&str, &str)] = &[
    (
        "hello",
        "0000020502416eabababababababababababababababababababababababababababababababab",
    ),
    ("propose", "120100010101e0a71288270000"),
    ("propose_untimed", "1201000000000000"),
    (
        "propose_chess_fen_params",
        "120102010100011e346b332f382f382f382f382f382f382f52334b3320772051202d2030203103010203",
    ),
    ("accept", "230200"),
    (
        "accept_params",
        "2302205a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a",
    ),
    ("decline", "340303"),
    ("move", "54040c9805785634122a"),
    ("move_chess_e2e4", "5404008c0e785634122a"),
    ("undo_request", "65050a"),
    ("undo_reply", "760601"),
    ("draw_offer", "8707"),
    ("draw_reply", "980800c801"),
    ("resign", "a90921"),
    ("flag", "ba0a22"),
    ("ping", "cb0b"),
    ("pong", "dc0c"),
    ("resume", "ed0d0102030405060708ac0200"),
    (
        "resume_reveal",
        "ed0d09090909090909090001cdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcd",
    ),
    ("bye", "fe0e"),
    ("error", "0f0f05"),
    ("ack", "1010"),
    ("reveal", "2111eeeeeeeeeeeeeeeeeeee"),
    ("claim_draw", "321265"),
    (
        "propose_jieqi_commitment",
        "430101000000000b015a5a5a5a5a5a5a5a5a5a",
    ),
    ("accept_jieqi_commitment", "54020b01a5a5a5a5a5a5a5a5a5a5"),
    ("resync", "43130cf8acd19101"),
    ("abort", "541400"),
    ("time_forfeit", "651528"),
    (
        "seed_reveal",
        "65165e5e5e5e5e5e5e5e5e5e5e5e5e5e5e5e5e5e5e5e5e5e5e5e5e5e5e5e5e5e5e5e",
    ),
    ("race_move", "7617ac022850"),
    ("race_stop", "8718ad02"),
    ("race_cut", "981928"),
    (
        "propose_lines_race",
        "9801030001000024017777777777777777777777777777777777777777777777777777777777777777052c01",
    ),
];

/// The variant of a body as a number; no wildcard, so a new variant fails to compile here
/// until it gets a sample.
fn variant(body: &Body) -> usize {
    match body {
        Body::Hello(_) => 0,
        Body::Propose(_) => 1,
        Body::Accept(_) => 2,
        Body::Decline { .. } => 3,
        Body::Move(_) => 4,
        Body::UndoRequest { .. } => 5,
        Body::UndoReply { .. } => 6,
        Body::DrawOffer => 7,
        Body::DrawReply { .. } => 8,
        Body::Resign { .. } => 9,
        Body::Flag { .. } => 10,
        Body::Ping => 11,
        Body::Pong => 12,
        Body::Resume(_) => 13,
        Body::Bye => 14,
        Body::Error { .. } => 15,
        Body::Ack => 16,
        Body::Reveal { .. } => 17,
        Body::ClaimDraw { .. } => 18,
        Body::Resync { .. } => 19,
        Body::Abort { .. } => 20,
        Body::TimeForfeit { .. } => 21,
        Body::SeedReveal { .. } => 22,
        Body::RaceMove { .. } => 23,
        Body::RaceStop { .. } => 24,
        Body::RaceCut { .. } => 25,
    }
}

#[test]
fn every_body_has_a_sample() {
    let mut seen: Vec<usize> = samples().iter().map(|(_, e)| variant(&e.body)).collect();
    seen.sort_unstable();
    seen.dedup();
    assert_eq!(seen, (0..=25).collect::<Vec<_>>());
    // The wire tag is the variant number.
    for (name, env) in samples() {
        assert_eq!(
            usize::from(env.encode()[1]),
            variant(&env.body),
            "tag of {name}"
        );
    }
}

#[test]
fn every_message_has_frozen_bytes() {
    assert_eq!(
        PROTOCOL_VERSION, 3,
        "bump the golden table together with the version"
    );
    let mut missing = Vec::new();
    for (name, env) in samples() {
        let bytes = env.encode();
        assert_eq!(
            Envelope::decode(&bytes).as_ref(),
            Ok(&env),
            "{name} round trip"
        );
        match GOLDEN.iter().find(|(n, _)| *n == name) {
            Some((_, want)) => assert_eq!(hex(&bytes), *want, "layout of {name} changed"),
            None => missing.push(format!("(\"{name}\", \"{}\"),", hex(&bytes))),
        }
    }
    assert!(
        missing.is_empty(),
        "no golden bytes for:\n{}",
        missing.join("\n")
    );
}

fn move_size(ply: u8, mv: u16, clock: u32) -> usize {
    Envelope::new(
        ply,
        ply.wrapping_add(1),
        Body::Move(MoveMsg {
            ply,
            mv,
            hash: u32::MAX,
            clock,
        }),
    )
    .encode()
    .len()
}

/// The (smallest, largest) move envelope over every code in `codes`, every kind of ply
/// byte, and thinking times below 12.8 s.
fn move_sizes(codes: impl Iterator<Item = u16>) -> (usize, usize) {
    let mut largest = 0;
    let mut smallest = usize::MAX;
    for mv in codes {
        for ply in [0u8, 1, 127, 128, 255] {
            for clock in [0u32, 1, 127] {
                let n = move_size(ply, mv, clock);
                largest = largest.max(n);
                smallest = smallest.min(n);
            }
        }
    }
    (smallest, largest)
}

/// The move envelope must stay within 10 bytes before the AEAD tag.
#[test]
fn move_envelope_size() {
    // Every xiangqi move code (from * 90 + to).
    let (smallest, largest) =
        move_sizes((0..90u16).flat_map(|f| (0..90u16).map(move |t| f * 90 + t)));
    println!(
        "xiangqi move envelope: {smallest}..={largest} bytes before the {}-byte AEAD tag \
         (thinking time < 12.8 s); {} bytes for 12.8 s..27 min",
        banco_protocol::crypto::TAG_LEN,
        move_size(200, 8099, 16_383)
    );
    assert_eq!(largest, 10);
    assert_eq!(move_size(200, 8099, 16_383), 11);
}

/// A chess move code is below 16384 (normal moves `from | to << 6` < 4096, promotions
/// above): a 2-byte varint, so a chess move envelope is at most 10 bytes too.
#[test]
fn chess_move_envelope_size() {
    let e2e4 = chess_code(12, 28); // e2 = 12, e4 = 28
    assert_eq!(e2e4, 1804);
    assert_eq!(move_size(0, e2e4, 42), 10);
    let (smallest, largest) = move_sizes(0..16_384u16);
    println!(
        "chess move envelope: {smallest}..={largest} bytes before the {}-byte AEAD tag \
         (any code < 16384, thinking time < 12.8 s); {} bytes for 12.8 s..27 min",
        banco_protocol::crypto::TAG_LEN,
        move_size(200, 16_383, 16_383)
    );
    assert_eq!(largest, 10);
    // The first code that would not fit: 16384 takes a third varint byte.
    assert_eq!(move_size(0, 16_384, 0), 11);
}
