#!/usr/bin/env bash
# Runs the process-layer benchmarks RUNS times (default 5) and prints every line; the medians
# go to docs/benchmarks/core.md. Usage: tools/bench/core/run.sh BUILD_DIR [RUNS]
#   build first: cmake --build BUILD_DIR --target bench_core bench_raw_echo bench_raw_pingpong fault_bot
set -euo pipefail
build=${1:?usage: run.sh BUILD_DIR [RUNS]}
runs=${2:-5}
case $build in /*) ;; *) build=$PWD/$build ;; esac  # bots are started by absolute path
bench=$build/bench/core
fault_bot=$build/bots/core/fault_bot
for ((i = 1; i <= runs; i++)); do
  echo "--- run $i, load $(cut -d' ' -f1-3 /proc/loadavg)"
  # Raw pipe ping-pong and the arbiter's ask in the same run, same echo program.
  "$bench/bench_raw_pingpong" "$bench/bench_raw_echo" 20000
  "$bench/bench_raw_pingpong" "$bench/bench_raw_echo" 20000 epoll  # what an event loop costs itself
  "$bench/bench_core" overhead "$bench/bench_raw_echo" 20000       # the default: the bot confined
  "$bench/bench_core" overhead "$bench/bench_raw_echo" 20000 none  # the same without the sandbox
  "$bench/bench_core" spawn "$bench/bench_raw_echo" 50
done
# 10,000 requests, 5 ms limit, a bot answering in 1 ms, both cores loaded by 2 spinners.
"$bench/bench_core" timeouts "$fault_bot" 10000 5 1 2 0
"$bench/bench_core" timeouts "$fault_bot" 10000 5 1 2 2
