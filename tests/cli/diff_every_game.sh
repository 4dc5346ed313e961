#!/usr/bin/env bash
# arbiter diff in the games cli_diff_same_step leaves out: a sample bot against a copy of itself
# that plays otherwise from a point it counts itself (tests/cli/bots/deviate.py) differs at that
# step, in the viewer's numbering, in both seats:
# - SamurAI: the copy changes its plans from the state of step 6 (each game's steps from 0): the
#   viewer draws those plans at frame 7, and its frame 7 (the new match's page) shows them;
# - smart-dog (bots over TCP): from its 4th turn (from 0), step 4, the state of turn 5 sent there;
# - Koehandel (bots are HTTP servers): from its 3rd auction (from 0), at the step the old match's
#   transcript holds that request under, the turn at which the two matches' viewers part.
# Each is checked through `arbiter show --seat N --step K` (the copy's changed reply and its
# stderr line there, the same replies as the old at step K-1) and the look line.
# Usage: diff_every_game.sh ARBITER BOTS_DIR
set -u
arbiter=$1
bots=$2
here=$(cd "$(dirname "$0")" && pwd)
shared=$(cd "$here/../../.." && pwd)/shared/data
deviate=$here/bots/deviate.py
. "$(dirname "$0")/scratch.sh"  # $tmp, the working folder, removed at exit; fail()
[ -f "$shared/samurai/fields/sample.dighere" ] && [ -f "$shared/smartdog/maps/simple-1.txt" ] || fail "no shared data at $shared"

# The step under which the version NAME's N-th request (from 0) that contains TEXT lies in a transcript.
request_step() {
    python3 - "$@" <<'PY'
import re, sys
path, name, text, n = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4])
label, step, seen = None, -1, 0
for line in open(path, encoding="utf-8", errors="replace"):
    m = re.match(r"# seat (\S+): bot (\S+):", line)
    if m and m.group(2) == name:
        label = m.group(1)
    m = re.match(r"\s*[0-9.]+ # step (\d+)$", line)
    if m:
        step = int(m.group(1))
        continue
    m = re.match(r"\s*[0-9.]+ (\S+) > (.*)", line)
    if m and m.group(1) == label and text in m.group(2):
        if seen == n:
            print(step)
            break
        seen += 1
PY
}

# The replies of seat SEAT at step STEP of a match, as `arbiter show` prints them.
replies() {
    "$arbiter" show "$1" --seat "$2" --step "$3" | sed -n '/^  replied/,/^  [a-z]/p' | grep '^    < '
}

# diff GAME, then for each game gI with its step K: the line, the look line and the show checks.
# Usage: check GAME G K  (after the diff ran into out-GAME)
check() {
    local game=$1 g=$2 k=$3 seat=$(( $2 % 2 ))
    [ -n "$k" ] || fail "$game g$g: no known step"
    grep -q "^g$g seed $((g + 1)) seat $seat: first difference at step $k (new replied " "$tmp/out" ||
        fail "$game g$g: not at step $k in seat $seat"
    grep -q "^  look: arbiter show out-$game/new/g$g --seat $seat --step $k\$" "$tmp/out" || fail "$game g$g: no look line"
    "$arbiter" show "out-$game/new/g$g" --seat "$seat" --step "$k" >"$tmp/show" 2>&1 || fail "$game g$g: show"
    grep -q "^step $k, seat $seat (new)" "$tmp/show" || fail "$game g$g: show names not new at step $k"
    grep -q '^    ! .*deviate: change at ' "$tmp/show" || fail "$game g$g: the copy's stderr is not at step $k"
    [ "$(replies "out-$game/new/g$g" "$seat" "$k")" != "$(replies "out-$game/old/g$g" "$seat" "$k")" ] ||
        fail "$game g$g: the same replies at step $k"
    [ "$(replies "out-$game/new/g$g" "$seat" $((k - 1)))" = "$(replies "out-$game/old/g$g" "$seat" $((k - 1)))" ] ||
        fail "$game g$g: the replies differ before step $k"
}

run_diff() {
    local game=$1
    shift
    "$arbiter" diff "$@" --game "$game" --games 2 -j 2 --out "out-$game" >"$tmp/out" 2>"$tmp/err" || fail "diff $game"
    grep -q '^2 of 2 matches differ; ' "$tmp/out" || fail "$game: not 2 of 2 matches differ"
    if grep -q 'not deterministic' "$tmp/out"; then fail "$game: the sample bot is called not deterministic"; fi
}

# SamurAI: plans from the state of step 6 on, drawn at frame 7.
run_diff samurai "name=old cmd=$bots/samurai/greedy_digger" \
    "name=new cmd=\"python3 $deviate samurai 6 change $bots/samurai/greedy_digger\"" \
    --set field="$shared/samurai/fields/sample.dighere"
for g in 0 1; do check samurai $g 7; done
# The viewer's frame 7 is the field after the plans of step 6: the new match's shows the copy's
# agents' actions otherwise than the old's, and frame 6 the same.
for side in old new; do "$arbiter" view "out-samurai/$side/g0" >/dev/null 2>&1 || fail "view samurai $side"; done
python3 - out-samurai/old/g0/viewer.html out-samurai/new/g0/viewer.html <<'PY' || fail "samurai: the viewer's frame 7 is not where they part"
import json, re, sys
def states(path):
    text = open(path, encoding="utf-8").read()
    m = re.search(r'<script type="application/json" id="match-data">(.*?)</script>', text, re.S)
    return json.loads(m.group(1).replace("<\\/", "</"))["replay"]["games"][0]["states"]
old, new = states(sys.argv[1]), states(sys.argv[2])
assert old[6] == new[6], "frame 6 differs"
assert [old[7]["actions"][a] for a in (0, 2)] != [new[7]["actions"][a] for a in (0, 2)], "frame 7 is the same for seat 0's agents"
PY

# smart-dog: from its turn 4 (from 0) on, step 4, where the state of turn 5 is sent.
run_diff smartdog "name=old cmd=python3 arg=$bots/smartdog/herder.py" \
    "name=new cmd=python3 arg=$deviate arg=smartdog arg=4 arg=change arg=$bots/smartdog/herder.py" \
    --set map="$shared/smartdog/maps/simple-1.txt" --set turns=12
for g in 0 1; do
    check smartdog $g 4
    grep -q '^    > state  "turn":5$' "$tmp/show" || fail "smartdog g$g: step 4 is not the state of turn 5"
done

# Koehandel: from its auction 3 (from 0) on; the step is where the old match's transcript has it.
run_diff koehandel "name=old cmd=python3 arg=$bots/koehandel/value_bot.py" \
    "name=new cmd=python3 arg=$deviate arg=koehandel arg=3 arg=change arg=$bots/koehandel/value_bot.py"
for g in 0 1; do
    k=$(request_step out-koehandel/old/g$g/transcript.txt old "&type=auction&" 3)
    check koehandel "$g" "$k"
    grep -q '^    > .*&type=auction&' "$tmp/show" || fail "koehandel g$g: no auction sent at step $k"
    # The viewer's turns (each match replayed from its player logs) part at turn k.
    for side in old new; do "$arbiter" view "out-koehandel/$side/g$g" >/dev/null 2>&1 || fail "view koehandel $side g$g"; done
    python3 - "out-koehandel/old/g$g/viewer.html" "out-koehandel/new/g$g/viewer.html" "$k" <<'PY' ||
import json, re, sys
def turns(path):
    text = open(path, encoding="utf-8").read()
    m = re.search(r'<script type="application/json" id="match-data">(.*?)</script>', text, re.S)
    return json.loads(m.group(1).replace("<\\/", "</"))["replay"]["turns"]
old, new = turns(sys.argv[1]), turns(sys.argv[2])
first = next(i for i, (a, b) in enumerate(zip(old, new)) if a != b)
assert first == int(sys.argv[3]), f"the viewer's turns part at {first}"
PY
        fail "koehandel g$g: the viewer's turns do not part at turn $k"
done
echo ok
