#!/usr/bin/env bash
# Whole Koehandel games per second with the sample bots (4 seats), through `arbiter play`:
#   tools/bench/koehandel/bench_games.sh BUILD_DIR [GAMES=20]
# Prints games per second for four C++ bots (Beast) and for four Python bots (http.server);
# each game starts the four bot processes afresh, as a match does.
set -euo pipefail
build=${1:?usage: bench_games.sh BUILD_DIR [GAMES]}
games=${2:-20}
bots=$build/bots/koehandel
out=$(mktemp -d -t koehandel-bench.XXXXXX)
trap 'rm -rf "$out"' EXIT
run() {  # run LABEL COMMAND
  local label=$1 cmd=$2 t0 t1 seed
  t0=$(date +%s.%N)
  for seed in $(seq 1 "$games"); do
    "$build/bin/arbiter" -q play koehandel --seed "$seed" --out "$out" \
      --bot "name=a cmd='$cmd'" --bot "name=b cmd='$cmd'" --bot "name=c cmd='$cmd'" --bot "name=d cmd='$cmd'" > /dev/null
  done
  t1=$(date +%s.%N)
  echo "$label games=$games games_per_s=$(echo "$games / ($t1 - $t0)" | bc -l | cut -c1-5)"
}
run "cpp-beast" "$bots/value_bot"
run "python-http.server" "python3 $bots/value_bot.py"
