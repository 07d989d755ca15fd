#!/usr/bin/env python3
"""Banco's chess engine against another chess engine, refereed by python-chess.

Run by hand (never in CI): it needs `python-chess` (`pip install chess`) and an opponent
engine, e.g. the Debian packages `stockfish`, `phalanx` or `gnuchess`
(`apt-get install stockfish phalanx gnuchess`). Nothing here is a dependency of Banco.

Both engines get the same fixed time per move. Every game starts from one of the balanced
openings of the engine's own `OPENINGS`, each played twice with colours swapped.
python-chess applies the rules: checkmate, stalemate, insufficient material, threefold
repetition and the fifty-move rule (both claimed at once), and a draw after --max-plies.
An engine that crashes, answers an illegal move or no move loses the game.

The result is Banco's W/D/L, score, and the Elo difference with its 95 % error bar (the
same formula as `banco match`).

Examples:
    tests/strength/chess_match.py --opponent stockfish --option "Skill Level=3" --games 100
    tests/strength/chess_match.py --opponent phalanx --games 100 --movetime 100
    tests/strength/chess_match.py --opponent gnuchess --games 60 --movetime 200
"""

import argparse
import logging
import math
import os
import re
import shutil
import sys
import time

import chess
import chess.engine
import chess.pgn

def read_openings():
    """The engine's own balanced openings (`OPENINGS` in rust-core/engine/src/chess/game.rs),
    read from the source so that the two lists cannot differ."""
    path = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..",
                        "rust-core", "engine", "src", "chess", "game.rs")
    with open(path, encoding="utf-8") as f:
        text = f.read()
    table = text[text.index("pub const OPENINGS"):]
    table = table[:table.index("];")]
    found = re.findall(r'\(\s*"([^"]+)",\s*"([^"]+)",?\s*\)', table)
    if not found:
        sys.exit(f"no openings found in {path}")
    return found


OPENINGS = read_openings()

# How each known opponent is started: command, protocol, default options. No opening
# books (the openings are ours), no learning, no resigning.
OPPONENTS = {
    "stockfish": (["/usr/games/stockfish"], "uci", {}),
    "phalanx": (["/usr/games/phalanx", "-l-", "-b-", "-r0"], "xboard", {}),
    "gnuchess": (["/usr/games/gnuchess", "--uci"], "uci", {"OwnBook": False}),
}


def elo(wins, draws, losses):
    """Elo difference and its 95 % error bar (as banco-engine's matchplay)."""
    n = max(wins + draws + losses, 1)
    s = (wins + draws / 2) / n

    def elo_of(x):
        x = min(max(x, 0.5 / n), 1 - 0.5 / n)
        return -400 * math.log10(1 / x - 1)

    var = (wins * (1 - s) ** 2 + draws * (0.5 - s) ** 2 + losses * s**2) / n
    if var <= 0:
        shrunk = (s * n + 0.5) / (n + 1)
        var = shrunk * (1 - shrunk)
    se = math.sqrt(var / n)
    return elo_of(s), (elo_of(s + 1.96 * se) - elo_of(s - 1.96 * se)) / 2


def start(command, protocol, options):
    if protocol == "uci":
        engine = chess.engine.SimpleEngine.popen_uci(command, stderr=open(os.devnull, "w"))
    else:
        engine = chess.engine.SimpleEngine.popen_xboard(command, stderr=open(os.devnull, "w"))
    if options:
        engine.configure(options)
    return engine


def parse_options(pairs):
    options = {}
    for pair in pairs:
        key, _, value = pair.partition("=")
        value = value.strip()
        if value.lstrip("-").isdigit():
            value = int(value)
        elif value.lower() in ("true", "false"):
            value = value.lower() == "true"
        options[key.strip()] = value
    return options


def play_game(banco, other, banco_white, opening, game_id, args):
    """One game; returns (result for White "1-0"/"0-1"/"1/2-1/2", reason, board)."""
    board = chess.Board()
    for uci in opening.split():
        board.push_uci(uci)
    engines = {chess.WHITE: banco if banco_white else other,
               chess.BLACK: other if banco_white else banco}
    limit = chess.engine.Limit(time=args.movetime / 1000)
    while True:
        outcome = board.outcome(claim_draw=True)
        if outcome is not None:
            return outcome.result(), outcome.termination.name.lower(), board
        if board.ply() >= args.max_plies:
            return "1/2-1/2", "max plies", board
        side = board.turn
        try:
            # A new game key makes python-chess send ucinewgame / new first.
            result = engines[side].play(board, limit, game=game_id)
        except (chess.engine.EngineError, chess.engine.EngineTerminatedError) as e:
            return ("0-1" if side == chess.WHITE else "1-0"), f"engine error: {e}", board
        if result.move is None or result.move not in board.legal_moves:
            loser = "banco" if engines[side] is banco else "opponent"
            return ("0-1" if side == chess.WHITE else "1-0"), f"{loser} gave no legal move", board
        board.push(result.move)


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    root = os.path.normpath(os.path.join(here, "..", ".."))
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--banco", default=os.path.join(root, "target", "release", "banco"),
                   help="the banco binary (default: target/release/banco)")
    p.add_argument("--banco-option", action="append", default=[], metavar="NAME=VALUE",
                   help="a UCI option for Banco, e.g. Level=5 or Hash=64")
    p.add_argument("--opponent", default="stockfish",
                   help="stockfish, phalanx, gnuchess, or a command line (then see --protocol)")
    p.add_argument("--protocol", choices=["uci", "xboard"], default="uci",
                   help="protocol of an opponent given as a command line")
    p.add_argument("--option", action="append", default=[], metavar="NAME=VALUE",
                   help="a UCI option for the opponent, e.g. 'Skill Level=3' or UCI_Elo=1500")
    p.add_argument("--games", type=int, default=100)
    p.add_argument("--movetime", type=int, default=100, help="milliseconds per move, both sides")
    p.add_argument("--max-plies", type=int, default=400)
    p.add_argument("--pgn", help="append the games to this PGN file")
    args = p.parse_args()

    # Engines chat in ways python-chess does not expect (phalanx); only errors matter here.
    logging.getLogger("chess.engine").setLevel(logging.ERROR)
    if args.opponent in OPPONENTS:
        command, protocol, defaults = OPPONENTS[args.opponent]
    else:
        command, protocol, defaults = args.opponent.split(), args.protocol, {}
    if not shutil.which(command[0]) and not os.path.exists(command[0]):
        sys.exit(f"opponent `{command[0]}` not found")
    if not os.path.exists(args.banco):
        sys.exit(f"{args.banco} not found: cargo build --release -p banco-cli")

    banco = start([args.banco, "uci", "--game", "chess"], "uci", parse_options(args.banco_option))
    other = start(command, protocol, {**defaults, **parse_options(args.option)})
    wins = draws = losses = 0
    started = time.time()
    try:
        for i in range(args.games):
            name, line = OPENINGS[(i // 2) % len(OPENINGS)]
            banco_white = i % 2 == 0
            result, reason, board = play_game(banco, other, banco_white, line, i, args)
            if result == "1/2-1/2":
                draws += 1
                score = "1/2"
            elif (result == "1-0") == banco_white:
                wins += 1
                score = "1"
            else:
                losses += 1
                score = "0"
            colour = "white" if banco_white else "black"
            print(f"game {i + 1:3} banco {colour:5} {name:24} {board.ply():3} plies "
                  f"{result:7} banco scores {score:3} ({reason})", flush=True)
            if args.pgn:
                game = chess.pgn.Game.from_board(board)
                game.headers["White"] = "banco" if banco_white else args.opponent
                game.headers["Black"] = args.opponent if banco_white else "banco"
                game.headers["Result"] = result
                game.headers["Opening"] = name
                game.headers["Termination"] = reason
                with open(args.pgn, "a") as f:
                    print(game, file=f, end="\n\n")
    finally:
        banco.quit()
        other.quit()
    e, err = elo(wins, draws, losses)
    n = max(wins + draws + losses, 1)
    opts = ", ".join(args.option) or "default options"
    print(f"banco vs {args.opponent} ({opts}), {args.movetime} ms/move, "
          f"{time.time() - started:.0f} s")
    print(f"W {wins} D {draws} L {losses} score {(wins + draws / 2) / n:.3f} "
          f"elo {e:+.0f} +/- {err:.0f}")


if __name__ == "__main__":
    main()
