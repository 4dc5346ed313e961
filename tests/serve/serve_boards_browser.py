#!/usr/bin/env python3
"""A running match of each of the five games watched in a real browser (headless Chromium over
the DevTools protocol): the live page lists the match, its page opens, the board (the game's own
viewer in the page) appears at its last frame and advances to a later step without a reload of
the page, and no console error or uncaught exception occurs, in the page or its board.
Screenshots of each game's running match at 1400x900 and 1024x768 (--screenshots DIR keeps them:
docs/serve/). The matches are those of serve_frames.py, made slower so that a person could watch.
Exit 77 where Chromium cannot start.

Usage: serve_boards_browser.py --arbiter BIN --bots DIR --shared DIR --scratch DIR [--screenshots DIR]
                               [--game GAME ...]
"""
import argparse
import os
import shutil
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(HERE, "..", "view"))
from serve_browser import shoot  # noqa: E402
from serve_common import Server, browser_setup, fail, start_browser  # noqa: E402
from serve_frames import games, start_tournament  # noqa: E402

BOARD = "document.getElementById('frames')"
# The board's last frame (the viewer's "step N / LAST").
FRAMES = f"Number((({BOARD}.contentDocument || {{}}).getElementById && {BOARD}.contentDocument" \
         ".getElementById('frame-count') || {}).textContent || 0)"
STEP = "Number((/step ([0-9]+)/.exec(document.getElementById('board').textContent) || [0, -1])[1])"


def watch(browser, server, args, game, index, extra, shots):
    db = os.path.join(args.scratch, f"{game}.sqlite")
    proc = start_tournament(args.arbiter, game, db, extra)
    try:
        browser.navigate(f"http://{server.host}:{server.port}/")
        # The running match's link (of this game's database, the index-th given to the server), read
        # in the same evaluation that finds it.
        link = f"(document.querySelector('table.running a[href*=\"/live/{index}/\"]') || {{}}).href || ''"
        browser.wait_for(f"{link} !== ''", timeout=60)
        browser.navigate(browser.evaluate(link))
        try:
            browser.wait_for(f"!{BOARD}.hidden && {FRAMES} > 0", timeout=60)
        except TimeoutError:
            fail(f"{game}: no board in the match's page: "
                 + browser.evaluate("document.getElementById('status').textContent + ' | ' + "
                                    "document.getElementById('board').textContent + ' | ' + "
                                    f"{BOARD}.src"))
        first_step, first_frames = browser.evaluate(STEP), browser.evaluate(FRAMES)
        browser.wait_for(f"{STEP} > {first_step} && {FRAMES} > {first_frames}", timeout=60)
        step, frames = browser.evaluate(STEP), browser.evaluate(FRAMES)
        # The board's last frame is the step it was written at (its title names it).
        titled = browser.evaluate(f"Number((/live, step ([0-9]+)/.exec({BOARD}.contentDocument.title) || [0, -1])[1])")
        if frames != titled:
            fail(f"{game}: the board written at step {titled} has {frames} as its last frame")
        # The board follows the match: it shows its last frame.
        shown = browser.evaluate(f"(/frame=([0-9]+)/.exec({BOARD}.contentWindow.location.hash) || [0, -1])[1]")
        if int(shown) != frames:
            fail(f"{game}: the board shows frame {shown}, not its last ({frames})")
        shoot(browser, shots, f"serve-board-{game}", 1400, 900)
        shoot(browser, shots, f"serve-board-{game}", 1024, 768)
        errors = browser.errors()
        if errors:
            fail(f"{game}: console errors: {errors[:5]}")
    finally:
        proc.wait()
    if proc.returncode != 0:
        fail(f"{game}: the tournament exited {proc.returncode}: {proc.stderr.read()[-1500:]}")
    return first_step, first_frames, step, frames


def main():
    ap = argparse.ArgumentParser()
    for a in ("--arbiter", "--bots", "--shared", "--scratch"):
        ap.add_argument(a, required=True)
    ap.add_argument("--screenshots")
    ap.add_argument("--game", action="append", help="only these games")
    args = ap.parse_args()
    chromium, shots = browser_setup(args)
    table = games(os.path.abspath(args.bots), os.path.abspath(os.path.join(args.shared, "data")), scale=3)
    chosen = args.game or list(table)
    server = Server(args.arbiter, [os.path.join(args.scratch, f"{g}.sqlite") for g in chosen], ["--tick-ms", "200"])
    browser, profile = start_browser(chromium, server)
    try:
        for index, game in enumerate(chosen):
            a, fa, b, fb = watch(browser, server, args, game, index, table[game], shots)
            print(f"{game}: the board went from step {a} (last frame {fa}) to step {b} (last frame {fb})")
    finally:
        browser.close()
        shutil.rmtree(profile, ignore_errors=True)
        server.stop()
    print(f"PASS: a running match's board advances in the browser in every game; screenshots in {shots}")


if __name__ == "__main__":
    main()
