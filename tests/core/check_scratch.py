#!/usr/bin/env python3
"""The suites' scratch folder is removed after a passing run and kept, with its path printed,
after a failing one. Runs one case of a test program with TMPDIR set to an empty folder of its
own, twice, and looks at what is left there. With --fuzz: a libFuzzer program that reads its
inputs from a file leaves nothing behind after a run without findings.
  check_scratch.py TEST_PROGRAM
  check_scratch.py --fuzz FUZZ_PROGRAM SEED_FOLDER"""
import os
import subprocess
import sys
import tempfile

CASE = "--test-case=the scratch folder holds the files of a case"


def run(program, tmp, fail):
    env = dict(os.environ, TMPDIR=tmp)
    env.pop("ARBITER_SCRATCH_FAIL", None)
    if fail:
        env["ARBITER_SCRATCH_FAIL"] = "1"
    return subprocess.run([program, CASE], env=env, capture_output=True, text=True)


def check_fuzz(program, seeds):
    with tempfile.TemporaryDirectory() as tmp, tempfile.TemporaryDirectory() as corpus:
        env = dict(os.environ, TMPDIR=tmp)
        run = subprocess.run([program, "-runs=20", "-seed=1", corpus, seeds], env=env, capture_output=True, text=True)
        if run.returncode != 0:
            print(f"check_scratch: the fuzz run failed: {run.stderr[-2000:]}")
            return 1
        if os.listdir(tmp):
            print(f"check_scratch: left after a fuzz run without findings: {os.listdir(tmp)}")
            return 1
    return 0


def main():
    if sys.argv[1] == "--fuzz":
        return check_fuzz(sys.argv[2], sys.argv[3])
    program = sys.argv[1]
    failures = []
    with tempfile.TemporaryDirectory() as tmp:
        passed = run(program, tmp, fail=False)
        if passed.returncode != 0:
            failures.append(f"the case failed without ARBITER_SCRATCH_FAIL: {passed.stdout}{passed.stderr}")
        if os.listdir(tmp):
            failures.append(f"left after a passing run: {os.listdir(tmp)}")
    with tempfile.TemporaryDirectory() as tmp:
        failed = run(program, tmp, fail=True)
        left = os.listdir(tmp)
        if failed.returncode == 0:
            failures.append("the case passed with ARBITER_SCRATCH_FAIL set")
        if len(left) != 1 or not os.path.isfile(os.path.join(tmp, left[0], "written", "file.txt")):
            failures.append(f"after a failing run the folder is not kept with its file: {left}")
        elif f"test files kept in {os.path.join(tmp, left[0])}" not in failed.stderr:
            failures.append(f"the kept folder's path is not printed: {failed.stderr!r}")
    for f in failures:
        print(f"check_scratch: {f}")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
