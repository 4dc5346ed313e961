#!/usr/bin/env python3
"""The three commands a user runs after a match, in every game: `arbiter play` with a bot that
crashes at a known step (tests/cli/bots/deviate.py: it says so on stderr first), `arbiter view
FOLDER` (the page: the step is one of its frames, and that step's data holds the bot's stderr
line and no earlier step's does; opened at #frame=K in headless Chromium, where there is one, its
bot panel shows that line and the crash's entry in the fault list leads to frame K), and `arbiter show FOLDER --seat 0 --step K` (prints that line).
Known steps: Ants turn 5 (step 5); Planowanie the first declaration (step 1, the frame the
viewer draws for a declaration round that never came); SamurAI the state of step 6 (frame 7);
smart-dog turn 4 (step 4); Koehandel its auction request 3 (from 0), at the step the match's
transcript holds it under, the viewer's turn with the seat's first fault.
Then the same from a ladder's verdict: a Planowanie ladder registers a copy of its heuristic bot
that answers '? changed' from its 3rd decision; `arbiter diff --ladder-db` reports, per match,
the step where the old version got that request, and `arbiter show` of the new match there
prints the copy's stderr line.

Usage: three_commands.py --arbiter BIN --bots DIR --shared DIR --config LADDER_CONFIG
"""
import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "view"))
from step_marks import frames_of, page_data  # noqa: E402  (the renderers' frame counts)
from browser_test import Browser  # noqa: E402

DEVIATE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "bots", "deviate.py")
LINE = "deviate: crash at "


def request_step(transcript, name, text, n):
    """The step under which bot NAME's n-th request (from 0) containing TEXT lies."""
    label, step, seen = None, -1, 0
    for line in open(transcript, encoding="utf-8", errors="replace"):
        m = re.match(r"# seat (\S+): bot (\S+):", line)
        if m and m.group(2) == name:
            label = m.group(1)
        m = re.match(r"\s*[0-9.]+ # step (\d+)$", line)
        if m:
            step = int(m.group(1))
            continue
        m = re.match(r"\s*[0-9.]+ (\S+) > (.*)", line)
        if m and m.group(1) == label and text in m.group(2):
            if seen == n:
                return step
            seen += 1
    return None


def run(args, **kw):
    return subprocess.run(args, capture_output=True, text=True, **kw)


def plays(b, data):
    """game -> (play arguments, the crashing bot, the step it crashes at or None: from the transcript)."""
    dv = f"python3 {DEVIATE}"
    return {
        "ants": (["--map", f"{data}/ants/maps/maze_02p_02.map", "--turns", "12",
                  "--bot", f"name=g cmd={b}/ants/greedy_bot"],
                 f'name=c cmd="{dv} ants 5 crash {b}/ants/greedy_bot"', 5),
        "planowanie": (["--bot", f"name=g cmd={b}/planowanie/random_bot"],
                       f'name=c cmd="{dv} planowanie 0 crash {b}/planowanie/heuristic_bot"', 1),
        "samurai": (["--field", f"{data}/samurai/fields/sample.dighere", "--bot", f"name=g cmd={b}/samurai/greedy_digger"],
                    f'name=c cmd="{dv} samurai 6 crash {b}/samurai/greedy_digger"', 7),
        "smartdog": (["--map", f"{data}/smartdog/maps/simple-1.txt", "--turns", "12",
                      "--bot", f"name=g cmd={b}/smartdog/herder"],
                     f"name=c cmd=python3 arg={DEVIATE} arg=smartdog arg=4 arg=crash arg={b}/smartdog/herder.py", 4),
        "koehandel": (["--bot", f"name=g cmd={b}/koehandel/value_bot"],
                      f"name=c cmd=python3 arg={DEVIATE} arg=koehandel arg=3 arg=crash arg={b}/koehandel/value_bot.py",
                      None),
    }


# Clicks the crashing bot's entry in the fault list; the frame it shows then (null: no entry).
FAULT_LINK = """(() => {
  const link = [...document.querySelectorAll('#faults a')].find(a => / c (crashed|illegal)/.test(' ' + a.textContent));
  if (!link) return null;
  link.click();
  return document.body.getAttribute('data-frame');
})()"""


def opened_at(pages, work):
    """Each page opened at its step in headless Chromium (skipped where it cannot start): the
    viewer shows that frame and its bot panel (seat 0) the crash's stderr line."""
    chromium = os.environ.get("ARBITER_CHROMIUM") or shutil.which("chromium") or shutil.which("chromium-browser")
    if not chromium:
        print("browser: skipped, no chromium on PATH")
        return []
    try:
        browser = Browser(chromium, os.path.join(work, "profile"))
        browser.open_page()
    except (OSError, EOFError, TimeoutError) as e:
        print(f"browser: skipped, chromium does not start here: {e}")
        return []
    said = []
    try:
        for game, page, step in pages:
            browser.navigate(f"file://{page}#frame={step}")
            deadline = time.monotonic() + 10
            while browser.evaluate("document.body.getAttribute('data-frame')") != str(step) and time.monotonic() < deadline:
                time.sleep(0.05)
            io = browser.evaluate("(document.getElementById('io') || {}).textContent || ''")
            if browser.evaluate("document.body.getAttribute('data-frame')") != str(step) or LINE not in io:
                said.append(f"{game}: the page opened at #frame={step} does not show the crash's stderr line: {io[:300]}")
            # The fault list's entry for the crash leads to its step (SamurAI's log says nothing of
            # faults: there, the step where the transcript has the table retire the seat).
            went = browser.evaluate(FAULT_LINK)
            if went != str(step):
                said.append(f"{game}: the fault list leads to frame {went}, not {step}")
            said += [f"{game}: the page logged {e}" for e in browser.errors()]
        print(f"browser: {len(pages)} pages opened at their step")
    finally:
        browser.close()
    return said


def one_game(a, game, extra, crasher, step, work):
    said = []
    folder = os.path.join(work, "play-" + game)
    p = run([a.arbiter, "play", game, "--out", folder, "--bot", crasher] + extra, cwd=work)
    if p.returncode != 0 or f"view: arbiter view {folder}" not in p.stdout:
        return [f"play: exit {p.returncode}, no view line: {p.stdout[-300:]} {p.stderr[-300:]}"]
    if step is None:
        transcripts = [f for f in os.listdir(folder) if f.endswith(".transcript")]
        step = request_step(os.path.join(folder, transcripts[0]), "c", "&type=auction&", 3)
        if step is None:
            return ["no 3rd auction request in the transcript"]
    p = run([a.arbiter, "view", folder], cwd=work)
    page = os.path.join(folder, "viewer.html")
    if p.returncode != 0 or not os.path.exists(page):
        return [f"view: exit {p.returncode}: {p.stderr[-300:]}"]
    d = page_data(page)
    frames = frames_of(game, d["replay"])
    if step >= frames:
        said.append(f"step {step} is not a frame of the page ({frames} frames)")
    steps = (d.get("io") or {}).get("steps", {})
    # (A SamurAI bot crashes in each game: its second crash is game 2's, later.)
    at = sorted(int(k) for k, seats in steps.items() if any(LINE in x for x in ((seats[0] or {}).get("stderr") or [])))
    if at[:1] != [step] or at[-1] >= frames:
        said.append(f"the page has the crash's stderr line at steps {at}, not first at {step}")
    if game == "koehandel":
        faulted = [i for i, t in enumerate(d["replay"]["turns"])
                   if any(e.get("type") == "fault" and e.get("seat") == 0 for e in t.get("events", []))]
        if faulted[:1] != [step]:
            said.append(f"the viewer's turns with seat 0's faults are {faulted[:3]}, not first {step}")
    p = run([a.arbiter, "show", folder, "--seat", "0", "--step", str(step)], cwd=work)
    if p.returncode != 0 or not p.stdout.startswith(f"step {step}, seat 0 (c)") or f"! {LINE}" not in p.stdout \
            and f"] {LINE}" not in p.stdout:
        said.append(f"show --step {step} does not print the crash's stderr line: {p.stdout[:400]} {p.stderr[-200:]}")
    print(f"{game}: crashed at step {step} of {frames} frames" + ("" if not said else ": " + "; ".join(said)))
    a.pages.append((game, page, step))
    return said


def ladder(a, work):
    said = []
    config = os.path.join(work, "ladder.json")
    text = open(a.config, encoding="utf-8").read()
    text = re.sub(r'"out": "[^"]*"', '"out": "ladder-out"', text)
    open(config, "w").write(re.sub(r'"max_matches": [0-9]*', '"max_matches": 8', text))
    env = dict(os.environ, ARBITER_BOTS=a.bots)
    new = f'name=heuristic-2 cmd="python3 {DEVIATE} planowanie 2 change {a.bots}/planowanie/heuristic_bot"'
    p = run([a.arbiter, "ladder", "-q", "--db", "l.sqlite", "--config", config, "--add", new], cwd=work, env=env)
    # The copy faults in every match it plays: "broken" (6) is its verdict.
    if p.returncode not in (0, 3, 4, 6):
        return [f"ladder: exit {p.returncode}: {p.stderr[-300:]}"]
    p = run([a.arbiter, "diff", "--ladder-db", "l.sqlite", "--game", "planowanie", "--games", "3", "--out", "d", "-j", "2"],
            cwd=work, env=env)
    pairs = re.findall(r"^g(\d+) seed \d+ seat (\d+): first difference at step (\d+) ", p.stdout, re.M)
    if p.returncode != 0 or len(pairs) != 3:
        return [f"diff --ladder-db: exit {p.returncode}, {len(pairs)} differences: {p.stdout[-500:]} {p.stderr[-300:]}"]
    for g, seat, step in pairs:
        want = request_step(os.path.join(work, "d", "old", f"g{g}", "transcript.txt"), "heuristic-1", "gen_", 2)
        if int(step) != want:
            said.append(f"g{g}: diff says step {step}, the old version got its 3rd decision request at step {want}")
        folder = os.path.join(work, "d", "new", f"g{g}")
        s = run([a.arbiter, "show", folder, "--seat", seat, "--step", step], cwd=work)
        if "! deviate: change at decision 2" not in s.stdout:
            said.append(f"g{g}: show --seat {seat} --step {step} does not print the copy's stderr line: {s.stdout[:300]}")
        if f"  look: arbiter show d/new/g{g} --seat {seat} --step {step}" not in p.stdout:
            said.append(f"g{g}: no look line for seat {seat} step {step}")
        # The copy's '? changed' ends the new match there: the viewer's last frame.
        v = run([a.arbiter, "view", folder], cwd=work)
        frames = frames_of("planowanie", page_data(os.path.join(folder, "viewer.html"))["replay"]) if v.returncode == 0 else -1
        if frames != int(step) + 1:
            said.append(f"g{g}: the new match's page has {frames} frames, its last not step {step}")
    print(f"ladder: {[(int(g), int(s)) for g, _, s in pairs]} (game, step)" + ("" if not said else ": " + "; ".join(said)))
    return said


def main():
    ap = argparse.ArgumentParser()
    for flag in ("--arbiter", "--bots", "--shared", "--config"):
        ap.add_argument(flag, required=True)
    a = ap.parse_args()
    a.arbiter, a.bots = os.path.abspath(a.arbiter), os.path.abspath(a.bots)
    data = os.path.join(os.path.abspath(a.shared), "data")
    failures = []
    a.pages = []
    with tempfile.TemporaryDirectory() as work:
        for game, (extra, crasher, step) in plays(a.bots, data).items():
            failures += [f"{game}: {s}" for s in one_game(a, game, extra, crasher, step, work)]
        failures += opened_at(a.pages, work)
        failures += [f"ladder: {s}" for s in ladder(a, work)]
    if failures:
        print("FAIL:\n  " + "\n  ".join(failures))
        return 1
    print("ok")
    return 0


if __name__ == "__main__":
    sys.exit(main())
