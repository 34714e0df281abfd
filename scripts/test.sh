#!/usr/bin/env bash
# The README's test command: installs what the tests need and is missing, then runs every test (mvn -B verify).
#
# The tests start real servers from Debian's packages: Redis, PostgreSQL, MariaDB (ServerProbeTest), RabbitMQ and
# NATS (BrokerProbeTest), dnsmasq as the pod's DNS server (PodDnsTest), and wait for each to be ready with its own
# client (redis-cli, pg_isready, mariadb-admin, rabbitmqctl, dig from bind9-dnsutils); the data-plane and DNS tests make network,
# mount and PID namespaces (unshare, nsenter; ip brings their loopback up, ss sees what listens there). grpc-java and Kafka's broker come from Maven Central with the other test dependencies.
# The tests that start the tool as a process run twice: on the JVM and on the native binary, which this script builds
# first with scripts/native.sh (from Maven Central and Debian alone; a few minutes the first time, reused after).
# HandoverProcessTest and ThreadMaskTest need a JDK 22 or later under /usr/lib/jvm beside the build's (these machines have Temurin 25
# there; Debian 12 packages none): without one this script says so before anything runs.
#
#   bash scripts/test.sh                  # everything
#   bash scripts/test.sh -Dtest=DrainCommandTest   # extra arguments go to Maven
set -euo pipefail
cd "$(dirname "$0")/.."

missing=()
command -v redis-server >/dev/null || missing+=(redis-server)
ls /usr/lib/postgresql/*/bin/postgres >/dev/null 2>&1 || missing+=(postgresql)
[ -x /usr/sbin/mariadbd ] || missing+=(mariadb-server)
[ -x /usr/lib/rabbitmq/bin/rabbitmq-server ] || missing+=(rabbitmq-server)
command -v nats-server >/dev/null || missing+=(nats-server)
[ -x /usr/sbin/dnsmasq ] || missing+=(dnsmasq-base)
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
exec mvn -B verify -Dnative.binary=target/sidecar-wait "$@"
