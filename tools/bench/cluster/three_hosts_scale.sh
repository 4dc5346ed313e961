#!/usr/bin/env bash
# Scale of the GNU parallel recipe on the three-host test cluster (tests/hosts/hosts_lib.sh:
# three network namespaces with sshd; needs root): MATCHES short Planowanie matches (8
# random_bots, random groups, 200 ms of think time each) in batched jobs
# (parallel-tournament --batch BATCH --no-logs, 1 match at a time per host), shared folder.
# Prints, as rows for docs/benchmarks.md:
#   - per-job overhead: (wall time x 3 slots / matches - mean match wall time) / mean match wall
#     time, i.e. what the recipe (plan, ssh, run-job start, ingest) adds to each match;
#   - ingest: seconds and peak memory (max RSS) of each plan's ingest, against the results
#     already stored, first and last (flat: independent of what is stored).
#
#   sudo tools/bench/cluster/three_hosts_scale.sh [MATCHES] [BATCH] [BUILD_DIR]
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
trap 'hosts_down; rm -rf "$TMP"' EXIT
hosts_can_run
hosts_up
sshd_up
rounds=$(( (matches + 7) / 8 ))   # 8 bots in 2 groups of 4, 4 seatings each: 8 matches a round
bots=""
for i in 1 2 3 4 5 6 7 8; do
  bots+="\"name=r$i cmd=\\\"$root/$build/bots/planowanie/random_bot $i\\\"\","
done
cat >"$TMP/scale.json" <<CONF
{"name": "scale", "game": "planowanie", "pairing": "groups", "seed": 3, "rounds": $rounds,
 "random_rounds": $rounds, "bots": [${bots%,}], "options": {"total-time-ms": 200}}
CONF
cd "$TMP"
wrap_ingest="$TMP/arbiter-timed"
# Each ingest timed with its peak memory, beside the count already stored.
cat >"$wrap_ingest" <<SH
#!/usr/bin/env bash
if [ "\$1" = ingest ]; then
  before=\$(sqlite3 "$TMP/scale.sqlite" 'SELECT COUNT(*) FROM matches' 2>/dev/null || echo 0)
  /usr/bin/time -f "%e %M" -o "$TMP/ingest.one" "$arbiter" "\$@" || exit \$?
  echo "\$before \$(ls "$TMP/run/results" | wc -l) \$(cat "$TMP/ingest.one")" >>"$TMP/ingest.log"
else
  exec "$arbiter" "\$@"
fi
SH
chmod +x "$wrap_ingest"
logins=(); for i in 1 2 3; do logins+=(--sshlogin "1/${HOST_ADDR[$i]}"); done
start=$(date +%s.%N)
node_exec 1 "$root/tools/cluster/parallel-tournament" --arbiter "$wrap_ingest" --db scale.sqlite --work run \
  --ssh "$SSH_CMD" "${logins[@]}" --batch "$batch" --no-logs -- --config scale.json --no-preflight \
  >recipe.txt 2>&1 || { tail -20 recipe.txt; fail "the recipe failed"; }
end=$(date +%s.%N)
stored=$(sqlite3 scale.sqlite 'SELECT COUNT(*) FROM matches')
mean=$(sqlite3 scale.sqlite 'SELECT AVG(wall_s) FROM matches')
awk -v s="$start" -v e="$end" -v n="$stored" -v m="$mean" -v b="$batch" 'BEGIN {
  t = e - s; per = t * 3 / n
  printf "| three hosts (netns), GNU parallel --batch %d, %d matches of 8 random_bots | %.0f s wall, %.3f s per match per host, mean match %.3f s | per-job overhead %.1f %% |\n", b, n, t, per, m, 100 * (per - m) / m }'
echo "ingest (stored before, results in folder, seconds, max RSS KiB), first and last:"
head -1 ingest.log; tail -1 ingest.log
awk '{ printf "| ingest with %d stored, %d result files | %.2f s | %d KiB max RSS |\n", $1, $2, $3, $4 }' ingest.log | sed -n '1p;$p'
