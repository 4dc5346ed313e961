#!/usr/bin/env python3
"""Runs `arbiter rate --pgn` (and `arbiter los --pgn`) on result sets and compares every cell of
every row with the table bayeselo 0057 printed for them: rank, name, Elo, +, -, games, score,
oppo., draws, and every cell of the LOS matrix. Equality, no tolerance.

TABLE_DIR holds bayeselo's output as SET.bayeselo-SCRIPT.txt (SCRIPT: standard, mm11,
covariance, covariance-los); the PGN SET.pgn is read from PGN_DIR (default TABLE_DIR). With
--generate, the PGN files are first written by gen_result_sets.py into PGN_DIR and checked
against TABLE_DIR/SHA256SUMS, the digests of the files bayeselo read.

usage: compare_bayeselo_tables.py ARBITER TABLE_DIR [--pgn-dir DIR] [--generate]"""
import argparse
import hashlib
import os
import re
import subprocess
import sys

PROMPT = re.compile(r"^(?:ResultSet(?:-EloRating)?>)+")
# rank name Elo + - games score oppo. draws
ROW = re.compile(r"^\s*\d+ \S+\s+-?\d+\s+\d+\s+\d+\s+\S+\s+\d+%\s+-?\d+\s+\d+%\s*$")
TABLE = re.compile(r"(\w+)\.bayeselo-([\w-]+)\.txt$")
HERE = os.path.dirname(os.path.abspath(__file__))

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
    """The rows after bayeselo's `los` header (a line of name prefixes of up to two letters)."""
    start = next((i for i, l in enumerate(lines) if l.strip() and all(len(w) <= 2 for w in l.split())
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


def generate(table_dir, pgn_dir, sets):
    subprocess.run([sys.executable, os.path.join(HERE, "gen_result_sets.py"), pgn_dir] + sorted(sets), check=True)
    sums = os.path.join(table_dir, "SHA256SUMS")
    with open(sums, encoding="utf-8") as f:
        expected = dict(reversed(line.split()) for line in f if line.strip())
    for s in sets:
        with open(os.path.join(pgn_dir, s + ".pgn"), "rb") as f:
            digest = hashlib.sha256(f.read()).hexdigest()
        if expected.get(s + ".pgn") != digest:
            raise SystemExit(f"{s}.pgn: the generator wrote other bytes than bayeselo read ({digest})")


def compare_los(name, theirs_lines, our_lines):
    """Cells of the LOS matrix compared one by one; returns (cells, differing cells)."""
    theirs, ours = los_matrix(theirs_lines), los_matrix(our_lines)
    if theirs is None or ours is None or len(theirs) != len(ours):
        print(f"{name}: LOS matrix missing or of another size")
        return 0, 1
    width = 3  # bayeselo's default: each cell 3 characters wide after the name column
    n = len(theirs) - 1
    # The name column: what the header holds before one heading per player.
    start = len(theirs[0]) - width * n
    cells, differ = n + n * (n + 1), 0  # headings, then per row its name and n cells
    for t, o in zip(theirs, ours):
        label_t, label_o = t[:start].split(), o[:start].split()
        row_t, row_o = t[start:].ljust(width * n), o[start:].ljust(width * n)
        if label_t != label_o:
            differ += 1
            print(f"{name}: LOS row label: bayeselo '{t[:start]}' ours '{o[:start]}'")
        for k in range(0, max(len(row_t), len(row_o)), width):
            if row_t[k:k + width] != row_o[k:k + width]:
                differ += 1
                if differ <= 20:
                    print(f"{name}: LOS row '{t[:start].strip()}' column {k // width + 1}: bayeselo "
                          f"'{row_t[k:k + width]}' ours '{row_o[k:k + width]}'")
    return cells, differ


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("arbiter")
    ap.add_argument("table_dir")
    ap.add_argument("--pgn-dir")
    ap.add_argument("--generate", action="store_true")
    args = ap.parse_args()
    pgn_dir = args.pgn_dir or args.table_dir
    tables = sorted(n for n in os.listdir(args.table_dir) if TABLE.match(n))
    if not tables:
        raise SystemExit("no bayeselo reference tables found in " + args.table_dir)
    if args.generate:
        generate(args.table_dir, pgn_dir, {TABLE.match(n).group(1) for n in tables})
    total_cells = total_differ = 0
    for name in tables:
        m = TABLE.match(name)
        pgn, script = os.path.join(pgn_dir, m.group(1) + ".pgn"), m.group(2)
        theirs_lines = bayeselo_lines(os.path.join(args.table_dir, name))
        theirs = rating_rows(theirs_lines)
        ours = rating_rows(run(args.arbiter, ["rate", "--pgn", pgn] + SCRIPTS[script]))
        cells = differ = 0
        if len(theirs) != len(ours) or not theirs:
            print(f"{name}: {len(theirs)} rows from bayeselo, {len(ours)} from us")
            differ += 1
        for t, o in zip(theirs, ours):
            cells += len(t)
            bad = sum(a != b for a, b in zip(t, o)) + abs(len(t) - len(o))
            if bad:
                differ += bad
                print(f"{name}: rank {t[0]}: bayeselo {' '.join(t)} | ours {' '.join(o)}")
        if script.endswith("-los"):
            c, d = compare_los(name, theirs_lines, run(args.arbiter, ["los", "--pgn", pgn]))
            cells, differ = cells + c, differ + d
        print(f"{name}: {cells} cells, {differ} differ")
        total_cells, total_differ = total_cells + cells, total_differ + differ
    print(f"{total_cells} cells compared, {total_differ} differ")
    return 1 if total_differ else 0


if __name__ == "__main__":
    sys.exit(main())
