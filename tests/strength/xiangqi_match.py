#!/usr/bin/env python3
"""Banco's xiangqi engine against another UCI or UCCI engine, refereed by pyffish.

Run by hand (never in CI). The referee is pyffish (Fairy-Stockfish's Python binding, from
PyPI), never Banco: it judges legality, checkmate and stalemate (a loss in xiangqi),
perpetual check and perpetual chase under the Asian (AXF) rules, draws by repetition, the
50-move rule and insufficient material. The script creates its own virtual environment
with pyffish under a cache folder on first use (`$BANCO_STRENGTH_VENV`, default
`~/.cache/banco-strength/venv`) and runs itself again inside it.

Both engines get the same limit per move (`--movetime` ms, or `--nodes`, or `--depth`), or
each its own node budget (`--banco-nodes` and `--opponent-nodes`). `--calibrate MS` measures
each engine's speed (nodes per CPU second, read from /proc: the load of a shared machine
changes how much CPU an engine gets, hardly what it does with it), and `--emulate MS` gives
each side the nodes it searches in MS milliseconds of one free core (its own speed × MS): a
match at equal time that the machine's load cannot spoil. The match prints what each side
used per move: nodes, CPU milliseconds, and the emulated time (nodes ÷ its speed).
Every opening of `xiangqi-openings.tsv` (beside this script) is played twice, colours
swapped; games run in parallel, as many as the cores allow (`--concurrency`, by default
the cores divided by the threads one engine uses). An engine that crashes, hangs, answers
an illegal move or no move loses the game; games longer than `--max-plies` (counted from
the opening's end) are drawn.

The result is Banco's W/D/L, score, and the Elo difference with its 95 % error bar (the
trinomial formula of `banco match`, and the pentanomial one over the colour-swapped pairs),
the average time each engine took per move, and with `--sprt` the log-likelihood ratio of
a sequential test that stops the match once it is decided.

Examples (see README.md beside this script):
    tests/strength/xiangqi_match.py --opponent /work/scratch/fsf/src/stockfish \\
        --option "Skill Level=5" --movetime 100 --games 200
    tests/strength/xiangqi_match.py --opponent /work/scratch/eleeye/eleeye/eleeye \\
        --protocol ucci --movetime 200 --games 200
    tests/strength/xiangqi_match.py --opponent "target/release/banco uci" \\
        --banco-option Threads=2 --movetime 200 --games 100
    tests/strength/xiangqi_match.py --opponent /work/scratch/eleeye/eleeye/eleeye \\
        --protocol ucci --emulate 100 --calibrate 500 --games 400
    tests/strength/xiangqi_match.py --smoke       # Banco against itself, a few seconds
"""

import argparse
import importlib.util
import json
import math
import os
import queue
import re
import shlex
import subprocess
import sys
import threading
import time

PYFFISH_VERSION = "0.0.90"
HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.normpath(os.path.join(HERE, "..", ".."))
VARIANT = "xiangqi"


def venv_dir():
    """Where the script keeps its virtual environment."""
    if os.environ.get("BANCO_STRENGTH_VENV"):
        return os.environ["BANCO_STRENGTH_VENV"]
    cache = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return os.path.join(cache, "banco-strength", "venv")


def ensure_packages(pins):
    """Make every module of `pins` (module name -> pip requirement) importable: when one is
    missing, install what is missing into the virtual environment (created once) and run
    this script again inside it."""
    missing = [req for module, req in pins.items() if importlib.util.find_spec(module) is None]
    if not missing:
        return
    venv = venv_dir()
    python = os.path.join(venv, "bin", "python")
    if os.path.realpath(sys.prefix) != os.path.realpath(venv):
        if not os.path.exists(python):
            print(f"creating {venv} (once)", file=sys.stderr)
            subprocess.check_call([sys.executable, "-m", "venv", venv])
    elif os.environ.get("BANCO_VENV_INSTALLED"):
        sys.exit(f"{', '.join(missing)} still missing in {venv}: remove that folder and run again")
    else:
        print(f"installing {', '.join(missing)} into {venv}", file=sys.stderr)
        subprocess.check_call([python, "-m", "pip", "install", "--quiet", *missing])
        os.environ["BANCO_VENV_INSTALLED"] = "1"
    os.execv(python, [python, os.path.abspath(sys.argv[0])] + sys.argv[1:])


def ensure_pyffish():
    """Import pyffish, creating the virtual environment and re-running inside it if needed."""
    ensure_packages({"pyffish": f"pyffish=={PYFFISH_VERSION}"})


# ---------------------------------------------------------------------------------------
# Moves: the referee writes ranks 1-10 (a1..i10, Fairy-Stockfish's UCI), Banco and UCCI
# engines ranks 0-9 (a0..i9). Files a-i from Red's left in both.

MOVE = re.compile(r"^([a-i])(10|[1-9])([a-i])(10|[1-9])$")
MOVE0 = re.compile(r"^([a-i])([0-9])([a-i])([0-9])$")


def to_ranks0(move):
    """A referee move (ranks 1-10) in ranks 0-9: `h3e3` -> `h2e2`."""
    m = MOVE.match(move)
    if not m:
        raise ValueError(f"not a referee move: {move!r}")
    return f"{m[1]}{int(m[2]) - 1}{m[3]}{int(m[4]) - 1}"


def from_ranks0(move):
    """A move in ranks 0-9 as the referee writes it: `h2e2` -> `h3e3`."""
    m = MOVE0.match(move)
    if not m:
        raise ValueError(f"not a move with ranks 0-9: {move!r}")
    return f"{m[1]}{int(m[2]) + 1}{m[3]}{int(m[4]) + 1}"


# ---------------------------------------------------------------------------------------
# Referee

START_FEN = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1"


def red_to_move(fen, moves):
    """Whether Red moves after `moves` from `fen`."""
    red_first = fen.split()[1] in ("w", "r")
    return red_first == (len(moves) % 2 == 0)


def verdict(fen, moves):
    """The game's result after `moves` (referee notation) from `fen`, judged by pyffish:
    None while it goes on, else (result, reason) with result "1-0" (Red wins), "0-1" or
    "1/2-1/2"."""
    import pyffish as sf

    red = red_to_move(fen, moves)

    def for_mover(value):
        # pyffish scores from the side to move: > 0 it wins, < 0 it loses.
        if value == 0:
            return "1/2-1/2"
        return "1-0" if (value > 0) == red else "0-1"

    if not sf.legal_moves(VARIANT, fen, moves):
        reason = "checkmate" if sf.gives_check(VARIANT, fen, moves) else "stalemate"
        return for_mover(sf.game_result(VARIANT, fen, moves)), reason
    ended, value = sf.is_optional_game_end(VARIANT, fen, moves)
    if ended:
        if value != 0:
            loser = "Black" if (value > 0) == red else "Red"
            return for_mover(value), f"perpetual check or chase by {loser}"
        halfmoves = int(sf.get_fen(VARIANT, fen, moves).split()[4])
        return "1/2-1/2", "50-move rule" if halfmoves >= 100 else "repetition"
    red_short, black_short = sf.has_insufficient_material(VARIANT, fen, moves)
    if red_short and black_short:
        return "1/2-1/2", "insufficient material"
    return None


# ---------------------------------------------------------------------------------------
# Engines


CLOCK_TICKS = os.sysconf("SC_CLK_TCK") if hasattr(os, "sysconf") else 100


def cpu_seconds(pid):
    """CPU seconds (user + system, every thread) the process `pid` has used so far, or None
    where /proc is missing."""
    try:
        with open(f"/proc/{pid}/stat", encoding="ascii") as f:
            fields = f.read().rsplit(")", 1)[1].split()
    except (OSError, IndexError):
        return None
    # Fields 14 and 15 of stat(5) (utime, stime); the split starts at field 3.
    return (int(fields[11]) + int(fields[12])) / CLOCK_TICKS


NODES = re.compile(r"\bnodes (\d+)")


def nodes_of(lines):
    """The nodes of a search: the last `nodes N` the engine printed before its best move."""
    found = None
    for line in lines:
        if line.startswith("info"):
            m = NODES.search(line)
            if m:
                found = int(m[1])
    return found


class Move:
    """What one move cost its engine: wall seconds, nodes (None if unreported) and CPU
    seconds (None without /proc)."""

    __slots__ = ("wall", "nodes", "cpu")

    def __init__(self, wall, nodes, cpu):
        self.wall, self.nodes, self.cpu = wall, nodes, cpu


class EngineFailure(Exception):
    """The engine crashed, hung or broke the protocol."""


class Engine:
    """A UCI or UCCI engine in a child process."""

    def __init__(self, command, protocol, options, ranks="auto", label=None):
        self.command = command
        self.protocol = protocol
        self.proc = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     stderr=subprocess.DEVNULL, text=True, bufsize=1,
                                     cwd=os.path.dirname(command[0]) or None)
        self.lines = queue.Queue()
        threading.Thread(target=self._read, daemon=True).start()
        self.send("uci" if protocol == "uci" else "ucci")
        self.name = os.path.basename(command[0])
        advertised = set()
        for line in self.until("uciok" if protocol == "uci" else "ucciok", 30):
            if line.startswith("id name "):
                self.name = line[len("id name "):].strip()
            m = re.match(r"option (?:name )?(.+?) type ", line)
            if m:
                advertised.add(m[1].lower())
        self.label = label or self.name
        if ranks == "auto":
            # Fairy-Stockfish's UCI writes ranks 1-10; Banco and every UCCI engine 0-9.
            ranks = "1" if protocol == "uci" and "fairy" in self.name.lower() else "0"
        self.ranks0 = ranks == "0"
        if protocol == "uci" and "uci_variant" in advertised:
            self.setoption("UCI_Variant", VARIANT)
        if protocol == "ucci":
            for name, value in (("usemillisec", "true"), ("usebook", "false"),
                                ("ponder", "false")):
                if name in advertised:
                    self.setoption(name, value)
        for name, value in options.items():
            self.setoption(name, value)
        self.ready()

    def _read(self):
        for line in self.proc.stdout:
            self.lines.put(line.rstrip("\n"))
        self.lines.put(None)

    def send(self, text):
        try:
            self.proc.stdin.write(text + "\n")
            self.proc.stdin.flush()
        except (BrokenPipeError, OSError) as e:
            raise EngineFailure(f"{self.label}: cannot write: {e}") from e

    def until(self, prefix, timeout):
        """The lines up to and including the first one starting with `prefix`."""
        deadline = time.monotonic() + timeout
        seen = []
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                raise EngineFailure(f"{self.label}: no `{prefix}` within {timeout:.0f} s")
            try:
                line = self.lines.get(timeout=left)
            except queue.Empty:
                continue
            if line is None:
                raise EngineFailure(f"{self.label}: the engine exited")
            seen.append(line)
            if line.startswith(prefix):
                return seen

    def setoption(self, name, value):
        if self.protocol == "uci":
            self.send(f"setoption name {name} value {value}")
        else:
            self.send(f"setoption {name} {value}")

    def ready(self):
        self.send("isready")
        self.until("readyok", 60)

    def new_game(self):
        if self.protocol == "uci":
            self.send("ucinewgame")
        elif self.protocol == "ucci":
            self.send("setoption newgame")
        self.ready()

    def best_move(self, fen, moves, limit):
        """The engine's move (referee notation) and what it cost ([`Move`])."""
        own = [to_ranks0(m) for m in moves] if self.ranks0 else list(moves)
        position = f"position fen {fen}" + (" moves " + " ".join(own) if own else "")
        self.send(position)
        kind, value = limit
        if kind == "movetime":
            go = f"go movetime {value}" if self.protocol == "uci" else f"go time {value} movestogo 1"
            timeout = 30 + value / 100
        else:
            go = f"go {kind} {value}"
            timeout = 600
        cpu_before = cpu_seconds(self.proc.pid)
        started = time.monotonic()
        self.send(go)
        lines = self.until("bestmove", timeout)
        last = lines[-1]
        if not last.startswith("bestmove"):
            raise EngineFailure(f"{self.label}: {last}")
        wall = time.monotonic() - started
        cpu_after = cpu_seconds(self.proc.pid)
        cpu = None if cpu_before is None or cpu_after is None else cpu_after - cpu_before
        took = Move(wall, nodes_of(lines), cpu)
        parts = last.split()
        if len(parts) < 2:
            return None, took
        move = parts[1]
        try:
            return (from_ranks0(move) if self.ranks0 else move), took
        except ValueError:
            return move, took

    def score(self, fen, moves, depth):
        """The engine's score in centipawns for the side to move after a search to `depth`
        (mates as +/- 30000)."""
        self.new_game()
        own = [to_ranks0(m) for m in moves] if self.ranks0 else list(moves)
        self.send(f"position fen {fen}" + (" moves " + " ".join(own) if own else ""))
        self.send(f"go depth {depth}")
        score = None
        for line in self.until("bestmove", 600):
            m = re.search(r" score (cp|mate) (-?\d+)", line)
            if m:
                value = int(m[2])
                score = value if m[1] == "cp" else (30000 if value > 0 else -30000)
        return score

    def quit(self):
        try:
            self.send("quit")
            self.proc.wait(timeout=5)
        except (EngineFailure, subprocess.TimeoutExpired):
            self.proc.kill()
            self.proc.wait()


# ---------------------------------------------------------------------------------------
# Openings


def read_openings(path):
    """(id, ECCO code, name, FEN, moves in referee notation) for each row of the file;
    moves are written with ranks 0-9 as Banco does."""
    import pyffish as sf

    rows = []
    with open(path, encoding="utf-8") as f:
        for number, line in enumerate(f, 1):
            if not line.strip() or line.startswith("#") or line.startswith("id\t"):
                continue
            cols = line.rstrip("\n").split("\t")
            if len(cols) != 5:
                sys.exit(f"{path}:{number}: {len(cols)} columns, expected 5")
            ident, code, name, fen, text = cols
            fen = fen.strip() or START_FEN
            moves = []
            for move in text.split():
                move = from_ranks0(move)
                if move not in sf.legal_moves(VARIANT, fen, moves):
                    sys.exit(f"{path}:{number}: {to_ranks0(move)} is not legal here")
                moves.append(move)
            if verdict(fen, moves) is not None:
                sys.exit(f"{path}:{number}: the opening ends the game")
            rows.append((ident, code, name, fen, moves))
    if not rows:
        sys.exit(f"{path}: no openings")
    return rows


# ---------------------------------------------------------------------------------------
# Statistics


def elo_of(score):
    return -400 * math.log10(1 / score - 1)


def elo(wins, draws, losses):
    """Elo difference and its 95 % error bar from W/D/L (as banco-engine's matchplay)."""
    n = max(wins + draws + losses, 1)
    s = (wins + draws / 2) / n

    def clamp(x):
        return min(max(x, 0.5 / n), 1 - 0.5 / n)

    var = (wins * (1 - s) ** 2 + draws * (0.5 - s) ** 2 + losses * s**2) / n
    if var <= 0:
        shrunk = (s * n + 0.5) / (n + 1)
        var = shrunk * (1 - shrunk)
    se = math.sqrt(var / n)
    return elo_of(clamp(s)), (elo_of(clamp(s + 1.96 * se)) - elo_of(clamp(s - 1.96 * se))) / 2


def pair_elo(pair_scores):
    """Elo and 95 % error from the scores (0, 0.5, ..., 2) of colour-swapped game pairs:
    the pentanomial model, which counts each pair once and so the openings' bias once."""
    n = len(pair_scores)
    if n < 2:
        return None
    per_game = [p / 2 for p in pair_scores]
    mean = sum(per_game) / n
    var = sum((x - mean) ** 2 for x in per_game) / (n - 1)
    se = math.sqrt(max(var, 1e-9) / n)

    def clamp(x):
        return min(max(x, 0.25 / n), 1 - 0.25 / n)

    return elo_of(clamp(mean)), (elo_of(clamp(mean + 1.96 * se)) - elo_of(clamp(mean - 1.96 * se))) / 2


def sprt_llr(wins, draws, losses, elo0, elo1):
    """Log-likelihood ratio of H1 (Elo = elo1) against H0 (Elo = elo0), the normal
    approximation of the generalised SPRT on the game scores."""
    n = wins + draws + losses
    if n == 0 or wins + draws / 2 in (0, n):
        return 0.0
    mean = (wins + draws / 2) / n
    var = (wins * (1 - mean) ** 2 + draws * (0.5 - mean) ** 2 + losses * mean**2) / n
    if var <= 0:
        return 0.0
    s0 = 1 / (1 + 10 ** (-elo0 / 400))
    s1 = 1 / (1 + 10 ** (-elo1 / 400))
    return n * (s1 - s0) * (2 * mean - s0 - s1) / (2 * var)


# ---------------------------------------------------------------------------------------
# The match


def jittered(limit, rng, jitter):
    """A node limit moved by up to ±`jitter` (a fraction) at random; other limits as they
    are."""
    kind, value = limit
    if kind != "nodes" or not jitter:
        return limit
    return kind, max(1, round(value * (1 + rng.uniform(-jitter, jitter))))


def play_game(red, black, fen, opening, limits, max_plies, jitter=0.0, seed=0):
    """One game; `limits` maps id(engine) to its limit per move. Node limits move by up to
    ±`jitter` (a fraction) from move to move, drawn from a generator seeded with `seed`:
    engines searching a fixed number of nodes are deterministic, so without it a match
    would replay the same two games per opening. Returns (result "1-0"/"0-1"/"1/2-1/2",
    reason, moves, the cost of each engine's moves ([`Move`]) by id(engine), whether an
    engine failed and must be restarted)."""
    import random

    import pyffish as sf

    rng = random.Random(seed)

    moves = list(opening)
    spent = {id(red): [], id(black): []}
    for engine, lose in ((red, "0-1"), (black, "1-0")):
        try:
            engine.new_game()
        except EngineFailure as e:
            return lose, str(e), moves, spent, True
    while True:
        judged = verdict(fen, moves)
        if judged is not None:
            return judged[0], judged[1], moves, spent, False
        if len(moves) - len(opening) >= max_plies:
            return "1/2-1/2", f"adjudicated after {max_plies} plies", moves, spent, False
        is_red = red_to_move(fen, moves)
        engine = red if is_red else black
        lose = "0-1" if is_red else "1-0"
        try:
            move, took = engine.best_move(fen, moves, jittered(limits[id(engine)], rng, jitter))
        except EngineFailure as e:
            return lose, str(e), moves, spent, True
        spent[id(engine)].append(took)
        if move is None or move not in sf.legal_moves(VARIANT, fen, moves):
            return lose, f"{engine.label} played {move}, not a legal move", moves, spent, False
        moves.append(move)


def start_engines(args, banco_cmd, other_cmd):
    """Banco and its opponent, started and set up."""
    banco = Engine(banco_cmd, "uci", parse_options(args.banco_option), label="banco")
    other = Engine(other_cmd, args.protocol, parse_options(args.option), ranks=args.ranks,
                   label=args.name)
    return banco, other


class Match:
    """Schedules the games over worker threads, each with its own pair of engines."""

    def __init__(self, args, openings, banco_cmd, other_cmd):
        self.args = args
        self.openings = openings
        self.banco_cmd = banco_cmd
        self.other_cmd = other_cmd
        self.lock = threading.Lock()
        self.next_game = args.first_game
        self.stop = False
        self.results = {}  # game index -> Banco's score (1, 0.5, 0)
        self.wins = self.draws = self.losses = 0
        self.banco_moves = []  # Move of every move Banco played
        self.other_moves = []
        self.llr = 0.0
        self.decision = None
        self.log = open(args.log, "a", encoding="utf-8") if args.log else None

    def engines(self):
        return start_engines(self.args, self.banco_cmd, self.other_cmd)

    def worker(self):
        pair = None
        while True:
            with self.lock:
                if self.stop or self.next_game >= self.args.first_game + self.args.games:
                    break
                index = self.next_game
                self.next_game += 1
            if pair is None:
                pair = self.engines()
            banco, other = pair
            ident, code, name, fen, opening = self.openings[(index // 2) % len(self.openings)]
            banco_red = index % 2 == 0
            red, black = (banco, other) if banco_red else (other, banco)
            limits = {id(banco): self.args.banco_limit, id(other): self.args.other_limit}
            result, reason, moves, spent, failed = play_game(
                red, black, fen, opening, limits, self.args.max_plies,
                jitter=self.args.jitter / 100, seed=index)
            if failed:
                for engine in pair:
                    engine.quit()
                pair = None
            self.record(index, ident, name, banco_red, result, reason, moves, fen,
                        spent[id(banco)], spent[id(other)])
        if pair is not None:
            for engine in pair:
                engine.quit()

    def record(self, index, ident, name, banco_red, result, reason, moves, fen, mine, theirs):
        if result == "1/2-1/2":
            score = 0.5
        else:
            score = 1.0 if (result == "1-0") == banco_red else 0.0
        with self.lock:
            self.results[index] = score
            if score == 1:
                self.wins += 1
            elif score == 0:
                self.losses += 1
            else:
                self.draws += 1
            self.banco_moves += mine
            self.other_moves += theirs
            done = self.wins + self.draws + self.losses
            colour = "red" if banco_red else "black"
            print(f"game {index + 1:4} ({done:4} done) banco {colour:5} {ident:4} {name[:28]:28} "
                  f"{len(moves):3} plies {result:7} banco {score:3} ({reason})  "
                  f"W {self.wins} D {self.draws} L {self.losses}", flush=True)
            if self.log:
                self.log.write(json.dumps({
                    "game": index + 1, "opening": ident, "banco": colour, "result": result,
                    "reason": reason, "fen": fen, "moves": [to_ranks0(m) for m in moves],
                    "banco_ms": round(1000 * mean([m.wall for m in mine])),
                    "other_ms": round(1000 * mean([m.wall for m in theirs])),
                    "banco_nodes": round(mean([m.nodes for m in mine if m.nodes is not None])),
                    "other_nodes": round(mean([m.nodes for m in theirs if m.nodes is not None])),
                    "banco_cpu_ms": round(1000 * mean([m.cpu for m in mine if m.cpu is not None])),
                    "other_cpu_ms": round(1000 * mean([m.cpu for m in theirs if m.cpu is not None])),
                    "banco_nps": round(self.args.banco_nps or 0),
                    "other_nps": round(self.args.opponent_nps or 0),
                }) + "\n")
                self.log.flush()
            if self.args.sprt:
                elo0, elo1 = self.args.sprt
                self.llr = sprt_llr(self.wins, self.draws, self.losses, elo0, elo1)
                lower = math.log(self.args.beta / (1 - self.args.alpha))
                upper = math.log((1 - self.args.beta) / self.args.alpha)
                if self.llr >= upper:
                    self.decision, self.stop = f"H1 accepted (Elo >= {elo1})", True
                elif self.llr <= lower:
                    self.decision, self.stop = f"H0 accepted (Elo <= {elo0})", True

    def run(self):
        threads = [threading.Thread(target=self.worker) for _ in range(self.args.concurrency)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        if self.log:
            self.log.close()

    def pair_scores(self):
        return [self.results[i] + self.results[i + 1]
                for i in range(0, max(self.results, default=-1) + 1, 2)
                if i in self.results and i + 1 in self.results]


def mean(xs):
    """The mean of `xs`, 0 for none."""
    return sum(xs) / len(xs) if xs else 0


def effort(label, moves, nps=None):
    """One line: what an engine spent per move on average (wall, CPU, nodes), its speed
    over the match (nodes per CPU second) and, given its calibrated speed `nps`, the time
    per move its nodes stand for on a free core."""
    counted = [m for m in moves if m.nodes is not None and m.cpu is not None]
    nodes = mean([m.nodes for m in moves if m.nodes is not None])
    cpu = mean([m.cpu for m in moves if m.cpu is not None])
    text = (f"{label}: {len(moves)} moves, {1000 * mean([m.wall for m in moves]):.0f} ms wall, "
            f"{1000 * cpu:.0f} ms CPU, {nodes:.0f} nodes per move")
    spent = sum(m.cpu for m in counted)
    if spent > 0:
        text += f"; {sum(m.nodes for m in counted) / spent / 1000:.0f} knps per CPU second"
    if nps:
        text += f"; emulated {1000 * nodes / nps:.0f} ms per move at {nps / 1000:.0f} knps"
    return text


def calibrate(args, openings, banco_cmd, other_cmd, ms):
    """Each engine's speed: both search every opening's position for `ms` milliseconds,
    alternately, one at a time (never two searches at once); the speed is the nodes
    searched per CPU second of the engine's process (and, for reference, per wall second).
    Returns (Banco's nodes per CPU second, the opponent's)."""
    banco, other = start_engines(args, banco_cmd, other_cmd)
    spent = {"banco": [], args.name: []}
    try:
        for _, _, _, fen, moves in openings:
            for label, engine in (("banco", banco), (args.name, other)):
                engine.new_game()
                _, took = engine.best_move(fen, moves, ("movetime", ms))
                if took.nodes is None or took.cpu is None:
                    sys.exit(f"{engine.label} reports no nodes (or no /proc here): "
                             "cannot calibrate")
                spent[label].append(took)
    finally:
        banco.quit()
        other.quit()
    speed = {}
    for label, moves in spent.items():
        nodes = sum(m.nodes for m in moves)
        cpu = sum(m.cpu for m in moves)
        wall = sum(m.wall for m in moves)
        speed[label] = nodes / max(cpu, 1e-3)
        print(f"calibration {label}: {len(moves)} positions at {ms} ms, {nodes} nodes, "
              f"{cpu:.2f} s CPU, {wall:.2f} s wall: {speed[label] / 1000:.0f} knps per CPU "
              f"second ({nodes / max(wall, 1e-3) / 1000:.0f} knps per wall second)", flush=True)
    print(f"calibration: banco / {args.name} speed ratio {speed['banco'] / speed[args.name]:.2f} "
          f"per CPU second, load {os.getloadavg()[0]:.1f}", flush=True)
    return speed["banco"], speed[args.name]


def summarize(paths):
    """W/D/L, Elo and time per move of the games logged (--log) in `paths`: the figures of
    a match that was stopped early."""
    wins = draws = losses = 0
    by_game = {}
    mine, theirs = [], []
    nodes = {"banco_nodes": [], "other_nodes": [], "banco_cpu_ms": [], "other_cpu_ms": [],
             "banco_nps": [], "other_nps": []}
    for path in paths:
        with open(path, encoding="utf-8") as f:
            for line in f:
                g = json.loads(line)
                if g["result"] == "1/2-1/2":
                    score = 0.5
                else:
                    score = 1.0 if (g["result"] == "1-0") == (g["banco"] == "red") else 0.0
                wins += score == 1
                draws += score == 0.5
                losses += score == 0
                by_game[(path, g["game"] - 1)] = score
                mine.append(g["banco_ms"])
                theirs.append(g["other_ms"])
                for key, values in nodes.items():
                    if key in g:
                        values.append(g[key])
    pairs = [by_game[(p, i)] + by_game[(p, i + 1)] for (p, i) in by_game
             if i % 2 == 0 and (p, i + 1) in by_game]
    e, err = elo(wins, draws, losses)
    n = max(wins + draws + losses, 1)
    print(f"{wins + draws + losses} games; mean time per move: banco "
          f"{sum(mine) / max(len(mine), 1):.0f} ms, opponent {sum(theirs) / max(len(theirs), 1):.0f} ms")
    if nodes["banco_nodes"]:
        print(f"mean per move over the games: banco {mean(nodes['banco_nodes']):.0f} nodes, "
              f"{mean(nodes['banco_cpu_ms']):.0f} ms CPU; opponent "
              f"{mean(nodes['other_nodes']):.0f} nodes, {mean(nodes['other_cpu_ms']):.0f} ms CPU")
    if nodes["banco_nps"] and min(nodes["banco_nps"] + nodes["other_nps"]) > 0:
        print(f"emulated time per move: banco "
              f"{mean([n / s * 1000 for n, s in zip(nodes['banco_nodes'], nodes['banco_nps'])]):.0f} ms, "
              f"opponent "
              f"{mean([n / s * 1000 for n, s in zip(nodes['other_nodes'], nodes['other_nps'])]):.0f} ms")
    penta = pair_elo(pairs)
    if penta:
        print(f"pairs: {len(pairs)}, pentanomial elo {penta[0]:+.0f} +/- {penta[1]:.0f}")
    print(f"W {wins} D {draws} L {losses} score {(wins + draws / 2) / n:.3f} elo {e:+.0f} +/- {err:.0f}")
    return wins, draws, losses


MATERIAL = {"r": 9, "c": 4.5, "n": 4, "h": 4, "b": 2, "e": 2, "a": 2, "p": 1, "k": 0}


def material_lead(fen, banco_red):
    """Banco's material lead in a FEN (rook 9, cannon 4.5, horse 4, advisor and elephant 2,
    pawn 1)."""
    red = black = 0.0
    for ch in fen.split()[0]:
        if ch.isalpha():
            if ch.isupper():
                red += MATERIAL[ch.lower()]
            else:
                black += MATERIAL[ch]
    return red - black if banco_red else black - red


def study(paths):
    """Where Banco loses: the referee's reasons of the games in these --log files, by
    result, and the losses and draws that material along the game sets apart (lost early,
    lost while ahead, drawn while ahead). Returns the counts."""
    import pyffish as sf

    counts = {}

    def count(key):
        counts[key] = counts.get(key, 0) + 1

    for path in paths:
        with open(path, encoding="utf-8") as f:
            for line in f:
                g = json.loads(line)
                red = g["banco"] == "red"
                if g["result"] == "1/2-1/2":
                    result = "draw"
                else:
                    result = "win" if (g["result"] == "1-0") == red else "loss"
                moves = [from_ranks0(m) for m in g["moves"]]
                count((result, g["reason"].split(" by ")[0]))

                def lead(plies):
                    return material_lead(sf.get_fen(VARIANT, g["fen"], moves[:max(plies, 0)]), red)
                if result == "loss":
                    if len(moves) <= 100:
                        count(("loss", "within 100 plies"))
                    if lead(len(moves) - 20) >= 3:
                        count(("loss", "3+ points ahead 20 plies before the end"))
                elif result == "draw" and lead(len(moves)) >= 3:
                    count(("draw", "3+ points ahead at the end"))
    for (result, what), n in sorted(counts.items()):
        print(f"{result:5} {n:4}  {what}")
    return counts


def parse_options(pairs):
    options = {}
    for pair in pairs:
        key, sep, value = pair.partition("=")
        if not sep:
            sys.exit(f"option `{pair}`: expected NAME=VALUE")
        options[key.strip()] = value.strip()
    return options


def threads_of(pairs):
    for key, value in parse_options(pairs).items():
        if key.lower() == "threads" and value.isdigit():
            return int(value)
    return 1


def cores():
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:
        return os.cpu_count() or 1


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--banco", default=os.path.join(ROOT, "target", "release", "banco"),
                   help="the banco binary (default: target/release/banco)")
    p.add_argument("--banco-option", action="append", default=[], metavar="NAME=VALUE",
                   help="a UCI option for Banco, e.g. Threads=2, Level=5 or Hash=64")
    p.add_argument("--opponent", help="the opponent's command line")
    p.add_argument("--protocol", choices=["uci", "ucci"], default="uci")
    p.add_argument("--option", action="append", default=[], metavar="NAME=VALUE",
                   help="an option for the opponent, e.g. 'Skill Level=5' (UCI) or hashsize=16 (UCCI)")
    p.add_argument("--name", help="the opponent's name in the output (default: its id name)")
    p.add_argument("--ranks", choices=["auto", "0", "1"], default="auto",
                   help="the opponent's move ranks: 0-9 (Banco, UCCI) or 1-10 "
                        "(Fairy-Stockfish's UCI); auto tells them apart by the engine's name")
    limit = p.add_mutually_exclusive_group()
    limit.add_argument("--movetime", type=int, help="milliseconds per move, both sides (default 100)")
    limit.add_argument("--nodes", type=int, help="nodes per move, both sides")
    limit.add_argument("--depth", type=int, help="depth per move, both sides")
    limit.add_argument("--emulate", type=int, metavar="MS",
                       help="equal time without the clock: each side searches its own speed "
                            "(--banco-nps, --opponent-nps, or measured with --calibrate) × MS "
                            "nodes per move")
    p.add_argument("--banco-nodes", type=int, metavar="N",
                   help="Banco's nodes per move (with --opponent-nodes)")
    p.add_argument("--opponent-nodes", type=int, metavar="N",
                   help="the opponent's nodes per move (with --banco-nodes)")
    p.add_argument("--jitter", type=float, default=10, metavar="PCT",
                   help="node limits move by up to ±PCT %% at random from move to move "
                        "(seeded by the game's number), so that games at fixed nodes do not "
                        "repeat (default 10; 0 for none)")
    p.add_argument("--calibrate", type=int, metavar="MS",
                   help="measure both engines' nodes per CPU second at MS per move over the "
                        "openings' positions, one search at a time; alone, print and stop; "
                        "with --emulate, then play (default 500 ms there)")
    p.add_argument("--banco-nps", type=float, help="Banco's nodes per CPU second for --emulate")
    p.add_argument("--opponent-nps", type=float,
                   help="the opponent's nodes per CPU second for --emulate")
    p.add_argument("--games", type=int, default=100,
                   help="games (even: each opening twice, colours swapped)")
    p.add_argument("--first-game", type=int, default=0, metavar="N",
                   help="start at game N + 1 of the schedule (even: a match split over "
                        "processes, each with its own --log; --summary adds them up)")
    p.add_argument("--openings", default=os.path.join(HERE, "xiangqi-openings.tsv"))
    p.add_argument("--max-plies", type=int, default=300,
                   help="plies after the opening before a game is drawn")
    p.add_argument("--concurrency", type=int,
                   help="games at once (default: the cores divided by the threads of the "
                        "engine that uses most)")
    p.add_argument("--sprt", type=lambda s: tuple(float(x) for x in s.split(",")),
                   metavar="ELO0,ELO1", help="stop when a sequential test decides")
    p.add_argument("--alpha", type=float, default=0.05)
    p.add_argument("--beta", type=float, default=0.05)
    p.add_argument("--log", help="append every game as a JSON line to this file")
    p.add_argument("--check-openings", type=int, metavar="DEPTH",
                   help="print the opponent's score of every opening at this depth and stop")
    p.add_argument("--summary", nargs="+", metavar="LOG",
                   help="print the figures of the games in these --log files and stop")
    p.add_argument("--study", nargs="+", metavar="LOG",
                   help="where Banco loses: reasons and material of the games in these "
                        "--log files, then stop")
    p.add_argument("--smoke", action="store_true",
                   help="Banco against itself, 4 games of 60 plies at 500 nodes per move")
    args = p.parse_args(argv)

    if args.summary:
        return summarize(args.summary)
    if args.study:
        return study(args.study)
    if args.smoke:
        args.opponent = args.opponent or f"{args.banco} uci"
        args.name = args.name or "banco-smoke"
        if args.banco_nodes is None and args.emulate is None:
            args.nodes = args.nodes or 500
        args.games = 4
        args.max_plies = min(args.max_plies, 60)
    if not args.opponent:
        p.error("--opponent is required (or --smoke)")
    if (args.banco_nodes is None) != (args.opponent_nodes is None):
        p.error("--banco-nodes and --opponent-nodes go together")
    per_side = args.banco_nodes is not None
    if per_side and (args.movetime or args.nodes or args.depth or args.emulate):
        p.error("--banco-nodes/--opponent-nodes replace --movetime, --nodes, --depth, --emulate")
    if (args.banco_nps is None) != (args.opponent_nps is None):
        p.error("--banco-nps and --opponent-nps go together")
    if (args.movetime is None and args.nodes is None and args.depth is None and not per_side
            and args.emulate is None and args.calibrate is None):
        args.movetime = 100
    args.limit = (("movetime", args.movetime) if args.movetime is not None
                  else ("nodes", args.nodes) if args.nodes is not None
                  else ("depth", args.depth) if args.depth is not None
                  else None)
    args.banco_limit = args.other_limit = args.limit
    if per_side:
        args.banco_limit = ("nodes", args.banco_nodes)
        args.other_limit = ("nodes", args.opponent_nodes)
    if args.concurrency is None:
        args.concurrency = max(1, cores() // max(threads_of(args.banco_option),
                                                  threads_of(args.option)))
    args.concurrency = max(1, min(args.concurrency, args.games))
    if not os.path.exists(args.banco) and not args.check_openings:
        sys.exit(f"{args.banco} not found: cargo build --release -p banco-cli")
    other_cmd = shlex.split(args.opponent)
    if not os.path.exists(other_cmd[0]) and not any(
            os.path.exists(os.path.join(d, other_cmd[0]))
            for d in os.environ.get("PATH", "").split(os.pathsep)):
        sys.exit(f"opponent `{other_cmd[0]}` not found")
    other_cmd[0] = os.path.abspath(other_cmd[0]) if os.path.exists(other_cmd[0]) else other_cmd[0]
    banco_cmd = [os.path.abspath(args.banco), "uci"]

    openings = read_openings(args.openings)
    probe = Engine(other_cmd, args.protocol, parse_options(args.option), ranks=args.ranks)
    args.name = args.name or probe.name
    if args.check_openings:
        worst = 0
        for ident, _, name, fen, moves in openings:
            score = probe.score(fen, moves, args.check_openings)
            red = score if red_to_move(fen, moves) else -score
            worst = max(worst, abs(red))
            print(f"{ident:4} {red:+5} (Red's view, {args.name} depth {args.check_openings})  {name}",
                  flush=True)
        probe.quit()
        print(f"largest |score|: {worst}")
        return None
    probe.quit()

    if args.calibrate is not None or (args.emulate is not None and args.banco_nps is None):
        args.banco_nps, args.opponent_nps = calibrate(
            args, openings, banco_cmd, other_cmd, args.calibrate or 500)
        if args.emulate is None:
            return args.banco_nps, args.opponent_nps
    if args.emulate is not None:
        args.banco_limit = ("nodes", max(1, round(args.banco_nps * args.emulate / 1000)))
        args.other_limit = ("nodes", max(1, round(args.opponent_nps * args.emulate / 1000)))
    kinds = {"movetime": "{} ms/move", "nodes": "{} nodes/move", "depth": "depth {}"}
    if args.banco_limit == args.other_limit:
        limit_text = kinds[args.limit[0]].format(args.limit[1])
    else:
        limit_text = (f"banco {args.banco_limit[1]} nodes/move, {args.name} "
                      f"{args.other_limit[1]} nodes/move")
        if args.emulate is not None:
            limit_text = f"{args.emulate} ms/move emulated ({limit_text})"
    print(f"banco {' '.join(args.banco_option)} vs {args.name} {' '.join(args.option)}: "
          f"{args.games} games, {limit_text}, {len(openings)} openings, "
          f"{args.concurrency} at once, load {os.getloadavg()[0]:.1f}", flush=True)
    started = time.time()
    match = Match(args, openings, banco_cmd, other_cmd)
    match.run()

    w, d, l = match.wins, match.draws, match.losses
    n = max(w + d + l, 1)
    e, err = elo(w, d, l)
    print(f"banco {' '.join(args.banco_option) or '(defaults)'} vs {args.name} "
          f"{' '.join(args.option) or '(defaults)'}, {limit_text}, {w + d + l} games, "
          f"{time.time() - started:.0f} s, load {os.getloadavg()[0]:.1f}")
    print(effort("banco", match.banco_moves, args.banco_nps))
    print(effort(args.name, match.other_moves, args.opponent_nps))
    pairs = match.pair_scores()
    penta = pair_elo(pairs)
    if penta:
        print(f"pairs: {len(pairs)}, pentanomial elo {penta[0]:+.0f} +/- {penta[1]:.0f}")
    if args.sprt:
        print(f"SPRT [{args.sprt[0]:g}, {args.sprt[1]:g}] alpha {args.alpha} beta {args.beta}: "
              f"LLR {match.llr:.2f} -> {match.decision or 'undecided'}")
    print(f"W {w} D {d} L {l} score {(w + d / 2) / n:.3f} elo {e:+.0f} +/- {err:.0f}")
    return w, d, l


if __name__ == "__main__":
    ensure_pyffish()
    main()
