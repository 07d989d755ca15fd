//! The fair draw: chance outcomes (jieqi's hidden pieces) decided between two phones with
//! nobody in the middle, so that nobody knows an outcome before it is drawn, nobody can bias
//! it, and both verify every draw.
//!
//! ```
//! use banco_game::{ChanceList, Color};
//! use banco_protocol::fairdraw::{ChainVerifier, HashChain, commitment, draw_ticket, parse_commitment};
//!
//! let session = [7; 8]; // both sides know the session id
//! // Each side makes a chain from a secret and commits to its head at match start.
//! let red = HashChain::new([1; 32], session, Color::Red);
//! let black = HashChain::new([2; 32], session, Color::Black);
//! let params = commitment(&black.head()); // what Black puts in its Propose/Accept params
//! let (head, _rest) = parse_commitment(&params)?;
//! let mut black_seen_by_red = ChainVerifier::new(head, session, Color::Black);
//!
//! // At the first chance step both release link 1; each checks the other's against the chain.
//! let b1 = black.link(1).unwrap();
//! assert_eq!(black_seen_by_red.accept(b1), Ok(1));
//! assert!(black_seen_by_red.accept(b1).is_err()); // the same link again is refused
//!
//! // Both links decide a ticket, uniform over the total weight, the same on both phones.
//! let mut pool = ChanceList::new();
//! pool.push('R', 2);
//! pool.push('P', 5);
//! let r1 = red.link(1).unwrap();
//! let ticket = draw_ticket(session, 1, 9, &r1, &b1, pool.total_weight());
//! assert!(ticket < 7);
//! let piece = pool.pick(ticket).unwrap();
//! # let _ = piece;
//! # Ok::<(), banco_protocol::fairdraw::DrawFault>(())
//! ```
//!
//! ## The exchange
//!
//! 1. **Commit** (match start). Each side draws a 32-byte secret `s` from its session's
//!    random source and builds a hash chain of [`CHAIN_LEN`] links:
//!    `x_N = T(H("banco-draw-seed" ‖ s))`, `x_{k-1} = f_k(x_k)` down to the head `x_0`, where
//!    `f_k(x) = T(H("banco-draw-link" ‖ session ‖ owner ‖ k ‖ x))`, `H` is BLAKE2s-256 and
//!    `T` keeps the first [`LINK_LEN`] = 10 bytes. The head goes into the per-game
//!    parameters: the proposer's in `Propose.params`, the other side's in `Accept.params`
//!    ([`commitment`]: a scheme byte and the head, [`COMMITMENT_LEN`] = 11 bytes, before
//!    any parameters of the application).
//! 2. **Reveal** (the k-th chance step of the match). As soon as a position awaits chance,
//!    each side sends its link `x_k` (`Body::Reveal { link }`, 12 bytes before the AEAD tag,
//!    sent on the reliable stream). The receiver checks `f_k(x_k) = x_{k-1}` against the
//!    previous link of that chain (the head for k = 1) — [`ChainVerifier::accept`].
//! 3. **Draw.** With both `k`-th links, the ticket is
//!    `H("banco-draw" ‖ session ‖ k ‖ ply ‖ red_link ‖ black_link ‖ i)` read as a
//!    little-endian `u64` `r_i`, for `i = 0, 1, …` until `r_i < ⌊2⁶⁴ / W⌋·W`; the ticket is
//!    `r_i mod W`, where `W` is the total weight of [`Game::chance_outcomes`]. The outcome
//!    owning that ticket ([`ChanceList::pick`]: each outcome owns as many tickets as its
//!    weight) is applied like a move. Both sides compute it from the same inputs.
//!
//! ## Why it is fair
//!
//! * **Nobody knows an outcome before it is drawn.** A draw needs both sides' `k`-th links.
//!   A side knows its own chain, but the peer's `x_k` is a preimage of `x_{k-1}` under a
//!   function keyed by the session and the step: computing it from what was revealed costs
//!   about 2⁸⁰ hash evaluations. Until the peer releases it, the ticket is unpredictable.
//! * **Nobody can bias a draw, even seeing the other link first.** Both chains are fixed by
//!   the heads exchanged before the first move. The side that waits for the other's link
//!   and then answers can only send the one link its committed chain allows (anything else
//!   fails the chain check and ends the match, [`DrawFault::WrongLink`]) or send nothing
//!   (its clock runs: the match forfeits when it runs out, [`DrawFault::Withheld`]). It
//!   cannot choose. The proposer commits before it sees the other head, and the acceptor
//!   commits after; seeing a head tells nothing about the links below it, so the order
//!   gives no advantage either.
//! * **Exactly uniform.** `⌊2⁶⁴ / W⌋·W` is a multiple of `W`, so an accepted `r_i` is
//!   uniform over whole copies of `0..W` and `r_i mod W` is exactly uniform: no modulo
//!   bias. A value is rejected with probability `(2⁶⁴ mod W) / 2⁶⁴ < W / 2⁶⁴` — with at most
//!   32 outcomes of 32-bit weights, below 2⁻²⁷, and for jieqi's pools (W ≤ 15) below 2⁻⁶⁰;
//!   the next `i` then continues the same deterministic stream on both sides.
//! * **Fresh for every step.** Link `k` is used for step `k` only (steps are counted over
//!   the whole match, including steps taken back by an undo), and the ticket hashes the
//!   step, the ply and the session, so no two draws share inputs, within a match or across.
//! * **A replayed link is refused** ([`DrawFault::ReplayedLink`]): a link already received
//!   cannot be the next one (that would need `f_k(x) = x` or a cycle in the chain).
//!
//! ### The size of a link, and what it costs a cheater
//!
//! A reveal must fit the 12-byte envelope budget of moves, which leaves 10 bytes (80 bits)
//! for a link. Forging the next link of an honest chain (a second preimage) costs about
//! 2⁸⁰ evaluations. A cheater who prepares its *own* chain with a fork at step `k` — two
//! links both hashing to `x_{k-1}`, each with a chain of its own below it for the steps
//! still to come — needs a collision of `f_k` composed with those steps. Every step of
//! every session and colour has its own function, so nothing can be computed before the
//! session id is known: the search runs during pairing, about 2⁴⁰ walks of the steps
//! below the fork (2⁴⁴–2⁴⁶ hashes for jieqi's 30-odd steps), minutes to hours of a desktop
//! GPU, far beyond a phone, for *one* binary choice at *one* step — and the cheater must
//! still win the game from there. A longer link would raise the price (each byte ×2⁴) at
//! the cost of a bigger reveal envelope; the scheme byte of the commitment leaves room
//! for that change.
//!
//! ## Length of the chain
//!
//! [`CHAIN_LEN`] = 256 links per side and match. Jieqi reveals at most 30 pieces in a game
//! (15 per side); each reveal taken back by an undo uses one more link, so a game would
//! need over 220 undone reveals to run out. If it happens, the next chance step finds no
//! link and the match stops with [`DrawFault::ChainExhausted`] (no player is blamed).
//!
//! ## What it does not do
//!
//! An undo that takes back a chance outcome forgets it: the position awaits chance again
//! only if the move is played again, and that is a new step with new links (both players
//! agreed to the undo); the transcript of the match ([`FairTranscript`]) keeps only the
//! draws of the moves played, so both sides' transcripts agree even when one side drew a
//! step the other dropped before its draw. While a link is missing, the missing side's clock
//! is shown running and ours is stopped. An honest side releases its link the moment the
//! step begins, so waiting for it is network time, which the clocks do not charge; but a
//! peer to move next that holds its link back already knows the outcome (it has ours) and
//! thinks meanwhile: its turn is measured here from when its link was due, one round-trip
//! allowance after the step began, so the time it held the link back is charged to its
//! clock — once its game has begun before the step (it accepted our proposal, or it has
//! moved; the session's `clock` module). The honest side gives up
//! waiting when the peer's remaining time plus two minutes of grace for retransmissions and
//! outages has passed, whether a link is up or not (as the move clocks run while the link
//! is down: a player who saw our link, and so the outcome, cannot cut the link to escape
//! it): the peer loses on time and the match ends ([`DrawFault::Withheld`]). In an untimed game a withheld link stalls the match until a
//! player leaves.
//!
//! [`Game::chance_outcomes`]: banco_game::Game::chance_outcomes
//! [`ChanceList::pick`]: banco_game::ChanceList::pick

use banco_game::{Color, GameKind};
use blake2::{Blake2s256, Digest};

/// Bytes of one link on the wire.
pub const LINK_LEN: usize = 10;

/// One link of a hash chain.
pub type Link = [u8; LINK_LEN];

/// Links per chain: the most chance steps a match can have.
pub const CHAIN_LEN: u32 = 256;

/// The scheme byte that opens a commitment: BLAKE2s chains of [`CHAIN_LEN`] links of
/// [`LINK_LEN`] bytes, tickets by rejection sampling.
pub const SCHEME: u8 = 1;

/// Bytes of a commitment in the per-game parameters: the scheme byte and the chain's head.
pub const COMMITMENT_LEN: usize = 1 + LINK_LEN;

/// True for games whose matches use the fair draw: games that can await chance. Their
/// proposals and acceptances start their parameters with a [`commitment`], and the
/// session settles every chance step with the exchange above. Capability
/// [`CAP_JIEQI`](crate::message::CAP_JIEQI) announces that a peer understands it.
pub fn uses_fair_draw(kind: GameKind) -> bool {
    kind == GameKind::Jieqi
}

/// Why a fair draw cannot go on: the match ends with this reason
/// ([`CloseReason::UnfairDraw`](crate::CloseReason::UnfairDraw)).
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
pub enum DrawFault {
    /// The peer's parameters do not start with a commitment of a known scheme.
    #[error("the other player's app sent no valid commitment for the hidden pieces")]
    BadCommitment,
    /// A link does not hash to the previous one: forged, or from another chain than the
    /// one committed to.
    #[error(
        "the other player's reveal {index} does not match its commitment (cheating or a broken app)"
    )]
    WrongLink {
        /// Index of the link in the chain (1 for the first reveal).
        index: u32,
    },
    /// A link the peer had already sent, sent again as a new one.
    #[error(
        "the other player sent an earlier reveal again as reveal {index} (cheating or a broken app)"
    )]
    ReplayedLink {
        /// Index the link was sent as.
        index: u32,
    },
    /// A chance step came after every link of the chains was used.
    #[error("the hidden-piece draws of this match are used up ({CHAIN_LEN} reveals)")]
    ChainExhausted,
    /// The peer held its link back for longer than its remaining time.
    #[error("the other player held back its reveal for step {step} until its time ran out")]
    Withheld {
        /// The chance step waiting for the link.
        step: u32,
    },
}

fn owner_byte(owner: Color) -> u8 {
    owner.index() as u8
}

/// `f_k`: the link `k - 1` that link `k` must hash to.
fn step(session: &[u8; 8], owner: Color, k: u32, x: &Link) -> Link {
    let mut h = Blake2s256::new();
    h.update(b"banco-draw-link");
    h.update(session);
    h.update([owner_byte(owner)]);
    h.update(k.to_le_bytes());
    h.update(x);
    truncate(&h.finalize().into())
}

fn truncate(full: &[u8; 32]) -> Link {
    let mut link = [0u8; LINK_LEN];
    link.copy_from_slice(full.get(..LINK_LEN).unwrap_or(&[0; LINK_LEN]));
    link
}

/// A side's own hash chain: its head is committed to at match start, its links are
/// released one per chance step. Built from a secret; keep it out of logs.
#[derive(Clone, PartialEq, Eq)]
pub struct HashChain {
    /// `links[k]` is link `k`; `links[0]` is the head.
    links: Vec<Link>,
}

impl core::fmt::Debug for HashChain {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("HashChain")
            .field("head", &self.head())
            .finish_non_exhaustive()
    }
}

impl HashChain {
    /// The chain of `owner` (the colour it plays) in the session `session`, from a 32-byte
    /// `secret` (fresh randomness; the same secret gives the same chain).
    pub fn new(secret: [u8; 32], session: [u8; 8], owner: Color) -> Self {
        let mut h = Blake2s256::new();
        h.update(b"banco-draw-seed");
        h.update(secret);
        let mut x = truncate(&h.finalize().into());
        let mut links = vec![[0u8; LINK_LEN]; CHAIN_LEN as usize + 1];
        for k in (0..=CHAIN_LEN).rev() {
            if let Some(slot) = links.get_mut(k as usize) {
                *slot = x;
            }
            if k > 0 {
                x = step(&session, owner, k, &x);
            }
        }
        HashChain { links }
    }

    /// The head (link 0), what the commitment carries.
    pub fn head(&self) -> Link {
        self.links.first().copied().unwrap_or_default()
    }

    /// Link `k` (1 for the first chance step), or `None` beyond [`CHAIN_LEN`].
    pub fn link(&self, k: u32) -> Option<Link> {
        if k == 0 {
            return None;
        }
        self.links.get(k as usize).copied()
    }
}

/// The receiving side of the peer's chain: checks each link against the previous one and
/// keeps the verified links.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ChainVerifier {
    session: [u8; 8],
    owner: Color,
    /// `links[0]` is the committed head, `links[k]` the verified link `k`.
    links: Vec<Link>,
}

impl ChainVerifier {
    /// A verifier of the chain of `owner` whose head is `head`.
    pub fn new(head: Link, session: [u8; 8], owner: Color) -> Self {
        ChainVerifier {
            session,
            owner,
            links: vec![head],
        }
    }

    /// Checks the next link; on success it is kept and its index returned. On failure
    /// nothing changes.
    pub fn accept(&mut self, link: Link) -> Result<u32, DrawFault> {
        let index = self.received() + 1;
        if self.links.contains(&link) {
            return Err(DrawFault::ReplayedLink { index });
        }
        if index > CHAIN_LEN {
            return Err(DrawFault::ChainExhausted);
        }
        let prev = self.links.last().copied().unwrap_or_default();
        if step(&self.session, self.owner, index, &link) != prev {
            return Err(DrawFault::WrongLink { index });
        }
        self.links.push(link);
        Ok(index)
    }

    /// Number of links verified so far.
    pub fn received(&self) -> u32 {
        (self.links.len() as u32).saturating_sub(1)
    }

    /// Verified link `k` (1-based), if received.
    pub fn link(&self, k: u32) -> Option<Link> {
        if k == 0 {
            return None;
        }
        self.links.get(k as usize).copied()
    }

    /// The committed head.
    pub fn head(&self) -> Link {
        self.links.first().copied().unwrap_or_default()
    }
}

/// The commitment to a chain's head as it opens the per-game parameters.
pub fn commitment(head: &Link) -> [u8; COMMITMENT_LEN] {
    let mut out = [0u8; COMMITMENT_LEN];
    out[0] = SCHEME;
    out[1..].copy_from_slice(head);
    out
}

/// Splits per-game parameters into the chain head they commit to and the application's
/// parameters after it.
pub fn parse_commitment(params: &[u8]) -> Result<(Link, &[u8]), DrawFault> {
    match params.split_first() {
        Some((&SCHEME, rest)) if rest.len() >= LINK_LEN => {
            let (head, app) = rest.split_at(LINK_LEN);
            let mut link = [0u8; LINK_LEN];
            link.copy_from_slice(head);
            Ok((link, app))
        }
        _ => Err(DrawFault::BadCommitment),
    }
}

/// The ticket of the draw at chance step `k` (1-based) in the position with `ply` moves,
/// uniform in `0..total` (see the module docs: rejection sampling, no modulo bias).
/// `total` 0 gives 0.
pub fn draw_ticket(
    session: [u8; 8],
    k: u32,
    ply: u32,
    red: &Link,
    black: &Link,
    total: u64,
) -> u64 {
    if total == 0 {
        return 0;
    }
    // The largest multiple of `total` that fits in 2^64 (as an exclusive bound).
    let zone = u64::MAX - (u64::MAX % total + 1) % total;
    let mut last = 0;
    for i in 0..u32::MAX {
        let mut h = Blake2s256::new();
        h.update(b"banco-draw");
        h.update(session);
        h.update(k.to_le_bytes());
        h.update(ply.to_le_bytes());
        h.update(red);
        h.update(black);
        h.update(i.to_le_bytes());
        let full: [u8; 32] = h.finalize().into();
        let mut word = [0u8; 8];
        word.copy_from_slice(full.get(..8).unwrap_or(&[0; 8]));
        let r = u64::from_le_bytes(word);
        last = r;
        if r <= zone {
            return r % total;
        }
    }
    // Unreachable in practice (each round is rejected with probability below 2^-27).
    last % total
}

/// One draw as both sides made it: enough for anyone to check it afterwards.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DrawRecord {
    /// The chance step (1-based over the match): the index of both links.
    pub step: u32,
    /// Ply count of the position that awaited chance.
    pub ply: u32,
    /// Red's link `step`.
    pub red: Link,
    /// Black's link `step`.
    pub black: Link,
    /// Total weight of the outcomes.
    pub total: u64,
    /// The ticket drawn in `0..total`.
    pub ticket: u64,
}

/// The public record of a match's fair draws: both commitments and the draw of every chance
/// outcome among the moves played.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FairTranscript {
    /// The session id.
    pub session: [u8; 8],
    /// Red's committed head.
    pub red_head: Link,
    /// Black's committed head.
    pub black_head: Link,
    /// The draws that led to the chance outcomes among the moves played, in order (draws
    /// taken back by an undo are left out).
    pub draws: Vec<DrawRecord>,
}

impl FairTranscript {
    /// Checks every draw afterwards: each link belongs to its side's committed chain at
    /// its step, and each ticket follows from the links. Steps without a draw (taken back
    /// before the draw) are skipped over by hashing forward along the chain.
    pub fn verify(&self) -> Result<(), DrawFault> {
        for (owner, head) in [(Color::Red, self.red_head), (Color::Black, self.black_head)] {
            let mut at = (0u32, head);
            for d in &self.draws {
                let link = if owner == Color::Red { d.red } else { d.black };
                if d.step <= at.0 || d.step > CHAIN_LEN {
                    return Err(DrawFault::WrongLink { index: d.step });
                }
                // link_step hashes down to link_at: f_{at+1}(…f_step(link)).
                let mut x = link;
                for k in (at.0 + 1..=d.step).rev() {
                    x = step(&self.session, owner, k, &x);
                }
                if x != at.1 {
                    return Err(DrawFault::WrongLink { index: d.step });
                }
                at = (d.step, link);
            }
        }
        for d in &self.draws {
            let ticket = draw_ticket(self.session, d.step, d.ply, &d.red, &d.black, d.total);
            if ticket != d.ticket {
                return Err(DrawFault::WrongLink { index: d.step });
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_link_verifies_against_the_previous_one() {
        let s = [3; 8];
        let chain = HashChain::new([9; 32], s, Color::Black);
        let mut v = ChainVerifier::new(chain.head(), s, Color::Black);
        for k in 1..=CHAIN_LEN {
            assert_eq!(v.accept(chain.link(k).unwrap()), Ok(k));
        }
        assert_eq!(chain.link(CHAIN_LEN + 1), None);
        assert_eq!(chain.link(0), None);
        assert_eq!(v.received(), CHAIN_LEN);
        assert_eq!(v.accept([1; LINK_LEN]), Err(DrawFault::ChainExhausted));
    }

    #[test]
    fn the_chain_depends_on_session_owner_and_secret() {
        let a = HashChain::new([1; 32], [0; 8], Color::Red);
        assert_ne!(a.head(), HashChain::new([1; 32], [1; 8], Color::Red).head());
        assert_ne!(
            a.head(),
            HashChain::new([1; 32], [0; 8], Color::Black).head()
        );
        assert_ne!(a.head(), HashChain::new([2; 32], [0; 8], Color::Red).head());
        assert_eq!(a, HashChain::new([1; 32], [0; 8], Color::Red));
        // A link checked as another owner's, or in another session, fails.
        let mut wrong_owner = ChainVerifier::new(a.head(), [0; 8], Color::Black);
        assert_eq!(
            wrong_owner.accept(a.link(1).unwrap()),
            Err(DrawFault::WrongLink { index: 1 })
        );
    }

    #[test]
    fn wrong_skipped_and_replayed_links_are_refused_without_change() {
        let s = [5; 8];
        let chain = HashChain::new([4; 32], s, Color::Red);
        let mut v = ChainVerifier::new(chain.head(), s, Color::Red);
        let mut forged = chain.link(1).unwrap();
        forged[9] ^= 1;
        assert_eq!(v.accept(forged), Err(DrawFault::WrongLink { index: 1 }));
        assert_eq!(
            v.accept(chain.link(2).unwrap()),
            Err(DrawFault::WrongLink { index: 1 }),
            "a skipped link"
        );
        assert_eq!(
            v.accept(chain.head()),
            Err(DrawFault::ReplayedLink { index: 1 })
        );
        assert_eq!(v.received(), 0);
        assert_eq!(v.accept(chain.link(1).unwrap()), Ok(1));
        assert_eq!(
            v.accept(chain.link(1).unwrap()),
            Err(DrawFault::ReplayedLink { index: 2 })
        );
        assert_eq!(v.accept(chain.link(2).unwrap()), Ok(2));
        assert_eq!(v.link(2), chain.link(2));
    }

    #[test]
    fn commitments_round_trip_and_bad_ones_are_refused() {
        let head = [0x5a; LINK_LEN];
        let mut params = commitment(&head).to_vec();
        assert_eq!(params.len(), COMMITMENT_LEN);
        assert_eq!(parse_commitment(&params), Ok((head, &[][..])));
        params.extend_from_slice(&[1, 2]);
        assert_eq!(parse_commitment(&params), Ok((head, &[1, 2][..])));
        assert_eq!(parse_commitment(&[]), Err(DrawFault::BadCommitment));
        assert_eq!(
            parse_commitment(&params[..COMMITMENT_LEN - 1]),
            Err(DrawFault::BadCommitment)
        );
        params[0] = 2;
        assert_eq!(parse_commitment(&params), Err(DrawFault::BadCommitment));
    }

    #[test]
    fn tickets_are_in_range_deterministic_and_depend_on_every_input() {
        let (r, b) = ([1; LINK_LEN], [2; LINK_LEN]);
        let t = draw_ticket([0; 8], 1, 4, &r, &b, 1_000_003);
        assert!(t < 1_000_003);
        assert_eq!(t, draw_ticket([0; 8], 1, 4, &r, &b, 1_000_003));
        let others = [
            draw_ticket([1; 8], 1, 4, &r, &b, 1_000_003),
            draw_ticket([0; 8], 2, 4, &r, &b, 1_000_003),
            draw_ticket([0; 8], 1, 5, &r, &b, 1_000_003),
            draw_ticket([0; 8], 1, 4, &b, &r, 1_000_003),
        ];
        assert!(others.iter().all(|o| *o != t), "{t} {others:?}");
        assert_eq!(draw_ticket([0; 8], 1, 4, &r, &b, 0), 0);
        assert_eq!(draw_ticket([0; 8], 1, 4, &r, &b, 1), 0);
        // A total just above 2^63 rejects almost half the words: still in range.
        let big = (1u64 << 63) + 1;
        for k in 0..50 {
            assert!(draw_ticket([0; 8], k, 0, &r, &b, big) < big);
        }
    }

    #[test]
    fn transcripts_verify_and_a_changed_draw_does_not() {
        let s = [8; 8];
        let (r, b) = (
            HashChain::new([1; 32], s, Color::Red),
            HashChain::new([2; 32], s, Color::Black),
        );
        // Steps 1 and 3 drawn, step 2 taken back before its draw.
        let draws: Vec<_> = [(1, 4), (3, 9)]
            .into_iter()
            .map(|(k, ply)| {
                let (red, black) = (r.link(k).unwrap(), b.link(k).unwrap());
                DrawRecord {
                    step: k,
                    ply,
                    red,
                    black,
                    total: 15,
                    ticket: draw_ticket(s, k, ply, &red, &black, 15),
                }
            })
            .collect();
        let t = FairTranscript {
            session: s,
            red_head: r.head(),
            black_head: b.head(),
            draws,
        };
        assert_eq!(t.verify(), Ok(()));
        let mut bad = t.clone();
        bad.draws[1].ticket = (bad.draws[1].ticket + 1) % 15;
        assert_eq!(bad.verify(), Err(DrawFault::WrongLink { index: 3 }));
        let mut bad = t.clone();
        bad.draws[0].black = b.link(2).unwrap();
        assert!(bad.verify().is_err());
        let mut bad = t;
        bad.red_head = b.head();
        assert!(bad.verify().is_err());
    }

    #[test]
    fn only_jieqi_uses_the_fair_draw() {
        let fair: Vec<_> = GameKind::ALL
            .into_iter()
            .filter(|k| uses_fair_draw(*k))
            .collect();
        assert_eq!(fair, [GameKind::Jieqi]);
    }
}
