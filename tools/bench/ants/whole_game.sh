#!/usr/bin/env bash
# Whole-game wall time with two bots that hold still. The original is not run here (its 10 ms
# poll caps it near 87 turns/s; ants.md section 10), so no ratio is claimed from this script;
# tools/bench/ants/compare_original.py times both engines side by side.
# Usage: tools/bench/ants/whole_game.sh [BUILD_DIR] [RUNS]
set -euo pipefail
build=${1:-build}
runs=${2:-5}
root=$(cd "$(dirname "$0")/../../.." && pwd)
map="$root/../shared/data/ants/maps/maze_02p_02.map"
hold="$root/$build/bots/ants/hold_bot"
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
for i in $(seq "$runs"); do
  start=$(date +%s.%N)
  "$root/$build/bin/arbiter" play ants --map "$map" --turns 1000 --cutoff-turn 100000 --seed 42 \
    --bot "name=hold1 cmd=$hold" --bot "name=hold2 cmd=$hold" --out "$out" >/dev/null
  end=$(date +%s.%N)
  echo "$end - $start" | bc
done | sort -n | awk '{t[NR]=$1} END {m=t[int((NR+1)/2)]; printf "runs %d  median wall %.3f s  = %.0f turns/s (1000 turns)\n", NR, m, 1000/m}'
