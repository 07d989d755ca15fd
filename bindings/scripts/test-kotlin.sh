#!/usr/bin/env bash
# Compiles the generated Kotlin bindings with the tests in bindings/kotlin/ and runs them on
# the JVM against the host-built library. Last line: `N passed, M failed`.
#
#   test-kotlin.sh              provision if needed, generate, compile, run
#   test-kotlin.sh --provision  only make sure the toolchain is there
#
# Provisions what it lacks, non-interactively (CI runs it as root):
#   kotlinc  from PATH, else the npm registry's `kotlin-compiler` into $BANCO_CACHE/kotlin
#   JNA      /usr/share/java/jna.jar, else Debian's libjna-java (apt-get, as root)
#   java     a JRE 17+ on PATH, else Debian's default-jre-headless
set -euo pipefail
cd "$(dirname "$0")/../.."
root="$PWD"
target="${CARGO_TARGET_DIR:-$root/target}"
cache="${BANCO_CACHE:-${XDG_CACHE_HOME:-${HOME:-/root}/.cache}/banco}"
kotlin_version="2.4.20"

apt_updated=""
apt_install() {
  if [ "$(id -u)" != 0 ]; then
    echo "test-kotlin: need $* but not root; install it (apt-get install $*) and re-run" >&2
    exit 1
  fi
  if [ -z "$apt_updated" ]; then
    DEBIAN_FRONTEND=noninteractive apt-get update -qq
    apt_updated=1
  fi
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "$@" >/dev/null
}

command -v java >/dev/null 2>&1 || apt_install default-jre-headless

if command -v kotlinc >/dev/null 2>&1; then
  kotlinc=kotlinc
else
  kdir="$cache/kotlin-$kotlin_version"
  kotlinc="$kdir/node_modules/kotlin-compiler/bin/kotlinc"
  if [ ! -x "$kotlinc" ]; then
    command -v npm >/dev/null 2>&1 || apt_install npm
    echo "==> npm install kotlin-compiler@$kotlin_version into $kdir"
    mkdir -p "$kdir"
    npm install --prefix "$kdir" --no-audit --no-fund --loglevel=error "kotlin-compiler@$kotlin_version" </dev/null
    chmod +x "$kdir"/node_modules/kotlin-compiler/bin/* 2>/dev/null || true
  fi
fi

jna=/usr/share/java/jna.jar
[ -f "$jna" ] || apt_install libjna-java
[ -f "$jna" ] || { echo "test-kotlin: $jna still missing after installing libjna-java" >&2; exit 1; }
[ "${1:-}" = "--provision" ] && { "$kotlinc" -version 2>&1 | tail -1; exit 0; }

bash bindings/scripts/generate.sh
gen="$target/bindings"
build="$gen/kotlin-test"
rm -rf "$build"
mkdir -p "$build"

"$kotlinc" -version 2>&1 | tail -1
bindings_jar="$(bash bindings/scripts/kotlin-bindings-jar.sh "$kotlinc" "$jna")"
echo "==> kotlinc (bindings/kotlin/*.kt against $bindings_jar)"
"$kotlinc" -nowarn -cp "$jna:$bindings_jar" -include-runtime -d "$build/tests.jar" \
  bindings/kotlin/*.kt 2>&1 | grep -v '^warning:' || true
[ -f "$build/tests.jar" ] || { echo "test-kotlin: compilation failed" >&2; exit 1; }

echo "==> java (library from $gen/lib)"
exec java -Djna.library.path="$gen/lib" -cp "$build/tests.jar:$bindings_jar:$jna" \
  org.banco.tests.MainKt </dev/null
