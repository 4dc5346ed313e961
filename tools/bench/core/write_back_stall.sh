#!/usr/bin/env bash
# What a bot that leaves 60,000 files in its folder and then crashes costs the other seat of its
# matches: an Ants tournament (2 players, maze_02p_02, 5 turns) of four bots: three that think
# 300 ms a turn and give no orders, and one that writes 60,000 new files into its folder after
# its first turn and exits at the start of the second, while its opponent thinks. Ants asks both seats at once, so whatever the arbiter does
# when that bot is gone (its folder's write-back, bounded) is charged to the opponent if it runs
# on the match's event loop. For every match it reports the longest single reply charged to the
# other seat (300 ms and a little where the arbiter charges nothing of its own), and for the
# bot's folder what the write-backs left.
#
#   tools/bench/core/write_back_stall.sh [BUILD_DIR] [ROUNDS] [ARBITER...]
#   build first: tools/build arbiter
#
# Each round is 12 matches (each pair in both seats; the littering bot in 6); ROUNDS 34 plays
# 408 (the default). The turn limit is 5 s, so that the bot finishes its files in time. Every
# ARBITER given (default: BUILD_DIR's) plays the whole tournament, one after the other; the load
# is printed before and after.
set -euo pipefail
build=${1:-build/release}
rounds=${2:-34}
shift $(( $# > 2 ? 2 : $# ))
root=$(cd "$(dirname "$0")/../../.." && pwd)
arbiters=("$@")
[ ${#arbiters[@]} -gt 0 ] || arbiters=("$root/$build/bin/arbiter")
export ARBITER_BOTS=$root/$build/bots
work=$(mktemp -d -t arbiter-write-back.XXXXXX)
trap 'rm -rf "$work"' EXIT
echo "machine: $(nproc) cores, load before: $(cut -d' ' -f1-3 /proc/loadavg)"
for arbiter in "${arbiters[@]}"; do
  run="$work/$(echo "$arbiter" | md5sum | cut -c1-8)"
  mkdir -p "$run/litter"
  cat > "$run/litter/litter.py" <<'PY'
import os, sys, uuid
def through(word):  # the lines of one turn, up to `word`
    for line in sys.stdin:
        if line.strip() == word:
            return
    sys.exit(0)
through("ready"); print("go", flush=True)
through("go"); print("go", flush=True)   # turn 1, no orders
folder = "files-" + uuid.uuid4().hex[:12]  # new names every match
os.mkdir(folder)
for i in range(60000):
    open(os.path.join(folder, str(i)), "w").close()
through("go")  # turn 2: gone at once, while the opponent thinks
sys.exit(3)
PY
  cat > "$run/thinker.py" <<'PY'
import sys, time
for line in sys.stdin:
    if line.strip() in ("ready", "go"):
        time.sleep(0.3)
        print("go", flush=True)
PY
  cat > "$run/config.json" <<JSON
{"name": "write-back-stall", "game": "ants", "pairing": "round-robin", "players": 2, "seed": 5,
 "bots": ["name=litter dir=$run/litter cmd=\"python3 litter.py\"",
          "name=thinker-1 cmd=\"python3 $run/thinker.py 1\"", "name=thinker-2 cmd=\"python3 $run/thinker.py 2\"",
          "name=thinker-3 cmd=\"python3 $run/thinker.py 3\""],
 "options": {"map": "$root/../shared/data/ants/maps/maze_02p_02.map", "turns": 5, "turn-ms": 5000}}
JSON
  start=$(date +%s.%N)
  "$arbiter" -q tournament --config "$run/config.json" --db "$run/t.sqlite" --out "$run/out" \
    --rounds "$rounds" -j 2 --no-progress --no-preflight > "$run/tournament.txt" 2>&1 || { cat "$run/tournament.txt"; exit 1; }
  wall=$(awk -v s="$start" -v e="$(date +%s.%N)" 'BEGIN {printf "%.1f", e - s}')
  python3 - "$run/out" "$run/litter" "$arbiter" "$wall" <<'PY'
import json, os, statistics, sys
out, folder, arbiter, wall = sys.argv[1:]
with_litter, without = [], []
for dirpath, _, names in os.walk(out):
    for name in names:
        if name != "record.json":
            continue
        record = json.load(open(os.path.join(dirpath, name)))
        seats = record["participants"]
        others = [s["usage"]["longest_reply_s"] for s in seats if s["bot"] != "litter"]
        (with_litter if any(s["bot"] == "litter" for s in seats) else without).append(max(others))
entries = sum(len(files) + len(dirs) for _, dirs, files in os.walk(folder))
size = sum(os.path.getsize(os.path.join(d, f)) for d, _, fs in os.walk(folder) for f in fs)
def line(name, values):
    if not values:
        return f"  {name}: no match"
    return (f"  {name}: {len(values)} matches, the other seats' longest reply: median {statistics.median(values)*1000:.1f} ms, "
            f"max {max(values)*1000:.1f} ms")
print(f"{arbiter}: {len(with_litter) + len(without)} matches in {wall} s")
print(line("with the littering bot", with_litter))
print(line("without it", without))
print(f"  its folder after the tournament: {entries} entries, {size} bytes")
PY
done
echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)"
