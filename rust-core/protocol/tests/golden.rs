//! Golden bytes: the frozen wire layout of every message. A failure here means the
//! layout changed: bump `PROTOCOL_VERSION` and update the table on purpose.

use banco_game::Color;
use banco_protocol::PROTOCOL_VERSION;
use banco_protocol::message::{
    Body, ClockSpec, DeclineReason, Envelope, ErrorCode, Hello, MoveMsg, Propose, Resume,
};

fn samples() -> Vec<(&'static str, Envelope)> {
    let env = |seq, ack, body| Envelope::new(seq, ack, body);
    vec![
        (
            "hello",
            env(
                0,
                0,
                Body::Hello(Hello {
                    version: 1,
                    caps: 1,
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
                }),
            ),
        ),
        ("accept", env(2, 3, Body::Accept)),
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
        (
            "reveal",
            env(
                2,
                1,
                Body::Reveal {
                    ply: 5,
                    link: [0xee; 32],
                },
            ),
        ),
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
        "0000010102416eabababababababababababababababababababababababababababababababab",
    ),
    ("propose", "120100010101e0a7128827"),
    ("propose_untimed", "120100000000"),
    ("accept", "2302"),
    ("decline", "340303"),
    ("move", "54040c9805785634122a"),
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
    (
        "reveal",
        "211105eeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeee",
    ),
];

#[test]
fn every_message_has_frozen_bytes() {
    assert_eq!(
        PROTOCOL_VERSION, 1,
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

/// The move envelope must stay within 10 bytes before the AEAD tag.
#[test]
fn move_envelope_size() {
    let size = |ply: u8, mv: u16, clock: u32| {
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
    };
    // Every xiangqi move code (from * 90 + to), every ply byte, thinking time below 12.8 s.
    let mut largest = 0;
    let mut smallest = usize::MAX;
    for from in 0..90u16 {
        for to in 0..90u16 {
            for ply in [0u8, 1, 127, 128, 255] {
                for clock in [0u32, 1, 127] {
                    let n = size(ply, from * 90 + to, clock);
                    largest = largest.max(n);
                    smallest = smallest.min(n);
                }
            }
        }
    }
    println!(
        "move envelope: {smallest}..={largest} bytes before the {}-byte AEAD tag \
         (thinking time < 12.8 s); {} bytes for 12.8 s..27 min",
        banco_protocol::crypto::TAG_LEN,
        size(200, 8099, 16_383)
    );
    assert_eq!(largest, 10);
    assert_eq!(size(200, 8099, 16_383), 11);
}
