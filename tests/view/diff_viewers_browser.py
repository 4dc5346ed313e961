#!/usr/bin/env python3
"""arbiter diff --viewers in a real browser, opened from files as a user opens it (headless
Chromium without --allow-file-access-from-files): the side-by-side page opens both viewers at the
first difference, and stepping one steps the other. Also says whether the page could have read the
frames' addresses itself (Chromium keeps each file its own origin, so it cannot: the viewers post
their frame instead). Exit 77 (ctest's skip) where Chromium cannot start.

Usage: diff_viewers_browser.py --arbiter BIN --bots DIR --shared DIR
"""
import argparse
import os
import shutil
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from browser_test import SKIP, Browser  # noqa: E402

# An Ants bot that plays as the one it wraps and replies only "go" from its 5th turn on.
CHANGER = r"""
import subprocess, sys, threading
start, cmd = int(sys.argv[1]), sys.argv[2:]
bot = subprocess.Popen(cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1)
def feed():
    for line in sys.stdin:
        bot.stdin.write(line)
        bot.stdin.flush()
    bot.stdin.close()
threading.Thread(target=feed, daemon=True).start()
n, held = 0, []
for line in bot.stdout:
    if line.strip() != "go":
        held.append(line)
        continue
    sys.stdout.write("go\n" if n >= start else "".join(held) + line)
    sys.stdout.flush()
    held, n = [], n + 1
"""

SHOWN_FRAME = "document.body.getAttribute('data-frame')"


def frame_contexts(browser):
    """The execution context (an isolated world) of each iframe of the page, by the iframe's id."""
    tree = browser.send("Page.getFrameTree")["frameTree"]
    contexts = {}
    for child in tree.get("childFrames", []):
        frame = child["frame"]
        world = browser.send("Page.createIsolatedWorld", {"frameId": frame["id"], "worldName": "diff-test"})
        contexts[frame.get("name") or frame["url"]] = world["executionContextId"]
    return contexts


def evaluate_in(browser, context, expression):
    result = browser.send("Runtime.evaluate", {"expression": expression, "contextId": context, "returnByValue": True})
    if "exceptionDetails" in result:
        raise RuntimeError(f"{expression}: {result['exceptionDetails']}")
    return result["result"].get("value")


def wait_frames(browser, contexts, want, timeout=15):
    deadline = time.monotonic() + timeout
    while True:
        shown = {side: evaluate_in(browser, c, SHOWN_FRAME) for side, c in contexts.items()}
        if all(v == want for v in shown.values()):
            return shown
        if time.monotonic() > deadline:
            raise SystemExit(f"FAIL: the viewers show frames {shown}, not both {want}")
        time.sleep(0.05)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--arbiter", required=True)
    ap.add_argument("--bots", required=True)
    ap.add_argument("--shared", required=True)
    args = ap.parse_args()
    chromium = os.environ.get("ARBITER_CHROMIUM") or shutil.which("chromium") or shutil.which("chromium-browser")
    if not chromium:
        print("SKIP: no chromium on PATH (tools/setup installs Debian's chromium)")
        return SKIP
    work = tempfile.mkdtemp(prefix="arbiter-diff-view-")
    try:
        changer = os.path.join(work, "changer.py")
        with open(changer, "w") as f:
            f.write(CHANGER)
        greedy = os.path.join(args.bots, "ants", "greedy_bot")
        out = os.path.join(work, "out")
        result = subprocess.run(
            [args.arbiter, "diff", f"name=old cmd={greedy}", f'name=new cmd="python3 {changer} 5 {greedy}"',
             "--game", "ants", "--set", "map=" + os.path.join(args.shared, "data", "ants", "maps", "maze_02p_02.map"),
             "--set", "turns=12", "--games", "1", "--out", out, "--viewers"], capture_output=True, text=True)
        if result.returncode != 0 or "first difference at step 5" not in result.stdout:
            raise SystemExit(f"FAIL: arbiter diff exited {result.returncode}\n{result.stdout}{result.stderr}")
        page = os.path.join(out, "diff-g0.html")
        try:
            browser = Browser(chromium, os.path.join(work, "profile"), file_access=False)
            browser.open_page()
        except (OSError, EOFError, TimeoutError) as e:
            print(f"SKIP: chromium does not start here: {e}")
            return SKIP
        try:
            browser.navigate("file://" + page)
            contexts = frame_contexts(browser)
            if sorted(contexts) != ["new", "old"]:
                raise SystemExit(f"FAIL: the page's frames are {sorted(contexts)}, not old and new")
            # Step 5 is the viewer's frame 5 (#frame=5).
            wait_frames(browser, contexts, "5")
            reach = browser.evaluate("""(() => { try { return 'read ' + document.getElementById('old')
                .contentWindow.location.hash; } catch (e) { return 'refused (' + e.name + ')'; } })()""")
            print(f"the page reading a viewer's address from file://: {reach}")
            for side, other, key, want in (("old", "new", "ArrowRight", "6"), ("new", "old", "ArrowLeft", "5"),
                                           ("new", "old", "Home", "0")):
                evaluate_in(browser, contexts[side],
                            f"document.dispatchEvent(new KeyboardEvent('keydown', {{key: '{key}', bubbles: true}}))")
                wait_frames(browser, contexts, want)
                print(f"{key} in the {side} viewer: both at frame {want}")
            errors = browser.errors()
            if errors:
                raise SystemExit(f"FAIL: the page logged errors: {errors}")
        finally:
            browser.close()
        print("ok")
        return 0
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
