#!/usr/bin/env python3
"""`arbiter report` after a real tournament, through the built binary.

  report_e2e.py ARBITER BOTS_DIR

Plays a small Planowanie tournament (4 bots, one group, its 4 rotations) with --out, writes the
report, and checks the page: the heading names what it covers, the sections with data are there,
every match is listed by its schedule key, and every link is relative and names a file that
exists, with at least a transcript and a stderr log for each match. Exits 1 on a failed check.
"""
import html.parser
import os
import subprocess
import sys
import tempfile


class Page(html.parser.HTMLParser):
    def __init__(self):
        super().__init__()
        self.links, self.rows, self.row, self.cell, self.text = [], {}, None, 0, ""

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if tag == "tr" and (attrs.get("id") or "").startswith("m"):
            self.row, self.cell = [], 0
        if tag == "td" and self.row is not None:
            self.cell += 1
        if tag == "a" and "href" in attrs and not attrs["href"].startswith("#"):
            self.links.append(attrs["href"])
            if self.row is not None:
                self.row.append(attrs["href"])

    def handle_endtag(self, tag):
        if tag == "tr" and self.row is not None:
            self.rows[self.key] = self.row
            self.row = None

    def handle_data(self, data):
        self.text += data
        if self.row is not None and self.cell == 1:
            self.key = data


def main():
    arbiter, bots = sys.argv[1], sys.argv[2]
    failures = []

    def check(ok, what):
        if not ok:
            failures.append(what)

    with tempfile.TemporaryDirectory() as tmp:
        db, out, report = (os.path.join(tmp, n) for n in ("t.sqlite", "out", "report"))
        specs = [f'name=r{i} cmd="{bots}/planowanie/random_bot {i}"' for i in (1, 2, 3)]
        specs.append(f"name=heur cmd={bots}/planowanie/heuristic_bot")
        cmd = [arbiter, "tournament", "--game", "planowanie", "--db", db, "--out", out, "--players", "4",
               "--rounds", "1", "--seed", "5", "-j", "2", "--no-progress"]
        for s in specs:
            cmd += ["--bot", s]
        subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        printed = subprocess.run([arbiter, "report", "--db", db, "--out", report, "--tournament", "planowanie"],
                                 check=True, capture_output=True, text=True).stdout
        check("1 game(s), 4 matches" in printed, f"summary line: {printed!r}")
        with open(os.path.join(report, "index.html"), encoding="utf-8") as f:
            text = f.read()
        page = Page()
        page.feed(text)
        check("arbiter report: tournament planowanie" in text, "heading names the tournament")
        for section in ("Settings", "Ratings", "Head to head", "Time and memory", "Matches"):
            check(f"<h3>{section}" in text, f"section {section}")
        for absent in ("<h3>Failures", "<h3>Rating history"):
            check(absent not in text, f"no data, no section: {absent}")
        check("name=heur cmd=" in page.text, "settings list the bots' commands")
        keys = [f"planowanie/r0/g0/s{s}" for s in range(4)]
        check(sorted(page.rows) == keys, f"matches by schedule key: {sorted(page.rows)}")
        for key, links in page.rows.items():
            check(any("transcript" in l for l in links), f"{key}: a transcript link")
            check(any("stderr" in l for l in links), f"{key}: a stderr log link")
        check(len(page.links) >= 8, f"links: {len(page.links)}")
        for link in page.links:
            check(not link.startswith(("/", "file:")), f"relative link: {link}")
            check(os.path.exists(os.path.join(report, link)), f"link to an existing file: {link}")
    for f in failures:
        print("FAILED:", f)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
