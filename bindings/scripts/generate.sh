#!/usr/bin/env bash
# Builds banco-ffi (cdylib, cargo profile $BANCO_FFI_PROFILE, default `release`) and generates the Kotlin, Swift and Python bindings from
# that exact library (uniffi library mode) into $TARGET/bindings/:
#
#   kotlin/org/banco/banco_ffi.kt      package org.banco
#   swift/Banco.swift                  module Banco, with banco_ffiFFI.h and .modulemap
#   swift/BancoMessages.swift          hand-written, shipped with it (bindings/swift/support)
#   python/banco_ffi.py
#   lib/libbanco_ffi.so                the library they were generated from
#
# $TARGET is $CARGO_TARGET_DIR, else the workspace target/. Generated code is never committed.
# tests/run.sh sets BANCO_FFI_PROFILE=test: the same code, optimised like the test suites
# (opt-level 3, no LTO), reusing the dependencies `cargo test` already built instead of a
# second fat-LTO build of the whole tree (minutes on a 2-core CI machine). Shipping builds
# (ios-shell/scripts/build-xcframework.sh, the Android build) stay on `release`.
set -euo pipefail
cd "$(dirname "$0")/../.."
target="${CARGO_TARGET_DIR:-$PWD/target}"
case "$(uname -s)" in
  Darwin) libname=libbanco_ffi.dylib ;;
  *) libname=libbanco_ffi.so ;;
esac

profile="${BANCO_FFI_PROFILE:-release}"
if [ "$profile" = test ]; then
  # The whole workspace with the targets `cargo test --workspace` builds (tests and examples
  # too, so dev-dependencies take part in feature unification exactly as there): every
  # crate is then reused as it stands, the library and the generator alike. A plain
  # `cargo build --workspace` unifies features without the dev-dependencies and so builds
  # the workspace crates (and some dependencies) a second time.
  echo "==> cargo build --profile test --workspace --lib --bins --tests --examples (banco-ffi and uniffi-bindgen)"
  cargo build --locked --profile test --workspace --lib --bins --tests --examples
  lib="$target/debug/$libname"
  bindgen="$target/debug/uniffi-bindgen"
else
  echo "==> cargo build --profile $profile -p banco-ffi"
  cargo build --locked --profile "$profile" -p banco-ffi
  case "$profile" in
    release) lib="$target/release/$libname" ;;
    dev) lib="$target/debug/$libname" ;;
    *) lib="$target/$profile/$libname" ;;
  esac
  cargo build -q --locked -p uniffi-bindgen
  bindgen="$target/debug/uniffi-bindgen"
fi
out="$target/bindings"
rm -rf "$out/kotlin" "$out/swift" "$out/python" "$out/lib"
mkdir -p "$out/lib"
cp "$lib" "$out/lib/"

echo "==> uniffi-bindgen (library mode) -> $out"
for lang in kotlin swift python; do
  "$bindgen" generate --library "$out/lib/$libname" --language "$lang" --out-dir "$out/$lang" --no-format
done
# Hand-written Swift shipped with the generated module: readable error messages.
cp bindings/swift/support/*.swift "$out/swift/"
ls "$out"/kotlin/org/banco/*.kt "$out"/swift/*.swift "$out"/swift/*.h "$out"/swift/*.modulemap "$out"/python/*.py
