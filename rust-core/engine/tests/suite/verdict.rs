//! The search scores a side without a legal move as the game says: here xiangqi played
//! with chess's stalemate rule (a node that delegates everything to [`XiangqiNode`] but
//! calls a stalemate a draw) against plain xiangqi, where a stalemated side loses.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)] // helpers of tests

use banco_engine::score::{Score, mated_in};
use banco_engine::{Limits, Repetition, SearchGame, Searcher, Verdict, XiangqiNode, XiangqiParams};
use banco_game::MoveList;
use banco_xiangqi::{Move, RuleSet, Undo, Xiangqi};
use std::sync::atomic::AtomicBool;

/// Xiangqi in which a side without a move draws unless it is in check.
#[derive(Clone)]
struct StalemateDraws(XiangqiNode);

impl SearchGame for StalemateDraws {
    type Game = Xiangqi;
    type Move = Move;
    type Undo = Undo;
    type NullUndo = u16;
    type Params = XiangqiParams;
    const MOVE_INDEX_SIZE: usize = XiangqiNode::MOVE_INDEX_SIZE;

    fn from_game(game: &Xiangqi, rules: &RuleSet, params: &XiangqiParams) -> Self {
        StalemateDraws(XiangqiNode::from_game(game, rules, params))
    }
    fn no_move_verdict(&self, in_check: bool) -> Verdict {
        if in_check {
            Verdict::Loss
        } else {
            Verdict::Draw
        }
    }
    fn side_to_move(&self) -> banco_game::Color {
        self.0.side_to_move()
    }
    fn hash(&self) -> u64 {
        self.0.hash()
    }
    fn in_check(&self) -> bool {
        self.0.in_check()
    }
    fn legal_moves(&self, out: &mut MoveList<Move>) {
        self.0.legal_moves(out);
    }
    fn legal_captures(&self, out: &mut MoveList<Move>) {
        self.0.legal_captures(out);
    }
    fn is_legal(&self, mv: Move) -> bool {
        self.0.is_legal(mv)
    }
    fn make(&mut self, mv: Move) -> Undo {
        self.0.make(mv)
    }
    fn unmake(&mut self, mv: Move, undo: Undo) {
        self.0.unmake(mv, undo);
    }
    fn make_null(&mut self) -> u16 {
        self.0.make_null()
    }
    fn unmake_null(&mut self, undo: u16) {
        self.0.unmake_null(undo);
    }
    fn evaluate(&self) -> i32 {
        self.0.evaluate()
    }
    fn capture_key(&self, mv: Move) -> Option<i32> {
        self.0.capture_key(mv)
    }
    fn capture_value(&self, mv: Move) -> i32 {
        self.0.capture_value(mv)
    }
    fn see_ok(&self, mv: Move) -> bool {
        self.0.see_ok(mv)
    }
    fn tt_code(mv: Move) -> u16 {
        XiangqiNode::tt_code(mv)
    }
    fn from_tt_code(code: u16) -> Option<Move> {
        XiangqiNode::from_tt_code(code)
    }
    fn move_index(mv: Move) -> usize {
        XiangqiNode::move_index(mv)
    }
    fn repetition(&mut self) -> Option<Repetition> {
        self.0.repetition()
    }
    fn rule_draw(&self) -> bool {
        self.0.rule_draw()
    }
    fn has_big_pieces(&self) -> bool {
        self.0.has_big_pieces()
    }
}

fn search<S: SearchGame<Game = Xiangqi, Move = Move>>(
    fen: &str,
    depth: u32,
) -> banco_engine::SearchResult<Move> {
    let game = Xiangqi::from_fen(fen).unwrap();
    let mut s = Searcher::<S>::new(1);
    s.search(
        &game,
        &RuleSet::default(),
        &Limits::depth(depth),
        &AtomicBool::new(false),
        |_| {},
    )
}

#[test]
fn a_stalemated_root_is_lost_or_drawn_as_the_game_says() {
    // Black's king on d9 cannot move (the rook on e8 holds rank 8 and the e-file) and is
    // not in check.
    let fen = "3k5/4R4/9/9/9/9/9/9/9/4K4 b - - 0 1";
    let xiangqi = search::<XiangqiNode>(fen, 3);
    assert_eq!((xiangqi.best_move, xiangqi.value), (None, mated_in(0)));
    let draws = search::<StalemateDraws>(fen, 3);
    assert_eq!((draws.best_move, draws.value), (None, 0));
}

#[test]
fn stalemating_is_no_win_when_stalemate_draws() {
    // Red mates with e1d1 (check) or stalemates with e1e8. In xiangqi both win at once;
    // with stalemate a draw only the check mates.
    let fen = "3k5/9/9/9/9/9/9/9/4R4/4K4 w - - 0 1";
    for depth in 1..=4 {
        let r = search::<StalemateDraws>(fen, depth);
        assert_eq!(r.best_move.unwrap().to_string(), "e1d1", "depth {depth}");
        assert_eq!(r.score, Score::Mate(1));
    }
}

#[test]
fn the_stalemate_below_the_root_scores_as_the_game_says() {
    // Red to move, e1e8 stalemates Black: searched alone, it is a mate in xiangqi and a
    // draw with stalemate a draw.
    let fen = "3k5/9/9/9/9/9/9/9/4R4/4K4 w - - 0 1";
    let game = Xiangqi::from_fen(fen).unwrap();
    let stalemate: Move = "e1e8".parse().unwrap();
    let mut others = MoveList::new();
    banco_game::Game::legal_moves(&game, &mut others);
    let excluded: Vec<Move> = others.iter().copied().filter(|&m| m != stalemate).collect();
    let options = banco_engine::SearchOptions {
        excluded,
        root_margin: None,
    };
    let stop = AtomicBool::new(false);
    let rules = RuleSet::default();
    let mut x = Searcher::<XiangqiNode>::new(1);
    let r = x.search_with(&game, &rules, &Limits::depth(3), &options, &stop, |_| {});
    assert_eq!(r.score, Score::Mate(1));
    let mut d = Searcher::<StalemateDraws>::new(1);
    let r = d.search_with(&game, &rules, &Limits::depth(3), &options, &stop, |_| {});
    assert_eq!((r.best_move, r.value), (Some(stalemate), 0));
}
