# What the scale benchmarks share (sourced by three_hosts_scale.sh and ingest_scale.sh).

# scale_config FILE MATCHES BOTS_DIR [SCHEDULE]: a Planowanie tournament of about MATCHES matches
# (8 random_bots in 2 groups of 4, 4 seatings each: 8 matches a round), with bots that answer at
# once and a time budget no load can exhaust, so that every run gives the same table. SCHEDULE
# (Planowanie's schedule option, e.g. "1 1 0": one deal of one card) makes shorter matches.
scale_config() {
  local file=$1 matches=$2 bots_dir=$3 schedule=${4:-}
  local rounds=$(( (matches + 7) / 8 )) bots="" i
  for i in 1 2 3 4 5 6 7 8; do bots+="\"name=r$i cmd=\\\"$bots_dir/planowanie/random_bot $i\\\"\","; done
  cat >"$file" <<CONF
{"name": "scale", "game": "planowanie", "pairing": "groups", "seed": 3, "rounds": $rounds,
 "random_rounds": $rounds, "bots": [${bots%,}], "options": {"total-time-ms": 20000${schedule:+, \"schedule\": \"$schedule\"}}}
CONF
}

# ingest_in_chunks ARBITER CONFIG RESULTS_DIR: the results again, in ten chunks, into a database
# planned afresh (chunks.sqlite, in the current folder); per chunk a line "STORED_BEFORE COUNT
# SECONDS MAX_RSS_KIB" in ingest.txt.
ingest_in_chunks() {
  local arbiter=$1 config=$2 results=$3 c before
  "$arbiter" plan --config "$config" --db chunks.sqlite --out chunk-jobs --no-preflight >/dev/null 2>&1
  find "$results" -name '*.result.json' | sort >all.txt  # too many for one command line
  split -n l/10 -d all.txt chunk.
  for c in chunk.??; do
    before=$(sqlite3 chunks.sqlite 'SELECT COUNT(*) FROM matches')
    mkdir "$c.d" && xargs -a "$c" mv -t "$c.d"  # a folder per chunk: ingest takes a folder whole
    /usr/bin/time -f "%e %M" -o one.txt "$arbiter" ingest --db chunks.sqlite "$c.d" >/dev/null
    echo "$before $(wc -l <"$c") $(cat one.txt)"
  done >ingest.txt
}
