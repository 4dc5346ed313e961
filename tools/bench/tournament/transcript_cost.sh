#!/usr/bin/env bash
# What the per-step transcript (and the live page's files) cost a tournament: the 8-bot Planowanie
# tournament of configs/demo.json for 50 rounds (400 matches) at -j2, played by two builds in turn
# (alternating which goes first, RUNS times each), each into a fresh database. CONFIG and ROUNDS choose another
# tournament (tools/bench/tournament/ants-long.json: long matches, each writing its live board). Per run: wall seconds, the bytes of every
# match's transcript.txt and of the whole results folder. Then the median of each side and the
# ratios. BOTS_DIR defaults to NEW's bots, so that both builds play the same programs.
#
#   tools/bench/tournament/transcript_cost.sh BASE_BUILD NEW_BUILD [RUNS=3]
#   e.g.  git worktree add /tmp/base d7e06aa && (cd /tmp/base && tools/build)
#         tools/bench/tournament/transcript_cost.sh /tmp/base/build/release build/release 3
set -euo pipefail
base=${1:?usage: transcript_cost.sh BASE_BUILD NEW_BUILD [RUNS]}
new=${2:?usage: transcript_cost.sh BASE_BUILD NEW_BUILD [RUNS]}
runs=${3:-3}
base=$(cd "$base" && pwd) new=$(cd "$new" && pwd)
root=$(cd "$(dirname "$0")/../../.." && pwd)
work=$(mktemp -d -p "$root/build" transcript-cost.XXXXXX)
trap 'rm -rf "$work"' EXIT
bots=${BOTS_DIR:-$new/bots}
export ARBITER_BOTS=$bots  # the demo config's bots, from one build for both sides
config=${CONFIG:-$root/configs/demo.json}
rounds=${ROUNDS:-50}
cp "$config" "$work/demo.json"

declare -A wall cpu transcript folder
play() {  # side run
    local side=$1 run=$2 build
    build=$([ "$side" = base ] && echo "$base" || echo "$new")
    local db=$work/$side-$run.sqlite
    local times
    # Wall seconds, and the CPU seconds (user + system) of the arbiter and every bot it ran:
    # the CPU figure moves less than the wall time where other work shares the machine.
    times=$( { TIMEFORMAT='%R %U %S'; time "$build/bin/arbiter" -q tournament --config "$work/demo.json" --db "$db" \
        --rounds "$rounds" -j 2 --no-progress >/dev/null; } 2>&1 )
    local files=$work/$side-$run-files
    wall[$side,$run]=$(awk '{print $1}' <<< "$times")
    cpu[$side,$run]=$(awk '{print $2 + $3}' <<< "$times")
    transcript[$side,$run]=$(find "$files" -name transcript.txt -printf '%s\n' | awk '{s+=$1} END {print s+0}')
    folder[$side,$run]=$(du -sb "$files" | cut -f1)
    printf 'run %d %-4s %7.2f s (cpu %7.2f s)  transcripts %10d bytes  folder %10d bytes  (load %s)\n' "$run" "$side" \
        "${wall[$side,$run]}" "${cpu[$side,$run]}" "${transcript[$side,$run]}" "${folder[$side,$run]}" \
        "$(cut -d' ' -f1 /proc/loadavg)"
    rm -rf "$files" "$db"
}
median() { sort -g | awk '{a[NR]=$1} END {print (NR % 2) ? a[(NR+1)/2] : (a[NR/2] + a[NR/2+1]) / 2}'; }
echo "load before: $(cut -d' ' -f1-3 /proc/loadavg)"
# Odd runs play BASE first, even runs NEW first: a machine that drifts through the runs (its load,
# its page cache) favours neither side.
for run in $(seq 1 "$runs"); do
    if ((run % 2)); then play base "$run"; play new "$run"; else play new "$run"; play base "$run"; fi
done
for side in base new; do
    for key in wall cpu transcript folder; do
        declare -n table=$key
        values=$(for run in $(seq 1 "$runs"); do echo "${table[$side,$run]}"; done | median)
        eval "med_${side}_$key=$values"
    done
done
printf 'median: base %.2f s, %d transcript bytes, %d folder bytes; new %.2f s, %d, %d\n' "$med_base_wall" \
    "$med_base_transcript" "$med_base_folder" "$med_new_wall" "$med_new_transcript" "$med_new_folder"
printf 'cpu (arbiter and bots): base %.2f s, new %.2f s: %.3fx\n' "$med_base_cpu" "$med_new_cpu" \
    "$(echo "$med_new_cpu / $med_base_cpu" | bc -l)"
printf 'new / base: time %.3fx, transcripts %.3fx, folder %.3fx\n' "$(echo "$med_new_wall / $med_base_wall" | bc -l)" \
    "$(echo "$med_new_transcript / $med_base_transcript" | bc -l)" "$(echo "$med_new_folder / $med_base_folder" | bc -l)"
