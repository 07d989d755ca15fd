//! Rule sets and the repetition judge.
//!
//! ```
//! use banco_xiangqi::{Xiangqi, RuleSet};
//! use banco_game::{Game, Outcome, Color, WinReason};
//! // Red's rook checks from f0/e0 forever while Black's king shuffles: Red loses.
//! let mut game = Xiangqi::from_fen("9/4k4/9/9/9/9/9/9/2p6/3K1RBc1 w - - 0 1").unwrap();
//! for mv in "f0e0 e8f8 e0f0 f8e8 f0e0 e8f8 e0f0 f8e8 f0e0 e8f8 e0f0".split(' ') {
//!     game.play(mv.parse().unwrap()).unwrap();
//! }
//! assert_eq!(
//!     game.outcome(&RuleSet::asian()),
//!     Some(Outcome::Win { winner: Color::Black, reason: WinReason::PerpetualCheck })
//! );
//! ```
//!
//! ## What is judged
//!
//! The judge runs when the current position has occurred [`RuleSet::repetitions`] times
//! (3 by default) since the last capture. It looks at every move from the first of those
//! occurrences to now and, for each side, asks:
//!
//! * **Perpetual check** — did every one of this side's moves give check?
//! * **Perpetual chase** (Asian rules only) — is there one enemy piece that every one of this
//!   side's moves chased? A move chases a piece when, after it, one of the mover's pieces attacks
//!   it in a way that counts as a chase **and** that attack is new: that attacker did not attack
//!   the piece before the move (a piece that merely lost a protector while attacked all along is
//!   not chased anew; an attack that a pin or a check kept from being a legal capture was there all
//!   along too, so answering the check or stepping out of the pin does not chase), or the move
//!   turned that attacker into a discovered-check piece (taking would now give check, so the king
//!   can no longer take back — the x-ray case), or the move pinned a piece of the victim's side and
//!   the victim, attacked but protected before, is protected no more (its protector may not leave
//!   the line to take back: the threat is the move's). An attack counts as a chase when the
//!   attacker is not a king or a pawn; the victim is not a king and not a pawn on its own half; the
//!   capture would be legal; and either the victim is a rook attacked by a horse or cannon, or a
//!   rook, cannon or horse attacked by an advisor or elephant (attacks on a stronger piece count
//!   even if it is protected), or the victim has no legal recapture on its square. Attacks between
//!   two pieces of the same kind count only if the victim could not legally capture back (a blocked
//!   horse leg, a pin). A move that gives check and chases at once counts as a chase; a move
//!   that only checks does not. Pieces are followed by identity through the cycle, so chasing
//!   one piece as it flees counts.
//!
//! Then: a side that checks perpetually loses unless the other does too (draw); otherwise a
//! side that chases perpetually loses unless the other does too (draw); otherwise the
//! repetition is a draw. Under [`RepetitionRule::Casual`] only perpetual check is judged.
//!
//! ## Mixed sequences: one check, one chase
//!
//! A side whose moves alternate checks with chases (一将一捉, "one check one chase", or
//! several checks and one chase) neither checks nor chases perpetually, so under these rules
//! it does not lose: the repetition is a draw unless the other side checks or chases
//! perpetually, and that side then loses. This is the Asian rule: the WXF/AXF "Asia rule"
//! (English translation by Eric Wu, wxf.org/xq/rule/asia) says in its rule 12 that one check
//! one chase, or several checks and one chase, is a draw (diagram 13), and in diagrams 37, 38
//! and 50 a side answering a perpetual chase with one check and one chase is allowed while
//! the chaser must vary or lose (diagram 50 is a row of `tests/data/rules/repetition.tsv`).
//! One check, one idle move (一将一闲) and one chase, one idle move are draws too. The
//! Chinese rules of the CXA (象棋竞赛规则, 2011) differ: there checks, chases and mate
//! threats are all "attacks" (打), and a side whose every move attacks (长打, which includes
//! 一将一捉) must vary or lose; Banco has no rule set for them. Casual rules judge
//! perpetual check only, so a check-and-chase mix is a draw there as well.
//!
//! ## What is not judged
//!
//! The finer points of the AXF/WXF rule book are not modelled: chases of a pawn across the river
//! are judged like any other piece (AXF exempts some); a protector that is pinned ("fake root")
//! protects nothing, as the legality of its recapture decides, but only a move that pinned it
//! makes the threat new (not one that only blocked a protector's line); and there is no separate
//! count of checks per piece (the 10-check limit some federations use). The no-capture rule
//! counts plies since the last capture, checks included.

use crate::game::Xiangqi;
use crate::moves::Move;
use crate::position::Position;
use crate::tables::*;
use banco_game::{Color, DrawReason, MoveList, Outcome, WinReason};

/// Which repetition rules apply.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum RepetitionRule {
    /// Asian (AXF/WXF-style) rules: perpetual check and perpetual chase lose.
    #[default]
    Asian,
    /// Casual rules: perpetual check loses, any other repetition draws.
    Casual,
}

/// Rules that decide how a game ends besides mate and stalemate.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct RuleSet {
    /// Repetition rules.
    pub repetition: RepetitionRule,
    /// How many occurrences of a position trigger the judge (3 by default).
    pub repetitions: u8,
    /// Draw after this many plies without a capture; 0 turns the rule off (120 by default).
    pub no_capture_plies: u16,
}

impl Default for RuleSet {
    fn default() -> Self {
        RuleSet::asian()
    }
}

impl RuleSet {
    /// Asian rules, 3-fold repetition judged, 120 plies without capture draw.
    #[must_use]
    pub const fn asian() -> RuleSet {
        RuleSet {
            repetition: RepetitionRule::Asian,
            repetitions: 3,
            no_capture_plies: 120,
        }
    }

    /// Casual rules: 3-fold repetition draws unless one side checked throughout.
    #[must_use]
    pub const fn casual() -> RuleSet {
        RuleSet {
            repetition: RepetitionRule::Casual,
            repetitions: 3,
            no_capture_plies: 120,
        }
    }

    /// The preset with this name (`asian`, `casual`).
    #[must_use]
    pub fn from_name(name: &str) -> Option<RuleSet> {
        match name.to_ascii_lowercase().as_str() {
            "asian" | "axf" | "wxf" => Some(RuleSet::asian()),
            "casual" => Some(RuleSet::casual()),
            _ => None,
        }
    }

    /// The rules in words, as records write them: `asian`, `casual`, or the base name with
    /// the counts that differ from it (`asian repetitions=4 no-capture=100`).
    ///
    /// ```
    /// use banco_xiangqi::RuleSet;
    ///
    /// let mut r = RuleSet::asian();
    /// assert_eq!(r.text(), "asian");
    /// r.no_capture_plies = 100;
    /// assert_eq!(r.text(), "asian repetitions=3 no-capture=100");
    /// assert_eq!(RuleSet::parse_text(&r.text()), Some(r));
    /// ```
    #[must_use]
    pub fn text(self) -> String {
        let base = match self.repetition {
            RepetitionRule::Asian => "asian",
            RepetitionRule::Casual => "casual",
        };
        if RuleSet::from_name(base) == Some(self) {
            base.to_owned()
        } else {
            format!(
                "{base} repetitions={} no-capture={}",
                self.repetitions, self.no_capture_plies
            )
        }
    }

    /// Reads [`RuleSet::text`] back (`None` for anything else).
    #[must_use]
    pub fn parse_text(text: &str) -> Option<RuleSet> {
        let mut words = text.split_whitespace();
        let mut rules = RuleSet::from_name(words.next()?)?;
        for w in words {
            let (k, v) = w.split_once('=')?;
            match k {
                "repetitions" => rules.repetitions = v.parse().ok().filter(|&n| n >= 2)?,
                "no-capture" => rules.no_capture_plies = v.parse().ok()?,
                _ => return None,
            }
        }
        Some(rules)
    }
}

/// The judge's verdict on a repetition.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Verdict {
    /// Nobody is to blame (or both are).
    Draw,
    /// This side loses for perpetual check.
    PerpetualCheck(Color),
    /// This side loses for perpetual chase.
    PerpetualChase(Color),
}

impl Verdict {
    /// The game outcome of this verdict.
    #[must_use]
    pub fn outcome(self) -> Outcome {
        match self {
            Verdict::Draw => Outcome::Draw {
                reason: DrawReason::Repetition,
            },
            Verdict::PerpetualCheck(loser) => Outcome::Win {
                winner: loser.other(),
                reason: WinReason::PerpetualCheck,
            },
            Verdict::PerpetualChase(loser) => Outcome::Win {
                winner: loser.other(),
                reason: WinReason::PerpetualChase,
            },
        }
    }

    /// The losing side, if any.
    #[must_use]
    pub fn loser(self) -> Option<Color> {
        match self {
            Verdict::Draw => None,
            Verdict::PerpetualCheck(c) | Verdict::PerpetualChase(c) => Some(c),
        }
    }
}

/// The outcome of a game on the xiangqi board, judged in order: no legal move (`no_move`
/// is then that outcome), a repetition verdict, the no-capture rule, then insufficient
/// material.
pub(crate) fn board_outcome(
    no_move: Option<Outcome>,
    repetition: impl FnOnce() -> Option<Verdict>,
    halfmoves: u16,
    rules: &RuleSet,
    insufficient_material: impl FnOnce() -> bool,
) -> Option<Outcome> {
    if no_move.is_some() {
        return no_move;
    }
    if let Some(v) = repetition() {
        return Some(v.outcome());
    }
    if rules.no_capture_plies > 0 && halfmoves >= rules.no_capture_plies {
        return Some(Outcome::Draw {
            reason: DrawReason::NoCapture(rules.no_capture_plies),
        });
    }
    if insufficient_material() {
        return Some(Outcome::Draw {
            reason: DrawReason::InsufficientMaterial,
        });
    }
    None
}

/// Judges the current position of `game` if it has occurred `min_occurrences` times.
pub(crate) fn judge(game: &Xiangqi, rules: &RuleSet, min_occurrences: usize) -> Option<Verdict> {
    let history = game.history();
    let pos = game.position();
    let wanted = min_occurrences.max(2);
    let (found, span) = history.repetition_span(wanted);
    if found < wanted || span == 0 {
        return None;
    }
    if let Some(v) = history.perpetual_check(span) {
        return Some(v);
    }
    if rules.repetition == RepetitionRule::Casual {
        return Some(Verdict::Draw);
    }
    let cycle = history.cycle(span);
    let mover_of = |i: usize| history.mover_in_cycle(span, i);
    // Perpetual chase: walk back through the cycle.
    let mut chase = [u16::MAX; 2];
    let mut scratch = pos.clone();
    let mut after = [chase_info(&mut scratch, 0), chase_info(&mut scratch, 1)];
    for (i, p) in cycle.iter().enumerate().rev() {
        let x = mover_of(i).index();
        scratch.unmake(p.mv, p.undo);
        let before = [chase_info(&mut scratch, 0), chase_info(&mut scratch, 1)];
        chase[x] &= new_chases(&before[x], &after[x]);
        after = before;
        if chase == [0, 0] {
            break;
        }
    }
    Some(match (chase[0] != 0, chase[1] != 0) {
        (true, false) => Verdict::PerpetualChase(Color::Red),
        (false, true) => Verdict::PerpetualChase(Color::Black),
        _ => Verdict::Draw,
    })
}

/// The verdict on a repetition cycle from whether every move of each side (by colour
/// index) gave check: `None` when neither side checked throughout (shared with jieqi).
pub(crate) fn perpetual_check_verdict(checks: [bool; 2]) -> Option<Verdict> {
    match checks {
        [true, true] => Some(Verdict::Draw),
        [true, false] => Some(Verdict::PerpetualCheck(Color::Red)),
        [false, true] => Some(Verdict::PerpetualCheck(Color::Black)),
        [false, false] => None,
    }
}

impl Position {
    /// The enemy pieces that `chaser` attacks in this position in a way the repetition judge
    /// counts as a chase (see the module docs), whoever is to move. A UI can use it to warn a
    /// player who is about to repeat a chase.
    #[must_use]
    pub fn chased_by(&self, chaser: Color) -> Vec<crate::Square> {
        let mut scratch = self.clone();
        let set = chase_info(&mut scratch, chaser.index())
            .chases
            .iter()
            .fold(0, |acc, m| acc | m);
        let victim = chaser.other().index();
        (0..16)
            .filter(|i| set & (1 << i) != 0)
            .map(|i| crate::Square::from_inner(self.lists[victim][i]))
            .collect()
    }
}

/// Is `mv` a legal move for the owner of the piece on its from-square (whoever is to move)?
fn legal_for_owner(pos: &mut Position, mv: Move) -> bool {
    let owner = pos.board[mv.inner_from() as usize];
    if owner == 0 {
        return false;
    }
    let side = if code_side(owner) == 0 {
        Color::Red
    } else {
        Color::Black
    };
    let saved = pos.side;
    if saved != side {
        pos.side = side;
    }
    let ok = pos.is_legal(mv);
    pos.side = saved;
    ok
}

/// What one side attacks, per attacking piece (by slot in xiangqi, by identity in jieqi):
/// every enemy piece its moves reach that the chase rules look at, legal or not
/// (`attacks`), and those of them that count as chased (`chases`, see the module docs).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct ChaseInfo {
    pub(crate) attacks: [u16; 16],
    pub(crate) chases: [u16; 16],
    /// Chaser pieces that screen one of their own side's attacks on the enemy king (moving
    /// them would give a discovered check).
    pub(crate) blockers: u16,
    /// Victim pieces that screen their own king from one of the chaser's attacks: pinned,
    /// they may not leave the line, so what they protect off it is protected no more.
    pub(crate) pinned: u16,
}

/// The victims a move chased: attacked in a chasing way after it by an attacker that did not
/// attack them before it (a new attack, as the rules require; a piece that merely lost a
/// protector while attacked all along is not newly chased) — or by an attacker that the move
/// turned into a discovered-check piece (its capture now comes with check, so the king can
/// no longer take back: the x-ray case) — or, when the move pinned a piece of the victim's
/// side, a victim attacked before but protected then: the pin took its protector away (the
/// protector may no longer leave the line to take back), so the threat is the move's.
pub(crate) fn new_chases(before: &ChaseInfo, after: &ChaseInfo) -> u16 {
    let new_blockers = after.blockers & !before.blockers;
    let new_pins = after.pinned & !before.pinned != 0;
    (0..16).fold(0, |acc, slot| {
        let fresh = if new_blockers & (1 << slot) != 0 {
            u16::MAX
        } else if new_pins {
            !before.chases[slot]
        } else {
            !before.attacks[slot]
        };
        acc | (after.chases[slot] & fresh)
    })
}

/// Attacks and chases of `chaser` in this position, whoever is to move.
pub(crate) fn chase_info(pos: &mut Position, chaser: usize) -> ChaseInfo {
    let victim = 1 - chaser;
    let mut info = ChaseInfo::default();
    let mut captures = MoveList::new();
    for (slot, &kind) in SLOT_KIND.iter().enumerate() {
        let from = pos.lists[chaser][slot];
        if from == 0 || kind == KING || kind == PAWN {
            continue;
        }
        captures.clear();
        pos.piece_captures(from, &mut captures);
        for &mv in &captures {
            let to = mv.to_inner();
            let target = pos.board[to as usize];
            let vkind = target & 7;
            let bit = 1u16 << (pos.slot[to as usize] & 15);
            if vkind == KING || (vkind == PAWN && own_half(victim, to)) {
                continue;
            }
            // What the piece attacks by its moves alone, legal or not: a capture that only
            // a pin or a check held back was an attack all along, so the move that lifts
            // the pin or answers the check does not make it new.
            info.attacks[slot] |= bit;
            if !legal_for_owner(pos, mv) {
                continue;
            }
            let stronger = (matches!(kind, HORSE | CANNON) && vkind == ROOK)
                || (matches!(kind, ADVISOR | ELEPHANT) && matches!(vkind, ROOK | CANNON | HORSE));
            // Not protected, and not a mutual attack the victim could answer in kind.
            let mutual = kind == vkind && legal_for_owner(pos, Move::inner(to, from));
            let chased = stronger || !(is_protected(pos, mv) || mutual);
            if chased {
                info.chases[slot] |= bit;
            }
        }
    }
    // A piece whose removal would open one of the chaser's attacks on the victim's king:
    // the chaser's own is a discovered-check piece (`blockers`), the victim's is pinned.
    let king = pos.king_inner(victim);
    if !pos.attacked(king, chaser) {
        for (side, set) in [(chaser, &mut info.blockers), (victim, &mut info.pinned)] {
            for (slot, &kind) in SLOT_KIND.iter().enumerate() {
                let sq = pos.lists[side][slot];
                if sq == 0 || kind == KING {
                    continue;
                }
                // The board as if this piece were gone (a view: the position is not
                // touched, so its occupancy bit sets stay true).
                let without = |s: u8| if s == sq { 0 } else { pos.board[s as usize] };
                if crate::position::attacked_on(&without, king, chaser) {
                    *set |= 1 << slot;
                }
            }
        }
    }
    info
}

/// After the capture `mv`, can the victim legally take back on the capture square?
fn is_protected(pos: &mut Position, mv: Move) -> bool {
    let saved = pos.side;
    let mover = code_side(pos.board[mv.inner_from() as usize]);
    pos.side = if mover == 0 { Color::Red } else { Color::Black };
    let undo = pos.make(mv);
    let mut replies = MoveList::new();
    pos.generate_legal_captures(&mut replies);
    let protected = replies.iter().any(|r| r.to_inner() == mv.to_inner());
    pos.unmake(mv, undo);
    pos.side = saved;
    protected
}
