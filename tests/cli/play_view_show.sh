#!/usr/bin/env bash
# From a played match to what a bot said at a step, from any folder:
# - `arbiter play` prints the view command; `arbiter view` takes play's folder, its record or a
#   Koehandel player-log folder, from another folder (the record's paths are absolute);
# - a folder of seat rotations names one of its records; a folder with no match says what to give;
# - `arbiter show FOLDER --seat N --step K` prints what the bot was sent, replied and printed on
#   stderr at that step, and only that step's stderr; bad seats and steps are one line, exit 2.
# Usage: play_view_show.sh ARBITER BOTS_DIR
set -u
arbiter=$1
bots=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$tmp/work" "$tmp/elsewhere"
cd "$tmp/work" || exit 1
fail() {
    echo "FAIL: $*"
    echo "--- stdout"; cat "$tmp/out" 2>/dev/null; echo "--- stderr"; cat "$tmp/err" 2>/dev/null
    exit 1
}
# An Ants bot that says which turn it is on stderr, then passes.
cat >"$tmp/work/talker.sh" <<'BOT'
#!/bin/sh
n=0
while read -r line; do
  case "$line" in
    ready|go) echo "talker at turn $n" >&2
              # At turn 2 it tries to retitle and clear the terminal of whoever reads its output.
              [ "$n" = 2 ] && printf '\033]0;pwned\007\033[2J\302\233 after\n' >&2
              echo go; n=$((n+1));;
  esac
done
BOT
chmod +x "$tmp/work/talker.sh"
map=$(dirname "$0")/../../../shared/data/ants/maps/maze_02p_02.map
[ -f "$map" ] || map=$(cd "$(dirname "$0")/../../.." && pwd)/shared/data/ants/maps/maze_02p_02.map

"$arbiter" play ants --map "$map" --turns 6 --bot "name=talker cmd=$tmp/work/talker.sh" \
    --bot "name=greedy cmd=$bots/ants/greedy_bot" >"$tmp/out" 2>"$tmp/err" || fail "play ants"
view_line=$(grep '^view: ' "$tmp/out") || fail "play prints no view command"
folder=${view_line#view: arbiter view }
[ -d "$folder" ] || fail "the view command names no folder: $view_line"
abs_folder=$(cd "$folder" && pwd)

cd "$tmp/elsewhere" || exit 1
"$arbiter" view "$abs_folder" --out page.html >"$tmp/out" 2>"$tmp/err" || fail "view of play's folder from another folder"
grep -q '"io":' page.html || fail "the page holds no bot exchanges"
grep -q 'talker at turn 3' page.html || fail "the page holds no stderr line"
record=$(ls "$abs_folder"/ants-seed1-r0.json) || fail "no record"
"$arbiter" view "$record" --out page2.html >"$tmp/out" 2>"$tmp/err" || fail "view of play's record from another folder"

"$arbiter" show "$abs_folder" --seat 0 --step 3 >"$tmp/out" 2>"$tmp/err" || fail "show --seat --step"
grep -q '^step 3, seat 0 (talker)' "$tmp/out" || fail "show names no step and seat"
grep -q '> turn 3' "$tmp/out" || fail "show prints no request"
grep -q '< go' "$tmp/out" || fail "show prints no reply"
grep -q '! talker at turn 3' "$tmp/out" || fail "show prints no stderr of the step"
if grep -q 'talker at turn [0-24-9]' "$tmp/out"; then fail "show prints stderr of another step"; fi
"$arbiter" show "$abs_folder" --seat 0 --step 3 --json >"$tmp/out" 2>"$tmp/err" || fail "show --json"
python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); assert d[0]["stderr"]==["talker at turn 3"], d' "$tmp/out" ||
    fail "show --json gives not the step's stderr"

"$arbiter" show "$abs_folder" --seat 0 --step 2 >"$tmp/out" 2>"$tmp/err" || fail "show --step 2"
grep -q '\\x1b\]0;pwned\\x07\\x1b\[2J\\u009b after' "$tmp/out" || fail "show does not write the control characters out"
if LC_ALL=C grep -q $'\033\|\007\|\302\233' "$tmp/out"; then fail "show passes a bot's control characters to the terminal"; fi

"$arbiter" show "$abs_folder" --step 99 >"$tmp/out" 2>"$tmp/err"
[ $? -eq 2 ] && grep -q -- '--step 99: not in the match (its steps are 0..6)' "$tmp/err" || fail "a step not in the match"
"$arbiter" show "$abs_folder" --seat 7 --step 1 >"$tmp/out" 2>"$tmp/err"
[ $? -eq 2 ] && grep -q -- '--seat 7: the match has seats 0..1' "$tmp/err" || fail "a seat not in the match"
"$arbiter" show r0/g1/s2 >"$tmp/out" 2>"$tmp/err"
[ $? -eq 2 ] && grep -q 'needs --db' "$tmp/err" || fail "a key without --db"

# A Koehandel match: its player-log folder leads to its record.
cd "$tmp/work" || exit 1
"$arbiter" play koehandel --bot "name=v cmd=$bots/koehandel/value_bot" --out kh >"$tmp/out" 2>"$tmp/err" || fail "play koehandel"
cd "$tmp/elsewhere" || exit 1
"$arbiter" view "$tmp/work/kh/koehandel-seed1-r0-player-logs" >"$tmp/out" 2>"$tmp/err" || fail "view of a player-log folder"
[ -f "$tmp/work/kh/viewer.html" ] || fail "the page of a player-log folder is not beside its record"

# A folder of rotations names one record; an empty folder says what to give.
cd "$tmp/work" || exit 1
"$arbiter" play planowanie --rotations --out rot --bot "name=a cmd=$bots/planowanie/random_bot" \
    --bot "name=b cmd=$bots/planowanie/random_bot" >"$tmp/out" 2>"$tmp/err" || fail "play planowanie --rotations"
"$arbiter" view rot >"$tmp/out" 2>"$tmp/err"
[ $? -eq 2 ] && grep -q 'match records here (one per seat rotation): name one, e.g. rot/planowanie-seed1-r0.json' "$tmp/err" ||
    fail "a folder of rotations"
mkdir empty
"$arbiter" view empty >"$tmp/out" 2>"$tmp/err"
[ $? -eq 2 ] && grep -q 'no match record in this folder; give a match folder' "$tmp/err" || fail "an empty folder"
echo "ok"
