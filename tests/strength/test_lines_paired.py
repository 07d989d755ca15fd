#!/usr/bin/env python3
"""Tests of lines_paired.py: pairing by seed, the figures against hand-computed values,
the errors, the LAST line, and (when a banco binary is built) two bench runs of the same
games on one and on two threads pairing to no difference.

Run by hand with the strength scripts (tests/nightly.sh strength), or:
    tests/strength/test_lines_paired.py
"""

import io
import math
import os
import subprocess
import sys
import tempfile
import unittest
from contextlib import redirect_stderr, redirect_stdout

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import lines_paired as lp  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(HERE))
BANCO = os.path.join(ROOT, "target", "release", "banco")


class Files:
    """Bench outputs written to a temporary folder."""

    def __init__(self):
        self.dir = tempfile.TemporaryDirectory()

    def write(self, name, games, summary=True):
        path = os.path.join(self.dir.name, name)
        with open(path, "w", encoding="utf-8") as f:
            f.write("budget 1 playouts: stage one only\n")
            for i, (seed, score, turns) in enumerate(games, 1):
                f.write(f"game {i} seed {seed} score {score} turns {turns}\n")
            if summary:
                f.write("games 3 median_score 1 mean_score 1.0 median_turns 1 ms_per_move 1.0\n")
        return path


class Pairing(unittest.TestCase):
    def setUp(self):
        self.files = Files()

    def tearDown(self):
        self.files.dir.cleanup()

    def test_games_pair_by_seed_not_by_order(self):
        a = lp.load([self.files.write("a", [(1, 100, 50), (2, 300, 90), (3, 900, 200)])])
        b = lp.load([self.files.write("b", [(3, 700, 190), (1, 100, 60), (9, 5, 5)])])
        r = lp.paired(a, b)
        self.assertEqual(r["games"], 2)
        self.assertEqual(r["seeds"], (1, 3))
        # Seed 1: 0, seed 3: +200.
        self.assertEqual(r["diff"], 100.0)
        self.assertAlmostEqual(r["diff_se"], math.sqrt(2 * 100.0**2) / math.sqrt(2))
        self.assertEqual((r["better"], r["worse"], r["same"]), (1, 0, 1))
        self.assertAlmostEqual(r["ln"], (math.log(1000) - math.log(800)) / 2)
        self.assertEqual(r["median_diff"], 500 - 400)

    def test_a_set_spans_files_and_may_overlap(self):
        a = lp.load(
            [
                self.files.write("a1", [(1, 100, 50), (2, 300, 90)]),
                self.files.write("a2", [(2, 300, 90), (3, 900, 200)], summary=False),
            ]
        )
        self.assertEqual(a, {1: (100, 50), 2: (300, 90), 3: (900, 200)})

    def test_one_seed_with_two_games_is_an_error(self):
        paths = [
            self.files.write("a1", [(1, 100, 50)]),
            self.files.write("a2", [(1, 120, 50)]),
        ]
        with self.assertRaisesRegex(lp.PairingError, "seed 1 scored 120"):
            lp.load(paths)

    def test_no_game_and_no_shared_seed_are_errors(self):
        with self.assertRaisesRegex(lp.PairingError, "no `game"):
            lp.load([self.files.write("empty", [])])
        a = lp.load([self.files.write("a", [(1, 100, 50)])])
        b = lp.load([self.files.write("b", [(2, 100, 50)])])
        with self.assertRaisesRegex(lp.PairingError, "share no seed"):
            lp.paired(a, b)
        with self.assertRaisesRegex(lp.PairingError, "share no seed"):
            lp.paired(a, a, seeds=(5, 9))

    def test_seeds_limit_the_pairs(self):
        games = [(s, 100 * s, s) for s in range(1, 11)]
        a = lp.load([self.files.write("a", games)])
        b = lp.load([self.files.write("b", [(s, x - s, t) for s, x, t in games])])
        r = lp.paired(a, b, seeds=(3, 6))
        self.assertEqual((r["games"], r["seeds"]), (4, (3, 6)))
        self.assertEqual(r["diff"], 4.5)
        self.assertEqual(lp.seed_range("3-6"), (3, 6))
        self.assertEqual(lp.seed_range("7"), (7, 7))

    def test_bootstrap_is_seeded_and_brackets_the_median_difference(self):
        games = [(s, 50 * s + (s * 37) % 400, s) for s in range(1, 61)]
        a = lp.load([self.files.write("a", games)])
        b = lp.load([self.files.write("b", [(s, x // 2 + 200, t) for s, x, t in games])])
        one, two = lp.paired(a, b), lp.paired(a, b)
        self.assertEqual(one, two)
        self.assertLessEqual(one["boot_p5"], one["median_diff"])
        self.assertGreaterEqual(one["boot_p95"], one["median_diff"])
        self.assertGreater(one["boot_sd"], 0.0)

    def test_games_stopped_at_the_turn_limit_pair_and_are_named(self):
        a = self.files.write("a", [(1, 100, 50), (2, 300, 90)])
        with open(a, "a", encoding="utf-8") as f:
            f.write("game 3 seed 3 score 700 turns 500 (turn limit)\n")
        b = self.files.write("b", [(1, 100, 40), (2, 310, 90), (3, 650, 500)])
        self.assertEqual(lp.load([a])[3], (700, 500))
        self.assertEqual(lp.read([a])[1], {3})
        self.assertEqual(lp.read([b])[1], set())
        out = io.StringIO()
        with redirect_stdout(out):
            self.assertEqual(lp.main(["--a", a, "--b", b, "--draws", "10"]), 0)
        lines = out.getvalue().splitlines()
        self.assertIn("turn_limit 1 games stopped by --max-turns (seeds 3)", lines)
        self.assertTrue(lines[-1].startswith("paired 3 "), lines[-1])
        err = io.StringIO()
        with redirect_stderr(err), self.assertRaises(SystemExit):
            lp.main(["--a", a, "--b", b, "--draws", "0"])

    def test_the_last_line_and_the_errors_of_main(self):
        a = self.files.write("a", [(1, 130, 50), (2, 300, 90), (3, 900, 200)])
        b = self.files.write("b", [(1, 100, 40), (2, 310, 90), (3, 700, 190)])
        out = io.StringIO()
        with redirect_stdout(out):
            self.assertEqual(lp.main(["--a", a, "--b", b, "--names", "new", "old"]), 0)
        lines = out.getvalue().splitlines()
        self.assertTrue(lines[1].startswith("new median 300 mean 443.3"), lines[1])
        self.assertTrue(lines[2].startswith("old median 310 mean 370.0"), lines[2])
        self.assertEqual(lines[-1].split()[:4], ["paired", "3", "diff", "73.3"])
        err = io.StringIO()
        with redirect_stderr(err):
            self.assertEqual(lp.main(["--a", a, "--b", os.path.join(self.files.dir.name, "none")]), 1)
        self.assertIn("lines_paired:", err.getvalue())


@unittest.skipUnless(os.access(BANCO, os.X_OK), "no target/release/banco (cargo build --release -p banco-cli)")
class RealBench(unittest.TestCase):
    def test_the_same_games_on_one_and_two_threads_pair_to_nothing(self):
        files = Files()
        try:
            paths = []
            for threads in (1, 2):
                out = subprocess.run(
                    [BANCO, "bench", "lines", "--games", "3", "--seed", "11", "--budget", "20",
                     "--threads", str(threads)],
                    check=True, capture_output=True, text=True,
                ).stdout
                path = os.path.join(files.dir.name, f"t{threads}")
                with open(path, "w", encoding="utf-8") as f:
                    f.write(out)
                paths.append(path)
            r = lp.paired(lp.load([paths[0]]), lp.load([paths[1]]))
            self.assertEqual((r["games"], r["same"], r["diff"]), (3, 3, 0.0))
        finally:
            files.dir.cleanup()


if __name__ == "__main__":
    unittest.main()
