#!/usr/bin/env python3
"""Runs `arbiter rate --pgn` (and `arbiter los --pgn`) on the reference result sets and compares
every cell of every row with the table bayeselo 0057 printed for them (../shared/data/rating):
rank, name, Elo, +, -, games, score, oppo., draws, and the LOS matrix. Equality, no tolerance.

usage: compare_bayeselo_tables.py ARBITER RATING_DATA_DIR"""
import os
import re
import subprocess
import sys

PROMPT = re.compile(r"^(?:ResultSet(?:-EloRating)?>)+")
# rank name Elo + - games score oppo. draws
ROW = re.compile(r"^\s*\d+ \S+\s+-?\d+\s+\d+\s+\d+\s+\d+\s+\d+%\s+-?\d+\s+\d+%\s*$")

# bayeselo's script for each reference file -> the arbiter's flags for the same computation.
SCRIPTS = {
    "standard": [],
    "mm11": ["--mm-fit"],
    "covariance": ["--intervals", "covariance"],
    "covariance-los": ["--intervals", "covariance"],
}


def bayeselo_lines(path):
    with open(path, encoding="utf-8") as f:
        return [PROMPT.sub("", line.rstrip("\n")) for line in f]


def rating_rows(lines):
    return [line.split() for line in lines if ROW.match(line)]


def los_matrix(lines):
    """The rows after bayeselo's `los` header (a line of two-letter name prefixes)."""
    start = next((i for i, l in enumerate(lines) if l.strip() and all(len(w) == 2 for w in l.split())
                  and len(l.split()) > 1), None)
    if start is None:
        return None
    matrix = [lines[start].rstrip()]
    for line in lines[start + 1:]:
        if not line.strip() or ROW.match(line):
            break
        matrix.append(line.rstrip())
    return matrix


def run(arbiter, args):
    done = subprocess.run([arbiter] + args, capture_output=True, text=True)
    if done.returncode != 0:
        raise SystemExit(f"arbiter {' '.join(args)} exited {done.returncode}: {done.stderr.strip()}")
    return done.stdout.splitlines()


def main():
    arbiter, data = sys.argv[1], sys.argv[2]
    failures, compared = 0, 0
    for name in sorted(os.listdir(data)):
        m = re.match(r"(\w+)\.bayeselo-([\w-]+)\.txt$", name)
        if not m:
            continue
        pgn, script = os.path.join(data, m.group(1) + ".pgn"), m.group(2)
        theirs_lines = bayeselo_lines(os.path.join(data, name))
        theirs, ours = rating_rows(theirs_lines), rating_rows(run(arbiter, ["rate", "--pgn", pgn] + SCRIPTS[script]))
        if len(theirs) != len(ours):
            print(f"{name}: {len(theirs)} rows from bayeselo, {len(ours)} from us")
            failures += 1
            continue
        for t, o in zip(theirs, ours):
            compared += len(t)
            if t != o:
                print(f"{name}: rank {t[0]}: bayeselo {' '.join(t)} | ours {' '.join(o)}")
                failures += 1
        if script.endswith("-los"):
            their_los = los_matrix(theirs_lines)
            our_los = los_matrix(run(arbiter, ["los", "--pgn", pgn]))
            if their_los != our_los:
                print(f"{name}: the LOS matrix differs:\n" + "\n".join(their_los or []) + "\n--- ours\n" +
                      "\n".join(our_los or []))
                failures += 1
            else:
                compared += sum(len(l.split()) for l in their_los)
    if compared == 0:
        raise SystemExit("no bayeselo reference tables found in " + data)
    print(f"{compared} cells compared, {failures} rows differ")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
