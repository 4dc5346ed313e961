# Shared by the cluster recipes: argument parsing and the plan / run / ingest loop. The recipe
# defines run_jobs LIST RESULTS LOGS, which plays every job file named in LIST.
set -euo pipefail

usage() {
  cat >&2 <<USAGE
usage: $0 --db DB --work DIR [--arbiter PATH] [--max-rounds N] [recipe options] -- PLAN_FLAGS...
  Plans the tournament that PLAN_FLAGS describe (the flags of 'arbiter plan', e.g. --config CFG),
  plays its jobs, ingests their results into DB, and plans again until the tournament is complete.
  DIR gets jobs/, results/ and logs/.
$RECIPE_USAGE
example: $0 --db t.sqlite --work cluster-run -- --config configs/demo.json
USAGE
  exit 2
}

ARBITER="${ARBITER:-$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)/build/release/bin/arbiter}"
DB=""; WORK=""; MAX_ROUNDS=1000
RECIPE_ARGS=()
parse_args() {
  while [ $# -gt 0 ]; do
    case "$1" in
      --db) DB="$2"; shift 2 ;;
      --work) WORK="$2"; shift 2 ;;
      --arbiter) ARBITER="$2"; shift 2 ;;
      --max-rounds) MAX_ROUNDS="$2"; shift 2 ;;
      --) shift; PLAN_FLAGS=("$@"); return 0 ;;
      -h|--help) usage ;;
      *) if recipe_option "$@"; then shift "$RECIPE_SHIFT"; else echo "$0: unknown option '$1'" >&2; usage; fi ;;
    esac
  done
  echo "$0: the plan flags go after --" >&2; usage
}

# Plans, runs and ingests until plan says the tournament is complete. A plan that has nothing
# new because results are missing runs the listed jobs again; twice without progress fails.
run_tournament() {
  [ -n "$DB" ] && [ -n "$WORK" ] || usage
  [ -x "$ARBITER" ] || { echo "$0: no arbiter at $ARBITER (build it, or give --arbiter)" >&2; exit 2; }
  mkdir -p "$WORK/results" "$WORK/logs"
  # Absolute: commands run over ssh start in the login's home folder, not here.
  WORK=$(cd "$WORK" && pwd)
  local stalled=0 rc
  for ((i = 0; i < MAX_ROUNDS; i++)); do
    rc=0
    "$ARBITER" plan --db "$DB" --out "$WORK/jobs" "${PLAN_FLAGS[@]}" >/dev/null || rc=$?
    if grep -q '"state": "complete"' "$WORK/jobs/manifest.json"; then
      echo "$0: tournament complete; results in $DB"
      return 0
    fi
    case "$rc" in
      0) stalled=0 ;;
      3) stalled=$((stalled + 1))
         [ "$stalled" -le 2 ] || { echo "$0: jobs keep failing; see $WORK/logs" >&2; exit 1; }
         # Jobs handed out before that still have no result (a lost node, a failed task) run again.
         echo "$0: retrying $(wc -l <"$WORK/jobs/jobs.txt") job(s) without a result:" \
           "$(xargs -r -n1 basename <"$WORK/jobs/jobs.txt" | sed 's/\.json$//' | tr '\n' ' ')" ;;
      *) exit "$rc" ;;
    esac
    run_jobs "$WORK/jobs/jobs.txt" "$WORK/results" "$WORK/logs" || true  # a failed job only lacks a result
    "$ARBITER" ingest --db "$DB" "$WORK/results"
  done
  echo "$0: not complete after $MAX_ROUNDS plans" >&2
  exit 1
}
