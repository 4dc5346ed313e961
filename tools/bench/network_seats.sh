#!/usr/bin/env bash
# Network seats against pipe seats with the same bot logic, in one run, sandbox as by default:
#  1. smart-dog: a turn (8-line state, 2-line reply) over the TCP seat and over the pipe seat of
#     the same peer program (bench_smartdog_seat, alternating blocks of 250 turns per run);
#  2. the floor under it: the same turn between two plain processes, no arbiter, over a pipe
#     pair and over loopback TCP (bench_raw_channels, alternating likewise);
#  3. Koehandel: a request to the Python echo bot through the HTTP seat (HTTP/1.1, kept alive)
#     and through the pipe seat (--stdio), alternating, ROUNDS requests each time.
# Prints every line with the load before it, then the medians.
#   build first: cmake --build BUILD --target bench_smartdog_seat smartdog_echo_peer bench_raw_channels bench_koehandel_http
#   tools/bench/network_seats.sh BUILD_DIR [RUNS=5] [TURNS=4000] [ROUNDS=2000]
set -euo pipefail
build=${1:?usage: network_seats.sh BUILD_DIR [RUNS] [TURNS] [ROUNDS]}
runs=${2:-5}
turns=${3:-4000}
rounds=${4:-2000}
here=$(cd "$(dirname "$0")" && pwd)
case $build in /*) ;; *) build=$PWD/$build ;; esac
bench=$build/bench
load() { cut -d' ' -f1-3 /proc/loadavg; }
median() { sort -g | awk '{a[NR]=$1} END {print (NR%2) ? a[(NR+1)/2] : (a[NR/2]+a[NR/2+1])/2}'; }
field() { sed -n "s/.*$1=\([0-9.]*\).*/\1/p"; }
work=$(mktemp -d -t arbiter-network-seats.XXXXXX)
trap 'rm -rf "$work"' EXIT
echo "machine: $(nproc) cores, sandbox ${ARBITER_SANDBOX:-default}"

echo "--- smart-dog turn, TCP seat and pipe seat (load before: $(load))"
"$bench/bench_smartdog_seat" "$bench/smartdog_echo_peer" "$turns" "$runs"
echo "--- the same turn without the arbiter (load before: $(load))"
"$bench/bench_raw_channels" "$turns" "$runs"

echo "--- Koehandel request, HTTP seat (Python http.server, HTTP/1.1) and pipe seat (the same script, --stdio) (load before: $(load))"
echo_bot="python3 $here/koehandel/echo_server.py"
for ((i = 1; i <= runs; i++)); do
  pipe=$("$bench/koehandel/bench_koehandel_http" stdio "$echo_bot --stdio" "$rounds" | field median_us)
  http=$("$bench/koehandel/bench_koehandel_http" http "$echo_bot" "$rounds" | field median_us)
  echo "run $i: per request (median of $rounds): pipe $pipe us, http $http us, http/pipe $(awk -v h="$http" -v p="$pipe" 'BEGIN {printf "%.2f", h / p}')x"
  echo "$pipe" >> "$work/pipe"; echo "$http" >> "$work/http"
done
pipe=$(median < "$work/pipe"); http=$(median < "$work/http")
echo "median of $runs runs: pipe $pipe us, http $http us, http/pipe $(awk -v h="$http" -v p="$pipe" 'BEGIN {printf "%.2f", h / p}')x"
echo "load after: $(load)"
