#!/usr/bin/env bash
# Matches per second of the demo tournament (configs/demo.json, 32 Planowanie matches) played
# in-process (`arbiter tournament -j 2`) and as match jobs through GNU parallel -j 2
# (tools/cluster/parallel-tournament: plan, run-job per match, ingest, per round), alternating
# the two in one run, each on a fresh database; medians and the load before and after.
#
#   tools/bench/cluster/in_process_vs_parallel.sh [BUILD_DIR] [RUNS]
set -euo pipefail
build=${1:-build/release}
runs=${2:-5}
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../../.." && pwd)
arbiter=$root/$build/bin/arbiter
[ -x "$arbiter" ] || { echo "no arbiter at $arbiter (build it first)"; exit 2; }
command -v parallel >/dev/null || { echo "GNU parallel is not installed (tools/setup installs it)"; exit 2; }
export ARBITER_BOTS=$root/$build/bots
work=$(mktemp -d -t arbiter-cluster-bench.XXXXXX)
trap 'rm -rf "$work"' EXIT
median() { sort -g | awk '{a[NR]=$1} END {print (NR%2) ? a[(NR+1)/2] : (a[NR/2]+a[NR/2+1])/2}'; }
seconds() { local s; s=$(date +%s.%N); "$@" >/dev/null 2>"$work/err" || { cat "$work/err"; exit 1; }; \
  awk -v s="$s" -v e="$(date +%s.%N)" 'BEGIN {printf "%.3f", e - s}'; }
echo "machine: $(nproc) cores, load before: $(cut -d' ' -f1-3 /proc/loadavg)"
: >"$work/in"; : >"$work/par"
for run in $(seq "$runs"); do
  t_in=$(seconds "$arbiter" -q tournament --config "$root/configs/demo.json" --db "$work/in-$run.sqlite" \
    -j 2 --no-progress)
  t_par=$(seconds "$root/tools/cluster/parallel-tournament" --arbiter "$arbiter" --db "$work/par-$run.sqlite" \
    --work "$work/par-$run" -j 2 -- --config "$root/configs/demo.json")
  n_in=$(sqlite3 "$work/in-$run.sqlite" "SELECT COUNT(*) FROM matches")
  n_par=$(sqlite3 "$work/par-$run.sqlite" "SELECT COUNT(*) FROM matches")
  awk -v n="$n_in" -v t="$t_in" 'BEGIN {printf "%.2f\n", n / t}' >>"$work/in"
  awk -v n="$n_par" -v t="$t_par" 'BEGIN {printf "%.2f\n", n / t}' >>"$work/par"
  echo "run $run: in-process $n_in matches in ${t_in}s, GNU parallel $n_par matches in ${t_par}s"
done
in=$(median <"$work/in"); par=$(median <"$work/par")
echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)"
echo "| demo tournament, 32 matches, -j2: in-process / GNU parallel jobs (median of $runs, alternating) |" \
  "$in / $par matches/s | jobs at $(awk -v a="$par" -v b="$in" 'BEGIN {printf "%.0f", 100 * a / b}')% of in-process |"
