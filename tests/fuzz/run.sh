#!/usr/bin/env bash
# Runs every cargo-fuzz target of rust-core/fuzz for SECONDS each (default 60) and prints,
# per target, the executions and the coverage libFuzzer reached. Not part of CI: it needs
# cargo-fuzz (`cargo install cargo-fuzz`) and a nightly compiler, or the stable one with
# RUSTC_BOOTSTRAP=1 (set here). A crash leaves its input under
# rust-core/fuzz/artifacts/TARGET/; turn it into a regression test in the normal suite.
#
# Usage: tests/fuzz/run.sh [SECONDS] [TARGET...]
set -euo pipefail
cd "$(dirname "$0")/../../rust-core/fuzz"
export RUSTC_BOOTSTRAP=1 CARGO_TERM_COLOR=never
seconds="${1:-60}"
shift || true
targets=("$@")
if [ ${#targets[@]} -eq 0 ]; then
  mapfile -t targets < <(cargo fuzz list --fuzz-dir .)
fi
command -v cargo-fuzz >/dev/null || { echo "cargo install cargo-fuzz first" >&2; exit 2; }
cargo fuzz build --fuzz-dir . >/dev/null
status=0
printf '%-12s %12s %10s %10s %8s  %s\n' target executions exec/s cov features result
for t in "${targets[@]}"; do
  log="$(mktemp)"
  mkdir -p "corpus/$t"
  if cargo fuzz run --fuzz-dir . "$t" "corpus/$t" -- -max_total_time="$seconds" -rss_limit_mb=2048 \
    -max_len=4096 -print_final_stats=1 >"$log" 2>&1; then
    result=ok
  else
    result="CRASH (see rust-core/fuzz/artifacts/$t)"
    status=1
  fi
  execs=$(grep -Eo 'stat::number_of_executed_units: *[0-9]+' "$log" | grep -Eo '[0-9]+$' | tail -n 1)
  rate=$(grep -Eo 'stat::average_exec_per_sec: *[0-9]+' "$log" | grep -Eo '[0-9]+$' | tail -n 1)
  cov=$(grep -Eo 'cov: [0-9]+' "$log" | tail -n 1 | grep -Eo '[0-9]+')
  ft=$(grep -Eo 'ft: [0-9]+' "$log" | tail -n 1 | grep -Eo '[0-9]+')
  printf '%-12s %12s %10s %10s %8s  %s\n' "$t" "${execs:-?}" "${rate:-?}" "${cov:-?}" "${ft:-?}" "$result"
  if [ "$result" != ok ]; then tail -n 30 "$log"; fi
  rm -f "$log"
done
exit "$status"
