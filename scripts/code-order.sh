#!/usr/bin/env bash
# Writes native/code-order.txt and native/heap-order.txt: the methods of the binary that a wait, a check and the
# wrapper run, and the objects of its image heap they read or write, which the builder's code layouter
# (native/builder/SortByMethodNameCodeSectionLayouter.java) and heap partitions (ChunkedImageHeapPartition.java) put
# first, so that what a wait touches sits in a few hundred kB of the file rather than spread over all of it
# (docs/native.md, "The code's order").
#
#   bash scripts/code-order.sh     # about five minutes: a build with symbols, then each run under valgrind, twice
#
# Builds the amd64 binary with its symbols kept (-H:-DeleteLocalSymbols; native.sh then refuses to ship it, which is
# expected) and the builder's map of its heap, runs it under valgrind's callgrind and lackey against nginx (http and
# https, ready and 503), lists every method that ran and every object a load or a store fell in, those most runs used
# first. Run it again when a change moves much of what a wait touches: a stale list costs memory, never behaviour
# (native.sh prints how many of the listed methods and objects it placed).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
missing=()
for tool in valgrind:valgrind nginx:nginx openssl:openssl; do command -v "${tool%%:*}" >/dev/null || missing+=("${tool#*:}"); done
if ((${#missing[@]})); then
  echo "Installing ${missing[*]} from Debian's packages..." >&2
  apt-get update -qq >/dev/null && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}" >/dev/null
fi

out=target/code-order
rm -rf "$out" && mkdir -p "$out/runs" "$out/traces"
SIDECAR_WAIT_HEAP_MAP="$root/$out/heap-map.txt" SIDECAR_WAIT_NATIVE_OPTIONS="-H:-DeleteLocalSymbols" \
  bash scripts/native.sh >&2 || true
binary=target/native/sidecar-wait
readelf -S "$binary" | grep -q '\.symtab' || { echo "code-order.sh: $binary has no symbols" >&2; exit 1; }
heap=$(readelf -SW "$binary" | sed -n 's/.*\.svm_heap *PROGBITS *\([0-9a-f]*\) .*/0x\1/p')
[ -n "$heap" ] && [ -s "$out/heap-map.txt" ] || { echo "code-order.sh: no image heap or no map of it" >&2; exit 1; }

bash scripts/localhost-ca.sh "$out"
port=${ORDER_PORT:-18311}
cat > "$out/nginx.conf" <<CONF
worker_processes 1;
pid $root/$out/nginx.pid;
error_log $root/$out/error.log warn;
events { worker_connections 64; }
http {
  access_log off;
  server {
    listen 127.0.0.1:$port;
    listen 127.0.0.1:$((port + 1)) ssl;
    ssl_certificate $root/$out/server.crt;
    ssl_certificate_key $root/$out/server.key;
    location /ready { return 200 "ready\n"; }
    location / { return 503 "not ready\n"; }
  }
}
CONF
nginx -p "$root/$out" -c "$root/$out/nginx.conf" -g "user $(id -un) $(id -gn);" 2>/dev/null || nginx -p "$root/$out" -c "$root/$out/nginx.conf"
trap 'nginx -p "$root/$out" -c "$root/$out/nginx.conf" -s stop 2>/dev/null || true' EXIT
sleep 0.3

http=http://127.0.0.1:$port
https="https://localhost:$((port + 1))"
ca=(--cacert "$out/ca.crt")
profile() {  # NAME ARGS...: one run under callgrind, one under lackey (their exit codes are not the point)
  local name=$1
  shift
  valgrind --tool=callgrind --callgrind-out-file="$out/runs/$name" "$binary" "$@" >/dev/null 2>&1 || true
  valgrind --tool=lackey --trace-mem=yes --log-file="$out/traces/$name" "$binary" "$@" >/dev/null 2>&1 || true
  traces+=("$out/traces/$name")
}
traces=()
profile version --version
profile ready wait -q --url "$http/ready" --timeoutSeconds 30
profile ready-https wait -q --url "$https/ready" "${ca[@]}" --timeoutSeconds 30
profile unready wait -q --url "$http/" --timeoutSeconds 2
profile unready-https wait -q --url "$https/" "${ca[@]}" --timeoutSeconds 3
profile tcp wait -q --url "tcp://127.0.0.1:$port" --timeoutSeconds 3
profile supervise wait -q --url "$http/ready" --supervise -- true
profile handover wait -q --url "$http/ready" -- true
profile default wait --timeoutSeconds 1
profile check check --url "$http/ready" --url "$https/" "${ca[@]}"

# Every function callgrind saw (fn= and cfn= lines name them) that is a method of the image: in its symbol table, named
# as the builder names a method (SimpleClass_method_ and a digest of its signature; the C libraries' functions are not
# laid out by the builder), ranked by how many runs ran it, then by name.
nm "$binary" | awk '$2 ~ /^[tT]$/ && $3 ~ /_[0-9A-Za-z]{20,}$/ { print $3 }' | sort -u > "$out/methods"
{
  echo "# Written by scripts/code-order.sh from the build of $(git rev-parse --short HEAD 2>/dev/null || echo unknown): the methods a wait,"
  echo "# a check and the wrapper ran, laid out first in this order (native/builder/SortByMethodNameCodeSectionLayouter.java)."
  for run in "$out"/runs/*; do
    sed -n 's/^c\?fn=([0-9]*) //p' "$run" | sort -u | comm -12 - "$out/methods"
  done | sort | uniq -c | sort -k1,1nr -k2,2 | awk '{ print $2 }'
} > native/code-order.txt
echo "native/code-order.txt: $(grep -vc '^#' native/code-order.txt) methods" >&2

# Every object of the heap a load or a store fell in, by the name the builder gave it in its map
# (native/builder/HeapObjectNames.java): those some run wrote first, then those only read; in each, those most runs
# touched first, then by when (native/builder/HeapTouches.java).
{
  echo "# Written by scripts/code-order.sh from the build of $(git rev-parse --short HEAD 2>/dev/null || echo unknown): the objects of the"
  echo "# image heap a wait, a check and the wrapper read or wrote, placed first in this order"
  echo "# (native/builder/ChunkedImageHeapPartition.java; each named by native/builder/HeapObjectNames.java)."
  java native/builder/HeapTouches.java "$out/heap-map.txt" "$heap" "${traces[@]}" 2> "$out/touched.txt"
} > native/heap-order.txt
cat "$out/touched.txt" >&2
echo "native/heap-order.txt: $(grep -vc '^#' native/heap-order.txt) objects' names" >&2
