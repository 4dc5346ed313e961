#!/usr/bin/env python3
"""Each game's step marks against its viewer's frames: plays one match of every game with the
sample bots, writes its page with `arbiter view`, and checks that the bots' exchanges in the page
(data.io, from the transcript's "# step K" marks) are numbered as the viewer numbers its frames:
marks exist, every step with an exchange is a frame of the page, and a known exchange lies under
its frame (Ants: turn t's orders at step t; Planowanie: the first card of the first deal at step
2; SamurAI: game 2's first plans at the frame after game 1's states plus one; smart-dog: the
k-th state sent at step k; Koehandel: steps 0..turns-1). Two Planowanie matches ended by a
fault (a declaration, a card) have the exchange that ends them under the viewer's last frame. The
frame counts are the renderers' own formulas (rules/<game>/<game>_viewer.js), computed here from
the page's replay data.

Usage: step_marks.py --arbiter BIN --bots DIR --shared DIR --scratch DIR
"""
import argparse
import json
import os
import re
import shutil
import subprocess
import sys


def page_data(path):
    text = open(path, encoding="utf-8").read()
    m = re.search(r'<script type="application/json" id="match-data">(.*?)</script>', text, re.S)
    return json.loads(m.group(1).replace("<\\/", "</"))


def smartdog_turns(replay):
    """The turns of the states sent, in order, one per turn (the viewer's frames)."""
    turns = []
    for line in replay["lines"]:
        m = re.match(r'^P\d+ < state\s+"turn":(\d+)', line)
        if m and (not turns or turns[-1] != int(m.group(1))):
            turns.append(int(m.group(1)))
    return turns


def frames_of(game, replay):
    if game == "ants":
        return replay["game_length"] + 2
    if game == "planowanie":
        n = 0
        for deal in replay["deals"]:
            n += 1 + (1 if deal.get("declarations") else 0) + sum(len(t["cards"]) for t in deal.get("tricks", []))
        return max(n, 1) + (1 if "fault" in replay else 0)
    if game == "samurai":
        return sum(len(g["states"]) for g in replay["games"])
    if game == "smartdog":
        return max(len(smartdog_turns(replay)), 1) + 1
    if game == "koehandel":
        return len(replay["turns"])
    raise ValueError(game)


def main():
    ap = argparse.ArgumentParser()
    for flag in ("--arbiter", "--bots", "--shared", "--scratch"):
        ap.add_argument(flag, required=True)
    a = ap.parse_args()
    shutil.rmtree(a.scratch, ignore_errors=True)
    os.makedirs(a.scratch)
    b, data = a.bots, os.path.join(a.shared, "data")
    plays = {
        "ants": ["--map", f"{data}/ants/maps/maze_02p_02.map", "--turns", "30",
                 "--bot", f"name=h cmd={b}/ants/hunter_bot", "--bot", f"name=g cmd={b}/ants/greedy_bot"],
        "planowanie": ["--bot", f"name=a cmd={b}/planowanie/heuristic_bot", "--bot", f"name=b cmd={b}/planowanie/random_bot",
                       "--bot", f"name=c cmd={b}/planowanie/random_bot", "--bot", f"name=d cmd={b}/planowanie/random_bot"],
        "samurai": ["--field", f"{data}/samurai/fields/sample.dighere",
                    "--bot", f"name=g cmd={b}/samurai/greedy_digger", "--bot", f"name=r cmd={b}/samurai/random_player"],
        "smartdog": ["--map", f"{data}/smartdog/maps/simple-1.txt", "--turns", "40",
                     "--bot", f"name=h cmd={b}/smartdog/herder", "--bot", f"name=k cmd={b}/smartdog/herder"],
        "koehandel": ["--bot", f"name=v cmd={b}/koehandel/value_bot"],
    }
    failures = []
    for game, args in plays.items():
        out = os.path.join(a.scratch, game)
        subprocess.run([a.arbiter, "-q", "play", game, "--out", out] + args, check=True, stdout=subprocess.DEVNULL)
        page = os.path.join(out, "viewer.html")
        subprocess.run([a.arbiter, "view", out, "--out", page], check=True, stdout=subprocess.DEVNULL)
        d = page_data(page)
        io = d.get("io") or {}
        steps = {int(k): v for k, v in io.get("steps", {}).items()}
        frames = frames_of(game, d["replay"])
        said = []
        if not steps:
            said.append(f"no step marks ({io.get('cut')})")
        else:
            beyond = [k for k in steps if k >= frames]
            if beyond:
                said.append(f"steps {beyond[:5]} past the viewer's {frames} frames")
            missing = [k for k in range(1, min(frames - 1, max(steps) + 1)) if k not in steps]
            if game != "koehandel" and missing:
                said.append(f"frames without an exchange: {missing[:5]}")
        said += known_exchange(game, steps, d["replay"])
        print(f"{game}: {frames} frames, steps {min(steps, default=None)}..{max(steps, default=None)}"
              + ("" if not said else ": " + "; ".join(said)))
        failures += [f"{game}: {s}" for s in said]
    failures += fault_steps(a, b)
    if failures:
        print("FAIL:\n  " + "\n  ".join(failures))
        return 1
    print("ok")
    return 0


def fault_steps(a, b):
    """Planowanie matches ended by a fault (a declaration, a card the seat does not hold): the
    exchange that ends each is under the viewer's last frame, which shows the fault."""
    failures = []
    faulty = f"{b}/planowanie-test/planowanie_fault_bot"
    for fault, deal, asked in (("bad-declare", "0", "gen_declare"), ("illegal-card", "1", "gen_move")):
        out = os.path.join(a.scratch, "planowanie-" + fault)
        subprocess.run([a.arbiter, "-q", "play", "planowanie", "--out", out, "--bot", f"name=f cmd=\"{faulty} {fault} {deal}\"",
                        "--bot", f"name=r cmd={b}/planowanie/random_bot"], stdout=subprocess.DEVNULL)
        page = os.path.join(out, "viewer.html")
        subprocess.run([a.arbiter, "view", out, "--out", page], check=True, stdout=subprocess.DEVNULL)
        d = page_data(page)
        steps = {int(k): v for k, v in (d.get("io") or {}).get("steps", {}).items()}
        frames = frames_of("planowanie", d["replay"])
        last = max(steps, default=-1)
        said = []
        if last != frames - 1:
            said.append(f"the fault's step {last} is not the viewer's last frame {frames - 1}")
        if not any(x.startswith(asked) for x in sent(steps, last, 0)):
            said.append(f"no {asked} to the faulty seat under step {last}")
        if d["replay"].get("fault", {}).get("seats") != [0]:
            said.append(f"the log does not name seat 0's fault: {d['replay'].get('fault')}")
        print(f"planowanie {fault}: {frames} frames, steps ..{last}" + ("" if not said else ": " + "; ".join(said)))
        failures += [f"planowanie {fault}: {s}" for s in said]
    return failures


def replies(steps, k, seat):
    entry = steps.get(k, [None] * 8)
    e = entry[seat] if seat < len(entry) else None
    return (e or {}).get("reply", [])


def sent(steps, k, seat):
    entry = steps.get(k, [None] * 8)
    e = entry[seat] if seat < len(entry) else None
    return (e or {}).get("sent", [])


def known_exchange(game, steps, replay):
    if game == "ants":
        return [] if "turn 7" in sent(steps, 7, 0) else ["turn 7's request is not under step 7"]
    if game == "planowanie":
        deal = replay["deals"][0]
        leader = deal["tricks"][0]["leader"]
        card = deal["tricks"][0]["cards"][0]
        got = replies(steps, 2, leader)
        return [] if any(card in r for r in got) else [f"the first card {card} is not under step 2 ({got})"]
    if game == "samurai":
        first = len(replay["games"][0]["states"])
        # Game 2's first plans: the bots play agents there too, under frame first + 1.
        return [] if any(replies(steps, first + 1, s) for s in range(2)) else [f"no plans under step {first + 1}"]
    if game == "smartdog":
        # The viewer's frame 3 is the fourth state sent (turns count from 1 on the wire).
        want = f'"turn":{smartdog_turns(replay)[3]}'
        return [] if any(x.startswith("state") and x.endswith(want) for x in sent(steps, 3, 0)) else [
            f"the state of frame 3 ({want}) is not under step 3"]
    if game == "koehandel":
        return [] if steps.get(1) else ["no exchange under step 1"]
    return []


if __name__ == "__main__":
    sys.exit(main())
