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
source "$here/scale_lib.sh"
scale_config scale.json "$matches" "$root/$build/bots" "1 1 0"
echo "machine: $(nproc) cores, load before: $(cut -d' ' -f1-3 /proc/loadavg)"
start=$(date +%s.%N)
"$root/tools/cluster/parallel-tournament" --db scale.sqlite --work run --arbiter "$arbiter" -j 3 --batch "$batch" \
  --no-logs -- --config scale.json --no-preflight >recipe.out 2>&1 || { tail -5 recipe.out; exit 1; }
echo "recipe: $(sqlite3 scale.sqlite 'SELECT COUNT(*) FROM matches') matches stored in" \
  "$(awk -v s="$start" -v e="$(date +%s.%N)" 'BEGIN {printf "%.1f", e - s}') s (load $(cut -d' ' -f1 /proc/loadavg))"
python3 "$here/job_overhead.py" run
ingest_in_chunks "$arbiter" scale.json run/results
awk '{ printf "ingest of %d results with %d stored: %.2f s (%.3f ms a result), %d KiB max RSS\n", $2, $1, $3, 1000 * $3 / $2, $4 }' ingest.txt
cmp <("$arbiter" rate --db scale.sqlite) <("$arbiter" rate --db chunks.sqlite) >/dev/null && echo "the two databases rate alike"
