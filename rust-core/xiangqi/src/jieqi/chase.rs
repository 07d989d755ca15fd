//! The perpetual-chase judge of jieqi: xiangqi's rule (see [`crate::rules`]) over the
//! jieqi board, with what face-down pieces change.
//!
//! ```
//! use banco_xiangqi::jieqi::Jieqi;
//! use banco_xiangqi::RuleSet;
//! use banco_game::{Color, Game, Outcome, WinReason};
//! // Red's rook steps between i3 and h3: from i3 it attacks the unprotected black horse on
//! // i7, from h3 it uncovers the face-down piece on i0 (which moves as a rook) — a new
//! // attack with every move while Black's king only shuffles. Red chases; Red loses.
//! let mut game = Jieqi::from_fen("5k3/9/8n/9/9/9/8R/9/9/3K4X w R 0 1")?;
//! for mv in "i3h3 f9f8 h3i3 f8f9 i3h3 f9f8 h3i3 f8f9".split(' ') {
//!     game.play(mv.parse()?)?;
//! }
//! assert_eq!(
//!     game.outcome(&RuleSet::asian()),
//!     Some(Outcome::Win { winner: Color::Black, reason: WinReason::PerpetualChase })
//! );
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! A repetition cycle never holds a reveal, a face-down piece's step or a capture (none can
//! be undone), so within a cycle only revealed pieces move and no piece leaves the board:
//! pieces are followed by identity from the square they held when the cycle began.
//! Face-down pieces still take part, standing still, as attackers and as victims:
//!
//! * **Attacks** are the moves the rules allow: a face-down piece attacks as the piece it
//!   moves as (its home square's), and revealed advisors and elephants attack wherever
//!   they roam. An attack is judged as in xiangqi — not by a king or a pawn, never on a
//!   king, the capture must be legal, it must be new (or newly come with a discovered
//!   check, or newly unprotected by a pin the move made; a capture that only a pin or a
//!   check held back was an attack all along) — and counts as a chase when the victim has
//!   no legal recapture, or when the same kinds attack each other and the victim could not
//!   take back.
//! * **Values are known only face up.** The exception that a rook attacked by a horse or a
//!   cannon (or a rook, cannon or horse by an advisor or elephant) is chased even when
//!   protected applies only when both pieces are revealed: a face-down piece's worth is the
//!   pool's, not its home square's.
//! * **A face-down victim** is chased when it is unprotected, whatever square it stands on:
//!   the exemption of a pawn on its own half is for a known pawn, and the piece on a pawn's
//!   home square may be a rook.

use super::moves::JieqiMove;
use super::position::{HIDDEN, JieqiPosition, attacked};
use crate::history::History;
use crate::rules::{ChaseInfo, Verdict, new_chases};
use crate::tables::*;
use banco_game::{Color, MoveList};

/// Identities of the pieces in a cycle: a number per side (0–15) for each piece, by square.
struct Ids {
    at: [u8; 256],
}

const NO_ID: u8 = u8::MAX;

impl Ids {
    /// Numbers each side's pieces in board order.
    fn new(pos: &JieqiPosition) -> Ids {
        let mut at = [NO_ID; 256];
        let mut next = [0u8; 2];
        for &s in INNER_OF.iter().take(90) {
            let c = pos.board[s as usize];
            if c != 0 {
                let side = code_side(c & 31) & 1;
                if next[side] < 16 {
                    at[s as usize] = next[side];
                    next[side] += 1;
                }
            }
        }
        Ids { at }
    }

    /// The identity's bit of the piece on `sq` (0 if it has none).
    fn bit(&self, sq: u8) -> u16 {
        match self.at[sq as usize] {
            NO_ID => 0,
            id => 1 << id,
        }
    }

    /// The identity of the piece on `sq` as an index, if any.
    fn index(&self, sq: u8) -> Option<usize> {
        match self.at[sq as usize] {
            NO_ID => None,
            id => Some(usize::from(id)),
        }
    }

    /// A piece went from `f` to `t` (never a capture inside a cycle).
    fn step(&mut self, f: u8, t: u8) {
        self.at[t as usize] = self.at[f as usize];
        self.at[f as usize] = NO_ID;
    }
}

/// The verdict on a repetition cycle of the last `span` plies in which nobody checked
/// perpetually: the side that chased one enemy piece with every move loses, both: a draw.
pub(crate) fn perpetual_chase(history: &History<JieqiPosition>, span: usize) -> Verdict {
    let cycle = history.cycle(span);
    let mut pos = history.pos().clone();
    for p in cycle.iter().rev() {
        pos.unmake(p.mv, p.undo);
    }
    let mut ids = Ids::new(&pos);
    let mut chase = [u16::MAX; 2];
    for p in cycle {
        let JieqiMove::Step(m) = p.mv else {
            return Verdict::Draw;
        };
        let (f, t) = (m.inner_from(), m.to_inner());
        if pos.board[t as usize] != 0 || pos.board[f as usize] & HIDDEN != 0 {
            return Verdict::Draw;
        }
        let x = pos.side_to_move().index();
        let before = chase_info(&pos, x, &ids);
        pos.make(p.mv);
        ids.step(f, t);
        let after = chase_info(&pos, x, &ids);
        chase[x] &= new_chases(&before, &after);
    }
    match (chase[0] != 0, chase[1] != 0) {
        (true, false) => Verdict::PerpetualChase(Color::Red),
        (false, true) => Verdict::PerpetualChase(Color::Black),
        _ => Verdict::Draw,
    }
}

/// Attacks and chases of side `chaser` in `pos`, whoever is to move.
fn chase_info(pos: &JieqiPosition, chaser: usize, ids: &Ids) -> ChaseInfo {
    let victim = 1 - chaser;
    let mut info = ChaseInfo::default();
    let mut steps = MoveList::new();
    for &f in INNER_OF.iter().take(90) {
        let code = pos.board[f as usize];
        if code == 0 || code_side(code & 31) & 1 != chaser {
            continue;
        }
        let Some(a) = ids.index(f) else { continue };
        let kind = code & 7;
        if kind == KING || kind == PAWN {
            continue;
        }
        steps.clear();
        pos.gen_piece(f, code, chaser, &mut steps);
        for mv in &steps {
            let JieqiMove::Step(m) = *mv else { continue };
            let t = m.to_inner();
            let v = pos.board[t as usize];
            if v == 0 {
                continue;
            }
            let (vkind, vhidden) = (v & 7, v & HIDDEN != 0);
            if !vhidden && (vkind == KING || (vkind == PAWN && own_half(victim, t))) {
                continue;
            }
            // An attack that a pin or a check keeps from being a legal capture is an
            // attack all along: answering the check or leaving the pin is not a new one.
            let bit = ids.bit(t);
            info.attacks[a] |= bit;
            if pos.step_exposes(chaser, f, t) {
                continue;
            }
            let known = code & HIDDEN == 0 && !vhidden;
            let stronger = known
                && ((matches!(kind, HORSE | CANNON) && vkind == ROOK)
                    || (matches!(kind, ADVISOR | ELEPHANT)
                        && matches!(vkind, ROOK | CANNON | HORSE)));
            let mutual = kind == vkind && can_step(pos, victim, t, f);
            if stronger || !(mutual || protected(pos, chaser, f, t)) {
                info.chases[a] |= bit;
            }
        }
    }
    // A piece whose removal would open one of the chaser's attacks on the victim's king:
    // the chaser's own is a discovered-check piece (`blockers`), the victim's is pinned.
    let king = pos.kings[victim];
    let view = |s: u8| pos.board[s as usize] & 31;
    if !attacked(&view, king, chaser) {
        for &sq in INNER_OF.iter().take(90) {
            let code = pos.board[sq as usize];
            if code == 0 || code & 7 == KING {
                continue;
            }
            let without = |s: u8| {
                if s == sq {
                    0
                } else {
                    pos.board[s as usize] & 31
                }
            };
            if attacked(&without, king, chaser) {
                if code_side(code & 31) & 1 == chaser {
                    info.blockers |= ids.bit(sq);
                } else {
                    info.pinned |= ids.bit(sq);
                }
            }
        }
    }
    info
}

/// Can `side`'s piece on `f` legally step to `t` (whoever is to move)?
fn can_step(pos: &JieqiPosition, side: usize, f: u8, t: u8) -> bool {
    let mut steps = MoveList::new();
    pos.gen_piece(f, pos.board[f as usize], side, &mut steps);
    steps
        .iter()
        .any(|mv| matches!(mv, JieqiMove::Step(m) if m.to_inner() == t))
        && !pos.step_exposes(side, f, t)
}

/// After `chaser` captures `f`→`t`, can the victim legally take back on `t`?
fn protected(pos: &JieqiPosition, chaser: usize, f: u8, t: u8) -> bool {
    let victim = 1 - chaser;
    let mut after = pos.clone();
    after.board[t as usize] = after.board[f as usize];
    after.board[f as usize] = 0;
    after.side = if victim == 0 {
        Color::Red
    } else {
        Color::Black
    };
    after.pending = 0;
    INNER_OF.iter().take(90).any(|&s| {
        let code = after.board[s as usize];
        code != 0 && code_side(code & 31) & 1 == victim && can_step(&after, victim, s, t)
    })
}
