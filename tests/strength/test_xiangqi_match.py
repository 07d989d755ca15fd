#!/usr/bin/env python3
"""Tests of xiangqi_match.py: the referee's verdicts against the project's reference data,
the move notation, the statistics, the openings file, and (when a banco binary is built) a
smoke match of Banco against itself.

Run by hand (not in CI: it needs pyffish from PyPI, which the match script installs in its
own virtual environment on first use):
    tests/strength/test_xiangqi_match.py            # or: python3 -m unittest in this folder
"""

import io
import os
import sys
import unittest
from contextlib import redirect_stdout

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import xiangqi_match as xm  # noqa: E402

ROOT = xm.ROOT


def tsv_rows(path):
    with open(path, encoding="utf-8") as f:
        lines = [line.rstrip("\n") for line in f if line.strip() and not line.startswith("#")]
    header = lines[0].split("\t")
    return [dict(zip(header, line.split("\t"))) for line in lines[1:]]


class Notation(unittest.TestCase):
    def test_ranks_convert_both_ways(self):
        self.assertEqual(xm.from_ranks0("h2e2"), "h3e3")
        self.assertEqual(xm.from_ranks0("a9a0"), "a10a1")
        self.assertEqual(xm.to_ranks0("a10a1"), "a9a0")
        for move in ("b0c2", "i9i8", "e0e1"):
            self.assertEqual(xm.to_ranks0(xm.from_ranks0(move)), move)

    def test_bad_moves_are_refused(self):
        for bad in ("h2e", "j2e2", "a11a1", ""):
            with self.assertRaises(ValueError):
                xm.to_ranks0(bad)
        with self.assertRaises(ValueError):
            xm.from_ranks0("a10a1")


class Referee(unittest.TestCase):
    def test_start_position_goes_on(self):
        self.assertIsNone(xm.verdict(xm.START_FEN, []))
        self.assertTrue(xm.red_to_move(xm.START_FEN, []))
        self.assertFalse(xm.red_to_move(xm.START_FEN, ["h3e3"]))

    def test_repetition_verdicts_match_the_reference_data(self):
        # Perpetual check and chase lose, mutual or idle repetition draws (Asian rules).
        rows = tsv_rows(os.path.join(ROOT, "tests", "data", "rules", "repetition.tsv"))
        self.assertGreater(len(rows), 50)
        for row in rows:
            moves = [xm.from_ranks0(m) for m in row["moves"].split()]
            with self.subTest(source=row["source"]):
                self.assertIsNone(xm.verdict(row["fen"], moves[:3]))
                judged = xm.verdict(row["fen"], moves)
                self.assertIsNotNone(judged)
                self.assertEqual(judged[0], row["result"])
                if row["result"] == "1/2-1/2":
                    self.assertEqual(judged[1], "repetition")
                else:
                    loser = "Red" if row["result"] == "0-1" else "Black"
                    self.assertIn(loser, judged[1])

    def test_puzzle_lines_end_in_mate_by_red(self):
        # Mate in xiangqi is also the stalemate (困毙): Black has no legal move.
        rows = tsv_rows(os.path.join(ROOT, "rust-core", "app", "data", "puzzles", "xiangqi.tsv"))
        for row in rows[:40]:
            moves = [xm.from_ranks0(m) for m in row["line"].split()]
            with self.subTest(puzzle=row["id"]):
                self.assertIsNone(xm.verdict(row["fen"], moves[:-1]))
                result, reason = xm.verdict(row["fen"], moves)
                self.assertEqual(result, "1-0")
                self.assertIn(reason, ("checkmate", "stalemate"))

    def test_stalemate_loses(self):
        # Black's king on d9 has no move (the rook holds rank 8, the kings may not face each
        # other on the e-file) and Black has nothing else: stalemated, which loses.
        fen = "3k5/8R/9/9/9/9/9/9/9/4K4 b - - 0 1"
        self.assertEqual(xm.verdict(fen, []), ("1-0", "stalemate"))

    def test_bare_kings_draw(self):
        fen = "3k5/9/9/9/9/9/9/9/9/4K4 w - - 0 1"
        self.assertEqual(xm.verdict(fen, []), ("1/2-1/2", "insufficient material"))

    def test_fifty_moves_draw(self):
        # A rook each, kings apart, nothing captured for 100 plies: the move rule.
        fen = "3k5/9/9/9/9/r8/9/R8/9/5K3 w - - 99 80"
        self.assertIsNone(xm.verdict(fen, []))
        self.assertEqual(xm.verdict(fen, ["a3b3"]), ("1/2-1/2", "50-move rule"))


class Statistics(unittest.TestCase):
    def test_even_score_is_zero_elo(self):
        e, err = xm.elo(10, 10, 10)
        self.assertAlmostEqual(e, 0.0)
        self.assertGreater(err, 0)

    def test_elo_is_antisymmetric_and_shrinks_with_games(self):
        e1, err1 = xm.elo(30, 40, 10)
        e2, err2 = xm.elo(10, 40, 30)
        self.assertAlmostEqual(e1, -e2)
        self.assertAlmostEqual(err1, err2)
        self.assertAlmostEqual(e1, -400 * __import__("math").log10(1 / 0.625 - 1))
        _, err_more = xm.elo(300, 400, 100)
        self.assertLess(err_more, err1)

    def test_pairs(self):
        self.assertIsNone(xm.pair_elo([1.0]))
        e, err = xm.pair_elo([2, 1, 1, 0, 2, 1.5])
        self.assertGreater(e, 0)
        self.assertGreater(err, 0)

    def test_sprt_leans_the_right_way(self):
        self.assertGreater(xm.sprt_llr(60, 20, 20, 0, 10), 0)
        self.assertLess(xm.sprt_llr(20, 20, 60, 0, 10), 0)
        self.assertEqual(xm.sprt_llr(0, 0, 0, 0, 10), 0)


    def test_summary_of_a_log(self):
        import json
        import tempfile

        games = [("1-0", "red"), ("1-0", "black"), ("1/2-1/2", "red"), ("0-1", "red")]
        with tempfile.NamedTemporaryFile("w", suffix=".jsonl", delete=False) as f:
            for i, (result, colour) in enumerate(games):
                f.write(json.dumps({"game": i + 1, "result": result, "banco": colour,
                                    "banco_ms": 100, "other_ms": 120,
                                    "banco_nodes": 200_000, "other_nodes": 150_000,
                                    "banco_cpu_ms": 90, "other_cpu_ms": 70,
                                    "banco_nps": 2_000_000, "other_nps": 3_000_000}) + "\n")
        try:
            with redirect_stdout(io.StringIO()) as out:
                self.assertEqual(xm.summarize([f.name]), (1, 1, 2))
            self.assertIn("pairs: 2", out.getvalue())
            self.assertIn("emulated time per move: banco 100 ms, opponent 50 ms", out.getvalue())
        finally:
            os.unlink(f.name)


class Effort(unittest.TestCase):
    def test_nodes_are_the_last_reported(self):
        lines = ["info depth 1 score cp 3 nodes 20 pv h2e2", "info depth 2 nodes 900 time 3",
                 "info string nodes are counted", "info nodes 1234 nps 5 time 4",
                 "bestmove h2e2"]
        self.assertEqual(xm.nodes_of(lines), 1234)
        self.assertEqual(xm.nodes_of(["info time 149 nodes 138345", "info depth 6 score 4 pv c3c4",
                                      "bestmove c3c4 ponder b9c7"]), 138345)
        self.assertIsNone(xm.nodes_of(["bestmove h2e2"]))

    @unittest.skipUnless(os.path.exists("/proc/self/stat"), "no /proc")
    def test_cpu_time_grows_with_work(self):
        before = xm.cpu_seconds(os.getpid())
        deadline = __import__("time").process_time() + 0.05
        while __import__("time").process_time() < deadline:
            pass
        self.assertGreater(xm.cpu_seconds(os.getpid()), before)
        self.assertIsNone(xm.cpu_seconds(2**22 + 7))

    def test_emulated_time_is_nodes_over_speed(self):
        moves = [xm.Move(0.5, 100_000, 0.05), xm.Move(0.5, 300_000, 0.15)]
        text = xm.effort("banco", moves, nps=2_000_000)
        self.assertIn("200000 nodes per move", text)
        self.assertIn("2000 knps per CPU second", text)
        self.assertIn("emulated 100 ms per move", text)
        self.assertIn("100 ms CPU", text)

    def test_jitter_moves_node_limits_only(self):
        import random

        rng = random.Random(1)
        seen = {xm.jittered(("nodes", 100_000), rng, 0.1)[1] for _ in range(200)}
        self.assertGreater(len(seen), 100)
        self.assertTrue(all(90_000 <= n <= 110_000 for n in seen))
        self.assertAlmostEqual(sum(seen) / len(seen), 100_000, delta=2_000)
        self.assertEqual(xm.jittered(("movetime", 100), rng, 0.1), ("movetime", 100))
        self.assertEqual(xm.jittered(("nodes", 500), rng, 0), ("nodes", 500))

    def test_node_budgets_go_in_pairs(self):
        with redirect_stdout(io.StringIO()), self.assertRaises(SystemExit):
            with __import__("contextlib").redirect_stderr(io.StringIO()):
                xm.main(["--opponent", "x", "--banco-nodes", "5"])
        with redirect_stdout(io.StringIO()), self.assertRaises(SystemExit):
            with __import__("contextlib").redirect_stderr(io.StringIO()):
                xm.main(["--opponent", "x", "--banco-nodes", "5", "--opponent-nodes", "6",
                         "--movetime", "100"])


class Study(unittest.TestCase):
    def test_material_lead(self):
        self.assertEqual(xm.material_lead(xm.START_FEN, True), 0)
        no_red_rook = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/1NBAKABNR w - - 0 1"
        self.assertEqual(xm.material_lead(no_red_rook, True), -9)
        self.assertEqual(xm.material_lead(no_red_rook, False), 9)

    def test_losses_are_told_apart(self):
        import json
        import tempfile

        # Red (a rook) against Black (two advisors and an elephant): Banco is 3 points
        # behind as Black, 3 ahead as Red.
        fen = "3akab2/9/9/9/9/9/9/9/4R4/3K5 w - - 0 1"
        with tempfile.NamedTemporaryFile("w", suffix=".jsonl", delete=False) as f:
            f.write(json.dumps({"game": 1, "result": "1-0", "banco": "black",
                                "reason": "checkmate", "fen": fen, "moves": ["e1e2"]}) + "\n")
            f.write(json.dumps({"game": 2, "result": "1/2-1/2", "banco": "red",
                                "reason": "50-move rule", "fen": fen, "moves": []}) + "\n")
            f.write(json.dumps({"game": 3, "result": "0-1", "banco": "red",
                                "reason": "perpetual check or chase by Red", "fen": fen,
                                "moves": []}) + "\n")
        try:
            with redirect_stdout(io.StringIO()):
                counts = xm.study([f.name])
        finally:
            os.unlink(f.name)
        self.assertEqual(counts[("loss", "checkmate")], 1)
        self.assertEqual(counts[("loss", "perpetual check or chase")], 1)
        self.assertEqual(counts[("loss", "within 100 plies")], 2)
        self.assertEqual(counts[("loss", "3+ points ahead 20 plies before the end")], 1)
        self.assertEqual(counts[("draw", "3+ points ahead at the end")], 1)
        self.assertEqual(counts[("draw", "50-move rule")], 1)


class Openings(unittest.TestCase):
    def test_openings_are_legal_and_distinct(self):
        openings = xm.read_openings(os.path.join(HERE, "xiangqi-openings.tsv"))
        self.assertGreaterEqual(len(openings), 30)
        import pyffish as sf

        fens = {sf.get_fen(xm.VARIANT, fen, moves) for _, _, _, fen, moves in openings}
        self.assertEqual(len(fens), len(openings))
        self.assertEqual(len({o[0] for o in openings}), len(openings))


def built_banco():
    """The newest build of Banco's UCI engine: `banco` or the engine's `uci` example (the
    same session), release or debug/test profile."""
    found = [os.path.join(ROOT, "target", profile, name)
             for profile in ("release", "debug") for name in ("banco", "examples/uci")]
    found = [path for path in found if os.path.exists(path)]
    return max(found, key=os.path.getmtime) if found else None


@unittest.skipIf(built_banco() is None,
                 "no target/*/banco: cargo build -p banco-cli (or -p banco-engine --example uci)")
class Smoke(unittest.TestCase):
    def test_banco_against_itself(self):
        out = io.StringIO()
        with redirect_stdout(out):
            w, d, l = xm.main(["--smoke", "--banco", built_banco(), "--concurrency", "2"])
        self.assertEqual(w + d + l, 4)
        text = out.getvalue()
        self.assertIn("W ", text)
        self.assertNotIn("not a legal move", text)
        self.assertNotIn("no `bestmove`", text)

    def test_own_node_budgets(self):
        out = io.StringIO()
        with redirect_stdout(out):
            xm.main(["--smoke", "--banco", built_banco(), "--concurrency", "2",
                     "--banco-nodes", "300", "--opponent-nodes", "900", "--jitter", "0"])
        text = out.getvalue()
        self.assertIn("banco 300 nodes/move", text)
        # Banco stops at its node limit: every move costs it at most its budget.
        banco = next(line for line in text.splitlines() if line.startswith("banco: "))
        per_move = int(banco.split(" nodes per move")[0].rsplit(" ", 1)[1])
        self.assertLessEqual(per_move, 300)
        self.assertGreater(per_move, 200)

    def test_calibration_then_emulated_time(self):
        out = io.StringIO()
        with redirect_stdout(out):
            xm.main(["--smoke", "--banco", built_banco(), "--concurrency", "2",
                     "--calibrate", "10", "--emulate", "2"])
        text = out.getvalue()
        self.assertEqual(text.count("calibration banco:"), 1)
        self.assertIn("speed ratio", text)
        self.assertIn("ms/move emulated", text)
        self.assertIn("emulated", text.splitlines()[-3])


if __name__ == "__main__":
    xm.ensure_pyffish()
    unittest.main()
