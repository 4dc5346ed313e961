#!/usr/bin/env bash
# The demo tournament over GNU parallel on three hosts (network namespaces node1-3, each with its
# own hostname, address and sshd; see hosts_lib.sh), the recipe run from node1 as from a login
# node, in both ways the recipe reaches the hosts:
#   shared folder: --work is the test's folder, seen by every host at the same path;
#   --transfer: --work is in node1's own /run, which node2 and node3 do not see, so every job
#     and result must travel by parallel's --transferfile/--return.
# Each must store the same schedule and table as `arbiter tournament`, with matches on all
# three hosts. Skipped, with the reason, without root or network namespaces.
set -euo pipefail
ARBITER="$1"; SOURCE="$2"
skip() { echo "SKIP: $*"; exit 77; }
fail() { echo "FAIL: $*" >&2; exit 1; }
command -v parallel >/dev/null || skip "GNU parallel is not installed (tools/setup installs it)"
command -v rsync >/dev/null || skip "rsync is not installed (tools/setup installs it)"
TMP=$(mktemp -d)
source "$SOURCE/tests/hosts/hosts_lib.sh"
trap 'hosts_down; rm -rf "$TMP"' EXIT
hosts_can_run
source "$SOURCE/tests/cluster/compare_with_in_process.sh"
hosts_up
sshd_up
CONFIG="$SOURCE/configs/demo.json"
cd "$TMP"
LOGINS=(); for i in 1 2 3; do LOGINS+=(--sshlogin "1/${HOST_ADDR[$i]}"); done

# hosts_used JOBLOGS...: the hosts that ran a job successfully, one a line.
hosts_used() { awk -F'\t' 'FNR > 1 && $7 == 0 {print $2}' "$@" | sort -u; }

echo "== shared folder"
NODE_TIMEOUT=300 node_exec 1 "$SOURCE/tools/cluster/parallel-tournament" --arbiter "$ARBITER" --db shared.sqlite --work shared \
  --ssh "$SSH_CMD" "${LOGINS[@]}" -- --config "$CONFIG" >shared.txt 2>&1 || { cat shared.txt; fail "the recipe failed"; }
grep -q "tournament complete" shared.txt || fail "the recipe did not finish: $(cat shared.txt)"
[ "$(hosts_used shared/logs/*.joblog | wc -l)" = 3 ] || fail "the matches did not run on all three hosts: $(hosts_used shared/logs/*.joblog)"
[ "$(ls -d shared/logs/job-* | wc -l)" = 32 ] || fail "not 32 match folders under shared/logs"
same_as_in_process shared.sqlite "$CONFIG"

echo "== --transfer, the work folder only on node1"
NODE_TIMEOUT=300 node_exec 1 "$SOURCE/tools/cluster/parallel-tournament" --arbiter "$ARBITER" --db /run/work/t.sqlite \
  --work /run/work --transfer --ssh "$SSH_CMD" "${LOGINS[@]}" -- --config "$CONFIG" >transfer.txt 2>&1 ||
  { cat transfer.txt; fail "the recipe failed"; }
grep -q "tournament complete" transfer.txt || fail "the recipe did not finish: $(cat transfer.txt)"
[ ! -e /run/work ] || fail "node1's /run/work is visible outside node1: the test would not show a transfer"
node_exec 1 sh -c 'cat /run/work/logs/*.joblog' >transfer.joblog
[ "$(hosts_used transfer.joblog | wc -l)" = 3 ] || fail "the matches did not run on all three hosts: $(hosts_used transfer.joblog)"
node_exec 1 sqlite3 /run/work/t.sqlite ".backup $TMP/transfer.sqlite"
same_as_in_process transfer.sqlite "$CONFIG"
echo "OK"
