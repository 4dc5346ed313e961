#!/usr/bin/env bash
# A node lost mid-run: the demo tournament on three hosts (hosts_lib.sh) through RECIPE
# (parallel or slurm); as soon as node3 is playing a match, every process of node3 is killed and
# its link cut, as a power cut would. The run must still end with every match stored exactly
# once and the table of `arbiter tournament`, the recipe naming what it ran again (parallel:
# retried on another host; Slurm: requeued). Skipped, with the reason, where the cluster cannot
# be made.
set -euo pipefail
ARBITER="$1"; SOURCE="$2"; RECIPE="$3"
skip() { echo "SKIP: $*"; exit 77; }
fail() { echo "FAIL: $*" >&2; exit 1; }
TMP=$(mktemp -d)
source "$SOURCE/tests/hosts/hosts_lib.sh"
trap 'hosts_down; rm -rf "$TMP"' EXIT
hosts_can_run
source "$SOURCE/tests/cluster/compare_with_in_process.sh"
hosts_up
CONFIG="$SOURCE/configs/demo.json"
cd "$TMP"
case "$RECIPE" in
  parallel)
    command -v parallel >/dev/null || skip "GNU parallel is not installed (tools/setup installs it)"
    sshd_up
    LOGINS=(); for i in 1 2 3; do LOGINS+=(--sshlogin "1/${HOST_ADDR[$i]}"); done
    NODE_TIMEOUT=300 node_exec 1 "$SOURCE/tools/cluster/parallel-tournament" --arbiter "$ARBITER" --db jobs.sqlite --work run \
      --ssh "$SSH_CMD" "${LOGINS[@]}" -- --config "$CONFIG" >recipe.txt 2>&1 & recipe=$! ;;
  slurm)
    munge_up
    slurm_up
    NODE_TIMEOUT=300 node_exec 1 "$SOURCE/tools/cluster/slurm-tournament" --arbiter "$ARBITER" --db jobs.sqlite --work run \
      --poll 0.5 -- --config "$CONFIG" >recipe.txt 2>&1 & recipe=$! ;;
  *) fail "usage: node_lost.sh ARBITER SOURCE parallel|slurm" ;;
esac

# Wait for a match on node3 (a run-job process in its PID namespace), then stop every process of
# node3, so that the matches named are those it holds when it is lost (a short match may end
# between a look and the stop: then node3 goes on and the test looks again).
in_node3() { pgrep --ns "${HOST_PID[3]}" --nslist pid "$@"; }
running=""
for _ in $(seq 1 600); do
  if in_node3 -f "run-job" >/dev/null; then
    for _ in 1 2 3; do in_node3 | xargs -r kill -STOP 2>/dev/null || true; done
    running=$(in_node3 -af "run-job" | grep -o 'job-r[0-9]*-g[0-9]*-s[0-9]*' | sort -u | tr '\n' ' ' || true)
    [ -z "$running" ] || break
    in_node3 | xargs -r kill -CONT 2>/dev/null || true
  fi
  sleep 0.05
done
[ -n "$running" ] || fail "node3 never got a match: $(cat recipe.txt)"
ip -n "$HOSTS_ID-n3" link set eth0 down
node_kill 3
echo "node3 lost while playing: $running"

rc=0; wait "$recipe" || rc=$?
cat recipe.txt
[ "$rc" = 0 ] || fail "the recipe failed (exit $rc)"
grep -q "tournament complete" recipe.txt || fail "the recipe did not finish"
case "$RECIPE" in
  parallel) grep -q "failed on ${HOST_ADDR[3]}" recipe.txt || fail "the recipe did not say which jobs failed on node3" ;;
  slurm) grep -Eq "requeued by Slurm|retrying" recipe.txt || fail "the recipe did not say which tasks ran again" ;;
esac
for job in $running; do
  grep -q "$job" <(grep -E "failed on|requeued|retrying" recipe.txt) || fail "$job, lost with node3, is not named as run again"
done
[ "$(sqlite3 jobs.sqlite 'SELECT COUNT(*), COUNT(DISTINCT schedule_key) FROM matches')" = "32|32" ] ||
  fail "not every match stored exactly once: $(sqlite3 jobs.sqlite 'SELECT COUNT(*), COUNT(DISTINCT schedule_key) FROM matches')"
same_as_in_process jobs.sqlite "$CONFIG"
echo "OK"
