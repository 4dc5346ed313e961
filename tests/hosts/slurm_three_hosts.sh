#!/usr/bin/env bash
# The demo tournament through tools/cluster/slurm-tournament on a three-node Slurm cluster
# (network namespaces node1-3, see hosts_lib.sh): slurmctld on node1, slurmd on every node, one
# munge key, the work folder shared. The recipe is run on node1; every node must play matches,
# and the table must be the one `arbiter tournament` gives. Skipped, with the reason, without
# root, network namespaces or the Slurm and munge daemons.
set -euo pipefail
ARBITER="$1"; SOURCE="$2"
skip() { echo "SKIP: $*"; exit 77; }
fail() { echo "FAIL: $*" >&2; exit 1; }
TMP=$(mktemp -d)
source "$SOURCE/tests/hosts/hosts_lib.sh"
trap 'hosts_down; rm -rf "$TMP"' EXIT
hosts_can_run
source "$SOURCE/tests/cluster/compare_with_in_process.sh"
hosts_up
munge_up
slurm_up
echo "three-node Slurm cluster up: $(node_exec 1 sinfo -h -N -o '%N %T' | tr '\n' ' ')"
CONFIG="$SOURCE/configs/demo.json"
cd "$TMP"
NODE_TIMEOUT=300 node_exec 1 "$SOURCE/tools/cluster/slurm-tournament" --arbiter "$ARBITER" --db jobs.sqlite --work run --poll 0.5 \
  -- --config "$CONFIG" >recipe.txt 2>&1 || { cat recipe.txt; fail "the recipe failed"; }
grep -q "tournament complete" recipe.txt || fail "the recipe did not finish: $(cat recipe.txt)"
[ "$(ls run/logs/slurm | wc -l)" = 32 ] || fail "expected 32 Slurm array tasks (one per match), saw $(ls run/logs/slurm | wc -l)"
nodes=$(cat run/logs/slurm/*.out | sed -n 's/^slurm-task: .* on \(node[0-9]\).*/\1/p' | sort -u | tr '\n' ' ')
[ "$nodes" = "node1 node2 node3 " ] || fail "the matches did not run on all three nodes: $nodes"
same_as_in_process jobs.sqlite "$CONFIG"
echo "OK"
