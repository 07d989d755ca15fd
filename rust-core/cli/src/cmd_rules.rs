//! Rules tools: `perft`, `move`, `judge`, `bench perft` (`perft` and `bench perft` for
//! xiangqi, chess or jieqi, `--game`).

use crate::CliError;
use banco_chess::Chess;
use banco_game::{Game, GameKind};
use banco_xiangqi::jieqi::{Jieqi, JieqiPosition, perft as jperft};
use banco_xiangqi::notation::{Chinese, MoveTextError, Wxf, parse_any};
use banco_xiangqi::{Iccs, Position, Xiangqi, fen, perft as xperft};
use clap::{Args, ValueEnum};
use std::time::Instant;

/// The games whose rules `perft` and `bench perft` exercise.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub(crate) enum RulesGame {
    /// Chinese chess (the default).
    Xiangqi,
    /// International chess (FEN with standard, X-FEN or Shredder castling rights).
    Chess,
    /// Jieqi, xiangqi with face-down pieces (Pikafish jieqi FEN; perft counts one child
    /// per distinct kind a reveal may draw).
    Jieqi,
}

/// Parses the optional chess `--fen` (start position when absent).
fn chess_arg(fen_text: Option<&str>) -> Result<Chess, CliError> {
    match fen_text {
        None => Ok(Chess::new()),
        Some(text) => {
            let game =
                Chess::from_fen(text).map_err(|e| CliError::input(format!("bad FEN: {e}")))?;
            crate::ui::note_fen(GameKind::Chess, text);
            Ok(game)
        }
    }
}

/// Parses the optional `--fen` (start position when absent).
pub(crate) fn position_arg(fen_text: Option<&str>) -> Result<Position, CliError> {
    match fen_text {
        None => Ok(Position::startpos()),
        Some(text) => {
            let pos = fen::parse(text).map_err(|e| CliError::input(format!("bad FEN: {e}")))?;
            crate::ui::note_fen(GameKind::Xiangqi, text);
            Ok(pos)
        }
    }
}

/// Parses the optional `--fen` of `banco move`: a diagram whose kings face each other, or
/// whose side not to move is in check, still has well-defined moves to describe (problem
/// books and other programs' tables hold such diagrams); the problem is said on stderr.
fn notation_position_arg(fen_text: Option<&str>) -> Result<Position, CliError> {
    let Some(text) = fen_text else {
        return Ok(Position::startpos());
    };
    let setup = fen::parse_setup(text).map_err(|e| CliError::input(format!("bad FEN: {e}")))?;
    let (pos, tolerated) = Position::from_setup_for_notation(&setup)
        .map_err(|e| CliError::input(format!("bad FEN: {}", fen::FenError::from(e))))?;
    crate::ui::note_fen(GameKind::Xiangqi, text);
    for p in tolerated {
        eprintln!("note: this position cannot arise in play ({p}); its moves are described anyway");
    }
    Ok(pos)
}

/// `banco perft`.
#[derive(Args, Debug)]
pub(crate) struct PerftArgs {
    /// The game.
    #[arg(long, value_enum, default_value = "xiangqi")]
    game: RulesGame,
    /// Start from this position (FEN) instead of the start position.
    #[arg(long)]
    fen: Option<String>,
    /// Depth in plies (at most 30: xiangqi's perft 8 already takes hours).
    #[arg(long, value_parser = clap::value_parser!(u32).range(0..=30))]
    depth: u32,
    /// Print the count below each legal move first.
    #[arg(long)]
    divide: bool,
}

pub(crate) fn perft(args: &PerftArgs) -> Result<(), CliError> {
    if args.game == RulesGame::Chess {
        return perft_chess(args);
    }
    if args.game == RulesGame::Jieqi {
        return perft_jieqi(args);
    }
    let mut pos = position_arg(args.fen.as_deref())?;
    let total = if args.divide && args.depth > 0 {
        let mut total = 0;
        for (mv, n) in xperft::divide(&mut pos, args.depth) {
            outln!("{mv}: {n}");
            total += n;
        }
        total
    } else {
        xperft::perft(&mut pos, args.depth)
    };
    outln!("{total}");
    Ok(())
}

/// `banco perft --game chess`: through the same make/unmake path as the engine; divide
/// lines name moves in UCI.
fn perft_chess(args: &PerftArgs) -> Result<(), CliError> {
    let mut game = chess_arg(args.fen.as_deref())?;
    let total = if args.divide && args.depth > 0 {
        let mut total = 0;
        for (mv, n) in banco_chess::perft::divide(&mut game, args.depth) {
            outln!("{}: {n}", game.uci(mv));
            total += n;
        }
        total
    } else {
        banco_chess::perft::perft(&mut game, args.depth)
    };
    outln!("{total}");
    Ok(())
}

/// `banco perft --game jieqi`: divide lines name the steps in coordinates.
fn perft_jieqi(args: &PerftArgs) -> Result<(), CliError> {
    let mut pos = match args.fen.as_deref() {
        None => JieqiPosition::startpos(),
        Some(text) => {
            let pos = JieqiPosition::from_fen(text)
                .map_err(|e| CliError::input(format!("bad FEN: {e}")))?;
            crate::ui::note_fen(GameKind::Jieqi, text);
            pos
        }
    };
    let total = if args.divide && args.depth > 0 {
        let mut total = 0;
        for (mv, n) in jperft::divide(&mut pos, args.depth) {
            outln!("{mv}: {n}");
            total += n;
        }
        total
    } else {
        jperft::perft(&mut pos, args.depth)
    };
    outln!("{total}");
    Ok(())
}

/// `banco move`.
#[derive(Args, Debug)]
pub(crate) struct MoveArgs {
    /// The game: xiangqi, chess or jieqi (its steps in coordinates).
    #[arg(long, default_value = "xiangqi")]
    game: String,
    /// Position (FEN); the start position when absent.
    #[arg(long)]
    fen: Option<String>,
    /// The move: xiangqi in coordinates (h2e2), WXF (C2.5 or C2=5) or Chinese (炮二平五);
    /// chess in SAN (Nf3, O-O, e8=Q) or UCI (g1f3).
    #[arg(value_name = "MOVE")]
    text: String,
}

pub(crate) fn move_cmd(args: &MoveArgs) -> Result<(), CliError> {
    let kind = crate::cmd_play::parse_game(&args.game)?;
    if kind != banco_game::GameKind::Xiangqi {
        return move_any(kind, args);
    }
    let pos = notation_position_arg(args.fen.as_deref())?;
    let mv = parse_any(&pos, &args.text).map_err(|e| match e {
        MoveTextError::Unreadable(_) => CliError::input(format!("unparsable move: {e}")),
        MoveTextError::Illegal(_) => CliError::input(format!("illegal move: {e}")),
    })?;
    outln!(
        "iccs {} wxf {} chinese {}",
        Iccs(mv),
        Wxf::from_move(&pos, mv),
        Chinese::from_move(&pos, mv)
    );
    Ok(())
}

/// `banco move --game chess`: the move in every notation of the game (`uci e2e4 san e4`).
fn move_any(kind: banco_game::GameKind, args: &MoveArgs) -> Result<(), CliError> {
    use banco_app::any::AnyGame;
    use banco_app::error::MoveError;
    use banco_app::notation::{self, Notation};
    let game = match &args.fen {
        Some(f) => AnyGame::from_fen(kind, f),
        None => AnyGame::new(kind),
    }
    .map_err(|e| CliError::input(format!("bad FEN: {e}")))?;
    if let Some(f) = &args.fen {
        crate::ui::note_fen(kind, f);
    }
    let mv = notation::parse_move(&game, &args.text, None).map_err(|e| match e {
        MoveError::Illegal(_) => CliError::input(format!("illegal move: {e}")),
        _ => CliError::input(format!("unparsable move: {e}")),
    })?;
    let info = notation::describe(&game, mv);
    if kind == banco_game::GameKind::Jieqi {
        // Jieqi's steps have one notation: xiangqi's coordinates.
        outln!("iccs {}", info.text(Notation::Coordinate));
    } else {
        outln!(
            "uci {} san {}",
            info.text(Notation::Coordinate),
            info.text(Notation::San)
        );
    }
    Ok(())
}

/// `banco judge`: the verdict on the game the moves play. The first ending is the verdict
/// (a repetition is judged where it happens, as a game would end there); moves given after
/// it are still read and checked legal in the position as it stands, and named if not.
#[derive(Args, Debug)]
pub(crate) struct JudgeArgs {
    /// Start from this position (FEN) instead of the start position.
    #[arg(long)]
    fen: Option<String>,
    /// Rule set: asian (default) or casual.
    #[arg(long, default_value = "asian")]
    rules: String,
    /// Moves in coordinate notation (h2e2 …).
    moves: Vec<String>,
}

pub(crate) fn judge(args: &JudgeArgs) -> Result<(), CliError> {
    // The rule sets the phones offer (banco_app's presets), named as they name them.
    let found = banco_app::presets::find(banco_game::GameKind::Xiangqi, &args.rules)
        .map_err(|e| CliError::input(e.to_string()))?;
    let banco_app::any::AnyRules::Xiangqi(rules) = found else {
        return Err(CliError::input(format!(
            "`{}` names no xiangqi rules",
            args.rules
        )));
    };
    let mut game = Xiangqi::from_position(position_arg(args.fen.as_deref())?);
    // The first ending and the moves played before it.
    let mut ended = None;
    for (i, text) in args.moves.iter().enumerate() {
        let index = i + 1;
        // A game that ended stays ended: the first ending is the verdict. The moves after
        // it are still read and must be legal where they are played.
        if ended.is_none() {
            ended = game.outcome(&rules).map(|o| (i, o));
        }
        let iccs: Iccs = text
            .parse()
            .map_err(|e| CliError::input(format!("move {index}: {e}")))?;
        let mv = iccs
            .to_move(game.position())
            .map_err(|e| CliError::input(format!("move {index}: {e}")))?;
        game.play(mv)
            .map_err(|e| CliError::input(format!("move {index}: {e}")))?;
    }
    if let Some((i, o)) = &ended {
        let after = args.moves.len() - i;
        outln!(
            "the game ended after move {i} ({} {}): the {after} move{} after it {} not judged",
            o.score_text(),
            o.reason_text(),
            if after == 1 { "" } else { "s" },
            if after == 1 { "is" } else { "are" },
        );
    }
    match ended.map(|(_, o)| o).or_else(|| game.outcome(&rules)) {
        Some(o) => outln!("result {} {}", o.score_text(), o.reason_text()),
        None => outln!("result * game goes on"),
    }
    Ok(())
}

/// `banco bench`.
#[derive(Args, Debug)]
pub(crate) struct BenchArgs {
    /// What to measure: `perft` (move generation from the start position: xiangqi perft 5,
    /// chess perft 6 through the engine's make/unmake path, jieqi perft 3) or `lines` (the
    /// Lines computer player over seeded games).
    what: Option<String>,
    /// The game.
    #[arg(long, value_enum, default_value = "xiangqi")]
    game: RulesGame,
    /// Depth for `bench perft` (default 5 for xiangqi, 6 for chess: about a second each;
    /// at most 30).
    #[arg(long, value_parser = clap::value_parser!(u32).range(0..=30))]
    depth: Option<u32>,
    /// `bench lines`: games to play.
    #[arg(long, default_value_t = 100)]
    games: u32,
    /// `bench lines`: seed of the first game (game k uses seed + k).
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// `bench lines`: the computer's playouts per move (a playout: one landing sample of
    /// one candidate move and every reply judged, about 1.5 ms; from 20 on spent as about
    /// 57 cheaper samples each, judging the ten best replies; 1: every move judged once,
    /// no sampling; 100: the apps' hint).
    #[arg(long, default_value_t = 1)]
    budget: usize,
    /// `bench lines`: stop a game after this many turns.
    #[arg(long, default_value_t = 100_000)]
    max_turns: u32,
    /// `bench lines`: play the greedy one-move baseline instead of the computer.
    #[arg(long)]
    greedy: bool,
    /// `bench lines`: games with Lines 98's preview (the computer knows where the next
    /// balls land).
    #[arg(long)]
    preview: bool,
    /// Search threads of the engine bench (Lazy SMP; more than 1 makes the node count
    /// vary from run to run); for `bench lines`, the threads that play each move's
    /// samples (the same moves and scores whatever the count; `ms_per_move` is wall time).
    #[arg(long, default_value_t = 1)]
    threads: usize,
}

pub(crate) fn bench(args: &BenchArgs) -> Result<(), CliError> {
    match args.what.as_deref() {
        Some("perft") => {
            let start = Instant::now();
            let nodes = match args.game {
                RulesGame::Xiangqi => {
                    xperft::perft(&mut Position::startpos(), args.depth.unwrap_or(5))
                }
                RulesGame::Chess => {
                    banco_chess::perft::perft(&mut Chess::new(), args.depth.unwrap_or(6))
                }
                RulesGame::Jieqi => {
                    jperft::perft(&mut JieqiPosition::startpos(), args.depth.unwrap_or(3))
                }
            };
            let secs = start.elapsed().as_secs_f64();
            let nps = (nodes as f64 / secs.max(1e-9)) as u64;
            outln!("nodes {nodes} time {secs:.3} nps {nps}");
            Ok(())
        }
        Some("lines") => crate::cmd_lines::bench(
            args.games,
            args.seed,
            args.budget,
            args.max_turns,
            args.greedy,
            args.threads,
            args.preview,
        ),
        Some(other) => Err(CliError::input(format!(
            "unknown benchmark `{other}`: use perft or lines"
        ))),
        None if args.depth.is_some() => Err(CliError::input(
            "--depth is for `bench perft`: the search bench's depths are fixed, so that its \
             node count is a signature",
        )),
        None => match args.game {
            RulesGame::Xiangqi => crate::cmd_engine::bench_search::<Xiangqi>(args.threads),
            RulesGame::Chess => crate::cmd_engine::bench_search::<Chess>(args.threads),
            RulesGame::Jieqi => crate::cmd_engine::bench_search::<Jieqi>(args.threads),
        },
    }
}
