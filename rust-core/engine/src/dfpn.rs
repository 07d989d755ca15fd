//! Depth-first proof-number search (df-pn), the search of the mate [`solve`](crate::solve)r.
//!
//! The attacker (the side to move at the root) is at OR nodes: one move that forces mate
//! proves the node. The defender is at AND nodes: every reply must be mated, and so must
//! every outcome of a chance step. Each node carries a proof number (how many leaves must
//! still be proven to prove it) and a disproof number (the same to disprove it); df-pn
//! always expands the most-proving node, recursing with thresholds instead of walking from
//! the root (Nagai's df-pn, with the "1 + ε" threshold trick of Pawlewicz and Lew). The
//! attacker may play any legal move — quiet ones too — and no ordering rule is imposed:
//! the proof numbers put checks first on their own, since a check leaves the defender few
//! replies and an unexplored defender node starts with one proof number per reply.
//!
//! ## Bounded length
//!
//! A search is bounded by the length of the mate it looks for, in plies from the root: an
//! attacker node with no ply left is disproven. Results are stored with their length, so
//! that a table carries over from one bound to the next: a proof records the plies to the
//! mate along its proof tree and counts only where that many plies are left; a disproof
//! records the plies it held for and counts where no more are left. The solver proves a
//! mate within the longest bound, then lowers the bound below the mate found until the
//! search disproves it: the last mate found is then the shortest.
//!
//! ## Repetitions (graph history interaction)
//!
//! A repetition is judged by the game's own rules (the node's [`SearchGame::repetition`])
//! and by the checks along the path. It is a win for the attacker only when the rules make
//! the defender lose it **and** every defender move since the position's first occurrence
//! on the path gave check — a defender whose only escape from mate is perpetual check is
//! lost (Asian and casual xiangqi rules alike) — and only once the position occurs as
//! often as the game judges it ([`SearchGame::repetitions_judged`]: the third time in
//! xiangqi). Until then the search goes on: the defender may go round its checks again, or
//! turn away on the way, and the mate must follow every such line. Everything else — a
//! plain repetition, the attacker's own perpetual check, a perpetual chase, a repetition of
//! a position from before the root — is a disproof at once (the game may go on, but the
//! solver looks for no mate through it).
//!
//! Those results depend on the path: one is stored with the place on the path of the
//! ancestor it rests on and is believed only while the path still leads there the same
//! way (a disproof: that ancestor at that place; a proof: the same positions from the
//! first occurrence to the node, so the same checks); once the search backs up past the
//! ancestor, the result no longer depends on the path. What follows a check of the
//! defender's is also keyed by the defender's checks since its last quiet move (the
//! positions a perpetual check below may come back to, and how often they occurred), so
//! a result found where the defender had more rounds left is not believed where it has
//! fewer, nor the other way round. A stored result can still be wrong on another path
//! (the defender escaping into a repetition of an older position); proofs are therefore
//! checked when the mating line is extracted: [`Dfpn::verify`] walks the proof tree along
//! real paths, judging every repetition as the game does, measures the mate's length (a
//! perpetual check ends its line where the game judges it; the line shown prefers
//! defender replies that end in mate) and proves again, along the path, a part that does
//! not hold there.
//!
//! [`Dfpn::prove_first_repetition`] judges the first repetition of the defender's
//! perpetual check instead, as if the defender could not go round again: a far cheaper
//! search (the defender has fewer defences) whose disproofs hold under the game's rules
//! too, and whose proofs are walked by [`Dfpn::verify`] under the game's rules (going
//! round again makes them longer, or lets the defender escape). Positions the defender
//! reached by a quiet move are keyed alike by both searches: the table shares what they
//! found there, which keeps a disproof of either a disproof under the game's rules and
//! leaves the proofs to `verify`.
//!
//! ```
//! use banco_engine::dfpn::Dfpn;
//! use banco_engine::{EngineGame, SearchGame, XiangqiNode};
//! use banco_xiangqi::{RuleSet, Xiangqi};
//! use std::sync::atomic::AtomicBool;
//! let game = Xiangqi::from_fen("3k5/9/9/9/9/9/9/9/4R4/4K4 w - - 0 1").unwrap();
//! let mut node = XiangqiNode::from_game(&game, &RuleSet::default(), &Default::default());
//! let stop = AtomicBool::new(false);
//! let mut dfpn = Dfpn::new(1, &stop);
//! assert_eq!(dfpn.prove(&mut node, 3), Some(true)); // mate within 3 moves
//! let (moves, line) = dfpn.verify(&mut node, 3).unwrap();
//! assert_eq!(moves, 1);
//! assert_eq!(game.line_text(&line), "e1d1");
//! ```

use crate::searchable::{SearchGame, Verdict};
use banco_game::{ChanceList, Color, ListCapacity, MoveList};
use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

/// Proof and disproof numbers at or above this are infinite.
const INF: u32 = u32::MAX / 2;
/// A disproof that holds for any number of plies left, or a result that depends on no
/// ancestor.
const ANY: u16 = u16::MAX;

/// What is known of a node.
#[derive(Clone, Copy, Debug)]
struct Value<M> {
    pn: u32,
    dn: u32,
    /// A proof: plies to the mate along it. A disproof: the most plies left for which it
    /// holds ([`ANY`]: all).
    len: u16,
    /// A result resting on a repetition: the place on the path of the repeated
    /// ancestor ([`ANY`]: none).
    dep: u16,
    /// The move that proves an attacker node (or the last one tried).
    mv: M,
}

impl<M: Copy> Value<M> {
    fn proven(len: u16, mv: M) -> Self {
        Value::proven_at(len, ANY, mv)
    }

    fn proven_at(len: u16, dep: u16, mv: M) -> Self {
        Value {
            pn: 0,
            dn: INF,
            len,
            dep,
            mv,
        }
    }

    fn disproven(len: u16, dep: u16, mv: M) -> Self {
        Value {
            pn: INF,
            dn: 0,
            len,
            dep,
            mv,
        }
    }
}

#[derive(Clone, Copy, Debug)]
struct Entry<M> {
    key: u64,
    /// A path-dependent disproof: the key of the ancestor it repeats. A path-dependent
    /// proof: a digest of the path from that ancestor to the node (see [`Dfpn::anchor`]).
    anchor: u64,
    /// Nodes the result cost (what replacement keeps).
    work: u64,
    value: Value<M>,
}

/// Entries per bucket of the table.
const WAYS: usize = 4;

/// A node's kind: the attacker chooses, the defender and chance must all fail.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Kind {
    Or,
    And,
}

/// A child as the parent's loop sees it.
#[derive(Clone, Copy, Debug)]
struct Child<M> {
    mv: M,
    /// Plies the step costs: 1 for a move, 0 for a chance outcome.
    step: u16,
    value: Value<M>,
}

/// The df-pn searcher: its table, counters and limits. See the module docs.
pub struct Dfpn<'a, M> {
    table: Vec<[Option<Entry<M>>; WAYS]>,
    /// Keys of the positions on the current path, by place.
    path: Vec<u64>,
    /// Parallel to `path`: false where the attacker was to move and not in check (the
    /// defender's move into that position gave no check).
    checked: Vec<bool>,
    /// Parallel to `path`: a digest of the defender's checks up to that place, the salt
    /// of the table keys below it (see [`Dfpn::table_key`]).
    salts: Vec<u64>,
    /// False while [`Dfpn::prove_first_repetition`] runs: the first repetition of the
    /// defender's perpetual check is judged.
    laps: bool,
    attacker: Color,
    nodes: u64,
    node_limit: u64,
    deadline: Option<Instant>,
    stop: &'a AtomicBool,
    aborted: bool,
    /// [`Dfpn::verify`]: the table keys of the nodes along a line of a proof that failed
    /// on the path walked, deepest first.
    failed: Vec<u64>,
    /// [`Dfpn::verify`]: how many more stored proofs it may prove again along the path.
    repairs: u32,
}

impl<'a, M: Copy + Default + PartialEq + core::fmt::Debug + ListCapacity> Dfpn<'a, M> {
    /// A searcher with a table of `hash_mib` MiB that gives up when `stop` is raised.
    #[must_use]
    pub fn new(hash_mib: usize, stop: &'a AtomicBool) -> Self {
        let buckets = (hash_mib.max(1) << 20) / size_of::<[Option<Entry<M>>; WAYS]>();
        Dfpn {
            table: vec![[None; WAYS]; buckets.max(1)],
            path: Vec::with_capacity(256),
            checked: Vec::with_capacity(256),
            salts: Vec::with_capacity(256),
            laps: true,
            attacker: Color::Red,
            nodes: 0,
            node_limit: u64::MAX,
            deadline: None,
            stop,
            aborted: false,
            failed: Vec::new(),
            repairs: 0,
        }
    }

    /// Gives up after `nodes` nodes in all (counted from the searcher's creation).
    pub fn set_node_limit(&mut self, nodes: u64) {
        self.node_limit = nodes;
    }

    /// Gives up at `deadline`.
    pub fn set_deadline(&mut self, deadline: Option<Instant>) {
        self.deadline = deadline;
    }

    /// Nodes visited so far (positions made on the board).
    #[must_use]
    pub fn nodes(&self) -> u64 {
        self.nodes
    }

    /// True once a limit or the stop flag has cut a search short.
    #[must_use]
    pub fn aborted(&self) -> bool {
        self.aborted
    }

    /// Can the side to move at `node` mate within `moves` of its moves, under the game's
    /// rules? `Some(true)`: proven (for [`Dfpn::verify`] to walk: the table may hold proofs
    /// of [`Dfpn::prove_first_repetition`]); `Some(false)`: disproven (no such mate,
    /// repetitions aside); `None`: a limit was reached first.
    pub fn prove<S: SearchGame<Move = M>>(&mut self, node: &mut S, moves: u32) -> Option<bool> {
        self.laps = true;
        self.search(node, moves)
    }

    /// [`Dfpn::prove`] with the first repetition of the defender's perpetual check judged
    /// (a loss for the defender there), as the game does not: the defender cannot go
    /// round again. The defender has fewer defences than in the game, so a disproof
    /// holds under the game's rules too, while a proof is a candidate for
    /// [`Dfpn::verify`] (often far cheaper to find), which may measure it longer or find
    /// that it does not hold (see the module docs).
    pub fn prove_first_repetition<S: SearchGame<Move = M>>(
        &mut self,
        node: &mut S,
        moves: u32,
    ) -> Option<bool> {
        self.laps = false;
        let r = self.search(node, moves);
        self.laps = true;
        r
    }

    fn search<S: SearchGame<Move = M>>(&mut self, node: &mut S, moves: u32) -> Option<bool> {
        self.attacker = node.side_to_move();
        self.aborted = false;
        let rem = plies_for(moves);
        self.path.clear();
        self.checked.clear();
        self.salts.clear();
        loop {
            let v = self.evaluate(node, rem);
            if v.pn == 0 {
                return Some(true);
            }
            if v.dn == 0 {
                return Some(false);
            }
            self.mid(node, rem, INF - 1, INF - 1);
            if self.aborted {
                return None;
            }
        }
    }

    /// The mate proven at `node` within `moves` moves, checked by walking its proof tree
    /// along real paths (every defender reply, every chance outcome; repetitions judged
    /// on the way as the game judges them): its length in moves of the attacker and the
    /// mating line, the defender choosing the longest resistance. A part of the proof
    /// lost from the table, or that does not hold on the path walked (a proof of
    /// [`Dfpn::prove_first_repetition`] the defender escapes by going round again), is
    /// proven again there, a few times at most. `None` if the proof does not hold or a
    /// limit cut it short.
    pub fn verify<S: SearchGame<Move = M>>(
        &mut self,
        node: &mut S,
        moves: u32,
    ) -> Option<(u32, Vec<M>)> {
        self.attacker = node.side_to_move();
        self.aborted = false;
        self.path.clear();
        self.checked.clear();
        self.salts.clear();
        self.failed.clear();
        self.repairs = REPAIRS;
        let mut memo = HashMap::new();
        let (len, _, _) = self.walk(node, plies_for(moves), &mut memo)?;
        let mut line = Vec::new();
        self.line(node, &memo, &mut line);
        Some((u32::from(len).div_ceil(2), line))
    }

    fn tick(&mut self) -> bool {
        self.nodes += 1;
        if self.nodes & 1023 == 0
            && (self.stop.load(Ordering::Relaxed)
                || self.deadline.is_some_and(|d| Instant::now() >= d))
        {
            self.aborted = true;
        }
        if self.nodes >= self.node_limit {
            self.aborted = true;
        }
        self.aborted
    }

    fn kind<S: SearchGame<Move = M>>(&self, node: &S) -> Kind {
        if !node.awaits_chance() && node.side_to_move() == self.attacker {
            Kind::Or
        } else {
            Kind::And
        }
    }

    fn bucket(&self, key: u64) -> usize {
        ((u128::from(key) * self.table.len() as u128) >> 64) as usize
    }

    /// The stored value of `key` as seen with `rem` plies left at place `place` on the
    /// path: a proof longer than `rem`, a disproof for fewer plies than `rem` or one that
    /// repeats an ancestor no longer on the path is not known here.
    fn lookup(&self, key: u64, rem: u16, place: usize) -> Option<Value<M>> {
        let e = self.table[self.bucket(key)]
            .iter()
            .flatten()
            .find(|e| e.key == key)?;
        let v = e.value;
        let valid = if v.pn == 0 {
            v.len <= rem
                && (v.dep == ANY
                    || (usize::from(v.dep) < place
                        && self.anchor(usize::from(v.dep), place) == e.anchor))
        } else if v.dn == 0 {
            v.len >= rem
                && (v.dep == ANY
                    || (usize::from(v.dep) < place
                        && self.path.get(usize::from(v.dep)) == Some(&e.anchor)))
        } else {
            true
        };
        valid.then_some(v)
    }

    /// Stores `value` for `key`, which cost `work` nodes: over the same key, else over the
    /// entry of the bucket that cost least (a first estimate costs nothing).
    fn store(&mut self, key: u64, value: Value<M>, work: u64) {
        let anchor = if value.dep == ANY {
            0
        } else if value.pn == 0 {
            self.anchor(usize::from(value.dep), self.path.len())
        } else {
            self.path.get(usize::from(value.dep)).copied().unwrap_or(0)
        };
        let entry = Entry {
            key,
            anchor,
            work,
            value,
        };
        let i = self.bucket(key);
        let b = &mut self.table[i];
        let slot = b
            .iter()
            .position(|e| e.is_some_and(|e| e.key == key))
            .or_else(|| b.iter().position(Option::is_none))
            .unwrap_or_else(|| {
                let mut victim = 0;
                for (j, e) in b.iter().enumerate() {
                    let cost = |e: &Option<Entry<M>>| e.map_or(0, |e| e.work);
                    if cost(e) < cost(&b[victim]) {
                        victim = j;
                    }
                }
                victim
            });
        b[slot] = Some(entry);
    }

    /// Drops what the table holds of `key`.
    fn forget(&mut self, key: u64) {
        let i = self.bucket(key);
        for e in &mut self.table[i] {
            if e.is_some_and(|e| e.key == key) {
                *e = None;
            }
        }
    }

    /// A digest of the keys on the path from place `from` to place `to` (excluded): a
    /// proof resting on a repetition of the ancestor at `from` holds only where the path
    /// runs through the same positions (the same checks) to the node.
    fn anchor(&self, from: usize, to: usize) -> u64 {
        self.path
            .get(from..to)
            .unwrap_or_default()
            .iter()
            .fold(to as u64, |h, &k| {
                (h ^ k).wrapping_mul(0x9E37_79B9_7F4A_7C15).rotate_left(29)
            })
    }

    /// Pushes `node` (of kind `kind`) on the path.
    fn push<S: SearchGame<Move = M>>(&mut self, node: &S, kind: Kind) {
        let hash = node.hash();
        let checked = kind == Kind::And || node.in_check();
        // The defender's checks since its last quiet move: the positions a repetition
        // below may go back to and still be the defender's perpetual check.
        let salt = if checked {
            self.salt()
                .wrapping_add((hash ^ 0x2545_F491_4F6C_DD1D).wrapping_mul(0xD6E8_FEB8_6659_FD93))
        } else {
            0
        };
        self.path.push(hash);
        self.checked.push(checked);
        self.salts.push(salt);
    }

    fn pop(&mut self) {
        self.path.pop();
        self.checked.pop();
        self.salts.pop();
    }

    /// The salt of the table keys at the end of the path.
    fn salt(&self) -> u64 {
        self.salts.last().copied().unwrap_or(0)
    }

    /// Judges the repetition `verdict` (of the last cycle) at `node`, about to be placed
    /// at the end of the path. The attacker wins only a perpetual check by the defender —
    /// the game's rules make the defender lose the cycle, and every defender move since
    /// the position's first occurrence on the path gave check — and only once the
    /// position occurs as often as the rules judge it
    /// ([`SearchGame::repetitions_judged`]): before that the defender may go round again
    /// or turn away, and the search goes on. Anything else — a repetition of a position
    /// from before the root, a perpetual chase, the attacker's own checks, a plain
    /// repetition — is a disproof at once (the solver does not look for mates through
    /// them).
    fn judge<S: SearchGame<Move = M>>(&self, node: &S, verdict: Verdict) -> Rep {
        let key = node.hash();
        let mut places = self
            .path
            .iter()
            .enumerate()
            .filter(|&(_, &k)| k == key)
            .map(|(i, _)| i);
        let Some(first) = places.next() else {
            return Rep::Lost(ANY);
        };
        let (nearest, earlier) = places.fold((first, 1), |(_, n), i| (i, n + 1));
        let defender_moves = node.side_to_move() != self.attacker;
        let defender_loses = match verdict {
            Verdict::Loss => defender_moves,
            Verdict::Win => !defender_moves,
            Verdict::Draw => false,
        };
        let checks = self.checked[first + 1..].iter().all(|&c| c)
            && (self.kind(node) == Kind::And || node.in_check());
        if !(defender_loses && checks) {
            Rep::Lost(nearest as u16)
        } else if !self.laps || earlier + 1 >= node.repetitions_judged().max(2) {
            Rep::Won(first as u16)
        } else {
            Rep::Again
        }
    }

    /// The table key of `node` (not yet on the path). A position the defender reached
    /// by a quiet move is keyed by itself; any other by itself and the defender's checks
    /// since its last quiet move (the salt of the path): those are the positions a
    /// repetition below it may go back to as the defender's perpetual check, and how
    /// often they occurred decides whether the game judges it yet. What follows a check
    /// of the defender's is thus never mixed up with what followed other checks, nor with
    /// the same position reached another way.
    fn table_key<S: SearchGame<Move = M>>(&self, node: &S) -> u64 {
        let hash = node.hash();
        if !self.laps || self.kind(node) == Kind::Or && !node.in_check() {
            hash
        } else {
            hash ^ self.salt()
        }
    }

    /// The value of `node`, reached with `rem` plies left, at the end of the path: what
    /// the rules, the bound or the table say, else a first estimate (stored). Counts as a
    /// visit.
    fn evaluate<S: SearchGame<Move = M>>(&mut self, node: &mut S, rem: u16) -> Value<M> {
        self.tick();
        let place = self.path.len();
        let none = S::no_move();
        if !node.awaits_chance() {
            if let Some(verdict) = node.repetition() {
                // A win for the attacker only when the defender checked perpetually as
                // long as the rules allow; else a draw or a loss for the attacker.
                match self.judge(node, verdict) {
                    Rep::Won(dep) => return Value::proven_at(0, dep, none),
                    Rep::Lost(dep) => return Value::disproven(ANY, dep, none),
                    Rep::Again => {}
                }
            }
            if node.rule_draw() {
                return Value::disproven(ANY, ANY, none);
            }
        }
        let key = self.table_key(node);
        let kind = self.kind(node);
        let stored = self.lookup(key, rem, place);
        if let Some(v) = stored.filter(|v| v.pn == 0 || v.dn == 0) {
            return v;
        }
        // Plies needed: one for the attacker to mate, two when the defender still moves.
        let short = !node.awaits_chance()
            && ((kind == Kind::Or && rem < 1) || (kind == Kind::And && rem < 2));
        if let Some(v) = stored {
            // Known to have moves (a position without any is stored as final).
            return if short {
                Value::disproven(rem, ANY, none)
            } else {
                v
            };
        }
        if node.awaits_chance() {
            let mut outcomes = ChanceList::new();
            node.chance_outcomes(&mut outcomes);
            if outcomes.is_empty() {
                return Value::disproven(ANY, ANY, none);
            }
            let v = Value {
                pn: outcomes.len() as u32,
                dn: 1,
                len: 0,
                dep: ANY,
                mv: none,
            };
            self.store(key, v, 0);
            return v;
        }
        let count = node.count_legal_moves() as u32;
        let v = if count == 0 {
            let verdict = node.no_move_verdict(node.in_check());
            let attacker_wins = matches!(
                (kind, verdict),
                (Kind::Or, Verdict::Win) | (Kind::And, Verdict::Loss)
            );
            if attacker_wins {
                Value::proven(0, none)
            } else {
                Value::disproven(ANY, ANY, none)
            }
        } else if short {
            // No ply left to mate in: out of bounds (for this many plies only).
            return Value::disproven(rem, ANY, none);
        } else if kind == Kind::Or {
            Value {
                pn: 1,
                dn: count,
                len: 0,
                dep: ANY,
                mv: none,
            }
        } else {
            // One proof per reply; a defender not in check (after a quiet move) has the
            // run of the board: count it double.
            let quiet = u32::from(!node.in_check());
            Value {
                pn: count + quiet * count,
                dn: 1,
                len: 0,
                dep: ANY,
                mv: none,
            }
        };
        self.store(key, v, 0);
        v
    }

    /// The children of `node` (moves, or chance outcomes); at an attacker node the checks
    /// first (so that of two mates as short, the checkmate is shown rather than a
    /// stalemate that xiangqi also scores as a win).
    fn children<S: SearchGame<Move = M>>(node: &mut S, kind: Kind) -> Vec<Child<M>> {
        let blank = Value::proven(0, S::no_move());
        if node.awaits_chance() {
            let mut outcomes = ChanceList::new();
            node.chance_outcomes(&mut outcomes);
            outcomes
                .as_slice()
                .iter()
                .map(|w| Child {
                    mv: w.outcome,
                    step: 0,
                    value: blank,
                })
                .collect()
        } else {
            let mut moves = MoveList::new();
            node.legal_moves(&mut moves);
            let mut children: Vec<Child<M>> = moves
                .iter()
                .map(|&mv| Child {
                    mv,
                    step: 1,
                    value: blank,
                })
                .collect();
            if kind == Kind::Or {
                children.sort_by_cached_key(|c| {
                    let undo = node.make(c.mv);
                    let check = node.in_check();
                    node.unmake(c.mv, undo);
                    !check
                });
            }
            children
        }
    }

    /// Combines the children into the node's value; also returns the index of the child
    /// to expand next, and the second best proof (OR) or disproof (AND) number.
    fn combine(kind: Kind, children: &[Child<M>], place: usize) -> (Value<M>, usize, u32) {
        let none = M::default();
        let mut best = 0;
        let mut second = INF;
        let local = |dep: u16| if usize::from(dep) >= place { ANY } else { dep };
        match kind {
            Kind::Or => {
                let mut dn = 0u32;
                let mut proof: Option<(u16, u16, M)> = None;
                let mut hold = ANY;
                let mut dep = ANY;
                for (i, c) in children.iter().enumerate() {
                    let v = c.value;
                    dn = dn.saturating_add(v.dn).min(INF);
                    if v.pn == 0 {
                        // The shortest proof; of two as short, one independent of the path.
                        let p = (v.len.saturating_add(c.step), local(v.dep), c.mv);
                        if proof.is_none_or(|q| (p.0, p.1 != ANY) < (q.0, q.1 != ANY)) {
                            proof = Some(p);
                        }
                    }
                    if v.dn == 0 {
                        hold = hold.min(v.len.saturating_add(c.step));
                        dep = dep.min(v.dep);
                    }
                    if v.pn < children[best].value.pn {
                        second = children[best].value.pn;
                        best = i;
                    } else if i != best && v.pn < second {
                        second = v.pn;
                    }
                }
                if let Some((len, dep, mv)) = proof {
                    return (Value::proven_at(len, dep, mv), best, second);
                }
                let mv = children.get(best).map_or(none, |c| c.mv);
                if dn == 0 {
                    return (Value::disproven(hold, local(dep), mv), best, second);
                }
                let pn = children[best].value.pn;
                (
                    Value {
                        pn,
                        dn,
                        len: 0,
                        dep: ANY,
                        mv,
                    },
                    best,
                    second,
                )
            }
            Kind::And => {
                let mut pn = 0u32;
                let mut longest = 0u16;
                let mut proof_dep = ANY;
                let mut refutation: Option<(u16, u16)> = None;
                for (i, c) in children.iter().enumerate() {
                    let v = c.value;
                    pn = pn.saturating_add(v.pn).min(INF);
                    if v.pn == 0 {
                        longest = longest.max(v.len.saturating_add(c.step));
                        proof_dep = proof_dep.min(local(v.dep));
                    }
                    if v.dn == 0 {
                        // The most general refutation: independent of the path, then
                        // holding for the most plies.
                        let r = (local(v.dep), v.len.saturating_add(c.step));
                        let better =
                            |a: (u16, u16), b: (u16, u16)| (a.0 == ANY, a.1) > (b.0 == ANY, b.1);
                        if refutation.is_none_or(|b| better(r, b)) {
                            refutation = Some(r);
                        }
                    }
                    if v.dn < children[best].value.dn {
                        second = children[best].value.dn;
                        best = i;
                    } else if i != best && v.dn < second {
                        second = v.dn;
                    }
                }
                let mv = children.get(best).map_or(none, |c| c.mv);
                if let Some((dep, hold)) = refutation {
                    return (Value::disproven(hold, dep, mv), best, second);
                }
                if pn == 0 {
                    return (Value::proven_at(longest, proof_dep, mv), best, second);
                }
                let dn = children[best].value.dn;
                (
                    Value {
                        pn,
                        dn,
                        len: 0,
                        dep: ANY,
                        mv,
                    },
                    best,
                    second,
                )
            }
        }
    }

    /// Multiple iterative deepening at `node` (not terminal, `rem` plies left) until its
    /// proof number reaches `th_pn` or its disproof number `th_dn`.
    fn mid<S: SearchGame<Move = M>>(
        &mut self,
        node: &mut S,
        rem: u16,
        th_pn: u32,
        th_dn: u32,
    ) -> Value<M> {
        let key = self.table_key(node);
        let kind = self.kind(node);
        let place = self.path.len();
        let before = self.nodes;
        self.push(node, kind);
        let mut children = Self::children(node, kind);
        let result = loop {
            for c in &mut children {
                let undo = node.make(c.mv);
                c.value = self.evaluate(node, rem.saturating_sub(c.step));
                node.unmake(c.mv, undo);
            }
            let (value, best, second) = Self::combine(kind, &children, place);
            if self.aborted || value.pn >= th_pn || value.dn >= th_dn {
                break value;
            }
            let c = children[best];
            // 1 + ε: let the best child run a quarter beyond the second best.
            let grow = |x: u32| x.saturating_add(x / 4 + 1).min(INF - 1);
            let (pn, dn) = match kind {
                Kind::Or => (
                    th_pn.min(grow(second)),
                    th_dn
                        .saturating_sub(value.dn)
                        .saturating_add(c.value.dn)
                        .min(INF - 1),
                ),
                Kind::And => (
                    th_pn
                        .saturating_sub(value.pn)
                        .saturating_add(c.value.pn)
                        .min(INF - 1),
                    th_dn.min(grow(second)),
                ),
            };
            let undo = node.make(c.mv);
            self.mid(node, rem.saturating_sub(c.step), pn, dn);
            node.unmake(c.mv, undo);
            if self.aborted {
                break value;
            }
        };
        self.pop();
        if !self.aborted || result.pn == 0 || result.dn == 0 {
            self.store(key, result, self.nodes - before);
        }
        result
    }

    /// Walks the proof tree below `node` (`rem` plies left); the plies to the mate, the
    /// defender resisting longest, the place of the oldest ancestor a perpetual check on
    /// the way repeats ([`ANY`]: none), and whether the line shown (the defender
    /// preferring a line that ends in mate to one that ends in its perpetual check, then
    /// the longest) ends in mate. Results are kept in `memo` by table key (reused only
    /// when they rest on no repetition of an ancestor of the node, and fit in `rem`).
    fn walk<S: SearchGame<Move = M>>(
        &mut self,
        node: &mut S,
        rem: u16,
        memo: &mut Memo<M>,
    ) -> Option<(u16, u16, bool)> {
        if !node.awaits_chance() {
            if let Some(verdict) = node.repetition() {
                match self.judge(node, verdict) {
                    Rep::Won(dep) => return Some((0, dep, false)),
                    Rep::Lost(_) => return None,
                    Rep::Again => {}
                }
            }
            if node.rule_draw() {
                return None;
            }
        }
        let key = self.table_key(node);
        if let Some(&(len, _, true, mates)) = memo.get(&key)
            && len <= rem
        {
            return Some((len, ANY, mates));
        }
        let place = self.path.len();
        let kind = self.kind(node);
        self.push(node, kind);
        let r = self.walk_here(node, key, rem, memo);
        self.pop();
        let Some((len, mv, dep, mates)) = r else {
            self.failed.push(key);
            self.failed.push(node.hash());
            return None;
        };
        let dep = if usize::from(dep) >= place { ANY } else { dep };
        memo.insert(key, (len, mv, dep == ANY, mates));
        Some((len, dep, mates))
    }

    /// [`Dfpn::walk`] at `node` (table key `key`), once it is on the path.
    fn walk_here<S: SearchGame<Move = M>>(
        &mut self,
        node: &mut S,
        key: u64,
        rem: u16,
        memo: &mut Memo<M>,
    ) -> Option<(u16, M, u16, bool)> {
        let none = S::no_move();
        if self.kind(node) == Kind::Or {
            let place = self.path.len() - 1;
            loop {
                // A proof under the game's rules, else one with the first repetition
                // judged: the walk below judges it along this path.
                let proof = |v: &Value<M>| v.pn == 0;
                let mut v = self
                    .lookup(key, rem, place)
                    .filter(proof)
                    .or_else(|| self.lookup(node.hash(), rem, place).filter(proof));
                if v.is_none() {
                    // Lost from the table (or never stored): prove it again here.
                    self.pop();
                    let proven = self.reprove(node, rem);
                    self.push(node, Kind::Or);
                    if !proven {
                        return None;
                    }
                    v = self.lookup(key, rem, place);
                }
                let mv = v.filter(|v| v.pn == 0)?.mv;
                if !node.is_legal(mv) {
                    return None;
                }
                self.failed.clear();
                let undo = node.make(mv);
                let r = rem
                    .checked_sub(1)
                    .and_then(|rem| self.walk(node, rem, memo));
                node.unmake(mv, undo);
                if let Some((len, dep, mates)) = r {
                    return Some((len + 1, mv, dep, mates));
                }
                // The stored proof fails on this path: a part of it was proven along
                // another path (the defender escapes here into a repetition), or
                // overwritten by a longer proof that runs into one. Forget the line that
                // failed and prove the node again along this path.
                if self.repairs == 0 || self.aborted {
                    return None;
                }
                self.repairs -= 1;
                self.failed.push(key);
                self.failed.push(node.hash());
                for k in std::mem::take(&mut self.failed) {
                    self.forget(k);
                }
            }
        }
        let children = Self::children(node, Kind::And);
        if children.is_empty() {
            let mated =
                !node.awaits_chance() && node.no_move_verdict(node.in_check()) == Verdict::Loss;
            return mated.then_some((0, none, ANY, true));
        }
        let mut longest = 0;
        let mut shown: Option<(bool, u16, M)> = None;
        let mut dep = ANY;
        for c in children {
            let undo = node.make(c.mv);
            let r = rem
                .checked_sub(c.step)
                .and_then(|rem| self.walk(node, rem, memo));
            node.unmake(c.mv, undo);
            let (len, d, mates) = r?;
            let len = len.saturating_add(c.step);
            dep = dep.min(d);
            longest = longest.max(len);
            if shown.is_none_or(|(m, l, _)| (mates, len) > (m, l)) {
                shown = Some((mates, len, c.mv));
            }
        }
        shown.map(|(mates, _, mv)| (longest, mv, dep, mates))
    }

    /// Proves `node` (an attacker node, not on the path) again; true if proven.
    fn reprove<S: SearchGame<Move = M>>(&mut self, node: &mut S, rem: u16) -> bool {
        loop {
            let v = self.evaluate(node, rem);
            if v.pn == 0 {
                return true;
            }
            if v.dn == 0 || self.aborted {
                return false;
            }
            self.mid(node, rem, INF - 1, INF - 1);
        }
    }

    /// The mating line from `node` as walked: the proving moves and the longest replies.
    fn line<S: SearchGame<Move = M>>(&mut self, node: &mut S, memo: &Memo<M>, out: &mut Vec<M>) {
        let hash = node.hash();
        let earlier = self.path.iter().filter(|&&k| k == hash).count();
        // A repetition the rules judge ends the line (a perpetual check the defender
        // loses); one they do not judge yet is looked up as the walk kept it.
        if earlier > 0 && earlier + 1 >= node.repetitions_judged().max(2) {
            return;
        }
        let key = self.table_key(node);
        let Some(&(len, mv, _, _)) = memo.get(&key) else {
            return;
        };
        if len == 0 || mv == S::no_move() || node.awaits_chance() {
            // The line stops before luck decides.
            return;
        }
        out.push(mv);
        let kind = self.kind(node);
        self.push(node, kind);
        let undo = node.make(mv);
        self.line(node, memo, out);
        node.unmake(mv, undo);
        self.pop();
    }
}

/// How many stored proofs one [`Dfpn::verify`] may prove again along the path walked.
const REPAIRS: u32 = 64;

/// What a repetition on the path comes to ([`Dfpn::judge`]).
#[derive(Clone, Copy, Debug)]
enum Rep {
    /// The rules make the defender lose it (perpetual check): a proof resting on the
    /// path from the position's first occurrence, at this place.
    Won(u16),
    /// Anything else: a disproof resting on the ancestor at this place ([`ANY`]: the
    /// position occurred before the root).
    Lost(u16),
    /// The defender's perpetual check, not judged yet: the search goes on from the
    /// position.
    Again,
}

/// What [`Dfpn::verify`] learnt of a node: plies to the mate, the move (proving, or the
/// reply shown), whether that rests on no repetition of an ancestor, and whether the line
/// shown ends in mate.
type Memo<M> = HashMap<u64, (u16, M, bool, bool)>;

/// Plies within which a mate in `moves` moves ends: the attacker's last move is ply
/// `2 × moves − 1`.
fn plies_for(moves: u32) -> u16 {
    (moves.clamp(1, 200) * 2 - 1) as u16
}
