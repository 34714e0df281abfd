#!/usr/bin/env bash
# The README's test command: installs what the tests need and is missing, then runs every test (mvn -B verify).
#
# The tests start real servers from Debian's packages: Redis, PostgreSQL, MariaDB (ServerProbeTest), RabbitMQ and
# NATS (BrokerProbeTest), dnsmasq as the pod's DNS server (PodDnsTest), nginx as a supervised command
# (GracefulStopTest), and wait for each to be ready with its own client (redis-cli, pg_isready, mariadb-admin, rabbitmqctl, dig from bind9-dnsutils); the data-plane and DNS tests make network,
# mount and PID namespaces (unshare, nsenter; ip brings their loopback up, ss sees what listens there). grpc-java and Kafka's broker come from Maven Central with the other test dependencies.
# The tests that start the tool as a process run three times: on the JVM, on the native binary, and on the arm64 native
# binary under qemu-user (all but what emulation cannot show, docs/native.md), the two binaries' runs beside the
# JVM's (two Maven processes at once, below); this script builds both binaries first
# with scripts/native.sh (from Maven Central and Debian alone; a few minutes the first time, reused after) and
# registers qemu-aarch64 with binfmt_misc (scripts/emulation.sh, as root).
# HandoverProcessTest and ThreadMaskTest need a JDK 22 or later under /usr/lib/jvm beside the build's (these machines have Temurin 25
# there; Debian 12 packages none): without one this script says so before anything runs.
#
#   bash scripts/test.sh                  # everything
#   bash scripts/test.sh -Dtest=DrainCommandTest   # extra arguments go to Maven
#
# A process the tests started that is still running once Maven has exited fails the run, named (its environment
# carries this run's SIDECARWAIT_TEST_RUN mark).
set -euo pipefail
cd "$(dirname "$0")/.."

missing=()
command -v redis-server >/dev/null || missing+=(redis-server)
ls /usr/lib/postgresql/*/bin/postgres >/dev/null 2>&1 || missing+=(postgresql)
[ -x /usr/sbin/mariadbd ] || missing+=(mariadb-server)
[ -x /usr/lib/rabbitmq/bin/rabbitmq-server ] || missing+=(rabbitmq-server)
command -v nats-server >/dev/null || missing+=(nats-server)
[ -x /usr/sbin/dnsmasq ] || missing+=(dnsmasq-base)
[ -x /usr/sbin/nginx ] || missing+=(nginx-light)
command -v dig >/dev/null || missing+=(bind9-dnsutils)
command -v unshare >/dev/null || missing+=(util-linux)
command -v ip >/dev/null || [ -x /usr/sbin/ip ] || missing+=(iproute2)
command -v perl >/dev/null || missing+=(perl)

if [ ${#missing[@]} -gt 0 ]; then
  if [ "$(id -u)" -ne 0 ]; then
    echo "scripts/test.sh: the tests need ${missing[*]} (Debian packages); run this as root, or install them first" >&2
    exit 1
  fi
  echo "Installing what the tests need: ${missing[*]} (apt-get)..."
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi

jdk22=""
for jdk in /usr/lib/jvm/*/; do
  major=$(sed -n 's/^JAVA_VERSION="\([0-9]*\).*/\1/p' "$jdk/release" 2>/dev/null || true)
  if [ -n "$major" ] && [ "$major" -ge 22 ] && [ -x "$jdk/bin/javac" ]; then jdk22=$jdk; break; fi
done
if [ -z "$jdk22" ]; then
  echo "scripts/test.sh: HandoverProcessTest and ThreadMaskTest need a JDK 22 or later (with javac) under /usr/lib/jvm, for its foreign" \
    "function API; none is there (Debian 12 packages none: install e.g. Temurin 25 there)" >&2
  exit 1
fi

bash scripts/native.sh
bash scripts/native.sh --arch arm64
bash scripts/emulation.sh  # the arm64 binary runs under qemu-user

# Every process the run starts carries this mark in its environment (the tests pass theirs on); one still running
# once Maven has exited is a leftover of a test that did not end what it started: named, killed, and the run fails.
mark=$(cat /proc/sys/kernel/random/uuid)
# What the system's temporary directory holds before: a test removes what it made there, also when it fails.
tmp_before=$(mktemp)
ls -A /tmp >"$tmp_before"
# Two lanes at once, each its own Maven: every test on the JVM (mvn verify), and beside it the process-level tests on
# the amd64 binary, then on the arm64 binary under qemu-user: all but what emulation cannot show, each left out by
# the tag that names qemu's reason (QemuUserTest, which runs only there, proves each reason is qemu's). Most of a
# process test is waiting on a deadline, so the lanes share two cores well: 33 minutes one after the other, under 25
# side by side (docs/development.md). The classes were compiled by native.sh's package, so neither lane compiles.
# The binaries' lane writes to its own log, shown once it has ended; either lane failing fails the run.
SIDECARWAIT_TEST_RUN=$mark mvn -B -q test-compile
binaries_log=target/test-binaries.log
(
  SIDECARWAIT_TEST_RUN=$mark mvn -B surefire:test@native-binary -Dnative.binary=target/sidecar-wait \
    -Dsurefire.failIfNoSpecifiedTests=false "$@" &&
  SIDECARWAIT_TEST_RUN=$mark mvn -B surefire:test@native-binary -Dnative.binary=target/arm64/sidecar-wait \
    -Dnative.report=native-binary-arm64 -Dsurefire.failIfNoSpecifiedTests=false \
    -Dnative.excluded=jvm-only,qemu-renumbers-real-time-signals,qemu-resets-ignored-signals-at-exec,qemu-ignores-madvise-pageout "$@"
) >"$binaries_log" 2>&1 &
binaries=$!
status=0
SIDECARWAIT_TEST_RUN=$mark mvn -B verify "$@" || status=$?
binaries_status=0
wait "$binaries" || binaries_status=$?
echo "--- the process-level tests on the amd64 binary, then the arm64 binary under qemu-user ($binaries_log):"
cat "$binaries_log"
[ "$status" -ne 0 ] || status=$binaries_status

marked() {
  for environ in /proc/[0-9]*/environ; do
    if grep -qzx "SIDECARWAIT_TEST_RUN=$mark" "$environ" 2>/dev/null; then  # -z: the entries end in NUL
      pid=${environ#/proc/}; echo "${pid%/environ}"
    fi
  done
}
for _ in $(seq 50); do  # a process may still be on its way out: 10 s at most
  left=$(marked)
  [ -z "$left" ] && break
  sleep 0.2
done
if [ -n "$left" ]; then
  echo "scripts/test.sh: the tests left these processes running (now killed):" >&2
  for pid in $left; do
    echo "  pid $pid (parent $(awk '{print $4}' "/proc/$pid/stat" 2>/dev/null)): $({ tr '\0' ' ' < "/proc/$pid/cmdline"; } 2>/dev/null)" >&2
    kill -KILL "$pid" 2>/dev/null || true
  done
  [ "$status" -ne 0 ] || status=1
fi
left_in_tmp=$(ls -A /tmp | grep -vxFf "$tmp_before" | grep -v '^hsperfdata_' || true)
rm -f "$tmp_before"
if [ -n "$left_in_tmp" ]; then
  echo "scripts/test.sh: the tests left these in /tmp (now removed):" $left_in_tmp >&2
  for entry in $left_in_tmp; do rm -rf "/tmp/${entry:?}"; done
  [ "$status" -ne 0 ] || status=1
fi
exit "$status"
