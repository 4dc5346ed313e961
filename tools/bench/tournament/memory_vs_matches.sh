#!/usr/bin/env bash
# The arbiter's peak memory against the length of a tournament: the same 8 cheap bots (the
# Planowanie random bot, one deal per match) in groups of 4 (10 random rounds, then paired by
# rating variance) at -j2, for tournaments of
# increasing length, each on a fresh database. Prints the peak resident set (VmHWM, as
# /usr/bin/time reports it: the arbiter's own peak, the bots being far smaller) per length and
# its growth over the shortest one.
#
#   tools/bench/tournament/memory_vs_matches.sh [BUILD_DIR] [RUNS] [MATCHES...]
#
# Defaults: build/release, 1 run, 200 1000 3000 10000 matches (about 25 matches/s on an idle
# 2-core machine). The sandbox is the default one; ARBITER_SANDBOX=none runs without it.
# With RUNS > 1 the lengths alternate within each run and the median per length is printed.
set -euo pipefail
build=${1:-build/release}
runs=${2:-1}
shift $(( $# > 2 ? 2 : $# ))
lengths=("$@")
[ ${#lengths[@]} -gt 0 ] || lengths=(200 1000 3000 10000)
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../../.." && pwd)
case $build in /*) ;; *) build=$root/$build ;; esac
arbiter=$build/bin/arbiter
bot=$build/bots/planowanie/random_bot
[ -x "$arbiter" ] && [ -x "$bot" ] || { echo "no arbiter or random_bot under $build (build it first)"; exit 2; }
work=$(mktemp -d -t arbiter-memory.XXXXXX)
trap 'rm -rf "$work"' EXIT
median() { sort -g | awk '{a[NR]=$1} END {print (NR%2) ? a[(NR+1)/2] : (a[NR/2]+a[NR/2+1])/2}'; }
bots=()
for i in 1 2 3 4 5 6 7 8; do bots+=(--bot "name=random-$i cmd=\"$bot $i\""); done
sandbox=()
[ -n "${ARBITER_SANDBOX:-}" ] && sandbox=(--sandbox "$ARBITER_SANDBOX")
echo "machine: $(nproc) cores; 8 bots, groups of 4, 8 matches a round, 1 deal per match, -j2; sandbox ${ARBITER_SANDBOX:-default}"
for run in $(seq "$runs"); do
  for matches in "${lengths[@]}"; do
    rounds=$(( (matches + 7) / 8 ))  # 8 bots: 2 groups of 4, each in 4 seat rotations
    db=$work/m$matches-$run.sqlite
    load=$(cut -d' ' -f1-3 /proc/loadavg)
    /usr/bin/time -f "%M %e" -o "$work/time" "$arbiter" -q tournament --game planowanie --pairing groups \
        --seed 11 --rounds "$rounds" --set "schedule=1 1 0" "${bots[@]}" "${sandbox[@]}" \
        --db "$db" --out "$work/files-$matches-$run" --no-progress -j 2 > "$work/out"
    read -r peak_kib wall < "$work/time"
    played=$(sqlite3 "$db" "SELECT COUNT(*) FROM matches;")
    echo "run $run: $played matches: peak RSS $(awk -v k="$peak_kib" 'BEGIN {printf "%.1f", k / 1024}') MiB, ${wall}s, load before $load"
    echo "$peak_kib" >> "$work/peak-$matches"
    rm -rf "$db" "$work/files-$matches-$run"
  done
done
first=""
for matches in "${lengths[@]}"; do
  peak=$(median < "$work/peak-$matches")
  [ -n "$first" ] || first=$peak
  echo "median: $matches matches: peak RSS $(awk -v k="$peak" 'BEGIN {printf "%.1f", k / 1024}') MiB" \
       "($(awk -v k="$peak" -v f="$first" 'BEGIN {printf "%+.1f", 100 * (k - f) / f}') % over ${lengths[0]} matches)"
done
echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)"
