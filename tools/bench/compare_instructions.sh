#!/usr/bin/env bash
# Two builds of the arbiter side by side, in instructions instead of seconds: each figure is the
# count of instructions one fixed piece of work runs (Valgrind's callgrind; the same arguments
# give the same count to about 1 in 10^6, whatever the machine's load). For a change that must
# not cost speed on a machine too noisy for compare_builds.sh to see 2 %. Processes cannot be
# counted this way (the arbiter's process launch does not run under Valgrind), so the rows are
# the in-process work: the referees over scripted seats (their asking, reading, fault mapping and
# turns), the engines and the rating.
#
#   tools/bench/compare_instructions.sh BASE_BUILD NEW_BUILD
#   e.g.  git worktree add /tmp/old 333c01f && cp -r tools/bench/referees /tmp/old/tools/bench/ &&
#         cmake -S /tmp/old -B /tmp/old/build/release -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo &&
#         cmake --build /tmp/old/build/release
#         tools/bench/compare_instructions.sh /tmp/old/build/release build/release
#   (bench_referees is newer than some trees: copy tools/bench/referees into an older one; it
#   uses only the game descriptors and the scripted table.)
#
# Rows: SamurAI and Ants referees (bench_referees), Planowanie's referee (planowanie_bench
# strength: 2 deal sets x 4 rotations, in process), the Ants engine on two recorded games, the
# SamurAI engine, and the rating of 40 players / 4,000 games from PGN (arbiter rate).
set -euo pipefail
base=${1:?usage: compare_instructions.sh BASE_BUILD NEW_BUILD}
new=${2:?usage: compare_instructions.sh BASE_BUILD NEW_BUILD}
command -v valgrind > /dev/null || { echo "compare_instructions.sh: needs valgrind (apt install valgrind)" >&2; exit 2; }
here=$(cd "$(dirname "$0")" && pwd)
shared=$(cd "$here/../.." && pwd)/../shared
replays=("$shared"/data/ants/replays/maze_02p_02__*.replay.json "$shared"/data/ants/replays/random_walk_04p_01__*.replay.json)
for build in "$base" "$new"; do
  for tool in bench/bench_referees bench/planowanie_bench bench/ants_bench bench/bench_samurai_engine bench/rating_bench bin/arbiter; do
    [ -x "$build/$tool" ] || { echo "compare_instructions.sh: no $build/$tool (build it; see the usage above)" >&2; exit 2; }
  done
done
work=$(mktemp -d -t arbiter-instructions.XXXXXX)
trap 'rm -rf "$work"' EXIT
"$new/bench/rating_bench" gen-pgn --players 40 --games 4000 --seed 777 --out "$work/small.pgn" > /dev/null

instructions() {  # instructions COMMAND...: the instructions the command ran (its own process)
  valgrind --tool=callgrind --callgrind-out-file=/dev/null "$@" 2>&1 > /dev/null |
    sed -n 's/.*Collected : \([0-9]*\).*/\1/p'
}

measure() {  # measure LABEL BUILD: one line per figure, "LABEL figure count"
  local label=$1 b=$2
  echo "$label referee_samurai_10_matches $(instructions "$b/bench/bench_referees" samurai 10)"
  echo "$label referee_ants_1_match $(instructions "$b/bench/bench_referees" ants 1)"
  echo "$label referee_planowanie_8_matches $(instructions "$b/bench/planowanie_bench" strength 2)"
  echo "$label ants_engine_2_replays $(instructions "$b/bench/ants_bench" --runs 1 "${replays[@]}")"
  echo "$label samurai_engine $(instructions "$b/bench/bench_samurai_engine" 2 1)"
  echo "$label rating_40p_4k $(instructions "$b/bin/arbiter" rate --pgn "$work/small.pgn")"
}

echo "load at start: $(cut -d' ' -f1-3 /proc/loadavg), $(nproc) cores (counts do not depend on it)"
{ measure base "$base"; measure new "$new"; } > "$work/lines"
python3 - "$work/lines" <<'PY'
import sys
values = {}
for line in open(sys.argv[1]):
    label, figure, value = line.split()
    values.setdefault(figure, {})[label] = int(value)
print(f"{'figure (instructions)':30} {'base':>14} {'new':>14} {'new/base':>9}")
for figure, by in values.items():
    print(f"{figure:30} {by['base']:14,} {by['new']:14,} {by['new'] / by['base']:9.4f}")
PY
