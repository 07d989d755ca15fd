#!/usr/bin/env bash
# The one test command of Banco (README): formatting, lints, and every test suite,
# exactly as CI runs it. Provisions what it lacks (rustfmt/clippy components; later
# steps install their own toolchains).
set -euo pipefail
cd "$(dirname "$0")/.."

# Each step's wall time, printed at the end (CI keeps only the total).
timings=()
step_name=""
step_start=$SECONDS
step_done() {
  [ -n "$step_name" ] && timings+=("$(printf '%5ds  %s' $((SECONDS - step_start)) "$step_name")")
  step_name=""
}
step() {
  step_done
  step_name="$*"
  step_start=$SECONDS
  printf '\n==> %s\n' "$*"
}

# The Kotlin compiler (a JRE, JNA and npm from apt, then kotlinc from npm), the Swift chroot
# (debootstrap + apt) and the BLE mock's D-Bus packages download while cargo compiles: those
# are network and disk bound, the compilers CPU bound. One job, one apt at a time; it only
# provisions, and the steps below use what it leaves in place.
provision_log="$(mktemp "${TMPDIR:-/tmp}/banco-provision.XXXXXX")"
provision_start=$SECONDS
( bash bindings/scripts/test-kotlin.sh --provision && bash bindings/scripts/test-swift.sh --provision \
    && bash tests/net/ble-mock.sh --provision ) >"$provision_log" 2>&1 </dev/null &
provision_pid=$!
cleanup() {
  kill "$provision_pid" 2>/dev/null || true
  rm -f "$provision_log"
}
trap cleanup EXIT
wait_provision() {
  local status=0
  wait "$provision_pid" || status=$?
  sed 's/^/   provision: /' "$provision_log"
  if [ "$status" != 0 ]; then
    echo "provisioning the Kotlin/Swift toolchains failed (status $status): see the lines above" >&2
    exit 1
  fi
  echo "   provision: ready after $((SECONDS - provision_start)) s (in the background)"
}

if ! cargo fmt --version >/dev/null 2>&1 || ! cargo clippy --version >/dev/null 2>&1; then
  step "installing rustfmt and clippy"
  rustup component add rustfmt clippy
fi

step "cargo fmt --check"
cargo fmt --all --check

# Every crate but the generator's three-line main (bindings/uniffi-bindgen): linting it would
# type-check uniffi's whole code generator (uniffi's `cli` feature) for nothing of ours, about
# a sixth of a cold clippy run. `cargo clippy --workspace --all-targets` is clean too.
step "cargo clippy (all targets, warnings are errors)"
cargo clippy --workspace --exclude uniffi-bindgen --all-targets --locked -- -D warnings

# The third-party notices an app ships (rust-core/licenses/THIRD-PARTY.md) still list what
# the library links on every platform: written from Cargo.lock offline. Clippy fetched only
# the host's crates; `cargo fetch` (every target) brings the other platforms' manifests
# (windows-sys, wasi, …) that `cargo tree --target all` reads, and is instant when they are here.
step "third-party notices (bindings/scripts/third-party-notices.sh --check)"
cargo fetch --locked --quiet
bash bindings/scripts/third-party-notices.sh --check

# The API docs: no broken link, and no public item whose docs point at a private one (an
# embedder reads the public pages, and the bindings' item docs become the Kotlin and Swift
# docs); then the private items' docs too. The dependencies checked for clippy are reused;
# our own crates are checked once more (clippy's checks are its own) and documented.
step "cargo doc (public, then private items; warnings are errors)"
RUSTDOCFLAGS="-D warnings" cargo doc --workspace --exclude uniffi-bindgen --no-deps --locked
RUSTDOCFLAGS="-D warnings" cargo doc --workspace --exclude uniffi-bindgen --no-deps --locked \
  --document-private-items
# The crates with optional features, alone on their defaults (as a docs site builds them):
# the workspace build unifies features, so a link to a feature-gated item passes there.
for crate in banco-app banco-net banco-ffi banco-cli; do
  RUSTDOCFLAGS="-D warnings" cargo doc -p "$crate" --no-deps --locked
done

# The test profile is optimised (opt-level 3, see Cargo.toml): the perft and engine suites
# run at release speed without paying for LTO on every test binary.
step "cargo test (workspace)"
cargo test --workspace --locked

# Before anything else may call apt-get on the host (the BLE mock installs what it lacks).
step "waiting for the Kotlin/Swift toolchains"
wait_provision

# mDNS in network namespaces; Bluetooth LE against a mock BlueZ on a private D-Bus (it
# builds `banco --features ble` in the test profile, reusing the dependencies built above).
# On a developer's machine a script may skip (not root, no netns); in CI (`CI=true`) a
# skip is a failure: a test that cannot run there has not passed.
for script in tests/net/mdns-netns.sh tests/net/ble-mock.sh; do
  if [ -f "$script" ]; then
    step "$script"
    bash "$script" | tee "${TMPDIR:-/tmp}/banco-e2e.out"
    if [ "${CI:-}" = "true" ] && tail -n 1 "${TMPDIR:-/tmp}/banco-e2e.out" | grep -q '^skipped'; then
      echo "$script skipped in CI: that is a failure" >&2
      exit 1
    fi
  fi
done

# Kotlin and Swift bindings, generated from the library and run against it; each script
# provisions its compiler (npm kotlin-compiler + JNA; swiftc or a trixie chroot). The library
# is built in the test profile (see bindings/scripts/generate.sh) to reuse the build above.
export BANCO_FFI_PROFILE="${BANCO_FFI_PROFILE:-test}"
step "bindings/scripts/test-kotlin.sh"
bash bindings/scripts/test-kotlin.sh
step "bindings/scripts/test-swift.sh"
bash bindings/scripts/test-swift.sh

# The Android and iOS shells' UI logic (android-shell/core, ios-shell BancoKit) on the same
# toolchains, against the bindings the two steps above generated.
step "android-shell/scripts/test-core.sh"
BANCO_SKIP_GENERATE=1 bash android-shell/scripts/test-core.sh
step "ios-shell/scripts/test.sh"
BANCO_SKIP_GENERATE=1 bash ios-shell/scripts/test.sh

step_done
printf '\n==> step times\n'
printf '%s\n' "${timings[@]}"
printf '%5ds  total\n' "$SECONDS"
printf '\n==> all test suites passed\n'
