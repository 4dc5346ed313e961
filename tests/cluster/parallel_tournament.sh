#!/usr/bin/env bash
# The demo tournament through tools/cluster/parallel-tournament (GNU parallel, -j 2) stores the
# same schedule and rating table as `arbiter tournament`; plan, run-job and ingest refuse what
# they must and count a result once.
set -euo pipefail
ARBITER="$1"; SOURCE="$2"
command -v parallel >/dev/null || { echo "SKIP: GNU parallel is not installed (tools/setup installs it)"; exit 77; }
TMP=$(mktemp -d); trap 'rm -rf "$TMP"' EXIT
source "$SOURCE/tests/cluster/compare_with_in_process.sh"
CONFIG="$SOURCE/configs/demo.json"
cd "$TMP"

"$SOURCE/tools/cluster/parallel-tournament" --arbiter "$ARBITER" --db jobs.sqlite --work run -j 2 \
  -- --config "$CONFIG" >recipe.txt 2>&1 || { cat recipe.txt; fail "the recipe failed"; }
grep -q "tournament complete" recipe.txt || fail "the recipe did not finish: $(cat recipe.txt)"
same_as_in_process jobs.sqlite "$CONFIG"

# Complete: plan writes nothing more and says so.
"$ARBITER" plan --config "$CONFIG" --db jobs.sqlite --out run/jobs >new.txt 2>plan.err
[ ! -s new.txt ] && [ ! -s run/jobs/jobs.txt ] || fail "a complete tournament planned more jobs"
grep -q "complete, nothing to plan" plan.err || fail "plan said: $(cat plan.err)"

# Ingesting every result again adds nothing.
"$ARBITER" ingest --db jobs.sqlite run/results >again.txt
grep -q "ingested 0 result(s)" again.txt || fail "a second ingest stored results: $(cat again.txt)"
[ "$(sqlite3 jobs.sqlite 'SELECT COUNT(*) FROM matches')" = 32 ] || fail "not 32 matches stored"

# A result cut short (a copy that did not finish) is refused in one line and stores nothing;
# a temporary file a killed run-job left is not read at all.
first_result=$(ls run/results/*.result.json | head -1)
head -c 300 "$first_result" >half.result.json
expect_error 2 "half.result.json: not valid JSON" "$ARBITER" ingest --db jobs.sqlite half.result.json
mkdir leftovers && head -c 300 "$first_result" >leftovers/job-r0-g0-s0.result.json.tmp
"$ARBITER" ingest --db jobs.sqlite leftovers >leftovers.txt
grep -q "ingested 0 result(s)" leftovers.txt || fail "a .tmp file was ingested: $(cat leftovers.txt)"

# A round in progress is not planned twice; --reissue writes its jobs again.
"$ARBITER" plan --config "$CONFIG" --db two.sqlite --out two >first.txt 2>/dev/null
[ "$(wc -l <first.txt)" = 16 ] || fail "the first plan of the demo should write its 2 random rounds (16 jobs)"
expect_error 3 "nothing new to plan" "$ARBITER" plan --config "$CONFIG" --db two.sqlite --out two
[ "$(wc -l <two/jobs.txt)" = 16 ] || fail "jobs.txt should still list the 16 jobs without a result"
"$ARBITER" plan --config "$CONFIG" --db two.sqlite --out elsewhere --reissue >reissued.txt 2>/dev/null
[ "$(wc -l <reissued.txt)" = 16 ] || fail "--reissue should write the 16 jobs again"

# Refusals: one line, exit 2.
first_job=$(head -1 first.txt)
"$ARBITER" run-job "$first_job" --out one.result.json >/dev/null
"$ARBITER" plan --config "$CONFIG" --tournament other --db three.sqlite --out three >/dev/null 2>&1
expect_error 2 "never planned it (no such tournament)" "$ARBITER" ingest --db three.sqlite one.result.json
"$ARBITER" plan --config "$CONFIG" --seed 8 --db four.sqlite --out four >/dev/null 2>&1
expect_error 2 "never planned it (the stored schedule has other seats or seeds for it)" \
  "$ARBITER" ingest --db four.sqlite one.result.json
sed 's/"key": "demo\/r0\/g0\/s0"/"key": "demo\/r9\/g0\/s0"/' one.result.json >foreign.result.json
expect_error 2 "never planned it (no such match in its schedule)" "$ARBITER" ingest --db two.sqlite foreign.result.json
expect_error 2 "holds the jobs of tournament 'demo'" \
  "$ARBITER" plan --config "$CONFIG" --tournament other --db two.sqlite --out two
expect_error 2 "not an arbiter match job file" "$ARBITER" run-job run/jobs/manifest.json --out x.json
echo '{"format": "arbiter-match-job", "version": 1' >broken.json
expect_error 2 "broken.json: not valid JSON" "$ARBITER" run-job broken.json --out x.json
expect_error 2 "not an arbiter match result file" "$ARBITER" ingest --db two.sqlite "$first_job"
expect_error 2 "plan needs a fixed number of rounds" \
  "$ARBITER" plan --config "$CONFIG" --db t3.sqlite --out t3 --time-budget 60
echo "OK"
