#!/usr/bin/env bash
# Brings up a one-node Slurm cluster on this machine (slurmctld and slurmd from Debian's
# slurm-wlm, on free loopback ports, state in a temporary folder, no munge: auth/none), runs the
# demo tournament through tools/cluster/slurm-tournament (one `sbatch --array` per plan) and
# checks it stores what `arbiter tournament` stores. Skipped, with the reason, where the daemons
# cannot start.
set -euo pipefail
ARBITER="$1"; SOURCE="$2"
skip() { echo "SKIP: $*"; exit 77; }
for tool in slurmctld slurmd sbatch sinfo; do
  command -v "$tool" >/dev/null || skip "$tool not found (tools/setup installs slurm-wlm)"
done
[ "$(id -u)" = 0 ] || skip "slurmd must run as root to start jobs; this test runs as $(id -un)"

TMP=$(mktemp -d)
PIDS=()
cleanup() {
  for pid in "${PIDS[@]}"; do kill "$pid" 2>/dev/null || true; done
  for pid in "${PIDS[@]}"; do wait "$pid" 2>/dev/null || true; done
  rm -rf "$TMP"
}
trap cleanup EXIT
source "$SOURCE/tests/cluster/compare_with_in_process.sh"

read -r CTLD_PORT SLURMD_PORT < <(python3 -c '
import socket
socks = [socket.socket() for _ in range(2)]
for s in socks: s.bind(("127.0.0.1", 0))
print(*[s.getsockname()[1] for s in socks])')
NODE=$(hostname -s)
mkdir -p "$TMP/state" "$TMP/spool"
cat >"$TMP/slurm.conf" <<CONF
ClusterName=arbitertest
SlurmctldHost=$NODE(127.0.0.1)
SlurmctldPort=$CTLD_PORT
SlurmdPort=$SLURMD_PORT
AuthType=auth/none
CredType=cred/none
SlurmUser=root
SlurmdUser=root
StateSaveLocation=$TMP/state
SlurmdSpoolDir=$TMP/spool
SlurmctldPidFile=$TMP/slurmctld.pid
SlurmdPidFile=$TMP/slurmd.pid
SlurmctldLogFile=$TMP/slurmctld.log
SlurmdLogFile=$TMP/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
SchedulerType=sched/builtin
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
ReturnToService=2
MpiDefault=none
SchedulerParameters=batch_sched_delay=0,sched_min_interval=0
NodeName=$NODE NodeAddr=127.0.0.1 CPUs=$(nproc) State=UNKNOWN
PartitionName=arbiter Nodes=$NODE Default=YES MaxTime=INFINITE State=UP
CONF
export SLURM_CONF="$TMP/slurm.conf"
slurmctld -D -i >"$TMP/slurmctld.out" 2>&1 & PIDS+=($!)
slurmd -D -N "$NODE" >"$TMP/slurmd.out" 2>&1 & PIDS+=($!)
for _ in $(seq 1 60); do
  sinfo -h -o %T 2>/dev/null | grep -qx idle && break
  sleep 0.5
done
if ! sinfo -h -o %T 2>/dev/null | grep -qx idle; then
  skip "the one-node Slurm cluster did not come up in 30 s: $(tail -2 "$TMP/slurmctld.out" "$TMP/slurmd.out" \
    "$TMP/slurmctld.log" "$TMP/slurmd.log" 2>/dev/null | tr '\n' ' ')"
fi
echo "one-node Slurm cluster up on $NODE (slurmctld :$CTLD_PORT, slurmd :$SLURMD_PORT)"

CONFIG="$SOURCE/configs/demo.json"
cd "$TMP"
"$SOURCE/tools/cluster/slurm-tournament" --arbiter "$ARBITER" --db jobs.sqlite --work run --poll 0.5 \
  -- --config "$CONFIG" >recipe.txt 2>&1 || { cat recipe.txt; fail "the recipe failed"; }
grep -q "tournament complete" recipe.txt || fail "the recipe did not finish: $(cat recipe.txt)"
tasks=$(ls run/logs/slurm | wc -l)
[ "$tasks" = 32 ] || fail "expected 32 Slurm array tasks (one per match), saw $tasks"
same_as_in_process jobs.sqlite "$CONFIG"
echo "OK"
