#!/usr/bin/env bash
# The results' disk fills mid-tournament: the database and the match folders on a 1 MiB tmpfs
# (in a mount namespace of the test's own, so nothing else sees it). The run must stop with one
# line `arbiter: cannot write ...: No space left on device`, the database must pass its integrity
# check with only whole matches stored, and once there is room again the same command must end
# with the table of an undisturbed run. Needs root (or unprivileged user namespaces) to mount the
# tmpfs; skipped (77) without.
set -euo pipefail
ARBITER="$1"; SOURCE="$2"
if [ "${ARBITER_DISK_FULL_INSIDE:-}" != 1 ]; then
  unshare -m true 2>/dev/null || unshare -r -m true 2>/dev/null || { echo "SKIP: cannot make a mount namespace"; exit 77; }
  as_root=(); [ "$(id -u)" = 0 ] || as_root=(-r)
  exec env ARBITER_DISK_FULL_INSIDE=1 unshare "${as_root[@]}" -m --propagation private bash "$0" "$@"
fi
TMP=$(mktemp -d)
trap 'umount "$TMP/small" 2>/dev/null || true; rm -rf "$TMP"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
source "$SOURCE/tests/cluster/compare_with_in_process.sh"
source "$SOURCE/tests/storage/whole_matches.sh"
CONFIG="$SOURCE/configs/demo.json"
mkdir "$TMP/small"
mount -t tmpfs -o size=1m tmpfs "$TMP/small" || { echo "SKIP: cannot mount a tmpfs"; exit 77; }
cd "$TMP"
run() { "$ARBITER" -q tournament --config "$CONFIG" --db small/t.sqlite --out small/out -j 2 --no-progress; }

rc=0; run >run1.out 2>run1.err || rc=$?
stored=$(sqlite3 small/t.sqlite 'SELECT COUNT(*) FROM matches' 2>/dev/null || echo "?")
[ "$rc" = 2 ] || fail "the run on a full disk exited $rc, not 2 ($stored matches stored): $(cat run1.err)"
# The last line is the run's; a match that failed on the disk may have said so first, as -q keeps.
tail -1 run1.err | grep -Eq "^arbiter: cannot write .*: No space left on device$" || fail "the last line says: $(cat run1.err)"
! grep -v "No space left on device" run1.err || fail "a line on stderr not about the full disk"
echo "stopped by the full disk with $stored of 32 matches stored: $(tail -1 run1.err)"
[ "$stored" -lt 32 ] || fail "the disk never filled: all 32 matches stored"
# Room again; the integrity check writes nothing, and runs before the resume.
mount -o remount,size=256m "$TMP/small"
[ "$(sqlite3 small/t.sqlite 'PRAGMA integrity_check')" = ok ] || fail "integrity_check failed"
only_whole_matches small/t.sqlite

run >run2.out 2>run2.err || fail "the resumed run failed: $(cat run2.err)"
[ "$(sqlite3 small/t.sqlite 'SELECT COUNT(*), COUNT(DISTINCT schedule_key) FROM matches')" = "32|32" ] ||
  fail "after the resume, not every match stored once"
same_as_in_process small/t.sqlite "$CONFIG"
echo "OK"
