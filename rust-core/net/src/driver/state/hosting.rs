//! The host's side of the [`Core`]: connections whose handshake runs beside the current
//! link, the unconfirmed codes counted towards a pause, the pause itself, and turning
//! devices away with a [`Refusal`] (see the driver's module docs, "Hosting" and
//! "Unconfirmed codes").

use std::sync::{Arc, Mutex, Weak};
use std::thread;
use std::time::{Duration, Instant};

use banco_game::MatchGame;
use banco_protocol::Session;
use banco_protocol::session::pending::{AcceptStep, AcceptedLink, PendingAccept};

use super::{Core, lock, ms, read_link, wake};
use crate::driver::{DriverEvent, PeerSource, Refusal};
use crate::link::{BoxLink, Link};

/// A connection whose handshake runs on its own thread (host side).
pub(super) struct Pending {
    id: u64,
    link: Arc<dyn Link>,
    source: Option<PeerSource>,
    /// When it came (driver clock, ms).
    since: u64,
}

impl Pending {
    /// See [`EVICT_AFTER_MS`].
    fn evict_after(&self) -> u64 {
        match self.source {
            Some(PeerSource::Device(_)) => EVICT_AFTER_BLE_MS,
            _ => EVICT_AFTER_MS,
        }
    }
}

/// The unconfirmed code on a host's screen (see [`Core::code_over`]).
pub(super) struct Shown {
    /// The link it came on.
    generation: u64,
    source: Option<PeerSource>,
    /// When its link became the match's (driver clock, ms).
    since: u64,
    /// The player said the codes differ.
    rejected: bool,
}

/// A handshake pending this long may be closed to make room for a newcomer when every
/// slot is taken: an honest device finishes its handshake well within it (a few round
/// trips), so connections that sit silent or trickle cannot hold the slots against the
/// real guest from a handful of addresses.
const EVICT_AFTER_MS: u64 = 1_000;
/// [`EVICT_AFTER_MS`] for a Bluetooth central: three handshake messages and the `Resume`s
/// in 20-byte fragments at a long connection interval take seconds, not round trips.
const EVICT_AFTER_BLE_MS: u64 = 3_000;

impl<G: MatchGame> Core<G>
where
    Session<G>: Send,
{
    /// Host: takes devices again (see [`DriverEvent::AttemptsExhausted`]).
    pub(in crate::driver) fn reopen(&mut self) {
        self.unverified = 0;
        self.paused = false;
        self.reopen_at = None;
    }

    /// Host, paused: takes devices again by itself once the cool-down
    /// ([`DriverConfig::pause_cooldown`](crate::driver::DriverConfig::pause_cooldown)) is over, counting codes from zero.
    pub(super) fn cooled_down(&mut self) {
        if self.paused && self.reopen_at.is_some_and(|t| t <= self.now()) {
            self.reopen();
            self.emit(DriverEvent::Reopened);
        }
    }

    /// Host: the player says the code on screen differs ([`Session::reject_peer`]); that
    /// code counts towards [`DriverConfig::max_unverified`](crate::driver::DriverConfig::max_unverified) for good.
    pub(in crate::driver) fn reject_peer(&mut self) {
        let current = self.link.as_ref().map(|(g, _)| *g);
        if let Some(shown) = self
            .shown
            .as_mut()
            .filter(|s| Some(s.generation) == current)
        {
            shown.rejected = true;
        }
        self.session.reject_peer();
    }

    /// Host: the link that showed an unconfirmed code went (its device hung up, the player
    /// rejected it, the same device came back with a new code). A code the player rejected
    /// or had on screen for [`DriverConfig::code_seen_after`](crate::driver::DriverConfig::code_seen_after) stays counted towards the
    /// pause; one whose device hung up sooner is taken off that count and charged to its
    /// source instead ([`DriverConfig::unanswered_per_source`](crate::driver::DriverConfig::unanswered_per_source)): a stranger that dials and
    /// hangs up again and again is turned away alone, the host never pauses for it.
    pub(super) fn code_over(&mut self, generation: u64) {
        let Some(shown) = self.shown.take_if(|s| s.generation == generation) else {
            return;
        };
        let now = self.now();
        let seen = now.saturating_sub(shown.since) >= ms(self.config.code_seen_after);
        if shown.rejected || seen {
            return;
        }
        self.unverified = self.unverified.saturating_sub(1);
        self.hangups.allow(shown.source.as_ref(), now);
        if self.paused && !self.done && self.unverified < self.config.max_unverified {
            // The code that made the host pause was gone before anyone saw it.
            self.paused = false;
            self.reopen_at = None;
            self.emit(DriverEvent::Reopened);
        }
    }

    /// Host: turns a device away, telling it why ([`Refusal`]) before closing its link.
    fn turn_away(&mut self, link: &dyn Link, refusal: Refusal, reason: &str) {
        let _ = link.send(&refusal.frame());
        link.close();
        self.emit(DriverEvent::AttemptAborted {
            peer: link.peer(),
            reason: reason.to_owned(),
        });
    }

    /// Host: runs the handshake of a new connection on its own thread, beside the current
    /// link, unless its source ([`PeerSource`]) tried too often,
    /// hung up on too many codes or already holds its share of slots. With every slot
    /// taken, the oldest handshake gives its place if it has run for [`EVICT_AFTER_MS`]
    /// ([`EVICT_AFTER_BLE_MS`] over Bluetooth); otherwise the newcomer is turned away.
    pub(super) fn start_pending(&mut self, link: BoxLink) {
        let link: Arc<dyn Link> = Arc::from(link);
        let source = PeerSource::of(&*link);
        let now = self.now();
        // A paused host still runs handshakes (under the same limits): a remembered
        // player, or the paired guest coming back, needs no code and is let in; any other
        // key is turned away once its handshake names it (`pending_done`).
        if self.pending.len() >= self.config.max_pending {
            let oldest = self
                .pending
                .iter()
                .enumerate()
                .min_by_key(|(_, p)| p.since)
                .map(|(i, p)| (i, p.since, p.evict_after()));
            match oldest {
                Some((i, since, evict)) if now.saturating_sub(since) >= evict => {
                    let old = self.pending.swap_remove(i);
                    old.link.close();
                    self.emit(DriverEvent::AttemptAborted {
                        peer: old.link.peer(),
                        reason: "its handshake took too long while another device waited"
                            .to_owned(),
                    });
                }
                _ => {
                    return self.turn_away(
                        &*link,
                        Refusal::Busy,
                        "the host is busy with other connections; try again",
                    );
                }
            }
        }
        let from_source = self
            .pending
            .iter()
            .filter(|p| source.is_some() && p.source == source)
            .count();
        let refused = if from_source >= self.config.max_pending_per_address {
            Some("too many connections at once from this address")
        } else if !self.limiter.allow(source.as_ref(), now) {
            Some("too many attempts from this address")
        } else if !self.hangups.has_token(source.as_ref(), now) {
            Some("too many codes from this address went unanswered; it may try again later")
        } else {
            None
        };
        if let Some(reason) = refused {
            return self.turn_away(&*link, Refusal::TooOften, reason);
        }
        let Ok(handshake) = self.session.pending_accept(now) else {
            return link.close();
        };
        self.next_pending += 1;
        let id = self.next_pending;
        let timeout = self.config.pending_timeout;
        let thread = {
            let link = Arc::clone(&link);
            let core = self.me.clone();
            thread::Builder::new()
                .name("banco-link-reader".into())
                .spawn(move || run_pending(&core, link, id, handshake, timeout))
        };
        let Ok(handle) = thread else {
            return link.close();
        };
        self.readers.retain(|r| !r.is_finished());
        self.readers.push(handle);
        self.emit(DriverEvent::Connected { peer: link.peer() });
        self.pending.push(Pending {
            id,
            link,
            source,
            since: now,
        });
    }

    /// Host: a pending handshake failed; only its connection is closed.
    fn pending_failed(&mut self, id: u64, reason: &str) {
        let Some(i) = self.pending.iter().position(|p| p.id == id) else {
            return;
        };
        let p = self.pending.swap_remove(i);
        p.link.close();
        self.emit(DriverEvent::AttemptAborted {
            peer: p.link.peer(),
            reason: reason.to_owned(),
        });
        self.schedule_connect();
    }

    /// Host: a pending handshake finished. The confirmed peer's key (a reconnect) or, while
    /// nobody is confirmed, any key within [`DriverConfig::max_unverified`](crate::driver::DriverConfig::max_unverified) becomes the
    /// match's link; the generation its reader continues with, or `None` if it was refused.
    fn pending_done(&mut self, id: u64, accepted: AcceptedLink) -> Option<u64> {
        let i = self.pending.iter().position(|p| p.id == id)?;
        let Pending { link, source, .. } = self.pending.swap_remove(i);
        self.schedule_connect();
        if self.done || self.session.is_closed() {
            link.close();
            return None;
        }
        let key = accepted.peer_key();
        let refuse = |core: &mut Self, refusal: Refusal, reason: &str| {
            core.turn_away(&*link, refusal, reason);
            None
        };
        let mut counted = false;
        match self.session.peer().filter(|p| p.verified).map(|p| p.key) {
            Some(paired) if paired != key => {
                return refuse(
                    self,
                    Refusal::Paired,
                    "another device than the paired one; refused",
                );
            }
            Some(_) => {}
            None if self.session.known_peers().name_of(&key).is_some() => {}
            None if self.link.is_some()
                && self
                    .session
                    .peer()
                    .is_some_and(|p| !p.verified && p.key != key) =>
            {
                // Another device's code is on the host's screen: it is answered first. The
                // newcomer is turned away without showing a code (nor counting towards
                // `max_unverified`) and may try again; replacing the device being compared
                // would let two devices knock each other off until the host pauses.
                return refuse(
                    self,
                    Refusal::Comparing,
                    "the host is comparing another device's code; try again once it is answered",
                );
            }
            None => {
                if self.paused || self.unverified >= self.config.max_unverified {
                    return refuse(
                        self,
                        Refusal::Paused,
                        "too many codes were not confirmed; refused",
                    );
                }
                // The same device's previous code (if on screen) ends first.
                self.drop_link();
                self.unverified += 1;
                counted = true;
                if self.unverified >= self.config.max_unverified {
                    self.pause();
                }
            }
        }
        // The new link replaces the current one (a guest that reconnected, the device
        // being compared coming back with a new code, or the first device to show one).
        self.drop_link();
        self.generation += 1;
        let generation = self.generation;
        self.link = Some((generation, Arc::clone(&link)));
        self.reader_until = None;
        self.link_state = Some(false);
        let now = self.now();
        if counted {
            self.shown = Some(Shown {
                generation,
                source,
                since: now,
                rejected: false,
            });
        }
        if self.session.adopt(accepted, now).is_err() {
            self.drop_link();
            return None;
        }
        Some(generation)
    }

    /// Host: turns new devices away (telling them why) until the player reopens or the
    /// cool-down ([`DriverConfig::pause_cooldown`](crate::driver::DriverConfig::pause_cooldown)) is over. The code on screen stays.
    /// Handshakes still run: one that names a remembered player (or the paired guest) is
    /// let in, any other is turned away when it ends ([`Core::pending_done`]).
    fn pause(&mut self) {
        self.paused = true;
        let now = self.now();
        self.reopen_at = self
            .config
            .pause_cooldown
            .map(|d| now.saturating_add(ms(d)));
        self.emit(DriverEvent::AttemptsExhausted {
            attempts: self.unverified,
        });
    }

    /// Closes every connection still in its handshake (at the end).
    pub(in crate::driver) fn close_pending(&mut self) {
        for p in self.pending.drain(..) {
            p.link.close();
        }
    }
}

/// The thread of a host's pending connection: runs the handshake without the session's
/// lock, then, if the driver takes the link, reads it as any link's reader.
fn run_pending<G: MatchGame>(
    weak: &Weak<Mutex<Core<G>>>,
    link: Arc<dyn Link>,
    id: u64,
    mut handshake: PendingAccept,
    timeout: Duration,
) where
    Session<G>: Send,
{
    let deadline = crate::deadline_after(timeout);
    let failed = |reason: &str| {
        if let Some(shared) = weak.upgrade() {
            let mut core = lock(&shared);
            core.pending_failed(id, reason);
            core.pump();
            let needed = core.nudge();
            let tx = core.waker();
            drop(core);
            wake(&tx, needed);
        }
    };
    loop {
        let left = deadline.saturating_duration_since(Instant::now());
        if left.is_zero() {
            return failed("the handshake took too long");
        }
        let frame = match link.recv(Some(left)) {
            Ok(Some(frame)) => frame,
            Ok(None) => continue,
            Err(e) => return failed(&e.to_string()),
        };
        match handshake.handle(&frame) {
            Ok(AcceptStep::Reply(reply)) => {
                if let Err(e) = link.send(&reply) {
                    return failed(&e.to_string());
                }
            }
            Ok(AcceptStep::Done(accepted)) => {
                let Some(shared) = weak.upgrade() else { return };
                let generation = {
                    let mut core = lock(&shared);
                    let generation = core.pending_done(id, *accepted);
                    core.pump();
                    let needed = core.nudge();
                    let tx = core.waker();
                    drop(core);
                    wake(&tx, needed);
                    generation
                };
                drop(shared);
                if let Some(generation) = generation {
                    read_link(weak, &*link, generation);
                }
                return;
            }
            Err(reason) => return failed(&reason.to_string()),
        }
    }
}
