//! UCI and UCCI as real interfaces drive them (Cute Chess, python-chess, ElephantEye's
//! `uccileag`, Chinese GUIs): what they send that Banco misread, found by a review of the
//! protocols against the specifications and those programs.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)] // helpers of tests

use crate::protocols::{Mode, search_total, start, start_mode};
use banco_engine::{EngineGame, ucci, uci};
use banco_game::Game;
use banco_xiangqi::Xiangqi;

/// Xiangqi after `moves` (ICCS, ranks 0–9) from the start.
fn xiangqi_after(moves: &[&str]) -> Xiangqi {
    let mut game = <Xiangqi as EngineGame>::start();
    for m in moves {
        let mv = <Xiangqi as EngineGame>::parse_move(&game, m)
            .unwrap_or_else(|e| panic!("{m} after {moves:?}: {e}"));
        game.play(mv).unwrap();
    }
    game
}

/// `moves` are legal one after the other from the start after `before` (all ICCS).
fn assert_legal_line(before: &[&str], moves: &[String]) {
    let mut all: Vec<&str> = before.to_vec();
    all.extend(moves.iter().map(String::as_str));
    xiangqi_after(&all);
}

/// A coordinate move with ranks 1–10 (`b3b10`) in ICCS (`b2b9`), checked to be one.
fn ranks_from_one(text: &str) -> String {
    let second = 1 + text[1..]
        .find(|c: char| c.is_ascii_lowercase())
        .unwrap_or_else(|| panic!("`{text}` is not a coordinate move"));
    let rank = |digits: &str| -> u32 {
        let r: u32 = digits.parse().unwrap_or_else(|_| panic!("`{text}`"));
        assert!(
            (1..=10).contains(&r),
            "`{text}` is not written with ranks 1-10"
        );
        r - 1
    };
    let (from, to) = text.split_at(second);
    format!(
        "{}{}{}{}",
        &from[..1],
        rank(&from[1..]),
        &to[..1],
        rank(&to[1..])
    )
}

/// The words after `pv` in an `info` line.
fn pv_of(info: &str) -> Vec<String> {
    info.split(" pv ")
        .nth(1)
        .map(|pv| pv.split_whitespace().map(str::to_owned).collect())
        .unwrap_or_default()
}

/// The move and the ponder move of a `bestmove` line.
fn best_and_ponder(line: &str) -> (String, Option<String>) {
    let words: Vec<&str> = line.split_whitespace().collect();
    assert_eq!(words[0], "bestmove", "{line}");
    match words.as_slice() {
        [_, best] => ((*best).to_owned(), None),
        [_, best, "ponder", reply] => ((*best).to_owned(), Some((*reply).to_owned())),
        _ => panic!("not a bestmove line: {line}"),
    }
}

fn run_bytes(ucci_mode: bool, input: &[u8]) -> String {
    let mut out = Vec::new();
    if ucci_mode {
        ucci::run_to_end(input, &mut out).unwrap();
    } else {
        uci::run_to_end(input, &mut out).unwrap();
    }
    String::from_utf8(out).unwrap()
}

/// `printf 'ucci\nsetoption bookfiles C:\\象棋\\b.dat\nisready\n' | iconv -t gbk | banco
/// ucci` answered no `readyok` and exited with 1 (`stream did not contain valid UTF-8`).
/// A line that is not UTF-8 is read with its bad bytes replaced; the session goes on.
#[test]
fn a_line_that_is_not_utf8_does_not_end_the_session() {
    // 象棋 in GBK.
    let gbk: &[u8] = b"setoption bookfiles C:\\\xcf\xf3\xc6\xe5\\b.dat\n";
    for ucci_mode in [true, false] {
        let mut input: Vec<u8> = if ucci_mode {
            &b"ucci\n"[..]
        } else {
            &b"uci\n"[..]
        }
        .to_vec();
        input.extend_from_slice(gbk);
        input
            .extend_from_slice(b"isready\n\xff\xfe garbage\nposition startpos\ngo depth 2\nquit\n");
        let text = run_bytes(ucci_mode, &input);
        assert!(text.contains("readyok"), "{text}");
        assert!(
            text.contains("info string unknown command `\u{fffd}\u{fffd}`"),
            "{text}"
        );
        let best = text.lines().find(|l| l.starts_with("bestmove")).unwrap();
        let (mv, _) = best_and_ponder(best);
        xiangqi_after(&[&mv]);
        if ucci_mode {
            // `bookfiles` is one of the options Banco does without: not a word about it.
            assert!(!text.contains("bookfiles"), "{text}");
        }
    }
}

/// UCCI counts times in seconds unless the engine declares `usemillisec` and the interface
/// turns it on; `uccileag` sent a five-minute game's times in seconds to Banco, which read
/// them as milliseconds and answered in 12 to 26 ms. The option is declared (default true,
/// milliseconds) and `setoption usemillisec false` switches to seconds.
#[test]
fn ucci_declares_usemillisec() {
    let (mut d, handle) = start(true);
    d.send("ucci");
    assert_eq!(
        d.expect("option usemillisec"),
        "option usemillisec type check default true"
    );
    d.expect("ucciok");
    let from = d.seen;
    d.send("setoption usemillisec false");
    d.send("setoption usemillisec true");
    d.send("setoption usemillisec maybe");
    assert_eq!(
        d.expect("info string"),
        "info string usemillisec `maybe` is not true or false"
    );
    assert_eq!(d.lines_since(from, "info string").len(), 1);
    // As uccileag sends it: the time left, the increment, the opponent's.
    d.send("setoption usemillisec false");
    d.send("position startpos");
    d.send("go time 1 increment 0 opptime 1 oppincrement 0");
    let best = d.expect("bestmove ");
    xiangqi_after(&[&best_and_ponder(&best).0]);
    d.send("quit");
    d.expect("bye");
    handle.join().unwrap();
    // The same `go` in either unit.
    let args = [
        "time",
        "300",
        "increment",
        "3",
        "opptime",
        "300",
        "oppincrement",
        "3",
    ];
    let clock = |unit| ucci::go_limits_in(&args, unit).clock.unwrap();
    let seconds = clock(ucci::TimeUnit::Seconds);
    assert_eq!((seconds.time_ms, seconds.inc_ms), (300_000, 3_000));
    let millis = clock(ucci::TimeUnit::Milliseconds);
    assert_eq!((millis.time_ms, millis.inc_ms), (300, 3));
}

/// `Move Overhead` (UCI) and `moveoverhead` (UCCI): offered, set, refused out of range. What
/// it does to the deadlines is `timeman::tests::a_clock_short_of_time_is_not_drained`.
#[test]
fn move_overhead_is_an_option() {
    for ucci_mode in [false, true] {
        let (mut d, handle) = start(ucci_mode);
        let (listing, done, offered, set, bad) = if ucci_mode {
            (
                "ucci",
                "ucciok",
                "option moveoverhead type spin min 0 max 5000 default 30",
                "setoption moveoverhead 100",
                "setoption moveoverhead 5001",
            )
        } else {
            (
                "uci",
                "uciok",
                "option name Move Overhead type spin default 30 min 0 max 5000",
                "setoption name Move Overhead value 100",
                "setoption name Move Overhead value -1",
            )
        };
        d.send(listing);
        assert_eq!(d.expect(&offered[..20]), offered);
        d.expect(done);
        let from = d.seen;
        d.send(set);
        d.send("isready");
        d.expect("readyok");
        assert!(
            d.lines_since(from, "info string").is_empty(),
            "{}",
            d.out.text()
        );
        d.send(bad);
        assert!(
            d.expect("info string")
                .contains("is not a number from 0 to 5000")
        );
        d.send("position startpos");
        d.send(if ucci_mode {
            "go time 500 increment 10"
        } else {
            "go wtime 500 btime 500 winc 10 binc 10"
        });
        let best = d.expect("bestmove ");
        xiangqi_after(&[&best_and_ponder(&best).0]);
        d.send("quit");
        handle.join().unwrap();
    }
}

/// Cute Chess and Fairy-Stockfish write xiangqi with ranks 1–10 under `UCI_Variant xiangqi`
/// (`h3e3`, `b3b10`): Banco read a0–i9 only and a Cute Chess game forfeited on the first
/// move. `XiangqiRanks 1-10` writes and reads ranks 1–10 in `position`, `info pv`,
/// `bestmove` and `ponder`; the default stays ICCS and chess is not touched.
#[test]
fn xiangqi_ranks_from_1_to_10() {
    let (mut d, handle) = start(false);
    d.send("uci");
    assert_eq!(
        d.expect("option name XiangqiRanks"),
        "option name XiangqiRanks type combo default 0-9 var 0-9 var 1-10"
    );
    d.expect("uciok");
    let from = d.seen;
    d.send("setoption name XiangqiRanks value 1-10");
    d.send("setoption name Ponder value true");
    // Central cannon, and Black's horse from the tenth rank.
    d.send("position startpos moves h3e3 h10g8");
    d.send("go depth 4");
    let best = d.expect("bestmove ");
    assert!(
        d.lines_since(from, "info string").is_empty(),
        "{}",
        d.out.text()
    );
    let played = ["h2e2", "h9g7"];
    let infos = d.lines_since(from, "info depth");
    assert!(!infos.is_empty());
    for info in &infos {
        let pv: Vec<String> = pv_of(info).iter().map(|m| ranks_from_one(m)).collect();
        assert!(!pv.is_empty(), "{info}");
        assert_legal_line(&played, &pv);
    }
    let (mv, reply) = best_and_ponder(&best);
    let reply = reply.unwrap_or_else(|| panic!("no ponder move: {best}"));
    assert_legal_line(&played, &[ranks_from_one(&mv), ranks_from_one(&reply)]);
    // `searchmoves` in ranks 1–10 too: the two rook steps from the first rank.
    d.send("position startpos moves h3e3 h10g8");
    d.send("go depth 2 searchmoves a1a2 i1i2");
    let (mv, _) = best_and_ponder(&d.expect("bestmove "));
    assert!(["a1a2", "i1i2"].contains(&mv.as_str()), "{mv}");
    // Kept across a switch of variant; chess's own ranks are not shifted.
    d.send("setoption name UCI_Variant value chess");
    d.send("position startpos moves e2e4");
    d.send("go depth 3");
    let (mv, _) = best_and_ponder(&d.expect("bestmove "));
    let mut chess =
        banco_chess::Chess::from_fen("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1")
            .unwrap();
    let reply = <banco_chess::Chess as EngineGame>::parse_move(&chess, &mv).unwrap();
    chess.play(reply).unwrap();
    d.send("setoption name UCI_Variant value xiangqi");
    d.send("position startpos moves b3b10");
    d.send("isready");
    d.expect("readyok");
    assert!(
        d.lines_since(from, "info string").is_empty(),
        "{}",
        d.out.text()
    );
    // A bad move is quoted as the interface sent it (h2e2, from rank 2: nothing there),
    // not in ICCS's numbering (h1e1).
    d.send("position startpos moves h2e2");
    let bad = d.expect("info string");
    assert!(bad.contains("h2e2") && !bad.contains("h1e1"), "{bad}");
    // Back to ICCS.
    d.send("setoption name XiangqiRanks value 0-9");
    d.send("position startpos moves h2e2 h9g7");
    d.send("go depth 3");
    let (mv, reply) = best_and_ponder(&d.expect("bestmove "));
    assert_legal_line(&played, &[mv, reply.unwrap()]);
    d.send("setoption name XiangqiRanks value 1-9");
    assert_eq!(
        d.expect("info string"),
        "info string XiangqiRanks `1-9` is not 0-9 or 1-10"
    );
    d.send("quit");
    handle.join().unwrap();
}

/// A search still running when the input ends (the GUI is gone) searched on to its limit,
/// an orphan burning a core: the end of the input is `quit` now. The search stops at once
/// and prints the best move it has (a legal one), long before its limit.
#[test]
fn the_end_of_the_input_is_quit() {
    const LIMIT: u64 = 50_000_000;
    for ucci_mode in [false, true] {
        let text = run_bytes(
            ucci_mode,
            format!("position startpos moves h2e2\ngo nodes {LIMIT}\n").as_bytes(),
        );
        let total = text
            .lines()
            .find(|l| {
                l.starts_with(if ucci_mode {
                    "info time "
                } else {
                    "info nodes "
                })
            })
            .unwrap_or_else(|| panic!("{text}"));
        let nodes: u64 = total
            .split_whitespace()
            .skip_while(|w| *w != "nodes")
            .nth(1)
            .unwrap()
            .parse()
            .unwrap();
        assert!(nodes < LIMIT, "{total}");
        let best: Vec<&str> = text.lines().filter(|l| l.starts_with("bestmove")).collect();
        assert_eq!(best.len(), 1, "{text}");
        assert_legal_line(&["h2e2"], &[best_and_ponder(best[0]).0]);
        if ucci_mode {
            assert!(text.ends_with("bye\n"), "{text}");
        }
    }
}

/// Pondering was implemented but no interface could reach it: nothing offered `Ponder`
/// and no best move named a reply. `Ponder` (UCCI `ponder`) is offered; once on, the best
/// move names the principal variation's second move, as `bestmove M ponder R`.
#[test]
fn ponder_names_the_expected_reply() {
    for ucci_mode in [false, true] {
        let (mut d, handle) = start(ucci_mode);
        if ucci_mode {
            d.send("ucci");
            assert_eq!(
                d.expect("option ponder"),
                "option ponder type check default false"
            );
            d.expect("ucciok");
        } else {
            d.send("uci");
            assert_eq!(
                d.expect("option name Ponder"),
                "option name Ponder type check default false"
            );
            d.expect("uciok");
        }
        // Off by default: the best move alone, as before.
        d.send("position startpos moves h2e2 h9g7");
        d.send("go depth 4");
        assert_eq!(best_and_ponder(&d.expect("bestmove")).1, None);
        d.send(if ucci_mode {
            "setoption ponder true"
        } else {
            "setoption name Ponder value true"
        });
        let from = d.seen;
        d.send("go depth 4");
        let best = d.expect("bestmove");
        let pv = pv_of(d.lines_since(from, "info depth").last().unwrap());
        let (mv, reply) = best_and_ponder(&best);
        let reply = reply.unwrap_or_else(|| panic!("{best}"));
        assert_eq!([&mv, &reply], [&pv[0], &pv[1]], "{best} after {pv:?}");
        assert_legal_line(&["h2e2", "h9g7"], &[mv.clone(), reply.clone()]);
        // The interface ponders on that reply, then it is played.
        d.send(&format!("position startpos moves h2e2 h9g7 {mv} {reply}"));
        d.send("go ponder depth 3");
        d.expect("info depth");
        d.send("ponderhit");
        let (next, _) = best_and_ponder(&d.expect("bestmove"));
        assert_legal_line(&["h2e2", "h9g7", &mv, &reply], &[next]);
        d.send("quit");
        handle.join().unwrap();
    }
}

/// `uccileag` starts every engine with `setoption promotion false`, `setoption ponder
/// false`, `setoption newgame` (a button: no value) and `setoption usemillisec true`;
/// Banco refused `newgame` ("needs a name and a value") and printed an error for each of
/// the others. They are accepted now, the options Banco does without silently.
#[test]
fn ucci_accepts_the_options_of_the_specification() {
    let (mut d, handle) = start(true);
    d.send("ucci");
    d.expect("option newgame type button");
    d.expect("ucciok");
    let from = d.seen;
    for line in [
        "setoption promotion false",
        "setoption ponder false",
        "setoption newgame",
        "setoption usemillisec true",
        "setoption batch on",
        "setoption debug off",
        "setoption usebook false",
        "setoption bookfiles a.dat;b.dat",
        "setoption usehash true",
        "setoption idle none",
        "setoption pruning large",
        "setoption knowledge large",
        "setoption randomness none",
        "setoption hashsize 8",
        "setoption threads 1",
        "setoption level 10",
    ] {
        d.send(line);
    }
    d.send("isready");
    d.expect("readyok");
    assert!(
        d.lines_since(from, "info string").is_empty(),
        "{}",
        d.out.text()
    );
    d.send("setoption frobnicate 3");
    assert_eq!(
        d.expect("info string"),
        "info string unknown option `frobnicate`"
    );
    d.send("setoption hashsize");
    assert_eq!(
        d.expect("info string"),
        "info string setoption hashsize needs a value"
    );
    d.send("position startpos");
    d.send("go depth 2");
    let best = d.expect("bestmove ");
    xiangqi_after(&[&best_and_ponder(&best).0]);
    d.send("quit");
    d.expect("bye");
    handle.join().unwrap();
}

/// After a `position fen` that could not be read, the next `go` searched the previous
/// position and answered a move of another position. There is no position now: `go`
/// answers at once with an `info string` and `bestmove 0000` (UCCI `nobestmove`).
#[test]
fn a_position_that_cannot_be_read_leaves_nothing_to_search() {
    for ucci_mode in [false, true] {
        let (mut d, handle) = start(ucci_mode);
        let no_move = if ucci_mode {
            "nobestmove"
        } else {
            "bestmove 0000"
        };
        d.send("position startpos moves h2e2");
        d.send("go depth 2");
        d.expect("bestmove ");
        for bad in [
            "position fen rnbakabnr/9/1c5c1 w",
            "position fen",
            "position frobnicate",
        ] {
            d.send(bad);
            assert!(d.expect("info string").contains("bad position"), "{bad}");
            d.send("go depth 3");
            assert!(d.expect("info string").contains("no position"), "{bad}");
            assert_eq!(d.expect("").as_str(), no_move, "{bad}");
            d.send("go infinite");
            assert!(d.expect("info string").contains("no position"), "{bad}");
            assert_eq!(d.expect("").as_str(), no_move, "{bad}");
        }
        // A position that can be read brings the search back.
        d.send("position startpos moves h2e2");
        d.send("go depth 2");
        let best = d.expect("bestmove");
        assert_legal_line(&["h2e2"], &[best_and_ponder(&best).0]);
        d.send("quit");
        handle.join().unwrap();
    }
}

/// `go movetime -5`, `go depth -3`, `go depth 1.5`: the limit was dropped, the search
/// became infinite and never answered without `stop`. A limit that is not a whole number
/// is taken at its least (depth 1, nodes 1, movetime or time 0) with an `info string`,
/// and the search answers by itself.
#[test]
fn a_limit_that_is_not_a_number_still_answers() {
    for (mode, gos) in [
        (
            Mode::Uci,
            &[
                "go movetime -5",
                "go depth -3",
                "go depth 1.5",
                "go depth",
                "go nodes x",
                "go mate -1",
            ][..],
        ),
        (
            Mode::Ucci,
            &[
                "go time -5",
                "go depth -3",
                "go nodes 1.5",
                "go time 1000 increment x",
                "go depth",
            ][..],
        ),
    ] {
        let (mut d, handle) = start_mode(mode);
        let ucci_mode = matches!(mode, Mode::Ucci);
        for go in gos {
            d.send("position startpos moves h2e2");
            d.send(go);
            let note = d.expect("info string");
            assert!(
                note.contains("is not a whole number: read as"),
                "{go}: {note}"
            );
            let (_, best) = search_total(&mut d, ucci_mode);
            assert_legal_line(&["h2e2"], &[best_and_ponder(&best).0]);
        }
        d.send("quit");
        handle.join().unwrap();
    }
}

/// UCCI's `probe` (what the table holds for a position, answered `pophash`): after a
/// search the root's entry gives the move the search chose and a value with its depth;
/// a position never searched, a cleared table and a position that cannot be read answer
/// `pophash` alone; the session's own position is left as it is.
#[test]
fn ucci_probe_answers_pophash_from_the_table() {
    let (mut d, handle) = start(true);
    d.send("ucci");
    d.expect("ucciok");
    d.send("probe startpos");
    assert_eq!(d.expect("pophash"), "pophash", "an empty table");
    d.send("position startpos moves h2e2");
    d.send("go depth 5");
    let best = d.expect("bestmove ");
    let best = best_and_ponder(&best).0;
    d.send("probe startpos moves h2e2");
    let pop = d.expect("pophash");
    let words: Vec<&str> = pop.split_whitespace().collect();
    assert_eq!(
        words.get(1..3),
        Some(&["bestmove", best.as_str()][..]),
        "{pop}"
    );
    let bound = words
        .iter()
        .position(|&w| w == "lowerbound" || w == "upperbound")
        .unwrap_or_else(|| panic!("no bound in `{pop}`"));
    let value: i32 = words[bound + 1].parse().unwrap();
    assert!(value.abs() < 30_000, "{pop}");
    assert_eq!(words[bound + 2], "depth", "{pop}");
    let depth: u32 = words[bound + 3].parse().unwrap();
    assert!((1..=64).contains(&depth), "{pop}");
    // A position the search never reached.
    d.send("probe fen 3k5/9/9/9/9/9/9/9/4R4/4K4 w - - 0 1");
    assert_eq!(d.expect("pophash"), "pophash");
    // A position that cannot be read: why, then an empty answer.
    let from = d.seen;
    d.send("probe startpos moves e0e5");
    assert_eq!(d.expect("pophash"), "pophash");
    assert_eq!(d.lines_since(from, "info string probe:").len(), 1);
    // The probes left the session's position alone: a search still answers a move of
    // the position after h2e2.
    d.send("go depth 2");
    let reply = d.expect("bestmove ");
    xiangqi_after(&["h2e2", &best_and_ponder(&reply).0]);
    d.send("setoption newgame");
    d.send("probe startpos moves h2e2");
    assert_eq!(d.expect("pophash"), "pophash", "a cleared table");
    d.send("quit");
    d.expect("bye");
    handle.join().unwrap();
}
