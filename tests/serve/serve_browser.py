#!/usr/bin/env python3
"""The live page in a real browser (headless Chromium over the DevTools protocol, as the viewer's
tests drive it): opened while a real short tournament runs, the standings change without a
reload, matches playing show their step, a running match's page opens, the page ends showing the
tournament ended, a finished match opens its viewer; no console error or uncaught exception at
any point. Screenshots at 1400x900 and 1024x768 (--screenshots DIR keeps them). Exit 77 where
Chromium cannot start.

Usage: serve_browser.py --arbiter BIN --bots DIR --config CONFIG --scratch DIR [--screenshots DIR]
"""
import argparse
import os
import shutil
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(HERE, "..", "view"))
from serve_common import Server, browser_setup, fail, start_browser, tournament_cmd  # noqa: E402

GAMES = "([...document.querySelectorAll('table.standings tr')].slice(1).map(r => Number(r.cells[6].textContent))" \
        ".reduce((a, b) => a + b, 0))"
STATUS = "((document.querySelector('.tournament .badge') || {}).textContent || '')"


def shoot(browser, folder, name, width, height):
    browser.send("Emulation.setDeviceMetricsOverride", {"width": width, "height": height, "deviceScaleFactor": 1,
                                                         "mobile": False})
    # Two animation frames after the resize, so that the capture is of the page as it is now.
    browser.send("Runtime.evaluate", {"expression": "new Promise(r => requestAnimationFrame(() => "
                                      "requestAnimationFrame(r)))", "awaitPromise": True})
    time.sleep(0.3)
    path = os.path.join(folder, f"{name}-{width}x{height}.png")
    browser.screenshot(path)
    overflow = browser.evaluate("document.documentElement.scrollWidth > window.innerWidth + 1")
    if overflow:
        fail(f"the page is wider than the window at {width}x{height}")
    return path


def main():
    ap = argparse.ArgumentParser()
    for a in ("--arbiter", "--bots", "--config", "--scratch"):
        ap.add_argument(a, required=True)
    ap.add_argument("--screenshots")
    args = ap.parse_args()
    chromium, shots = browser_setup(args)
    db = os.path.join(args.scratch, "live.sqlite")
    env = dict(os.environ, ARBITER_BOTS=os.path.abspath(args.bots))
    server = Server(args.arbiter, [db], ["--tick-ms", "200"])
    browser, profile = start_browser(chromium, server)
    proc = None
    try:
        browser.navigate(f"http://{server.host}:{server.port}/")
        # Before the tournament: the file is not there yet, and the page says so.
        browser.wait_for("document.querySelector('.error') !== null", timeout=20)
        proc = subprocess.Popen(tournament_cmd(args.arbiter, db, args.config, 2), env=env,
                                stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
        browser.wait_for(f"{GAMES} > 0", timeout=60)
        first = browser.evaluate(GAMES)
        browser.wait_for("document.querySelector('table.running a') !== null", timeout=60)
        shoot(browser, shots, "serve-running", 1400, 900)
        shoot(browser, shots, "serve-running", 1024, 768)
        browser.wait_for(f"{GAMES} > {first}", timeout=60)
        changed = browser.evaluate(GAMES)
        if browser.errors():
            fail("console errors on the live page")
        # A running match's own page, then back to the list.
        href = browser.evaluate("(document.querySelector('table.running a') || {}).href || ''")
        if href:
            browser.navigate(href)
            browser.wait_for("/step|Finished|no longer/.test(document.getElementById('status').textContent)", 30)
            browser.navigate(f"http://{server.host}:{server.port}/")
        browser.wait_for(f"{STATUS} === 'ended'", timeout=120)
        shoot(browser, shots, "serve-ended", 1400, 900)
        shoot(browser, shots, "serve-ended", 1024, 768)
        now = browser.evaluate(STATUS + " + ' ' + document.getElementById('updated').textContent + ' ' + "
                               "document.querySelector('.progress-text').textContent")
        if not now.startswith("ended"):
            fail(f"the page went back from 'ended': {now}")
        final = browser.evaluate(GAMES)
        # A finished match opens its viewer.
        browser.navigate(browser.evaluate("document.querySelector('table.recent a').href"))
        browser.wait_for("document.getElementById('frame-count') && Number(document.getElementById('frame-count')"
                         ".textContent) > 0", timeout=30)
        errors = browser.errors()
        if errors:
            fail(f"console errors: {errors[:5]}")
    finally:
        browser.close()
        shutil.rmtree(profile, ignore_errors=True)
        if proc:
            proc.wait()
        server.stop()
    if not (first < changed <= final):
        fail(f"the standings did not change while it ran: {first} -> {changed} -> {final}")
    print(f"PASS: standings games {first} -> {changed} -> {final} without a reload; screenshots in {shots}")


if __name__ == "__main__":
    main()
