#!/usr/bin/env bash
# What a wait costs: sidecar-wait side by side with what people use today, on this machine.
#
#   bash scripts/bench.sh            # about six minutes; RUNS=9 for steadier medians
#   bash scripts/bench.sh targets    # only what one more target costs (about a minute)
#   bash scripts/bench.sh binaries A B ...   # native binaries side by side: file size, one ready wait (hyperfine),
#                                            # its peak RSS, start to first probe, an https:// wait's peak RSS;
#                                            # RUNS (default 30) runs each; 10 s
#                                            # waits on a 503 over http and https: peak RSS, CPU (3 runs); and the
#                                            # supervising wrapper while its command runs: RSS, Private_Dirty,
#                                            # threads (5 runs). About 6 minutes for two binaries.
#
# Compared: sidecar-wait as shipped (the native binary itself when built, else scripts/sidecar-wait: the jar with the
# launcher's JVM options and class-data cache), the bare jar on a default JVM, the seeds' curl loop, and one
# curl request (the floor of what one probe can cost). The readiness endpoint is a real nginx from Debian's
# packages; it answers 200 while a file exists and 503 otherwise, the switch the test flips. Start to first probe is
# timed against a listener of its own (a few lines of python3) that notes each accept to the microsecond.
# Figures are medians of RUNS runs after a warm-up, with min and max. Writes target/bench/results.md and
# target/bench/results.png; the last line printed is a one-line summary with the ratios to the curl loop.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"

runs=${RUNS:-5}
[ "${1:-}" = binaries ] && runs=${RUNS:-30}
port=${BENCH_PORT:-18099}
out=target/bench
mkdir -p "$out"
rm -f "$out"/*.tsv

need() {
  local missing=()
  for tool in "$@"; do command -v "${tool%%:*}" >/dev/null || missing+=("${tool#*:}"); done
  if ((${#missing[@]})); then
    echo "Installing ${missing[*]} from Debian's packages..." >&2
    apt-get update -qq >/dev/null && apt-get install -y -qq "${missing[@]}" >/dev/null
  fi
}
need nginx:nginx curl:curl gnuplot:gnuplot-nox socat:socat openssl:openssl python3:python3-minimal
[ -x /usr/bin/time ] || need /usr/bin/time:time
if [ ! -f target/sidecar-wait.jar ]; then mvn -B -q package -DskipTests; fi

# --- the readiness endpoint: nginx, ready while $out/ready exists, over http and https (a CA made for the run) ---
ngx="$root/$out/nginx"
mkdir -p "$ngx/logs"
bash scripts/localhost-ca.sh "$ngx"
cat > "$ngx/nginx.conf" <<CONF
worker_processes 1;
pid $ngx/nginx.pid;
error_log $ngx/logs/error.log warn;
events { worker_connections 256; }
http {
  access_log off;
  server {
    listen 127.0.0.1:$port;
    listen 127.0.0.1:$((port + 1)) ssl;
    ssl_certificate $ngx/server.crt;
    ssl_certificate_key $ngx/server.key;
    location /healthz/ready {
      if (-f $root/$out/ready) { return 200 "ready\n"; }
      return 503 "not ready\n";
    }
  }
}
CONF
nginx -p "$ngx" -c "$ngx/nginx.conf" -g "user $(id -un) $(id -gn);" 2>/dev/null || nginx -p "$ngx" -c "$ngx/nginx.conf"
# --- the first probe's arrival, to the microsecond (nginx's log has whole milliseconds): a listener that notes the
#     time each connection is accepted and the request's path, and answers 200
python3 -u -c '
import socket, sys, time
s = socket.socket(); s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
s.bind(("127.0.0.1", int(sys.argv[1]))); s.listen(64)
while True:
    c, _ = s.accept(); t = time.time_ns() // 1000
    line = c.recv(4096).split(b" ")
    c.sendall(b"HTTP/1.1 200 OK\r\nContent-Length: 0\r\nConnection: close\r\n\r\n"); c.close()
    print(t, line[1].decode("ascii", "replace") if len(line) > 1 else "-")
' "$((port + 2))" > "$out/accepts.log" &
listener=$!
# on any ending, a failed step's too: nginx stopped, and whatever the steps left running in the background (the
# targets step's socat listeners held their ports for half an hour after a run that failed)
trap 'nginx -p "$ngx" -c "$ngx/nginx.conf" -s stop 2>/dev/null || true; rm -f "$out/ready"; kill $(jobs -p) 2>/dev/null || true' EXIT
sleep 0.3
kill -0 "$listener" 2>/dev/null || { echo "bench: the first-probe listener did not start on port $((port + 2))" >&2; exit 1; }
url="http://127.0.0.1:$port/healthz/ready"
stamped_url="http://127.0.0.1:$((port + 2))/healthz/ready"
https_url="https://localhost:$((port + 1))/healthz/ready --cacert $ngx/ca.crt"
ready() { touch "$out/ready"; }
unready() { rm -f "$out/ready"; }
now_us() { echo "${EPOCHREALTIME/./}"; }

# --- what is compared -----------------------------------------------------------------------------------
# the native binary is run as a pod runs it, itself; the launcher's sh in front of it took about 1.7 ms a start
shipped_label="sidecar-wait (jar + launcher)" shipped_command=scripts/sidecar-wait
[ -x target/sidecar-wait ] && shipped_label="sidecar-wait (native)" shipped_command=target/sidecar-wait
variants=("shipped" "bare-jar" "curl-loop" "curl-once")
label() {
  case $1 in
    shipped) echo "$shipped_label" ;;
    bare-jar) echo "sidecar-wait (bare jar, default JVM)" ;;
    curl-loop) echo "curl loop (seeds)" ;;
    curl-once) echo "one curl request" ;;
  esac
}
# command VARIANT URL PERIOD TIMEOUT_SECONDS; PERIOD is "default" (each tool's own: sidecar-wait's default,
# the seeds' sleep 1) or seconds, e.g. 0.1
command_for() {
  local variant=$1 target=$2 period=$3 timeout=$4
  local flag="" sleep=1
  if [ "$period" != default ]; then
    flag="--periodMillis $(awk -v p="$period" 'BEGIN { printf "%d", p * 1000 }')"
    sleep=$period
  fi
  case $variant in
    shipped) echo "$shipped_command wait -q --url $target $flag --timeoutSeconds $timeout" ;;
    bare-jar) echo "java -jar target/sidecar-wait.jar wait -q --url $target $flag --timeoutSeconds $timeout" ;;
    curl-loop) echo "timeout $timeout bash -c 'while [[ \"\$(curl -s -o /dev/null -w ''%{http_code}'' $target)\" != ''200'' ]]; do sleep $sleep; done'" ;;
    curl-once) echo "curl -s -o /dev/null $target" ;;
  esac
}
record() { printf '%s\t%s\t%s\n' "$2" "$3" "$4" >> "$out/$1.tsv"; }  # metric variant setting value

# 1. start to first probe: from exec until the listener accepts the connection of the request that carries the
#    run's id (it answers 200, so each run is one probe); ms, to the microsecond
arrival_ms() {  # arrival_ms T0 ID: ms (to the hundredth) from T0, in microseconds, to the accept of ID's request
  awk -v path="/healthz/ready?run=$2" -v t0="$1" '$2 == path { printf "%.2f", ($1 - t0) / 1000; exit }' "$out/accepts.log"
}
first_probe() {
  local variant run id t0
  for variant in "${variants[@]}"; do
    for run in $(seq 0 "$runs"); do
      id="$variant-$run-$RANDOM"
      t0=$(now_us)
      eval "$(command_for "$variant" "$stamped_url?run=$id" default 30)" >/dev/null 2>&1 || true
      [ "$run" -eq 0 ] && continue  # warm-up
      record first_probe "$variant" "-" "$(arrival_ms "$t0" "$id")"
    done
  done
}

# 2. detection latency: the endpoint turns ready while the command polls; until the command has exited
detection() {
  local variant period run pid t_flip t_exit
  for period in default 0.1; do
    for variant in shipped bare-jar curl-loop; do
      for run in $(seq 0 "$runs"); do
        unready
        eval "$(command_for "$variant" "$url" "$period" 60)" >/dev/null 2>&1 &
        pid=$!
        sleep "1.$((RANDOM % 1000))"  # steady polling by now, at a random phase of the period
        ready; t_flip=$(now_us)
        wait "$pid" || true
        t_exit=$(now_us)
        [ "$run" -eq 0 ] && continue
        record detection "$variant" "$period" $(((t_exit - t_flip) / 1000))
      done
    done
  done
}

# 3. peak RSS and CPU time over a 10-second wait on an endpoint that stays unready
cost() {
  unready
  local variant period run stats
  for variant in shipped bare-jar curl-loop curl-once; do
    for period in default 0.1; do
      [ "$variant" = curl-once ] && [ "$period" = 0.1 ] && continue
      for run in $(seq 1 "$(( runs < 3 ? runs : 3 ))"); do
        # the wait times out by design: its exit code is not the point here
        stats=$( { /usr/bin/time -f "%M %U %S" bash -c "$(command_for "$variant" "$url" "$period" 10) >/dev/null 2>&1" || true; } 2>&1 | tail -1)
        read -r rss user sys <<<"$stats"
        record rss "$variant" "$period" $((rss / 1024))
        record cpu "$variant" "$period" "$(awk -v u="$user" -v s="$sys" 'BEGIN { printf "%d", (u + s) * 1000 }')"
      done
    done
  done
}

# Resident and private memory of the given processes, in MiB: "RSS PRIVATE". RSS counts every page in memory,
# including clean pages of the executable and libraries that the page cache shares with every process running the
# same file; Private_Dirty is what is the process's own (heap, stacks, data it wrote).
memory_of() {
  local p
  for p in "$@"; do cat "/proc/$p/smaps_rollup" 2>/dev/null || true; done |
    awk '/^Rss:/ { r += $2 } /^Private_Dirty:/ { d += $2 } END { printf "%.1f %.1f\n", r / 1024, d / 1024 }'
}
tree() {  # a process and all its descendants
  local p
  echo "$1"
  for p in $(pgrep -P "$1"); do tree "$p"; done
}

# 3b. what a process keeps while it waits (sampled 5 s into a 10 s unready wait), and what the wrapper keeps
#     while its command runs: nothing when it handed the process over to the command
resident() {
  local variant run pid mem
  for variant in shipped bare-jar curl-loop; do
    for run in $(seq 1 "$(( runs < 3 ? runs : 3 ))"); do
      unready
      bash -c "exec $(command_for "$variant" "$url" default 10)" >/dev/null 2>&1 &
      pid=$!
      sleep 5
      read -r rss own <<<"$(memory_of $(tree "$pid"))"
      wait "$pid" || true
      record waiting_rss "$variant" - "$rss"
      record waiting_private "$variant" - "$own"
    done
  done
  ready
  for variant in shipped bare-jar; do
    for run in $(seq 1 "$(( runs < 3 ? runs : 3 ))"); do
      bash -c "exec $(command_for "$variant" "$url" default 30) -- sleep 4" >/dev/null 2>&1 &
      pid=$!
      sleep 2.5
      if [ "$(cat "/proc/$pid/comm" 2>/dev/null)" = sleep ]; then
        record wrapper_rss "$variant" - 0  # handed over: the process is the command now
        record wrapper_private "$variant" - 0
      else
        read -r rss own <<<"$(memory_of "$pid")"  # the wrapper alone, not its command
        record wrapper_rss "$variant" - "$rss"
        record wrapper_private "$variant" - "$own"
      fi
      wait "$pid" || true
    done
  done
}

# 4. one wait on an endpoint that is already ready: wall time to exit, peak RSS, and, on a JVM, the classes it
#    loads (-Xlog:class+load): the gauge for start-up work, which also tracks what a native image must contain
one_wait() {
  ready
  local variant run t0 t1 stats
  for variant in shipped bare-jar curl-once; do
    for run in $(seq 0 "$runs"); do
      t0=$(now_us)
      eval "$(command_for "$variant" "$url" default 30)" >/dev/null 2>&1 || true
      t1=$(now_us)
      [ "$run" -eq 0 ] && continue
      record one_wait_ms "$variant" - $(((t1 - t0) / 1000))
      stats=$( { /usr/bin/time -f "%M" bash -c "$(command_for "$variant" "$url" default 30) >/dev/null 2>&1" || true; } 2>&1 | tail -1)
      record one_wait_rss "$variant" - $((stats / 1024))
    done
  done
  if [ ! -x target/sidecar-wait ]; then
    SIDECAR_WAIT_JAVA_OPTS="-Xlog:class+load:file=$out/classes-shipped.txt" \
      scripts/sidecar-wait wait -q --url "$url" --timeoutSeconds 30 >/dev/null 2>&1 || true
    record classes shipped - "$(grep -c '' "$out/classes-shipped.txt")"
  fi
  java -Xlog:class+load:file="$out/classes-bare-jar.txt" -jar target/sidecar-wait.jar wait -q --url "$url" \
    --timeoutSeconds 30 >/dev/null 2>&1 || true
  record classes bare-jar - "$(grep -c '' "$out/classes-bare-jar.txt")"
}

# 5. what one more target costs: N targets that each hold every connection and never answer (a proxy with no
#    upstream: socat accepts and sleeps), so all N are probing at once; sampled 2 s into a 4 s wait of the jar with
#    the launcher's JVM options: threads, live heap (jcmd GC.run, then GC.heap_info), and the process's own memory
targets_cost() {
  local base=$((port + 100)) n run pid args p heap
  for p in $(seq "$base" $((base + 20))); do
    socat "TCP-LISTEN:$p,bind=127.0.0.1,fork,reuseaddr" SYSTEM:"sleep 30" >/dev/null 2>&1 &
  done
  sleep 0.5
  for n in 1 2 11 21; do
    args=""
    for p in $(seq "$base" $((base + n - 1))); do args="$args --url redis://127.0.0.1:$p"; done
    for run in $(seq 1 "$(( runs < 3 ? runs : 3 ))"); do
      SIDECAR_WAIT_JVM_CACHE=off bash -c "exec scripts/sidecar-wait wait -q $args --timeout 4s --request-timeout 500ms" \
        >/dev/null 2>&1 &
      pid=$!
      sleep 2
      record target_threads - "$n" "$(awk '/^Threads:/ { print $2 }' "/proc/$pid/status")"
      # a JVM's live heap; the native binary is no JVM for jcmd (which failed the run, and took seconds), so n/a
      if [ "$(basename "$(readlink "/proc/$pid/exe")")" = java ]; then
        jcmd "$pid" GC.run >/dev/null 2>&1 || true  # what is kept, not what was allocated since the last collection
        heap=$(jcmd "$pid" GC.heap_info 2>/dev/null | awk '/used/ { for (i = 1; i < NF; i++) if ($i == "used") { v = $(i + 1); sub(/K,?/, "", v); t += v } } END { print int(t) }') || true
        record target_heap_kib - "$n" "${heap:-0}"
      fi
      read -r rss own <<<"$(memory_of "$pid")"
      record target_private - "$n" "$own"
      wait "$pid" || true
    done
  done
  kill $(jobs -p) 2>/dev/null || true
}
per_target() {  # (value at 21 targets - value at 1) / 20, from the medians; n/a when either was not measured
  awk -v a="$(median "$1" - 1)" -v b="$(median "$1" - 21)" 'BEGIN { if (a == "-" || b == "-") print "n/a"; else printf "%.2f", (b - a) / 20 }'
}
targets_table() {
  echo "| targets | threads | live heap, KiB (after a full GC) | the process's own memory, MiB (Private_Dirty) |"
  echo "|---|---|---|---|"
  for n in 1 2 11 21; do
    echo "| $n | $(cell target_threads - "$n") | $(cell target_heap_kib - "$n") | $(cell target_private - "$n") |"
  done
  echo "| one more target | $(per_target target_threads) | $(per_target target_heap_kib) | $(per_target target_private) |"
}

# 6. native binaries side by side (the diet): one wait on the ready endpoint, timed by hyperfine (no shell between,
#    warm-up runs first), and its peak RSS from /usr/bin/time, the binaries taken in turn
binaries() {
  need hyperfine:hyperfine
  ready
  local commands=() bin run id t0
  for bin in "$@"; do commands+=("$bin wait -q --url $url --timeoutSeconds 30"); done
  hyperfine -N --style none --warmup 3 --runs "$runs" --export-csv "$out/binaries.csv" "${commands[@]}" >/dev/null
  for run in $(seq 0 "$runs"); do  # start to first probe, as in step 1; run 0 a warm-up
    for bin in "$@"; do
      id="binary-$run-$RANDOM"
      t0=$(now_us)
      "$bin" wait -q --url "$stamped_url?run=$id" --timeoutSeconds 30 >/dev/null 2>&1 || true
      [ "$run" -eq 0 ] || record first_probe_ms "$bin" - "$(arrival_ms "$t0" "$id")"
    done
  done
  for run in $(seq 1 "$runs"); do
    for bin in "$@"; do
      /usr/bin/time -f "%M" -o "$out/rss.txt" "$bin" wait -q --url "$url" --timeoutSeconds 30 >/dev/null 2>&1 || true
      record one_wait_rss_kib "$bin" - "$(tail -1 "$out/rss.txt")"
    done
  done
  # peak RSS of an https:// wait already ready; peak RSS and CPU of 10 s waits on a 503, over http and https
  for run in $(seq 1 "$runs"); do
    for bin in "$@"; do
      /usr/bin/time -f "%M" -o "$out/rss.txt" $bin wait -q --url $https_url --timeoutSeconds 30 >/dev/null 2>&1 || true
      record https_rss_kib "$bin" - "$(tail -1 "$out/rss.txt")"
    done
  done
  unready
  for run in 1 2 3; do
    for bin in "$@"; do
      for target in "$url" "$https_url"; do
        /usr/bin/time -f "%M" -o "$out/rss.txt" $bin wait -q --url $target --timeoutSeconds 10 >/dev/null 2>&1 || true
        record "unready_${target%%:*}_rss_kib" "$bin" - "$(tail -1 "$out/rss.txt")"  # after "Command exited with ..."
      done
    done
  done
  for bin in "$@"; do  # CPU: hyperfine's mean of user + system time, to the microsecond (time(1) rounds to 10 ms)
    for target in "$url" "$https_url"; do
      hyperfine -N -i --runs 3 --export-csv "$out/cpu.csv" "$bin wait -q --url $target --timeoutSeconds 10" >/dev/null 2>&1
      record "unready_${target%%:*}_cpu_ms" "$bin" - "$(awk -F, 'NR == 2 { printf "%.1f", ($5 + $6) * 1000 }' "$out/cpu.csv")"
    done
  done
  ready
  # the supervising wrapper (a Job's PID 1), steady while its command runs: sampled 2 s after the command started
  for run in 1 2 3 4 5; do
    for bin in "$@"; do
      "$bin" wait -q --url "$url" --timeoutSeconds 30 --supervise -- sleep 3 >/dev/null 2>&1 &
      pid=$!
      sleep 2.5
      read -r rss own <<<"$(memory_of "$pid")"
      record wrapper_rss "$bin" - "$rss"
      record wrapper_private "$bin" - "$own"
      record wrapper_threads "$bin" - "$(awk '/^Threads:/ { print $2 }' "/proc/$pid/status")"
      wait "$pid" || true
    done
  done
}

if [ "${1:-}" = targets ]; then
  targets_cost
elif [ "${1:-}" = binaries ]; then
  shift
  binaries "$@"
  set -- binaries "$@"
else
echo "Measuring on $(nproc) cores, $(java -version 2>&1 | head -1); $runs runs after a warm-up..." >&2
first_probe
echo "  start to first probe: done" >&2
detection
echo "  detection latency: done" >&2
cost
echo "  peak RSS and CPU over 10 s: done" >&2
resident
echo "  resident and private memory, waiting and while the command runs: done" >&2
one_wait
echo "  one wait on a ready endpoint: done" >&2
targets_cost
echo "  what one more target costs: done" >&2
fi
unready

# --- results --------------------------------------------------------------------------------------------
# stats FILE VARIANT SETTING -> "median min max" (ms or MiB), or "-" when not measured
stats() {
  awk -F'\t' -v v="$2" -v s="$3" '$1 == v && $2 == s { print $3 }' "$out/$1.tsv" 2>/dev/null | sort -n |
    awk '{ a[NR] = $1 } END { if (NR == 0) { print "-"; exit }
           m = (NR % 2) ? a[(NR + 1) / 2] : (a[NR / 2] + a[NR / 2 + 1]) / 2; print m, a[1], a[NR] }'
}
cell() {
  local s m lo hi
  s=$(stats "$@")
  if [ "$s" = "-" ]; then echo "n/a"; else read -r m lo hi <<<"$s"; echo "$m ($lo–$hi)"; fi
}
median() { local s; s=$(stats "$@"); echo "${s%% *}"; }
mib() {  # a KiB figure's cell in MiB: median (min-max)
  local s
  s=$(stats "$1" "$2" -)
  [ "$s" = "-" ] && { echo "n/a"; return; }
  awk -v s="$s" 'BEGIN { split(s, a, " "); printf "%.1f (%.1f-%.1f)", a[1] / 1024, a[2] / 1024, a[3] / 1024 }'
}
if [ "${1:-}" = targets ]; then
  targets_table | tee "$out/targets.md"
  exit 0
fi
if [ "${1:-}" = binaries ]; then
  shift
  {
    echo "| binary | file, bytes | one ready wait, ms: median (min-max) | peak RSS, MiB: median (min-max) | start to first probe, ms | supervising, while the command runs: RSS, MiB | its Private_Dirty, MiB | its threads |"
    echo "|---|---|---|---|---|---|---|---|"
    for bin in "$@"; do
      # hyperfine's CSV: command,mean,stddev,median,user,system,min,max (seconds)
      read -r m lo hi <<<"$(awk -F, -v c="$bin wait -q --url $url --timeoutSeconds 30" '$1 == c { print $4 * 1000, $7 * 1000, $8 * 1000 }' "$out/binaries.csv")"
      read -r rm rlo rhi <<<"$(stats one_wait_rss_kib "$bin" -)"
      printf '| %s | %s | %.2f (%.2f-%.2f) | %.1f (%.1f-%.1f) | %s | %s | %s | %s |\n' "$bin" "$(stat -c %s "$bin")" "$m" "$lo" "$hi" \
        "$(awk -v v="$rm" 'BEGIN { print v / 1024 }')" "$(awk -v v="$rlo" 'BEGIN { print v / 1024 }')" \
        "$(awk -v v="$rhi" 'BEGIN { print v / 1024 }')" "$(cell first_probe_ms "$bin" -)" "$(cell wrapper_rss "$bin" -)" "$(cell wrapper_private "$bin" -)" \
        "$(cell wrapper_threads "$bin" -)"
    done
    echo
    echo "| binary | https, ready: peak RSS, MiB | 10 s on a 503 at the default period, http: peak RSS, MiB | its CPU, ms | https: peak RSS, MiB | its CPU, ms |"
    echo "|---|---|---|---|---|---|"
    for bin in "$@"; do
      echo "| $bin | $(mib https_rss_kib "$bin") | $(mib unready_http_rss_kib "$bin") | $(median unready_http_cpu_ms "$bin" -) | $(mib unready_https_rss_kib "$bin") | $(median unready_https_cpu_ms "$bin" -) |"
    done
    echo
    echo "hyperfine, $runs runs after 3 warm-up runs; start to first probe (exec to the listener's accept, to the microsecond) and peak RSS (\`/usr/bin/time\`) of $runs more, the binaries in turn; the 10 s waits on a 503 (nginx, \`return 503\`): peak RSS of 3 runs each, CPU (user + system) the mean of 3 more (hyperfine); the supervising wrapper (\`--supervise -- sleep 3\`) sampled from /proc 2.5 s in, 5 runs each. $(nproc) cores, $(uname -r), $(date -u +%Y-%m-%d)."
  } | tee "$out/binaries.md"
  exit 0
fi
size_of() { [ -e "$1" ] && du -k "$1" | awk '{ printf "%d KiB", $1 }' || echo "not built"; }

{
  echo "| | $(label shipped) | $(label bare-jar) | $(label curl-loop) | $(label curl-once) |"
  echo "|---|---|---|---|---|"
  echo "| start to first probe, ms | $(cell first_probe shipped -) | $(cell first_probe bare-jar -) | $(cell first_probe curl-loop -) | $(cell first_probe curl-once -) |"
  echo "| detection latency, default period, ms | $(cell detection shipped default) | $(cell detection bare-jar default) | $(cell detection curl-loop default) | n/a |"
  echo "| detection latency, 100 ms period, ms | $(cell detection shipped 0.1) | $(cell detection bare-jar 0.1) | $(cell detection curl-loop 0.1) | n/a |"
  echo "| peak RSS, MiB (10 s unready, default period) | $(cell rss shipped default) | $(cell rss bare-jar default) | $(cell rss curl-loop default) | $(cell rss curl-once default) (one request) |"
  echo "| resident during a wait, MiB (RSS 5 s into a 10 s unready wait) | $(cell waiting_rss shipped -) | $(cell waiting_rss bare-jar -) | $(cell waiting_rss curl-loop -) (bash + curl) | n/a |"
  echo "| of which the process's own, MiB (Private_Dirty) | $(cell waiting_private shipped -) | $(cell waiting_private bare-jar -) | $(cell waiting_private curl-loop -) | n/a |"
  echo "| resident while the command runs, MiB (the wrapper's RSS; 0 once handed over) | $(cell wrapper_rss shipped -) | $(cell wrapper_rss bare-jar -) | 0 (when it ends with exec app) | n/a |"
  echo "| of which the wrapper's own, MiB (Private_Dirty) | $(cell wrapper_private shipped -) | $(cell wrapper_private bare-jar -) | 0 | n/a |"
  echo "| CPU time, ms (10 s unready, default period) | $(cell cpu shipped default) | $(cell cpu bare-jar default) | $(cell cpu curl-loop default) | $(cell cpu curl-once default) (one request) |"
  echo "| CPU time, ms (10 s unready, 100 ms period) | $(cell cpu shipped 0.1) | $(cell cpu bare-jar 0.1) | $(cell cpu curl-loop 0.1) | n/a |"
  echo "| one wait on a ready endpoint, ms (exec to exit) | $(cell one_wait_ms shipped -) | $(cell one_wait_ms bare-jar -) | n/a | $(cell one_wait_ms curl-once -) |"
  echo "| peak RSS, MiB (one wait on a ready endpoint) | $(cell one_wait_rss shipped -) | $(cell one_wait_rss bare-jar -) | n/a | $(cell one_wait_rss curl-once -) |"
  echo "| classes loaded, one wait (JVM, -Xlog:class+load) | $(cell classes shipped -) | $(cell classes bare-jar -) | n/a | n/a |"
  echo "| artifact size | jar $(size_of target/sidecar-wait.jar), launcher $(size_of scripts/sidecar-wait), native $(size_of target/sidecar-wait) | (the same jar) | curl $(size_of "$(command -v curl)") + libcurl | (the same curl) |"
  echo
  echo "What one more target costs (each target probed on its own schedule, a thread each beyond the first):"
  echo
  targets_table
  echo
  echo "Median (min–max) of $runs runs after a warm-up (CPU, RSS and targets: $(( runs < 3 ? runs : 3 )) runs). Default period: each tool's own (sidecar-wait's default; sleep 1 in the seeds' curl loop). $(nproc) cores, $(uname -r), $(java -version 2>&1 | head -1), $(curl --version | head -1 | cut -d' ' -f1-2), nginx $(nginx -v 2>&1 | sed 's/.*nginx\///'), $(date -u +%Y-%m-%d)."
} > "$out/results.md"
cat "$out/results.md"

# --- chart ----------------------------------------------------------------------------------------------
short() {
  case $1 in
    shipped) [ -x target/sidecar-wait ] && echo "native" || echo "jar+launcher" ;;
    bare-jar) echo "bare jar" ;;
    curl-loop) echo "curl loop" ;;
    curl-once) echo "one curl" ;;
  esac
}
{
  for v in shipped bare-jar curl-loop curl-once; do
    printf '"%s"\t%s\t%s\t%s\t%s\t%s\t%s\n' "$(short "$v")" \
      "$(median first_probe "$v" -)" "$(median detection "$v" default)" "$(median detection "$v" 0.1)" \
      "$(median rss "$v" default)" "$(median cpu "$v" default)" "$(median cpu "$v" 0.1)"
  done
} | sed 's/\t-/\t0/g' > "$out/chart.tsv"
gnuplot <<PLOT
set terminal pngcairo size 1400,900 font "sans,11"
set output "$out/results.png"
set datafile separator "\t"
set style data histograms
set style histogram clustered gap 1
set style fill solid 0.85 border -1
set boxwidth 0.9
set grid ytics
set yrange [0:*]
set key top left
set bmargin 3
set multiplot layout 2,2 title "sidecar-wait vs the curl loop: median of $runs runs (lower is better)"
set title "Start to first probe (ms)"
plot "$out/chart.tsv" using 2:xtic(1) title "" lc rgb "#3b7dd8"
set title "Detection latency after the endpoint turns ready (ms)"
plot "$out/chart.tsv" using 3:xtic(1) title "default period", "" using 4 title "100 ms period"
set title "Peak RSS over a 10 s wait (MiB)"
plot "$out/chart.tsv" using 5:xtic(1) title "" lc rgb "#d8743b"
set title "CPU time over a 10 s wait (ms)"
plot "$out/chart.tsv" using 6:xtic(1) title "default period", "" using 7 title "100 ms period"
unset multiplot
PLOT
echo "Wrote $out/results.md and $out/results.png"

ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (b > 0 && a != "-") printf "%.1fx", a / b; else print "n/a" }'; }
echo "Summary vs the curl loop: first probe $(ratio "$(median first_probe shipped -)" "$(median first_probe curl-loop -)"), detection $(ratio "$(median detection shipped default)" "$(median detection curl-loop default)") (default periods) and $(ratio "$(median detection shipped 0.1)" "$(median detection curl-loop 0.1)") (100 ms), peak RSS $(ratio "$(median rss shipped default)" "$(median rss curl-loop default)"), CPU over 10 s $(ratio "$(median cpu shipped default)" "$(median cpu curl-loop default)") for $shipped_label (ratios below 1.0x favour sidecar-wait)."
