#!/usr/bin/env bash
# Network seats against the floors under them, measured in the same run, sandbox as by default:
#  A. smart-dog: a turn (8-line state, 2-line reply up to `end`) over the arbiter's TCP seat
#     (bench_smartdog_seat) against the same turn over plain loopback TCP, no arbiter
#     (bench_raw_channels): the same peer program (smartdog_echo_peer), the same state and reply
#     texts (smartdog/seat_turn.hpp), and per turn the same work besides the channel (a fresh
#     terminator framer; the reply cut into lines by the core's LineSplitter and framed into a
#     Reply). The peer counts the bytes it received and sent per turn under both: a run whose
#     counts differ stops the script. Each program also measures a pipe (seat and raw) in blocks
#     alternating with its TCP channel; those figures are shown beside.
#  B. Koehandel over HTTP with a C++ bot (koehandel/echo_bot, echo_server.py's protocol): a
#     request through the HTTP seat (bench_koehandel_http http) against the same request from a
#     raw HTTP/1.1 client on one kept-alive connection (bench_koehandel_raw_http), to the same
#     bot; the bot prints the first request it served and the sizes, and a run whose requests or
#     responses differ (the port aside) stops the script.
#  C. Koehandel with the Python echo bot: the HTTP seat (http.server, HTTP/1.1 kept alive)
#     against the pipe seat (the same script, --stdio).
# Each run of a block starts the programs afresh; A and B alternate which side goes first from
# one run to the next. Per run: each side's median per turn (TURNS turns) or request (ROUNDS
# requests) and their ratio; then the median of the runs per side, their ratio (the ratio of
# medians) and the median of the per-run ratios. The load is printed before each block.
# The raw sides run their bot as a plain child, not sandboxed (ARBITER_SANDBOX=none makes the
# seats' bots plain children too).
#   build first: cmake --build BUILD --target bench_smartdog_seat smartdog_echo_peer bench_raw_channels bench_koehandel_http bench_koehandel_echo_bot bench_koehandel_raw_http
# PIN=CPUS (taskset's list, e.g. PIN=0) runs every program of blocks A and B, and so their peers,
# on those CPUs: where the loopback floor moves with where two processes land (on a VM a wake-up
# on the other core costs tens of microseconds), PIN=0 measures both sides on one core.
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
ratio() { awk -v a="$1" -v b="$2" 'BEGIN {printf "%.2f", a / b}'; }
field() { sed -n "s/.*$1=\([0-9.]*\).*/\1/p"; }
# From a per-run line of bench_smartdog_seat or bench_raw_channels: "...: pipe P us, tcp T us, ..."
pipe_us() { sed -n 's/.*: pipe \([0-9.]*\) us,.*/\1/p'; }
tcp_us() { sed -n 's/.*, tcp \([0-9.]*\) us,.*/\1/p'; }
# ... and from its line of the peer's counts: the TCP channel's "received ... sent ..."
tcp_bytes() { sed -n 's/.*; tcp[a-z ]* received per turn \([0-9]*\) bytes, sent per turn \([0-9]*\) bytes.*/\1 bytes in, \2 out/p'; }
# What echo_bot served, without the request count and with the port as PORT.
served() { sed -n 's/^echo bot: requests [0-9]*, //p' "$1" | sed 's/127\.0\.0\.1:[0-9]*/127.0.0.1:PORT/'; }
# summary LABEL_A FILE_A LABEL_B FILE_B RATIOS_FILE UNIT
summary() {
  local a b
  a=$(median < "$2"); b=$(median < "$4")
  echo "median of $runs runs: $1 $a $6, $3 $b $6, ratio of medians $(ratio "$a" "$b")x, median of the run ratios $(median < "$5")x"
}
pin=()
[ -n "${PIN:-}" ] && pin=(taskset -c "$PIN")
work=$(mktemp -d -t arbiter-network-seats.XXXXXX)
trap 'rm -rf "$work"' EXIT
echo "machine: $(nproc) cores, sandbox ${ARBITER_SANDBOX:-default}${PIN:+, every program on CPU $PIN}"

echo "--- A. smart-dog turn: TCP seat vs raw loopback TCP, same peer, bytes and framing (load before: $(load))"
peer=$bench/smartdog_echo_peer
for ((i = 1; i <= runs; i++)); do
  if ((i % 2)); then
    seat_out=$("${pin[@]}" "$bench/bench_smartdog_seat" "$peer" "$turns" 1)
    raw_out=$("${pin[@]}" "$bench/bench_raw_channels" "$peer" "$turns" 1)
  else
    raw_out=$("${pin[@]}" "$bench/bench_raw_channels" "$peer" "$turns" 1)
    seat_out=$("${pin[@]}" "$bench/bench_smartdog_seat" "$peer" "$turns" 1)
  fi
  seat_line=$(grep '^run 1: per turn' <<< "$seat_out"); raw_line=$(grep '^raw run 1: per turn' <<< "$raw_out")
  seat_tcp=$(tcp_us <<< "$seat_line"); raw_tcp=$(tcp_us <<< "$raw_line")
  seat_bytes=$(grep '^run 1: bytes at the peer' <<< "$seat_out" | tcp_bytes)
  raw_bytes=$(grep '^raw run 1: bytes at the peer' <<< "$raw_out" | tcp_bytes)
  if [ -z "$seat_bytes" ] || [ "$seat_bytes" != "$raw_bytes" ]; then
    echo "run $i: the TCP seat and raw TCP did not exchange the same bytes per turn (peer's count: seat '$seat_bytes', raw '$raw_bytes'):"
    echo "$seat_out"; echo "$raw_out"
    exit 1
  fi
  r=$(ratio "$seat_tcp" "$raw_tcp")
  echo "run $i: per turn (median of $turns): tcp seat $seat_tcp us, raw tcp $raw_tcp us, seat/raw ${r}x" \
    "(pipe seat $(pipe_us <<< "$seat_line") us, raw pipe $(pipe_us <<< "$raw_line") us; peer: $seat_bytes per turn on both)"
  echo "$seat_tcp" >> "$work/a-seat"; echo "$raw_tcp" >> "$work/a-raw"; echo "$r" >> "$work/a-ratio"
  pipe_us <<< "$seat_line" >> "$work/a-seat-pipe"; pipe_us <<< "$raw_line" >> "$work/a-raw-pipe"
done
summary "tcp seat" "$work/a-seat" "raw tcp" "$work/a-raw" "$work/a-ratio" us/turn
echo "  (pipes in the same runs: pipe seat $(median < "$work/a-seat-pipe") us, raw pipe $(median < "$work/a-raw-pipe") us)"

echo "--- B. Koehandel request to the C++ echo bot: HTTP seat vs raw HTTP/1.1 keep-alive client (load before: $(load))"
cbot=$bench/koehandel/echo_bot
for ((i = 1; i <= runs; i++)); do
  mkdir "$work/b-seat-log-$i"
  seat_run() {
    "${pin[@]}" "$bench/koehandel/bench_koehandel_http" http "$cbot" "$rounds" "$work/b-seat-log-$i" | field median_us
  }
  raw_run() {
    "${pin[@]}" "$bench/koehandel/bench_koehandel_raw_http" "$cbot" "$rounds" 2> "$work/b-raw-log-$i" | field median_us \
      || { cat "$work/b-raw-log-$i" >&2; return 1; }
  }
  if ((i % 2)); then seat=$(seat_run); raw=$(raw_run); else raw=$(raw_run); seat=$(seat_run); fi
  seat_served=$(served "$work/b-seat-log-$i/p0.stderr.log"); raw_served=$(served "$work/b-raw-log-$i")
  if [ -z "$seat_served" ] || [ "$seat_served" != "$raw_served" ]; then
    echo "run $i: the HTTP seat and the raw client did not exchange the same request and response:"
    echo "  seat: $seat_served"; echo "  raw:  $raw_served"
    exit 1
  fi
  ((i == 1)) && echo "as the bot served both (run 1): $seat_served"
  r=$(ratio "$seat" "$raw")
  echo "run $i: per request (median of $rounds): http seat $seat us, raw http $raw us, seat/raw ${r}x"
  echo "$seat" >> "$work/b-seat"; echo "$raw" >> "$work/b-raw"; echo "$r" >> "$work/b-ratio"
done
summary "http seat" "$work/b-seat" "raw http" "$work/b-raw" "$work/b-ratio" us/request

echo "--- C. Koehandel request, HTTP seat (Python http.server, HTTP/1.1) and pipe seat (the same script, --stdio) (load before: $(load))"
echo_bot="python3 $here/koehandel/echo_server.py"
for ((i = 1; i <= runs; i++)); do
  pipe=$("$bench/koehandel/bench_koehandel_http" stdio "$echo_bot --stdio" "$rounds" | field median_us)
  http=$("$bench/koehandel/bench_koehandel_http" http "$echo_bot" "$rounds" | field median_us)
  echo "run $i: per request (median of $rounds): pipe $pipe us, http $http us, http/pipe $(ratio "$http" "$pipe")x"
  echo "$pipe" >> "$work/pipe"; echo "$http" >> "$work/http"
done
pipe=$(median < "$work/pipe"); http=$(median < "$work/http")
echo "median of $runs runs: pipe $pipe us, http $http us, http/pipe $(ratio "$http" "$pipe")x"
echo "load after: $(load)"
