#!/usr/bin/env python3
"""Two Lines players compared game by game on the same seeds.

`banco bench lines` prints one line per game (`game N seed S score X turns T`) before its
summary. Two runs over the same seeds play the same spawns, so their games pair up seed by
seed: the difference of each pair carries far less of the spawns' luck than the difference
of two means. This script pairs the games of two sets of bench outputs (each set one or more
files, say two halves run on two cores) and prints, for the seeds both sets played:

    games N
    a   median M mean A (se E) q10 .. q90 .. reach1000 .. reach2000 .. reach3000 ..
    b   ...
    diff mean D se E better W worse L same S
    ln(score+100) mean D se E
    median_diff D bootstrap_sd E p5 .. p95 ..   (seeds resampled, seeded)

The LAST line, `paired N diff D se E ln L se F`, is for scripts. The same seed must carry
the same game in every file of a set (a set's files may overlap); a seed whose games differ
within a set is an error, as is a set with no game line.

    tests/strength/lines_paired.py --a b300-*.txt --b b100-*.txt [--seeds 1-300]

Run `tests/strength/test_lines_paired.py` for its tests. Python 3 standard library only.
"""

import argparse
import math
import random
import re
import statistics
import sys

# A game stopped by `--max-turns` ends its line with ` (turn limit)`: paired like any other
# (both runs stop at the same turn when both use the same limit) and counted apart.
GAME = re.compile(r"^game \d+ seed (\d+) score (\d+) turns (\d+)( \(turn limit\))?\s*$")


class PairingError(Exception):
    """A bench output that cannot be paired: no game in it, or one seed with two games."""


def read(paths):
    """The games of one set of bench outputs, {seed: (score, turns)}, and the seeds of those
    the turn limit stopped (each counts as its score then), in one pass over the files."""
    games, stopped = {}, set()
    for path in paths:
        with open(path, encoding="utf-8") as f:
            for line in f:
                m = GAME.match(line)
                if not m:
                    continue
                seed, game = int(m[1]), (int(m[2]), int(m[3]))
                if games.get(seed, game) != game:
                    raise PairingError(
                        f"{path}: seed {seed} scored {game[0]} in {game[1]} turns here and "
                        f"{games[seed][0]} in {games[seed][1]} turns in another file of the set"
                    )
                games[seed] = game
                if m[4]:
                    stopped.add(seed)
    if not games:
        raise PairingError(f"no `game N seed S score X turns T` line in {', '.join(paths)}")
    return games, stopped


def load(paths):
    """The games of one set of bench outputs: {seed: (score, turns)} (see `read`)."""
    return read(paths)[0]


def quantile(sorted_values, q):
    """The value at rank floor(q * n) of `sorted_values` (as the tuning notes quote them)."""
    return sorted_values[min(len(sorted_values) - 1, int(q * len(sorted_values)))]


def summary(scores):
    """Median, mean, its standard error and the distribution of `scores`."""
    s = sorted(scores)
    n = len(s)
    se = statistics.stdev(s) / math.sqrt(n) if n > 1 else 0.0
    return {
        "median": statistics.median(s),
        "mean": statistics.mean(s),
        "se": se,
        "q10": quantile(s, 0.10),
        "q25": quantile(s, 0.25),
        "q75": quantile(s, 0.75),
        "q90": quantile(s, 0.90),
        "max": s[-1],
        "reach1000": sum(x >= 1000 for x in s),
        "reach2000": sum(x >= 2000 for x in s),
        "reach3000": sum(x >= 3000 for x in s),
    }


def mean_se(values):
    """Mean and standard error of `values` (standard error 0 for one value)."""
    m = statistics.mean(values)
    se = statistics.stdev(values) / math.sqrt(len(values)) if len(values) > 1 else 0.0
    return m, se


def paired(a, b, seeds=None, draws=2000, rng_seed=1):
    """Compare the games of `a` and `b` (dicts from `load`) on the seeds both played (within
    `seeds`, a (low, high) pair, when given). Returns a dict of the figures printed."""
    keys = sorted(set(a) & set(b))
    if seeds is not None:
        keys = [k for k in keys if seeds[0] <= k <= seeds[1]]
    if not keys:
        raise PairingError("the two sets share no seed")
    diff = [a[k][0] - b[k][0] for k in keys]
    ln = [math.log(a[k][0] + 100) - math.log(b[k][0] + 100) for k in keys]
    d_mean, d_se = mean_se(diff)
    l_mean, l_se = mean_se(ln)
    # The medians' difference is not a paired statistic: resample the seeds (pairs kept
    # together) to see how far it moves.
    rng = random.Random(rng_seed)
    boot = []
    for _ in range(draws):
        pick = [rng.choice(keys) for _ in keys]
        boot.append(
            statistics.median(a[k][0] for k in pick) - statistics.median(b[k][0] for k in pick)
        )
    boot.sort()
    return {
        "games": len(keys),
        "seeds": (keys[0], keys[-1]),
        "a": summary([a[k][0] for k in keys]),
        "b": summary([b[k][0] for k in keys]),
        "a_turns": statistics.median(a[k][1] for k in keys),
        "b_turns": statistics.median(b[k][1] for k in keys),
        "diff": d_mean,
        "diff_se": d_se,
        "better": sum(d > 0 for d in diff),
        "worse": sum(d < 0 for d in diff),
        "same": sum(d == 0 for d in diff),
        "ln": l_mean,
        "ln_se": l_se,
        "median_diff": statistics.median(a[k][0] for k in keys)
        - statistics.median(b[k][0] for k in keys),
        "boot_sd": statistics.stdev(boot) if len(boot) > 1 else 0.0,
        "boot_p5": quantile(boot, 0.05),
        "boot_p95": quantile(boot, 0.95),
    }


def fmt(x):
    """A figure as the tuning notes write it: integers bare, others to one decimal."""
    if isinstance(x, float) and not x.is_integer():
        return f"{x:.1f}"
    return str(int(x))


def report(r, names=("a", "b")):
    """The lines printed for the figures `r` of `paired`."""
    out = [f"games {r['games']} seeds {r['seeds'][0]}-{r['seeds'][1]}"]
    for key, name in zip(("a", "b"), names):
        s = r[key]
        out.append(
            f"{name} median {fmt(s['median'])} mean {s['mean']:.1f} (se {s['se']:.1f}) "
            f"q10 {s['q10']} q25 {s['q25']} q75 {s['q75']} q90 {s['q90']} max {s['max']} "
            f"reach1000 {s['reach1000']} reach2000 {s['reach2000']} reach3000 {s['reach3000']} "
            f"median_turns {fmt(r[key + '_turns'])}"
        )
    out.append(
        f"diff mean {r['diff']:.1f} se {r['diff_se']:.1f} "
        f"better {r['better']} worse {r['worse']} same {r['same']}"
    )
    out.append(f"ln(score+100) mean {r['ln']:.3f} se {r['ln_se']:.3f}")
    out.append(
        f"median_diff {fmt(r['median_diff'])} bootstrap_sd {r['boot_sd']:.1f} "
        f"p5 {fmt(r['boot_p5'])} p95 {fmt(r['boot_p95'])}"
    )
    out.append(
        f"paired {r['games']} diff {r['diff']:.1f} se {r['diff_se']:.1f} "
        f"ln {r['ln']:.3f} se {r['ln_se']:.3f}"
    )
    return out


def positive(text):
    """A whole number of at least 1."""
    try:
        n = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None
    if n < 1:
        raise argparse.ArgumentTypeError(f"{n}: at least 1")
    return n


def seed_range(text):
    """`LOW-HIGH` (or one seed) as a (low, high) pair."""
    low, _, high = text.partition("-")
    try:
        low_n = int(low)
        high_n = int(high) if high else low_n
    except ValueError:
        raise argparse.ArgumentTypeError(f"seeds {text!r}: expected LOW-HIGH, say 1-300") from None
    if low_n > high_n:
        raise argparse.ArgumentTypeError(f"seeds {text!r}: {low_n} is above {high_n}")
    return (low_n, high_n)


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--a", nargs="+", required=True, help="bench outputs of the first player")
    p.add_argument("--b", nargs="+", required=True, help="bench outputs of the player it is compared with")
    p.add_argument("--names", nargs=2, default=("a", "b"), help="labels of the two players")
    p.add_argument("--seeds", type=seed_range, help="only these seeds, LOW-HIGH")
    p.add_argument("--draws", type=positive, default=2000, help="bootstrap draws (default 2000)")
    args = p.parse_args(argv)
    try:
        (a, stopped_a), (b, stopped_b) = read(args.a), read(args.b)
        r = paired(a, b, args.seeds, args.draws)
        low, high = r["seeds"]
        limited = sorted(
            s for s in stopped_a | stopped_b if s in a and s in b and low <= s <= high
        )
    except (PairingError, OSError) as e:
        print(f"lines_paired: {e}", file=sys.stderr)
        return 1
    lines = report(r, args.names)
    if limited:
        seeds = ", ".join(map(str, limited))
        lines.insert(-1, f"turn_limit {len(limited)} games stopped by --max-turns (seeds {seeds})")
    print("\n".join(lines))
    return 0


if __name__ == "__main__":
    sys.exit(main())
