#!/usr/bin/env bash
# Fuzzes every reader of outside input (each @FuzzTest method) for a bounded time, one target a run: Jazzer's
# fuzzing mode takes one fuzz test per JVM. Each JVM runs its target through the JUnit Platform directly
# (dev.sidecarwait.OneFuzzTarget, the test class path resolved once): a Maven run per target cost more than the
# fuzzing. A finding fails the run; Jazzer saves the input that caused it next to the target's seeds
# (src/test/resources/.../<Class>Inputs/<method>/), where `mvn verify` replays it for good once it is committed
# with its fix.
#
#   bash scripts/fuzz.sh                                          # every target, 15 s each (.ci/run gives 5 s)
#   FUZZ_PARALLEL=1 bash scripts/fuzz.sh 2m                       # one target at a time (default: one per core)
#   bash scripts/fuzz.sh 10m GrpcReadersFuzzTest#grpcAnswer       # one target, longer
set -euo pipefail
cd "$(dirname "$0")/.."

duration=${1:-15s}
shift || true
targets=("$@")
if [ ${#targets[@]} -eq 0 ]; then
  mapfile -t targets < <(grep -rl --include='*FuzzTest.java' '@FuzzTest' src/test/java | sort | while read -r file; do
    class=$(basename "$file" .java)
    awk -v class="$class" '/@FuzzTest/ { want = 1; next }
      want && match($0, /void [A-Za-z0-9_]+\(/) { print class "#" substr($0, RSTART + 5, RLENGTH - 6); want = 0 }' "$file"
  done)
fi

mvn -B -q test-compile
mvn -B -q -o dependency:build-classpath -Dmdep.includeScope=test -Dmdep.outputFile=target/fuzz-classpath.txt >/dev/null
classpath="target/test-classes:target/classes:$(cat target/fuzz-classpath.txt)"
# On two cores, G1's and C2's threads compete with the fuzzer: a run of 5 s took 24 s with the JVM's defaults and
# 16 s with these, fuzzing faster too (191,214 inputs against 162,169). FUZZ_JAVA_OPTS replaces them (a long run: "").
java_options=${FUZZ_JAVA_OPTS--XX:+UseSerialGC -XX:TieredStopAtLevel=1}
# One target per core at a time: each JVM is one thread of fuzzing (serial GC, C1), and half of a run is its start-up
# (the JVM, Jazzer's agent, the JUnit Platform), so two at once on two cores take half the time for the same fuzzing.
parallel=${FUZZ_PARALLEL:-$(nproc)}
results=target/fuzz-results
rm -rf "$results" && mkdir -p "$results"
fuzz_one() {
  local target=$1 start file class log
  start=$(date +%s)
  file=$(grep -rl --include="${target%%#*}.java" "@FuzzTest" src/test/java | head -1)
  class=${file#src/test/java/}
  class=${class%.java}
  log="target/fuzz-${target//#/-}.log"
  # shellcheck disable=SC2086 # the options are words
  if JAZZER_FUZZ=1 java $java_options -Djazzer.max_duration="$duration" -cp "$classpath" dev.sidecarwait.OneFuzzTarget \
      "${class//\//.}#${target#*#}" >"$log" 2>&1; then
    echo "fuzzed $target for $duration: no finding ($(($(date +%s) - start)) s)"
  else
    echo "FINDING in $target: see $log; the input is saved under src/test/resources" >&2
    grep -E "Exception|Error|crash-" "$log" | head -5 >&2 || true
    touch "$results/${target//#/-}.failed"
  fi
}
for target in "${targets[@]}"; do
  while [ "$(jobs -rp | wc -l)" -ge "$parallel" ]; do
    wait -n || true
  done
  fuzz_one "$target" &
done
wait
failed=()
for target in "${targets[@]}"; do
  [ ! -e "$results/${target//#/-}.failed" ] || failed+=("$target")
done
if [ ${#failed[@]} -gt 0 ]; then
  echo "fuzzing found a problem in: ${failed[*]}" >&2
  exit 1
fi
echo "fuzzed ${#targets[@]} targets, ${duration} each: no finding"
