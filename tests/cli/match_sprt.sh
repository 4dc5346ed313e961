#!/usr/bin/env bash
# `arbiter match` and `arbiter ladder --sprt` through the binary, on Planowanie with the
# sample bots: heuristic_bot beats random_bot, so an SPRT stops at its upper bound (exit 0)
# or, with the bots swapped, at its lower bound (exit 4) long before --games; two copies of one
# bot run out of games or stop at the lower bound; --db stores the matches and a rerun resumes;
# a bot that fails the pre-flight stops `match` (exit 2) and is a broken ladder version (exit 6).
# Usage: match_sprt.sh ARBITER BOTS_DIR
set -u
arbiter=$1
bots=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
heur="name=heuristic cmd=$bots/planowanie/heuristic_bot"
random="name=random cmd=$bots/planowanie/random_bot"

fail() {
    echo "FAIL: $*"
    echo "--- stdout"; cat "$tmp/out"; echo "--- stderr"; cat "$tmp/err"
    exit 1
}
# run WANTED_EXIT ARGS...: arbiter ARGS with its output in $tmp/out and $tmp/err.
run() {
    local want=$1
    shift
    "$arbiter" "$@" >"$tmp/out" 2>"$tmp/err"
    local rc=$?
    [ "$rc" -eq "$want" ] || fail "exit $rc, wanted $want: arbiter $*"
}
has() { grep -q -- "$1" "$tmp/out" || fail "stdout lacks '$1'"; }
# The number of deal sets in the final summary line.
deal_sets() { sed -n 's/.* after \([0-9]*\) deal sets.*/\1/p' "$tmp/out"; }

sprt=(--sprt elo0=0 elo1=100 alpha=0.05 beta=0.05)

# A strong bot: H1 accepted well before the 300 games (150 deal sets).
run 0 match "$heur" "$random" --game planowanie --games 300 "${sprt[@]}" -j 2 --no-progress
has "LLR: "
has "(-2.94, 2.94) \[0.00, 100.00\]$"
has "SPRT (\[0.00, 100.00\]) completed - H1 was accepted"
has "match heuristic vs random: better (H1 accepted)"
has "Ptnml(0-2): \["
n=$(deal_sets)
[ -n "$n" ] && [ "$n" -lt 100 ] || fail "H1 took $n deal sets"
# The same test is the same bytes, whatever -j.
cp "$tmp/out" "$tmp/first"
run 0 match "$heur" "$random" --game planowanie --games 300 "${sprt[@]}" -j 1 --no-progress
cmp -s "$tmp/out" "$tmp/first" || fail "-j 1 and -j 2 print different results"

# Four seats, A and B alternating (the second copies as heuristic#2, random#2): 16 A-B pairs per
# deal set, the same verdict.
run 0 match "$heur" "$random" --game planowanie --games 300 --players 4 "${sprt[@]}" -j 2 --no-progress
has "(planowanie, 4 seats, 4 games per deal set)"
has "match heuristic vs random: better (H1 accepted)"

# The weak bot as A: H0 accepted, exit 4.
run 4 match "$random" "$heur" --game planowanie --games 300 "${sprt[@]}" -j 2 --no-progress
has "SPRT (\[0.00, 100.00\]) completed - H0 was accepted"
has "match random vs heuristic: worse (H0 accepted)"

# Two copies of one bot: no H1; the run ends at the lower bound (4) or when the games run out (3).
"$arbiter" match "$heur" "name=heuristic2 cmd=$bots/planowanie/heuristic_bot" --game planowanie --games 40 "${sprt[@]}" -j 2 \
    --no-progress >"$tmp/out" 2>"$tmp/err"
rc=$?
[ "$rc" -eq 3 ] || [ "$rc" -eq 4 ] || fail "identical bots: exit $rc"
if [ "$rc" -eq 3 ]; then has "inconclusive (no SPRT bound reached) after 20 deal sets"; else has "H0 accepted"; fi

# --db: stored as tournament match-<A>-<B>-<seed>; a rerun plays nothing new and prints the same.
run 0 match "$heur" "$random" --game planowanie --games 12 --seed 5 --db "$tmp/m.sqlite" -j 2 --no-progress
has "after 6 deal sets (12 games)"
cp "$tmp/out" "$tmp/first"
count() {
    python3 -c 'import sqlite3,sys; print(sqlite3.connect(sys.argv[1]).execute("select count(*) from matches where tournament = ?", ("match-heuristic-random-5",)).fetchone()[0])' "$tmp/m.sqlite"
}
[ "$(count)" -eq 12 ] || fail "stored $(count) matches, wanted 12"
run 0 match "$heur" "$random" --game planowanie --games 12 --seed 5 --db "$tmp/m.sqlite" -j 2
cmp -s "$tmp/out" "$tmp/first" || fail "the resumed run prints other results"
[ "$(count)" -eq 12 ] || fail "the rerun stored more matches: $(count)"
# Without --sprt the LOS decides; progress goes to stderr.
grep -q "match heuristic vs random: 6/6 deal sets" "$tmp/err" || fail "no progress line on stderr"
# Each match leaves its folder beside the database, named by its key (d<set>-s<rotation>), and
# `arbiter verify` accepts its replay as it is.
folder="$tmp/m-files/match-heuristic-random-5/d5-s1"
for f in record.json replay.json transcript.txt logs/p0.stderr.log logs/p1.stderr.log; do
    [ -e "$folder/$f" ] || fail "no $f in $folder: $(ls -R "$tmp/m-files" | head -20)"
done
has "match files: $tmp/m-files/match-heuristic-random-5/"
"$arbiter" verify planowanie "$folder/replay.json" >"$tmp/verify" 2>&1 || { cat "$tmp/verify"; fail "verify of a match replay"; }
# --out chooses the folder; without --db or --out nothing is written.
run 0 match "$heur" "$random" --game planowanie --games 2 --out "$tmp/o" -j 1 --no-progress
[ -s "$tmp/o/match-heuristic-random-1/d0-s0/record.json" ] || fail "--out: no record in $(ls -R "$tmp/o" | head)"
(cd "$tmp" && mkdir -p none && cd none && "$arbiter" match "$heur" "$random" --game planowanie --games 2 -j 1     --no-progress >/dev/null 2>&1; [ -z "$(ls -A .)" ]) || fail "a match without --db or --out left files"

# A bot that cannot get through the game's set-up stops the match before it starts (exit 2).
run 2 match "$heur" "name=dead cmd=/bin/false" --game planowanie --games 4 -j 1 --no-progress
grep -q "arbiter: bot 'dead' failed the pre-flight: p0 crashed: exited with code 1" "$tmp/err" || fail "pre-flight line"
grep -q "the match did not start" "$tmp/err" || fail "pre-flight: the match started"
# The ladder: version 1 is the random bot, version 2 the heuristic bot.
db="$tmp/ladder.sqlite"
run 5 ladder --db "$db" --game planowanie --bot "$heur" --add "name=bot-1 cmd=$bots/planowanie/random_bot" \
    --max-matches 4 -j 2
run 0 ladder --db "$db" --game planowanie --add "name=bot-2 cmd=$bots/planowanie/heuristic_bot" --max-matches 400 \
    "${sprt[@]}" -j 2
has "stopped: SPRT: H1 accepted"
has "Results of bot-2 vs bot-1"
has "SPRT (\[0.00, 100.00\]) completed - H1 was accepted"
has "verdict: better (exit 0)"
run 4 ladder --db "$db" --game planowanie --add "name=bot-3 cmd=$bots/planowanie/random_bot" --max-matches 400 \
    "${sprt[@]}" -j 2 --format json
has '"verdict": "worse"'
has '"decision": "H0"'
# A new version that cannot get through the game's set-up is broken (exit 6) without a match.
run 6 ladder --db "$db" --game planowanie --add "name=dead-1 cmd=/bin/false" --max-matches 400 -j 2
has "stopped: failed the pre-flight: p0 crashed: exited with code 1"
has "matches: 0 this run, 0 in all"
has "verdict: broken (exit 6)"
echo "ok"
