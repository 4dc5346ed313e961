#!/usr/bin/env python3
"""`arbiter serve` through the binary, over plain HTTP: a tournament and a ladder in one file and
a second file on one page; finished matches link to their viewer; a tournament that runs shows
its running matches with their step, then ends (and --delay holds the steps back); one stopped
by Ctrl-C part way shows as interrupted; unknown paths and every way out of what is served
(.., percent-encoded, doubled slashes) are 404 and show no file; bad requests are answered and
the server stays up; a client leaving mid-stream costs nothing; the databases are never changed;
SIGTERM and SIGINT stop it cleanly with clients connected.

Usage: serve_http.py --arbiter BIN --bots DIR --config CONFIG --ladder-config CONFIG --scratch DIR
"""
import argparse
import glob
import hashlib
import os
import shutil
import signal
import socket
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from serve_common import (EventStream, Server, fail, get, raw_request, run_tournament, state,  # noqa: E402
                          tournament_cmd)


def snapshot_files(folder):
    """The digest of every database file and -wal file (not the -shm: that is SQLite's shared-memory
    index, whose read marks every reader of a WAL file updates by design)."""
    out = {}
    for path in sorted(glob.glob(os.path.join(folder, "*.sqlite*"))):
        if path.endswith("-shm"):
            continue
        with open(path, "rb") as f:
            out[os.path.basename(path)] = hashlib.sha256(f.read()).hexdigest()
    return out


def check_paths(server):
    for path in ["/nope", "/index.htm", "/view", "/view/0", "/view/0/999999", "/view/7/1", "/live/0/5/r0-g0-s0", "/live/0/0/r9-g9-s9", "/live/1/0/r0-g0-s0",
                 "/live/0/0/r0-g0-s0/../../../etc/passwd", "/../../../../etc/passwd", "/%2e%2e/%2e%2e/etc/passwd",
                 "/%2E%2E%2F%2E%2E%2Fetc%2Fpasswd", "/view/0/1/../../../../etc/passwd", "/view/0/..%2f..%2fetc%2fpasswd",
                 "//etc/passwd", "/events/../../etc/passwd", "/api/state/../../../etc/passwd",
                 "/live/0/0/..%2F..%2F..%2Fetc%2Fpasswd", "/view/%30/1", "/view/0/1%00", "/live/0/99999999999/r0-g0-s0"]:
        status, body = get(server.host, server.port, path)
        if status != 404:
            fail(f"{path} answered {status}, not 404")
        if b"root:" in body:
            fail(f"{path} showed /etc/passwd")
    # Not HTTP, a body, an overlong header, a method other than GET: each answered, then closed.
    for data, want in [(b"\x00\x01\x02garbage\r\n\r\n", b"400"),
                       (b"POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\n\r\nhello", b"400"),
                       (b"GET / HTTP/1.1\r\nHost: x\r\nX-Long: " + b"a" * 20000 + b"\r\n\r\n", b"400"),
                       (b"DELETE / HTTP/1.1\r\nHost: x\r\n\r\n", b"405")]:
        reply = raw_request(server.host, server.port, data)
        if want not in reply[:20]:
            fail(f"{data[:30]!r}... answered {reply[:60]!r}, not {want.decode()}")
    if get(server.host, server.port, "/")[0] != 200:
        fail("the server stopped answering after bad requests")


def check_viewer_links(server, st):
    t = st["sources"][0]["tournaments"][0]
    href = t["recent"][0]["href"]
    status, body = get(server.host, server.port, href)
    if status != 200 or b"match-data" not in body:
        fail(f"{href} answered {status} without a viewer page")


def check_disconnects(server):
    # Clients that go away mid-stream, some after reading nothing: the server carries on.
    streams = [EventStream(server.host, server.port) for _ in range(50)]
    for s in streams[:25]:
        s.next_event()
    for s in streams:
        s.sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, b"\x01\x00\x00\x00\x00\x00\x00\x00")
        s.close()  # a reset, not a polite close
    time.sleep(0.3)
    if get(server.host, server.port, "/api/state")[0] != 200:
        fail("the server stopped answering after clients left mid-stream")


def scheduling(pid):
    """(nice value, scheduling policy) of a process: fields 19 and 41 of /proc/PID/stat."""
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return int(fields[16]), int(fields[38])


def check_priority(server, arbiter, db):
    """The server runs below the tournaments it shows (nice 10, SCHED_BATCH = 3); --nice 0 as any program."""
    if scheduling(server.proc.pid) != (10, 3):
        fail(f"serve should run at nice 10 under SCHED_BATCH, it runs at {scheduling(server.proc.pid)}")
    plain = Server(arbiter, [db], ["--nice", "0"])
    seen = scheduling(plain.proc.pid)
    plain.stop()
    if seen != (0, 0):
        fail(f"serve --nice 0 should run as any program (nice 0, SCHED_OTHER), it runs at {seen}")


def main():
    ap = argparse.ArgumentParser()
    for a in ("--arbiter", "--bots", "--config", "--ladder-config", "--scratch"):
        ap.add_argument(a, required=True)
    args = ap.parse_args()
    shutil.rmtree(args.scratch, ignore_errors=True)
    os.makedirs(args.scratch)
    db = os.path.join(args.scratch, "results.sqlite")
    other = os.path.join(args.scratch, "other.sqlite")
    env = dict(os.environ, ARBITER_BOTS=os.path.abspath(args.bots))
    # A tournament and a ladder in one file, another tournament in a second file.
    run_tournament(args.arbiter, db, args.config, args.bots)
    r = subprocess.run([args.arbiter, "ladder", "-q", "--db", db, "--config", args.ladder_config, "--add",
                        f"name=heuristic-2 cmd=\"{args.bots}/planowanie/heuristic_bot\""], env=env,
                       capture_output=True, text=True, cwd=args.scratch)
    if r.returncode not in (0, 3, 4, 5):
        fail(f"ladder exited {r.returncode}: {r.stderr[-2000:]}")
    before = snapshot_files(args.scratch)

    server = Server(args.arbiter, [db, other], ["--tick-ms", "100"])
    st = state(server)
    src, second = st["sources"]
    if src.get("error") or [t["status"] for t in src["tournaments"]] != ["ended"] or not src["ladders"]:
        fail(f"the first file should show an ended tournament and a ladder: {str(src)[:600]}")
    t = src["tournaments"][0]
    if t["stored"] != t["scheduled"] or len(t["standings"]) != 8 or not all("plus" in r for r in t["standings"]):
        fail(f"standings or progress missing: {str(t)[:600]}")
    if not src["ladders"][0]["runs"] or "verdict" not in src["ladders"][0]["runs"][0]:
        fail(f"the ladder's runs are missing: {src['ladders']}")
    if "error" not in second:
        fail("a file that does not exist yet should be shown with its error")
    check_priority(server, args.arbiter, db)
    check_paths(server)
    check_viewer_links(server, st)
    check_disconnects(server)

    # The second file's tournament runs while the page follows: it appears, shows matches playing
    # with their step, and ends.
    follower = EventStream(server.host, server.port)
    follower.next_event()
    # A second server holds the matches back more steps than they have: none may show a step.
    delayed = Server(args.arbiter, [other], ["--tick-ms", "100", "--delay", "100000"])
    delayed_steps = set()
    proc = subprocess.Popen(tournament_cmd(args.arbiter, other, args.config, 2), env=env,
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    seen_running, seen_step, seen_live_page, ended = False, False, False, False
    deadline = time.monotonic() + 240  # a sanitizer build on a loaded machine
    while time.monotonic() < deadline and not ended:
        try:
            ev = follower.next_event(timeout=5)
        except TimeoutError:  # an unchanged state is not sent again: a slow start (a sanitizer build) sends nothing
            ev = {"sources": [{}, {}]}
        s2 = ev["sources"][1]
        for t2 in s2.get("tournaments", []):
            if t2["status"] == "running" and t2["running"]:
                seen_running = True
                m = t2["running"][0]
                seen_step = seen_step or m["step"] >= 1
                if not seen_live_page:
                    status, body = get(server.host, server.port, m["href"])
                    seen_live_page = status == 200 and b"data-events" in body
            # The run clears its runner as it finishes, so "ended" may come while the process is
            # still closing; the state is sent once, so it is taken when it comes.
            ended = ended or t2["status"] == "ended"
        for t3 in state(delayed)["sources"][0].get("tournaments", []):
            delayed_steps.update(m["step"] for m in t3["running"])
    proc.wait()
    delayed.stop()
    if delayed_steps - {0, -1}:
        fail(f"--delay 100000 showed steps {sorted(delayed_steps)}")
    follower.close()
    if not (seen_running and seen_step and seen_live_page and ended):
        fail(f"while a tournament ran: running {seen_running}, a step {seen_step}, its page {seen_live_page}, "
             f"ended {ended}")

    # A run stopped by Ctrl-C part way shows as interrupted, with what it stored.
    cut = os.path.join(args.scratch, "cut.sqlite")
    run = subprocess.Popen(tournament_cmd(args.arbiter, cut, args.config, 1), env=env,
                           stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    time.sleep(1.5)
    run.send_signal(signal.SIGINT)
    run.wait()
    watcher = Server(args.arbiter, [cut])
    cut_state = state(watcher)["sources"][0]
    watcher.stop()
    statuses = [(t["status"], t["stored"], t["scheduled"]) for t in cut_state.get("tournaments", [])]
    if len(statuses) != 1 or statuses[0][0] != "interrupted" or not statuses[0][1] < statuses[0][2]:
        fail(f"a run stopped part way should show as interrupted: {statuses} {cut_state.get('error', '')}")

    # Stopped with clients connected, by SIGTERM and (a second server) by SIGINT.
    clients = [EventStream(server.host, server.port) for _ in range(5)]
    started = time.monotonic()
    if server.stop(signal.SIGTERM) != 0:
        fail("serve did not exit 0 on SIGTERM")
    for c in clients:
        c.close()
    server2 = Server(args.arbiter, [db])
    c = EventStream(server2.host, server2.port)
    c.next_event()
    if server2.stop(signal.SIGINT) != 0:
        fail("serve did not exit 0 on SIGINT")
    c.close()
    # The first file was read all along and never written (the second one was, by its tournament).
    after = snapshot_files(args.scratch)
    changed = [k for k in before if k.startswith("results") and before.get(k) != after.get(k)]
    new = [k for k in after if k.startswith("results") and k not in before]
    if changed or new:
        fail(f"serve changed the database files: changed {changed}, new {new}")
    print(f"PASS: pages, 404s, bad requests, disconnects, a live tournament, stopped in "
          f"{time.monotonic() - started:.2f} s; databases untouched")


if __name__ == "__main__":
    main()
