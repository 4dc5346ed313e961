# Sourced by the hosts tests: a cluster of HOSTS_N machines on this one, each a set of namespaces
# of its own (network, UTS hostname, mount with its own /run, PID), joined by a bridge that lives
# in a namespace of its own too, so no packet reaches the machine's own network:
#
#   hub namespace: bridge br0 ── veth ── node1 10.213.0.11  (slurmctld, slurmd, munged, sshd)
#                              ├─ veth ── node2 10.213.0.12  (slurmd, munged, sshd)
#                              └─ veth ── node3 10.213.0.13  (slurmd, munged, sshd)
#
# Every node sees the machine's files (the shared folder of a real cluster: the build and the
# test's folder), but its /run and /root are its own tmpfs, so its munge socket, pid files and
# home are its own.
# Killing a node's PID-namespace init takes every process of the node with it, as a power cut
# would. hosts_down (run from the caller's EXIT trap) removes all of it, whatever happened.
#
# The caller sets TMP (a fresh folder) and calls skip/fail; it gets node_exec I CMD..., node_kill I,
# and after hosts_up: HOST_ADDR[i], HOST_NAME[i].

HOSTS_N=${HOSTS_N:-3}
HOSTS_ID="arbh$$"
HOSTS_HUB="$HOSTS_ID-hub"
HOST_PID=()    # host pid of each node's PID-namespace init
HOST_NAME=(); HOST_ADDR=()
HOSTS_SUBNET=10.213.0

hosts_can_run() {
  [ "$(id -u)" = 0 ] || skip "network namespaces need root; this test runs as $(id -un)"
  for tool in ip unshare nsenter; do command -v "$tool" >/dev/null || skip "$tool not found"; done
  ip netns add "$HOSTS_ID-probe" 2>/dev/null || skip "cannot create a network namespace (ip netns add failed)"
  ip netns del "$HOSTS_ID-probe"
  hosts_sweep_stale
}

# A test killed outright (SIGKILL, a ctest timeout) runs no trap: the next one removes what it
# left, the namespaces, processes and cgroups of an arbh<pid> whose test process is gone.
hosts_sweep_stale() {
  local ns owner pid dir
  for ns in $(ip netns list | awk '{print $1}' | grep -E '^arbh[0-9]+-(n[0-9]+|hub)$'); do
    owner=${ns#arbh}; owner=${owner%%-*}
    kill -0 "$owner" 2>/dev/null && continue
    for pid in $(ip netns pids "$ns" 2>/dev/null); do kill -9 "$pid" 2>/dev/null || true; done
    sleep 0.2
    ip netns del "$ns" 2>/dev/null || true
  done
  for dir in /sys/fs/cgroup/*/*/arbh[0-9]*-n[0-9]* /sys/fs/cgroup/*/arbh[0-9]*-n[0-9]* /sys/fs/cgroup/*/*/*/arbh[0-9]*-n[0-9]*; do
    [ -d "$dir" ] || continue
    owner=$(basename "$dir"); owner=${owner#arbh}; owner=${owner%%-*}
    kill -0 "$owner" 2>/dev/null && continue
    find "$dir" -depth -type d -exec rmdir {} + 2>/dev/null || true
  done
}

hosts_down() {
  local i
  for i in "${!HOST_PID[@]}"; do kill -9 "${HOST_PID[$i]}" 2>/dev/null || true; done
  for i in "${!HOST_PID[@]}"; do
    # The unshare parent exits once its child (the node's init) is gone.
    for _ in $(seq 1 50); do kill -0 "${HOST_PID[$i]}" 2>/dev/null || break; sleep 0.1; done
  done
  local dir
  for dir in "${HOSTS_CGROUPS[@]}"; do
    for _ in $(seq 1 20); do
      [ -d "$dir" ] || break
      find "$dir" -depth -type d -exec rmdir {} + 2>/dev/null || sleep 0.1
    done
  done
  for i in $(seq 1 "$HOSTS_N"); do ip netns del "$HOSTS_ID-n$i" 2>/dev/null || true; done
  ip netns del "$HOSTS_HUB" 2>/dev/null || true   # takes the bridge and the veth ends with it
}

# node_init NAME HOSTS READY: the node's first process (pid 1 of its PID namespace, reaping its
# orphans as an init does). It takes its hostname and its own /run (and /proc), then waits; daemons are started into it with node_exec.
# /etc/hosts names the cluster's nodes. The node's home folders are its own too: an ssh login
# there runs no start-up file of this machine's root, and a node killed mid-login leaves nothing
# behind in this machine's /root (a shell's half-taken lock file, say).
hosts_node_init='hostname "$1"; mount -t tmpfs -o mode=755 tmpfs /run; mkdir -p /run/munge /run/sshd /run/slurmd;
  mount -t tmpfs -o mode=700 tmpfs /root; mount --bind "$2" /etc/hosts; : >"$3"; while :; do sleep 3600 & wait; done'

# Each node gets cgroups of its own (the v1 hierarchies the arbiter's limits use), as a real
# machine has its own tree: its arbiters then make and sweep their seat cgroups there, out of
# sight of the arbiters of this machine and of the other nodes.
HOSTS_CGROUPS=()
node_cgroups() {  # node_cgroups I: the node's cgroup folders, one a line
  local c own
  for c in memory pids cpuacct freezer; do
    [ -e "/sys/fs/cgroup/$c/cgroup.procs" ] || continue
    own=$(awk -F: -v c="$c" '{n = split($2, a, ","); for (k = 1; k <= n; k++) if (a[k] == c) print $3}' /proc/self/cgroup)
    [ -n "$own" ] && echo "/sys/fs/cgroup/$c${own%/}/$HOSTS_ID-n$1"
  done
}

hosts_up() {
  local dir
  for i in $(seq 1 "$HOSTS_N"); do
    for dir in $(node_cgroups "$i"); do mkdir -p "$dir" && HOSTS_CGROUPS+=("$dir"); done
  done
  ip netns add "$HOSTS_HUB"
  ip -n "$HOSTS_HUB" link add br0 type bridge
  ip -n "$HOSTS_HUB" link set br0 up
  local i ns
  printf '127.0.0.1 localhost\n' >"$TMP/hosts"
  for i in $(seq 1 "$HOSTS_N"); do
    HOST_NAME[$i]="node$i"; HOST_ADDR[$i]="$HOSTS_SUBNET.$((10 + i))"
    echo "${HOST_ADDR[$i]} ${HOST_NAME[$i]}" >>"$TMP/hosts"
  done
  for i in $(seq 1 "$HOSTS_N"); do
    ns="$HOSTS_ID-n$i"
    ip netns add "$ns"
    ip -n "$HOSTS_HUB" link add "h$i" type veth peer name eth0 netns "$ns"
    ip -n "$HOSTS_HUB" link set "h$i" master br0 up
    ip -n "$ns" addr add "${HOST_ADDR[$i]}/24" dev eth0
    ip -n "$ns" link set eth0 up
    ip -n "$ns" link set lo up
    # nsenter, not `ip netns exec`: that one mounts a sysfs of its own, without the machine's
    # cgroup file systems, which slurmd and the arbiter's limits use.
    NODE_CGROUPS="$(node_cgroups "$i" | tr '\n' ' ')" nsenter --net="/run/netns/$ns" sh -c \
      'for d in $NODE_CGROUPS; do echo $$ >"$d/cgroup.procs"; done; unset NODE_CGROUPS; exec "$@"' node-start unshare --uts --mount --pid --fork --mount-proc --propagation private \
      bash -c "$hosts_node_init" node-init "${HOST_NAME[$i]}" "$TMP/hosts" "$TMP/node$i.ready" </dev/null >"$TMP/node$i-init.out" 2>&1 &
    local unshare_pid=$! child=""
    for _ in $(seq 1 50); do
      child=$(pgrep -P "$unshare_pid" | head -1) && [ -n "$child" ] && [ -e "$TMP/node$i.ready" ] && break
      child=""; sleep 0.1
    done
    [ -n "$child" ] || fail "node$i did not start: $(cat "$TMP/node$i-init.out")"
    HOST_PID[$i]=$child
  done
}

# node_exec I CMD...: runs CMD on node I (its network, hostname, /run, processes, cgroups), in
# this folder; for at most NODE_TIMEOUT seconds when that is set, so that a test stuck in a
# recipe still fails and cleans up before ctest's timeout kills it without its trap.
node_exec() {
  local i="$1"; shift
  local limit=(); [ -z "${NODE_TIMEOUT:-}" ] || limit=(timeout "$NODE_TIMEOUT")
  NODE_CGROUPS="$(node_cgroups "$i" | tr '\n' ' ')" "${limit[@]}" nsenter -t "${HOST_PID[$i]}" --net --uts --mount --pid --wd="$PWD" -- \
    sh -c 'for d in $NODE_CGROUPS; do echo $$ >"$d/cgroup.procs"; done; unset NODE_CGROUPS; exec "$@"' node-exec "$@"
}

# node_kill I: every process of node I dies at once, its daemons and whatever jobs it was running.
node_kill() {
  kill -9 "${HOST_PID[$1]}"
}

# --- munge: one key for the cluster, a munged per node on that node's own /run/munge socket.
munge_up() {
  command -v munged >/dev/null || skip "munged not found (tools/setup installs munge)"
  dd if=/dev/urandom of="$TMP/munge.key" bs=1 count=1024 status=none
  chmod 600 "$TMP/munge.key"
  local i
  for i in $(seq 1 "$HOSTS_N"); do
    node_exec "$i" munged --force --key-file "$TMP/munge.key" --socket /run/munge/munge.socket.2 \
      --pid-file /run/munge/munged.pid --log-file "$TMP/munged-$i.log" --seed-file /run/munge/seed \
      >"$TMP/munged-$i.out" 2>&1 || fail "munged did not start on node$i: $(cat "$TMP/munged-$i.out")"
  done
  node_exec 1 sh -c 'munge -n | unmunge' >/dev/null || fail "munge does not work on node1"
}

# --- sshd on each node, root by a key made for this test; ssh_cmd is what parallel's --ssh gets.
sshd_up() {
  [ -x /usr/sbin/sshd ] || skip "sshd not found (tools/setup installs openssh-server)"
  ssh-keygen -q -t ed25519 -N '' -f "$TMP/host_key"
  ssh-keygen -q -t ed25519 -N '' -f "$TMP/user_key"
  cp "$TMP/user_key.pub" "$TMP/authorized_keys"
  local i
  for i in $(seq 1 "$HOSTS_N"); do
    cat >"$TMP/sshd-$i.conf" <<CONF
ListenAddress ${HOST_ADDR[$i]}
HostKey $TMP/host_key
PidFile /run/sshd.pid
AuthorizedKeysFile $TMP/authorized_keys
PermitRootLogin prohibit-password
PasswordAuthentication no
KbdInteractiveAuthentication no
UsePAM no
StrictModes no
MaxStartups 100
MaxSessions 100
AcceptEnv ARBITER_*
CONF
    node_exec "$i" /usr/sbin/sshd -f "$TMP/sshd-$i.conf" -E "$TMP/sshd-$i.log" ||
      fail "sshd did not start on node$i: $(cat "$TMP/sshd-$i.log")"
  done
  cat >"$TMP/ssh_config" <<CONF
Host *
  User root
  IdentityFile $TMP/user_key
  StrictHostKeyChecking no
  UserKnownHostsFile /dev/null
  LogLevel ERROR
  BatchMode yes
  ConnectTimeout 5
  ServerAliveInterval 2
  ServerAliveCountMax 2
CONF
  SSH_CMD="ssh -F $TMP/ssh_config"
  for i in $(seq 1 "$HOSTS_N"); do
    [ "$(node_exec 1 $SSH_CMD "${HOST_ADDR[$i]}" hostname)" = "node$i" ] || fail "ssh from node1 to node$i failed"
  done
}

# --- Slurm: slurmctld on node1, slurmd on every node, munge authentication. Short timeouts so
# that a lost node is noticed in seconds; its batch jobs are requeued (JobRequeue=1).
slurm_up() {
  for tool in slurmctld slurmd sbatch sinfo; do
    command -v "$tool" >/dev/null || skip "$tool not found (tools/setup installs slurm-wlm)"
  done
  mkdir -p "$TMP/slurm-state"
  local nodes="" i
  for i in $(seq 1 "$HOSTS_N"); do
    nodes+="NodeName=${HOST_NAME[$i]} NodeAddr=${HOST_ADDR[$i]} CPUs=2 State=UNKNOWN"$'\n'
  done
  cat >"$TMP/slurm.conf" <<CONF
ClusterName=arbiterhosts
SlurmctldHost=node1(${HOST_ADDR[1]})
AuthType=auth/munge
CredType=cred/munge
SlurmUser=root
SlurmdUser=root
StateSaveLocation=$TMP/slurm-state
SlurmdSpoolDir=/run/slurmd
SlurmctldPidFile=/run/slurmctld.pid
SlurmdPidFile=/run/slurmd.pid
SlurmctldLogFile=$TMP/slurmctld.log
SlurmdLogFile=$TMP/slurmd-%n.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
SchedulerType=sched/builtin
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
ReturnToService=2
MpiDefault=none
JobRequeue=1
SlurmdTimeout=6
MessageTimeout=3
TCPTimeout=2
KillWait=2
MinJobAge=2
SchedulerParameters=batch_sched_delay=0
$nodes
PartitionName=arbiter Nodes=node[1-$HOSTS_N] Default=YES MaxTime=INFINITE State=UP
CONF
  export SLURM_CONF="$TMP/slurm.conf"
  node_exec 1 slurmctld -i >"$TMP/slurmctld.out" 2>&1 || fail "slurmctld did not start: $(cat "$TMP/slurmctld.out")"
  for i in $(seq 1 "$HOSTS_N"); do
    node_exec "$i" slurmd -N "${HOST_NAME[$i]}" >"$TMP/slurmd-$i.out" 2>&1 ||
      fail "slurmd did not start on node$i: $(cat "$TMP/slurmd-$i.out")"
  done
  local idle=0
  for _ in $(seq 1 60); do
    idle=$(node_exec 1 sinfo -h -N -o %T 2>/dev/null | grep -c '^idle' || true)
    [ "$idle" = "$HOSTS_N" ] && break
    sleep 0.5
  done
  [ "$idle" = "$HOSTS_N" ] || fail "the Slurm cluster did not come up in 30 s ($idle of $HOSTS_N nodes idle): $(
    tail -3 "$TMP/slurmctld.log" 2>/dev/null | tr '\n' ' ')"
}
