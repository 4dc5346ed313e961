#!/usr/bin/env python3
"""Size and time of `arbiter report` for a large tournament whose matches all left their files.

  tools/bench/report/large_report.py BUILD_DIR [WORK_DIR] [MATCHES] [REPEATS]

Writes MATCHES (10000) match folders in the per-match layout (record.json, transcript.txt, a
replay, logs/ with one stderr log per seat, 4 seats), imports their records under one tournament
with `arbiter import`, then runs `arbiter report --tournament` REPEATS (5) times and prints the
page's size, bytes per match, the median wall time and the machine's load. The matches carry no
schedule key (import stores none), so the list folds them in parts of 500 under one heading;
a tournament's keys add about 20 bytes a match.
"""
import json
import os
import shutil
import statistics
import subprocess
import sys
import time


def write(path, text):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w") as f:
        f.write(text)


def main():
    build = sys.argv[1]
    work = sys.argv[2] if len(sys.argv) > 2 else "/tmp/report-bench"
    matches = int(sys.argv[3]) if len(sys.argv) > 3 else 10000
    repeats = int(sys.argv[4]) if len(sys.argv) > 4 else 5
    arbiter = os.path.join(build, "bin", "arbiter")
    shutil.rmtree(work, ignore_errors=True)
    files = os.path.join(work, "t-files", "big")
    records = []
    bots = [f"bot-{i}" for i in range(8)]
    for m in range(matches):
        folder = os.path.join(files, f"r{m // 400}-g{m % 400 // 4}-s{m % 4}")
        seats = [bots[(m + k * 3) % 8] for k in range(4)]
        scores = [(m * 7 + k * 13) % 50 for k in range(4)]
        participants = []
        for k, bot in enumerate(seats):
            rank = 1 + sum(1 for s in scores if s > scores[k])
            participants.append({"bot": bot, "command": f"./{bot}", "seat": k, "score": scores[k], "rank": rank,
                                 "status": "ok" if (m + k) % 97 else "timeout", "detail": "",
                                 "usage": {"wall_used_s": 1.5, "cpu_used_s": 1.2, "longest_reply_s": 0.2,
                                           "requests": 100, "peak_memory_kib": 20480}})
            write(os.path.join(folder, "logs", f"p{k}.stderr.log"), "")
        pairs = [{"a": a, "b": b, "score_a": 1.0 if scores[a] > scores[b] else 0.0 if scores[a] < scores[b] else 0.5}
                 for a in range(4) for b in range(a + 1, 4)]
        record = {"game": "planowanie", "config": {}, "seed": m, "rotation": m % 4, "participants": participants,
                  "pairs": pairs, "end_reason": "completed", "turns": 13,
                  "transcript_path": os.path.join(folder, "transcript.txt"),
                  "replay_path": os.path.join(folder, "replay.txt"), "started_at": "2026-11-25T10:00:00Z",
                  "wall_s": 2.0, "machine_load": 0.5}
        for name in ("transcript.txt", "replay.txt"):
            write(os.path.join(folder, name), "")
        write(os.path.join(folder, "record.json"), json.dumps(record))
        records.append(os.path.join(folder, "record.json"))
    db = os.path.join(work, "t.sqlite")
    for i in range(0, len(records), 1000):
        subprocess.run([arbiter, "import", "--db", db, "--tournament", "big"] + records[i:i + 1000], check=True,
                       stdout=subprocess.DEVNULL)
    times = []
    for _ in range(repeats):
        start = time.monotonic()
        subprocess.run([arbiter, "report", "--db", db, "--out", os.path.join(work, "report"), "--tournament", "big",
                        "--chartjs", "/nonexistent"], check=True, stdout=subprocess.DEVNULL)
        times.append(time.monotonic() - start)
    size = os.path.getsize(os.path.join(work, "report", "index.html"))
    with open("/proc/loadavg") as f:
        load = f.read().split()[:3]
    print(f"{matches} matches of 4 seats with files: report {size} bytes ({size / matches:.0f} bytes a match), "
          f"median {statistics.median(times):.2f} s over {repeats} runs (load {' '.join(load)})")


if __name__ == "__main__":
    main()
