#!/usr/bin/env bash
# Texel tuning of the xiangqi evaluation (method and data: the docs of
# rust-core/engine/src/xiangqi/texel.rs). Generates self-play positions, fits every
# evaluation weight on them and rewrites rust-core/engine/src/xiangqi/weights.rs; then
# check the new weights by games before committing them (the tuned evaluation against the
# previous one, e.g. `eval=hand`):
#
#   target/release/examples/match level=10,nodes=2000 level=10,nodes=2000,eval=hand 400 0 300 1 4
#
# Usage: tests/tune/texel.sh [GAMES] [FIRST] [SEED] [NODES] [EXTRA_DATA_FILES]
#   GAMES (default 1000) self-play games numbered FIRST.. (default 0) of the run with SEED
#   (default 1) at NODES per move (default 2000) are appended to
#   target/tune/selfplay-s$SEED.txt (positions already there stay, so a longer run only adds
#   games: pass FIRST = the games already played); EXTRA_DATA_FILES, comma-separated
#   `FEN;result` files (sparring games, say), are added to the fit.
# BANCO_TEXEL_EPOCHS (default 300) and BANCO_TEXEL_START (tuned|hand, default tuned) shape
# the fit. Runs niced: the machine stays usable. A 1,000-game run takes about 20 minutes on
# one shared core and gives ~100,000 positions.
set -euo pipefail
cd "$(dirname "$0")/../.."
games="${1:-1000}"
first="${2:-0}"
seed="${3:-1}"
nodes="${4:-2000}"
extra="${5:-}"
mkdir -p target/tune
data="target/tune/selfplay-s$seed.txt"
cargo build --release --locked -p banco-engine --example texel
tool=target/release/examples/texel
if [ "$games" -gt 0 ]; then
  nice "$tool" gen --out "$data" --games "$games" --first "$first" --seed "$seed" --nodes "$nodes"
fi
files="$data${extra:+,$extra}"
nice "$tool" fit --data "$files" --out rust-core/engine/src/xiangqi/weights.rs \
  --start "${BANCO_TEXEL_START:-tuned}" --epochs "${BANCO_TEXEL_EPOCHS:-300}" \
  --note "Self-play run with seed $seed at $nodes nodes per move (texel gen), $(wc -l < "$data") lines."
git diff --stat -- rust-core/engine/src/xiangqi/weights.rs
