# Sourced by the shell test scripts (android-shell/scripts/test-core.sh,
# ios-shell/scripts/test.sh): locates the same cached toolchains as the binding tests, and
# provisions them through those scripts' own logic when missing. Expects $root (repo root).
#
#   banco_kotlinc     echo a kotlinc (PATH, else $BANCO_CACHE/kotlin-<version> from npm, the
#                     version test-kotlin.sh pins); installs it the way test-kotlin.sh does
#   banco_jna         echo the JNA jar (Debian libjna-java)
#   banco_swift_mode  echo "host" (swiftc on PATH) or "chroot" (after test-swift.sh --provision)
#   banco_generate    bindings/scripts/generate.sh, unless BANCO_SKIP_GENERATE=1 and the
#                     generated files are there

banco_target="${CARGO_TARGET_DIR:-$root/target}"
banco_cache="${BANCO_CACHE:-${XDG_CACHE_HOME:-${HOME:-/root}/.cache}/banco}"
banco_chroot="${BANCO_SWIFT_CHROOT:-/var/cache/banco/swift-chroot}"

banco_apt() {
  if [ "$(id -u)" != 0 ]; then
    echo "need $* but not root; install it (apt-get install $*) and re-run" >&2
    return 1
  fi
  DEBIAN_FRONTEND=noninteractive apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "$@" >/dev/null
}

banco_kotlinc() {
  if command -v kotlinc >/dev/null 2>&1; then
    echo kotlinc
    return
  fi
  local version
  version="$(sed -n 's/^kotlin_version="\(.*\)"$/\1/p' "$root/bindings/scripts/test-kotlin.sh")"
  version="${version:-2.4.20}"
  local kdir="$banco_cache/kotlin-$version"
  local kotlinc="$kdir/node_modules/kotlin-compiler/bin/kotlinc"
  if [ ! -x "$kotlinc" ]; then
    command -v npm >/dev/null 2>&1 || banco_apt npm >&2
    echo "==> npm install kotlin-compiler@$version into $kdir" >&2
    mkdir -p "$kdir"
    npm install --prefix "$kdir" --no-audit --no-fund --loglevel=error "kotlin-compiler@$version" </dev/null >&2
    chmod +x "$kdir"/node_modules/kotlin-compiler/bin/* 2>/dev/null || true
  fi
  command -v java >/dev/null 2>&1 || banco_apt default-jre-headless >&2
  echo "$kotlinc"
}

banco_jna() {
  local jna=/usr/share/java/jna.jar
  [ -f "$jna" ] || banco_apt libjna-java >&2
  [ -f "$jna" ] || { echo "JNA: $jna still missing after installing libjna-java" >&2; return 1; }
  echo "$jna"
}

banco_swift_mode() {
  if command -v swiftc >/dev/null 2>&1; then
    echo host
  else
    BANCO_SWIFT_CHROOT="$banco_chroot" bash "$root/bindings/scripts/test-swift.sh" --provision >&2
    echo chroot
  fi
}

banco_generate() {
  local gen="$banco_target/bindings"
  if [ "${BANCO_SKIP_GENERATE:-}" = 1 ] && ls "$gen"/kotlin/org/banco/*.kt >/dev/null 2>&1 && [ -f "$gen/swift/Banco.swift" ]; then
    return
  fi
  bash "$root/bindings/scripts/generate.sh" >&2
}
