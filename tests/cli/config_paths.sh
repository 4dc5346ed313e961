#!/usr/bin/env bash
# Relative paths in a config file are the config file's, whatever the working directory:
#   1. a Planowanie tournament whose bots are named by a relative program (no dir=) and by a
#      relative dir= with a program relative to it, and whose "out" is relative, played from
#      another folder: it runs, and its files land beside the config; a program linked out of
#      its bot's folder is refused in one line;
#   2. an Ants plan whose relative "map" reaches the job file as the path beside the config,
#      while an absolute bot program is left as written.
#   config_paths.sh ARBITER_BINARY SHARED_DATA_DIR
set -euo pipefail
arbiter=$1
shared=$2
bots="$(dirname "$arbiter")/../bots"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }

mkdir -p "$work/conf/bots/b" "$work/conf/maps" "$work/elsewhere"
ln -s "$(realpath "$bots/planowanie/random_bot")" "$work/conf/bots/a"
cp "$bots/planowanie/random_bot" "$work/conf/bots/b/run"
cat > "$work/conf/tour.json" <<'JSON'
{
  "name": "paths", "game": "planowanie", "pairing": "round-robin", "players": 2, "rounds": 1,
  "bots": ["name=a cmd=\"bots/a 1\"", "name=b dir=bots/b cmd=\"./run 2\""],
  "out": "out"
}
JSON
cd "$work/elsewhere"
"$arbiter" -q tournament --config ../conf/tour.json --db t.sqlite -j 1 --no-progress > tour.txt \
  || { cat tour.txt; fail "tournament with config-relative bots did not run"; }
grep -q "tournament paths: 2 matches" tour.txt || { cat tour.txt; fail "expected 2 matches"; }
[ -d "$work/conf/out" ] || fail "'out' was not taken from the config's folder"
[ ! -e "$work/elsewhere/out" ] || fail "'out' was taken from the working directory"
# A link in a bot's folder that leads out of it is never followed: a bot may have left it there.
rm "$work/conf/bots/b/run"
ln -s "$(realpath "$bots/planowanie/random_bot")" "$work/conf/bots/b/run"
if "$arbiter" -q tournament --config ../conf/tour.json --db t2.sqlite -j 1 --no-progress > linked.txt 2>&1; then
  fail "a program linked out of its bot's folder was run"
fi
grep -q "its program '.*/bots/b/run' is a link leading out of its folder" linked.txt || { cat linked.txt; fail "no reason given for the linked program"; }

cp "$shared/ants/maps/$(ls "$shared/ants/maps" | head -1)" "$work/conf/maps/m.map"
players=$(sed -n 's/^players \([0-9]*\).*/\1/p' "$work/conf/maps/m.map")
spec='"name=p%d cmd=/bin/cat"'
list=$(for i in $(seq 1 "$players"); do printf "$spec," "$i"; done)
cat > "$work/conf/ants.json" <<JSON
{"name": "ants-paths", "game": "ants", "pairing": "round-robin", "players": $players, "rounds": 1,
 "bots": [${list%,}], "options": {"map": "maps/m.map"}}
JSON
"$arbiter" plan --config ../conf/ants.json --db a.sqlite --out jobs --no-preflight > plan.txt 2>&1 || { cat plan.txt; fail "plan"; }
job=$(ls jobs/job-*.json | head -1)
grep -q "\"map\": *\"$work/conf/maps/m.map\"" "$job" || { cat "$job"; fail "map not resolved against the config"; }
grep -q 'cmd=/bin/cat' "$job" || { cat "$job"; fail "absolute program changed"; }
echo "config paths: OK"
