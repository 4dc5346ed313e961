#!/usr/bin/env bash
# Matches per second of a Planowanie tournament of 8 sample bots at -j1 and -j2, with the CPU
# use of the whole process tree.
#
#   tools/bench/tournament/matches_per_second.sh [BUILD_DIR] [RUNS] [ROUNDS]
#
# Each run plays configs/demo.json's 8 bots for ROUNDS rounds (default 4 = 32 matches) on a
# fresh database; prints wall time, matches/s and CPU% (user+sys over wall, 200% = both cores
# busy) per run and the median per -j.
set -euo pipefail
build=${1:-build-tournament}
runs=${2:-3}
rounds=${3:-4}
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../../.." && pwd)
arbiter=$root/$build/bin/arbiter
[ -x "$arbiter" ] || { echo "no arbiter at $arbiter (build it first)"; exit 2; }
export ARBITER_BOTS=$root/$build/bots
work=$(mktemp -d -t arbiter-mps.XXXXXX)
trap 'rm -rf "$work"' EXIT
median() { sort -g | awk '{a[NR]=$1} END {print (NR%2) ? a[(NR+1)/2] : (a[NR/2]+a[NR/2+1])/2}'; }
echo "machine: $(nproc) cores, load now: $(cut -d' ' -f1-3 /proc/loadavg)"
for jobs in 1 2; do
  : > "$work/mps" ; : > "$work/cpu"
  for run in $(seq "$runs"); do
    db=$work/j$jobs-$run.sqlite
    /usr/bin/time -f "%e %U %S" -o "$work/time" "$arbiter" -q tournament --config "$root/configs/demo.json" \
        --db "$db" --rounds "$rounds" --no-progress -j "$jobs" > "$work/out"
    read -r wall user sys < "$work/time"
    matches=$(sqlite3 "$db" "SELECT COUNT(*) FROM matches;")
    mps=$(awk -v m="$matches" -v w="$wall" 'BEGIN {printf "%.2f", m / w}')
    cpu=$(awk -v u="$user" -v s="$sys" -v w="$wall" 'BEGIN {printf "%.0f", 100 * (u + s) / w}')
    echo "-j$jobs run $run: $matches matches in ${wall}s = $mps matches/s, CPU ${cpu}%"
    echo "$mps" >> "$work/mps"; echo "$cpu" >> "$work/cpu"
  done
  echo "-j$jobs median: $(median < "$work/mps") matches/s, CPU $(median < "$work/cpu")%"
done
