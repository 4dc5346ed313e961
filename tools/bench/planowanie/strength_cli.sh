#!/usr/bin/env bash
# The heuristic sample bot against three random ones through `arbiter play` (real processes):
# DEAL_SETS seeds, each in all 4 cyclic rotations. Usage: strength_cli.sh BUILD_DIR [DEAL_SETS]
set -euo pipefail
build=${1:?usage: strength_cli.sh BUILD_DIR [DEAL_SETS]}
sets=${2:-10}
bots=$build/bots/planowanie
out=$(mktemp -d)
for seed in $(seq 1 "$sets"); do
  "$build/bin/arbiter" play planowanie --seed "$seed" --rotations --out "$out" \
    --bot "name=heuristic cmd=$bots/heuristic_bot" \
    --bot "name=random-1 cmd=\"$bots/random_bot 1\"" \
    --bot "name=random-2 cmd=\"$bots/random_bot 2\"" \
    --bot "name=random-3 cmd=\"$bots/random_bot 3\"" > /dev/null 2>&1
done
python3 - "$out" <<'PY'
import glob, json, sys
totals, wins, draws, losses, faults, n = {}, 0, 0, 0, 0, 0
for path in sorted(glob.glob(sys.argv[1] + "/planowanie-*.json")):
    r = json.load(open(path))
    n += 1
    faults += r["end_reason"] != "completed"
    ps = r["participants"]
    for p in ps:
        totals[p["bot"]] = totals.get(p["bot"], 0) + p["score"]
    for pair in r["pairs"]:
        a, b = ps[pair["a"]]["bot"], ps[pair["b"]]["bot"]
        if "heuristic" not in (a, b):
            continue
        s = pair["score_a"] if a == "heuristic" else 1 - pair["score_a"]
        wins += s == 1; draws += s == 0.5; losses += s == 0
print(f"{n} matches, {faults} ended by a fault")
print("mean score per match: " + ", ".join(f"{k} {v / n:.1f}" for k, v in sorted(totals.items())))
print(f"heuristic vs each random: {wins} wins, {draws} draws, {losses} losses")
PY
rm -rf "$out"
