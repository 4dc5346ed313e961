#!/usr/bin/env python3
"""Side-by-side speed of `arbiter rate --pgn` and bayeselo on the same PGN (docs/benchmarks/rating.md).

For every set and bayeselo script (standard: mm + exactdist; mm 1 1 + exactdist; mm +
covariance), the programs run in turn, alternating, REPEATS times; each figure is the median
wall time (min-max) of a whole run, process start to exit, output kept, and each ratio a
program's median over the arbiter's. `cat /proc/loadavg` is
printed before and after each set. bayeselo's tables from the timed runs are then compared cell
for cell with ours (tests/rating/compare_bayeselo_tables.py). bayeselo 0057 takes minutes a run on
the 1000-player set: with --reference-tables DIR (holding SET.bayeselo-SCRIPT.txt, bayeselo
0057's output for these scripts, e.g. from an earlier run's WORK/tables) it may be left out of the
timing (--bayeselo none) and its tables are still compared.

A program that is not built is skipped, with the command that builds it:
  git -C BayesianElo archive b2e6869 | tar -x -C /tmp/bayeselo-src/0057     (bayeselo 0057)
  tools/bench/rating/build_bayeselo.sh /tmp/bayeselo-src/0057 /tmp/bayeselo/bayeselo-0057
  git -C BayesianElo archive HEAD | tar -x -C /tmp/bayeselo-src/fsmosca     (fsmosca fork 1.5)
  tools/bench/rating/build_bayeselo.sh /tmp/bayeselo-src/fsmosca /tmp/bayeselo/bayeselo-fsmosca
(BayesianElo: a clone of github.com/fsmosca/BayesianElo.)

usage: speed_vs_bayeselo.py BUILD_DIR [--work DIR] [--repeats N] [--sets large,xl]
                            [--bayeselo PATH|none] [--fork PATH] [--reference-tables DIR]"""
import argparse
import os
import shutil
import statistics
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
COMPARE = os.path.join(HERE, "..", "..", "..", "tests", "rating", "compare_bayeselo_tables.py")

# name: (players, games, seed), drawn by `rating_bench gen-pgn` (the model itself, advantage 32.8,
# drawelo 97.3, random pairings, sd 200).
SETS = {"large": (200, 200_000, 777), "xl": (1000, 1_000_000, 4242)}
SCRIPTS = {  # name: (bayeselo commands after `elo`, arbiter flags)
    "standard": ("mm\nexactdist\n", []),
    "mm11": ("mm 1 1\nexactdist\n", ["--mm-fit"]),
    "covariance": ("mm\ncovariance\n", ["--intervals", "covariance"]),
}


def loadavg():
    with open("/proc/loadavg", encoding="utf-8") as f:
        return f.read().strip()


def timed(command, stdin_text=None):
    start = time.perf_counter()
    done = subprocess.run(command, input=stdin_text, capture_output=True, text=True)
    elapsed = time.perf_counter() - start
    if done.returncode != 0:
        raise SystemExit(f"{' '.join(command)} exited {done.returncode}: {done.stderr.strip()[:300]}")
    return elapsed, done.stdout


def figure(times):
    if not times:
        return "-"
    return f"{statistics.median(times):.3f} ({min(times):.3f}-{max(times):.3f})"


def ratio(theirs, ours):
    """Their median over ours, from the unrounded medians."""
    if not theirs or not ours:
        return "-"
    return f"{statistics.median(theirs) / statistics.median(ours):.1f}x"


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("build_dir")
    ap.add_argument("--work", default="/tmp/rating-bench")
    ap.add_argument("--repeats", type=int, default=5)
    ap.add_argument("--sets", default="large,xl")
    ap.add_argument("--bayeselo", default="/tmp/bayeselo/bayeselo-0057")
    ap.add_argument("--fork", default="/tmp/bayeselo/bayeselo-fsmosca")
    ap.add_argument("--reference-tables")
    args = ap.parse_args()
    arbiter = os.path.join(args.build_dir, "bin", "arbiter")
    bench = os.path.join(args.build_dir, "bench", "rating_bench")
    programs = {"arbiter": arbiter}
    for label, path in (("bayeselo 0057", args.bayeselo), ("fsmosca 1.5", args.fork)):
        if path == "none":
            print(f"{label}: not timed in this run")
        elif os.access(path, os.X_OK):
            programs[label] = path
        else:
            print(f"{label}: not built at {path}, column skipped; build it as this script's header says")
    os.makedirs(args.work, exist_ok=True)
    tables = os.path.join(args.work, "tables")
    os.makedirs(tables, exist_ok=True)
    others = [p for p in programs if p != "arbiter"]
    print("| data | script | " + " | ".join(programs) + "".join(f" | {p} / arbiter" for p in others) + " |")
    print("|---|---|" + "---|" * (len(programs) + len(others)))
    for name in args.sets.split(","):
        players, games, seed = SETS[name]
        pgn = os.path.join(args.work, name + ".pgn")
        if not os.path.exists(pgn):
            subprocess.run([bench, "gen-pgn", "--players", str(players), "--games", str(games), "--seed", str(seed),
                            "--out", pgn], check=True)
        print(f"<!-- {name}: loadavg before {loadavg()} -->")
        times = {(s, p): [] for s in SCRIPTS for p in programs}
        for _ in range(args.repeats):
            for script, (commands, flags) in SCRIPTS.items():
                for label, path in programs.items():
                    if label == "arbiter":
                        elapsed, _ = timed([path, "rate", "--pgn", pgn] + flags)
                    else:
                        elapsed, out = timed([path], f"readpgn {pgn}\nelo\n{commands}ratings\nx\nx\n")
                        if label == "bayeselo 0057":
                            with open(os.path.join(tables, f"{name}.bayeselo-{script}.txt"), "w") as f:
                                f.write(out)
                    times[(script, label)].append(elapsed)
        for script in SCRIPTS:
            cells = " | ".join(figure(times[(script, p)]) for p in programs)
            cells += "".join(f" | {ratio(times[(script, p)], times[(script, 'arbiter')])}" for p in others)
            print(f"| {players} p / {games // 1000}k | {script} | {cells} |")
        print(f"<!-- {name}: loadavg after {loadavg()} -->")
        sys.stdout.flush()
    if "bayeselo 0057" not in programs and args.reference_tables:
        for name in args.sets.split(","):
            for script in SCRIPTS:
                table = f"{name}.bayeselo-{script}.txt"
                source, target = os.path.join(args.reference_tables, table), os.path.join(tables, table)
                if not (os.path.exists(target) and os.path.samefile(source, target)):
                    shutil.copyfile(source, target)
    if "bayeselo 0057" in programs or args.reference_tables:
        subprocess.run([sys.executable, COMPARE, arbiter, tables, "--pgn-dir", args.work])


if __name__ == "__main__":
    main()
