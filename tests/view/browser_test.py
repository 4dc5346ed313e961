#!/usr/bin/env python3
"""The replay viewer in a real browser: headless Chromium driven over the DevTools protocol.

Plays one match of each game with the sample bots (`arbiter play`), adds the original engines'
files from ../shared/data, writes each one's page with `arbiter view`, and in one browser
process loads every page, presses End and checks that the scores shown are the record's (or the
original file's), presses Home and checks the first state, and fails on any console error or
uncaught exception. At 1400x900 and 1024x768 each page is checked for legibility: no text in its
background's colour, the board at least half the page's width, the step in the address as it
changes, a legend, seat colours apart from the terrain; the Ants page's I/O panel shows the replies
`arbiter show` reads at a step; a crashed bot's fault shows its exit code and stderr. The report's filter, list and address agree after Back from a
viewer. Exit 77 (ctest's skip) with the reason where Chromium cannot start.

Usage: browser_test.py --arbiter BIN --bots DIR --shared DIR [--screenshots DIR [--every-size]] [--only GAME,...]
"""
import argparse
import base64
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time

SKIP = 77


class Browser:
    """One headless Chromium, spoken to over --remote-debugging-pipe (fds 3 and 4)."""

    def __init__(self, executable, profile, file_access=True):
        to_chrome_r, self._to_chrome = os.pipe()
        self._from_chrome, from_chrome_w = os.pipe()
        # Moved clear of 3 and 4 first, so that the dup2 calls below cannot overwrite each other.
        os.dup2(to_chrome_r, 100)
        os.dup2(from_chrome_w, 101)
        os.close(to_chrome_r)
        os.close(from_chrome_w)
        to_chrome_r, from_chrome_w = 100, 101

        def child_fds():
            os.dup2(100, 3)
            os.dup2(101, 4)

        args = [executable, "--headless", "--remote-debugging-pipe", "--user-data-dir=" + profile,
                "--no-first-run", "--no-default-browser-check", "--disable-gpu", "--disable-extensions",
                "--window-size=1280,900",
                # Back reloads pages, as where the page cache does not keep them (file://, memory).
                "--disable-features=BackForwardCache", "about:blank"]
        if file_access:  # off: pages from files as a user's browser opens them
            args.insert(-1, "--allow-file-access-from-files")
        if os.geteuid() == 0:
            args.insert(1, "--no-sandbox")  # Chromium refuses to start as root with its sandbox
        self.proc = subprocess.Popen(args, pass_fds=(3, 4, 100, 101), preexec_fn=child_fds,
                                     stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        os.close(to_chrome_r)
        os.close(from_chrome_w)
        self._buffer = b""
        self._next = 0
        self.events = []
        self.session = None

    def send(self, method, params=None, session=True, timeout=30):
        self._next += 1
        message = {"id": self._next, "method": method, "params": params or {}}
        if session and self.session:
            message["sessionId"] = self.session
        os.write(self._to_chrome, json.dumps(message).encode() + b"\0")
        deadline = time.monotonic() + timeout
        while True:
            reply = self._read(deadline)
            if reply.get("id") == self._next:
                if "error" in reply:
                    raise RuntimeError(f"{method}: {reply['error']}")
                return reply.get("result", {})
            self.events.append(reply)

    def _read(self, deadline):
        import select
        while b"\0" not in self._buffer:
            left = deadline - time.monotonic()
            if left <= 0:
                raise TimeoutError("no answer from Chromium")
            ready, _, _ = select.select([self._from_chrome], [], [], left)
            if not ready:
                continue
            chunk = os.read(self._from_chrome, 1 << 20)
            if not chunk:
                raise EOFError("Chromium closed its DevTools pipe")
            self._buffer += chunk
        message, self._buffer = self._buffer.split(b"\0", 1)
        return json.loads(message)

    def wait_event(self, method, timeout=30):
        deadline = time.monotonic() + timeout
        while True:
            for i, e in enumerate(self.events):
                if e.get("method") == method:
                    del self.events[i]
                    return e
            self.events.append(self._read(deadline))

    def open_page(self):
        target = self.send("Target.createTarget", {"url": "about:blank"}, session=False)["targetId"]
        self.session = self.send("Target.attachToTarget", {"targetId": target, "flatten": True},
                                 session=False)["sessionId"]
        for domain in ("Page", "Runtime", "Log"):
            self.send(domain + ".enable")

    def errors(self):
        """Console errors and uncaught exceptions seen so far (and forgets them)."""
        found = []
        for e in self.events:
            m, p = e.get("method"), e.get("params", {})
            if m == "Runtime.exceptionThrown":
                found.append(p["exceptionDetails"].get("exception", {}).get("description")
                             or p["exceptionDetails"].get("text"))
            elif m == "Runtime.consoleAPICalled" and p.get("type") in ("error", "assert"):
                found.append(" ".join(str(a.get("value", a.get("description"))) for a in p.get("args", [])))
            elif m == "Log.entryAdded" and p["entry"].get("level") == "error":
                found.append(p["entry"].get("text"))
        self.events = []
        return found

    def navigate(self, url):
        self.events = []
        self.send("Page.navigate", {"url": url})
        self.wait_event("Page.loadEventFired")

    def evaluate(self, expression):
        # A page still navigating (a link, Back) drops an evaluation: asked again once settled.
        for attempt in range(3):
            try:
                result = self.send("Runtime.evaluate", {"expression": expression, "returnByValue": True})
                break
            except RuntimeError as e:
                if "navigated or closed" not in str(e) or attempt == 2: raise
                time.sleep(0.5)
        if "exceptionDetails" in result:
            raise RuntimeError(f"{expression}: {result['exceptionDetails']}")
        return result["result"].get("value")

    def key(self, name, code):
        for kind in ("keyDown", "keyUp"):
            self.send("Input.dispatchKeyEvent", {"type": kind, "key": name, "code": name,
                                                 "windowsVirtualKeyCode": code})

    def click(self, selector_expression):
        """A real mouse click (pressed, released) at the middle of the element the expression finds."""
        box = self.evaluate(f"""(() => {{ const e = {selector_expression}; if (!e) return null;
            e.scrollIntoView({{block: 'center'}}); const r = e.getBoundingClientRect();
            return [r.left + r.width / 2, r.top + r.height / 2]; }})()""")
        if box is None:
            raise LookupError(f"nothing to click: {selector_expression}")
        for kind in ("mousePressed", "mouseReleased"):
            self.send("Input.dispatchMouseEvent", {"type": kind, "x": box[0], "y": box[1], "button": "left",
                                                   "clickCount": 1})

    def wait_for(self, expression, timeout=30):
        """Polls until the expression is true (for what a page does after an event, e.g. hashchange)."""
        deadline = time.monotonic() + timeout
        while not self.evaluate(expression):
            if time.monotonic() > deadline:
                raise TimeoutError(f"still false after {timeout} s: {expression}")
            time.sleep(0.05)

    def screenshot(self, path):
        png = self.send("Page.captureScreenshot", {"format": "png"})["data"]
        with open(path, "wb") as f:
            f.write(base64.b64decode(png))

    def close(self):
        try:
            self.send("Browser.close", session=False, timeout=5)
        except Exception:
            pass
        try:
            self.proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()


SHOWN = """(() => ({
  frame: document.getElementById('frame-number').textContent,
  label: document.getElementById('turn-label').textContent,
  names: [...document.querySelectorAll('.seat-name')].map(e => e.textContent),
  scores: [...document.querySelectorAll('.seat-score')].map(e => Number(e.textContent)),
}))()"""


def run(cmd, **kw):
    result = subprocess.run(cmd, capture_output=True, text=True, **kw)
    if result.returncode != 0:
        raise SystemExit(f"FAIL: {' '.join(cmd)} exited {result.returncode}\n{result.stdout}{result.stderr}")
    return result.stdout


def check_log_mismatch(arbiter, folder):
    """A Koehandel player log edited after the match no longer replays: one line naming it."""
    copy = folder + "-edited"
    shutil.copytree(folder, copy)
    log = next(os.path.join(copy, "player-logs", n) for n in sorted(os.listdir(os.path.join(copy, "player-logs")))
               if n.startswith("player"))
    with open(log) as f:
        lines = f.read().split("\n")
    lines[0] = lines[0].replace("message=begin", "message=hello")
    with open(log, "w") as f:
        f.write("\n".join(lines))
    result = subprocess.run([arbiter, "view", copy, "--out", os.path.join(copy, "v.html")], capture_output=True,
                            text=True)
    want = f"{log}:1: the log has '"
    if result.returncode != 2 or want not in result.stderr or result.stderr.count("\n") != 1:
        raise SystemExit(f"FAIL: arbiter view on an edited Koehandel log: exit {result.returncode}, {result.stderr!r}")


def played_matches(arbiter, bots, shared, source, work):
    """(case, game, file to view, expected final scores, expected first label, first scores)."""
    cases = []

    def play(game, bot_specs, options, replay_name):
        out = os.path.join(work, game)
        record = os.path.join(out, "record.json")
        cmd = [arbiter, "play", game, "--seed", "5", "--out", out, "--record", record,
               "--replay", os.path.join(out, replay_name)] + options
        for spec in bot_specs:
            cmd += ["--bot", spec]
        run(cmd)
        with open(record) as f:
            rec = json.load(f)
        return record, [p["score"] for p in rec["participants"]]

    b = bots
    record, final = play("planowanie", [f"name=heur cmd={b}/planowanie/heuristic_bot",
                                        f"name=r1 cmd=\"{b}/planowanie/random_bot 1\"",
                                        f"name=r2 cmd=\"{b}/planowanie/random_bot 2\"",
                                        f"name=r3 cmd=\"{b}/planowanie/random_bot 3\""], [], "replay.json")
    cases.append(("planowanie-played", "planowanie", record, final, "deal 1, dealt", [0, 0, 0, 0]))
    record, final = play("ants", [f"name=hunter cmd={b}/ants/hunter_bot", f"name=greedy cmd={b}/ants/greedy_bot"],
                         ["--map", f"{shared}/data/ants/maps/maze_02p_02.map", "--turns", "60"], "replay.json")
    cases.append(("ants-played", "ants", record, final, "turn 0", None))
    record, final = play("samurai", [f"name=greedy cmd={b}/samurai/greedy_digger",
                                     f"name=random cmd=\"{b}/samurai/random_player --seed 3\""],
                         ["--field", f"{shared}/data/samurai/fields/sample.dighere"], "replay.dighere")
    cases.append(("samurai-played", "samurai", record, final, "game 1, step 0", [0, 0]))

    record, final = play("smartdog", [f"name=herder cmd={b}/smartdog/herder", f"name=dog cmd={b}/smartdog/random_dog"],
                         ["--map", f"{shared}/data/smartdog/maps/simple-1.txt", "--turns", "40"], "replay.txt")
    cases.append(("smartdog-played", "smartdog", record, final, "turn 1", None))

    record, final = play("koehandel", [f"name=value cmd={b}/koehandel/value_bot",
                                       f"name=py cmd=\"python3 {source}/tools/bots/koehandel/value_bot.py\""],
                         [], "player-logs")
    cases.append(("koehandel-played", "koehandel", record, final, "start", [0, 0]))
    check_log_mismatch(arbiter, os.path.dirname(record))

    for name in sorted(os.listdir(f"{shared}/data/ants/replays")):
        if name.endswith(".replay.json"):
            path = f"{shared}/data/ants/replays/{name}"
            with open(path) as f:
                replay = json.load(f)
            first = [s[0] for s in replay["replaydata"]["scores"]]
            cases.append(("ants-original-" + name.split("__")[0], "ants", path, replay["score"], "turn 0", first))
            break
    log = f"{shared}/data/samurai/logs/sample_simple_vs_simple.dighere"
    with open(log) as f:
        plays = json.load(f)["plays"]
    cases.append(("samurai-original", "samurai", log, plays[-1]["scores"], "game 1, step 0", [0, 0]))
    transcript = f"{shared}/data/smartdog/transcripts/keeper-1_2p.txt"
    with open(transcript) as f:
        finals = [float(line.split("=")[1]) for line in f if line.startswith("# final score P")]
    cases.append(("smartdog-original", "smartdog", transcript, finals, "turn 1", None))
    return cases


def check_page(browser, case, page, failures):
    name, game, _, final, first_label, first_scores = case
    browser.navigate("file://" + os.path.abspath(page))
    shown = browser.evaluate(SHOWN)
    if not shown or not shown["names"]:
        failures.append(f"{name}: the page shows no seats ({shown})")
        return
    browser.key("End", 35)
    last = browser.evaluate(SHOWN)
    if last["scores"] != [float(v) for v in final]:
        failures.append(f"{name}: at the last step ({last['label']}) the page shows scores {last['scores']}, "
                        f"the record has {final}")
    browser.key("ArrowLeft", 37)
    before = browser.evaluate(SHOWN)
    if int(before["frame"]) != int(last["frame"]) - 1:
        failures.append(f"{name}: left arrow went from step {last['frame']} to {before['frame']}")
    browser.key("Home", 36)
    start = browser.evaluate(SHOWN)
    if start["frame"] != "0" or start["label"] != first_label:
        failures.append(f"{name}: Home shows step {start['frame']} '{start['label']}', wanted 0 '{first_label}'")
    if first_scores is not None and start["scores"] != [float(v) for v in first_scores]:
        failures.append(f"{name}: the first step shows scores {start['scores']}, wanted {first_scores}")
    for error in browser.errors():
        failures.append(f"{name}: console error: {error}")


SIZES = [(1400, 900), (1024, 768)]

# Elements with text of their own whose text colour reads as their background (contrast below 1.5).
SAME_COLOUR = """(() => {
  const rgb = c => (c.match(/[\\d.]+/g) || []).map(Number);
  const lum = ([r, g, b]) => [r, g, b].map(v => { v /= 255; return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4; })
      .reduce((a, v, i) => a + v * [0.2126, 0.7152, 0.0722][i], 0);
  const background = e => {
    for (; e; e = e.parentElement) { const c = rgb(getComputedStyle(e).backgroundColor); if (c.length === 3 || c[3] > 0) return c; }
    return [255, 255, 255];
  };
  const bad = [];
  for (const e of document.body.querySelectorAll('*')) {
    const own = [...e.childNodes].some(n => n.nodeType === 3 && n.textContent.trim());
    if (!own || !e.getClientRects().length || getComputedStyle(e).visibility === 'hidden') continue;
    const fg = rgb(getComputedStyle(e).color), bg = background(e);
    const [hi, lo] = [lum(fg), lum(bg)].sort((a, b) => b - a);
    if ((hi + 0.05) / (lo + 0.05) < 1.5) bad.push(e.tagName + '.' + e.className + ' "' + e.textContent.trim().slice(0, 30) + '"');
  }
  return bad;
})()"""

# The board drawn: its canvas, else the game's table (the text under a board is not measured).
BOARD_WIDTH = """(() => {
  const drawn = [...document.querySelectorAll('#board canvas')];
  const parts = drawn.length ? drawn : [...document.querySelectorAll('#board table, #board .pl-table')];
  return { board: Math.max(0, ...parts.map(e => e.getBoundingClientRect().width)), page: innerWidth };
})()"""

# Seat colours against the game's terrain colours: the smallest RGB distance.
TERRAIN_DISTANCE = """(() => {
  const game = JSON.parse(document.getElementById('match-data').textContent).game;
  const terrain = (ArbiterView.terrain || {})[game];
  if (!terrain) return null;
  const rgb = c => [1, 3, 5].map(i => parseInt(c.slice(i, i + 2), 16));
  const seats = [...document.querySelectorAll('.seat .swatch')].map(e => getComputedStyle(e).backgroundColor)
      .map(c => c.match(/\\d+/g).slice(0, 3).map(Number));
  let worst = [1e9, ''];
  for (const s of seats) for (const [name, c] of Object.entries(terrain)) {
    const t = rgb(c), d = Math.hypot(s[0] - t[0], s[1] - t[1], s[2] - t[2]);
    if (d < worst[0]) worst = [d, name + ' ' + c + ' vs seat rgb(' + s + ')'];
  }
  return worst;
})()"""


def check_legibility(browser, case, page, failures, shots, every_size=False):
    """At each size: no text in its background's colour, the board at least half the page's width,
    the step in the address as it changes, a legend, seat colours apart from the terrain."""
    name = case[0]
    for width, height in SIZES:
        browser.send("Emulation.setDeviceMetricsOverride", {"width": width, "height": height,
                                                            "deviceScaleFactor": 1, "mobile": False})
        browser.navigate("file://" + os.path.abspath(page))
        at = f"{name} at {width}x{height}"
        for e in browser.evaluate(SAME_COLOUR):
            failures.append(f"{at}: text in the colour of its background: {e}")
        size = browser.evaluate(BOARD_WIDTH)
        if size["board"] < size["page"] / 2:
            failures.append(f"{at}: the board is {size['board']:.0f} px wide, under half the page ({size['page']})")
        browser.key("Home", 36)
        before = browser.evaluate("location.hash")
        browser.key("ArrowRight", 39)
        after = browser.evaluate("location.hash")
        if before != "#frame=0" or after != "#frame=1":
            failures.append(f"{at}: the address reads '{before}' at the first step and '{after}' after right arrow")
        items = browser.evaluate("document.querySelectorAll('#legend .legend-item').length")
        legend = browser.evaluate("(document.getElementById('legend') || {}).textContent || ''")
        if items < 3 or not legend.strip():
            failures.append(f"{at}: the legend has {items} items: '{legend}'")
        worst = browser.evaluate(TERRAIN_DISTANCE)
        if worst is not None and worst[0] < 80:
            failures.append(f"{at}: a seat colour is {worst[0]:.0f} (RGB distance) from the terrain: {worst[1]}")
        if shots and (every_size or (width, height) == SIZES[0]):
            browser.evaluate("(function(){var s=document.getElementById('scrub');s.value=String(Math.floor(s.max*0.6));"
                             "s.dispatchEvent(new Event('input'));})()")
            suffix = "" if (width, height) == SIZES[0] else f"-{width}x{height}"
            browser.screenshot(os.path.join(shots, f"viewer-{case[1]}{suffix}.png"))
    browser.send("Emulation.clearDeviceMetricsOverride")


def check_bot_io(browser, arbiter, case, page, failures):
    """The panel beside the board shows what a bot replied at a step, as `arbiter show` reads it."""
    name, record = case[0], case[2]
    browser.navigate("file://" + os.path.abspath(page))
    steps = browser.evaluate("Object.keys((JSON.parse(document.getElementById('match-data').textContent).io"
                             " || {}).steps || {}).map(Number)")
    if not steps:
        failures.append(f"{name}: the page carries no bot exchanges (data.io.steps)")
        return
    step = sorted(steps)[len(steps) // 2]
    shown = json.loads(run([arbiter, "show", record, "--seat", "0", "--step", str(step), "--json"]))[0]
    browser.evaluate(f"location.hash = '#frame={step}'")
    browser.wait_for(f"document.getElementById('frame-number').textContent === '{step}'", timeout=5)
    text = browser.evaluate("document.getElementById('io').innerText")
    missing = [line for line in shown["reply"] if line not in text.split("\n")]
    if not shown["reply"] or missing or "its reply" not in text:
        failures.append(f"{name}: at step {step} the I/O panel lacks the reply lines {missing or shown['reply']}:\n{text}")


def tournament_report(arbiter, bots, source, work):
    """The demo tournament, its report with --viewers; returns the report page and the records."""
    db, files, report = (os.path.join(work, n) for n in ("demo.sqlite", "files", "report"))
    env = dict(os.environ, ARBITER_BOTS=os.path.abspath(bots))
    run([arbiter, "tournament", "--config", f"{source}/configs/demo.json", "--db", db, "--out", files, "-q"],
        env=env)
    printed = run([arbiter, "report", "--db", db, "--out", report, "--viewers"])
    if "viewers: 32 match pages written" not in printed:
        raise SystemExit(f"FAIL: arbiter report --viewers printed: {printed}")
    records = []
    for folder, _, names in os.walk(files):
        if "record.json" in names:
            with open(os.path.join(folder, "record.json")) as f:
                records.append(json.load(f))
    return os.path.join(report, "index.html"), records


CRASHING_BOT = """import sys
turn = 0
for line in sys.stdin:
    line = line.strip()
    if line.startswith("turn "):
        turn = int(line.split()[1])
    if line in ("go", "ready"):
        if turn >= 4:
            print("thinking about turn", turn, file=sys.stderr)
            print("ValueError: <b id=injected>bold</b>", file=sys.stderr)
            sys.exit(3)
        print("go", flush=True)
"""

FAULTS_SHOWN = """(() => {
  const rows = [...document.querySelectorAll('.seat')].map(r => ({ status: r.querySelector('.seat-status').textContent,
      colour: getComputedStyle(r.querySelector('.seat-status')).color }));
  return { faults: document.getElementById('faults').innerText, injected: !!document.getElementById('injected'), rows };
})()"""


def check_faults(browser, arbiter, bots, shared, work, failures):
    """A bot that exits 3 after printing to stderr: its fault reads 'crashed, exit code 3' with the
    last lines of its stderr (as text), and the survivor's status is not in the crashed one's colour."""
    bot = os.path.join(work, "crashing_bot.py")
    with open(bot, "w") as f:
        f.write(CRASHING_BOT)
    out = os.path.join(work, "ants-crash")
    run([arbiter, "play", "ants", "--seed", "5", "--out", out, "--map", f"{shared}/data/ants/maps/maze_02p_02.map",
         "--turns", "20", "--bot", f"name=hunter cmd={bots}/ants/hunter_bot", "--bot", f"name=crashy cmd=\"python3 {bot}\""])
    page = os.path.join(work, "ants-crash.html")
    run([arbiter, "view", out, "--out", page])
    browser.navigate("file://" + page)
    browser.key("End", 35)
    shown = browser.evaluate(FAULTS_SHOWN)
    wanted = ["crashy crashed", "exit code 3", "thinking about turn 4", "ValueError: <b id=injected>bold</b>"]
    missing = [w for w in wanted if w not in shown["faults"]]
    if missing or shown["injected"]:
        failures.append(f"faults: {missing} not shown (or the bot's stderr became markup): {shown['faults']!r}")
    statuses = {r["status"]: r["colour"] for r in shown["rows"]}
    if statuses.get("survived") is None or statuses.get("survived") == statuses.get("crashed"):
        failures.append(f"faults: the seats' statuses and colours at the end: {shown['rows']}")


SHOWN_ROWS = """[...document.querySelectorAll('.matchlist tr[data-seats]')].filter(r => r.offsetParent !== null)
    .map(r => r.id)"""


def back_to_report(browser):
    """history.back() to the report, loaded again or from the page cache (no load event then)."""
    try:
        browser.evaluate("history.back()")
    except RuntimeError:
        pass  # the page went before the answer came ("Inspected target navigated")
    deadline = time.monotonic() + 30
    while True:
        try:
            if browser.evaluate("document.readyState === 'complete' && !!document.querySelector('form.filter')"):
                break
        except RuntimeError:
            pass  # the page is changing under the question
        if time.monotonic() > deadline:
            raise TimeoutError("Back did not return to the report")
        time.sleep(0.05)
    time.sleep(0.3)  # pageshow follows load
    browser.events = []


def check_back_from_viewer(browser, failures):
    """Back from a viewer: the report's filter controls and the list shown agree. The user widened the
    filter from 'lost' to 'played' by hand before watching."""
    back_to_report(browser)
    browser.evaluate("""(() => { const f = document.querySelector('form.filter'); f.elements.result.value = '';
        f.dispatchEvent(new Event('change')); })()""")
    wanted = browser.evaluate(SHOWN_ROWS)
    browser.click(f"document.getElementById('{wanted[0]}').querySelector('a.watch')" if wanted else "null")
    browser.wait_event("Page.loadEventFired")
    back_to_report(browser)
    result = browser.evaluate("document.querySelector('form.filter').elements.result.value")
    shown = browser.evaluate(SHOWN_ROWS)
    address = browser.evaluate("location.hash")
    if "result=" in address:  # a reload or a shared link must show the same list
        failures.append(f"report after Back from a viewer: the address still says {address}, the filter 'played'")
    if result != "" or not wanted or shown != wanted:
        failures.append(f"report after Back from a viewer: the filter says '{result}' and {len(shown)} matches are "
                        f"shown; before watching it said 'played' with {len(wanted)}")


def check_report(browser, page, records, failures, screenshots):
    """From the bot ranked third, its lost matches in one click, one of them watched in a second."""
    browser.navigate("file://" + os.path.abspath(page))
    third = browser.evaluate("document.querySelectorAll('table')[0].rows[3].cells[1].querySelector('a').textContent")
    browser.click("document.querySelectorAll('table')[0].rows[3].cells[1].querySelectorAll('small a')[1]")
    # The filter follows the link's hash on hashchange, which the page handles after the click.
    browser.wait_for("document.querySelector('form.filter').elements.result.value === 'lost'")
    shown = browser.evaluate("""[...document.querySelectorAll('.matchlist tr[data-seats]')]
        .filter(r => r.offsetParent !== null).map(r => r.id)""")
    lost = set()
    for r in records:
        seats = r["participants"]
        me = [p for p in seats if p["bot"] == third]
        if me and me[0]["rank"] > min(p["rank"] for p in seats if p is not me[0]):
            lost.add(r["seed"])
    if not shown or len(shown) != len(lost):
        failures.append(f"report: {third}'s 'lost' link shows {len(shown)} matches, the records have {len(lost)} lost")
        return
    if screenshots:
        browser.screenshot(os.path.join(screenshots, "report.png"))
    browser.click(f"document.getElementById('{shown[0]}').querySelector('a.watch')")
    browser.wait_event("Page.loadEventFired")
    names = browser.evaluate("[...document.querySelectorAll('.seat-name')].map(e => e.textContent)")
    if third not in (names or []):
        failures.append(f"report: the watched match shows seats {names}, not {third}'s")
    check_back_from_viewer(browser, failures)
    for error in browser.errors():
        failures.append(f"report: console error: {error}")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--arbiter", required=True)
    ap.add_argument("--bots", required=True)
    ap.add_argument("--shared", required=True)
    ap.add_argument("--source", default=os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
    ap.add_argument("--screenshots", help="also save one screenshot per game here (docs/viewer/)")
    ap.add_argument("--every-size", action="store_true",
                    help="with --screenshots, also save the smaller size's (viewer-GAME-1024x768.png)")
    ap.add_argument("--only", help="comma-separated games")
    args = ap.parse_args()

    chromium = os.environ.get("ARBITER_CHROMIUM") or shutil.which("chromium") or shutil.which("chromium-browser")
    if not chromium:
        print("SKIP: no chromium on PATH (tools/setup installs Debian's chromium)")
        return SKIP
    work = tempfile.mkdtemp(prefix="arbiter-view-test-")
    try:
        cases = played_matches(args.arbiter, args.bots, args.shared, args.source, work)
        if args.only:
            cases = [c for c in cases if c[1] in args.only.split(",")]
        pages = []
        for case in cases:
            page = os.path.join(work, case[0] + ".html")
            out = run([args.arbiter, "view", case[2], "--out", page]).strip()
            if out != page:
                raise SystemExit(f"FAIL: arbiter view printed '{out}', not the page it wrote ({page})")
            pages.append(page)
        browser = Browser(chromium, os.path.join(work, "profile"))
        try:
            browser.send("Browser.getVersion", session=False, timeout=60)
        except (EOFError, TimeoutError, OSError) as e:
            err = browser.proc.stderr.read().decode(errors="replace")[-400:] if browser.proc.poll() is not None else ""
            browser.close()
            print(f"SKIP: Chromium ({chromium}) did not start: {e} {err}")
            return SKIP
        failures = []
        try:
            browser.open_page()
            check_faults(browser, args.arbiter, args.bots, args.shared, work, failures)
            report, records = tournament_report(args.arbiter, args.bots, args.source, work)
            check_report(browser, report, records, failures, args.screenshots)
            shot = set()
            for case, page in zip(cases, pages):
                check_page(browser, case, page, failures)
                # Screenshots of the played match of each game (it has the record and the bots' exchanges).
                first = args.screenshots and case[1] not in shot
                shot.add(case[1])
                check_legibility(browser, case, page, failures, args.screenshots if first else None, args.every_size)
                if case[0] == "ants-played":
                    check_bot_io(browser, args.arbiter, case, page, failures)
        finally:
            browser.close()
        for f in failures:
            print("FAIL:", f)
        print(f"{len(cases)} match pages and the report checked in one browser, {len(failures)} failures")
        return 1 if failures else 0
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
