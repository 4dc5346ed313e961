#!/usr/bin/env bash
# Planowanie benchmarks. Usage: tools/bench/planowanie/run_bench.sh BUILD_DIR [MATCHES]
# Needs the targets planowanie_bench and planowanie_bots built in BUILD_DIR.
#  1. strength: heuristic vs 3 random bots, 10 deal sets x 4 rotations (in-process).
#  2. full 13-deal 4-player matches of the C++ random bot (real processes), concurrency 1 and 2.
set -euo pipefail
build=${1:?usage: run_bench.sh BUILD_DIR [MATCHES]}
count=${2:-20}
bench=$build/bench/planowanie_bench
bots=$build/bots/planowanie

echo "== strength (in-process)"
"$bench" strength 10

echo "== concurrency 1: $count matches"
"$bench" matches "$count" "$bots" 1

echo "== concurrency 2: 2 x $count matches"
start=$(date +%s.%N)
"$bench" matches "$count" "$bots" 1001 > /tmp/planowanie_bench_a.txt &
"$bench" matches "$count" "$bots" 2001 > /tmp/planowanie_bench_b.txt &
wait
end=$(date +%s.%N)
cat /tmp/planowanie_bench_a.txt /tmp/planowanie_bench_b.txt
echo "combined: $(echo "2 * $count / ($end - $start)" | bc -l | cut -c1-5) matches/s"
