#!/usr/bin/env bash
# Plays the games of this folder again with OUR arbiter (`arbiter play ants --seed 42`) and the
# original's sample Python bots as real processes, and compares each replay with the recording:
# every replaydata field and every wrapper field but playernames (our seats need distinct names).
# Needs the original tree as for record.sh. Usage: play_with_arbiter.sh AICHALLENGE_TREE ARBITER
set -euo pipefail
tree=${1:?usage: play_with_arbiter.sh AICHALLENGE_TREE ARBITER}
arbiter=$(realpath "${2:?usage: play_with_arbiter.sh AICHALLENGE_TREE ARBITER}")
here=$(cd "$(dirname "$0")" && pwd)
bots=$(cd "$tree/ants/dist/sample_bots/python" && pwd)
maps=$(cd "$tree/ants/maps" && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
failed=0

play() {
  local name=$1 turns=$2 map=$3
  shift 3
  local args=() i=0
  for b in "$@"; do
    args+=(--bot "name=$b$i cmd=python3 arg=$bots/$b.py")
    i=$((i + 1))
  done
  "$arbiter" play ants --map "$maps/$map" --turns "$turns" --seed 42 "${args[@]}" --out "$work/$name" \
    --replay "$work/$name.json" >/dev/null
  if python3 - "$here/$name.replay.json" "$work/$name.json" <<'EOF'
import json, sys
rec, ours = (json.load(open(p)) for p in sys.argv[1:3])
bad = [k for k in set(rec['replaydata']) | set(ours['replaydata']) if rec['replaydata'].get(k) != ours['replaydata'].get(k)]
bad += [k for k in set(rec) | set(ours) if k not in ('replaydata', 'playernames') and rec.get(k) != ours.get(k)]
print(('same: ' if not bad else 'DIFFERENT (%s): ' % ', '.join(sorted(bad))) + sys.argv[1].split('/')[-1])
sys.exit(1 if bad else 0)
EOF
  then :; else failed=1; fi
}

play maze_p02_28__Hunter_Lefty 300 maze/maze_p02_28.map HunterBot LeftyBot
play maze_04p_02__Hunter_Greedy_Lefty_Random 300 multi_hill_maze/maze_04p_02.map \
  HunterBot GreedyBot LeftyBot RandomBot
play maze_04p_02__Hunter_Error_Timeout_Greedy 200 multi_hill_maze/maze_04p_02.map \
  HunterBot ErrorBot TimeoutBot GreedyBot
play maze_07p_01__seven_bots 200 multi_hill_maze/maze_07p_01.map \
  HunterBot LeftyBot GreedyBot RandomBot HunterBot LeftyBot GreedyBot
play cell_maze_p10_02__ten_bots 150 cell_maze/cell_maze_p10_02.map \
  HunterBot LeftyBot GreedyBot RandomBot HunterBot LeftyBot GreedyBot RandomBot HunterBot LeftyBot
exit $failed
