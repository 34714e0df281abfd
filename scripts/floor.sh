#!/usr/bin/env bash
# The floor under the native binary's file: what GraalVM makes, with this project's builder, C libraries and options
# (scripts/native.sh, native/native-image.properties), of programs that do next to nothing (native/floor/):
#   Hello         prints one line; built three times: with the builder's defaults (native/floor/defaults.properties),
#                 with -Os and a CPU any node has (size.properties), and with the tool's options
#   HelloPicocli  and parses two options and --help with picocli
#   HelloJdk      and opens a TCP connection, reads a file, takes a signal, runs a command, formats a string, fills a
#                 map and matches a regular expression: the JDK a wait and the wrapper cannot do without
# Each is run once, then its figures are printed beside the tool's (target/native's last build, if any).
#   bash scripts/floor.sh [--arch amd64|arm64]    # five builds, one to two minutes each
set -euo pipefail
cd "$(dirname "$0")/.."
arch=amd64
case "${1:-}" in
  "") ;;
  --arch) arch=${2:-} ;;
  --arch=*) arch=${1#--arch=} ;;
  *) echo "floor.sh: unknown argument '$1' (usage: floor.sh [--arch amd64|arm64])" >&2; exit 2 ;;
esac
case $arch in amd64) tool=target/native ;; arm64) tool=target/native-arm64 ;;
  *) echo "floor.sh: --arch: '$arch' is not amd64 or arm64" >&2; exit 2 ;; esac

rm -rf target/floor && mkdir -p target/floor/classes
mvn -B -q dependency:build-classpath -DincludeArtifactIds=picocli -Dmdep.outputFile=target/floor/classpath
javac --release 17 -nowarn -cp "$(cat target/floor/classpath)" -d target/floor/classes native/floor/*.java 2> target/floor/javac.log \
  || { cat target/floor/javac.log >&2; exit 1; }  # (it warns of sun.misc.Signal, which the tool uses too)
jar cf target/floor/floor.jar -C target/floor/classes .

figures() {  # DIR: file, code, heap, types and methods of the build there, from native.sh's figures
  local f=$1/figures.txt
  printf '%12s %12s %12s %7s %8s' "$(sed -n 's/^file.bytes=\([0-9]*\).*/\1/p' "$f")" \
    "$(sed -n 's/^code.area.bytes=//p' "$f")" "$(sed -n 's/^image.heap.bytes=//p' "$f")" \
    "$(sed -n 's/^reachable.types=//p' "$f")" "$(sed -n 's/^reachable.methods=\([0-9]*\).*/\1/p' "$f")"
}
rows=()
build() {  # PROGRAM PROPERTIES LABEL ARGS...: build it, run it once with ARGS, keep its row
  local program=$1 properties=$2 label=$3; shift 3
  SIDECAR_WAIT_NATIVE_FLOOR=$program SIDECAR_WAIT_NATIVE_PROPERTIES=$properties bash scripts/native.sh --arch "$arch" \
    > "target/floor/$program-$label.log" 2>&1 \
    || { tail -20 "target/floor/$program-$label.log" >&2; echo "floor.sh: $program did not build" >&2; exit 1; }
  local out=target/floor/$program-$arch
  "$out/$program" "$@" > "target/floor/$program-$label.out" 2>&1 \
    || { cat "target/floor/$program-$label.out" >&2; echo "floor.sh: $program did not run" >&2; exit 1; }
  rows+=("$(printf '%-14s %-10s ' "$program" "$label")$(figures "$out")")
  rm -rf "$out.$label" && mv "$out" "$out.$label"
}
build Hello native/floor/defaults.properties defaults
build Hello native/floor/size.properties -Os
build Hello native/native-image.properties tool
build HelloPicocli native/native-image.properties tool --url http://localhost/
build HelloJdk native/native-image.properties tool true
printf '%-14s %-10s %12s %12s %12s %7s %8s\n' "linux/$arch" options "file, bytes" "code area" "image heap" types methods
printf '%s\n' "${rows[@]}"
if [ -f "$tool/figures.txt" ]; then printf '%-14s %-10s %s\n' sidecar-wait tool "$(figures "$tool")"; fi
