#!/usr/bin/env python3
"""Live output and fail-fast through the arbiter binary, with the Planowanie sample bots and a bot
that dies at start (tests/cli/bots/crash_at_start.sh).

  fail_fast_e2e.py --binary BIN

1. The pre-flight stops the tournament before it starts: exit 2, one line naming the bot, its
   exit code and its stderr tail; nothing is stored.
2. --allow-broken: the broken bot's matches are forfeited without starting it; a line per finished
   match, the ratings table every --rating-interval matches, and where everything went.
3. --no-preflight --max-faults 2: the bot crashes twice, then forfeits every later match.
4. -q: no match lines, the summary stays.
"""
import argparse
import os
import re
import sqlite3
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
CRASH = os.path.join(os.path.dirname(HERE), "cli", "bots", "crash_at_start.sh")
FAILURES = []


def check(condition, what, output=""):
    if not condition:
        FAILURES.append(what)
        print(f"FAIL: {what}\n{output}", file=sys.stderr)


def run(binary, tmp, name, *extra):
    bots = os.path.join(os.path.dirname(os.path.dirname(binary)), "bots", "planowanie")
    args = [binary, *[e for e in extra if e.startswith("-q")], "tournament", "--db", os.path.join(tmp, "t.sqlite"),
            "--name", name, "--game", "planowanie", "--format", "round-robin", "--players", "2", "--rounds", "1",
            "--seed", "5", "--sandbox", "none", "--no-progress", "--set", "total-time-ms=20000",
            "--bot", f"name=r1 cmd=\"{bots}/random_bot 1\"", "--bot", f"name=r2 cmd=\"{bots}/random_bot 2\"",
            "--bot", f"name=crash cmd={CRASH}", *[e for e in extra if not e.startswith("-q")]]
    done = subprocess.run(args, cwd=tmp, capture_output=True, text=True, timeout=300)
    return done.returncode, done.stdout, done.stderr


def stored(tmp, name):
    path = os.path.join(tmp, "t.sqlite")
    if not os.path.exists(path):
        return 0
    with sqlite3.connect(path) as db:
        tables = [r[0] for r in db.execute("select name from sqlite_master where type='table'")]
        if "tournament_match" not in tables:
            return 0
        return db.execute("select count(*) from tournament_match where tournament = ?", (name,)).fetchone()[0]


def crash_statuses(stdout):
    """The crasher's bracket per finished-match line, in order ('' when it played cleanly)."""
    out = []
    for line in stdout.splitlines():
        if line.startswith("Finished match "):
            m = re.search(r"crash \d+\w\w \S+( \((\w+)\))?", line)
            out.append(m.group(2) or "" if m else None)
    return out


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--binary", required=True)
    binary = os.path.abspath(parser.parse_args().binary)
    with tempfile.TemporaryDirectory() as tmp:
        code, out, err = run(binary, tmp, "stop", "-j", "2")
        check(code == 2, "a broken bot stops the tournament with exit 2", err)
        lines = [l for l in err.splitlines() if "failed the pre-flight" in l]
        check(len(lines) == 1 and "bot 'crash'" in lines[0] and "exited with code 3" in lines[0]
              and "weights.bin: no such file" in lines[0], "one line naming the bot, its exit and its stderr", err)
        check("Finished match" not in out and stored(tmp, "stop") == 0, "nothing played, no schedule stored", out)

        code, out, err = run(binary, tmp, "broken", "-j", "2", "--allow-broken", "--rating-interval", "2")
        check(code == 0, "--allow-broken plays", err)
        statuses = crash_statuses(out)
        check(len(statuses) == 6, "a line per finished match (6)", out)
        check(statuses.count("forfeited") == 4, "the broken bot forfeits its 4 matches", out)
        check(out.count("Ratings after ") == 3, "the ratings table after 2, 4 and 6 matches", out)
        check(re.search(r"^Finished match 6/6 r0/g\d+/s\d: ", out, re.M) is not None, "match lines count to 6/6", out)
        check("results: " in out and "report: arbiter report --db " in out and "--tournament broken" in out,
              "the summary says where everything went", out)
        check("failed the pre-flight (--allow-broken)" in out, "the faults table says why it forfeited", out)

        code, out, err = run(binary, tmp, "faults", "--no-preflight", "--max-faults", "2", "-j", "1")
        check(code == 0, "--max-faults plays", err)
        statuses = [s for s in crash_statuses(out) if s is not None]
        check(statuses == ["crashed", "crashed", "forfeited", "forfeited"],
              "two crashes, then forfeited without starting", out)
        check("2 consecutive faults (--max-faults)" in out, "the faults table says why it forfeited", out)

        code, out, err = run(binary, tmp, "quiet", "-q", "--allow-broken")
        check(code == 0 and "Finished match" not in out and "tournament quiet: 6 matches" in out,
              "-q: no match lines, the summary stays", out + err)
    if FAILURES:
        sys.exit(f"{len(FAILURES)} check(s) failed")
    print("ok")


if __name__ == "__main__":
    main()
