#!/usr/bin/env bash
# Scale of the GNU parallel recipe on the three-host test cluster (tests/hosts/hosts_lib.sh:
# three network namespaces with sshd; needs root): MATCHES short Planowanie matches (8
# random_bots, random groups; bots that answer at once, with a time budget no load can exhaust, so both runs give the same table) in batched jobs
# (parallel-tournament --batch BATCH --no-logs, 1 match at a time per host), shared folder.
# Prints, as rows for docs/benchmarks.md:
#   - per-job overhead: the jobs' run times on their hosts against their matches' own wall times
#     (job_overhead.py); and the recipe's wall time against the same matches in-process, 3 at once
#     (arbiter tournament -j 3 on node1): what plan, ssh, a run-job process per match and
#     ingest add, as a share of the in-process time;
#   - ingest: the results ingested again in ten chunks into a freshly planned database, the
#     first and the last chunk's time and peak memory (max RSS) beside the count already stored
#     (flat: independent of what is stored).
#
#   sudo [SCHEDULE="1 1 0"] tools/bench/cluster/three_hosts_scale.sh [MATCHES] [BATCH] [BUILD_DIR]
#   (100000 matches: about MATCHES x 0.03 s / 3 hosts; 2 cores shared by the three hosts)
set -euo pipefail
matches=${1:-100000}
batch=${2:-50}
build=${3:-build/release}
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../../.." && pwd)
arbiter=$root/$build/bin/arbiter
[ -x "$arbiter" ] || { echo "no arbiter at $arbiter (build it first)"; exit 2; }
skip() { echo "cannot run: $*"; exit 2; }
fail() { echo "FAIL: $*" >&2; exit 1; }
TMP=$(mktemp -d -t arbiter-hosts-bench.XXXXXX)
source "$root/tests/hosts/hosts_lib.sh"
source "$here/scale_lib.sh"
trap 'hosts_down; rm -rf "$TMP"' EXIT
hosts_can_run
hosts_up
sshd_up
scale_config "$TMP/scale.json" "$matches" "$root/$build/bots" "${SCHEDULE:-}"
cd "$TMP"
logins=(); for i in 1 2 3; do logins+=(--sshlogin "1/${HOST_ADDR[$i]}"); done
seconds() { local s; s=$(date +%s.%N); "$@" >/dev/null 2>"$TMP/err" || { tail -5 "$TMP/err"; fail "$1 failed"; }
  awk -v s="$s" -v e="$(date +%s.%N)" 'BEGIN {printf "%.2f", e - s}'; }
echo "machine: $(nproc) cores, load before: $(cut -d' ' -f1-3 /proc/loadavg)"
# The same matches in-process, 3 at once (as the 3 hosts play them), on node1: the reference.
t_in=$(seconds node_exec 1 "$arbiter" -q tournament --config scale.json --db inproc.sqlite --out inproc-out \
  -j 3 --no-progress --no-preflight)
t_rec=$(seconds node_exec 1 "$root/tools/cluster/parallel-tournament" --db scale.sqlite --work run \
  --arbiter "$arbiter" --ssh "$SSH_CMD" "${logins[@]}" --batch "$batch" --no-logs -- --config scale.json --no-preflight)
stored=$(sqlite3 scale.sqlite 'SELECT COUNT(*) FROM matches')
[ "$stored" = "$(sqlite3 inproc.sqlite 'SELECT COUNT(*) FROM matches')" ] || fail "the two runs stored different counts"
cmp <("$arbiter" rate --db scale.sqlite) <("$arbiter" rate --db inproc.sqlite) >/dev/null || fail "the tables differ"
echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)"
# The jobs' own run times on their hosts against their matches' recorded wall times.
python3 "$here/job_overhead.py" run
awk -v a="$t_in" -v b="$t_rec" -v n="$stored" -v k="$batch" 'BEGIN {
  printf "| three hosts (netns, 2 cores), %d Planowanie matches of 8 random_bots, 3 at once: in-process / GNU parallel --batch %d over ssh | %.1f s / %.1f s (%.1f / %.1f ms a match) | recipe against in-process %+.1f %% |\n",
    n, k, a, b, 1000 * a / n, 1000 * b / n, 100 * (b - a) / a }'

# Ingest against what is stored: the results again, in ten chunks, into a database planned
# afresh; each chunk's time and peak memory beside the count stored before it.
ingest_in_chunks "$arbiter" scale.json run/results
awk '{ printf "| ingest of %d results with %d stored | %.2f s (%.2f ms a result) | %d KiB max RSS |\n", $2, $1, $3, 1000 * $3 / $2, $4 }' ingest.txt | sed -n '1p;$p'
