#!/usr/bin/env bash
# The long suites, run by hand (never in CI): protocol soaks of 10,000 games per game,
# the property tests with many more cases, speed medians (engine bench, chess perft as a
# ratio to cozy-chess's own perft example built from the same crate version) and strength
# matches (level 10 against the seed's plain alpha-beta; chess against packaged engines,
# refereed by python-chess), and every stored puzzle solution proven again.
#
# Usage: tests/nightly.sh [soak|props|speed|strength|puzzles|all]   (default: all)
# Figures go to stdout; every section ends with its summary lines.
set -euo pipefail
cd "$(dirname "$0")/.."
export CARGO_TERM_COLOR=never
what="${1:-all}"
runs="${BANCO_RUNS:-5}"
banco=target/release/banco

step() { printf '\n==> %s\n' "$*"; }

median() { sort -g | awk '{ a[NR] = $1 } END { if (NR % 2) print a[(NR + 1) / 2]; else print (a[NR / 2] + a[NR / 2 + 1]) / 2 }'; }

build() {
  step "cargo build --release -p banco-cli"
  cargo build --release --locked -p banco-cli
}

soak() {
  for game in xiangqi chess counting; do
    step "banco soak --game $game --games 10000"
    "$banco" soak --game "$game" --games 10000 --seed "${BANCO_SEED:-$(date +%s)}" | tail -n 1
  done
}

props() {
  step "property tests with 20,000 cases each (release)"
  PROPTEST_CASES=20000 cargo test --release --locked --workspace
}

speed() {
  for game in xiangqi chess; do
    step "banco bench --game $game, median of $runs"
    for _ in $(seq "$runs"); do "$banco" bench --game "$game" | tail -n 1; done | tee /tmp/banco-nightly-bench
    echo "median nps $(awk '{ print $6 }' /tmp/banco-nightly-bench | median) ($game)"
  done

  # cozy-chess's perft example, from the registry copy of the version in Cargo.lock.
  local version src
  version=$(awk '/^name = "cozy-chess"$/ { getline; gsub(/"/, "", $3); print $3 }' Cargo.lock)
  src=$(ls -d "${CARGO_HOME:-$HOME/.cargo}"/registry/src/*/"cozy-chess-$version" | head -n 1)
  step "cozy-chess $version perft example (from $src)"
  CARGO_TARGET_DIR=target/nightly-cozy cargo build --release --manifest-path "$src/Cargo.toml" --example perft
  local cozy=target/nightly-cozy/release/examples/perft
  step "chess perft depth 6 from the start, $runs alternating runs"
  : > /tmp/banco-nightly-ours
  : > /tmp/banco-nightly-cozy
  for _ in $(seq "$runs"); do
    "$banco" bench perft --game chess --depth 6 | tail -n 1 | awk '{ print $4 }' >> /tmp/banco-nightly-ours
    local t0 t1
    t0=$(date +%s.%N)
    "$cozy" 6 > /dev/null
    t1=$(date +%s.%N)
    awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.3f\n", b - a }' >> /tmp/banco-nightly-cozy
  done
  local ours theirs
  ours=$(median < /tmp/banco-nightly-ours)
  theirs=$(median < /tmp/banco-nightly-cozy)
  echo "median seconds: banco $ours cozy-chess $theirs"
  echo "perft speed ratio banco/cozy-chess $(awk -v a="$theirs" -v b="$ours" 'BEGIN { printf "%.2f", a / b }')"
}

strength() {
  for game in xiangqi chess; do
    step "banco match --game $game level 10 against plain, 100 games, 50 ms"
    "$banco" match --game "$game" --a level=10 --b plain --games 100 --time 50 | tail -n 2
  done
  if ! python3 -c 'import chess' 2>/dev/null; then pip install chess; fi
  for engine in phalanx stockfish gnuchess; do
    command -v "/usr/games/$engine" >/dev/null 2>&1 || apt-get install -y -qq "$engine"
  done
  step "chess: banco against phalanx, 60 games, 100 ms"
  python3 tests/strength/chess_match.py --banco "$banco" --opponent phalanx --games 60 --movetime 100 | tail -n 2
  step "chess: banco against stockfish limited to Elo 2000, 60 games, 100 ms"
  python3 tests/strength/chess_match.py --banco "$banco" --opponent stockfish \
    --option UCI_LimitStrength=true --option UCI_Elo=2000 --games 60 --movetime 100 | tail -n 2
  step "chess: banco against gnuchess, 40 games, 100 ms"
  python3 tests/strength/chess_match.py --banco "$banco" --opponent gnuchess --games 40 --movetime 100 | tail -n 2
}

puzzles() {
  step "banco puzzles verify: every stored puzzle solution proven again"
  "$banco" puzzles verify | tail -n 2
}

build
case "$what" in
  puzzles) puzzles ;;
  soak) soak ;;
  props) props ;;
  speed) speed ;;
  strength) strength ;;
  all) soak; props; speed; strength; puzzles ;;
  *) echo "usage: tests/nightly.sh [soak|props|speed|strength|puzzles|all]" >&2; exit 2 ;;
esac
