#!/usr/bin/env bash
# Compiles the generated Kotlin bindings (target/bindings/kotlin) once into
# target/bindings/kotlin-bindings.jar and prints its path. The binding tests and the Android
# shell's core tests both compile against that jar instead of compiling the ~20,000 generated
# lines each (about a minute of kotlinc apiece on a 2-core machine). The jar is rebuilt when
# the generated sources change (a SHA-256 stamp beside it).
#
#   kotlin-bindings-jar.sh KOTLINC JNA_JAR
set -euo pipefail
cd "$(dirname "$0")/../.."
kotlinc="$1"
jna="$2"
gen="${CARGO_TARGET_DIR:-$PWD/target}/bindings"
jar="$gen/kotlin-bindings.jar"
stamp="$jar.sha256"
sources=("$gen"/kotlin/org/banco/*.kt)
sum="$(cat "${sources[@]}" | sha256sum | cut -d' ' -f1)"
if [ -f "$jar" ] && [ "$(cat "$stamp" 2>/dev/null)" = "$sum" ]; then
  echo "$jar"
  exit 0
fi
rm -f "$jar" "$stamp"
echo "==> kotlinc (generated bindings -> $jar)" >&2
"$kotlinc" -nowarn -cp "$jna" -d "$jar" "${sources[@]}" 2>&1 | grep -v '^warning:' >&2 || true
[ -f "$jar" ] || { echo "kotlin-bindings-jar: compilation failed" >&2; exit 1; }
echo "$sum" >"$stamp"
echo "$jar"
