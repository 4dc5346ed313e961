#!/usr/bin/env python3
"""CLI snapshot tests: run `arbiter` as a user would and compare with the expected text.

  snapshot.py --binary BIN [--update] [CASE ...]

Each case of tests/cli/cases.txt runs once with a fixed environment, in a fresh temp folder,
and its command, exit code, stdout and stderr are compared with tests/cli/snapshots/CASE.txt
after the paths that vary between machines are replaced by <TMP>, <SOURCE>, <SHARED> and
<BINDIR>, and the commit in `--version` by <DESCRIBE>. Cases named run_* play real matches: their
wall times ("in 5.4 s") read <S> and the warning that the machine is busy is left out, as both
depend on the machine, not on the arbiter. --update rewrites the expected files instead. Exit 0
when every case matches.
"""
import argparse
import difflib
import os
import re
import shlex
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
SOURCE = os.path.dirname(os.path.dirname(HERE))
SHARED = os.path.normpath(os.path.join(SOURCE, "..", "shared"))
CASES = os.path.join(HERE, "cases.txt")
SNAPSHOTS = os.path.join(HERE, "snapshots")
TIMEOUT_S = 60


def read_cases():
    cases = {}
    with open(CASES, encoding="utf-8") as f:
        for number, line in enumerate(f, 1):
            line = line.strip()
            if not line or line.startswith("#"):
                continue
            name, sep, args = line.partition(":")
            if not sep or not name.strip().replace("_", "").isalnum():
                sys.exit(f"{CASES}:{number}: expected 'name: arguments'")
            cases[name.strip()] = args.strip()
    return cases


def run_case(binary, args, tmp):
    words = shlex.split(args.format(tmp=tmp, source=SOURCE, shared=SHARED))
    env = {"PATH": os.path.dirname(binary) + ":/usr/bin:/bin", "LC_ALL": "C", "HOME": tmp, "TERM": "dumb",
           "COLUMNS": "100", "NO_COLOR": "1"}
    # argv[0] is the bare name, as a user who has the binary on PATH sees it in usage lines.
    done = subprocess.run(["arbiter"] + words, executable=binary, cwd=tmp, env=env, stdin=subprocess.DEVNULL,
                          capture_output=True, timeout=TIMEOUT_S)
    text = (f"$ arbiter {args}\nexit {done.returncode}\n--- stdout\n"
            + done.stdout.decode("utf-8", "replace") + "--- stderr\n" + done.stderr.decode("utf-8", "replace"))
    build = os.path.dirname(os.path.dirname(os.path.abspath(binary)))  # the release and debug builds print alike
    for path, name in ((tmp, "<TMP>"), (SHARED, "<SHARED>"), (build, "<BUILD>"), (SOURCE, "<SOURCE>"),
                       (os.path.dirname(binary), "<BINDIR>")):
        text = text.replace(path, name)
    # `arbiter --version` names the commit it was built from: keep the shape, not the commit.
    return re.sub(r"\(git [^)\s]+\)", "(git <DESCRIBE>)", text)


def machine_independent(text):
    """A run_* case's output without what depends on the machine: wall times, the busy warning."""
    text = re.sub(r" in \d+(\.\d+)? s\b", " in <S> s", text)
    return "".join(line for line in text.splitlines(True) if "the machine is already busy" not in line)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--binary", required=True, help="the arbiter binary to test")
    parser.add_argument("--update", action="store_true", help="rewrite the expected files")
    parser.add_argument("cases", nargs="*", help="case names (default: all)")
    opts = parser.parse_args()
    binary = os.path.abspath(opts.binary)
    cases = read_cases()
    names = opts.cases or list(cases)
    failed = 0
    for name in names:
        if name not in cases:
            sys.exit(f"no case '{name}' in {CASES}")
        with tempfile.TemporaryDirectory(prefix="arbiter-cli-") as tmp:
            tmp = os.path.realpath(tmp)
            actual = run_case(binary, cases[name], tmp)
            if name.startswith("run_"):
                actual = machine_independent(actual)
        path = os.path.join(SNAPSHOTS, name + ".txt")
        if opts.update:
            with open(path, "w", encoding="utf-8") as f:
                f.write(actual)
            continue
        try:
            with open(path, encoding="utf-8") as f:
                expected = f.read()
        except FileNotFoundError:
            expected = ""
        if actual != expected:
            failed += 1
            sys.stdout.writelines(difflib.unified_diff(expected.splitlines(True), actual.splitlines(True),
                                                       f"expected {os.path.relpath(path, SOURCE)}", "actual"))
            print(f"\ncli snapshot '{name}' differs; if the new output is right: tools/update-cli-snapshots {name}")
    if opts.update:
        print(f"updated {len(names)} snapshot(s) in {os.path.relpath(SNAPSHOTS, SOURCE)}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
