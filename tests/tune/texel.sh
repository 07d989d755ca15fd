#!/usr/bin/env bash
# Texel tuning of the xiangqi evaluation (method and data: the docs of
# rust-core/engine/src/xiangqi/texel.rs). Generates self-play positions (two generators at
# once), turns sparring-match logs into positions, fits every evaluation weight on them and
# rewrites rust-core/engine/src/xiangqi/weights.rs; then check the new weights by games
# before committing them (the tuned evaluation against the previous round's, `eval=prev`):
#
#   target/release/examples/match level=10,nodes=10000 level=10,nodes=10000,eval=prev 200 0 300 1 4
#   target/release/examples/match level=10,nodes=10000 level=10,nodes=10000,eval=prev 200 0 300 2 4
#
# Usage: tests/tune/texel.sh [GAMES] [SEED] [NODES] [LOGS]
#   Generator j (0 and 1) plays GAMES (default 1000) self-play games numbered
#   j*100000 .. j*100000+GAMES of the run with SEED (default 50000) at NODES per move
#   (default 5000) into $DIR/sp-s$SEED-n$NODES-$j.txt (DIR: BANCO_TEXEL_DIR, default
#   target/tune; an existing file is kept and not regenerated). LOGS: comma-separated
#   `xiangqi_match.py --log` files (sparring games) turned into $DIR/sparring.txt.
#
# The second round's weights (issue #17) came from
#   BANCO_TEXEL_DIR=/work/scratch/texel tests/tune/texel.sh GAMES 50000 5000 LOGS
# with the exact game counts and logs listed in texel.rs's docs (the generators there were
# stopped by hand; `texel gen --games N --first F` replays exactly games F..F+N).
# The third round's data: `texel gen --seed 60000 --nodes 5000` (games 0-4839 and
# 100000-104889, no sparring logs); its fits with and without the threat terms
# (`texel fit ... --freeze-threats`) are compared in texel.rs's docs.
# The fourth round: `texel gen --seed 70000 --nodes 5000` (games 0-3399 and 100000-103519)
# and the third round's sparring logs, fitted together with the third round's data in one
# `texel fit` (command in texel.rs's docs).
# BANCO_TEXEL_EPOCHS (default 300) and BANCO_TEXEL_START (tuned|hand, default tuned) shape
# the fit. Runs niced: the machine stays usable. On two shared cores 1,000 games at 5,000
# nodes take 15-25 minutes per generator and give ~110,000 positions each.
set -euo pipefail
cd "$(dirname "$0")/../.."
games="${1:-1000}"
seed="${2:-50000}"
nodes="${3:-5000}"
logs="${4:-}"
dir="${BANCO_TEXEL_DIR:-target/tune}"
mkdir -p "$dir"
cargo build --release --locked -p banco-engine --example texel
tool=target/release/examples/texel
files=""
pids=()
for j in 0 1; do
  data="$dir/sp-s$seed-n$nodes-$j.txt"
  files="$files${files:+,}$data"
  if [ ! -s "$data" ]; then
    nice -n 10 "$tool" gen --out "$data" --games "$games" --first "$((j * 100000))" \
      --seed "$seed" --nodes "$nodes" &
    pids+=($!)
  fi
done
for p in "${pids[@]}"; do wait "$p"; done
if [ -n "$logs" ]; then
  "$tool" import --log "$logs" --out "$dir/sparring.txt"
  files="$files,$dir/sparring.txt"
fi
nice "$tool" fit --data "$files" --out rust-core/engine/src/xiangqi/weights.rs \
  --start "${BANCO_TEXEL_START:-tuned}" --epochs "${BANCO_TEXEL_EPOCHS:-300}" \
  --note "Self-play with seed $seed at $nodes nodes per move (texel gen, two generators)${logs:+ and sparring logs}."
git diff --stat -- rust-core/engine/src/xiangqi/weights.rs
