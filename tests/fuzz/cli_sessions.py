#!/usr/bin/env python3
"""Random sessions against the `banco` command line: what a careless or curious user types.

Three kinds, each a seeded stream of commands (the engine's timing varies, so a session is
not replayed move for move, but its commands are):

* `play` — `banco play --game G` for xiangqi, chess, jieqi and lines: moves taken from the
  hint, random squares and cells, undo/redo, level, save and load (also of save files with
  random bytes changed or cut short), new, flip, claim, resign, notations and garbage;
* `edit` — `banco edit --game G` for xiangqi and chess: pieces placed and removed at random
  (wild boards with every problem listed, or the start position thinned out), side,
  castling, en passant, check, solve, then play from the position;
* `engine` — `banco uci` (chess and xiangqi) and `banco ucci`: positions (some with a
  character changed), go with every limit, stop, options with bad values, unknown commands.

A session fails when the program panics, stops answering (60 s), or exits with a non-zero
status. Each failure is written to OUT/BAD-kind-game-seed.log with the whole transcript.

Usage: tests/fuzz/cli_sessions.py BANCO [--sessions N] [--steps N] [--seed S] [--out DIR]
Last line: `sessions N failed F`.
"""

import argparse
import os
import random
import re
import select
import subprocess
import sys
import time

PROMPT = re.compile(r"(red|black|white|lines|edit)> $")
WAIT_S = 60.0


class Session:
    """A `banco` process fed line by line; `ask` returns what it printed up to the prompt."""

    def __init__(self, args):
        self.p = subprocess.Popen(
            args, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.STDOUT
        )
        self.log = []
        self.hung = False
        self.eof = False

    def read(self):
        out = b""
        end = time.time() + WAIT_S
        while time.time() < end:
            ready, _, _ = select.select([self.p.stdout], [], [], 0.2)
            if not ready:
                continue
            chunk = os.read(self.p.stdout.fileno(), 65536)
            if not chunk:
                self.eof = True
                break
            out += chunk
            if PROMPT.search(out.decode("utf8", "replace")):
                break
        else:
            self.hung = True
        text = out.decode("utf8", "replace")
        self.log.append(text)
        return text

    def send(self, line):
        self.log.append(">> " + line)
        try:
            self.p.stdin.write((line + "\n").encode())
            self.p.stdin.flush()
            return True
        except BrokenPipeError:
            self.eof = True
            return False

    def ask(self, line):
        return self.read() if self.send(line) else ""

    def finish(self, last="quit"):
        self.send(last)
        try:
            out, _ = self.p.communicate(timeout=WAIT_S)
        except subprocess.TimeoutExpired:
            self.p.kill()
            out, _ = self.p.communicate()
            self.hung = True
        self.log.append(out.decode("utf8", "replace"))
        text = "\n".join(self.log)
        failed = "panicked" in text or self.hung or self.p.returncode != 0
        return failed, text


def pick(rng, choices):
    """One of the `(weight, value)` pairs' values, by weight."""
    return rng.choices([v for _, v in choices], [w for w, _ in choices])[0]


def damage(rng, path):
    """Changes a few random bytes of a save file, or cuts it short."""
    data = bytearray(open(path, "rb").read())
    if not data:
        return
    for _ in range(rng.randint(1, 4)):
        data[rng.randrange(len(data))] = rng.randrange(256)
    if rng.random() < 0.3:
        data = data[: rng.randrange(len(data))]
    with open(path, "wb") as f:
        f.write(bytes(data))


def play_session(banco, game, seed, steps, scratch):
    rng = random.Random(f"play {game} {seed}")
    args = [banco, "play", "--game", game, "--seed", str(seed), "--no-color"]
    if game == "lines":
        # Lines has its own options: `banco play --game lines` refuses --level and --movetime.
        args += rng.choice([[], ["--balls", "3"], ["--no-undo"], ["--preview"]])
    else:
        args += ["--level", str(rng.randint(1, 3)), "--movetime", "5"]
        if rng.random() < 0.3:
            args += ["--color", "black"]
    s = Session(args)
    s.read()
    files, hint = "abcdefghi", None
    for _ in range(steps):
        if s.eof or s.hung:
            break
        save = os.path.join(scratch, f"s{rng.randint(0, 3)}")
        if game == "lines":
            cell = lambda: rng.choice(files) + str(rng.randint(1, 9))
            choices = [
                (20, lambda: f"{cell()} {cell()}"), (5, lambda: "hint"),
                (30, lambda: hint or "hint"), (10, lambda: hint or "undo"), (2, lambda: "undo"),
                (0.3, lambda: "new"), (1, lambda: "best"), (1, lambda: "board"),
                (2, lambda: f"save {save}"), (2, lambda: f"load {save}"),
                (2, lambda: rng.choice(["", " ", "a1", "j1 a1", "a0 a1", "a1a2", "hint x",
                                        "save", "load", "\x00", "ä ö"])),
            ]
        else:
            fl = "abcdefgh" if game == "chess" else files
            rk = "12345678" if game == "chess" else "0123456789"
            sq = lambda: rng.choice(fl) + rng.choice(rk)
            ext = lambda: rng.choice([".pgn", ".txt", ""])
            choices = [
                (3, lambda: sq() + sq()), (5, lambda: "hint"), (40, lambda: hint or "hint"),
                (5, lambda: "undo"), (3, lambda: "redo"), (1, lambda: f"level {rng.randint(0, 11)}"),
                (2, lambda: f"save {save}{ext()}"), (2, lambda: f"load {save}{ext()}"),
                (1, lambda: "fen"), (1, lambda: "flip"), (1, lambda: "board"), (1, lambda: "claim"),
                (0.3, lambda: "resign"), (0.3, lambda: "new"),
                (3, lambda: rng.choice(["", "C2.5", "C2=5", "H8+7", "炮二平五", "马8进7", "e4", "Nf3",
                                        "O-O", "O-O-O", "exd5", "e8=Q", "e7e8q", "+", "level",
                                        "level x", "\x00", "ä"])),
            ]
        cmd = pick(rng, choices)()
        if cmd.startswith("load") and rng.random() < 0.3 and os.listdir(scratch):
            target = os.path.join(scratch, rng.choice(sorted(os.listdir(scratch))))
            damage(rng, target)
            cmd = "load " + target
        out = s.ask(cmd)
        m = re.search(r"hint: (\S+ \S+|\S+)", out)
        if m:
            hint = m.group(1) if game == "lines" else m.group(1).split()[0]
        elif rng.random() < 0.5:
            hint = None
    return s.finish()


def edit_session(banco, game, seed, steps, scratch):
    del scratch
    rng = random.Random(f"edit {game} {seed}")
    wild = rng.random() < 0.4
    args = [banco, "edit", "--game", game, "--no-color"]
    if wild and rng.random() < 0.5:
        args.append("--empty")
    if game == "chess":
        fl, rk, pieces = "abcdefgh", "12345678", "KQRBNPkqrbnp"
    else:
        fl, rk, pieces = "abcdefghi", "0123456789", "KABNRCPkabnrcp"
    sq = lambda: rng.choice(fl) + rng.choice(rk)
    s = Session(args)
    s.read()
    choices = [
        ((40, 2), lambda: f"place {rng.choice(pieces)} {sq()}"), ((15, 30), lambda: f"remove {sq()}"),
        ((1, 0), lambda: "clear"), ((1, 0), lambda: "start"), ((3, 1), lambda: f"side {rng.choice('wbx')}"),
        ((1, 1), lambda: "flip"), ((2, 1), lambda: f"castle {rng.choice(['KQkq', '-', 'Kq', 'x', 'KKK'])}"),
        ((2, 1), lambda: f"ep {rng.choice([sq(), '-', 'z9'])}"), ((2, 2), lambda: "fen"),
        ((2, 2), lambda: "check"), ((1, 3), lambda: f"solve {rng.randint(0, 3)}"), ((1, 1), lambda: "board"),
        ((3, 1), lambda: rng.choice(["place", "place K", "place K z9", "place red rook e2",
                                     "place black king e9", "remove", "side", "", "xyz", "solve -1",
                                     "solve 99999999999", "play 11", "play 0 red"])),
        ((0.5, 2), lambda: f"play {rng.randint(1, 3)}"),
    ]
    choices = [(w[0] if wild else w[1], c) for w, c in choices]
    for _ in range(steps):
        if s.eof or s.hung:
            break
        cmd = pick(rng, choices)()
        out = s.ask(cmd)
        if cmd.startswith("play") and not out.rstrip().endswith("edit>"):
            # Playing from the position now: a few of the hint's moves, then leave.
            for _ in range(rng.randint(0, 6)):
                m = re.search(r"hint: (\S+)", s.ask("hint"))
                if s.eof or s.hung or not m:
                    break
                s.ask(m.group(1))
            break
    return s.finish()


ENGINE_FENS = {
    "chess": ["rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", "8/8/8/8/8/8/8/K6k w - - 0 1",
              "4k3/8/8/8/8/8/8/4K2R w K - 0 1", "7k/5Q2/6K1/8/8/8/8/8 b - - 0 1",
              "rnbqkbnr/pppp1ppp/8/4p3/6P1/5P2/PPPPP2P/RNBQKBNR b KQkq - 0 2"],
    "xiangqi": ["rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1",
                "3k5/9/9/9/9/9/9/9/9/4K4 w - - 0 1", "4k4/4R4/9/9/9/9/9/9/9/4K4 b - - 0 1",
                "3ak4/4a4/9/9/9/9/9/9/9/3K1R3 w - - 0 1"],
}
ENGINE_MOVES = {
    "chess": ["e2e4", "e7e5", "g1f3", "e1g1", "e7e8q", "a1a1", "zz", "h7h8"],
    "xiangqi": ["h2e2", "h9g7", "b0c2", "e0e1", "a0a1", "z9z9", "i9i8"],
}


def engine_session(banco, game, seed, steps, scratch, protocol):
    del scratch
    rng = random.Random(f"{protocol} {game} {seed}")
    args = [banco, protocol] + (["--game", "chess"] if game == "chess" else [])
    s = Session(args)
    moves = lambda n: " ".join(rng.choice(ENGINE_MOVES[game]) for _ in range(n))
    for _ in range(steps):
        fen = rng.choice(ENGINE_FENS[game])
        if rng.random() < 0.2:
            chars = list(fen)
            chars[rng.randrange(len(chars))] = rng.choice("pnbrqkPNBRQKacACeE0123456789/ w-")
            fen = "".join(chars)
        tail = moves(rng.randint(0, 4))
        choices = [
            (3, "isready"), (8, f"position fen {fen}" + (f" moves {tail}" if tail else "")),
            (3, f"position startpos moves {tail}"), (1, "position startpos"),
            (6, f"go depth {rng.randint(1, 4)}"), (6, f"go movetime {rng.randint(1, 50)}"),
            (3, f"go nodes {rng.randint(1, 3000)}"), (1, "go infinite"), (5, "stop"), (1, "ucinewgame"),
            (1, f"setoption name Hash value {rng.choice(['1', '16', '0', '99999', 'x'])}"),
            (1, f"setoption name Threads value {rng.choice(['1', '2', '0', '999'])}"),
            (1, "setoption name UCI_Variant value " + rng.choice(["xiangqi", "chess", "jieqi", "foo"])),
            (1, protocol),
            (4, rng.choice(["", "go wtime 1000 btime 1000", "go wtime -5", "go depth", "position",
                            "position fen", "setoption", "perft 2", "d", "\x00", "banmoves h2e2",
                            "probe", "position startpos moves " + moves(30)])),
            (2, "go depth 3"),
        ]
        cmd = pick(rng, choices)
        if not s.send(cmd):
            break
        time.sleep(rng.choice([0, 0, 0.01, 0.05]))
    s.send("stop")
    s.send("isready")
    return s.finish()


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("banco")
    ap.add_argument("--sessions", type=int, default=50, help="sessions per kind and game")
    ap.add_argument("--steps", type=int, default=150, help="commands per session")
    ap.add_argument("--seed", type=int, default=1, help="first session's seed")
    ap.add_argument("--out", default="target/cli-sessions")
    a = ap.parse_args()
    os.makedirs(a.out, exist_ok=True)
    kinds = [("play", g, play_session) for g in ("xiangqi", "chess", "jieqi", "lines")]
    kinds += [("edit", g, edit_session) for g in ("xiangqi", "chess")]
    kinds += [(p, g, lambda *x, p=p: engine_session(*x, p))
              for p, g in (("uci", "chess"), ("uci", "xiangqi"), ("ucci", "xiangqi"))]
    total = failed = 0
    for kind, game, run in kinds:
        bad = 0
        for seed in range(a.seed, a.seed + a.sessions):
            scratch = os.path.join(a.out, f"{kind}-{game}-{seed}")
            os.makedirs(scratch, exist_ok=True)
            fail, text = run(a.banco, game, seed, a.steps, scratch)
            total += 1
            if fail:
                bad += 1
                path = os.path.join(a.out, f"BAD-{kind}-{game}-{seed}.log")
                with open(path, "w") as f:
                    f.write(text)
                print(f"FAILED {kind} {game} seed {seed}: {path}", flush=True)
        failed += bad
        print(f"{kind} {game}: sessions {a.sessions} failed {bad}", flush=True)
    print(f"sessions {total} failed {failed}")
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
