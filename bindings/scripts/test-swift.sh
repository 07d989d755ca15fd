#!/usr/bin/env bash
# Compiles the generated Swift bindings with the tests in bindings/swift/ and runs them
# against the host-built library. Last line: `N passed, M failed`.
#
# Uses swiftc from PATH when there is one. Otherwise (Linux, as root, non-interactively) it
# builds a Debian trixie chroot with Debian's `swiftlang` once and reuses it on later runs:
#   debootstrap --variant=minbase trixie $BANCO_SWIFT_CHROOT   (/var/cache/banco/swift-chroot)
#   mount -t proc proc $CHROOT/proc                             (unmounted on exit)
#   chroot $CHROOT apt-get install swiftlang                    (~2 minutes, 2.7 GB)
# A marker file tells a complete chroot from a half-built one, which is started again.
#
#   test-swift.sh              generate, provision if needed, compile, run
#   test-swift.sh --provision  only make sure the toolchain is there
set -euo pipefail
cd "$(dirname "$0")/../.."
root="$PWD"
target="${CARGO_TARGET_DIR:-$root/target}"
chroot_dir="${BANCO_SWIFT_CHROOT:-/var/cache/banco/swift-chroot}"
marker="$chroot_dir/.banco-base-ready"
# swiftlang alone leaves out the C library headers that Foundation/Glibc import.
swift_packages=(swiftlang libc6-dev)
mirror="${BANCO_DEBIAN_MIRROR:-http://deb.debian.org/debian}"
export DEBIAN_FRONTEND=noninteractive

mounted=()
cleanup() {
  local m
  for m in "${mounted[@]}"; do umount -l "$m" 2>/dev/null || true; done
}
trap cleanup EXIT

mount_proc() {
  if ! mountpoint -q "$chroot_dir/proc"; then
    mount -t proc proc "$chroot_dir/proc"
    mounted+=("$chroot_dir/proc")
  fi
}

provision_chroot() {
  if [ ! -f "$marker" ]; then
    if [ "$(id -u)" != 0 ]; then
      echo "test-swift: no swiftc, and building the Swift chroot needs root" >&2
      exit 1
    fi
    echo "==> building the Swift chroot in $chroot_dir (once per machine)"
    if ! command -v debootstrap >/dev/null 2>&1; then
      apt-get update -qq
      apt-get install -y -qq --no-install-recommends debootstrap >/dev/null
    fi
    if [ -d "$chroot_dir" ]; then
      # Half-built by an interrupted run: start again.
      umount -l "$chroot_dir/proc" 2>/dev/null || true
      rm -rf --one-file-system "$chroot_dir"
    fi
    mkdir -p "$(dirname "$chroot_dir")"
    debootstrap --variant=minbase trixie "$chroot_dir" "$mirror" >"$chroot_dir.debootstrap.log" 2>&1 || {
      tail -20 "$chroot_dir.debootstrap.log" >&2
      exit 1
    }
    touch "$marker"
  fi
  mount_proc
  if ! chroot "$chroot_dir" dpkg -s "${swift_packages[@]}" >/dev/null 2>&1; then
    echo "==> apt-get install ${swift_packages[*]} in the chroot (~2 minutes the first time)"
    cp /etc/resolv.conf "$chroot_dir/etc/resolv.conf" 2>/dev/null || true
    chroot "$chroot_dir" apt-get update -qq
    chroot "$chroot_dir" apt-get install -y -qq --no-install-recommends "${swift_packages[@]}" </dev/null >/dev/null
    chroot "$chroot_dir" apt-get clean
  fi
  chroot "$chroot_dir" swiftc --version 2>&1 | head -1
}

if command -v swiftc >/dev/null 2>&1; then
  mode=host
else
  mode=chroot
  provision_chroot
fi
[ "${1:-}" = "--provision" ] && exit 0

bash bindings/scripts/generate.sh
gen="$target/bindings"

# The build directory, as seen from outside (stage) and from the compiler (work).
if [ "$mode" = host ]; then
  stage="$gen/swift-test"
  work="$stage"
else
  stage="$chroot_dir/banco-swift-test"
  work="/banco-swift-test"
fi
rm -rf "$stage"
mkdir -p "$stage/src" "$stage/include"
cp "$gen"/swift/*.swift bindings/swift/*.swift "$stage/src/"
cp "$gen"/swift/*.h "$stage/include/"
# The modulemap must sit beside its header and be named module.modulemap or passed whole.
cp "$gen"/swift/banco_ffiFFI.modulemap "$stage/include/module.modulemap"
cp "$gen"/lib/libbanco_ffi.* "$stage/"

compile_and_run="cd '$work' && swiftc -Onone -module-name BancoTests \
  -Xcc -fmodule-map-file='$work/include/module.modulemap' -I '$work/include' \
  -L '$work' -lbanco_ffi -Xlinker -rpath -Xlinker '$work' \
  -o '$work/banco-tests' '$work'/src/*.swift && LD_LIBRARY_PATH='$work' '$work/banco-tests'"

echo "==> swiftc ($mode) and run"
if [ "$mode" = host ]; then
  bash -c "$compile_and_run" </dev/null
else
  mount_proc
  chroot "$chroot_dir" /bin/bash -c "$compile_and_run" </dev/null
fi
