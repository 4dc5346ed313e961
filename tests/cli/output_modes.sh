#!/usr/bin/env bash
# What the arbiter writes is its user's alone: `play`'s folder, its record, replay, transcript
# and logs, a tournament's database and match folders are 0700 folders and 0600 files, whatever
# the user's umask (022 here); with --shared-outputs they follow that umask. A bot's own files
# keep the user's umask. A report is a page for people: it follows the umask too.
#   output_modes.sh ARBITER_BINARY BOTS_DIR
set -euo pipefail
arbiter=$(realpath "$1")
bots=$(realpath "$2")
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }
umask 022
# Every folder and file below $1 has the modes $2 (folders) and $3 (files).
modes() {
  local wrong
  wrong=$(find "$1" \( -type d ! -perm "$2" -o -type f ! -perm "$3" \) -printf '%m %p\n' | head -5)
  [ -z "$wrong" ] || fail "under $1, expected folders $2 and files $3: $wrong"
}
mkdir -p "$work/bot"
printf '#!/bin/sh\ntouch made-by-the-bot\nexec "$1"\n' > "$work/bot/run"
chmod 755 "$work/bot/run"
seats=(--bot "name=writer dir=$work/bot cmd=\"./run $bots/planowanie/random_bot\"")
for i in 1 2 3; do seats+=(--bot "name=r$i cmd=$bots/planowanie/random_bot"); done

"$arbiter" -q play planowanie --seed 1 "${seats[@]}" --out "$work/private" > /dev/null
modes "$work/private" 700 600
[ "$(stat -c %a "$work/bot/made-by-the-bot")" = 644 ] || fail "the bot's own file is not 644: $(stat -c %a "$work/bot/made-by-the-bot")"

"$arbiter" -q play planowanie --seed 1 "${seats[@]}" --out "$work/shared" --shared-outputs > /dev/null
modes "$work/shared" 755 644

cat > "$work/tour.json" <<JSON
{"name": "modes", "game": "planowanie", "pairing": "round-robin", "players": 4, "rounds": 1,
 "bots": ["name=a cmd=$bots/planowanie/random_bot", "name=b cmd=\"$bots/planowanie/random_bot 2\"",
          "name=c cmd=\"$bots/planowanie/random_bot 3\"", "name=d cmd=\"$bots/planowanie/random_bot 4\""]}
JSON
"$arbiter" -q tournament --config "$work/tour.json" --db "$work/t/results.sqlite" --no-progress > /dev/null
modes "$work/t" 700 600
"$arbiter" -q report --db "$work/t/results.sqlite" --out "$work/report" > /dev/null
modes "$work/report" 755 644
echo "output modes: OK"
