//! Helpers shared by the integration tests: pairing two sessions, pumping frames, and a
//! hand-driven peer that can send anything.
#![allow(dead_code, clippy::unwrap_used, clippy::panic)]

use banco_game::{Color, GameKind, MatchGame};
use banco_protocol::crypto::Identity;
use banco_protocol::message::Body;
use banco_protocol::sim::{CountingGame, RawLink};
use banco_protocol::{Event, MatchSpec, Session, SessionConfig};

pub type S = Session<CountingGame>;

/// A session offering xiangqi (the counting game stands in for it).
pub fn session(name: &str, secret: u8) -> S {
    session_offering(name, secret, &[GameKind::Xiangqi])
}

/// A session offering `offers`. It acknowledges every message at once
/// (`ack_delay_ms: 0`), so tests that step from one deadline to the next see only the
/// timers they are about; `session::delayed_acknowledgements` covers the delay.
pub fn session_offering(name: &str, secret: u8, offers: &[GameKind]) -> S {
    session_seeded(name, secret, secret.wrapping_add(100), offers)
}

/// [`session_offering`] with its own randomness `seed`: the same device (key) started
/// again, as an app that restarted.
pub fn session_seeded(name: &str, secret: u8, seed: u8, offers: &[GameKind]) -> S {
    let mut config = SessionConfig::new(name, offers);
    config.timing.ack_delay_ms = 0;
    Session::new(config, Identity::from_secret([secret; 32]), [seed; 32])
}

/// Carries frames both ways until both sessions are quiet.
pub fn pump<G: MatchGame>(a: &mut Session<G>, b: &mut Session<G>, now: u64) {
    for _ in 0..1000 {
        let mut moved = false;
        while let Some(f) = a.poll_transmit() {
            b.handle_datagram(&f, now);
            moved = true;
        }
        while let Some(f) = b.poll_transmit() {
            a.handle_datagram(&f, now);
            moved = true;
        }
        if !moved {
            return;
        }
    }
    panic!("sessions never went quiet");
}

/// Runs the earlier of the two sessions' timers (both are told the time); returns it.
pub fn run_next_timer<G: MatchGame>(a: &mut Session<G>, b: &mut Session<G>) -> u64 {
    let now = [a.poll_timeout(), b.poll_timeout()]
        .into_iter()
        .flatten()
        .min()
        .unwrap();
    a.handle_timeout(now);
    b.handle_timeout(now);
    now
}

pub fn events<G: MatchGame>(s: &mut Session<G>) -> Vec<Event<G::Move>> {
    std::iter::from_fn(|| s.poll_event()).collect()
}

/// Plays move 1 of the counting game once at each of `times`, `a` first and then in
/// turn, every move heard by the other side at once.
pub fn play_in_turn(a: &mut S, b: &mut S, times: &[u64]) {
    for (i, &t) in times.iter().enumerate() {
        let mover = if i % 2 == 0 { &mut *a } else { &mut *b };
        mover.play(1, t).unwrap();
        pump(a, b, t);
    }
}

/// Links two sessions (a dials) and pumps until both are up.
pub fn link<G: MatchGame>(a: &mut Session<G>, b: &mut Session<G>, now: u64) {
    a.connect(now).unwrap();
    b.accept(now).unwrap();
    pump(a, b, now);
    assert!(a.is_link_up() && b.is_link_up());
}

/// Two sessions, linked, codes confirmed, with a game started where `a` plays `a_color`.
pub fn playing(a_color: Color, clock: Option<banco_protocol::message::ClockSpec>) -> (S, S) {
    playing_spec(MatchSpec {
        clock,
        ..MatchSpec::new(GameKind::Xiangqi, a_color)
    })
}

/// Two sessions offering both kinds of the counting game, linked, codes confirmed, with
/// the game of `spec` (proposed by `a`) started.
pub fn playing_spec(spec: MatchSpec) -> (S, S) {
    let both = CountingGame::kinds();
    let mut a = session_offering("A", 1, both);
    let mut b = session_offering("B", 2, both);
    link(&mut a, &mut b, 0);
    a.confirm_peer(false).unwrap();
    b.confirm_peer(false).unwrap();
    a.propose(spec, 0).unwrap();
    pump(&mut a, &mut b, 0);
    b.accept_proposal(0).unwrap();
    pump(&mut a, &mut b, 0);
    events(&mut a);
    events(&mut b);
    (a, b)
}

/// A peer driven by hand over the library's [`RawLink`], keeping every frame it sent, so
/// tests can send replayed, forged, illegal or flooding messages.
pub struct RawPeer {
    /// Its end of the link (the library's hand-driven peer).
    pub link: RawLink,
    /// Every frame it sent, in order.
    pub sent: Vec<Vec<u8>>,
}

impl RawPeer {
    /// Dials `victim` (which accepts) with protocol `version`; `None` if the victim refused.
    pub fn connect<G: MatchGame>(
        victim: &mut Session<G>,
        version: u8,
        now: u64,
    ) -> Option<RawPeer> {
        RawPeer::connect_offering(victim, version, 0, now)
    }

    /// Like [`RawPeer::connect`], announcing the capability bits `caps`. The victim's
    /// resume must reveal the SAS nonce its hello committed to.
    pub fn connect_offering<G: MatchGame>(
        victim: &mut Session<G>,
        version: u8,
        caps: u32,
        now: u64,
    ) -> Option<RawPeer> {
        let (mut link, commit) = RawLink::dial(victim, version, caps, now)?;
        let f = victim.poll_transmit()?;
        let (env, _) = link.open(&f).unwrap();
        let Body::Resume(r) = env.body else {
            panic!("expected Resume, got {env:?}")
        };
        assert_eq!(banco_protocol::sas::commit(&r.sas_reveal.unwrap()), commit);
        let mut raw = RawPeer {
            link,
            sent: Vec::new(),
        };
        let frame = raw.link.resume(victim, now).unwrap();
        raw.sent.push(frame);
        Some(raw)
    }

    /// Skips one sequence number, as if a sequenced message had been sent and lost: the
    /// victim sees a gap in this peer's stream until that number is sent.
    pub fn skip_seq(&mut self) {
        self.link.seq += 1;
    }

    /// Takes back the acknowledgement of the victim's last `n` sequenced messages: the
    /// next messages acknowledge only those before them, as if they had not arrived.
    pub fn unack(&mut self, n: u64) {
        self.link.ack -= n;
    }

    /// Acknowledges the victim's `n` sequenced messages taken back by [`RawPeer::unack`].
    pub fn ack_again(&mut self, n: u64) {
        self.link.ack += n;
    }

    /// Seals and delivers one message; returns the frame.
    pub fn send<G: MatchGame>(&mut self, victim: &mut Session<G>, body: Body, now: u64) -> Vec<u8> {
        let frame = self.link.send(victim, body, now).unwrap();
        self.sent.push(frame.clone());
        frame
    }

    /// Reads everything the victim sent; acknowledges sequenced messages.
    pub fn recv<G: MatchGame>(&mut self, victim: &mut Session<G>) -> Vec<Body> {
        let mut out = Vec::new();
        while let Some(f) = victim.poll_transmit() {
            out.push(self.link.open(&f).unwrap().0.body);
        }
        out
    }
}

/// Two races with `options`, Red's and Black's, from the seed shares `red` and `black`
/// of one `session`, both started (each has the other's reveal): each returns its
/// start events, which every caller may check.
pub fn started_races(
    options: banco_protocol::race::RaceOptions,
    red: [u8; 32],
    black: [u8; 32],
    session: [u8; 8],
) -> (
    banco_protocol::race::Race,
    banco_protocol::race::Race,
    Vec<banco_protocol::race::RaceEvent>,
) {
    use banco_protocol::race::Race;
    use banco_protocol::seed::SeedShare;
    let red = SeedShare::new(red, session, Color::Red);
    let black = SeedShare::new(black, session, Color::Black);
    let mut a = Race::new(
        Color::Red,
        options,
        red.clone(),
        black.commitment().to_vec(),
    );
    let mut b = Race::new(
        Color::Black,
        options,
        black.clone(),
        red.commitment().to_vec(),
    );
    let mut events = Vec::new();
    a.on_reveal(black.value(), 0, &mut events);
    b.on_reveal(red.value(), 0, &mut events);
    (a, b, events)
}

/// Two sessions offering Lines, linked, codes confirmed, in the race of `options` that `a`
/// (Red) proposed and `b` accepted at 0; both said the race began.
pub fn racing(options: banco_protocol::race::RaceOptions) -> (S, S) {
    let mut a = session_offering("A", 1, &[GameKind::Lines]);
    let mut b = session_offering("B", 2, &[GameKind::Lines]);
    link(&mut a, &mut b, 0);
    a.confirm_peer(false).unwrap();
    b.confirm_peer(false).unwrap();
    a.propose_race(options, Color::Red, 0).unwrap();
    pump(&mut a, &mut b, 0);
    b.accept_proposal(0).unwrap();
    pump(&mut a, &mut b, 0);
    for s in [&mut a, &mut b] {
        assert!(events(s).iter().any(|e| matches!(
            e,
            Event::Race(banco_protocol::race::RaceEvent::Started { .. })
        )));
    }
    (a, b)
}

/// Red's and Black's seed shares of one Lines race.
pub fn seed_shares() -> (
    banco_protocol::seed::SeedShare,
    banco_protocol::seed::SeedShare,
) {
    use banco_protocol::seed::SeedShare;
    let session = [3; 8];
    (
        SeedShare::new([21; 32], session, Color::Red),
        SeedShare::new([22; 32], session, Color::Black),
    )
}

/// `color`'s race of `options` before either value is known: its own share `own` and the
/// peer's commitment.
pub fn race_of(
    color: Color,
    options: banco_protocol::race::RaceOptions,
    own: &banco_protocol::seed::SeedShare,
    peer: &banco_protocol::seed::SeedShare,
) -> banco_protocol::race::Race {
    banco_protocol::race::Race::new(color, options, own.clone(), peer.commitment().to_vec())
}
