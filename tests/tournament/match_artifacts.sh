#!/usr/bin/env bash
# What a tournament match leaves, through the built binary: for each game with a verifier, a tiny
# tournament (no --out) must leave one folder per match beside the database, holding record.json,
# the replay, transcript.txt and logs/; the stored paths must point into it; `arbiter verify`
# must accept the replay straight from the folder; `matches` and `show` must find the match.
# A failing bot's seat must carry its exit, its limit and its stderr tail into record and store.
# Usage: match_artifacts.sh ARBITER BOTS_DIR SHARED_DATA_DIR
set -euo pipefail
arbiter=$1 bots=$2 data=$3
work=$(mktemp -d -t arbiter-artifacts.XXXXXX)
trap 'rm -rf "$work"' EXIT

fail() { echo "FAIL: $*" >&2; exit 1; }

# tournament NAME GAME REPLAY_FILE ARGS...: plays 1 round, checks the folder of r0-g0-s0.
check_game() {
    local name=$1 game=$2 replay=$3
    shift 3
    local db="$work/$name.sqlite"
    "$arbiter" -q tournament --name "$name" --game "$game" --rounds 1 --seed 5 -j 1 --no-progress --players 2 \
        --db "$db" "$@" > "$work/$name.out"
    local folder="$work/$name-files/$name/r0-g0-s0"
    for f in record.json "$replay" transcript.txt logs; do
        [ -e "$folder/$f" ] || fail "$game: $folder/$f missing ($(ls "$folder" 2>&1))"
    done
    ls "$folder/logs/"*.stderr.log > /dev/null || fail "$game: no stderr logs in $folder/logs"
    # Each seating is its own match with its own folder.
    [ -e "$work/$name-files/$name/r0-g0-s1/record.json" ] || fail "$game: no folder for the second seating"
    ls "$folder" | grep -q '\.tmp$' && fail "$game: a temporary file was left in $folder"
    python3 - "$folder" "$replay" <<'PY' || fail "$game: record.json paths"
import json, os, sys
folder, replay = sys.argv[1], sys.argv[2]
r = json.load(open(os.path.join(folder, "record.json")))
assert r["transcript_path"] == os.path.join(folder, "transcript.txt"), r["transcript_path"]
assert r["replay_path"] == os.path.join(folder, replay), r["replay_path"]
assert all("stderr_tail" in p and "limit" in p for p in r["participants"])
PY
    [ "$("$arbiter" verify "$game" "$folder/$replay" | cut -d' ' -f1)" = OK ] || fail "$game: verify refused $folder/$replay"
    "$arbiter" show --db "$db" r0-g0-s0 > "$work/$name.show"
    grep -q "^  replay      $folder/$replay\$" "$work/$name.show" || fail "$game: show does not list the replay"
    "$arbiter" show --db "$db" --json "$name/r0/g0/s1" | python3 -c '
import json, sys
m = json.load(sys.stdin)
assert m["key"].endswith("/r0/g0/s1"), m["key"]
assert m["files"]["folder"].endswith("/r0-g0-s1"), m["files"]
' || fail "$game: show --json"
    "$arbiter" matches --db "$db" --tournament "$name" | grep -q "^$name/r0/g0/s0  .*  $folder\$" ||
        fail "$game: matches does not list r0/g0/s0 with its folder"
    echo "ok: $game"
}

check_game pl planowanie replay.json \
    --bot "name=h cmd=$bots/planowanie/heuristic_bot" --bot "name=r cmd=\"$bots/planowanie/random_bot 1\"" \
    --set total-time-ms=20000
check_game an ants replay.json --set map="$data/ants/maps/maze_02p_02.map" --set turns=30 \
    --bot "name=h cmd=$bots/ants/hunter_bot" --bot "name=g cmd=$bots/ants/greedy_bot"
check_game sa samurai replay.dighere --set field="$data/samurai/fields/sample.dighere" \
    --bot "name=g cmd=$bots/samurai/greedy_digger" --bot "name=r cmd=\"$bots/samurai/random_player --seed 3\""
[ -e "$work/sa-files/sa/r0-g0-s0/replay-game2.dighere" ] || fail "samurai: the second game's log is missing"
check_game sd smartdog replay.txt --set map="$data/smartdog/maps/simple-1.txt" --set turns=40 \
    --bot "name=h cmd=$bots/smartdog/herder" --bot "name=r cmd=$bots/smartdog/random_dog"

# A bot that writes to stderr and exits 3 at once: its seat says so in the record and the store.
cat > "$work/dies.sh" <<'SH'
#!/bin/sh
echo "starting up" >&2
echo "fatal: no strategy file" >&2
exit 3
SH
chmod +x "$work/dies.sh"
"$arbiter" -q tournament --name f --game planowanie --rounds 1 -j 1 --no-progress --no-preflight --players 2 --db "$work/f.sqlite" \
    --bot "name=h cmd=$bots/planowanie/heuristic_bot" --bot "name=dies cmd=$work/dies.sh" > "$work/f.out"
grep -q "dies: crashed, exited with code 3.* | stderr: fatal: no strategy file" "$work/f.out" ||
    fail "the tournament's table does not say why 'dies' failed: $(cat "$work/f.out")"
"$arbiter" show --db "$work/f.sqlite" f/r0/g0/s0 > "$work/f.show"
grep -q "exited with code 3" "$work/f.show" || fail "show: no exit code"
grep -q "^    fatal: no strategy file$" "$work/f.show" || fail "show: no stderr tail"
python3 - "$work/f-files/f/r0-g0-s0/record.json" <<'PY' || fail "record.json: failure fields"
import json, sys
r = json.load(open(sys.argv[1]))
p = [p for p in r["participants"] if p["bot"] == "dies"][0]
assert p["status"] == "crashed" and p["exit_code"] == 3, p
assert p["stderr_tail"] == "starting up\nfatal: no strategy file", p["stderr_tail"]
PY
# Unknown keys: one line, exit 2, with a did-you-mean.
set +e
msg=$("$arbiter" show --db "$work/f.sqlite" f/r0/g0/s9 2>&1); rc=$?
set -e
[ $rc -eq 2 ] || fail "unknown key: exit $rc"
[ "$msg" = "arbiter: no match 'f/r0/g0/s9' in $work/f.sqlite (did you mean 'f/r0/g0/s0'?)" ] || fail "unknown key: $msg"
"$arbiter" matches --db "$work/f.sqlite" --json | python3 -c '
import json, sys
rows = json.load(sys.stdin)
assert [r["key"] for r in rows] == ["f/r0/g0/s0", "f/r0/g0/s1"], rows
assert all(r["folder"].endswith(r["key"][2:].replace("/", "-")) for r in rows), rows
dies = [p for p in rows[0]["participants"] if p["bot"] == "dies"][0]
assert dies["exit_code"] == 3 and dies["stderr_tail"].endswith("fatal: no strategy file"), dies
' || fail "matches --json"
set +e
msg=$("$arbiter" matches --db "$work/f.sqlite" --tournament ff 2>&1); rc=$?
set -e
[ $rc -eq 2 ] && [ "$msg" = "arbiter: no tournament 'ff' in $work/f.sqlite (did you mean 'f'?)" ] ||
    fail "unknown tournament: exit $rc: $msg"
echo "ok: failure reasons"

# A bot that never answers: its seat hit the time limit, and the arbiter's SIGKILL ended it.
"$arbiter" -q tournament --name slow --game planowanie --rounds 1 -j 1 --no-progress --no-preflight --players 2 \
    --db "$work/slow.sqlite" --set total-time-ms=300 \
    --bot "name=h cmd=$bots/planowanie/heuristic_bot" --bot "name=mute cmd=\"/bin/sleep 30\"" > "$work/slow.out"
python3 - "$work/slow-files/slow/r0-g0-s0/record.json" <<'PY' || fail "a timed-out seat's record"
import json, sys
r = json.load(open(sys.argv[1]))
p = [p for p in r["participants"] if p["bot"] == "mute"][0]
assert p["status"] == "timeout" and p["limit"] == "time" and p["exit_signal"] == 9 and p["exit_code"] is None, p
PY
grep -q "mute: timeout, time limit, killed by signal 9 (SIGKILL)" "$work/slow.out" || fail "table: $(cat "$work/slow.out")"
echo "ok: time limit"

# A match job played with --logs DIR leaves DIR as the match's folder, and the result says so.
"$arbiter" plan --game planowanie --players 2 --rounds 1 --name job --db "$work/job.sqlite" --out "$work/jobs" \
    --bot "name=h cmd=$bots/planowanie/heuristic_bot" --bot "name=r cmd=\"$bots/planowanie/random_bot 1\"" \
    > "$work/jobs.txt" 2> /dev/null
job=$(head -1 "$work/jobs.txt")
"$arbiter" run-job "$job" --out "$work/job.result.json" --logs "$work/job-match" > /dev/null
for f in record.json replay.json transcript.txt logs/p0.stderr.log; do
    [ -e "$work/job-match/$f" ] || fail "run-job --logs: $f missing"
done
python3 - "$work/job.result.json" "$work/job-match" <<'PY' || fail "run-job result paths"
import json, sys
r = json.load(open(sys.argv[1]))["record"]
assert r["replay_path"] == sys.argv[2] + "/replay.json", r["replay_path"]
PY
[ "$("$arbiter" verify planowanie "$work/job-match/replay.json" | cut -d' ' -f1)" = OK ] || fail "run-job replay"
echo "ok: run-job --logs"
