#!/usr/bin/env python3
"""Live frames: while a tournament of a game whose replay is text written as it plays (smart-dog's
wire transcript) runs, a running match's /frames/live/... is its game's viewer page (the same
renderer `arbiter view` uses) over what was played so far, and its state says so; under --delay
there are none (404), as a replay has no steps to hold back. A running match of a game whose
replay is written at the end (Planowanie, in serve_http) has no frames.

Usage: serve_frames.py --arbiter BIN --bots DIR --shared DIR --scratch DIR
"""
import argparse
import json
import os
import shutil
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from serve_common import Server, fail, get, state  # noqa: E402


def main():
    ap = argparse.ArgumentParser()
    for a in ("--arbiter", "--bots", "--shared", "--scratch"):
        ap.add_argument(a, required=True)
    args = ap.parse_args()
    shutil.rmtree(args.scratch, ignore_errors=True)
    os.makedirs(args.scratch)
    db = os.path.join(args.scratch, "smartdog.sqlite")
    bots = os.path.abspath(args.bots)
    herder = f"{bots}/smartdog/herder"
    server = Server(args.arbiter, [db], ["--tick-ms", "100"])
    delayed = Server(args.arbiter, [db], ["--tick-ms", "100", "--delay", "5"])
    proc = subprocess.Popen([args.arbiter, "tournament", "-q", "--game", "smartdog", "--pairing", "round-robin",
                             "--players", "2", "--rounds", "1", "--set",
                             f"map={os.path.abspath(args.shared)}/data/smartdog/maps/simple-1.txt",
                             "--set", "turns=6000", "--bot", f"name=a cmd={herder}", "--bot", f"name=b cmd={herder}",
                             "--db", db, "-j", "1"], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    framed, refused = False, False
    deadline = time.monotonic() + 90
    try:
        while time.monotonic() < deadline and not (framed and refused) and proc.poll() is None:
            time.sleep(0.2)
            for t in state(server)["sources"][0].get("tournaments", []):
                for m in t["running"]:
                    status, body = get(server.host, server.port, m["href"].replace("/live/", "/api/live/"))
                    if status != 200 or not json.loads(body).get("frames"):
                        continue
                    status, page = get(server.host, server.port, m["href"].replace("/live/", "/frames/live/"))
                    framed = framed or (status == 200 and b'id="match-data"' in page and b"(live)" in page)
                    # The delayed server knows the match (its state is there) and gives no frames.
                    known, body = get(delayed.host, delayed.port, m["href"].replace("/live/", "/api/live/"))
                    status, _ = get(delayed.host, delayed.port, m["href"].replace("/live/", "/frames/live/"))
                    if known == 200 and "step" in json.loads(body):
                        refused = refused or (status == 404 and json.loads(body).get("frames") is False)
    finally:
        proc.wait()
        server.stop()
        delayed.stop()
    if proc.returncode != 0:
        fail(f"the tournament exited {proc.returncode}: {proc.stderr.read()[-1500:]}")
    if not framed:
        fail("no running smart-dog match had a viewer page of its frames so far")
    if not refused:
        fail("--delay should leave running matches without frames")
    print("PASS: a running smart-dog match's frames in its viewer; none under --delay")


if __name__ == "__main__":
    main()
