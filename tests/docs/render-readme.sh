#!/usr/bin/env bash
# Regenerates the README's pictures: each row of rust-core/cli/doc/pictures/pictures.tsv
# (name, game, position: a FEN or a .pgn of that folder, last move or -) becomes
# `banco render --game G --fen F|--load P [--last M] -o <name>.svg`, run in that folder. With
# --png it also writes <name>.png next to them, to look at (not committed). The banco-cli test
# `readme_pictures` (`cargo test -p banco-cli --test suite readme_pictures::`) fails when a committed SVG is not what its row makes now: run this script
# and commit the result.
#
#   tests/docs/render-readme.sh [--png]
#
# Uses $BANCO (a built `banco`), else builds banco-cli in the test profile (as CI has).
set -euo pipefail
cd "$(dirname "$0")/../.."
root="$PWD"
png=""
[ "${1:-}" = --png ] && png=1

banco="${BANCO:-}"
if [ -z "$banco" ]; then
  cargo build -q --locked --profile test -p banco-cli
  banco="${CARGO_TARGET_DIR:-$root/target}/debug/banco"
fi

cd rust-core/cli/doc/pictures
while IFS=$'\t' read -r name game position last; do
  case "$name" in '' | '#'* | name) continue ;; esac
  args=(render --game "$game")
  case "$position" in
    *.pgn | *.PGN) args+=(--load "$position") ;;
    *) args+=(--fen "$position") ;;
  esac
  [ "$last" != - ] && args+=(--last "$last")
  "$banco" "${args[@]}" -o "$name.svg"
  if [ -n "$png" ]; then "$banco" "${args[@]}" -o "$name.png"; fi
done <pictures.tsv
