//! `banco pgn` (game records in and out of PGN) and `banco render` (a picture of a
//! position as SVG).

use crate::CliError;
use crate::cmd_play::parse_game;
use banco_app::files::{read_limited, write_atomic};
use banco_app::notation;
use banco_app::pgn;
use banco_app::render;
use banco_app::save::{self, SavedGame};
use banco_game::MatchGame;
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
    /// with `-o`, write the first game in Banco's save format.
    Import {
        /// The PGN file.
        file: PathBuf,
        /// Write the first game here as a Banco saved game.
        #[arg(short, long)]
        output: Option<PathBuf>,
    },
    /// Write a saved game (`banco play`'s `save`, any front end's) as PGN.
    Export {
        /// The saved game.
        file: PathBuf,
        /// Where to write (default: standard output).
        #[arg(short, long)]
        output: Option<PathBuf>,
    },
}

pub(crate) fn pgn_cmd(args: &PgnArgs) -> Result<(), CliError> {
    match &args.action {
        PgnAction::Import { file, output } => {
            let bytes = read_limited(file, pgn::MAX_BYTES as u64)
                .map_err(|e| CliError::input(format!("cannot read {}: {e}", file.display())))?;
            let text = String::from_utf8_lossy(&bytes);
            let games = pgn::import_all(&text);
            let mut bad = 0;
            for (i, g) in games.iter().enumerate() {
                match g {
                    Ok(g) => {
                        let game = g.game().map_err(CliError::input)?;
                        let moves = notation::history_text(
                            &game,
                            banco_app::computer::main_notation(g.kind),
                        );
                        println!(
                            "game {}: {} {} vs {}, {} plies, result {}",
                            i + 1,
                            g.kind,
                            g.tag("White").or(g.tag("Red")).unwrap_or("?"),
                            g.tag("Black").unwrap_or("?"),
                            g.moves.len(),
                            g.result.text()
                        );
                        println!("  moves {}", moves.join(" "));
                        println!("  fen {}", game.fen());
                        for n in &g.notes {
                            println!("  note: {n}");
                        }
                    }
                    Err(e) => {
                        bad += 1;
                        println!("game {}: {e}", i + 1);
                    }
                }
            }
            if let Some(out) = output {
                let first = games
                    .into_iter()
                    .next()
                    .ok_or_else(|| CliError::input("there is no game in the file"))?
                    .map_err(CliError::input)?;
                let bytes = first
                    .to_saved()
                    .map_err(CliError::input)?
                    .encode()
                    .map_err(CliError::input)?;
                write_atomic(out, &bytes)
                    .map_err(|e| CliError::input(format!("cannot write {}: {e}", out.display())))?;
                println!("saved {} ({} bytes)", out.display(), bytes.len());
            }
            if bad > 0 {
                return Err(CliError::input(format!("{bad} game(s) could not be read")));
            }
            Ok(())
        }
        PgnAction::Export { file, output } => {
            let saved = read_saved(file)?;
            let text = pgn::export_saved(&saved).map_err(CliError::input)?;
            if let Some(out) = output {
                write_atomic(out, text.as_bytes())
                    .map_err(|e| CliError::input(format!("cannot write {}: {e}", out.display())))
            } else {
                print!("{text}");
                Ok(())
            }
        }
    }
}

/// A saved game from a file in the save format, a PGN or Banco's text export.
pub(crate) fn read_saved(path: &Path) -> Result<SavedGame, CliError> {
    let bytes = read_limited(path, save::MAX_BYTES as u64)
        .map_err(|e| CliError::input(format!("cannot read {}: {e}", path.display())))?;
    if bytes.starts_with(&save::MAGIC) || bytes.starts_with(b"BNCO") {
        return SavedGame::decode(&bytes).map_err(CliError::input);
    }
    let text = String::from_utf8_lossy(&bytes);
    if is_pgn(path) {
        return pgn::import(&text)
            .and_then(|g| g.to_saved())
            .map_err(CliError::input);
    }
    banco_app::text::import(&text).map_err(CliError::input)
}

/// True for a `.pgn` path.
pub(crate) fn is_pgn(path: &Path) -> bool {
    path.extension()
        .is_some_and(|e| e.eq_ignore_ascii_case("pgn"))
}

/// `banco render`.
#[derive(clap::Args, Debug)]
pub(crate) struct RenderArgs {
    /// The game: xiangqi or chess.
    #[arg(long, default_value = "xiangqi")]
    game: String,
    /// The position (default: the start position).
    #[arg(long)]
    fen: Option<String>,
    /// Mark this move as the last one (coordinates, `h2e2`).
    #[arg(long)]
    last: Option<String>,
    /// The second player's side at the bottom.
    #[arg(long)]
    flip: bool,
    /// Where to write the picture (`.svg`).
    #[arg(short, long)]
    output: PathBuf,
}

pub(crate) fn render_cmd(args: &RenderArgs) -> Result<(), CliError> {
    let kind = parse_game(&args.game)?;
    let fen = match &args.fen {
        Some(f) => f.clone(),
        None => banco_app::any::AnyGame::new(kind)
            .map_err(CliError::input)?
            .fen(),
    };
    let svg =
        render::svg_of_fen(kind, &fen, args.last.as_deref(), args.flip).map_err(CliError::input)?;
    let ext = args
        .output
        .extension()
        .map(|e| e.to_string_lossy().to_ascii_lowercase());
    match ext.as_deref() {
        Some("svg") => {}
        Some("png") => {
            return Err(CliError::input(
                "PNG output is not built into this banco: write .svg and convert it (rsvg-convert, resvg)",
            ));
        }
        _ => {
            return Err(CliError::input(format!(
                "cannot tell the picture format of {}: name it .svg",
                args.output.display()
            )));
        }
    }
    write_atomic(&args.output, svg.as_bytes())
        .map_err(|e| CliError::input(format!("cannot write {}: {e}", args.output.display())))?;
    println!("wrote {} ({} bytes)", args.output.display(), svg.len());
    Ok(())
}
