#!/usr/bin/env bash
# Two behaviours that need more than one command, with the Planowanie sample bots:
# - a tournament resumed with a different config is refused before any bot starts (no pre-flight
#   line), naming each key that differs with its old and new value;
# - `arbiter play` writes each run into a folder of its own (two runs of one seed do not overwrite
#   each other), prints the record, replay, transcript and logs paths, and they exist.
# Usage: resume_and_play_folders.sh ARBITER BOTS_DIR
set -u
arbiter=$1
bots=$2
. "$(dirname "$0")/scratch.sh"  # $tmp, the working folder, removed at exit; fail()
pair=(--bot "name=a cmd=$bots/planowanie/random_bot" --bot "name=b cmd=$bots/planowanie/random_bot")

"$arbiter" tournament -q --db t.sqlite --game planowanie --rounds 1 "${pair[@]}" -j 2 --no-progress >out 2>err ||
    fail "first tournament run"
"$arbiter" tournament --db t.sqlite --game planowanie --rounds 2 --seed 4 "${pair[@]}" -j 2 --no-progress >out 2>err
rc=$?
[ "$rc" -eq 2 ] || fail "resumed with another config: exit $rc, wanted 2"
grep -q "was created with a different config (rounds: 1 then, 2 now; seed: 1 then, 4 now)" err ||
    fail "the refusal does not name the keys that differ"
if grep -q "pre-flight" err; then fail "the pre-flight ran before the resume check"; fi

for run in 1 2; do
    "$arbiter" play planowanie --seed 3 "${pair[@]}" >out$run 2>err || fail "play run $run"
done
for run in 1 2; do
    for what in record replay transcript logs; do
        path=$(sed -n "s/^$what: //p" out$run)
        [ -n "$path" ] || fail "play run $run prints no '$what:' path"
        [ -e "$path" ] || fail "play run $run: $what $path does not exist"
    done
done
first=$(sed -n 's/^record: //p' out1)
second=$(sed -n 's/^record: //p' out2)
[ "$(dirname "$first")" != "$(dirname "$second")" ] || fail "two runs of seed 3 share the folder $(dirname "$first")"
case "$first" in arbiter-out/planowanie-seed3-*) ;; *) fail "the folder is not named by game, seed and time: $first" ;; esac
echo "OK"
