#!/usr/bin/env bash
# What pods waiting on one Job cost the API server: sidecar-wait's k8s:// wait against kubectl wait, each request
# counted by the tests' API server (fabric8's Kubernetes mock behind its TLS front, servers/KubeApi). PODS processes of
# each (default 20) start at once and the Job completes RUNNING_SECONDS later (default 10); then what each does when
# the Job is not there. src/test/java/dev/sidecarwait/kube/ApiLoadBench.java runs it.
#
#   bash scripts/bench-kube.sh                                  # target/sidecar-wait (else the jar), kubectl from PATH
#   KUBECTL=/usr/lib/google-cloud-sdk/bin/kubectl.1.33 bash scripts/bench-kube.sh target/sidecar-wait.jar
#
# Writes target/bench/kube.md. Debian 12 ships no kubectl of a supported version: give one with KUBECTL. Google Cloud
# SDK's `kubectl` is a dispatcher that asks the server's /version before it runs the kubectl beside it
# (kubectl.1.33): name that one to count kubectl alone.
set -euo pipefail
cd "$(dirname "$0")/.."
pods=${PODS:-20}
running=${RUNNING_SECONDS:-10}
kubectl=${KUBECTL:-$(command -v kubectl || true)}
if [ -z "$kubectl" ]; then
  echo "bench-kube.sh: no kubectl on PATH; set KUBECTL=/path/to/kubectl" >&2
  exit 2
fi
build=${1:-target/sidecar-wait}
[ -f target/sidecar-wait.jar ] || mvn -B -q package -DskipTests
case $build in
  *.jar) ;;
  *) [ -x "$build" ] || build=target/sidecar-wait.jar ;;
esac
mvn -B -q test-compile
mvn -B -q dependency:build-classpath -Dmdep.includeScope=test -Dmdep.outputFile=target/bench-classpath.txt >/dev/null
mkdir -p target/bench
echo "$build against $("$kubectl" version --client 2>/dev/null | head -1) ($kubectl), $pods pods, $running s"
java -cp "target/test-classes:target/classes:$(cat target/bench-classpath.txt)" dev.sidecarwait.kube.ApiLoadBench \
  "$pods" "$running" "$build" "$kubectl" target/bench/kube.md
