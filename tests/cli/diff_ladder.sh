#!/usr/bin/env bash
# From a ladder's verdict to where the new version plays otherwise: a Planowanie ladder registers
# a new version of a bot (one that declares otherwise), then `arbiter diff --ladder-db` replays
# the latest version and its family's previous one on the ladder's own matches. Checked: the
# versions chosen, a difference at step 1 (the declarations) in every match, and that the new
# side of each pair is the ladder's own match played again (the same seed, seats and scores as
# stored).
# Usage: diff_ladder.sh ARBITER BOTS_DIR CONFIG
set -u
arbiter=$1
bots=$2
config=$3
. "$(dirname "$0")/scratch.sh"  # $tmp, the working folder, removed at exit; fail()
export ARBITER_BOTS=$bots
sed -e 's#"out": "[^"]*"#"out": "ladder-out"#' -e 's#"max_matches": [0-9]*#"max_matches": 12#' "$config" > ladder.json
"$arbiter" ladder -q --db l.sqlite --config ladder.json \
    --add "name=heuristic-2 cmd=\"$bots/planowanie/random_bot 7\"" >"$tmp/out" 2>"$tmp/err"
rc=$?
[ "$rc" -eq 0 ] || [ "$rc" -eq 3 ] || [ "$rc" -eq 4 ] || fail "ladder exit $rc"

"$arbiter" diff --ladder-db l.sqlite --game planowanie --games 4 --out d -j 2 >"$tmp/out" 2>"$tmp/err" || fail "diff --ladder-db"
grep -q '^from the ladder in l.sqlite: heuristic-1 (old) and heuristic-2 (new) on 4 of heuristic-2' "$tmp/out" ||
    fail "the versions or the matches chosen are not said"
[ "$(grep -c 'first difference at step 1 ' "$tmp/out")" -eq 4 ] || fail "not 4 differences at step 1"

# The new side replays the ladder's stored matches: the same seed and the same scores by name.
"$arbiter" matches --db l.sqlite --json >"$tmp/stored.json" 2>"$tmp/err" || fail "matches --json"
python3 - "$tmp/stored.json" d/new <<'PY' || fail "the new side is not the ladder's own matches"
import json, sys, pathlib
stored = json.load(open(sys.argv[1]))
by_seed = {}
for m in stored:
    rec = json.load(open(pathlib.Path(m["folder"]) / "record.json")) if m.get("folder") else None
    if rec:
        by_seed[rec["seed"]] = {p["bot"]: p["score"] for p in rec["participants"]}
found = 0
for folder in sorted(pathlib.Path(sys.argv[2]).iterdir()):
    rec = json.load(open(folder / "record.json"))
    want = by_seed.get(rec["seed"])
    got = {p["bot"].split("#")[0]: p["score"] for p in rec["participants"]}
    assert want is not None, f"{folder}: seed {rec['seed']} is not a ladder match"
    assert got == want, f"{folder}: {got} where the ladder stored {want}"
    found += 1
assert found == 4, found
PY
"$arbiter" diff --ladder-db l.sqlite --game ants >"$tmp/out" 2>"$tmp/err"
[ $? -eq 2 ] && grep -q 'no ladder of this game' "$tmp/err" || fail "a game without a ladder"
echo ok
