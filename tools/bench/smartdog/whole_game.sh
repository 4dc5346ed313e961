#!/usr/bin/env bash
# Whole-game wall time of `arbiter play smartdog` with 4 sample bots over loopback TCP.
#   tools/bench/smartdog/whole_game.sh [BUILD_DIR=build/release] [RUNS=5]
# Prints, per map, the median over RUNS of the match wall time and of the time per turn.
set -euo pipefail
root="$(cd "$(dirname "$0")/../../.." && pwd)"
build="${1:-$root/build/release}"
runs="${2:-5}"
arbiter="$build/bin/arbiter"
bots="$build/bots/smartdog"
maps="$root/../shared/data/smartdog/maps"
out="$(mktemp -d)"
trap 'rm -rf "$out"' EXIT

game() {  # label map bot...
    local label="$1" map="$2"
    shift 2
    local args=() walls=() turns=0
    for b in "$@"; do args+=(--bot "$b"); done
    for ((r = 0; r < runs; r++)); do
        "$arbiter" -q play smartdog --map "$maps/$map.txt" "${args[@]}" --seed "$((r + 1))" \
            --out "$out" --record "$out/record.json" >/dev/null
        read -r wall turns < <(python3 -c 'import json,sys; r=json.load(open(sys.argv[1])); print(r["wall_s"], r["turns"])' "$out/record.json")
        walls+=("$wall")
    done
    python3 - "$label" "$turns" "${walls[@]}" <<'PY'
import statistics, sys
label, turns, walls = sys.argv[1], int(sys.argv[2]), [float(x) for x in sys.argv[3:]]
m = statistics.median(walls)
print(f"{label:<48} {turns:>4} turns  game {m:6.3f} s  per turn {m / turns * 1000:6.3f} ms")
PY
}

h="name=h cmd=$bots/herder"
py="name=py cmd=python3 arg=$bots/herder.py"
for map in simple-1 collector-1 keeper-1 capture-the-sheep; do
    game "$map, 4 C++ herders" "$map" "$h" "$h" "$h" "$h"
done
game "capture-the-sheep, 2 C++ + 2 Python herders" capture-the-sheep "$h" "$py" "$h" "$py"
