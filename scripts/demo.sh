#!/usr/bin/env bash
# Replays the seeds' incident on one machine, no cluster: an app that loads its configuration through the
# pod's proxy as it starts, and a proxy that needs a few seconds to get its configuration from the control
# plane. First without a wait (the app fails: connection refused, the pod would crash-loop), then with
# sidecar-wait as the app's entrypoint (the app starts cleanly). Then a dependency through the proxy: a
# tcp:// check is fooled by the proxy's listener, redis:// waits for Redis itself. Exit 0 when all turn out
# as described.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"

status_port=${DEMO_STATUS_PORT:-25020}  # the proxy's readiness port (Istio: 15020 or 15021)
outbound_port=${DEMO_OUTBOUND_PORT:-25001}  # where the app's outbound traffic goes (Istio: 15001, via iptables)
config_port=${DEMO_CONFIG_PORT:-28888}  # the config server, outside the pod
proxy_delay_ms=${DEMO_PROXY_DELAY_MS:-3000}
redis_proxy_port=${DEMO_REDIS_PROXY_PORT:-26379}  # the proxy's listener for Redis traffic (Envoy: outbound, via iptables)
redis_port=${DEMO_REDIS_PORT:-26380}  # Redis itself, outside the pod
redis_delay_s=${DEMO_REDIS_DELAY_S:-2}

if [ ! -f target/sidecar-wait.jar ]; then
  echo "Building sidecar-wait (mvn -B package -DskipTests; the first build also downloads Maven's plugins, a minute or so):"
  mvn -B -ntp package -DskipTests | grep --line-buffered -E '^\[INFO\] (--- |BUILD)|^\[(ERROR|WARNING)\]' \
    | sed -u 's/^\[INFO\] /  /'
fi
mkdir -p target/demo
javac -d target/demo scripts/demo/Pod.java
pod=(java -XX:TieredStopAtLevel=1 -cp target/demo Pod)

exec 3>&1  # the terminal, for the wrapper's stamped log lines while its stdout is the app's
pids=()
cleanup() {
  for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done
  wait "${pids[@]}" 2>/dev/null || true  # their last lines come before the script ends
}
trap cleanup EXIT

start=$(date +%s%N)
stamp() {
  local who=$1 line ms
  while IFS= read -r line; do
    ms=$(( ($(date +%s%N) - start) / 1000000 ))
    printf '[+%2d.%03ds] %-13s %s\n' $((ms / 1000)) $((ms % 1000)) "$who" "$line"
  done
}
start_proxy() {
  "${pod[@]}" proxy "$status_port" "$outbound_port" "$config_port" "$proxy_delay_ms" > >(stamp istio-proxy) 2>&1 &
  proxy_pid=$!
  pids+=("$proxy_pid")
  sleep 0.5  # kubelet starts the next container once the proxy's has started, not once it is ready
}
stop_proxy() { kill "$proxy_pid" 2>/dev/null || true; wait "$proxy_pid" 2>/dev/null || true; sleep 0.2; }

"${pod[@]}" config-server "$config_port" > >(stamp config-server) 2>&1 &
pids+=("$!")
sleep 1

echo
echo "=== 1. Without sidecar-wait: the app container starts as soon as the proxy container has started ==="
start=$(date +%s%N)
start_proxy
set +e
"${pod[@]}" app "$outbound_port" 2>&1 | stamp awesome-app
without=${PIPESTATUS[0]}
set -e
echo "    app exit code: $without"
stop_proxy

echo
echo "=== 2. With sidecar-wait as the app container's entrypoint: the app is held until the proxy is ready ==="
echo "    args: [\"sidecar-wait\", \"wait\", \"--timeout\", \"30s\", \"--\", \"start-app\"]"
start=$(date +%s%N)
start_proxy
set +e
scripts/sidecar-wait wait --url "http://localhost:$status_port/healthz/ready" --timeout 30s --period 250ms --verbose \
  -- "${pod[@]}" app "$outbound_port" 2> >(stamp sidecar-wait >&3) | stamp awesome-app
with=${PIPESTATUS[0]}
set -e
sleep 0.1  # let the last stderr line through its stamp
echo "    exit code (the app's own, passed through): $with"
stop_proxy

echo
echo "=== 3. Waiting for Redis through the proxy: tcp:// is fooled by the proxy, redis:// is not ==="
echo "    The proxy accepts every connection and closes it while Redis is down, as Envoy does."
start=$(date +%s%N)
"${pod[@]}" tcp-proxy "$redis_proxy_port" "$redis_port" > >(stamp istio-proxy) 2>&1 &
redis_proxy_pid=$!
pids+=("$redis_proxy_pid")
sleep 0.5
set +e
scripts/sidecar-wait check --admin-url none --url "tcp://localhost:$redis_proxy_port" \
  --url "redis://localhost:$redis_proxy_port" | stamp check
check_code=${PIPESTATUS[0]}
set -e
echo "    check exit code: $check_code (tcp:// says ready; redis:// knows better)"
(
  sleep "$redis_delay_s"
  if command -v redis-server >/dev/null; then
    exec redis-server --port "$redis_port" --bind 127.0.0.1 --save '' --appendonly no --loglevel warning
  else
    exec "${pod[@]}" redis-stand-in "$redis_port"
  fi
) > >(stamp redis) 2>&1 &
redis_pid=$!
pids+=("$redis_pid")
echo "    Redis starts in ${redis_delay_s}s; meanwhile: sidecar-wait wait --url redis://localhost:$redis_proxy_port"
set +e
scripts/sidecar-wait wait --url "redis://localhost:$redis_proxy_port" --admin-url none --timeout 30s --verbose \
  2> >(stamp sidecar-wait >&3)
redis_wait=$?
set -e
sleep 0.1
echo "    wait exit code: $redis_wait"
kill "$redis_pid" "$redis_proxy_pid" 2>/dev/null || true
wait "$redis_pid" "$redis_proxy_pid" 2>/dev/null || true
sleep 0.2

echo
if [ "$without" -ne 0 ] && [ "$with" -eq 0 ] && [ "$check_code" -eq 1 ] && [ "$redis_wait" -eq 0 ]; then
  echo "Result: without the wait the app failed at start (exit $without); held by sidecar-wait it started cleanly."
  echo "        Through the proxy, tcp:// said ready while Redis was down; redis:// waited until Redis answered PONG."
else
  echo "Result: unexpected (without the wait: exit $without; with it: exit $with; check: $check_code;" \
    "redis wait: $redis_wait)." >&2
  exit 1
fi
