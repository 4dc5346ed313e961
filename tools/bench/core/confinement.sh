#!/usr/bin/env bash
# What confinement and limits cost, measured in one run, alternating the variants:
#   - spawn to first reply of one bot (bench_core spawn, median of 50 per run), and
#   - the 8-bot Planowanie tournament of configs/demo.json for 50 rounds (400 matches) at -j2,
# each with limits by cgroup or by rlimit only (ARBITER_LIMITS=rlimit) and with the bubblewrap
# sandbox, the arbiter's own namespaces sandbox or neither (ARBITER_SANDBOX / --sandbox).
# Prints every run, the medians and the default sandbox's cost against none.
#
#   tools/bench/core/confinement.sh [BUILD_DIR] [RUNS]
#   build first: cmake --build BUILD_DIR --target arbiter bench_core bench_raw_echo
#
# BASELINE_ARBITER=/path/to/an/older/arbiter adds a variant "baseline": that binary's tournament
# with cgroup limits and no sandbox, in the same alternation (its spawn time is not measured).
set -euo pipefail
build=${1:-build/release}
runs=${2:-3}
root=$(cd "$(dirname "$0")/../../.." && pwd)
arbiter=$root/$build/bin/arbiter
bench=$root/$build/bench/core
export ARBITER_BOTS=$root/$build/bots
work=$(mktemp -d -t arbiter-confinement.XXXXXX)
trap 'rm -rf "$work"' EXIT
median() { sort -g | awk '{a[NR]=$1} END {print (NR%2) ? a[(NR+1)/2] : (a[NR/2]+a[NR/2+1])/2}'; }
variants=("cgroup none" "cgroup namespaces" "cgroup bwrap" "rlimit none" "rlimit namespaces" "rlimit bwrap")
[ -n "${BASELINE_ARBITER:-}" ] && variants=("baseline none" "${variants[@]}")
limits_env() { [ "$1" = rlimit ] && echo rlimit || echo ""; }
echo "machine: $(nproc) cores, load before: $(cut -d' ' -f1-3 /proc/loadavg)"
for run in $(seq "$runs"); do
  for v in "${variants[@]}"; do
    read -r limits sandbox <<<"$v"
    key="${limits}-${sandbox}"
    program=$arbiter us=-
    if [ "$limits" = baseline ]; then
      program=$BASELINE_ARBITER
    else
      spawn=$(ARBITER_LIMITS=$(limits_env "$limits") ARBITER_SANDBOX=$sandbox "$bench/bench_core" spawn "$bench/bench_raw_echo" 50)
      us=$(sed -n 's/.*first_reply_median_us=\([0-9.]*\).*/\1/p' <<<"$spawn")
    fi
    db="$work/$key-$run.sqlite"
    start=$(date +%s.%N)
    ARBITER_LIMITS=$(limits_env "$limits") "$program" -q tournament --config "$root/configs/demo.json" --db "$db" \
      --rounds 50 -j 2 --no-progress --sandbox "$sandbox" >/dev/null
    wall=$(awk -v s="$start" -v e="$(date +%s.%N)" 'BEGIN {printf "%.2f", e - s}')
    matches=$(sqlite3 "$db" "SELECT COUNT(*) FROM matches")
    echo "run $run $key: spawn to first reply ${us} us; tournament $matches matches in ${wall} s"
    echo "$us" >>"$work/$key.spawn"; echo "$wall" >>"$work/$key.wall"
  done
done
echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)"
echo "| limits | sandbox | spawn to first reply, median us | 400-match tournament at -j2, median s |"
echo "|---|---|---|---|"
for v in "${variants[@]}"; do
  read -r limits sandbox <<<"$v"
  key="${limits}-${sandbox}"
  echo "| $limits | $sandbox | $(median <"$work/$key.spawn") | $(median <"$work/$key.wall") |"
done
# The whole default sandbox against none, cgroup limits on in both: at most 1.15x.
ratio=$(awk -v a="$(median <"$work/cgroup-namespaces.wall")" -v b="$(median <"$work/cgroup-none.wall")" 'BEGIN {printf "%.3f", a / b}')
echo "default sandbox (namespaces) against none, cgroup limits: ${ratio}x the tournament's time"
