#!/usr/bin/env bash
# What the store's readers and writers say when the database is not as expected: one line and
# exit 2 for a locked database, a file that is not a database, an --out that is a file, a
# database in a read-only folder; no -wal/-shm files left beside a database by commands that only
# read it.
set -euo pipefail
ARBITER="$1"; SOURCE="$2"
TMP=$(mktemp -d); trap 'rm -rf "$TMP"' EXIT
cd "$TMP"
fail() { echo "FAIL: $*" >&2; exit 1; }
expect_error() {  # CODE TEXT COMMAND...
  local code="$1" text="$2"; shift 2
  local rc=0
  "$@" >out.txt 2>err.txt || rc=$?
  [ "$rc" = "$code" ] || fail "'$*' exited $rc, not $code: $(cat err.txt)"
  grep -qF -- "$text" err.txt || fail "'$*' said '$(cat err.txt)', not '$text'"
  [ "$(wc -l <err.txt)" = 1 ] || fail "'$*' printed more than one line: $(cat err.txt)"
}
for seed in 3 4; do  # two.json: a record not yet stored, so that importing it must write
  "$ARBITER" play planowanie --seed "$seed" --record "$([ "$seed" = 3 ] && echo one || echo two).json" --out play \
    --bot "name=a cmd=$(dirname "$ARBITER")/../bots/planowanie/random_bot" \
    --bot "name=b cmd=$(dirname "$ARBITER")/../bots/planowanie/random_bot" >/dev/null
done
"$ARBITER" import --db store.sqlite one.json >/dev/null
[ ! -e store.sqlite-wal ] && [ ! -e store.sqlite-shm ] || fail "import left -wal/-shm files"

# Reading commands leave nothing beside the database, writable or not.
for mode in 644 444; do
  chmod "$mode" store.sqlite
  "$ARBITER" rate --db store.sqlite >/dev/null
  "$ARBITER" los --db store.sqlite --game planowanie >/dev/null
  "$ARBITER" report --db store.sqlite --out report >/dev/null
  ls store.sqlite-* 2>/dev/null && fail "reading a $mode database left $(ls store.sqlite-*)"
done
chmod 644 store.sqlite

expect_error 2 "--out store.sqlite: cannot make a folder there" "$ARBITER" report --db store.sqlite --out store.sqlite
echo "not a database" >text.sqlite
expect_error 2 "database 'text.sqlite' is not a SQLite file" "$ARBITER" rate --db text.sqlite
head -c 3000 store.sqlite >cut.sqlite
expect_error 2 "database 'cut.sqlite' is corrupt" "$ARBITER" rate --db cut.sqlite

# A database in a read-only folder (read-only for root too: a read-only bind mount), new or
# already there: a writer cannot make its journal beside it, and says that the folder is why.
if bwrap --dev-bind / / true 2>/dev/null; then
  mkdir rodir
  cp store.sqlite rodir/old.sqlite
  for db in rodir/new.sqlite rodir/old.sqlite; do
    expect_error 2 "cannot be written: its folder '$TMP/rodir' is read-only" \
      bwrap --dev-bind / / --ro-bind "$TMP/rodir" "$TMP/rodir" "$ARBITER" import --db "$db" one.json
  done
  bwrap --dev-bind / / --ro-bind "$TMP/rodir" "$TMP/rodir" "$ARBITER" rate --db rodir/old.sqlite >/dev/null \
    || fail "rate could not read a database in a read-only folder"
else
  echo "note: bwrap cannot run here; the read-only folder case is not checked"
fi

# A database another process holds locked: the writer waits ARBITER_DB_WAIT_S, then says so.
python3 -c '
import sqlite3, sys, time
c = sqlite3.connect("store.sqlite", isolation_level=None)
c.execute("BEGIN EXCLUSIVE")
print("locked", flush=True)
time.sleep(10)' >lock.txt &
locker=$!
for _ in $(seq 100); do grep -q locked lock.txt 2>/dev/null && break; sleep 0.05; done
expect_error 2 "is locked by another process" env ARBITER_DB_WAIT_S=1 "$ARBITER" import --db store.sqlite two.json
kill "$locker"; wait "$locker" 2>/dev/null || true
echo OK
