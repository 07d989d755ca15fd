//! `banco host` and `banco join`: a match of any board game between two terminals on the
//! LAN, over banco-app's `NetMatch` (the same code the apps run).
//!
//! Both sides show the six-digit code of the encrypted pairing and ask the player to
//! confirm it (`--yes` accepts it without asking), then play with the same board as
//! `banco play`. The host offers every game (or `--offer LIST`) and proposes `--game`;
//! a guest with `--game` accepts only that game. `--ai LEVEL` lets the engine play this
//! side, so two processes can play a whole game unattended. When the game ends both print a
//! last line `result RESULT fen FEN`. `--game lines` races on two Lines boards at once
//! (module `race`; last line `result R-B scores … turns … end …`).

mod events;
mod identity;
mod race;
mod reach;
mod save;

use identity::{load_trust, trust_path, warn_unattended};
use reach::Unreached;

use crate::CliError;
use crate::cmd_play::{parse_color, parse_game};
use crate::ui::board::Style;
use banco_app::engine::AnyEngine;
use banco_app::network::{HostOptions, NetEvent, NetMatch, NetObserver, Phase, parse_clock};
use banco_engine::{Level, Limits};
use banco_game::{Game, GameKind};
use banco_net::discovery::DiscoveryConfig;
use banco_net::{DEFAULT_PORT, join_named};
use banco_protocol::race::RaceOptions;
use clap::Args;
use std::io::{BufRead, Write};
use std::net::{IpAddr, Ipv4Addr, SocketAddr};
use std::path::PathBuf;
use std::sync::atomic::AtomicBool;
use std::sync::mpsc::{self, Receiver, Sender};
use std::sync::{Arc, Mutex};
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
    /// Accept the pairing code and the proposed game without asking. The other player is
    /// not remembered (see --remember), and a device presenting another key than the
    /// remembered player of its name is never accepted.
    #[arg(long)]
    yes: bool,
    /// With --yes: remember the other player as confirmed, so the next match skips the
    /// code (for tests between two fixed identities).
    #[arg(long, requires = "yes")]
    remember: bool,
    /// Milliseconds the engine may think per move with `--ai`, 1 ms to a day.
    #[arg(long, default_value_t = 300, value_parser = clap::value_parser!(u64).range(1..=crate::cmd_play::MAX_MOVETIME_MS))]
    movetime: u64,
    /// No colours.
    #[arg(long)]
    no_color: bool,
    /// Where this device's identity and the players whose code was confirmed are kept
    /// (default: $BANCO_DATA_DIR, else $XDG_DATA_HOME/banco, else ~/.local/share/banco).
    #[arg(long, value_name = "DIR")]
    data_dir: Option<PathBuf>,
    /// Write the game to this file when it ends (`.pgn`, `.txt`, else Banco's compact
    /// save), before the result line: the table closes at the end, so this is how a
    /// finished match is kept (`save FILE` at the table keeps it while it is on).
    #[arg(long, value_name = "FILE")]
    save: Option<String>,
}

/// `banco host`.
#[derive(Args, Debug)]
pub(crate) struct HostArgs {
    #[command(flatten)]
    common: MatchArgs,
    /// The game to propose: xiangqi, chess, jieqi (reveals drawn fairly by both sides) or
    /// lines (a race on identical boards: see --balls, --race-secs and --preview).
    #[arg(long, default_value = "xiangqi")]
    game: String,
    /// The games offered, comma-separated (default: every game; the guest sees them).
    #[arg(long, value_delimiter = ',')]
    offer: Vec<String>,
    /// TCP port to listen on (0 picks a free one and prints it).
    #[arg(long, default_value_t = DEFAULT_PORT)]
    port: u16,
    /// Address to listen on.
    #[arg(long, default_value_t = IpAddr::V4(Ipv4Addr::UNSPECIFIED))]
    bind: IpAddr,
    /// Do not advertise on the LAN (mDNS); guests then join by address.
    #[arg(long)]
    no_mdns: bool,
    /// Host over Bluetooth LE instead of the LAN (a GATT peripheral; Linux, BlueZ; needs a
    /// banco built with `--features ble`).
    #[arg(long)]
    ble: bool,
    /// The colour the host plays: red/white (moves first) or black.
    #[arg(long, default_value = "red")]
    color: String,
    /// Lines race: balls on each board at the start (3 or 5).
    #[arg(long, default_value_t = RACE_BALLS)]
    balls: u8,
    /// Lines race: the time limit in seconds, 1 to 65535 (every race has one; a board full
    /// before it waits for the other's).
    #[arg(long, default_value_t = RACE_SECS)]
    race_secs: u16,
    /// Lines race with Lines 98's preview: each board shows where its next balls land (in
    /// lower case, as `banco play --game lines --preview`); the guest learns it from the
    /// proposal.
    #[arg(long)]
    preview: bool,
    /// Rule set of the match (xiangqi and jieqi: asian, the default, or casual; chess has
    /// one set of rules and takes none).
    #[arg(long)]
    rules: Option<String>,
    /// Start from a set-up position (FEN) instead of the usual start.
    #[arg(long)]
    fen: Option<String>,
    /// Play on a clock: MINUTES[+SECONDS], the minutes each side has (a decimal such as
    /// 0.5, or seconds with `s`: 30s; at least 10 s, at most 24 h) and the seconds added
    /// after each move, such as 5+3 or 10. A player who runs out of time loses; without a
    /// clock the game is untimed (in jieqi a player who withholds a reveal then stalls
    /// the game instead of losing on time).
    #[arg(long, value_name = "M[+S]")]
    clock: Option<String>,
}

/// `--balls` and `--race-secs` when not given.
const RACE_BALLS: u8 = 5;
const RACE_SECS: u16 = 300;
/// `banco join`.
#[derive(Args, Debug)]
pub(crate) struct JoinArgs {
    #[command(flatten)]
    common: MatchArgs,
    /// The host: HOST:PORT, or the display name it advertises on the LAN (with `--ble`: over
    /// Bluetooth, any host when omitted).
    #[arg(required_unless_present = "ble")]
    target: Option<String>,
    /// Join over Bluetooth LE (needs a banco built with `--features ble`).
    #[arg(long)]
    ble: bool,
    /// Accept only this game (xiangqi, chess, jieqi or lines, the race); by default whatever
    /// the host proposes.
    #[arg(long)]
    game: Option<String>,
    /// Seconds to look for a host by name.
    #[arg(long, default_value_t = 10)]
    browse_secs: u64,
    /// With --ai: give up (exit 1, with the reason) when the host was not reached within
    /// this many seconds. A match under way reconnects after a cut for as long as it takes.
    #[arg(long, value_name = "SECS", default_value_t = reach::GIVE_UP_SECS)]
    give_up_secs: u64,
}

struct Relay(Mutex<Sender<Input>>);

impl NetObserver for Relay {
    fn event(&self, event: NetEvent) {
        if let Ok(tx) = self.0.lock() {
            let _ = tx.send(Input::Net(event));
        }
    }
}

/// A game to host or join: a board game, or `lines` (the race).
fn parse_net_game(name: &str) -> Result<GameKind, CliError> {
    match GameKind::from_name(name) {
        Some(GameKind::Lines) => Ok(GameKind::Lines),
        _ => parse_game(name).map_err(|_| {
            CliError::input(format!(
                "unknown game `{name}`: use xiangqi or chess or jieqi or lines"
            ))
        }),
    }
}

pub(crate) fn host_cmd(args: &HostArgs) -> Result<(), CliError> {
    let color = parse_color(&args.color)?;
    let game = parse_net_game(&args.game)?;
    let offers = if args.offer.is_empty() {
        Vec::new()
    } else {
        args.offer
            .iter()
            .map(|g| parse_net_game(g.trim()))
            .collect::<Result<Vec<_>, _>>()?
    };
    let race = RaceOptions {
        start_balls: args.balls,
        time_limit_s: args.race_secs,
        preview: args.preview,
        ..RaceOptions::default()
    };
    race::refuse_race_options(args, game)?;
    let clock = args
        .clock
        .as_deref()
        .map(parse_clock)
        .transpose()
        .map_err(|e| CliError::input(format!("--clock: {e}")))?;
    if clock.is_some() && game == GameKind::Lines {
        return Err(CliError::input(
            "--clock is for board games: a lines race has its time limit (--race-secs)",
        ));
    }
    save::check_save(args.common.save.as_deref(), Some(game))?;
    check_ai(&args.common)?;
    if game == GameKind::Lines
        && let Err(e) = race.check()
    {
        return Err(CliError::input(match e {
            banco_protocol::ActionError::RaceUntimed => {
                "--race-secs 0: a race needs a time limit (every race has one, so that a player \
                 who stops moving cannot keep the other from a result): give 120 to 3600, say"
                    .to_owned()
            }
            e => e.to_string(),
        }));
    }
    if !offers.is_empty() && !offers.contains(&game) {
        return Err(CliError::input(format!(
            "the proposed game {game} is not among the games offered"
        )));
    }
    // The match's rules index, of the rule sets the phones offer (banco_app's presets).
    let rules = match &args.rules {
        None => 0,
        Some(name) => banco_app::presets::find(game, name)
            .map_err(|e| match e {
                banco_app::presets::PresetError::NoChoice { .. } => {
                    CliError::input(format!("--rules {e}"))
                }
                banco_app::presets::PresetError::Unknown { .. } => CliError::input(e.to_string()),
            })?
            .index()
            .unwrap_or(0),
    };
    if let Some(fen) = &args.fen {
        // Checked here: a bad position would only fail once a guest has paired.
        if game == GameKind::Lines {
            return Err(CliError::input("a lines race has no --fen"));
        }
        <banco_app::any::AnyGame as banco_game::MatchGame>::setup(game, Some(fen))
            .map_err(|e| CliError::input(format!("--fen: {e}")))?;
        crate::ui::note_fen(game, fen);
    }
    let mut options = HostOptions::new(
        &args.common.name,
        SocketAddr::new(args.bind, args.port),
        offers,
    )
    .proposing(game, color);
    if game == GameKind::Lines {
        options = options.racing(race, color);
    }
    options.advertise = !args.no_mdns;
    let trust_file = trust_path(&args.common)?;
    options.trust = Some(load_trust(&trust_file)?);
    warn_unattended(&args.common);
    options.rules = rules;
    options.start_fen.clone_from(&args.fen);
    options.clock = clock;
    if game == GameKind::Jieqi && clock.is_none() {
        eprintln!(
            "note: an untimed jieqi match cannot make a player who withholds a reveal lose; \
             --clock (e.g. --clock 10+5) makes them lose on time"
        );
    }
    let (tx, rx) = mpsc::channel();
    let relay = Arc::new(Relay(Mutex::new(tx.clone())));
    let m = if args.ble {
        crate::cmd_ble::host(options, relay)?
    } else {
        NetMatch::host(options, relay)
            .map_err(|e| CliError::Failure(format!("cannot host: {e}")))?
    };
    let s = m.state();
    outln!("listening on {}", s.address);
    if let Some((first, more)) = s.reachable.split_first() {
        // `0.0.0.0` is nothing to type: where a guest on the LAN can dial instead.
        let also = if more.is_empty() {
            String::new()
        } else {
            format!(" (or {})", more.join(", "))
        };
        outln!("join with: banco join {first}{also}");
    }
    outln!(
        "offering {}; proposing {game}",
        s.offers
            .iter()
            .map(|k| k.name())
            .collect::<Vec<_>>()
            .join(", ")
    );
    outln!("waiting for a guest…");
    let mut table = Table::new(&args.common, m, None, trust_file, true)?;
    table.run(&tx, &rx)
}

/// `--ai LEVEL` checked before the match opens (a host is advertised as soon as it is).
fn check_ai(common: &MatchArgs) -> Result<(), CliError> {
    common
        .ai
        .map(Level::new)
        .transpose()
        .map(drop)
        .map_err(CliError::input)
}

pub(crate) fn join_cmd(args: &JoinArgs) -> Result<(), CliError> {
    let only = args.game.as_deref().map(parse_net_game).transpose()?;
    save::check_save(args.common.save.as_deref(), only)?;
    check_ai(&args.common)?;
    let trust_file = trust_path(&args.common)?;
    let trust = load_trust(&trust_file)?;
    warn_unattended(&args.common);
    let (tx, rx) = mpsc::channel();
    let relay = Arc::new(Relay(Mutex::new(tx.clone())));
    let target = args.target.as_deref().unwrap_or_default();
    let m = if args.ble {
        let browse = Duration::from_secs(args.browse_secs);
        crate::cmd_ble::join(
            &args.common.name,
            args.target.as_deref(),
            browse,
            Some(trust),
            relay,
        )?
    } else if target.contains(':') {
        NetMatch::join(&args.common.name, target, &[], Some(trust), relay)
            .map_err(|e| CliError::input(format!("cannot reach {target}: {e}")))?
    } else {
        outln!("looking for {target} on the LAN…");
        let (link, peer) = join_named(
            target,
            &DiscoveryConfig::default(),
            Duration::from_secs(args.browse_secs),
        )
        .map_err(|e| CliError::Failure(format!("cannot find {target}: {e}")))?;
        // The host is there; the match dials it (again after cuts).
        drop(link);
        NetMatch::join_peer(&args.common.name, &peer, &[], Some(trust), relay)
            .map_err(|e| CliError::Failure(format!("cannot join {target}: {e}")))?
    };
    let mut table = Table::new(&args.common, m, only, trust_file, false)?;
    let dialled = args.target.as_deref().unwrap_or("a host over Bluetooth");
    table.unreached = Some(Unreached::new(
        dialled,
        args.common.ai.is_some(),
        Duration::from_secs(args.give_up_secs),
    ));
    table.run(&tx, &rx)
}

/// A string that came from the other device, made safe to print: control, escape, bidi and
/// invisible characters are shown as `\u{…}` (names are cleaned on receipt already; this
/// is the second fence).
pub(crate) fn shown(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        if c.is_control() || banco_protocol::name::is_forbidden(c) {
            out.extend(c.escape_unicode());
        } else {
            out.push(c);
        }
    }
    out
}

/// The pairing question: the code on a line of its own, before any text of the peer.
pub(crate) fn verify_text(code: &str, peer_name: &str) -> String {
    format!(
        "Pairing code: {code}\nThe other player (calling itself \"{}\") must see the same six digits. Same code?",
        shown(peer_name)
    )
}

enum Input {
    Net(NetEvent),
    Line(String),
    Eof,
}

/// What the local player is being asked.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Question {
    None,
    Code,
    /// The proposal numbered so ([`NetMatch::accept_offer`]): a yes accepts it and no other.
    Proposal(u64),
    Undo,
    Draw,
    Reopen,
}

struct Table {
    m: NetMatch,
    only: Option<GameKind>,
    ai: Option<Level>,
    yes: bool,
    /// `--remember`: an unattended confirmation remembers the peer.
    remember: bool,
    movetime: u64,
    engine: AnyEngine,
    style: Style,
    question: Question,
    over: bool,
    /// After the game ended with our own message still unacknowledged: when to stop
    /// waiting for the acknowledgement and leave anyway.
    finish_by: Option<Instant>,
    /// That wait was extended once already for a link that was down.
    waited_for_link: bool,
    stdin_started: bool,
    /// Where the identity and confirmed peers are stored after a confirmation.
    trust_file: PathBuf,
    /// The player confirmed and stored there, with its key: taken back if the pairing
    /// then fails (the host rejects the code; [`banco_app::network::Trust::forget`]).
    paired: Option<(String, banco_protocol::PublicKey)>,
    hosting: bool,
    /// The code the player is asked to compare.
    code: String,
    /// Our display name (for a saved game's players).
    my_name: String,
    /// Where the game is written when it ends (`--save`).
    save_at_end: Option<String>,
    /// The code changed while its question was open: the next answer may have been typed
    /// for the code before, so it is not taken (the player looks again and answers again).
    code_replaced: bool,
    /// A code that came while the player answered "listen again?": asked after that answer
    /// (the question's text), unless its connection is gone by then.
    deferred_code: Option<String>,
    /// A Lines race is on (module `race`).
    racing: bool,
    /// `quit` resigned the game in progress: the table waits for its end (the result line,
    /// `--save`), even when the input ends meanwhile.
    quitting: bool,
    /// When the computer plays its next race move.
    next_race_move: Option<Instant>,
    /// A guest whose host no link reached yet (module `reach`); `None` for a host, and
    /// once a link came up.
    unreached: Option<Unreached>,
}

/// How long the side that made the last move waits for the peer to acknowledge it before
/// closing: closing at once could leave the peer without the final move (a frame the peer
/// dropped, e.g. to its rate limit, is only sent again while the session lives).
const FINISH_GRACE: Duration = Duration::from_secs(5);

/// How long that side waits from a lost link for it to come back and carry the last
/// message (reconnecting takes a few backoff steps).
const RECONNECT_GRACE: Duration = Duration::from_secs(15);

impl Table {
    fn new(
        args: &MatchArgs,
        m: NetMatch,
        only: Option<GameKind>,
        trust_file: PathBuf,
        hosting: bool,
    ) -> Result<Table, CliError> {
        let ai = args
            .ai
            .map(Level::new)
            .transpose()
            .map_err(CliError::input)?;
        Ok(Table {
            m,
            only,
            ai,
            yes: args.yes,
            remember: args.remember,
            movetime: args.movetime.max(1),
            engine: AnyEngine::new(16),
            style: Style::detect(args.no_color),
            question: Question::None,
            over: false,
            finish_by: None,
            waited_for_link: false,
            stdin_started: false,
            trust_file,
            paired: None,
            hosting,
            code: String::new(),
            my_name: args.name.clone(),
            save_at_end: args.save.clone(),
            code_replaced: false,
            deferred_code: None,
            racing: false,
            quitting: false,
            next_race_move: None,
            unreached: None,
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
        outln!("{text} [y/n]");
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
                let waiting = self.m.unacked() > 0;
                if !waiting || Instant::now() >= deadline {
                    if waiting && self.m.state().banner.is_some() && !self.waited_for_link {
                        // The link is down with our last messages unsent: give it the time a
                        // reconnection takes before leaving the peer without them.
                        self.waited_for_link = true;
                        self.finish_by = Some(Instant::now() + RECONNECT_GRACE);
                        continue;
                    }
                    self.m.leave();
                    return Ok(());
                }
            }
            let input = if self.finish_by.is_some() {
                match rx.recv_timeout(Duration::from_millis(20)) {
                    Ok(input) => input,
                    Err(mpsc::RecvTimeoutError::Timeout) => continue,
                    Err(mpsc::RecvTimeoutError::Disconnected) => return Ok(()),
                }
            } else if let Some(wait) = self.race_wait() {
                // The computer races: it moves between events.
                match rx.recv_timeout(wait) {
                    Ok(input) => input,
                    Err(mpsc::RecvTimeoutError::Timeout) => {
                        self.maybe_ai_race_move();
                        continue;
                    }
                    Err(mpsc::RecvTimeoutError::Disconnected) => {
                        return Err(CliError::Failure("the match stopped".to_owned()));
                    }
                }
            } else if let Some(left) = self.unreached.as_ref().and_then(Unreached::time_left) {
                // An unattended guest that has not reached its host tries for so long.
                match rx.recv_timeout(left) {
                    Ok(input) => input,
                    Err(mpsc::RecvTimeoutError::Timeout) => return Err(self.never_reached()),
                    Err(mpsc::RecvTimeoutError::Disconnected) => {
                        return Err(CliError::Failure("the match stopped".to_owned()));
                    }
                }
            } else {
                let Ok(input) = rx.recv() else {
                    return Err(CliError::Failure("the match stopped".to_owned()));
                };
                input
            };
            let done = match input {
                Input::Net(event) => self.on_event(event, tx),
                Input::Line(line) => self.on_line(line.trim(), tx),
                // `quit` then the end of the input (a script's last lines): the game is being
                // resigned, and its end brings the result and `--save`, as after `quit` alone.
                Input::Eof if self.quitting => None,
                // The input ended before the host was reached: the join ends, unconnected,
                // with the reason (after the first attempt fails, if none did yet).
                Input::Eof if self.unreached.is_some() => {
                    outln!("end of input: leaving the match");
                    self.question = Question::None;
                    match &mut self.unreached {
                        Some(u) if !u.has_failed() => {
                            u.input_ended = true;
                            None
                        }
                        _ => Some(Err(self.never_reached())),
                    }
                }
                // The end of the input is `quit`: a game in progress is resigned, and the
                // result (and `--save`) come as the game ends.
                Input::Eof if self.ai.is_none() && !self.over => {
                    outln!("end of input: leaving the match");
                    // A question nobody can answer any more is left unanswered.
                    self.question = Question::None;
                    self.on_line("quit", tx)
                }
                Input::Eof => None,
            };
            if let Some(result) = done {
                return result;
            }
            self.maybe_ai_race_move();
        }
    }

    /// Leaves a match whose host was never reached: the error to exit with.
    fn never_reached(&mut self) -> CliError {
        self.m.leave();
        self.unreached.take().map_or_else(
            || CliError::Failure("the match stopped".to_owned()),
            |u| u.error(),
        )
    }

    fn kind(&self) -> GameKind {
        self.m.state().kind.unwrap_or(GameKind::Xiangqi)
    }

    /// The game written where `--save` says, as it ends (before the result line, which
    /// stays the last).
    fn save_at_end(&self) {
        if let Some(path) = &self.save_at_end {
            save::save_at_end(&self.m, &self.my_name, path, self.trust_file.parent());
        }
    }

    fn maybe_ai_move(&mut self) {
        let Some(lvl) = self.ai else { return };
        if self.over || !self.m.state().your_turn {
            return;
        }
        let (Some(game), Some(rules)) = (self.m.game(), self.m.rules()) else {
            return;
        };
        let stop = AtomicBool::new(false);
        let seed = u64::from(game.ply()) ^ game.hash();
        let result = self.engine.play(
            &game,
            &rules,
            lvl,
            &Limits::movetime(self.movetime),
            seed,
            &stop,
        );
        if let Some(mv) = result.best_move {
            let (from, to, promotion) = game.move_parts(mv);
            if let Err(e) = self.m.play_squares(from, to, promotion) {
                outln!("could not play {mv}: {e}");
            }
        }
    }

    fn on_line(&mut self, text: &str, tx: &Sender<Input>) -> Option<Result<(), CliError>> {
        if self.question != Question::None {
            let yes = match text.to_ascii_lowercase().as_str() {
                "y" | "yes" => true,
                "n" | "no" => false,
                _ => {
                    outln!("answer y or n");
                    return None;
                }
            };
            if self.question == Question::Code && std::mem::take(&mut self.code_replaced) {
                let code = self.code.clone();
                outln!(
                    "the code changed to {code} just before that answer: compare it with the other device and answer again [y/n]"
                );
                return None;
            }
            let q = std::mem::replace(&mut self.question, Question::None);
            let r = match q {
                Question::Code if yes => self.m.confirm_code(&self.code),
                Question::Code if self.hosting => {
                    report(self.m.reject_code());
                    outln!("the codes differ: that device is turned away; waiting for another");
                    return None;
                }
                Question::Code => {
                    report(self.m.reject_code());
                    outln!("the codes differ: not playing");
                    return Some(Err(CliError::Failure("pairing refused".to_owned())));
                }
                Question::Reopen if yes => {
                    let r = self.m.reopen();
                    if let Some(text) = self.deferred_code.take() {
                        self.ask(tx, Question::Code, &text);
                    }
                    r
                }
                Question::Reopen => {
                    self.m.leave();
                    return Some(Err(CliError::Failure("no guest paired".to_owned())));
                }
                Question::Proposal(id) if yes => self.m.accept_offer(id),
                Question::Proposal(_) => self.m.decline_proposal(),
                Question::Undo => self.m.reply_undo(yes),
                Question::Draw => self.m.reply_draw(yes),
                Question::None => Ok(()),
            };
            report(r);
            return None;
        }
        match text.to_ascii_lowercase().as_str() {
            "" => {}
            "quit" | "exit" => {
                if self.unreached.is_some() {
                    return Some(Err(self.never_reached()));
                }
                // Leaving a game in progress resigns it, so the other player gets a result
                // (not "the other player left"); the table leaves once that is delivered.
                if !self.over && self.m.resign_in_progress() {
                    outln!("leaving resigns the game in progress");
                    self.quitting = true;
                    return None;
                }
                if self.racing && !self.over {
                    // Our board is final (no resigning it): leaving forfeits the race.
                    outln!("leaving before the race's end forfeits it: the other player wins");
                }
                self.m.leave();
                return Some(Ok(()));
            }
            "help" | "?" => outln!("{}", net_help(self.racing)),
            _ if self.on_race_line(text) => {}
            _ if text
                .split_whitespace()
                .next()
                .is_some_and(|w| w.eq_ignore_ascii_case("save")) =>
            {
                save::save_match(&self.m, &self.my_name, text.get(4..).unwrap_or("").trim());
            }
            "board" => self.show(),
            "fen" => outln!("{}", self.m.state().fen.unwrap_or_default()),
            "flip" => {
                self.m.flip();
                self.show();
            }
            "undo" => report(self.m.request_undo()),
            "draw" => match self.m.offer_draw() {
                Ok(()) if self.m.state().draw_offer_held => {
                    outln!("draw offer sent with your next move");
                }
                Ok(()) => outln!("draw offered"),
                Err(e) => outln!("{e}"),
            },
            "claim" => report(self.m.claim_draw()),
            "resign" => report(self.m.resign()),
            _ => {
                let s = self.m.state();
                if s.phase != Phase::Playing {
                    outln!("no game is on yet");
                } else if !s.your_turn {
                    outln!("not your turn");
                } else if let Err(e) = self.m.play_text(text) {
                    outln!("{e}");
                }
            }
        }
        None
    }
}

/// The commands of the match table (`help`).
fn net_help(racing: bool) -> &'static str {
    if racing {
        "moves:     two cells, like `a1 e5` (a ball and where it goes)
commands:  board, resign, help, quit (resigns a race in progress; once your board is
           final, leaving forfeits the race: wait for the other's time or board to end)"
    } else {
        "moves:     as in `banco play` (h2e2, C2.5, 炮二平五; chess e4, Nf3, e2e4), on your turn
commands:  undo (asks the other player), draw (offers a draw), claim (a draw the rules
           allow), resign, save FILE, board, fen, flip, help, quit (resigns a game in progress)"
    }
}

fn report<E: std::fmt::Display>(r: Result<(), E>) {
    if let Err(e) = r {
        outln!("{e}");
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_code_has_its_own_line_before_a_hostile_name_and_nothing_escapes() {
        let hostile = "Bob: code 123456. Same? [y/n]\u{1b}[2K\u{1b}[1A\u{9b}\u{202e}\u{200b}\n";
        let text = verify_text("654321", hostile);
        let mut lines = text.lines();
        assert_eq!(lines.next(), Some("Pairing code: 654321"));
        assert_eq!(text.lines().count(), 2, "{text}");
        for bad in ['\u{1b}', '\u{9b}', '\u{202e}', '\u{200b}'] {
            assert!(!text.contains(bad), "{text:?}");
        }
        assert!(text.contains("\\u{1b}"), "{text}");
        // A name cleaned on receipt passes unchanged (Vietnamese, Chinese, spaces).
        assert_eq!(shown("Nguyễn Văn An 象棋"), "Nguyễn Văn An 象棋");
    }
}
