#!/usr/bin/env bash
# What TLS costs a wait: one ready wait and its peak RSS, http:// against https:// on the same nginx (Debian's) on
# loopback, for each given build; a CA and a certificate made by openssl for the run. RUNS runs each (default 30),
# medians with min and max, after a warm-up (hyperfine for the time, /usr/bin/time for the peak RSS).
#
#   bash scripts/bench-tls.sh                                        # target/sidecar-wait and the jar
#   bash scripts/bench-tls.sh target/sidecar-wait target/arm64/sidecar-wait
#
# Writes target/bench/tls.md. Under qemu-user (an arm64 binary here) the time is the emulator's, not a node's.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
runs=${RUNS:-30}
out=target/bench/tls
mkdir -p "$out/logs"
missing=()
for tool in nginx:nginx hyperfine:hyperfine openssl:openssl; do command -v "${tool%%:*}" >/dev/null || missing+=("${tool#*:}"); done
[ -x /usr/bin/time ] || missing+=(time)
if ((${#missing[@]})); then
  echo "Installing ${missing[*]} from Debian's packages..." >&2
  apt-get update -qq >/dev/null && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}" >/dev/null
fi
[ -f target/sidecar-wait.jar ] || mvn -B -q package -DskipTests
builds=("$@")
[ ${#builds[@]} -gt 0 ] || builds=(target/sidecar-wait target/sidecar-wait.jar)

bash scripts/localhost-ca.sh "$out"
plain=${BENCH_PORT:-18199}
tls=$((plain + 1))
cat > "$out/nginx.conf" <<CONF
worker_processes 1;
pid $root/$out/nginx.pid;
error_log $root/$out/logs/error.log warn;
events { worker_connections 256; }
http {
  access_log off;
  server { listen 127.0.0.1:$plain; location / { return 200 "ready\n"; } }
  server {
    listen 127.0.0.1:$tls ssl;
    ssl_certificate $root/$out/server.crt;
    ssl_certificate_key $root/$out/server.key;
    location / { return 200 "ready\n"; }
  }
}
CONF
nginx -p "$root/$out" -c "$root/$out/nginx.conf" -g "user $(id -un) $(id -gn);" 2>/dev/null || nginx -p "$root/$out" -c "$root/$out/nginx.conf"
trap 'nginx -p "$root/$out" -c "$root/$out/nginx.conf" -s stop 2>/dev/null || true' EXIT
sleep 0.3

run_of() {  # the command line of a build
  case $1 in *.jar) echo "java -jar $1" ;; *) echo "$1" ;; esac
}
peak_rss() {  # median, min, max of the peak RSS in MiB over RUNS runs
  local command=$1 i
  for ((i = 0; i < runs; i++)); do
    /usr/bin/time -f %M $command 2>&1 >/dev/null | tail -1
  done | sort -n | awk '{ a[NR] = $1 / 1024 } END { m = (NR % 2) ? a[(NR + 1) / 2] : (a[NR / 2] + a[NR / 2 + 1]) / 2
    printf "%.1f (%.1f-%.1f)", m, a[1], a[NR] }'
}
{
  echo "| build | target | one ready wait, ms: median (min-max) | peak RSS, MiB: median (min-max) |"
  echo "|---|---|---|---|"
  for build in "${builds[@]}"; do
    base=$(run_of "$build")
    for url in "http://127.0.0.1:$plain/" "https://localhost:$tls/"; do
      command="$base wait -q --url $url --timeout 30s"
      [ "${url%%:*}" = http ] || command="$command --cacert $root/$out/ca.crt"
      hyperfine -N -w 3 -r "$runs" --export-csv "$out/run.csv" "$command" >/dev/null
      time=$(awk -F, 'NR == 2 { printf "%.1f (%.1f-%.1f)", $4 * 1000, $7 * 1000, $8 * 1000 }' "$out/run.csv")
      echo "| $build | ${url%%:*}:// | $time | $(peak_rss "$command") |"
    done
  done
} | tee "$out.md"
