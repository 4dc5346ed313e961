#!/usr/bin/env bash
# Cost of `--intervals bootstrap` against bayeselo's default intervals, end to end through
# `arbiter rate` (docs/rating.md "Speed"). Usage:
#   tools/bench/rating/bootstrap.sh BUILD_DIR [WORK_DIR] [REPEATS=5]
# For each synthetic store (2-player records from rating_bench fill-db: every pairwise result is
# its own match), runs the two commands alternately REPEATS times and prints the medians.
set -euo pipefail
build=${1:?build directory}
work=${2:-/tmp/rating-bench}
repeats=${3:-5}
arbiter=$build/bin/arbiter
bench=$build/bench/rating_bench
mkdir -p "$work"
echo "load: $(cat /proc/loadavg)"

seconds() {  # wall seconds of a command, output discarded
    local start end
    start=$(date +%s.%N)
    "$@" > /dev/null
    end=$(date +%s.%N)
    echo "$end - $start" | bc
}
median() { sort -g | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }

for set in "8 2000 11 small" "40 20000 12 medium" "200 200000 777 large"; do
    read -r players games seed name <<< "$set"
    db=$work/boot-$name.db
    [ -f "$db" ] || "$bench" fill-db --players "$players" --games "$games" --seed "$seed" --out "$db"
    : > "$work/b.txt"; : > "$work/s.txt"
    for i in $(seq "$repeats"); do
        seconds "$arbiter" rate --db "$db" >> "$work/b.txt"
        seconds "$arbiter" rate --db "$db" --intervals bootstrap >> "$work/s.txt"
    done
    echo "$name ($players players, $games games): bayeselo $(median < "$work/b.txt") s," \
         "bootstrap (200 resamples) $(median < "$work/s.txt") s, median of $repeats"
done
echo "load: $(cat /proc/loadavg)"
