# Sourced by the cluster tests. same_as_in_process DB CONFIG: plays CONFIG in-process into a
# fresh database and fails unless DB holds the same schedule and the same rating table.
same_as_in_process() {
  local db="$1" config="$2" ref="$TMP/in-process.sqlite"
  "$ARBITER" tournament --config "$config" --db "$ref" --out "$TMP/in-process-out" -j 2 --no-progress >/dev/null 2>"$TMP/in-process.err" ||
    fail "the in-process tournament failed: $(cat "$TMP/in-process.err")"
  local q="SELECT schedule_key, seed, deal_set, bots_json FROM tournament_match ORDER BY schedule_key"
  sqlite3 "$db" "$q" >"$TMP/schedule-jobs.txt"
  sqlite3 "$ref" "$q" >"$TMP/schedule-in-process.txt"
  [ -s "$TMP/schedule-jobs.txt" ] || fail "no schedule stored in $db"
  diff "$TMP/schedule-in-process.txt" "$TMP/schedule-jobs.txt" >&2 || fail "the schedules differ"
  "$ARBITER" rate --db "$db" >"$TMP/rate-jobs.txt"
  "$ARBITER" rate --db "$ref" >"$TMP/rate-in-process.txt"
  diff "$TMP/rate-in-process.txt" "$TMP/rate-jobs.txt" >&2 || fail "the rating tables differ"
  echo "same schedule ($(wc -l <"$TMP/schedule-jobs.txt") matches) and rating table as in-process:"
  cat "$TMP/rate-jobs.txt"
}

fail() { echo "FAIL: $*" >&2; exit 1; }

# expect_error CODE TEXT COMMAND...: the command must exit CODE with TEXT in its one-line error.
expect_error() {
  local code="$1" text="$2"; shift 2
  local rc=0
  "$@" >"$TMP/out.txt" 2>"$TMP/err.txt" || rc=$?
  [ "$rc" = "$code" ] || fail "'$*' exited $rc, not $code: $(cat "$TMP/err.txt")"
  grep -qF -- "$text" "$TMP/err.txt" || fail "'$*' said '$(cat "$TMP/err.txt")', not '$text'"
}
