#!/usr/bin/env bash
# Records the multi-hill games of this folder with the original Ants engine (README.md here).
# Usage: record.sh AICHALLENGE_TREE [OUT_DIR]
#   AICHALLENGE_TREE: aichallenge/aichallenge at commit 4237971f with python3.patch applied
#   (it holds ants/ and worker/). OUT_DIR defaults to this folder.
set -euo pipefail
tree=${1:?usage: record.sh AICHALLENGE_TREE [OUT_DIR]}
out=$(cd "${2:-$(dirname "$0")}" && pwd)
cd "$tree/ants"
bot() { echo "python3 dist/sample_bots/python/$1.py"; }

# name, turns, map, bots...
record() {
  local name=$1 turns=$2 map=$3
  shift 3
  local bots=()
  for b in "$@"; do bots+=("$(bot "$b")"); done
  local log
  log=$(mktemp -d)
  python3 playgame.py --engine_seed 42 --player_seed 42 --turns "$turns" --nolaunch -l "$log" -E \
    --map_file "$map" "${bots[@]}" >/dev/null
  cp "$log/0.replay" "$out/$name.replay.json"
  rm -rf "$log"
  echo "$name: $(python3 -c 'import json,sys; r=json.load(open(sys.argv[1])); print(r["game_length"], r["status"], r["score"], r["replaydata"]["cutoff"])' "$out/$name.replay.json")"
}

record maze_p02_28__Hunter_Lefty 300 maps/maze/maze_p02_28.map HunterBot LeftyBot
record maze_04p_02__Hunter_Greedy_Lefty_Random 300 maps/multi_hill_maze/maze_04p_02.map \
  HunterBot GreedyBot LeftyBot RandomBot
record maze_04p_02__Hunter_Error_Timeout_Greedy 200 maps/multi_hill_maze/maze_04p_02.map \
  HunterBot ErrorBot TimeoutBot GreedyBot
record maze_07p_01__seven_bots 200 maps/multi_hill_maze/maze_07p_01.map \
  HunterBot LeftyBot GreedyBot RandomBot HunterBot LeftyBot GreedyBot
record cell_maze_p10_02__ten_bots 150 maps/cell_maze/cell_maze_p10_02.map \
  HunterBot LeftyBot GreedyBot RandomBot HunterBot LeftyBot GreedyBot RandomBot HunterBot LeftyBot
