#!/usr/bin/env bash
# A CA and a certificate for localhost (and 127.0.0.1) signed by it, for a benchmark's or a measurement's nginx on
# loopback: DIR/ca.crt, DIR/server.crt, DIR/server.key (P-256, valid one day).
#
#   bash scripts/localhost-ca.sh DIR
set -euo pipefail
dir=$1
mkdir -p "$dir"
openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes -keyout "$dir/ca.key" -out "$dir/ca.crt" \
  -subj "/CN=Localhost CA" -days 1 2>/dev/null
openssl req -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes -keyout "$dir/server.key" -out "$dir/server.csr" \
  -subj "/CN=localhost" 2>/dev/null
printf 'subjectAltName=DNS:localhost,IP:127.0.0.1\n' > "$dir/san"
openssl x509 -req -in "$dir/server.csr" -CA "$dir/ca.crt" -CAkey "$dir/ca.key" -CAcreateserial -days 1 \
  -extfile "$dir/san" -out "$dir/server.crt" 2>/dev/null
