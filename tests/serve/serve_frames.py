#!/usr/bin/env python3
"""Live boards in every game: while a tournament of each of the five games runs (its sample bots
made to think a few milliseconds a reply, tests/serve/bots/slow.py, so that a match lasts seconds),
a running match's /frames/live/... is its game's viewer page (the renderer `arbiter view` uses)
over the replay its referee has written so far, and:
  - the board advances: two looks show two steps, each page with exactly the frames up to the
    step its state names (the renderers' own frame counts, tests/view/step_marks.py);
  - what it showed is what happened: once the match is stored, the board's frames are the first
    frames of the stored match's viewer;
  - under --delay 5 (a second server on the same database) the board is never newer than 5 steps
    behind the match: its step is at most the transcript's step less 5, read after it;
  - the bots' exchanges shown with a board (the viewer's "Bot I/O") stop at the board's step.

Usage: serve_frames.py --arbiter BIN --bots DIR --shared DIR --scratch DIR
"""
import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "view"))
from serve_common import Server, fail, get, state  # noqa: E402
from step_marks import frames_of, smartdog_turns  # noqa: E402

DELAY = 5


def games(bots, data, scale=1):
    """Each game's tournament flags: two slowed sample bots (four in Koehandel), `scale` times slower."""
    slow = os.path.join(os.path.dirname(os.path.abspath(__file__)), "bots", "slow.py")

    def bot(name, ms, game, *cmd):
        return ["--bot", f"name={name} cmd='python3 {slow} {ms * scale} {game} {' '.join(cmd)}'"]
    return {
        "ants": ["--pairing", "round-robin", "--players", "2", "--set", f"map={data}/ants/maps/maze_02p_02.map",
                 "--set", "turns=120", *bot("a", 20, "ants", f"{bots}/ants/hold_bot"),
                 *bot("b", 20, "ants", f"{bots}/ants/hold_bot")],
        "planowanie": ["--pairing", "round-robin", "--players", "2",
                       *bot("a", 4, "planowanie", f"{bots}/planowanie/random_bot"),
                       *bot("b", 4, "planowanie", f"{bots}/planowanie/random_bot")],
        "samurai": ["--pairing", "round-robin", "--players", "2",
                    "--set", f"field={data}/samurai/fields/cc-godown.dighere",
                    *bot("a", 8, "samurai", f"{bots}/samurai/greedy_digger"),
                    *bot("b", 8, "samurai", f"{bots}/samurai/random_player")],
        "smartdog": ["--pairing", "round-robin", "--players", "2",
                     "--set", f"map={data}/smartdog/maps/simple-1.txt", "--set", "turns=300",
                     *bot("a", 10, "smartdog", f"{bots}/smartdog/herder.py"),
                     *bot("b", 10, "smartdog", f"{bots}/smartdog/herder.py")],
        "koehandel": ["--pairing", "groups",
                      *[x for n in "abcd" for x in bot(n, 4, "koehandel", f"{bots}/koehandel/value_bot.py")]],
    }


def page_data(body):
    m = re.search(rb'<script type="application/json" id="match-data">(.*?)</script>', body, re.S)
    if not m:
        fail(f"not a viewer page: {body[:200]!r}")
    return json.loads(m.group(1).decode().replace("<\\/", "</"))


def page_replay(body):
    return page_data(body)["replay"]


def board_step(data):
    m = re.search(r"\(live, step ([0-9]+)\)$", data["title"])
    if not m:
        fail(f"a live board's title names no step: {data['title']!r}")
    return int(m.group(1))


def live_frames(game, replay):
    """Frames a live board draws: the renderers' counts (step_marks.py), without the final scores'
    frame that Ants and smart-dog draw after a finished match's last turn."""
    if game == "smartdog":
        return max(len(smartdog_turns(replay)), 1)
    if game == "ants":
        return replay["game_length"] + 1
    return frames_of(game, replay)


def expected_frames(step):
    return step + 1  # frames 0..step


def check_io(game, data, step):
    """The board's bots' exchanges (data.io, from the transcript): some, none after its step."""
    steps = [int(k) for k in data.get("io", {}).get("steps", {})]
    if not steps:
        fail(f"{game}: the board at step {step} has no bots' exchanges")
    if max(steps) > step:
        fail(f"{game}: the board at step {step} shows the bots' exchanges of step {max(steps)}")


def last_step(transcript):
    step = -1
    with open(transcript, encoding="utf-8", errors="replace") as f:
        for line in f:
            if not line.endswith("\n"):
                break  # a line being written: "# step 1" of "# step 12"
            m = re.match(r"^ *[0-9.]+ # step ([0-9]+)$", line.rstrip("\n"))
            if m:
                step = int(m.group(1))
    return step


def agrees(game, live, final, frames):
    """Whether the live board's frames are the stored match's first `frames` frames."""
    if game == "ants":
        a, b = live["replaydata"], final["replaydata"]
        turns = frames - 1
        return all(s[:turns] == t[:turns] for s, t in zip(a["scores"], b["scores"])) and \
            [x[:3] for x in a["ants"]] == [x[:3] for x in b["ants"][:len(a["ants"])]]
    if game == "planowanie":
        return live["deals"][:-1] == final["deals"][:len(live["deals"]) - 1] and \
            live["deals"][-1]["hands"] == final["deals"][len(live["deals"]) - 1]["hands"]
    if game == "samurai":
        return all(g["states"] == f["states"][:len(g["states"])] for g, f in zip(live["games"], final["games"]))
    if game == "smartdog":
        return live["lines"] == final["lines"][:len(live["lines"])]
    if game == "koehandel":
        return live["turns"] == final["turns"][:len(live["turns"])]
    raise ValueError(game)


def start_tournament(arbiter, game, db, extra):
    """One match of the game (one round, one seating), named after its game."""
    return subprocess.Popen([arbiter, "tournament", "-q", "--game", game, "--rounds", "1", "--seed", "7",
                             "--db", db, "-j", "1", "--all-seatings", "false", *extra],
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)


def watch(game, args, server, delayed, extra):
    db = os.path.join(args.scratch, f"{game}.sqlite")
    files = os.path.join(args.scratch, f"{game}-files", game)
    proc = start_tournament(args.arbiter, game, db, extra)
    seen = {}  # frames drawn -> the live replay that drew them
    delayed_seen = 0
    href = None
    deadline = time.monotonic() + 100
    try:
        while time.monotonic() < deadline and proc.poll() is None:
            time.sleep(0.05)
            for source in state(server)["sources"]:
                if source.get("db") != db:
                    continue
                for t in source.get("tournaments", []):
                    for m in t["running"]:
                        href = href or m["href"]
                        if m["href"] != href:
                            continue
                        status, body = get(server.host, server.port, href.replace("/live/", "/api/live/"))
                        if status != 200 or not json.loads(body).get("frames"):
                            continue
                        status, page = get(server.host, server.port, href.replace("/live/", "/frames/live/"))
                        if status != 200:
                            continue
                        data = page_data(page)
                        replay, step = data["replay"], board_step(data)
                        frames = live_frames(game, replay)
                        # The page is the board at the step its title names: exactly its frames.
                        if frames != expected_frames(step):
                            fail(f"{game}: the board at step {step} draws {frames} frames, not "
                                 f"{expected_frames(step)}")
                        check_io(game, data, step)
                        seen[frames] = replay
                        # The delayed server's board, then the match's step, read after it from the
                        # transcript (which the table writes out at every wait for a bot).
                        status, page = get(delayed.host, delayed.port, href.replace("/live/", "/frames/live/"))
                        if status != 200:
                            continue
                        data = page_data(page)
                        held = board_step(data)
                        now = last_step(os.path.join(files, href.rsplit("/", 1)[1], "transcript.txt"))
                        if held > now - DELAY:
                            fail(f"{game}: the delayed board shows step {held} when the match is at step {now} "
                                 f"(--delay {DELAY})")
                        check_io(game, data, held)
                        if live_frames(game, data["replay"]) != expected_frames(held):
                            fail(f"{game}: the delayed board at step {held} draws "
                                 f"{live_frames(game, data['replay'])} frames")
                        delayed_seen += 1
    finally:
        proc.wait()
    if proc.returncode != 0:
        fail(f"{game}: the tournament exited {proc.returncode}: {proc.stderr.read()[-1500:]}")
    if len(seen) < 2:
        fail(f"{game}: the live board did not advance (frame counts seen: {sorted(seen)})")
    if delayed_seen == 0:
        fail(f"{game}: the delayed server never showed a board")
    # The stored match: its viewer's frames begin with what the board showed.
    status, body = get(server.host, server.port, href.replace("/live/", "/api/live/"))
    finished = json.loads(body).get("finished") if status == 200 else None
    for _ in range(300):  # up to 30 s on a loaded machine
        if finished:
            break
        time.sleep(0.1)
        status, body = get(server.host, server.port, href.replace("/live/", "/api/live/"))
        finished = json.loads(body).get("finished") if status == 200 else None
    if not finished:
        fail(f"{game}: the match never showed as stored ({status} {body[:200]!r})")
    status, page = get(server.host, server.port, finished)
    if status != 200:
        fail(f"{game}: the stored match's viewer answered {status}")
    final = page_replay(page)
    for frames, replay in sorted(seen.items()):
        if not agrees(game, replay, final, frames):
            fail(f"{game}: the board at {frames} frames differs from the stored match's first {frames}")
    return sorted(seen), delayed_seen


def main():
    ap = argparse.ArgumentParser()
    for a in ("--arbiter", "--bots", "--shared", "--scratch"):
        ap.add_argument(a, required=True)
    ap.add_argument("--game", action="append", help="only these games")
    args = ap.parse_args()
    shutil.rmtree(args.scratch, ignore_errors=True)
    os.makedirs(args.scratch)
    table = games(os.path.abspath(args.bots), os.path.abspath(os.path.join(args.shared, "data")))
    chosen = args.game or list(table)
    dbs = [os.path.join(args.scratch, f"{g}.sqlite") for g in chosen]
    server = Server(args.arbiter, dbs, ["--tick-ms", "100"])
    delayed = Server(args.arbiter, dbs, ["--tick-ms", "100", "--delay", str(DELAY)])
    try:
        for game in chosen:
            frames, delayed_seen = watch(game, args, server, delayed, table[game])
            print(f"{game}: board seen at {len(frames)} frame counts ({frames[0]}..{frames[-1]}), "
                  f"delayed board {delayed_seen} times; all agree with the stored match")
    finally:
        server.stop()
        delayed.stop()
    print("PASS: a running match's board in every game advances, matches the stored match, and "
          f"stays {DELAY} steps behind under --delay")


if __name__ == "__main__":
    main()
