#!/usr/bin/env bash
# Resume correctness under random SIGKILLs: the resumed table equals an uninterrupted one.
#
#   tools/bench/tournament/resume_under_kills.sh [BUILD_DIR] [KILLS]
#
# Plays a small real Planowanie tournament (8 sample bots, 4 rounds: 2 random + 2 paired from
# results = 32 matches) once without interruption, then again on a fresh database while
# killing the arbiter with SIGKILL at random moments KILLS times (default 20), re-running the
# same command after each kill until it finishes. Checks that
#   - the resumed database holds exactly the scheduled matches (no key twice, none missing),
#   - every match has the same seats, scores and statuses as in the uninterrupted run,
#   - the final rating table printed is byte-identical.
# Exit 0 when all hold. Random kill delays come from $RANDOM seeded with KILL_SEED (default 1).
set -euo pipefail
build=${1:-build-tournament}
kills=${2:-20}
RANDOM=${KILL_SEED:-1}
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../../.." && pwd)
arbiter=$root/$build/bin/arbiter
[ -x "$arbiter" ] || { echo "no arbiter at $arbiter (build it first)"; exit 2; }
work=$(mktemp -d -t arbiter-resume.XXXXXX)
trap 'rm -rf "$work"' EXIT
export ARBITER_BOTS=$root/$build/bots
config=$root/configs/demo.json
cd "$work"

query="SELECT m.schedule_key, b.name, p.seat, p.score, p.rank, p.status, m.seed, m.deal_set
       FROM matches m JOIN participants p ON p.match_id = m.id JOIN bots b ON b.id = p.bot_id
       WHERE m.tournament = 'demo' ORDER BY m.schedule_key, p.seat;"

echo "reference run (uninterrupted)..."
"$arbiter" -q tournament --config "$config" --db ref.sqlite --no-progress -j 2 --out ref-out > ref.txt
sqlite3 ref.sqlite "$query" > ref.rows
total=$(sqlite3 ref.sqlite "SELECT COUNT(*) FROM tournament_match WHERE tournament = 'demo';")
echo "  $total matches scheduled"

killed=0
runs=0
while true; do
  runs=$((runs + 1))
  "$arbiter" -q tournament --config "$config" --db kill.sqlite --no-progress -j 2 --out kill-out > run.txt 2> run.err &
  pid=$!
  if [ "$killed" -lt "$kills" ]; then
    # 0.1 to 1.0 s: often mid-match, sometimes mid-commit, sometimes before the schedule
    # exists; short enough that all KILLS land before the tournament ends on an idle machine.
    sleep "$(printf '0.%d' $((1 + RANDOM % 9)))"; [ $((RANDOM % 5)) -eq 0 ] && sleep 0.5
    if kill -0 "$pid" 2>/dev/null; then
      kill -KILL "$pid" 2>/dev/null || true
      wait "$pid" 2>/dev/null || true
      killed=$((killed + 1))
      done_now=$(sqlite3 kill.sqlite "SELECT COUNT(*) FROM matches WHERE tournament = 'demo';" 2>/dev/null || echo 0)
      echo "  kill $killed: $done_now/$total stored"
      continue
    fi
  fi
  wait "$pid"
  if grep -q "INCOMPLETE" run.txt; then continue; fi
  break
done
# One more run: must play nothing and print the same table.
"$arbiter" -q tournament --config "$config" --db kill.sqlite --no-progress -j 2 --out kill-out > final.txt

sqlite3 kill.sqlite "$query" > kill.rows
stored=$(sqlite3 kill.sqlite "SELECT COUNT(*) FROM matches WHERE tournament = 'demo';")
distinct=$(sqlite3 kill.sqlite "SELECT COUNT(DISTINCT schedule_key) FROM matches WHERE tournament = 'demo';")
status=0
echo "runs: $runs, kills: $killed, stored: $stored (distinct keys $distinct), scheduled: $total"
[ "$stored" -eq "$total" ] && [ "$distinct" -eq "$total" ] || { echo "FAIL: stored matches differ from the schedule"; status=1; }
cmp -s ref.rows kill.rows && echo "per-match results: identical" || { echo "FAIL: per-match results differ"; diff ref.rows kill.rows | head; status=1; }
grep -q "(0 played now" final.txt && echo "final re-run played nothing" || { echo "FAIL: the final re-run played matches"; status=1; }
# The rating table: everything after the first line (which has timings), without the lines that
# name the database and its folders (each run has its own).
table() { tail -n +2 "$1" | grep -v -e '^results: ' -e '^match files: ' -e '^report: ' || true; }
if cmp -s <(table ref.txt) <(table final.txt); then echo "rating table: identical"; else
  echo "FAIL: rating tables differ"; diff <(table ref.txt) <(table final.txt) | head; status=1; fi
[ $status -eq 0 ] && echo "PASS"
exit $status
