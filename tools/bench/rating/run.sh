#!/usr/bin/env bash
# Rating-stage benchmark (docs/benchmarks/rating.md). Usage:
#   tools/bench/rating/run.sh BUILD_DIR [WORK_DIR] [REPEATS]
# Generates the 200 p / 200k and 1000 p / 1M synthetic sets (same shape as rating.md A.4),
# times `arbiter rate` end to end on PGN and on a store, and measures store insert rates.
set -euo pipefail
build=${1:?build directory}
work=${2:-/tmp/rating-bench}
repeats=${3:-3}
arbiter=$build/bin/arbiter
bench=$build/bench/rating_bench
mkdir -p "$work"

timeit() {  # prints wall seconds and max RSS of a command, output discarded
    /usr/bin/time -f "%e s wall, %M KiB max RSS" "$@" > /dev/null
}

for set in "200 200000 777 large" "1000 1000000 4242 xl"; do
    read -r players games seed name <<< "$set"
    pgn=$work/$name.pgn
    db=$work/$name.db
    [ -f "$pgn" ] || "$bench" gen-pgn --players "$players" --games "$games" --seed "$seed" --out "$pgn"
    [ -f "$db" ] || "$bench" fill-db --players "$players" --games "$games" --seed "$seed" --out "$db"
    for script in "" "--mm-fit" "--intervals covariance"; do
        for i in $(seq "$repeats"); do
            echo -n "$name pgn  ${script:-standard}: "; timeit "$arbiter" rate --pgn "$pgn" $script
        done
    done
    for i in $(seq "$repeats"); do
        echo -n "$name db   standard: "; timeit "$arbiter" rate --db "$db" --advantage 32.8
    done
done
"$bench" inserts --records 50000 --out "$work/inserts"
