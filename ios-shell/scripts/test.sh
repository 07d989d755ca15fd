#!/usr/bin/env bash
# Builds BancoKit (the generated Swift bindings + the models in Sources/BancoKit) as a module,
# compiles the tests in Tests/BancoKitTests against it, and runs them on this machine against
# the host-built library. Last line: `N passed, M failed`; exit code 1 if any failed.
#
# The Swift toolchain is the binding tests' one: swiftc from PATH, else the Debian trixie
# chroot that bindings/scripts/test-swift.sh builds and caches (--provision). SwiftUI code
# (Sources/BancoApp) is guarded by `#if canImport(SwiftUI)` and needs Xcode: not built here.
# BANCO_SKIP_GENERATE=1 reuses target/bindings/ when it is there.
set -euo pipefail
cd "$(dirname "$0")/../.."
root="$PWD"
# shellcheck source=../../android-shell/scripts/toolchain.sh
. android-shell/scripts/toolchain.sh

mode="$(banco_swift_mode)"
banco_generate
gen="$banco_target/bindings"

if [ "$mode" = host ]; then
  stage="$banco_target/ios-shell-test"
  work="$stage"
else
  stage="$banco_chroot/banco-ios-shell-test"
  work="/banco-ios-shell-test"
fi
rm -rf "$stage"
mkdir -p "$stage/kit" "$stage/tests" "$stage/include"
cp "$gen"/swift/*.swift ios-shell/Sources/BancoKit/*.swift "$stage/kit/"
cp ios-shell/Tests/BancoKitTests/*.swift "$stage/tests/"
cp "$gen"/swift/*.h "$stage/include/"
cp "$gen"/swift/banco_ffiFFI.modulemap "$stage/include/module.modulemap"
cp "$gen"/lib/libbanco_ffi.* "$stage/"

# Absolute paths throughout: swiftc resolves the modulemap's header relative to it.
ffi="-Xcc -fmodule-map-file=$work/include/module.modulemap -I $work/include"
build_and_run="set -e; cd '$work'
swiftc -Onone -parse-as-library -module-name BancoKit -emit-library -emit-module \
  -emit-module-path '$work/BancoKit.swiftmodule' $ffi \
  -L '$work' -lbanco_ffi -Xlinker -rpath -Xlinker '$work' \
  -o '$work/libBancoKit.so' '$work'/kit/*.swift
swiftc -Onone -module-name BancoKitTests $ffi -I '$work' \
  -L '$work' -lBancoKit -lbanco_ffi -Xlinker -rpath -Xlinker '$work' \
  -o '$work/bancokit-tests' '$work'/tests/*.swift
LD_LIBRARY_PATH='$work' '$work/bancokit-tests'"

echo "==> swiftc ($mode): BancoKit module, then its tests; run"
if [ "$mode" = host ]; then
  bash -c "$build_and_run" </dev/null
else
  mounted=""
  if ! mountpoint -q "$banco_chroot/proc"; then
    mount -t proc proc "$banco_chroot/proc"
    mounted=1
  fi
  trap '[ -n "$mounted" ] && umount -l "$banco_chroot/proc" 2>/dev/null || true' EXIT
  chroot "$banco_chroot" /bin/bash -c "$build_and_run" </dev/null
fi
