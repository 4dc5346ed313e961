#!/usr/bin/env bash
# Two builds of the arbiter side by side: the headline engine and process figures of each, in
# one run, alternating base and new, and the median of RUNS for each. For a change that must not
# cost speed (a move of code, a refactoring): build the old commit in its own build folder first.
#
#   tools/bench/compare_builds.sh BASE_BUILD NEW_BUILD [RUNS=5]
#   e.g.  git worktree add /tmp/old HEAD~5 && cmake -S /tmp/old -B /tmp/old/build/release -G Ninja \
#           -DCMAKE_BUILD_TYPE=RelWithDebInfo && cmake --build /tmp/old/build/release
#         tools/bench/compare_builds.sh /tmp/old/build/release build/release 7
#
# Figures: arbiter round trip and raw pipe ping-pong (µs, median of 20,000), Ants engine on both
# recorded replays (µs per turn, CPU), SamurAI engine steps per second, rating of 200 players /
# 200,000 games from PGN (s wall), the demo tournament (configs/demo.json) at -j2 (matches per second).
set -euo pipefail
base=${1:?usage: compare_builds.sh BASE_BUILD NEW_BUILD [RUNS]}
new=${2:?usage: compare_builds.sh BASE_BUILD NEW_BUILD [RUNS]}
# Absolute: the demo config's bot paths are resolved from the config's own folder.
for build in "$base" "$new"; do
  [ -d "$build" ] || { echo "compare_builds.sh: no build folder $build" >&2; exit 2; }
done
base=$(cd "$base" && pwd) new=$(cd "$new" && pwd)
runs=${3:-5}
here=$(cd "$(dirname "$0")" && pwd)
source_dir=$(cd "$here/../.." && pwd)
shared=$source_dir/../shared
work=$(mktemp -d -t arbiter-compare.XXXXXX)
trap 'rm -rf "$work"' EXIT

[ -x "$base/bench/rating_bench" ] || { echo "no $base/bench/rating_bench: build BASE_BUILD fully" >&2; exit 2; }
"$base/bench/rating_bench" gen-pgn --players 200 --games 200000 --seed 777 --out "$work/large.pgn" > /dev/null

measure() {  # measure LABEL BUILD: one line per figure, "LABEL figure value"
  local label=$1 build=$2 b
  b=$build/bench
  echo "$label round_trip_us $("$b/core/bench_core" overhead "$b/core/bench_raw_echo" 20000 | sed -n 's/.*median_us=\([0-9.]*\).*/\1/p')"
  echo "$label raw_pingpong_us $("$b/core/bench_raw_pingpong" "$b/core/bench_raw_echo" 20000 | sed -n 's/.*median_us=\([0-9.]*\).*/\1/p')"
  "$b/ants_bench" --runs 3 "$shared"/data/ants/replays/*.json |
    awk -v l="$label" 'NR > 1 && NF >= 5 { print l, "ants_us_per_turn_" substr($1, 1, 18), $(NF-1) }'
  echo "$label samurai_steps_per_s $("$b/bench_samurai_engine" 100 1 | sed -n 's/.*step + 4 state messages: *\([0-9]*\).*/\1/p')"
  local t0 t1
  t0=$(date +%s.%N); "$build/bin/arbiter" rate --pgn "$work/large.pgn" > /dev/null; t1=$(date +%s.%N)
  echo "$label rating_200p_200k_s $(echo "$t1 - $t0" | bc -l | cut -c1-6)"
  rm -rf "$work/t-$label.sqlite" "$work/out-$label"
  t0=$(date +%s.%N)
  ARBITER_BOTS=$build/bots "$build/bin/arbiter" -q tournament --config "$source_dir/configs/demo.json" \
    --db "$work/t-$label.sqlite" --out "$work/out-$label" --no-progress -j 2 > /dev/null
  t1=$(date +%s.%N)
  local n
  n=$(sqlite3 "$work/t-$label.sqlite" 'SELECT COUNT(*) FROM matches')
  echo "$label tournament_matches_per_s $(echo "$n / ($t1 - $t0)" | bc -l | cut -c1-6)"
}

echo "load at start: $(cut -d' ' -f1-3 /proc/loadavg), $(nproc) cores"
for ((i = 1; i <= runs; i++)); do
  measure base "$base"
  measure new "$new"
done > "$work/lines"
echo "load at end: $(cut -d' ' -f1-3 /proc/loadavg)"
python3 - "$work/lines" "$runs" <<'EOF'
import statistics, sys
values = {}
for line in open(sys.argv[1]):
    label, figure, value = line.split()
    values.setdefault(figure, {}).setdefault(label, []).append(float(value))
print(f"{'figure':34} {'base':>10} {'new':>10} {'new/base':>9}   (medians of {sys.argv[2]} alternating runs)")
for figure, by in values.items():
    b, n = statistics.median(by["base"]), statistics.median(by["new"])
    print(f"{figure:34} {b:10.3f} {n:10.3f} {n / b:9.3f}")
EOF
