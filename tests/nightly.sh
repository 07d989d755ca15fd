#!/usr/bin/env bash
# The long suites, run by hand (never in CI): protocol soaks of 10,000 games per game,
# the property tests with many more cases, speed medians (engine bench, chess perft as a
# ratio to cozy-chess's own perft example built from the same crate version) and strength
# matches (level 10 against the seed's plain alpha-beta; chess against packaged engines,
# refereed by python-chess; xiangqi against Fairy-Stockfish / ElephantEye when BANCO_FSF /
# BANCO_ELEEYE name their binaries, refereed by pyffish), the ignored tests (the whole puzzle file, the minute-long
# soak, a match cut and resumed 3,000 times), a save killed mid-write thousands of times, and every cargo-fuzz target for a
# while (tests/fuzz/run.sh), and random command-line sessions: play, edit, uci, ucci (cli).
#
# The rules against independent referees on random games and set-ups (rules): legal moves,
# WXF and SAN, verdicts, repetitions, chess FEN validity, chess PGN and `banco uci` under a
# chess GUI's checks, against pyffish (xiangqi) and python-chess (chess, Chess960).
#
# The mate solver on every reference puzzle, the long mates included, and every stored
# puzzle solution of the bundled collection proven again (puzzles).
#
# Usage: tests/nightly.sh [soak|props|speed|strength|puzzles|ignored|kill|fuzz|cli|rules|lines|tune|all]   (default: all)
# BANCO_TEST_PROFILE=test runs the cargo test parts from the test profile instead of release.
# BANCO_PROPTEST_SEED runs the property tests (props) from that seed instead of their own fixed ones.
# `tune` runs the Texel tuner (tests/tune/texel.sh) on BANCO_TEXEL_GAMES (default 5000)
# self-play games and rewrites the xiangqi weights; it is not part of `all`. `lines` plays
# the Lines player at each budget of BANCO_LINES_BUDGETS (default "100 300") on
# BANCO_LINES_GAMES (default 300) seeded games from BANCO_LINES_SEED (default 1) and pairs
# every budget with the first, game by game; not part of `all` either (about eight hours).
# BANCO_SAVE_KILLS (default 2000) and BANCO_FUZZ_SECONDS (default 300 per target) size the
# kill and fuzz parts; `cli` runs BANCO_CLI_SESSIONS (default 50) random command-line
# sessions of each kind (play for every game, edit, uci, ucci: tests/fuzz/cli_sessions.py);
# `rules` plays BANCO_RULES_GAMES (default 300) random games of each kind, from BANCO_SEED.
# Figures go to stdout; every section ends with its summary lines.
set -euo pipefail
cd "$(dirname "$0")/.."
export CARGO_TERM_COLOR=never
what="${1:-all}"
runs="${BANCO_RUNS:-5}"
# The profile of the test binaries: release (fat LTO) by default; BANCO_TEST_PROFILE=test
# reuses the binaries of the normal suite (opt-level 3, no LTO) on a machine where release
# builds of whole test crates do not fit. Figures then say which profile ran.
test_profile="${BANCO_TEST_PROFILE:-release}"
banco=target/release/banco

# Each step's header carries the UTC time and load, so the time of every step can be read off.
step() { printf '\n==> [%s, load %s] %s\n' "$(date -u +%H:%M:%S)" "$(cut -d ' ' -f 1 /proc/loadavg)" "$*"; }

median() { sort -g | awk '{ a[NR] = $1 } END { if (NR % 2) print a[(NR + 1) / 2]; else print (a[NR / 2] + a[NR / 2 + 1]) / 2 }'; }

build() {
  step "cargo build --release -p banco-cli"
  cargo build --release --locked -p banco-cli
}

soak() {
  # One seed for every soak of the run, printed so that a failure can be replayed. A run
  # prints each failing game as `game N (seed S)`: `banco soak --game G --seed SEED
  # --first N --games 1` replays it alone, and BANCO_SIM_TRACE=1 prints its every event.
  local seed="${BANCO_SEED:-$(date +%s)}"
  echo "seed $seed"
  for game in xiangqi chess jieqi counting; do
    step "banco soak --game $game --games 10000 --seed $seed"
    "$banco" soak --game "$game" --games 10000 --seed "$seed" | tail -n 1
  done
  # Twice: with the default delayed acknowledgements and with every message acknowledged
  # at once (the timing of a fast link; it found bugs the default did not). A failing game
  # is printed as `game N (seed S)`: replay it alone with BANCO_FAIR_FIRST=N
  # BANCO_FAIR_GAMES=1 (and BANCO_SIM_DEBUG=1 for its ends).
  for ack in 5 0; do
    step "fair draw: 10,000 hidden-card games (chance steps) over the rough simulated link, ack delay $ack ms"
    BANCO_FAIR_GAMES=10000 BANCO_SEED="$seed" BANCO_ACK_DELAY_MS="$ack" cargo test --profile "$test_profile" --locked \
      -p banco-protocol --test suite -- --ignored --nocapture fairdraw::many_seeded 2>&1 |
      grep -E '^hidden cards|^game [0-9]+ \(seed'
  done
  step "Lines race: 10,000 seeded races (time limits, resigns, cuts) over the simulated links"
  BANCO_RACE_GAMES=10000 BANCO_SEED="$seed" cargo test --profile "$test_profile" --locked \
    -p banco-protocol --test suite -- --nocapture race::many_seeded 2>&1 | grep '^races'
}

props() {
  # Each property's own fixed seed (banco_game::testing::proptest_config), or
  # BANCO_PROPTEST_SEED for other cases (a failure then replays with PROPTEST_RNG_SEED set
  # to it). BANCO_PROPTEST_CASES reaches the properties that name no count of their own;
  # the costly ones (whole random games) keep the count they name. Not PROPTEST_CASES:
  # proptest applies it over every property's configuration, those counts included.
  if [ -n "${BANCO_PROPTEST_SEED:-}" ]; then export PROPTEST_RNG_SEED="$BANCO_PROPTEST_SEED"; fi
  step "property tests, 20,000 cases where a property names no count of its own ($test_profile, seed ${PROPTEST_RNG_SEED:-fixed})"
  # --no-fail-fast: one failing crate must not hide the others.
  BANCO_PROPTEST_CASES=20000 cargo test --profile "$test_profile" --locked --workspace --no-fail-fast
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

  step "PNG of the xiangqi board at scale 2 (render::png::tests::png_timing, medians of 21)"
  cargo test --profile "$test_profile" --locked -p banco-app --features png --lib -- --ignored --nocapture png_timing 2>&1 |
    grep -E 'median|test result'
}

ignored() {
  step "ignored tests: the whole puzzle file, the long soak ($test_profile)"
  local t0=$SECONDS
  cargo test --profile "$test_profile" --locked -p banco-engine --test suite -- --ignored puzzles::every_puzzle 2>&1 | grep -E 'test result'
  echo "every puzzle solved in $((SECONDS - t0)) s"
  cargo test --profile "$test_profile" --locked -p banco-protocol --test suite -- --ignored --nocapture soak:: 2>&1 | grep -E '^([a-z]+: )?games|test result'
  # A match over TCP cut and let through again BANCO_CUT_ROUNDS times (default 3000): both
  # sides resume every time, whatever order the host hears of the new and the old link.
  cargo test --profile "$test_profile" --locked -p banco-app --test suite -- --ignored --nocapture network_cut::many_cuts 2>&1 | grep -E '^cuts|test result|^no |panicked'
}

kill_save() {
  local kills="${BANCO_SAVE_KILLS:-2000}"
  step "kill during save: $kills SIGKILLs at random moments, every load checked"
  BANCO_SAVE_KILLS="$kills" cargo test --profile "$test_profile" --locked -p banco-app --test kill_during_save \
    -- --nocapture a_kill_mid_save 2>&1 | grep -E 'kills in|test result'
}

fuzz() {
  step "cargo fuzz: every target for ${BANCO_FUZZ_SECONDS:-300} s"
  tests/fuzz/run.sh "${BANCO_FUZZ_SECONDS:-300}"
}

cli() {
  # Random sessions of play, edit, uci and ucci (tests/fuzz/cli_sessions.py): no panic, no
  # hang, exit status 0. A failing session's transcript is left in target/cli-sessions.
  local sessions="${BANCO_CLI_SESSIONS:-50}"
  step "the command line: $sessions random sessions of each kind"
  python3 tests/fuzz/cli_sessions.py "$banco" --sessions "$sessions" --out target/cli-sessions | tail -n 10
}

rules() {
  # Every position of random games asked of banco and of a referee (tests/fuzz/rules_diff.py):
  # each disagreement is printed with its FEN.
  local games="${BANCO_RULES_GAMES:-300}" seed="${BANCO_SEED:-$(date +%s)}"
  step "the rules against pyffish and python-chess: $games random games of each kind, seed $seed"
  python3 tests/fuzz/rules_diff.py "$banco" --games "$games" --seed "$seed" | tail -n 20
}

puzzles() {
  step "every reference puzzle (xiangqi and chess), $test_profile build"
  cargo test --profile "$test_profile" --locked -p banco-engine --test suite -- --include-ignored puzzles::
}

strength() {
  for game in xiangqi chess; do
    step "banco match --game $game level 10 against plain, 100 games, 50 ms"
    "$banco" match --game "$game" --a level=10 --b plain --games 100 --time 50 | tail -n 2
  done
  step "jieqi: level 10 against plain and against level 5, 20 games each"
  cargo test --profile "$test_profile" --locked -p banco-engine --test suite -- --ignored --nocapture jieqi:: 2>&1 |
    grep -E ' vs |test result'
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
  step "xiangqi: the match script's own tests (pyffish referee, smoke match)"
  python3 tests/strength/test_xiangqi_match.py 2>&1 | tail -n 1
  step "lines: the paired comparison script's own tests"
  python3 tests/strength/test_lines_paired.py 2>&1 | tail -n 1
  # Sparring engines built by hand outside the repository (tests/strength/README.md).
  if [ -x "${BANCO_FSF:-}" ]; then
    step "xiangqi: banco against Fairy-Stockfish, 144 games, 100 ms"
    python3 tests/strength/xiangqi_match.py --banco "$banco" --opponent "$BANCO_FSF" --games 144 --movetime 100 | tail -n 1
  fi
  if [ -x "${BANCO_ELEEYE:-}" ]; then
    step "xiangqi: banco against ElephantEye, 144 games, 200 ms"
    python3 tests/strength/xiangqi_match.py --banco "$banco" --opponent "$BANCO_ELEEYE" --protocol ucci --games 144 --movetime 200 | tail -n 1
  fi
  # About 2, 20, 46 and 140 ms (the apps' hint) of a quiet core per move: a minute, ten
  # minutes, half an hour, an hour and a half on one core (longer games at the larger
  # budgets); the samples spread over every core (the same games and scores whatever the
  # count).
  for budget in 1 10 30 100; do
    step "lines: the computer player, 100 seeded games, $budget playouts per move"
    "$banco" bench lines --games 100 --seed 1 --budget "$budget" --threads "$(nproc)" | tail -n 1
  done
  step "lines: the AI's own strength test (20 seeded games, test profile)"
  LINES_GAMES=20 cargo test --profile "$test_profile" --locked -p banco-lines --test suite -- --ignored --nocapture strength:: 2>&1 | tail -n 3
  step "lines: the greedy one-move baseline, 100 seeded games"
  "$banco" bench lines --games 100 --seed 1 --greedy | tail -n 1
}

# Two budgets of the Lines player on the same seeded games, paired game by game
# (tests/strength/lines_paired.py): the way every budget in rust-core/lines/data/tuning.md
# was judged. Each budget's games go to BANCO_LINES_OUT (default target/nightly-lines),
# budget-B-seed-S-games-N.txt; a file that already ends in its summary line is reused, so
# a cut run replays only the budgets it had not finished.
# Budgets 100 against 300 on 300 games take about eight hours of two cores.
lines_budgets() {
  local budgets="${BANCO_LINES_BUDGETS:-100 300}" games="${BANCO_LINES_GAMES:-300}"
  local seed="${BANCO_LINES_SEED:-1}" lines_out="${BANCO_LINES_OUT:-target/nightly-lines}"
  local files=() b out
  mkdir -p "$lines_out"
  for b in $budgets; do
    out="$lines_out/budget-$b-seed-$seed-games-$games.txt"
    if ! tail -n 1 "$out" 2>/dev/null | grep -q "^games $games "; then
      step "lines: budget $b, $games seeded games from seed $seed (per game: $out)"
      "$banco" bench lines --games "$games" --seed "$seed" --budget "$b" --threads "$(nproc)" > "$out"
    fi
    tail -n 1 "$out"
    files+=("$out")
  done
  local i
  for ((i = 1; i < ${#files[@]}; i++)); do
    step "lines: paired, $(basename "${files[$i]}") against $(basename "${files[0]}")"
    python3 tests/strength/lines_paired.py --a "${files[$i]}" --b "${files[0]}" \
      --names "$(basename "${files[$i]}" .txt)" "$(basename "${files[0]}" .txt)"
  done
}

collection() {
  step "banco puzzles verify: every stored puzzle solution proven again"
  "$banco" puzzles verify | tail -n 2
}

case "$what" in
  soak) build; soak ;;
  props) props ;;
  speed) build; speed ;;
  strength) build; strength ;;
  puzzles) build; puzzles; collection ;;
  ignored) ignored ;;
  kill) kill_save ;;
  fuzz) fuzz ;;
  cli) build; cli ;;
  rules) build; rules ;;
  # Texel tuning (not in `all`: it rewrites weights.rs, to be checked by games first).
  # Lines budgets paired (not in `all`: eight hours with its defaults).
  lines) build; lines_budgets ;;
  tune) bash tests/tune/texel.sh "${BANCO_TEXEL_GAMES:-5000}" "${BANCO_TEXEL_FIRST:-0}" ;;
  all) build; soak; props; speed; puzzles; collection; strength; ignored; kill_save; fuzz; cli; rules ;;
  *) echo "usage: tests/nightly.sh [soak|props|speed|strength|puzzles|ignored|kill|fuzz|cli|rules|lines|tune|all]" >&2; exit 2 ;;
esac
step "done: $what"
