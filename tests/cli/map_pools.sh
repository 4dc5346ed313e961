#!/usr/bin/env bash
# Map pools through the binary, with the Ants sample bots and the shipped maps:
# - a tournament over a pool of 2-, 4- and 8-player maps, killed (SIGKILL) mid-run and run again,
#   ends with the same ratings, per-map tables and per-match maps as an undisturbed run;
# - `rate --by map` prints a table per map, each from the matches on it;
# - the seats and maps planned are the same for the same seed and differ for another;
# - `matches --format json` and the report name each match's map (and `--json` still works);
# - bad pools (unknown map, empty pool, a glob matching nothing, a map no group can fill) are one
#   line `arbiter: ...`, exit 2, and no database.
# Usage: map_pools.sh ARBITER BOTS_DIR SHARED_DATA_DIR
set -u
arbiter=$1
bots=$2
maps=$3/ants/maps
. "$(dirname "$0")/scratch.sh"  # $tmp, the working folder, removed at exit; fail()
field=()
for i in 1 2; do
    for b in hunter_bot greedy_bot random_bot hold_bot; do field+=(--bot "name=$b-$i cmd=$bots/ants/$b"); done
done
pool=(--maps "$maps/maze_02p_02.map" --maps "$maps/tutorial1.map" --maps "$maps/*_04p_01.map"
      --maps "$maps/random_walk_08p_01.map")
common=(--game ants "${pool[@]}" --set turns=150 --rounds 6 "${field[@]}" -q)
args=("${common[@]}" --seed 5 --no-progress)
stored() { "$arbiter" matches --db "$1" --format json 2>/dev/null | grep -c '"key"'; }

# Undisturbed.
"$arbiter" tournament "${args[@]}" --db a.sqlite -j 2 >out 2>err || fail "undisturbed run"
total=$(stored a.sqlite)
[ "$total" -eq 48 ] || fail "undisturbed run stored $total matches, wanted 48 (3 counts x 2 rounds x 8)"

# Killed once some results are stored, then the same command again.
"$arbiter" tournament "${args[@]}" --db b.sqlite -j 1 >out 2>err &
pid=$!
for _ in $(seq 600); do
    n=$(stored b.sqlite)
    [ "${n:-0}" -ge 12 ] && break
    sleep 0.05
done
kill -KILL "$pid" 2>/dev/null
wait "$pid" 2>/dev/null
killed_at=$(stored b.sqlite)
[ "$killed_at" -ge 12 ] && [ "$killed_at" -lt 48 ] || fail "the kill came at $killed_at stored matches, not mid-run"
"$arbiter" tournament "${args[@]}" --db b.sqlite -j 2 >out 2>err || fail "resumed run"
cat out err | grep -q "($((48 - killed_at)) played now, $killed_at from earlier runs)" ||
    fail "the resumed run did not play just the $((48 - killed_at)) missing matches"
"$arbiter" rate --db a.sqlite >ra || fail "rate a"
"$arbiter" rate --db b.sqlite >rb || fail "rate b"
diff ra rb >out || fail "the resumed run's table differs from the undisturbed run's"
"$arbiter" rate --db a.sqlite --by map >ma 2>err || fail "rate --by map a"
"$arbiter" rate --db b.sqlite --by map >mb 2>err || fail "rate --by map b"
diff ma mb >out || fail "the resumed run's per-map tables differ"
keys_maps() { "$arbiter" matches --db "$1" --format json | python3 -c '
import json, sys
for m in json.load(sys.stdin):
    print(m["key"], m["map"], " ".join(p["bot"] for p in m["participants"]))'; }
keys_maps a.sqlite >ka && keys_maps b.sqlite >kb || fail "matches --format json"
diff ka kb >out || fail "matches of the resumed run were played on other maps or seats"

# A table per map: every map of the rounds, each rated from its own matches.
for m in maze_02p_02.map tutorial1.map random_walk_08p_01.map; do
    grep -qx "map $m" ma || fail "rate --by map has no table for $m"
done
[ "$(grep -c "^map " ma)" -eq 5 ] || { cp ma out; fail "rate --by map: wanted 5 tables (every map of the pool: 2 rounds of each count)"; }
# The 8-player map's table rates all 8 bots; its matches are the rounds of 8.
awk '/^map random_walk_08p_01.map/{on=1; next} /^map /{on=0} on && /^ +[0-9]+ /{n++} END{exit n==8?0:1}' ma ||
    { cp ma out; fail "the 8-player map's table does not rate the 8 bots"; }
python3 - ka <<'PY' || fail "a round's matches are not all on one map with as many bots as it has players"
import sys, collections
rounds = collections.defaultdict(set)
for line in open(sys.argv[1]):
    key, m, *bots = line.split()
    players = {"maze_02p_02.map": 2, "tutorial1.map": 2, "maze_04p_01.map": 4, "random_walk_04p_01.map": 4,
               "random_walk_08p_01.map": 8}[m]
    assert len(bots) == players, line
    rounds[key.split("/")[1]].add(m)
assert all(len(s) == 1 for s in rounds.values()), rounds
PY
"$arbiter" matches --db a.sqlite --json >j1 && "$arbiter" matches --db a.sqlite --format json >j2 && cmp -s j1 j2 ||
    fail "matches --json is not --format json"

# The report's match list names each match's map: 2 rounds of 8 rotations on the 8-player map.
"$arbiter" report --db a.sqlite --out rep >out 2>err || fail "report"
[ "$(grep -o '<small>random_walk_08p_01.map</small>' rep/index.html | wc -l)" -eq 16 ] ||
    fail "the report does not name the 8-player map under its 16 matches"

# Seats and maps as planned: the same for the same seed, others for another.
plan_of() {
    "$arbiter" plan "${common[@]}" --seed "$1" --db "plan-$2.sqlite" --out "jobs-$2" --no-preflight >out 2>err ||
        { fail "plan with seed $1" >&2; exit 1; }
    python3 -c '
import json, sys, glob
for f in sorted(glob.glob(sys.argv[1] + "/job-*.json")):
    j = json.load(open(f))
    print(j["match"]["key"], j["match"].get("map"), j["match"]["bots"])' "jobs-$2"
}
plan_of 5 x >p1 || exit 1
plan_of 5 y >p2 || exit 1
plan_of 7 z >p3 || exit 1
[ -s p1 ] || fail "plan wrote no jobs"
diff p1 p2 >out || fail "the same seed planned other seats or maps"
if cmp -s p1 p3; then fail "another seed planned the same seats and maps"; fi
# Seeds 5 and 7 order the pool differently (5 and 6 happen to agree): the rounds' maps differ too.
round_maps() { grep '/g0/s0 ' "$1" | cut -d' ' -f2; }
if [ "$(round_maps p1)" = "$(round_maps p3)" ]; then fail "another seed played the pool in the same order"; fi
[ "$(round_maps p1 | wc -l)" -eq 6 ] || fail "the plan does not have one map per round"
grep -q random_walk_08p_01.map p1 || fail "the plan has no 8-player round"

# A ladder on a pool of 2-player maps: round r plays the r-th map of the seed's order.
printf '{"game": "ants", "seed": 3, "options": {"turns": 60}, "ladder": {"max_matches": 8},\n "maps": ["%s", "%s"]}\n' \
    "$maps/maze_02p_02.map" "$maps/tutorial1.map" >ladder.json
"$arbiter" ladder -q --db l.sqlite --config ladder.json "${field[@]:0:4}" --add "name=new cmd=$bots/ants/hunter_bot" \
    --no-preflight >out 2>err
rc=$?
[ "$rc" -ne 1 ] && [ "$rc" -ne 2 ] || fail "ladder on a pool: exit $rc"
"$arbiter" matches --db l.sqlite --format json | python3 -c '
import json, sys
maps = {m["key"].split("/")[3]: m["map"] for m in json.load(sys.stdin)}
assert len(set(maps.values())) == 2 and all(maps["r0"] != maps["r1"] for _ in [0]), maps' ||
    fail "the ladder's rounds did not go round the pool"
"$arbiter" ladder -q --db l2.sqlite --config ladder.json "${field[@]:0:4}" --add "name=new cmd=$bots/ants/hunter_bot" \
    --maps "$maps/maze_04p_01.map" --maps "$maps/maze_02p_02.map" >out 2>err
[ $? -eq 2 ] && [ "$(wc -l <err)" -eq 1 ] && grep -q "^arbiter: map 'maze_04p_01.map' is for 4 players; a ladder" err ||
    fail "a ladder pool of two player counts is not one line, exit 2"

# Bad pools: one line, exit 2, nothing created.
bad() {
    local what=$1 want=$2
    shift 2
    "$arbiter" tournament --game ants --rounds 1 "${field[@]:0:6}" --db bad.sqlite "$@" >out 2>err
    local rc=$?
    [ "$rc" -eq 2 ] || fail "$what: exit $rc, wanted 2"
    [ "$(wc -l <err)" -eq 1 ] || fail "$what: wanted one line on stderr"
    grep -q "^arbiter: .*$want" err || fail "$what: the line does not say '$want'"
    [ ! -e bad.sqlite ] || fail "$what: a database was created"
}
bad "unknown map" "no map file '$maps/nope.map'" --maps "$maps/nope.map"
bad "a glob matching nothing" "matches no file" --maps "$maps/*_99p_*.map"
mkdir -p empty
bad "an empty folder" "holds no file" --maps empty
printf '{"game": "ants", "rounds": 1,\n "maps": []}\n' >empty.json
bad "an empty pool" "empty.json:2: the maps pool is empty" --config empty.json
bad "a map no group can fill" "map 'random_walk_08p_01.map' is for 8 players, but the tournament has 3 bots" \
    --maps "$maps/random_walk_08p_01.map" --maps "$maps/maze_02p_02.map"
bad "fields for a game on maps" "write 'maps', not 'fields'" --fields "$maps/maze_02p_02.map"
echo "OK"
