#!/usr/bin/env bash
# Readers during a run: while `arbiter tournament -j 2` stores matches, `matches`, `rate` and
# `report` read the same database in a loop. No reading may see a half-stored match: every match
# `matches` lists has its four seats with ranks, `rate` counts twelve pairwise games per match (a whole
# number of matches, between the counts `matches` saw just before and just after), `report`
# counts matches the same way, and every reader exits 0. The tournament must end as undisturbed.
set -euo pipefail
ARBITER="$1"; SOURCE="$2"
TMP=$(mktemp -d); runner=""
trap '[ -z "$runner" ] || kill "$runner" 2>/dev/null; wait; rm -rf "$TMP"' EXIT
source "$SOURCE/tests/cluster/compare_with_in_process.sh"
CONFIG="$SOURCE/configs/demo.json"
cd "$TMP"
"$ARBITER" -q tournament --config "$CONFIG" --db t.sqlite --out out -j 2 --no-progress >run.out 2>run.err & runner=$!
until [ -s t.sqlite ] && sqlite3 t.sqlite 'SELECT 1 FROM matches LIMIT 1' 2>/dev/null | grep -q 1; do
  kill -0 "$runner" 2>/dev/null || break; sleep 0.02
done

# count_matches: the matches `arbiter matches` lists, each checked for four ranked seats.
count_matches() {
  "$ARBITER" matches --db t.sqlite >m.txt 2>m.err || fail "matches failed during the run: $(cat m.err)"
  awk '/^demo\// { n = gsub(/ (1st|2nd|3rd|4th|=1st|=2nd|=3rd|=4th) /, "&"); if (n != 4) { print "half-stored: " $0; exit 1 } }' m.txt >&2 ||
    fail "arbiter matches listed a match without its four seats"
  grep -c '^demo/' m.txt || true
}
readings=0; mid_run=0
while kill -0 "$runner" 2>/dev/null; do
  before=$(count_matches)
  "$ARBITER" rate --db t.sqlite >r.txt 2>r.err || fail "rate failed during the run: $(cat r.err)"
  games=$(awk 'NR > 1 { g += $6 } END { print g + 0 }' r.txt)
  # Early on, before every group has met, the report rightly refuses intervals it cannot give.
  if "$ARBITER" report --db t.sqlite --out rep >rep.txt 2>rep.err; then
    reported=$(sed -n 's/.*(1 game(s), \([0-9]*\) matches).*/\1/p' rep.txt)
  else
    grep -q "do not determine every rating difference" rep.err || fail "report failed during the run: $(cat rep.err)"
    reported=$before
  fi
  after=$(count_matches)
  # A match of four counts as 4 x 3 pairwise games in the table.
  [ $((games % 12)) = 0 ] || fail "rate counted $games pairwise games: not twelve per match"
  [ "$before" -le $((games / 12)) ] && [ $((games / 12)) -le "$after" ] ||
    fail "rate saw $((games / 12)) matches, matches saw $before then $after"
  [ -n "$reported" ] && [ "$before" -le "$reported" ] && [ "$reported" -le "$after" ] ||
    fail "report saw '${reported}' matches, matches saw $before then $after: $(cat rep.txt)"
  readings=$((readings + 1))
  [ "$after" -gt 0 ] && [ "$before" -lt 32 ] && mid_run=$((mid_run + 1))
done
wait "$runner" || fail "the tournament failed with readers about: $(cat run.err)"
runner=""
[ "$mid_run" -ge 3 ] || fail "only $mid_run readings during the run: nothing was tested"
echo "$readings readings ($mid_run during the run), none saw a half-stored match"
same_as_in_process t.sqlite "$CONFIG"
echo "OK"
