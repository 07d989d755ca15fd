#!/usr/bin/env bash
# macOS + Xcode only: builds banco-ffi for iOS devices and simulators, packs it as
# ios-shell/BancoFFI.xcframework (static library + banco_ffiFFI.h + module map), and copies the
# generated Banco.swift into Sources/BancoKit/Generated/. Then open ios-shell/Package.swift
# (or add it as a local package to an app project) in Xcode. See README.md.
set -euo pipefail
cd "$(dirname "$0")/../.."
[ "$(uname -s)" = Darwin ] || { echo "build-xcframework: needs macOS with Xcode" >&2; exit 1; }
target="${CARGO_TARGET_DIR:-$PWD/target}"
out=ios-shell/BancoFFI.xcframework

rustup target add aarch64-apple-ios aarch64-apple-ios-sim x86_64-apple-ios
# Bindings come from the host library (library mode); the API is the same on every target.
bash bindings/scripts/generate.sh
for t in aarch64-apple-ios aarch64-apple-ios-sim x86_64-apple-ios; do
  cargo build --release -p banco-ffi --target "$t"
done

headers="$target/ios-headers"
rm -rf "$headers" "$out"
mkdir -p "$headers"
cp "$target/bindings/swift/banco_ffiFFI.h" "$headers/"
cp "$target/bindings/swift/banco_ffiFFI.modulemap" "$headers/module.modulemap"

# One simulator library for both simulator architectures.
sim="$target/ios-sim-universal"
mkdir -p "$sim"
lipo -create \
  "$target/aarch64-apple-ios-sim/release/libbanco_ffi.a" \
  "$target/x86_64-apple-ios/release/libbanco_ffi.a" \
  -output "$sim/libbanco_ffi.a"

xcodebuild -create-xcframework \
  -library "$target/aarch64-apple-ios/release/libbanco_ffi.a" -headers "$headers" \
  -library "$sim/libbanco_ffi.a" -headers "$headers" \
  -output "$out"

mkdir -p ios-shell/Sources/BancoKit/Generated
cp "$target"/bindings/swift/*.swift ios-shell/Sources/BancoKit/Generated/
echo "built $out and ios-shell/Sources/BancoKit/Generated/Banco.swift"
