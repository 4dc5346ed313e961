#!/usr/bin/env python3
"""The Ants benchmark times only the recorded game: on a recording it reproduces it prints a
figure and exits 0; on the same recording with one recorded fact changed (a timeout removed, a
final score raised) it exits 1 with a line naming the replay and the first difference.
Usage: check_ants_bench.py ANTS_BENCH REPLAY (a replay with a timed-out player)."""
import json
import os
import subprocess
import sys
import tempfile


def run(bench, path):
    return subprocess.run([bench, "--runs", "1", "--machine", path], capture_output=True, text=True)


def main():
    bench, replay = sys.argv[1], sys.argv[2]
    failures = []
    good = run(bench, replay)
    name = os.path.basename(replay)
    if good.returncode != 0 or f"replay={name} " not in good.stdout:
        failures.append(f"recorded game: exit {good.returncode}, stdout {good.stdout!r}, stderr {good.stderr!r}")
    with open(replay) as f:
        original = json.load(f)
    timed_out = original["status"].index("timeout")

    def no_timeout(r):
        r["status"][timed_out] = "survived"
        r["playerturns"][timed_out] = r["game_length"]

    def higher_score(r):
        r["score"][0] += 1

    cases = [("no_timeout", no_timeout, f"turn {original['playerturns'][timed_out]}: field"),
             ("higher_score", higher_score, "field 'score' differs")]
    with tempfile.TemporaryDirectory() as tmp:
        for tag, change, expected in cases:
            changed = json.loads(json.dumps(original))
            change(changed)
            path = os.path.join(tmp, tag + ".json")
            with open(path, "w") as f:
                json.dump(changed, f)
            got = run(bench, path)
            if got.returncode != 1 or path not in got.stderr or expected not in got.stderr or "replay=" in got.stdout:
                failures.append(f"{tag}: exit {got.returncode}, stdout {got.stdout!r}, stderr {got.stderr!r}")
    for f in failures:
        print("FAIL", f)
    print(f"{3 - len(failures)} passed, {len(failures)} failed")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
