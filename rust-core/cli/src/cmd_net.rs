//! `banco host` and `banco join`: a xiangqi match between two terminals on the LAN.
//!
//! Both sides show the six-digit code of the encrypted pairing and ask the player to
//! confirm it (`--yes` accepts it without asking), then play with the same board as
//! `banco play`. `--ai LEVEL` lets the engine play this side, so two processes can play a
//! whole game unattended. When the game ends both print a last line
//! `result RESULT fen FEN`.

use crate::CliError;
use crate::ui::board::{self, Style};
use banco_engine::{Level, Limits, XiangqiSearcher, level};
use banco_game::{Color, Game, GameKind};
use banco_net::discovery::{Advertisement, DiscoveryConfig};
use banco_net::driver::{Dialer, Driver, DriverConfig, DriverEvent};
use banco_net::{Advertise, DEFAULT_PORT, host, join_named};
use banco_protocol::{Event, Identity, MatchSpec, Session, SessionConfig};
use banco_xiangqi::notation::{Chinese, MoveTextError, Wxf, parse_any};
use banco_xiangqi::{Move, RuleSet, Xiangqi};
use clap::Args;
use std::io::{BufRead, Write};
use std::net::{IpAddr, Ipv4Addr, SocketAddr};
use std::sync::atomic::AtomicBool;
use std::sync::mpsc::{self, Receiver, Sender};
use std::time::{Duration, Instant};

/// Options shared by `host` and `join`.
#[derive(Args, Debug)]
pub(crate) struct MatchArgs {
    /// Your display name.
    #[arg(long, default_value = "banco")]
    name: String,
    /// Let the engine play this side at this level (1-10).
    #[arg(long, value_name = "LEVEL")]
    ai: Option<u8>,
    /// Accept the pairing code and the proposed game without asking.
    #[arg(long)]
    yes: bool,
    /// Milliseconds the engine may think per move with `--ai`.
    #[arg(long, default_value_t = 300)]
    movetime: u64,
    /// No colours.
    #[arg(long)]
    no_color: bool,
}

/// `banco host`.
#[derive(Args, Debug)]
pub(crate) struct HostArgs {
    #[command(flatten)]
    common: MatchArgs,
    /// TCP port to listen on (0 picks a free one and prints it).
    #[arg(long, default_value_t = DEFAULT_PORT)]
    port: u16,
    /// Address to listen on.
    #[arg(long, default_value_t = IpAddr::V4(Ipv4Addr::UNSPECIFIED))]
    bind: IpAddr,
    /// Do not advertise on the LAN (mDNS); guests then join by address.
    #[arg(long)]
    no_mdns: bool,
    /// The colour the host plays: red (moves first) or black.
    #[arg(long, default_value = "red")]
    color: String,
    /// Rule set of the match: asian or casual.
    #[arg(long, default_value = "asian")]
    rules: String,
}

/// `banco join`.
#[derive(Args, Debug)]
pub(crate) struct JoinArgs {
    #[command(flatten)]
    common: MatchArgs,
    /// The host: HOST:PORT, or the display name it advertises on the LAN.
    target: String,
    /// Seconds to look for a host by name.
    #[arg(long, default_value_t = 10)]
    browse_secs: u64,
}

/// The rule sets both sides offer, by wire index.
const RULES: [RuleSet; 2] = banco_xiangqi::MATCH_RULES;

fn random32() -> Result<[u8; 32], CliError> {
    let mut b = [0u8; 32];
    getrandom::fill(&mut b)
        .map_err(|e| CliError::Failure(format!("no randomness from the system: {e}")))?;
    Ok(b)
}

/// A session offering xiangqi, with a fresh identity.
fn new_session(name: &str) -> Result<Session<Xiangqi>, CliError> {
    let config = SessionConfig::new(name, &[GameKind::Xiangqi]);
    let identity = Identity::from_secret(random32()?);
    Ok(Session::new(config, identity, random32()?))
}

pub(crate) fn host_cmd(args: &HostArgs) -> Result<(), CliError> {
    let color = parse_color(&args.color)?;
    let rules = RULES
        .iter()
        .position(|r| Some(*r) == RuleSet::from_name(&args.rules))
        .ok_or_else(|| {
            CliError::input(format!(
                "unknown rule set `{}`: use asian or casual",
                args.rules
            ))
        })?;
    let session = new_session(&args.common.name)?;
    // The advertisement lists exactly the games the session offers.
    let advertise = (!args.no_mdns).then(|| Advertise {
        ad: Advertisement::of_session(&session),
        config: DiscoveryConfig::default(),
    });
    let listening = host(SocketAddr::new(args.bind, args.port), advertise)
        .map_err(|e| CliError::Failure(format!("cannot host: {e}")))?;
    println!("listening on {}", listening.local_addr());
    if let Some(name) = listening.service_name() {
        println!("advertised on the LAN as {name}");
    }
    println!("waiting for a guest…");
    let _ = std::io::stdout().flush();
    let first = loop {
        match listening.accept(Some(Duration::from_secs(1))) {
            Ok(Some(link)) => break link,
            Ok(None) => {}
            Err(e) => return Err(CliError::Failure(format!("accept failed: {e}"))),
        }
    };
    let (tx, rx) = mpsc::channel();
    let sink = tx.clone();
    let driver = Driver::spawn_on_link(
        session,
        Box::new(first),
        listening.acceptor(),
        DriverConfig::default(),
        move |e| {
            let _ = sink.send(Input::Net(e));
        },
    );
    let spec = MatchSpec {
        rules: rules as u8,
        ..MatchSpec::new(GameKind::Xiangqi, color)
    };
    let mut table = Table::new(&args.common, driver, Some(spec))?;
    table.run(&tx, &rx)
}

pub(crate) fn join_cmd(args: &JoinArgs) -> Result<(), CliError> {
    let session = new_session(&args.common.name)?;
    let dialer = if args.target.contains(':') {
        banco_net::dialer(&args.target)
            .map_err(|e| CliError::input(format!("cannot reach {}: {e}", args.target)))?
    } else {
        println!("looking for {} on the LAN…", args.target);
        let (link, peer) = join_named(
            &args.target,
            &DiscoveryConfig::default(),
            Duration::from_secs(args.browse_secs),
        )
        .map_err(|e| CliError::Failure(format!("cannot find {}: {e}", args.target)))?;
        // The first link is made; later reconnects dial the same peer.
        drop(link);
        Dialer::to_peer(&peer)
    };
    let (tx, rx) = mpsc::channel();
    let sink = tx.clone();
    let driver = Driver::spawn_with_callback(session, dialer, DriverConfig::default(), move |e| {
        let _ = sink.send(Input::Net(e));
    });
    let mut table = Table::new(&args.common, driver, None)?;
    table.run(&tx, &rx)
}

fn parse_color(text: &str) -> Result<Color, CliError> {
    match text.to_ascii_lowercase().as_str() {
        "red" | "r" => Ok(Color::Red),
        "black" | "b" => Ok(Color::Black),
        other => Err(CliError::input(format!(
            "unknown colour `{other}`: use red or black"
        ))),
    }
}

enum Input {
    Net(DriverEvent<Move>),
    Line(String),
    Eof,
}

/// What the local player is being asked.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Question {
    None,
    Code,
    Proposal,
    Undo,
    Draw,
}

struct Table {
    driver: Driver<Xiangqi>,
    propose: Option<MatchSpec>,
    mirror: Xiangqi,
    me: Option<Color>,
    ai: Option<Level>,
    yes: bool,
    movetime: u64,
    searcher: XiangqiSearcher,
    rules: RuleSet,
    style: Style,
    question: Question,
    over: bool,
    /// After the game ended with our own message still unacknowledged: when to stop
    /// waiting for the acknowledgement and leave anyway.
    finish_by: Option<Instant>,
    stdin_started: bool,
}

/// How long the side that made the last move waits for the peer to acknowledge it before
/// closing: closing at once could leave the peer without the final move (a frame the peer
/// dropped, e.g. to its rate limit, is only sent again while the session lives).
const FINISH_GRACE: Duration = Duration::from_secs(5);

impl Table {
    fn new(
        args: &MatchArgs,
        driver: Driver<Xiangqi>,
        propose: Option<MatchSpec>,
    ) -> Result<Table, CliError> {
        let ai = args
            .ai
            .map(Level::new)
            .transpose()
            .map_err(CliError::input)?;
        Ok(Table {
            driver,
            propose,
            mirror: Xiangqi::new(),
            me: None,
            ai,
            yes: args.yes,
            movetime: args.movetime.max(1),
            searcher: XiangqiSearcher::new(16),
            rules: RuleSet::asian(),
            style: Style::detect(args.no_color),
            question: Question::None,
            over: false,
            finish_by: None,
            stdin_started: false,
        })
    }

    /// Reads standard input on its own thread (only when a human must type something).
    fn start_stdin(&mut self, tx: &Sender<Input>) {
        if self.stdin_started {
            return;
        }
        self.stdin_started = true;
        let tx = tx.clone();
        std::thread::spawn(move || {
            let stdin = std::io::stdin();
            for line in stdin.lock().lines() {
                match line {
                    Ok(l) => {
                        if tx.send(Input::Line(l)).is_err() {
                            return;
                        }
                    }
                    Err(_) => break,
                }
            }
            let _ = tx.send(Input::Eof);
        });
    }

    fn ask(&mut self, tx: &Sender<Input>, q: Question, text: &str) {
        self.question = q;
        println!("{text} [y/n]");
        self.start_stdin(tx);
    }

    fn run(&mut self, tx: &Sender<Input>, rx: &Receiver<Input>) -> Result<(), CliError> {
        if self.ai.is_none() {
            self.start_stdin(tx);
        }
        loop {
            let _ = std::io::stdout().flush();
            if let Some(deadline) = self.finish_by {
                // The game is over: leave once the peer has everything we sent.
                let delivered = self.driver.with_session(|s, _| s.unacked()).unwrap_or(0) == 0;
                if delivered || Instant::now() >= deadline {
                    let _ = self.driver.close();
                    return Ok(());
                }
            }
            let input = if self.finish_by.is_some() {
                match rx.recv_timeout(Duration::from_millis(20)) {
                    Ok(input) => input,
                    Err(mpsc::RecvTimeoutError::Timeout) => continue,
                    Err(mpsc::RecvTimeoutError::Disconnected) => return Ok(()),
                }
            } else {
                let Ok(input) = rx.recv() else {
                    return Err(CliError::Failure(
                        "the connection driver stopped".to_owned(),
                    ));
                };
                input
            };
            match input {
                Input::Net(event) => {
                    if let Some(result) = self.on_event(event, tx) {
                        return result;
                    }
                }
                Input::Line(line) => {
                    if let Some(result) = self.on_line(line.trim(), tx) {
                        return result;
                    }
                }
                Input::Eof => {
                    if self.ai.is_none() && !self.over {
                        println!("end of input: leaving the match");
                        let _ = self.driver.close();
                        return Ok(());
                    }
                }
            }
        }
    }

    fn on_event(
        &mut self,
        event: DriverEvent<Move>,
        tx: &Sender<Input>,
    ) -> Option<Result<(), CliError>> {
        if self.over {
            // After the result line nothing more is printed (it stays the last line); the
            // table only waits for the link's end or for the peer's acknowledgement.
            return match event {
                DriverEvent::Stopped
                | DriverEvent::GaveUp { .. }
                | DriverEvent::Disconnected { .. }
                | DriverEvent::Session(Event::Closed { .. }) => {
                    let _ = self.driver.close();
                    Some(Ok(()))
                }
                _ => None,
            };
        }
        match event {
            DriverEvent::Connected { peer } => println!("connected to {peer}"),
            DriverEvent::Disconnected { error } => {
                println!("connection lost ({error}); the match waits");
            }
            DriverEvent::Reconnecting { attempt, delay, .. } => {
                println!(
                    "reconnecting (attempt {attempt}) in {} ms…",
                    delay.as_millis()
                );
            }
            DriverEvent::GaveUp { attempts } => {
                println!("gave up reconnecting after {attempts} attempts");
                return Some(Err(CliError::Failure("the peer is gone".to_owned())));
            }
            DriverEvent::Stopped => {
                return Some(if self.over {
                    Ok(())
                } else {
                    Err(CliError::Failure(
                        "the match stopped before the end".to_owned(),
                    ))
                });
            }
            DriverEvent::Session(e) => return self.on_session(e, tx),
        }
        None
    }

    fn on_session(
        &mut self,
        event: Event<Move>,
        tx: &Sender<Input>,
    ) -> Option<Result<(), CliError>> {
        match event {
            Event::LinkUp { resumed: true } => println!("link restored; the match goes on"),
            Event::LinkUp { resumed: false } => {}
            Event::LinkDown { reason } => println!("link down: {reason}"),
            Event::VerifyPeer { code, name, .. } => {
                let text = format!(
                    "{name} wants to play. Pairing code: {code}. Does their screen show the same code?"
                );
                if self.yes {
                    println!("{text} yes (--yes)");
                    let _ = self.driver.confirm_peer(false);
                } else {
                    self.ask(tx, Question::Code, &text);
                }
            }
            Event::PeerVerified { name, known, .. } => {
                println!(
                    "paired with {name}{}",
                    if known { " (remembered)" } else { "" }
                );
                if let Some(spec) = self.propose.clone() {
                    if let Err(e) = self.driver.propose(spec) {
                        println!("could not propose the game: {e}");
                    }
                }
            }
            Event::PeerKeyChanged { name, .. } => {
                println!(
                    "WARNING: {name} presents a different key than before; compare the code carefully"
                );
            }
            Event::Proposed(spec) => {
                let text = format!(
                    "the host proposes {} ({} rules), you play {}. Accept?",
                    spec.game,
                    rules_name(spec.rules),
                    spec.local_color
                );
                if self.yes {
                    println!("{text} yes (--yes)");
                    let _ = self.driver.accept_proposal();
                } else {
                    self.ask(tx, Question::Proposal, &text);
                }
            }
            Event::ProposalDeclined { reason } => {
                println!("the guest declined: {}", reason.text());
                let _ = self.driver.close();
                return Some(Err(CliError::Failure("no game".to_owned())));
            }
            Event::MatchStarted(spec) => {
                // Start from the session's own position (a proposal may name one).
                if let Ok(Some(game)) = self.driver.with_session(|s, _| s.game().cloned()) {
                    self.mirror = game;
                }
                self.me = Some(spec.local_color);
                self.rules = RULES.get(spec.rules as usize).copied().unwrap_or_default();
                self.style.flipped = spec.local_color == Color::Black;
                println!("the game starts: you play {}", spec.local_color);
                self.show();
                self.maybe_ai_move();
            }
            Event::MovePlayed { mv, by, .. } => {
                let who = if Some(by) == self.me {
                    "you play"
                } else {
                    "they play"
                };
                let pos = self.mirror.position();
                println!(
                    "{who} {mv} ({} {})",
                    Wxf::from_move(pos, mv),
                    Chinese::from_move(pos, mv)
                );
                let _ = self.mirror.play(mv);
                self.show();
                self.maybe_ai_move();
            }
            Event::UndoRequested { to_ply } => {
                let text = format!("they ask to take back moves (to move {to_ply}). Allow?");
                if self.ai.is_some() {
                    println!("{text} no (the engine plays this side)");
                    let _ = self.driver.reply_undo(false);
                } else {
                    self.ask(tx, Question::Undo, &text);
                }
            }
            Event::UndoDeclined => println!("they declined the undo"),
            Event::Undone { to_ply } => {
                while self.mirror.ply() > to_ply && self.mirror.undo_move().is_some() {}
                println!("moves taken back");
                self.show();
                self.maybe_ai_move();
            }
            Event::DrawOffered => {
                if self.ai.is_some() {
                    println!("they offer a draw: declined (the engine plays on)");
                    let _ = self.driver.reply_draw(false);
                } else {
                    self.ask(tx, Question::Draw, "they offer a draw. Accept?");
                }
            }
            Event::DrawDeclined => println!("they declined the draw"),
            Event::GameOver { outcome, .. } => {
                self.over = true;
                let words = match outcome.winner() {
                    Some(w) => format!("{w} wins by {}", outcome.reason_text()),
                    None => format!("draw by {}", outcome.reason_text()),
                };
                println!("game over: {words}");
                println!("result {} fen {}", outcome.score_text(), self.mirror.fen());
                let _ = std::io::stdout().flush();
                // Leave when the peer has acknowledged everything (at once if it has).
                self.finish_by = Some(Instant::now() + FINISH_GRACE);
                return None;
            }
            Event::PeerIllegalMove { ply, code, reason } => {
                println!(
                    "the peer sent an illegal move (ply {ply}, code {code}): {reason:?}; ignored"
                );
            }
            Event::FalseDrawClaim { ply } => {
                println!(
                    "the peer claimed a draw at ply {ply} that the rules do not allow; ignored"
                );
            }
            Event::Desync { ply, .. } => {
                println!("the peer's board differs from ours after ply {ply}; move ignored");
            }
            Event::PeerError { code } => println!("the peer reported an error: {code:?}"),
            Event::FrameRejected { .. } => {}
            Event::Closed { reason } => {
                println!("the match is closed: {reason:?}");
                return Some(if self.over {
                    Ok(())
                } else {
                    Err(CliError::Failure(
                        "the match closed before the end".to_owned(),
                    ))
                });
            }
        }
        None
    }

    fn show(&self) {
        print!(
            "{}",
            board::render(
                self.mirror.position(),
                self.mirror.moves().last(),
                self.style
            )
        );
        if self.me == Some(self.mirror.side_to_move()) && self.ai.is_none() {
            println!("your move (or undo, draw, resign, board, quit):");
        }
    }

    fn maybe_ai_move(&mut self) {
        let (Some(me), Some(lvl)) = (self.me, self.ai) else {
            return;
        };
        if self.over
            || self.mirror.side_to_move() != me
            || self.mirror.outcome(&self.rules).is_some()
        {
            return;
        }
        let stop = AtomicBool::new(false);
        let seed = u64::from(self.mirror.ply()) ^ self.mirror.hash();
        let result = level::play(
            &mut self.searcher,
            &self.mirror,
            &self.rules,
            lvl,
            &Limits::movetime(self.movetime),
            seed,
            &stop,
        );
        if let Some(mv) = result.best_move {
            if let Err(e) = self.driver.play(mv) {
                println!("could not play {mv}: {e}");
            }
        }
    }

    fn on_line(&mut self, text: &str, _tx: &Sender<Input>) -> Option<Result<(), CliError>> {
        if self.question != Question::None {
            let yes = match text.to_ascii_lowercase().as_str() {
                "y" | "yes" => true,
                "n" | "no" => false,
                _ => {
                    println!("answer y or n");
                    return None;
                }
            };
            let q = std::mem::replace(&mut self.question, Question::None);
            let r = match q {
                Question::Code if yes => self.driver.confirm_peer(true),
                Question::Code => {
                    let _ = self.driver.reject_peer();
                    println!("the codes differ: not playing");
                    return Some(Err(CliError::Failure("pairing refused".to_owned())));
                }
                Question::Proposal if yes => self.driver.accept_proposal(),
                Question::Proposal => self.driver.decline_proposal(),
                Question::Undo => self.driver.reply_undo(yes),
                Question::Draw => self.driver.reply_draw(yes),
                Question::None => Ok(()),
            };
            if let Err(e) = r {
                println!("{e}");
            }
            return None;
        }
        match text.to_ascii_lowercase().as_str() {
            "" => {}
            "quit" | "exit" => {
                let _ = self.driver.close();
                return Some(Ok(()));
            }
            "board" => self.show(),
            "fen" => println!("{}", self.mirror.fen()),
            "flip" => {
                self.style.flipped = !self.style.flipped;
                self.show();
            }
            "undo" => report(self.driver.request_undo()),
            "draw" => report(self.driver.offer_draw()),
            "resign" => report(self.driver.resign()),
            _ => {
                if self.me != Some(self.mirror.side_to_move()) {
                    println!("not your turn");
                    return None;
                }
                match parse_any(self.mirror.position(), text) {
                    Ok(mv) => report(self.driver.play(mv)),
                    Err(e @ MoveTextError::Unreadable(_)) => println!("{e}"),
                    Err(e @ MoveTextError::Illegal(_)) => println!("illegal move: {e}"),
                }
            }
        }
        None
    }
}

fn report<E: std::fmt::Display>(r: Result<(), E>) {
    if let Err(e) = r {
        println!("{e}");
    }
}

fn rules_name(index: u8) -> &'static str {
    match index {
        1 => "casual",
        _ => "asian",
    }
}
