//! One move through the whole wire path: encode the envelope, encrypt it, decrypt it,
//! decode it, and validate the move against the receiver's xiangqi position (decode the
//! wire move, legality, make, compare the hash, unmake). Reports ns per move.
//!
//! `cargo bench -p banco-protocol --bench move_roundtrip`
#![allow(missing_docs, clippy::unwrap_used, clippy::expect_used)]

use banco_game::{Game, MoveList};
use banco_protocol::crypto::{Handshake, Identity, Transport};
use banco_protocol::message::{Body, Envelope, MoveMsg};
use banco_xiangqi::Xiangqi;
use criterion::{Criterion, criterion_group, criterion_main};
use std::hint::black_box;

fn transports() -> (Transport, Transport) {
    let (a, b) = (
        Identity::from_secret([1; 32]),
        Identity::from_secret([2; 32]),
    );
    let mut i = Handshake::initiator(&a, [3; 32]).unwrap();
    let mut r = Handshake::responder(&b, [4; 32]).unwrap();
    r.read_message(&i.write_message(&[]).unwrap()).unwrap();
    i.read_message(&r.write_message(&[]).unwrap()).unwrap();
    r.read_message(&i.write_message(&[]).unwrap()).unwrap();
    (i.finish().unwrap().transport, r.finish().unwrap().transport)
}

fn move_roundtrip(c: &mut Criterion) {
    let (mut tx, mut rx) = transports();
    let mut receiver = Xiangqi::new();
    let mut list = MoveList::new();
    receiver.legal_moves(&mut list);
    let mv = list.as_slice()[0];
    let mut sender = receiver.clone();
    sender.play(mv).unwrap();
    let msg = MoveMsg {
        ply: 0,
        mv: receiver.encode_move(mv),
        hash: sender.hash() as u32,
        clock: 17,
    };
    let mut plain = Vec::with_capacity(16);

    c.bench_function(
        "move_roundtrip (encode+encrypt+decrypt+decode+validate)",
        |bench| {
            bench.iter(|| {
                plain.clear();
                Envelope::new(3, 2, Body::Move(black_box(msg))).encode_into(&mut plain);
                let frame = tx.seal(&plain).unwrap();
                let opened = rx.open(black_box(&frame)).unwrap();
                let Body::Move(got) = Envelope::decode(&opened).unwrap().body else {
                    unreachable!()
                };
                let mv = receiver.decode_move(got.mv).unwrap();
                assert!(receiver.is_legal(mv));
                let undo = receiver.make_unchecked(mv);
                let ok = receiver.hash() as u32 == got.hash;
                receiver.unmake(mv, undo);
                assert!(ok);
            });
        },
    );

    c.bench_function("move_envelope_codec (encode+decode only)", |bench| {
        bench.iter(|| {
            plain.clear();
            Envelope::new(3, 2, Body::Move(black_box(msg))).encode_into(&mut plain);
            black_box(Envelope::decode(&plain).unwrap());
        });
    });
}

fn parts(c: &mut Criterion) {
    let (mut tx, mut rx) = transports();
    c.bench_function("part: seal+open 10 bytes", |bench| {
        bench.iter(|| {
            let frame = tx.seal(black_box(&[7u8; 10])).unwrap();
            black_box(rx.open(&frame).unwrap());
        });
    });
    let mut receiver = Xiangqi::new();
    let mut list = MoveList::new();
    receiver.legal_moves(&mut list);
    let mv = list.as_slice()[0];
    c.bench_function("part: validate (legal+make+hash+unmake)", |bench| {
        bench.iter(|| {
            assert!(receiver.is_legal(black_box(mv)));
            let undo = receiver.make_unchecked(mv);
            black_box(receiver.hash());
            receiver.unmake(mv, undo);
        });
    });
}

criterion_group!(benches, move_roundtrip, parts);
criterion_main!(benches);
