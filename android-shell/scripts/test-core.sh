#!/usr/bin/env bash
# Compiles android-shell/core (the app's UI logic, no Android imports) with its tests and the
# generated Kotlin bindings, using the binding tests' toolchain (kotlinc from npm, JNA from
# Debian, Java 17), and runs them on the JVM against the host-built library.
# Last line: `N passed, M failed`; exit code 1 if any failed.
#
# BANCO_SKIP_GENERATE=1 reuses target/bindings/ when it is there (tests/run.sh has just
# generated it for the binding tests).
set -euo pipefail
cd "$(dirname "$0")/../.."
root="$PWD"
# shellcheck source=toolchain.sh
. android-shell/scripts/toolchain.sh

kotlinc="$(banco_kotlinc)"
jna="$(banco_jna)"
banco_generate
gen="$banco_target/bindings"
build="$banco_target/android-shell-core"
rm -rf "$build"
mkdir -p "$build"

bindings_jar="$(bash bindings/scripts/kotlin-bindings-jar.sh "$kotlinc" "$jna")"
echo "==> kotlinc (android-shell/core main and test sources against $bindings_jar)"
"$kotlinc" -nowarn -cp "$jna:$bindings_jar" -include-runtime -d "$build/core-tests.jar" \
  $(find android-shell/core/src/main/kotlin android-shell/core/src/test/kotlin -name '*.kt' | sort) \
  2>&1 | grep -v '^warning:' || true
[ -f "$build/core-tests.jar" ] || { echo "test-core: compilation failed" >&2; exit 1; }

echo "==> java (library from $gen/lib)"
exec java -Djna.library.path="$gen/lib" -cp "$build/core-tests.jar:$bindings_jar:$jna" \
  org.banco.shell.tests.MainKt </dev/null
