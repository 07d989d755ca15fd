#!/usr/bin/env bash
# Builds banco-ffi (release cdylib) and generates the Kotlin, Swift and Python bindings from
# that exact library (uniffi library mode) into $TARGET/bindings/:
#
#   kotlin/org/banco/banco.kt          package org.banco
#   swift/Banco.swift                  module Banco, with banco_ffiFFI.h and .modulemap
#   python/banco.py
#   lib/libbanco_ffi.so                the library they were generated from
#
# $TARGET is $CARGO_TARGET_DIR, else the workspace target/. Generated code is never committed.
set -euo pipefail
cd "$(dirname "$0")/../.."
target="${CARGO_TARGET_DIR:-$PWD/target}"
case "$(uname -s)" in
  Darwin) libname=libbanco_ffi.dylib ;;
  *) libname=libbanco_ffi.so ;;
esac

echo "==> cargo build --release -p banco-ffi"
cargo build --release -p banco-ffi
lib="$target/release/$libname"
out="$target/bindings"
rm -rf "$out/kotlin" "$out/swift" "$out/python" "$out/lib"
mkdir -p "$out/lib"
cp "$lib" "$out/lib/"

echo "==> uniffi-bindgen (library mode) -> $out"
cargo build -q -p uniffi-bindgen
bindgen="$target/debug/uniffi-bindgen"
for lang in kotlin swift python; do
  "$bindgen" generate --library "$out/lib/$libname" --language "$lang" --out-dir "$out/$lang" --no-format
done
ls "$out"/kotlin/org/banco/*.kt "$out"/swift/*.swift "$out"/swift/*.h "$out"/swift/*.modulemap "$out"/python/*.py
