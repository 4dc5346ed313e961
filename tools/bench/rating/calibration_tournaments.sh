#!/usr/bin/env bash
# Calibration of the rating intervals with real bots (docs/rating.md "Calibration"): N seeded
# Planowanie tournaments of 8 copies of the sample random bot, each launch re-seeded from
# /dev/urandom, 4-seat groups in 4 rotations; then, per tournament, `arbiter los` with bayeselo's
# and with the bootstrap's LOS, and `arbiter rate` both ways for the intervals. Prints how often
# two identical bots' intervals are disjoint and how often LOS is below 5% or above 95%.
#   tools/bench/rating/calibration_tournaments.sh BUILD [N=20] [ROUNDS=6] [WORK=/tmp/arbiter-calibration]
set -euo pipefail
build=$(cd "${1:?build directory}" && pwd)
runs=${2:-20}
rounds=${3:-6}
work=${4:-/tmp/arbiter-calibration}
arbiter=$build/bin/arbiter
rm -rf "$work"
mkdir -p "$work"
cat > "$work/reseeded_random_bot" <<SH
#!/bin/sh
exec "$build/bots/planowanie/random_bot" "\$(od -An -N4 -tu4 /dev/urandom | tr -d ' ')"
SH
chmod +x "$work/reseeded_random_bot"
echo "load: $(cat /proc/loadavg)"
for i in $(seq "$runs"); do
    bots=""
    for b in 1 2 3 4 5 6 7 8; do bots="$bots${bots:+,} \"name=copy$b cmd=$work/reseeded_random_bot\""; done
    cat > "$work/t$i.json" <<JSON
{"name": "cal$i", "game": "planowanie", "format": "groups", "seed": $i, "rounds": $rounds,
 "random_rounds": $rounds, "bots": [$bots], "options": {"total-time-ms": 20000}}
JSON
    "$arbiter" tournament --config "$work/t$i.json" --db "$work/cal.db" --no-progress -j 2 > /dev/null
done
python3 - "$arbiter" "$work/cal.db" "$runs" <<'PY'
import json, subprocess, sys
arbiter, db, runs = sys.argv[1], sys.argv[2], int(sys.argv[3])
def out(*args):
    return subprocess.run([arbiter, *args], check=True, capture_output=True, text=True).stdout
for method in ("bayeselo", "bootstrap"):
    pairs = disjoint = extreme = 0
    for i in range(1, runs + 1):
        sel = ["--db", db, "--tournament", f"cal{i}", "--intervals", method]
        rows = json.loads(out("rate", *sel, "--format", "json"))["rows"]
        for a in range(len(rows)):
            for b in range(a + 1, len(rows)):
                x, y = rows[a], rows[b]
                pairs += 1
                if x["elo"] - x["minus"] > y["elo"] + y["plus"] or y["elo"] - y["minus"] > x["elo"] + x["plus"]:
                    disjoint += 1
        text = [l for l in out("los", *sel, "--width", "4").splitlines() if not l.startswith("intervals:")]
        lines = [l for l in text[1:] if l.strip()]
        cells = [l.split()[1:] for l in lines]  # per mille, truncated; the diagonal is blank
        for r, row in enumerate(cells):
            for c, v in enumerate(row):
                col = c if c < r else c + 1
                if col > r and (int(v) < 50 or int(v) >= 950):
                    extreme += 1
    print(f"{method:9} {runs} tournaments, {pairs} pairs: intervals disjoint {100*disjoint/pairs:.1f}%, "
          f"LOS <5% or >95% {100*extreme/pairs:.1f}%")
PY
echo "load: $(cat /proc/loadavg)"
