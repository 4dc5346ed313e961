#!/usr/bin/env bash
# Whole-match wall time of `arbiter play samurai` with the sample players (two games per match).
#   tools/bench/samurai/bench_games.sh [BUILD_DIR=build/release] [RUNS=5]
# Prints, per pairing, the median over RUNS of the match wall time and of the time per game step.
# The official manager is not measured here (it is not on the machine): its 10 ms poll per
# answer bounds it below (../shared/rules/samurai.md section 3); no ratio is claimed.
set -euo pipefail
root="$(cd "$(dirname "$0")/../../.." && pwd)"
build="${1:-$root/build/release}"
runs="${2:-5}"
arbiter="$build/bin/arbiter"
bots="$build/bots/samurai"
fields="$root/../shared/data/samurai/fields"
out="$(mktemp -d)"
trap 'rm -rf "$out"' EXIT

pairing() {  # label field botA botB
    local label="$1" field="$2" a="$3" b="$4"
    local walls=() per_step=()
    for ((r = 0; r < runs; r++)); do
        "$arbiter" -q play samurai --field "$fields/$field.dighere" --bot "$a" --bot "$b" \
            --out "$out" --record "$out/record.json" --replay "$out/game.dighere" >/dev/null
        read -r wall turns < <(python3 -c 'import json,sys; r=json.load(open(sys.argv[1])); print(r["wall_s"], r["turns"])' "$out/record.json")
        walls+=("$wall")
        per_step+=("$(python3 -c "print($wall / $turns * 1000)")")
        last_turns="$turns"
    done
    python3 - "$label" "$last_turns" "${walls[@]}" -- "${per_step[@]}" <<'PY'
import statistics, sys
label, turns = sys.argv[1], sys.argv[2]
rest = sys.argv[3:]
sep = rest.index("--")
walls = [float(x) for x in rest[:sep]]
steps = [float(x) for x in rest[sep + 1:]]
print(f"{label:<44} {turns:>5} steps  match {statistics.median(walls):6.2f} s  "
      f"per game {statistics.median(walls) / 2:6.2f} s  per step {statistics.median(steps):6.2f} ms")
PY
}

greedy="name=greedy cmd=\"$bots/greedy_digger\""
random="name=random cmd=\"$bots/random_player --seed 3\""
python="name=python cmd=\"python3 $bots/python_player.py\""
echo "runs: $runs, build: $build, $(nproc) cores, load $(cut -d' ' -f1 /proc/loadavg)"
pairing "sample: greedy vs greedy" sample "$greedy" "$greedy"
pairing "sample: greedy vs random" sample "$greedy" "$random"
pairing "kk-field-3: random vs greedy" kk-field-3 "$random" "$greedy"
pairing "mm11: greedy vs greedy" mm11 "$greedy" "$greedy"
pairing "sample: python vs greedy" sample "$python" "$greedy"
