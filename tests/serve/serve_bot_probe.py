#!/usr/bin/env python3
"""No channel from a bot to `arbiter serve`: a pipe-seat bot, confined as tournaments confine it,
tries to connect to the server's port on 127.0.0.1 and must fail (it has a network namespace of
its own); the same bot unconfined (--sandbox none) connects, so the probe itself works. Skipped
(77) where no sandbox can be made.

Usage: serve_bot_probe.py --arbiter BIN --bots DIR --scratch DIR
"""
import argparse
import glob
import os
import shutil
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from serve_common import SKIP, Server, fail, run_tournament  # noqa: E402

PROBE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "probe_bot.py")


def probe(arbiter, bots, port, out, sandbox):
    cmd = [arbiter, "play", "planowanie", "--seed", "1", "--out", out, "--sandbox", sandbox,
           "--bot", f"name=probe cmd=\"python3 {PROBE} {port}\""]
    for i in range(1, 4):
        cmd += ["--bot", f"name=r{i} cmd=\"{bots}/planowanie/random_bot {i}\""]
    r = subprocess.run(cmd, capture_output=True, text=True)
    if r.returncode != 0:
        return None, r.stderr
    said = ""
    for log in glob.glob(os.path.join(out, "**", "*"), recursive=True):
        if os.path.isfile(log) and "log" in log:
            with open(log, errors="replace") as f:
                text = f.read()
            if "probe:" in text:
                said = text[text.index("probe:"):].splitlines()[0]
    header = ""
    transcripts = glob.glob(os.path.join(out, "**", "*transcript*"), recursive=True)
    if transcripts:
        with open(transcripts[0]) as f:
            header = f.readline()
    return said, header


def main():
    ap = argparse.ArgumentParser()
    for a in ("--arbiter", "--bots", "--scratch"):
        ap.add_argument(a, required=True)
    args = ap.parse_args()
    shutil.rmtree(args.scratch, ignore_errors=True)
    os.makedirs(args.scratch)
    db = os.path.join(args.scratch, "empty.sqlite")
    server = Server(args.arbiter, [db])
    try:
        said, header = probe(args.arbiter, args.bots, server.port, os.path.join(args.scratch, "confined"), "auto")
        if said is None:
            fail(f"the confined match did not run: {header[-1500:]}")
        if "sandbox: none" in header or "sandbox" not in header:
            print(f"SKIP: no sandbox on this machine ({header.strip()})")
            sys.exit(SKIP)
        if not said:
            fail("the confined probe said nothing: it did not run")
        if "connected," in said:
            fail(f"a confined bot reached the server: {said}")
        loose, _ = probe(args.arbiter, args.bots, server.port, os.path.join(args.scratch, "loose"), "none")
        if not loose or "connected," not in loose:
            fail(f"the unconfined probe should connect (else this test cannot fail): {loose!r}")
    finally:
        server.stop()
    print(f"PASS: confined: {said}; unconfined: {loose}")


if __name__ == "__main__":
    main()
