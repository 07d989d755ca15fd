#!/usr/bin/env python3
"""Banco's rules against independent implementations, on random games.

The reference data (`tests/data/perft`, the notation and repetition tables) fixes chosen
positions; this walks seeded random games (of xiangqi and chess, half of them from random
legal set-ups rich in what random play seldom reaches) and at every position asks `banco`
and a referee the same questions:

* xiangqi, against pyffish (Fairy-Stockfish): the set of legal moves (`banco perft --divide
  --depth 1`), the WXF name of sampled moves and that name read back (`banco move`), and
  the verdict of `banco judge` every few dozen plies and where the game ends (no legal
  move: the side to move loses; neither side with a piece that can cross the river: a
  draw);
* xiangqi repetitions, against pyffish: two reversible moves and their reverses played from
  a random position until a judge ends the game. The two rule books' chase tests are each an
  approximation of the AXF rules and may differ: a difference is printed (`DIFFER`) for
  review and counted apart, not as a disagreement;
* chess (and Chess960 with Shredder-FEN castling), against python-chess: the legal moves,
  the SAN of sampled moves, and SAN read back to the same move;
* chess FEN, against python-chess: random boards (missing or extra kings, pawns on the
  back ranks, checks of the side not to move, impossible double checks, en-passant
  squares) are accepted by Banco exactly when python-chess finds them valid;
* chess PGN, against python-chess: a random game (Chess960 with probability 0.3) written with
  comments, NAGs and variations, read by `banco pgn import`, written back by `banco pgn
  export` and read again: the same main line and result (counted with the notations);
* `banco uci --game chess` driven by python-chess's engine module on standard and Chess960
  games (`UCI_Chess960` set by python-chess): every move it answers is legal.

Every disagreement is printed with the position (FEN), so it can be replayed by hand.

The referees (pyffish, python-chess) are pinned and installed on first use into the
virtual environment of the strength scripts (tests/strength/README.md).

Usage: tests/fuzz/rules_diff.py BANCO [--games N] [--seed S]
                                [--game xiangqi|repetition|chess|chess960|fen|pgn|uci|all]
(`--games N`: N games of each kind, 10 N repetitions and boards.) Last two lines:
`repetitions R judged otherwise by pyffish X`, then `positions P notations W verdicts J
disagreements D`; the exit status is 1 when D > 0.
"""

import argparse
import os
import random
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "strength"))
import xiangqi_match  # noqa: E402  (its virtual environment with the referees)

CHESS_VERSION = "1.11.2"

XQ = xiangqi_match.VARIANT
xq_ours = xiangqi_match.to_ranks0  # pyffish (ranks 1–10) to Banco (ranks 0–9)


class Tally:
    """What was compared, and what disagreed."""

    def __init__(self):
        self.positions = 0
        self.notations = 0
        self.verdicts = 0
        self.disagreements = 0
        self.cycles = 0
        self.cycles_differ = 0

    def bad(self, *what):
        self.disagreements += 1
        print("DISAGREE", *what, flush=True)


def banco(binary, *args):
    return subprocess.run([binary, *args], capture_output=True, text=True)


def divided_moves(binary, game, fen):
    """The legal moves `banco perft --divide --depth 1` lists, or None and the error."""
    r = banco(binary, "perft", "--game", game, "--divide", "--depth", "1", "--fen", fen)
    if r.returncode != 0:
        return None, r.stderr.strip()
    return {line.split(":")[0] for line in r.stdout.splitlines() if ":" in line}, None


# --- xiangqi ----------------------------------------------------------------------------

# The referee's reasons for an end the two rule books must rule alike.
FINAL_REASONS = ("checkmate", "stalemate", "insufficient material")


def banco_verdict(binary, fen, moves):
    """The last line of `banco judge` after `moves` (pyffish coordinates) from `fen`:
    `result R REASON`, or the error."""
    r = banco(binary, "judge", "--fen", fen, *[xq_ours(m) for m in moves])
    return (r.stdout.strip().splitlines() or [r.stderr.strip()])[-1]


def xq_setup(rng, sf):
    """A random legal position: every piece on a square it can stand on, the side not to
    move not in check, the kings not facing each other on an open file."""
    while True:
        board = {}

        def put(piece, squares):
            free = [s for s in squares if s not in board]
            if free:
                board[rng.choice(free)] = piece

        for red in (True, False):
            own = (lambda r: r) if red else (lambda r: 9 - r)
            case = str.upper if red else str.lower
            put(case("k"), [(f, own(r)) for f in (3, 4, 5) for r in (0, 1, 2)])
            for _ in range(rng.randint(0, 2)):
                put(case("a"), [(f, own(r)) for f, r in ((3, 0), (5, 0), (4, 1), (3, 2), (5, 2))])
            for _ in range(rng.randint(0, 2)):
                spots = ((2, 0), (6, 0), (0, 2), (4, 2), (8, 2), (2, 4), (6, 4))
                put(case("b"), [(f, own(r)) for f, r in spots])
            for kind in "rnc":
                for _ in range(rng.randint(0, 2)):
                    put(case(kind), [(f, r) for f in range(9) for r in range(10)])
            pawn_squares = [(f, own(r)) for f in (0, 2, 4, 6, 8) for r in (3, 4)]
            pawn_squares += [(f, own(r)) for f in range(9) for r in range(5, 10)]
            for _ in range(rng.randint(0, 5)):
                put(case("p"), pawn_squares)
        kings = {p: s for s, p in board.items() if p in "Kk"}
        (file_r, rank_r), (file_b, rank_b) = kings["K"], kings["k"]
        if file_r == file_b and not any((file_r, r) in board for r in range(rank_r + 1, rank_b)):
            continue
        rows = []
        for rank in range(9, -1, -1):
            row, empty = "", 0
            for file in range(9):
                piece = board.get((file, rank))
                if piece is None:
                    empty += 1
                    continue
                row += (str(empty) if empty else "") + piece
                empty = 0
            rows.append(row + (str(empty) if empty else ""))
        side = rng.choice("wb")
        fen = "/".join(rows) + f" {side} - - 0 1"
        other = fen.replace(f" {side} ", " b " if side == "w" else " w ")
        if sf.validate_fen(fen, XQ) == 1 and not sf.gives_check(XQ, other, []):
            return fen


def xiangqi_game(binary, rng, tally, from_setup):
    import pyffish as sf

    start = xq_setup(rng, sf) if from_setup else sf.start_fen(XQ)
    moves = []
    for ply in range(rng.randint(20, 150)):
        fen = sf.get_fen(XQ, start, moves)
        legal = sf.legal_moves(XQ, start, moves)
        tally.positions += 1
        ours, err = divided_moves(binary, XQ, fen)
        if ours is None:
            tally.bad("xiangqi refused", fen, err)
            return
        ref = {xq_ours(m) for m in legal}
        if ours != ref:
            tally.bad(
                "xiangqi moves",
                fen,
                "banco only",
                sorted(ours - ref),
                "pyffish only",
                sorted(ref - ours),
            )
            return
        if rng.random() < 0.3:
            for m in rng.sample(legal, min(5, len(legal))):
                tally.notations += 1
                want = sf.get_san(XQ, fen, m, False, sf.NOTATION_XIANGQI_WXF)
                r = banco(binary, "move", "--fen", fen, xq_ours(m))
                words = r.stdout.split()
                got = words[words.index("wxf") + 1] if "wxf" in words else r.stderr.strip()
                # Banco writes the WXF's '.' for a sideways move (C2.5), pyffish '=' (C2=5);
                # both are read back below.
                if got != want.replace("=", "."):
                    tally.bad("xiangqi wxf", fen, xq_ours(m), "banco", got, "pyffish", want)
                # And pyffish's WXF read back to the same move.
                words = banco(binary, "move", "--fen", fen, want).stdout.split()
                if words[0:2] != ["iccs", xq_ours(m)]:
                    tally.bad(
                        "xiangqi wxf read", fen, want, "banco", " ".join(words), "want", xq_ours(m)
                    )
        # A repetition or move-count end, which the two rule books need not rule alike, is
        # left to the repetition kind below and the repetition table (tests/data/rules).
        judged = xiangqi_match.verdict(start, moves) if not legal or ply % 37 == 36 else None
        if (not legal or ply % 37 == 36) and (judged is None or judged[1] in FINAL_REASONS):
            tally.verdicts += 1
            last = banco_verdict(binary, start, moves)
            want = judged[0] if judged else "*"
            if last.split()[1:2] != [want]:
                tally.bad(
                    "xiangqi verdict",
                    start,
                    " ".join(xq_ours(m) for m in moves),
                    "banco",
                    last,
                    "want",
                    want,
                )
        if not legal:
            return
        moves.append(rng.choice(legal))


def xq_back(move):
    """The move that undoes `move` (pyffish coordinates)."""
    m = xiangqi_match.MOVE.match(move)
    return f"{m[3]}{m[4]}{m[1]}{m[2]}"


def xiangqi_cycle(binary, rng, tally):
    """A repetition: from a position reached by random play, two reversible moves and their
    reverses played until either judge ends the game, and the two verdicts compared. The
    rule books need not agree on every chase (pyffish's chase test is its own approximation
    of the AXF rules, as Banco's is: see `rust-core/xiangqi/src/rules.rs`), so a difference
    is printed for review (`DIFFER`) and counted apart, not as a disagreement."""
    import pyffish as sf

    start = xq_setup(rng, sf) if rng.random() < 0.5 else sf.start_fen(XQ)
    moves = []
    for _ in range(rng.randint(0, 40)):
        legal = sf.legal_moves(XQ, start, moves)
        if not legal:
            return
        moves.append(rng.choice(legal))
    fen = sf.get_fen(XQ, start, moves)
    if all(sf.has_insufficient_material(XQ, fen, [])):
        return  # a draw before any repetition (compared in the games above)
    for _ in range(30):
        legal = sf.legal_moves(XQ, fen, [])
        if not legal:
            return
        first = rng.choice(legal)
        replies = sf.legal_moves(XQ, fen, [first])
        if not replies:
            return
        second = rng.choice(replies)
        if sf.is_capture(XQ, fen, [], first) or sf.is_capture(XQ, fen, [first], second):
            continue
        cycle = [first, second, xq_back(first), xq_back(second)]
        line = []
        for i in range(12):
            if cycle[i % 4] not in sf.legal_moves(XQ, fen, line):
                break
            line.append(cycle[i % 4])
        else:
            break
    else:
        return
    for n in range(4, len(line) + 1):
        judged = xiangqi_match.verdict(fen, line[:n])
        ours = banco_verdict(binary, fen, line[:n])
        if judged is None and ours.startswith("result *"):
            continue
        want = judged[0] if judged else "*"
        tally.cycles += 1
        if ours.split()[1:2] != [want]:
            tally.cycles_differ += 1
            line_text = " ".join(xq_ours(m) for m in line[:n])
            print(
                "DIFFER xiangqi repetition",
                fen,
                line_text,
                "banco",
                ours,
                "pyffish",
                want,
                flush=True,
            )
        return


# --- chess ------------------------------------------------------------------------------


def chess_setup(rng):
    """A random legal position rich in what random games rarely reach: pawns one step from
    promotion, castling rights with the king and rooks at home, an en-passant square."""
    import chess

    while True:
        board = chess.Board(None)
        free = list(chess.SQUARES)
        rng.shuffle(free)
        for color in (chess.WHITE, chess.BLACK):
            home = 0 if color == chess.WHITE else 7
            if rng.random() < 0.5:
                board.set_piece_at(chess.square(4, home), chess.Piece(chess.KING, color))
                for file in (0, 7):
                    if rng.random() < 0.7:
                        board.set_piece_at(chess.square(file, home), chess.Piece(chess.ROOK, color))
            for kind, most in (
                (chess.KING, 1),
                (chess.QUEEN, 2),
                (chess.ROOK, 2),
                (chess.BISHOP, 2),
                (chess.KNIGHT, 2),
                (chess.PAWN, 6),
            ):
                have = len(board.pieces(kind, color))
                for _ in range((1 if kind == chess.KING else rng.randint(0, most)) - have):
                    squares = [
                        q
                        for q in free
                        if board.piece_at(q) is None
                        and (kind != chess.PAWN or 1 <= chess.square_rank(q) <= 6)
                    ]
                    if squares:
                        board.set_piece_at(rng.choice(squares), chess.Piece(kind, color))
        board.turn = rng.choice((chess.WHITE, chess.BLACK))
        board.castling_rights = chess.BB_EMPTY
        for rook in (chess.A1, chess.H1, chess.A8, chess.H8):
            if rng.random() < 0.8:
                board.castling_rights |= chess.BB_SQUARES[rook]
        board.castling_rights = board.clean_castling_rights()
        # An en-passant square behind a pawn of the side not to move on its fourth rank.
        rank = 4 if board.turn == chess.WHITE else 3
        pawns = [
            q for q in board.pieces(chess.PAWN, not board.turn) if chess.square_rank(q) == rank
        ]
        if pawns and rng.random() < 0.7:
            q = rng.choice(pawns)
            behind = q + (8 if board.turn == chess.WHITE else -8)
            start = behind + (8 if board.turn == chess.WHITE else -8)
            if board.piece_at(behind) is None and board.piece_at(start) is None:
                board.ep_square = behind
        if board.is_valid():
            return board


def chess_game(binary, rng, tally, chess960, from_setup=False):
    import chess

    if from_setup:
        board = chess_setup(rng)
    elif chess960:
        board = chess.Board.from_chess960_pos(rng.randrange(960))
        board.chess960 = True
    else:
        board = chess.Board()
    for _ in range(rng.randint(10, 200)):
        fen = board.shredder_fen() if chess960 else board.fen()
        tally.positions += 1
        ours, err = divided_moves(binary, "chess", fen)
        if ours is None:
            tally.bad("chess refused", fen, err)
            return
        legal = list(board.legal_moves)
        ref = {board.uci(m) for m in legal}
        if ours != ref:
            tally.bad(
                "chess moves",
                fen,
                "banco only",
                sorted(ours - ref),
                "python-chess only",
                sorted(ref - ours),
            )
            return
        if not legal or board.is_insufficient_material() or board.halfmove_clock >= 100:
            return
        if rng.random() < 0.3:
            for m in rng.sample(legal, min(4, len(legal))):
                tally.notations += 1
                uci, san = board.uci(m), board.san(m)
                words = banco(binary, "move", "--game", "chess", "--fen", fen, uci).stdout.split()
                if words[2:4] != ["san", san]:
                    tally.bad("chess san", fen, uci, "banco", " ".join(words), "python-chess", san)
                words = banco(binary, "move", "--game", "chess", "--fen", fen, san).stdout.split()
                if words[0:2] != ["uci", uci]:
                    tally.bad(
                        "chess san read", fen, san, "banco", " ".join(words), "python-chess", uci
                    )
        board.push(rng.choice(legal))


def pgn_game(binary, rng, tally, workdir):
    """A random chess or Chess960 game written by python-chess with comments, NAGs and
    variations, read by `banco pgn import`, written back by `banco pgn export` and read
    again by python-chess: the same main line and result."""
    import chess
    import chess.pgn
    import io

    chess960 = rng.random() < 0.3
    board = chess.Board.from_chess960_pos(rng.randrange(960)) if chess960 else chess.Board()
    board.chess960 = chess960
    game = chess.pgn.Game()
    game.setup(board)
    if chess960:
        game.headers["Variant"] = "Chess960"
    node = game
    for _ in range(rng.randint(1, 200)):
        legal = list(board.legal_moves)
        if not legal:
            break
        move = rng.choice(legal)
        if rng.random() < 0.05 and len(legal) > 1:
            node.add_variation(rng.choice([m for m in legal if m != move]))
        node = node.add_variation(move)
        if rng.random() < 0.1:
            node.comment = rng.choice(["a comment", "with {braces}", "ünïcode ✓"])
        if rng.random() < 0.05:
            node.nags.add(rng.randint(1, 6))
        board.push(move)
    game.headers["Result"] = board.result() if board.is_game_over() else "*"
    path, save = os.path.join(workdir, "game.pgn"), os.path.join(workdir, "game.save")
    with open(path, "w", encoding="utf-8") as f:
        f.write(str(game) + "\n")
    tally.notations += 1
    r = banco(binary, "pgn", "import", path, "-o", save)
    if r.returncode != 0:
        tally.bad("pgn import", str(game).replace("\n", " "), r.stderr.strip())
        return
    r = banco(binary, "pgn", "export", save)
    back = chess.pgn.read_game(io.StringIO(r.stdout)) if r.returncode == 0 else None
    want = [m.uci() for m in game.mainline_moves()]
    if (
        back is None
        or back.errors
        or [m.uci() for m in back.mainline_moves()] != want
        or back.headers.get("Result") != game.headers["Result"]
    ):
        tally.bad(
            "pgn export",
            str(game).replace("\n", " "),
            "banco wrote",
            r.stdout.replace("\n", " "),
            r.stderr.strip(),
        )


def fen_board(binary, rng, tally):
    """A random chess board (kings missing or doubled, pawns anywhere, any side to move,
    sometimes an en-passant square): Banco's FEN reader accepts it exactly when
    python-chess finds it valid. Castling rights are left out and a position python-chess
    finds only a bad en-passant square in is skipped: python-chess quietly drops those,
    Banco refuses them with a reason."""
    import chess

    board = chess.Board(None)
    for color in (chess.WHITE, chess.BLACK):
        for _ in range(rng.choice([1, 1, 1, 1, 0, 2])):
            board.set_piece_at(rng.randrange(64), chess.Piece(chess.KING, color))
        for kind in (chess.QUEEN, chess.ROOK, chess.BISHOP, chess.KNIGHT, chess.PAWN):
            for _ in range(rng.randint(0, 3)):
                board.set_piece_at(rng.randrange(64), chess.Piece(kind, color))
    side = rng.choice("wb")
    ep = "-" if rng.random() < 0.7 else rng.choice("abcdefgh") + ("6" if side == "w" else "3")
    fen = f"{board.board_fen()} {side} - {ep} 0 1"
    status = chess.Board(fen).status()
    if status & chess.STATUS_INVALID_EP_SQUARE:
        return
    tally.positions += 1
    r = banco(binary, "perft", "--game", "chess", "--fen", fen, "--depth", "1")
    if (status == chess.STATUS_VALID) != (r.returncode == 0):
        tally.bad(
            "chess fen",
            fen,
            "python-chess status",
            int(status),
            "banco",
            r.stderr.strip() or "accepted",
        )


def uci_game(rng, tally, engine):
    """`banco uci --game chess` driven by python-chess's engine module, which checks every
    move it is given: a standard or Chess960 game (python-chess then sets `UCI_Chess960`)
    played by Banco on both sides at depth 2 for up to 80 plies."""
    import chess
    import chess.engine

    chess960 = rng.random() < 0.5
    board = chess.Board.from_chess960_pos(rng.randrange(960)) if chess960 else chess.Board()
    board.chess960 = chess960
    for _ in range(rng.randint(1, 80)):
        if board.is_game_over():
            return
        tally.positions += 1
        try:
            move = engine.play(board, chess.engine.Limit(depth=2)).move
        except (chess.engine.EngineError, chess.IllegalMoveError) as e:
            tally.bad("uci", board.shredder_fen() if chess960 else board.fen(), repr(e))
            return
        if move is None or move not in board.legal_moves:
            tally.bad("uci", board.fen(), "no legal move", move)
            return
        board.push(move)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("banco")
    ap.add_argument("--games", type=int, default=100, help="games of each kind")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument(
        "--game",
        default="all",
        choices=["xiangqi", "repetition", "chess", "chess960", "fen", "pgn", "uci", "all"],
    )
    a = ap.parse_args()
    xiangqi_match.ensure_packages(
        {
            "pyffish": f"pyffish=={xiangqi_match.PYFFISH_VERSION}",
            "chess": f"chess=={CHESS_VERSION}",
        }
    )
    rng = random.Random(a.seed)
    tally = Tally()
    kinds = ["xiangqi", "repetition", "chess", "chess960", "fen", "pgn", "uci"]
    kinds = kinds if a.game == "all" else [a.game]
    workdir = tempfile.mkdtemp(prefix="rules_diff.")
    engine = None
    for kind in kinds:
        # A repetition is one judge call or a few, a board one call: ten of them for each
        # game of the others.
        for g in range(a.games * (10 if kind in ("repetition", "fen") else 1)):
            if kind == "xiangqi":
                xiangqi_game(a.banco, rng, tally, from_setup=g % 2 == 1)
            elif kind == "repetition":
                xiangqi_cycle(a.banco, rng, tally)
            elif kind == "fen":
                fen_board(a.banco, rng, tally)
            elif kind == "pgn":
                pgn_game(a.banco, rng, tally, workdir)
            elif kind == "uci":
                if engine is None:
                    import chess.engine

                    engine = chess.engine.SimpleEngine.popen_uci(
                        [a.banco, "uci", "--game", "chess"]
                    )
                uci_game(rng, tally, engine)
            else:
                setup = kind == "chess" and g % 2 == 1
                chess_game(a.banco, rng, tally, chess960=kind == "chess960", from_setup=setup)
    shutil.rmtree(workdir, ignore_errors=True)
    if engine is not None:
        engine.quit()
    print(f"repetitions {tally.cycles} judged otherwise by pyffish {tally.cycles_differ}")
    print(
        f"positions {tally.positions} notations {tally.notations} "
        f"verdicts {tally.verdicts} disagreements {tally.disagreements}"
    )
    sys.exit(1 if tally.disagreements else 0)


if __name__ == "__main__":
    main()
