#!/usr/bin/env bash
# Koehandel figures (docs/benchmarks.md): round trip of one request per channel, and whole games
# with the sample bots. Give a second build to compare its HTTP client side by side:
#   tools/bench/koehandel/run.sh BUILD_DIR [OTHER_BUILD_DIR] [ROUNDS=2000]
# e.g. the client before Boost.Beast: git worktree add /tmp/old <commit> && build it there.
set -euo pipefail
build=${1:?usage: run.sh BUILD_DIR [OTHER_BUILD_DIR] [ROUNDS]}
other=${2:-}
rounds=${3:-2000}
here=$(cd "$(dirname "$0")" && pwd)
echo_bot="python3 $here/echo_server.py"
round_trips() {  # round_trips LABEL BUILD
  local b=$2/bench/koehandel/bench_koehandel_http
  echo "$1 stdio python:      $($b stdio "$echo_bot --stdio" "$rounds")"
  echo "$1 http python 1.1:   $($b http "$echo_bot" "$rounds")"
  echo "$1 http python 1.0:   $($b http "$echo_bot --http10" "$rounds")"
  echo "$1 http C fault_bot:  $($b http "$2/bots/core/fault_bot --http" "$rounds")"
}
round_trips new "$build"
[ -n "$other" ] && round_trips other "$other"
"$here/bench_games.sh" "$build" 20
