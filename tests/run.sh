#!/usr/bin/env bash
# The one test command of Banco (README): formatting, lints, and every test suite,
# exactly as CI runs it. Provisions what it lacks (rustfmt/clippy components; later
# steps install their own toolchains).
set -euo pipefail
cd "$(dirname "$0")/.."

step() { printf '\n==> %s\n' "$*"; }

if ! cargo fmt --version >/dev/null 2>&1 || ! cargo clippy --version >/dev/null 2>&1; then
  step "installing rustfmt and clippy"
  rustup component add rustfmt clippy
fi

step "cargo fmt --check"
cargo fmt --all --check

step "cargo clippy (all targets, warnings are errors)"
cargo clippy --workspace --all-targets --locked -- -D warnings

# The test profile is optimised (opt-level 3, see Cargo.toml): the perft and engine suites
# run at release speed without paying for LTO on every test binary.
step "cargo test (workspace)"
cargo test --workspace --locked

# mDNS in network namespaces; Bluetooth LE against a mock BlueZ on a private D-Bus (it
# builds `banco --features ble` in the test profile, reusing the dependencies built above).
for script in tests/net/mdns-netns.sh tests/net/ble-mock.sh; do
  if [ -f "$script" ]; then
    step "$script"
    bash "$script"
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

step "all test suites passed"
