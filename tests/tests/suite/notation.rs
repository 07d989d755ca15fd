//! The WXF reference table (Fairy-Stockfish's notation of a legal move in each of many
//! positions, over half of them rich in tandem pieces): Banco reads every row, writes every
//! row's move the same way, and its own WXF and Chinese round-trip for every legal move of
//! every row's position and of positions reached by random play from there.

use banco_xiangqi::{Chinese, Iccs, Move, Position, Square, Wxf, fen};
use std::collections::{HashMap, HashSet};

type Row = HashMap<String, String>;

fn table() -> Vec<Row> {
    let rows = banco_tests::read_tsv("notation/xiangqi-wxf.tsv").unwrap_or_default();
    assert!(rows.len() >= 1000, "WXF table has {} rows", rows.len());
    rows
}

/// The row's position. Fairy-Stockfish kept some boards that Banco refuses as positions
/// (501 of the 1,247 rows: 479 where the side not to move is in check, 22 where the two
/// kings face each other, each then in check); their moves are still legal moves to write.
/// The same board is reached from a position Banco accepts: the side not to move passes
/// (`make_null`), or has one piece elsewhere and moves it into place.
fn position(row: &Row) -> Result<Position, String> {
    let fen = &row["fen"];
    let setup = fen::parse_setup(fen).map_err(|e| format!("{fen}: {e}"))?;
    if let Ok(pos) = Position::from_setup(&setup) {
        return Ok(pos);
    }
    let mut before = setup.clone();
    before.turn = setup.turn.other();
    if let Ok(mut pos) = Position::from_setup(&before) {
        pos.make_null();
        return Ok(pos);
    }
    let theirs = |sq: Square| setup.get(sq).is_some_and(|p| p.color == before.turn);
    for from in Square::all().filter(|&sq| theirs(sq)) {
        for elsewhere in Square::all().filter(|&sq| setup.get(sq).is_none()) {
            let mut board = before.clone();
            board.put(elsewhere, setup.get(from));
            board.put(from, None);
            if let Ok(mut pos) = Position::from_setup(&board) {
                pos.make(Move::new(elsewhere, from));
                if pos.to_setup().board != setup.board {
                    return Err(format!("{fen}: the board was not rebuilt"));
                }
                return Ok(pos);
            }
        }
    }
    Err(format!("{fen}: no legal position leads to this board"))
}

/// The row's position and its move in coordinates.
fn position_and_move(row: &Row) -> Result<(Position, Move), String> {
    let pos = position(row)?;
    let iccs: Iccs = row["move"].parse().map_err(|e| format!("{e}"))?;
    let mv = iccs
        .to_move(&pos)
        .map_err(|e| format!("{} in {}: {e}", row["move"], row["fen"]))?;
    Ok((pos, mv))
}

#[test]
fn every_row_reads_as_its_move() {
    let rows = table();
    let mut failures = Vec::new();
    for row in &rows {
        let (pos, want) = position_and_move(row).unwrap();
        let got = row["wxf"]
            .parse::<Wxf>()
            .map_err(|e| e.to_string())
            .and_then(|w| w.to_move(&pos).map_err(|e| e.to_string()));
        if got != Ok(want) {
            failures.push(format!(
                "{}\t{}\t{}: got {got:?}",
                row["fen"], row["move"], row["wxf"]
            ));
        }
    }
    println!(
        "{} of {} rows read correctly",
        rows.len() - failures.len(),
        rows.len()
    );
    assert!(
        failures.is_empty(),
        "{} rows misread:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

/// Banco writes the table's forms, with the WXF's `.` for sideways where the table (written
/// by Fairy-Stockfish) has `=`; nothing else differs.
#[test]
fn every_row_is_written_as_in_the_table() {
    let rows = table();
    let mut failures = Vec::new();
    for row in &rows {
        let (pos, mv) = position_and_move(row).unwrap();
        let written = Wxf::from_move(&pos, mv).to_string();
        if written != row["wxf"].replace('=', ".") {
            failures.push(format!(
                "{}\t{}\t{}: wrote {written}",
                row["fen"], row["move"], row["wxf"]
            ));
        }
    }
    println!(
        "{} of {} rows written identically",
        rows.len() - failures.len(),
        rows.len()
    );
    assert!(
        failures.is_empty(),
        "{} rows written otherwise:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

/// Every legal move of `pos` written in WXF and Chinese reads back as itself; returns how
/// many moves were checked and pushes failures.
fn round_trip(pos: &Position, failures: &mut Vec<String>) -> usize {
    let moves = pos.legal_moves();
    for &mv in &moves {
        let wxf = Wxf::from_move(pos, mv);
        let text = wxf.to_string();
        let back = text
            .parse::<Wxf>()
            .map_err(|e| e.to_string())
            .and_then(|w| w.to_move(pos).map_err(|e| e.to_string()));
        if back != Ok(mv) {
            failures.push(format!(
                "{} {mv}: WXF {text} reads as {back:?}",
                fen::to_fen(pos)
            ));
        }
        let chinese = Chinese::from_move(pos, mv);
        let text = chinese.to_string();
        let back = text
            .parse::<Chinese>()
            .map_err(|e| e.to_string())
            .and_then(|c| c.to_move(pos).map_err(|e| e.to_string()));
        if back != Ok(mv) {
            failures.push(format!(
                "{} {mv}: Chinese {text} reads as {back:?}",
                fen::to_fen(pos)
            ));
        }
    }
    moves.len()
}

/// SplitMix64: a seeded generator, so that the random games are the same on every run.
struct SplitMix(u64);

impl SplitMix {
    fn below(&mut self, n: usize) -> usize {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        ((z ^ (z >> 31)) % n as u64) as usize
    }
}

#[test]
fn own_notation_round_trips_on_every_row_position_and_beyond() {
    let rows = table();
    let fens: HashSet<&str> = rows.iter().map(|r| r["fen"].as_str()).collect();
    let mut failures = Vec::new();
    let (mut positions, mut moves) = (0, 0);
    let mut rng = SplitMix(0x5EED);
    let mut fens: Vec<&str> = fens.into_iter().collect();
    fens.sort_unstable();
    for f in fens {
        let row = rows.iter().find(|r| r["fen"] == f).unwrap();
        let mut pos = position(row).unwrap();
        // The row's position, then a short random game from it.
        for _ in 0..30 {
            moves += round_trip(&pos, &mut failures);
            positions += 1;
            let legal = pos.legal_moves();
            if legal.is_empty() {
                break;
            }
            let mv = legal.as_slice()[rng.below(legal.len())];
            pos.make(mv);
        }
    }
    println!("{moves} moves of {positions} positions round-trip in WXF and Chinese");
    assert!(
        failures.is_empty(),
        "{} round trips failed:\n{}",
        failures.len(),
        failures.join("\n")
    );
}
