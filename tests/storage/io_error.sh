#!/usr/bin/env bash
# Writes to the database start failing with EIO mid-tournament (the LD_PRELOAD shim eio_shim.so:
# writes to the file ending in t.sqlite-wal fail after a number of them, as a dying disk's
# would). The run must stop with one line, `arbiter: cannot write database '...': Input/output
# error`, leave a database that passes PRAGMA integrity_check with only whole matches in it, and
# the same command, run again on sound storage, must end with the table of an undisturbed run.
set -euo pipefail
ARBITER="$1"; SOURCE="$2"; SHIM="$3"
# Under ASan (the sanitizer pass) a preloaded library comes before its runtime: allowed here.
export ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}verify_asan_link_order=0"
TMP=$(mktemp -d); trap 'rm -rf "$TMP"' EXIT
source "$SOURCE/tests/cluster/compare_with_in_process.sh"
source "$SOURCE/tests/storage/whole_matches.sh"
CONFIG="$SOURCE/configs/demo.json"
cd "$TMP"
run() { "$ARBITER" -q tournament --config "$CONFIG" --db t.sqlite --out out -j 2 --no-progress; }

rc=0
LD_PRELOAD="$SHIM" EIO_SHIM_SUFFIX=/t.sqlite-wal EIO_SHIM_AFTER=200 run >run1.out 2>run1.err || rc=$?
[ "$rc" = 2 ] || fail "the run under I/O errors exited $rc, not 2: $(cat run1.err)"
[ "$(wc -l <run1.err)" = 1 ] || fail "not one line on stderr: $(cat run1.err)"
grep -Eq "^arbiter: cannot write database '.*t\.sqlite': Input/output error$" run1.err ||
  fail "the line says: $(cat run1.err)"
[ "$(sqlite3 t.sqlite 'PRAGMA integrity_check')" = ok ] || fail "integrity_check: $(sqlite3 t.sqlite 'PRAGMA integrity_check')"
stored=$(sqlite3 t.sqlite 'SELECT COUNT(*) FROM matches')
[ "$stored" -lt 32 ] || fail "the I/O error came after the last match: nothing was tested"
only_whole_matches t.sqlite
echo "stopped by EIO with $stored of 32 matches stored: $(cat run1.err)"

run >run2.out 2>run2.err || fail "the resumed run failed: $(cat run2.err)"
[ "$(sqlite3 t.sqlite 'SELECT COUNT(*), COUNT(DISTINCT schedule_key) FROM matches')" = "32|32" ] ||
  fail "after the resume, not every match stored once"
same_as_in_process t.sqlite "$CONFIG"
echo "OK"
