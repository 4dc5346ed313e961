#!/usr/bin/env bash
# Another process holds the database locked (BEGIN EXCLUSIVE in the sqlite3 shell, kept open)
# longer than the arbiter waits (ARBITER_DB_WAIT_S=2) mid-tournament. The run must stop with one
# line naming the lock, keep every match it stored whole, and the same command run again must
# end with the table of an undisturbed run.
set -euo pipefail
ARBITER="$1"; SOURCE="$2"
TMP=$(mktemp -d)
HOLDER=""
trap '[ -z "$HOLDER" ] || kill "$HOLDER" 2>/dev/null || true; rm -rf "$TMP"' EXIT
source "$SOURCE/tests/cluster/compare_with_in_process.sh"
source "$SOURCE/tests/storage/whole_matches.sh"
CONFIG="$SOURCE/configs/demo.json"
cd "$TMP"
run() { ARBITER_DB_WAIT_S=2 "$ARBITER" -q tournament --config "$CONFIG" --db t.sqlite --out out -j 2 --no-progress; }

run >run1.out 2>run1.err & runner=$!
for _ in $(seq 1 600); do
  [ "$(sqlite3 t.sqlite 'SELECT COUNT(*) FROM matches' 2>/dev/null || echo 0)" -ge 3 ] && break
  sleep 0.05
done
# The shell waits up to 10 s for its own lock, then keeps it for 8 s: longer than the 2 s the
# arbiter waits, shorter than the test's patience.
{ echo ".timeout 10000"; echo "BEGIN EXCLUSIVE;"; echo "SELECT 'locked';"; sleep 8; echo "COMMIT;"; } |
  sqlite3 t.sqlite >holder.out 2>&1 & HOLDER=$!
for _ in $(seq 1 200); do grep -q locked holder.out && break; sleep 0.05; done
grep -q locked holder.out || fail "the sqlite3 shell did not get the lock: $(cat holder.out)"
rc=0; wait "$runner" || rc=$?
stored=$(sqlite3 t.sqlite 'SELECT COUNT(*) FROM matches')
[ "$rc" = 2 ] || fail "the run against a locked database exited $rc, not 2 ($stored matches stored): $(cat run1.err)"
[ "$(wc -l <run1.err)" = 1 ] || fail "not one line on stderr: $(cat run1.err)"
grep -Eq "^arbiter: database '.*t\.sqlite' is locked by another process and stayed locked" run1.err ||
  fail "the line says: $(cat run1.err)"
echo "stopped by the lock with $stored of 32 matches stored: $(cat run1.err)"
wait "$HOLDER" || true; HOLDER=""
[ "$(sqlite3 t.sqlite 'PRAGMA integrity_check')" = ok ] || fail "integrity_check failed"
only_whole_matches t.sqlite

run >run2.out 2>run2.err || fail "the resumed run failed: $(cat run2.err)"
[ "$(sqlite3 t.sqlite 'SELECT COUNT(*), COUNT(DISTINCT schedule_key) FROM matches')" = "32|32" ] ||
  fail "after the resume, not every match stored once"
same_as_in_process t.sqlite "$CONFIG"
echo "OK"
