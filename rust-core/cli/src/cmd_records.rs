//! `banco pgn` (game records in and out of PGN) and `banco render` (a picture of a
//! position as SVG).

use crate::CliError;
use crate::cmd_play::parse_game;
use banco_app::encoding::decode_text;
use banco_app::files::{read_limited, write_atomic, write_record};
use banco_app::notation;
use banco_app::pgn;
use banco_app::render;
use banco_app::save::{self, SaveError, SavedGame};
use banco_app::tags;
use banco_game::{GameKind, MatchGame};
use std::path::{Path, PathBuf};

/// `banco pgn`.
#[derive(clap::Args, Debug)]
pub(crate) struct PgnArgs {
    #[command(subcommand)]
    action: PgnAction,
}

#[derive(clap::Subcommand, Debug)]
enum PgnAction {
    /// Read a PGN file (every game of a database), check every move and list each game;
    /// with `-o`, write the first game in Banco's save format (or, to a name ending in
    /// `.pgn` or `.txt`, as PGN or Banco's readable text, as `banco play`'s `save` does).
    Import {
        /// The PGN file.
        file: PathBuf,
        /// Write the first game here as a Banco saved game (`.pgn`: PGN, `.txt`: text).
        #[arg(short, long)]
        output: Option<PathBuf>,
    },
    /// Write a saved game (`banco play`'s `save`, any front end's) as PGN (or, to a name
    /// ending in `.txt`, as Banco's readable text, as `banco play`'s `save` does: jieqi's
    /// only readable form).
    Export {
        /// The saved game.
        file: PathBuf,
        /// Where to write (default: standard output; `.txt`: Banco's text).
        #[arg(short, long)]
        output: Option<PathBuf>,
    },
}

pub(crate) fn pgn_cmd(args: &PgnArgs) -> Result<(), CliError> {
    match &args.action {
        PgnAction::Import { file, output } => {
            let bytes = read_limited(file, pgn::MAX_BYTES as u64)
                .map_err(|e| CliError::input(format!("cannot read {}: {e}", file.display())))?;
            if save::is_save(&bytes) {
                return Err(CliError::input(match SavedGame::decode(&bytes) {
                    Err(SaveError::LinesGame) => {
                        format!(
                            "{} is a saved Lines game, not PGN: Lines has no PGN form",
                            file.display()
                        )
                    }
                    _ => format!(
                        "{} is a Banco saved game, not PGN: `banco pgn export {}` writes it as PGN",
                        file.display(),
                        file.display()
                    ),
                }));
            }
            let text = decode_text(&bytes)
                .map_err(|e| CliError::input(format!("cannot read {}: {e}", file.display())))?;
            let games = pgn::import_all(&text);
            if games.is_empty() {
                return Err(CliError::input(format!(
                    "there is no game in {}",
                    file.display()
                )));
            }
            let mut bad = 0;
            for (i, g) in games.iter().enumerate() {
                match g {
                    Ok(g) => {
                        let game = g.game().map_err(CliError::input)?;
                        let moves = notation::history_text(
                            &game,
                            banco_app::computer::main_notation(g.kind),
                        );
                        outln!(
                            "game {}: {} {} vs {}, {}, result {}",
                            i + 1,
                            g.kind,
                            g.tag("White").or(g.tag("Red")).unwrap_or("?"),
                            g.tag("Black").unwrap_or("?"),
                            crate::cmd_play::moves_text(&game),
                            g.result.text()
                        );
                        outln!("  moves {}", moves.join(" "));
                        outln!("  fen {}", game.fen());
                        for n in &g.notes {
                            outln!("  note: {n}");
                        }
                    }
                    Err(e) => {
                        bad += 1;
                        outln!("game {}: {e}", i + 1);
                    }
                }
            }
            if let Some(out) = output {
                let first = games
                    .into_iter()
                    .next()
                    .ok_or_else(|| CliError::input("there is no game in the file"))?
                    .map_err(CliError::input)?;
                let left_out = first.left_out_of_save();
                let bytes = first
                    .to_saved()
                    .map_err(CliError::input)?
                    .encode()
                    .and_then(|record| record_for(out, record))
                    .map_err(CliError::input)?;
                write_record(out, &bytes)
                    .map_err(|e| CliError::input(format!("cannot write {}: {e}", out.display())))?;
                outln!("saved {} ({} bytes)", out.display(), bytes.len());
                if let Some(text) = left_out {
                    outln!("note: {text}");
                }
            }
            if bad > 0 {
                return Err(CliError::input(format!("{bad} game(s) could not be read")));
            }
            Ok(())
        }
        PgnAction::Export { file, output } => {
            let saved = read_saved(file)?;
            let text = match output.as_deref().map(|out| export_for(out, &saved)) {
                Some(Some(exported)) => exported,
                _ => pgn::export_saved(&saved),
            }
            .map_err(CliError::input)?;
            if let Some(out) = output {
                write_record(out, text.as_bytes())
                    .map_err(|e| CliError::input(format!("cannot write {}: {e}", out.display())))
            } else {
                out!("{text}");
                Ok(())
            }
        }
    }
}

/// A saved game from a file in the save format, a PGN or Banco's text export.
pub(crate) fn read_saved(path: &Path) -> Result<SavedGame, CliError> {
    let bytes = read_limited(path, save::MAX_BYTES as u64)
        .map_err(|e| CliError::input(format!("cannot read {}: {e}", path.display())))?;
    if save::is_save(&bytes) {
        return SavedGame::decode(&bytes).map_err(CliError::input);
    }
    let text = decode_text(&bytes)
        .map_err(|e| CliError::input(format!("cannot read {}: {e}", path.display())))?;
    if is_pgn(path) {
        // As `pgn::import_saved`, saying on stderr what the saved game leaves out (stdout
        // may be the export).
        let game = pgn::import(&text).map_err(CliError::input)?;
        if let Some(left_out) = game.left_out_of_save() {
            eprintln!("note: {left_out}");
        }
        return game.to_saved().map_err(CliError::input);
    }
    banco_app::text::import(&text).map_err(CliError::input)
}

/// True for a `.pgn` path.
pub(crate) fn is_pgn(path: &Path) -> bool {
    path.extension()
        .is_some_and(|e| e.eq_ignore_ascii_case("pgn"))
}

/// True for a name that gets a readable export of a board game (`.pgn`, `.txt`).
pub(crate) fn is_export_name(path: &Path) -> bool {
    path.extension()
        .is_some_and(|e| e.eq_ignore_ascii_case("txt") || e.eq_ignore_ascii_case("pgn"))
}

/// A board game's `record` (the save format) as written to a file the player named: PGN
/// for a `.pgn` name, Banco's readable text for `.txt`, the record itself for any other
/// (`banco play`'s `save`, `banco pgn import -o`).
pub(crate) fn record_for(path: &Path, record: Vec<u8>) -> Result<Vec<u8>, SaveError> {
    if !is_export_name(path) {
        return Ok(record);
    }
    match export_for(path, &SavedGame::decode(&record)?) {
        Some(text) => Ok(text?.into_bytes()),
        None => Ok(record),
    }
}

/// The readable export a file named `path` gets: PGN for `.pgn`, Banco's text for `.txt`,
/// none for any other name (the record itself).
fn export_for(path: &Path, saved: &SavedGame) -> Option<Result<String, SaveError>> {
    if is_pgn(path) {
        Some(pgn::export_saved(saved))
    } else if is_export_name(path) {
        Some(banco_app::text::export(saved))
    } else {
        None
    }
}

/// A record of a game against the computer dated `date` (ISO, `2026-12-06`): its `Event`,
/// `Date` and players' tags as the phones write theirs ([`tags::vs_computer_tags`]: the
/// player under the name the record gives their side, else `Player`, against `Banco level
/// N`), so that every export reads back with the player's side and level. A record with its
/// own roster ([`tags::has_own_roster`]: a loaded database game) is left as it is.
pub(crate) fn dated(record: Vec<u8>, date: &str) -> Result<Vec<u8>, SaveError> {
    let mut saved = SavedGame::decode(&record)?;
    if tags::has_own_roster(&saved.tags) {
        // A database game played on keeps its event, date and players.
        return Ok(record);
    }
    let written = match saved.player {
        Some(p) => {
            let side = tags::side_tag(saved.kind, p.color());
            let name = saved
                .tags
                .iter()
                .find(|(k, _)| k.eq_ignore_ascii_case(side))
                .map_or("", |(_, v)| v.as_str());
            tags::vs_computer_tags(saved.kind, date, p.color(), name, p.level)
        }
        None => tags::dated_tags(tags::VS_COMPUTER_EVENT, date),
    };
    saved
        .tags
        .retain(|(k, _)| !written.iter().any(|(w, _)| w.eq_ignore_ascii_case(k)));
    // `Human` and `Level` are the record's player, not free tags.
    saved
        .tags
        .extend(written.into_iter().filter(|(k, _)| !tags::is_own(k)));
    saved.encode()
}

/// `banco render`.
#[derive(clap::Args, Debug)]
pub(crate) struct RenderArgs {
    /// The game: xiangqi, jieqi, chess or lines.
    #[arg(long, default_value = "xiangqi")]
    game: String,
    /// The position (default: the start position). For Lines, a Lines position string:
    /// nine ranks from 9 down to 1 separated by `/`, ball letters R G B Y P C O or digits
    /// for empty cells, then optionally the announced colours and the score
    /// (`9/9/9/9/2RRRR3/9/9/9/8B GBY 40`).
    #[arg(long, conflicts_with = "load")]
    fen: Option<String>,
    /// Draw the position of a saved game (a Banco save of any game, Lines included, or a
    /// `.pgn`); its last move is marked unless `--last` says another.
    #[arg(long)]
    load: Option<PathBuf>,
    /// Mark this move as the last one (coordinates, `h2e2`; Lines `a1e5`).
    #[arg(long)]
    last: Option<String>,
    /// The second player's side at the bottom.
    #[arg(long)]
    flip: bool,
    /// PNG only: pixels per SVG unit (1 = 608×668 for xiangqi, 2 for sharp phone pictures).
    #[arg(long, default_value_t = 1.0)]
    scale: f32,
    /// Where to write the picture (`.svg`, or `.png` in a banco built with the `png`
    /// feature, as it is by default).
    #[arg(short, long)]
    output: PathBuf,
}

/// The SVG that `args` ask for.
fn render_svg(args: &RenderArgs) -> Result<String, CliError> {
    if let Some(path) = &args.load {
        return render_saved(path, args);
    }
    let kind = match GameKind::from_name(&args.game) {
        Some(GameKind::Lines) => GameKind::Lines,
        _ => parse_game(&args.game)?,
    };
    let fen = match &args.fen {
        Some(f) => {
            crate::ui::note_fen(kind, f);
            f.clone()
        }
        None if kind == GameKind::Lines => {
            return Err(CliError::input(
                "a Lines picture needs --fen with a Lines position string or --load with a Lines save",
            ));
        }
        None => banco_app::any::AnyGame::new(kind)
            .map_err(CliError::input)?
            .fen(),
    };
    render::svg_of_fen(kind, &fen, args.last.as_deref(), args.flip).map_err(CliError::input)
}

/// The SVG of a saved game's position (a Lines save, or any board game `read_saved` reads).
fn render_saved(path: &Path, args: &RenderArgs) -> Result<String, CliError> {
    let bytes = read_limited(path, save::MAX_BYTES as u64)
        .map_err(|e| CliError::input(format!("cannot read {}: {e}", path.display())))?;
    if let Ok(save::AnySave::Lines(saved)) = save::decode_any(&bytes) {
        let game = saved.restore().map_err(CliError::input)?;
        let mut picture = render::lines::LinesPicture::of_game(&game);
        if let Some(text) = &args.last {
            picture.last_move = Some(banco_app::lines::parse_move(text).map_err(CliError::input)?);
        }
        return Ok(render::lines::svg_of_lines(&picture));
    }
    let (game, _) = read_saved(path)?.restore().map_err(CliError::input)?;
    let last = match &args.last {
        None => None,
        Some(text) => Some(
            render::move_squares(&game, text)
                .ok_or_else(|| CliError::input(render::RenderError::BadMove(text.clone())))?,
        ),
    };
    Ok(render::svg(
        &game,
        &render::RenderOptions {
            flipped: args.flip,
            last_move: last,
        },
    ))
}

pub(crate) fn render_cmd(args: &RenderArgs) -> Result<(), CliError> {
    let ext = args
        .output
        .extension()
        .map(|e| e.to_string_lossy().to_ascii_lowercase());
    let bytes = match ext.as_deref() {
        Some("svg") => render_svg(args)?.into_bytes(),
        Some("png") => png_bytes(&render_svg(args)?, args.scale)?,
        _ => {
            return Err(CliError::input(format!(
                "cannot tell the picture format of {}: name it .svg or .png",
                args.output.display()
            )));
        }
    };
    write_atomic(&args.output, &bytes)
        .map_err(|e| CliError::input(format!("cannot write {}: {e}", args.output.display())))?;
    outln!("wrote {} ({} bytes)", args.output.display(), bytes.len());
    Ok(())
}

#[cfg(feature = "png")]
fn png_bytes(svg: &str, scale: f32) -> Result<Vec<u8>, CliError> {
    render::png::png_of_svg(svg, scale).map_err(CliError::input)
}

#[cfg(not(feature = "png"))]
fn png_bytes(_svg: &str, _scale: f32) -> Result<Vec<u8>, CliError> {
    Err(CliError::input(
        "PNG output is not built into this banco (built without the `png` feature): write .svg, or rebuild with --features png",
    ))
}
