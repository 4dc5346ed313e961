"""What the serve tests share: running the binary, a tournament, the server, and plain HTTP."""
import atexit
import json
import os
import re
import resource
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time

SKIP = 77


def fail(message):
    print("FAIL: " + message, flush=True)
    sys.exit(1)


def raise_fd_limit():
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    return hard


def tournament_cmd(arbiter, db, config, jobs=2, extra=()):
    return [arbiter, "tournament", "-q", "--config", config, "--db", db, "-j", str(jobs), *extra]


def run_tournament(arbiter, db, config, bots, jobs=2, extra=()):
    env = dict(os.environ, ARBITER_BOTS=os.path.abspath(bots))
    started = time.monotonic()
    r = subprocess.run(tournament_cmd(arbiter, db, config, jobs, extra), env=env, capture_output=True, text=True)
    if r.returncode != 0:
        fail(f"tournament exited {r.returncode}: {r.stderr[-2000:]}")
    return time.monotonic() - started


class Server:
    """`arbiter serve` on a free port of 127.0.0.1, stopped by SIGTERM."""

    def __init__(self, arbiter, dbs, extra=()):
        args = [arbiter, "serve", "--port", "0", *extra]
        for db in dbs:
            args += ["--db", db]
        self.proc = subprocess.Popen(args, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        atexit.register(self.proc.kill)  # a failed check exits at once: no server is left behind
        line = self.proc.stdout.readline()
        m = re.search(r"http://([0-9.]+):([0-9]+)/", line)
        if not m:
            self.proc.kill()
            fail(f"serve printed no address: {line!r} {self.proc.stderr.read()[-2000:]}")
        self.host, self.port = m.group(1), int(m.group(2))

    def stop(self, sig=signal.SIGTERM, timeout=10):
        self.proc.send_signal(sig)
        try:
            return self.proc.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
            fail(f"serve did not stop within {timeout} s of signal {sig}")


def raw_request(host, port, data, timeout=10):
    """Sends bytes as they are and returns the whole reply (the server closes or answers once)."""
    with socket.create_connection((host, port), timeout=timeout) as s:
        s.sendall(data)
        out = b""
        while True:
            try:
                chunk = s.recv(65536)
            except socket.timeout:
                break
            if not chunk:
                break
            out += chunk
            if b"\r\n\r\n" in out:
                head, _, body = out.partition(b"\r\n\r\n")
                m = re.search(rb"content-length: *([0-9]+)", head, re.I)
                if m and len(body) >= int(m.group(1)):
                    break
        return out


def get(host, port, path):
    """(status, body) of a GET sent with the path exactly as given (nothing normalised)."""
    reply = raw_request(host, port, f"GET {path} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n".encode())
    head, _, body = reply.partition(b"\r\n\r\n")
    m = re.match(rb"HTTP/1\.1 ([0-9]{3})", head)
    return (int(m.group(1)) if m else 0), body


def state(server):
    status, body = get(server.host, server.port, "/api/state")
    if status != 200:
        fail(f"/api/state answered {status}")
    return json.loads(body)


class EventStream:
    """One client following /events (or a match's events) over a raw socket."""

    def __init__(self, host, port, path="/events"):
        self.sock = socket.create_connection((host, port), timeout=10)
        self.sock.sendall(f"GET {path} HTTP/1.1\r\nHost: x\r\n\r\n".encode())
        self.buffer = b""
        self.head = None

    def next_event(self, timeout=10):
        self.sock.settimeout(timeout)
        while True:
            if self.head is None and b"\r\n\r\n" in self.buffer:
                self.head, _, self.buffer = self.buffer.partition(b"\r\n\r\n")
                if not self.head.startswith(b"HTTP/1.1 200"):
                    raise RuntimeError(f"stream refused: {self.head[:80]!r}")
            if self.head is not None:
                while b"\n\n" in self.buffer:
                    block, _, self.buffer = self.buffer.partition(b"\n\n")
                    if block.startswith(b"data: "):
                        return json.loads(block[6:])
            chunk = self.sock.recv(1 << 20)
            if not chunk:
                raise EOFError("stream closed")
            self.buffer += chunk

    def close(self):
        self.sock.close()


def browser_setup(args):
    """For a browser test: Chromium's path (exit 77 without one), a fresh scratch folder and the
    screenshots' folder (--screenshots, else one in the scratch)."""
    chromium = os.environ.get("ARBITER_CHROMIUM") or shutil.which("chromium") or shutil.which("chromium-browser")
    if not chromium:
        print("SKIP: no chromium")
        sys.exit(SKIP)
    shutil.rmtree(args.scratch, ignore_errors=True)
    os.makedirs(args.scratch)
    shots = args.screenshots or os.path.join(args.scratch, "shots")
    os.makedirs(shots, exist_ok=True)
    return chromium, shots


def start_browser(chromium, server):
    """(browser, profile folder), headless Chromium with a page open; exit 77 (the server stopped)
    where it does not start."""
    sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "view"))
    from browser_test import Browser  # noqa: E402
    profile = tempfile.mkdtemp(prefix="serve-chromium-")
    try:
        browser = Browser(chromium, profile)
        browser.open_page()
    except Exception as e:  # noqa: BLE001
        server.stop()
        shutil.rmtree(profile, ignore_errors=True)
        print(f"SKIP: Chromium did not start: {e}")
        sys.exit(SKIP)
    return browser, profile
