#!/usr/bin/env python3
"""Many clients following a live page do not slow a tournament much: the same tournament played
alone, then with `arbiter serve` on its file and N clients (default 1000) following /events the
whole time, each reading every update. Prints both times, the slowdown, the events each client got
and the server's memory with all clients on; fails when the tournament took over twice as long
(the figure a quiet machine gives is in docs/benchmarks.md) or a client was dropped.

--pairs K plays K pairs, alternating which of the two goes first, and prints the medians.

Usage: serve_load.py --arbiter BIN --bots DIR --config CONFIG --scratch DIR [--clients N] [--pairs K]
"""
import argparse
import os
import selectors
import shutil
import statistics
import subprocess
import sys
import threading
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from serve_common import EventStream, Server, fail, raise_fd_limit, run_tournament, tournament_cmd  # noqa: E402


def rss_kib(pid):
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    return 0


def cpu_seconds(pid):
    """User and system time of a process so far."""
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def follow(streams, stop, counts):
    sel = selectors.DefaultSelector()
    for i, s in enumerate(streams):
        s.sock.setblocking(False)
        sel.register(s.sock, selectors.EVENT_READ, i)
    while not stop.is_set():
        for key, _ in sel.select(timeout=0.2):
            try:
                chunk = key.fileobj.recv(1 << 20)
            except BlockingIOError:
                continue
            if not chunk:
                sel.unregister(key.fileobj)
                counts[key.data] = -1  # dropped
                continue
            counts[key.data] += chunk.count(b"\n\ndata: ") + chunk.startswith(b"data: ")


def watched_run(args, db, clients, rounds):
    """The tournament with `arbiter serve` on its file and `clients` following /events throughout:
    (seconds, events per client, server RSS idle and loaded, server CPU, clients' CPU)."""
    server = Server(args.arbiter, [db])  # the default tick, as a page shown to many would run
    idle_rss = rss_kib(server.proc.pid)
    streams = [EventStream(server.host, server.port) for _ in range(clients)]
    for s in streams:
        s.next_event()
    counts = [0] * clients
    stop = threading.Event()
    reader = threading.Thread(target=follow, args=(streams, stop, counts))
    reader.start()
    loaded_rss = rss_kib(server.proc.pid)
    server_cpu, client_cpu = cpu_seconds(server.proc.pid), time.process_time()
    seconds = run_tournament(args.arbiter, db, args.config, args.bots, extra=rounds)
    server_cpu, client_cpu = cpu_seconds(server.proc.pid) - server_cpu, time.process_time() - client_cpu
    time.sleep(2)
    stop.set()
    reader.join()
    for s in streams:
        s.close()
    server.stop()
    return seconds, counts, idle_rss, loaded_rss, server_cpu, client_cpu


def main():
    ap = argparse.ArgumentParser()
    for a in ("--arbiter", "--bots", "--config", "--scratch"):
        ap.add_argument(a, required=True)
    ap.add_argument("--clients", type=int, default=1000)
    ap.add_argument("--rounds", type=int, default=16)  # 128 matches: long enough for several updates
    ap.add_argument("--pairs", type=int, default=1, help="alone/watched pairs, alternating which goes first")
    args = ap.parse_args()
    limit = raise_fd_limit()
    clients = min(args.clients, limit - 100)
    shutil.rmtree(args.scratch, ignore_errors=True)
    os.makedirs(args.scratch)
    rounds = ["--rounds", str(args.rounds)]
    alone_times, watched_times, ratios = [], [], []
    for pair in range(args.pairs):
        def alone():
            return run_tournament(args.arbiter, os.path.join(args.scratch, f"alone-{pair}.sqlite"), args.config,
                                  args.bots, extra=rounds)

        def watched():
            return watched_run(args, os.path.join(args.scratch, f"watched-{pair}.sqlite"), clients, rounds)
        if pair % 2 == 0:
            a = alone()
            w = watched()
        else:
            w = watched()
            a = alone()
        seconds, counts, idle_rss, loaded_rss, server_cpu, client_cpu = w
        dropped = sum(1 for c in counts if c < 0)
        print(f"pair {pair + 1}: tournament alone {a:.2f} s, with serve and {clients} clients following "
              f"{seconds:.2f} s: {(seconds / a - 1) * 100:+.1f} %; events per client min {min(counts)} max "
              f"{max(counts)}; server memory {idle_rss} KiB idle, {loaded_rss} KiB with {clients} clients "
              f"({(loaded_rss - idle_rss) / max(1, clients):.1f} KiB each); CPU while it played: server "
              f"{server_cpu:.2f} s, the {clients} clients (this script) {client_cpu:.2f} s "
              f"(load {os.getloadavg()[0]:.1f})", flush=True)
        if dropped:
            fail(f"{dropped} clients were dropped")
        if min(counts) < 3:
            fail("a client did not get the updates")
        if seconds > 2 * a:
            fail("the tournament took over twice as long with the clients")
        alone_times.append(a)
        watched_times.append(seconds)
        ratios.append(seconds / a)
    if args.pairs > 1:
        print(f"medians of {args.pairs} pairs: alone {statistics.median(alone_times):.2f} s, watched "
              f"{statistics.median(watched_times):.2f} s: "
              f"{(statistics.median(watched_times) / statistics.median(alone_times) - 1) * 100:+.1f} %; "
              f"median of the pairs' ratios {(statistics.median(ratios) - 1) * 100:+.1f} %")
    print("PASS")


if __name__ == "__main__":
    main()
