#!/usr/bin/env bash
# Ingest against what is already stored, at full size, on one machine (no root, no hosts):
# MATCHES short Planowanie matches (8 random_bots, one deal of one card: about 11 ms each) played
# through the GNU parallel recipe on this machine (-j 3, --batch BATCH, --no-logs), then the
# results ingested again in ten chunks into a database planned afresh: each chunk's time and
# peak memory (max RSS) beside the count already stored. Flat means ingest costs the same per
# result whatever the database holds. Also prints the jobs' overhead (job_overhead.py).
#
#   tools/bench/cluster/ingest_scale.sh [MATCHES=100000] [BATCH=500] [BUILD_DIR=build/release]
#   (100,000 matches: about 20 minutes on 2 cores)
set -euo pipefail
matches=${1:-100000}
batch=${2:-500}
build=${3:-build/release}
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../../.." && pwd)
arbiter=$root/$build/bin/arbiter
[ -x "$arbiter" ] || { echo "no arbiter at $arbiter (build it first)"; exit 2; }
work=$(mktemp -d -p "$root/build" ingest-scale.XXXXXX)
trap 'rm -rf "$work"' EXIT
cd "$work"
rounds=$(( (matches + 7) / 8 ))
bots=""
for i in 1 2 3 4 5 6 7 8; do bots+="\"name=r$i cmd=\\\"$root/$build/bots/planowanie/random_bot $i\\\"\","; done
cat >scale.json <<CONF
{"name": "scale", "game": "planowanie", "pairing": "groups", "seed": 3, "rounds": $rounds,
 "random_rounds": $rounds, "bots": [${bots%,}], "options": {"total-time-ms": 20000, "schedule": "1 1 0"}}
CONF
echo "machine: $(nproc) cores, load before: $(cut -d' ' -f1-3 /proc/loadavg)"
start=$(date +%s.%N)
"$root/tools/cluster/parallel-tournament" --db scale.sqlite --work run --arbiter "$arbiter" -j 3 --batch "$batch" \
  --no-logs -- --config scale.json --no-preflight >recipe.out 2>&1 || { tail -5 recipe.out; exit 1; }
echo "recipe: $(sqlite3 scale.sqlite 'SELECT COUNT(*) FROM matches') matches stored in" \
  "$(awk -v s="$start" -v e="$(date +%s.%N)" 'BEGIN {printf "%.1f", e - s}') s (load $(cut -d' ' -f1 /proc/loadavg))"
python3 "$here/job_overhead.py" run
"$arbiter" plan --config scale.json --db chunks.sqlite --out chunk-jobs --no-preflight >/dev/null 2>&1
find run/results -name '*.result.json' | sort >all.txt
split -n l/10 -d all.txt chunk.
for c in chunk.*; do
  before=$(sqlite3 chunks.sqlite 'SELECT COUNT(*) FROM matches')
  mkdir "$c.d" && xargs -a "$c" mv -t "$c.d"  # a folder per chunk: ingest takes a folder whole
  /usr/bin/time -f "%e %M" -o one.txt "$arbiter" ingest --db chunks.sqlite "$c.d" >/dev/null
  echo "$before $(wc -l <"$c") $(cat one.txt)"
done >ingest.txt
awk '{ printf "ingest of %d results with %d stored: %.2f s (%.3f ms a result), %d KiB max RSS\n", $2, $1, $3, 1000 * $3 / $2, $4 }' ingest.txt
cmp <("$arbiter" rate --db scale.sqlite) <("$arbiter" rate --db chunks.sqlite) >/dev/null && echo "the two databases rate alike"
