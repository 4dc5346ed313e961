#!/usr/bin/env bash
# arbiter diff finds the step where a new version first replies otherwise:
# - Ants (steps marked): a copy of the greedy bot that replies only "go" from turn 5 on differs at
#   step 5 in every game, and --viewers opens both viewers at that step (#frame=5);
# - an exact copy of a bot: "no differences";
# - a bot that plays otherwise in its second run: "not deterministic";
# - Planowanie: a copy of the heuristic bot that answers "? changed" from its 7th request on
#   differs at that request: step or exchange number read from the old match's transcript (by
#   exchange while the game marks no steps);
# - the same name twice is a usage error (exit 2).
# Usage: diff_same_step.sh ARBITER BOTS_DIR
set -u
arbiter=$1
bots=$2
map=$(cd "$(dirname "$0")/../../.." && pwd)/shared/data/ants/maps/maze_02p_02.map
. "$(dirname "$0")/scratch.sh"  # $tmp, the working folder, removed at exit; fail()
[ -f "$map" ] || fail "no Ants map at $map"

# Plays as the bot it wraps (the words after FROM) but replies otherwise from its FROM-th reply
# on (counted from 0 in Ants, where reply 0 answers the set-up; from 1 in Planowanie): MODE ants
# replies only "go" (no orders), MODE gtp "? changed".
cat >"$tmp/changer.py" <<'BOT'
import subprocess, sys, threading
mode, start, cmd = sys.argv[1], int(sys.argv[2]), sys.argv[3:]
bot = subprocess.Popen(cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1)
def feed():
    for line in sys.stdin:
        bot.stdin.write(line)
        bot.stdin.flush()
    bot.stdin.close()
threading.Thread(target=feed, daemon=True).start()
n, held = 0, []
for line in bot.stdout:
    if mode == "ants":
        if line.strip() != "go":
            held.append(line)
            continue
        out = "go\n" if n >= start else "".join(held) + line
        held, n = [], n + 1
    elif line.startswith(("=", "?")):
        n += 1
        out = "? changed\n" if n >= start else line
    else:
        out = line
    sys.stdout.write(out)
    sys.stdout.flush()
BOT

greedy=$bots/ants/greedy_bot
"$arbiter" diff "name=old cmd=$greedy" "name=new cmd=\"python3 $tmp/changer.py ants 5 $greedy\"" --game ants \
    --set map="$map" --set turns=12 --games 2 --out out-ants --viewers >"$tmp/out" 2>"$tmp/err" || fail "diff ants"
grep -q '^opponents: old itself (give --bot for others)$' "$tmp/out" || fail "the self-play opponent is not said"
[ "$(grep -c '^g[01] seed [12] seat [01]: first difference at step 5 (new replied "go", old "o ' "$tmp/out")" = 2 ] ||
    fail "not both games differ at step 5"
grep -q '^2 of 2 matches differ; ' "$tmp/out" || fail "no summary line"
# Where to look: the new version's seat at step 5, a command that prints that step.
grep -q '^  look: arbiter show out-ants/new/g0 --seat 0 --step 5$' "$tmp/out" || fail "no look line for g0"
grep -q '^  look: arbiter show out-ants/new/g1 --seat 1 --step 5$' "$tmp/out" || fail "no look line for g1"
look=$(sed -n 's/^  look: arbiter //p' "$tmp/out" | head -1)
# shellcheck disable=SC2086
"$arbiter" $look >"$tmp/show" 2>&1 || fail "the look command fails: $look"
grep -q '^step 5, seat 0 (new)' "$tmp/show" && grep -A1 -x '  replied (1 line):' "$tmp/show" | grep -qx '    < go' ||
    fail "the look command does not print new's reply at step 5"
if grep -q 'not deterministic' "$tmp/out"; then fail "the greedy bot is called not deterministic"; fi
[ -f out-ants/old/g0/transcript.txt ] && [ -f out-ants/new/g1/transcript.txt ] || fail "no match folders"
grep -q 'src="old/g0/viewer.html#frame=5"' out-ants/diff-g0.html || fail "the old viewer is not opened at step 5"
grep -q 'src="new/g0/viewer.html#frame=5"' out-ants/diff-g0.html || fail "the new viewer is not opened at step 5"
grep -q 'arbiterFrame' out-ants/new/g0/viewer.html || fail "the viewer does not post its frame"

cp "$greedy" "$tmp/greedy_copy"
"$arbiter" diff "name=old cmd=$greedy" "name=copy cmd=$tmp/greedy_copy" --game ants --set map="$map" \
    --set turns=12 --games 2 --out same >"$tmp/out" 2>"$tmp/err" || fail "diff of a copy"
grep -q '^no differences' "$tmp/out" || fail "a copy differs"

# OLD replies otherwise from turn 3 in its second run (it leaves a file in its folder in its first).
# (A confined bot sees its own folder and the paths of its command line, so all it runs is in it.)
mkdir "$tmp/forgetful"
cp "$tmp/changer.py" "$greedy" "$tmp/forgetful/"
cat >"$tmp/forgetful/bot.sh" <<'BOT'
#!/bin/sh
if [ -e ran ]; then from=3; else from=99; touch ran; fi
exec python3 changer.py ants $from ./greedy_bot
BOT
chmod +x "$tmp/forgetful/bot.sh"
"$arbiter" diff "name=old cmd=./bot.sh dir=$tmp/forgetful" "name=new cmd=$greedy" --bot "name=g cmd=$greedy" --game ants \
    --set map="$map" --set turns=8 --games 1 -j 1 --out again >"$tmp/out" 2>"$tmp/err" || fail "diff of a forgetful bot"
grep -q '^not deterministic: old differs from itself at step 3 of g0 ' "$tmp/out" || fail "no determinism warning"

heur=$bots/planowanie/heuristic_bot
"$arbiter" diff "name=old cmd=$heur" "name=new cmd=\"python3 $tmp/changer.py gtp 7 $heur\"" --game planowanie \
    --bot "name=r cmd=\"$bots/planowanie/random_bot 3\"" --games 2 --out plan >"$tmp/out" 2>"$tmp/err" || fail "diff planowanie"
# Where old's 7th request is in its transcript: its step, else its number.
expected=$(python3 - plan/old/g0/transcript.txt <<'PY'
import re, sys
label, step, marked, requests, previous = None, -1, False, 0, None
for line in open(sys.argv[1], encoding="utf-8", errors="replace"):
    m = re.match(r"# seat (\S+): bot old:", line)
    if m:
        label = m.group(1)
        continue
    m = re.match(r"\s*[0-9.]+ # step (\d+)$", line)
    if m:
        step, marked = int(m.group(1)), True
        continue
    m = re.match(r"\s*[0-9.]+ (\S+) ([<>]) ", line)
    if not m or m.group(1) != label:
        continue
    if m.group(2) == ">" and previous != ">":
        requests += 1
        if requests == 7:
            print(f"step {step}" if marked else "exchange 7")
            break
    previous = m.group(2)
PY
)
[ -n "$expected" ] || fail "old's transcript has no 7th request"
grep -q "^g0 seed 1 seat 0: first difference at $expected (new replied \"? changed\", old \"=" "$tmp/out" ||
    fail "planowanie: not at $expected"
if grep -q '^planowanie marks no steps' "$tmp/out"; then
    [ "$expected" = "exchange 7" ] || fail "marks no steps, yet the transcript has marks"
fi

"$arbiter" diff "name=x cmd=$greedy" "name=x cmd=$greedy" --game ants --set map="$map" >"$tmp/out" 2>"$tmp/err"
[ $? -eq 2 ] && grep -q "both named 'x'" "$tmp/err" || fail "two versions of one name"
echo "ok"
