#!/usr/bin/env python3
"""A sample bot that thinks MS milliseconds before each reply: matches that last long enough to be
watched as they play, for the live page's tests.

Usage: slow.py MS GAME BOT...
  GAME ants, planowanie, samurai: BOT is the bot's command, run as a child; each reply waits MS
       after the request that asked for it (the first line the child prints after a line it read).
  GAME smartdog, koehandel: BOT is the Python sample bot's file, run in this process, each of its
       decisions (smart-dog's turns, Koehandel's requests) MS slower.
Writes no file. Self-contained, as deviate.py is: the sandbox shows a bot only the files its
command names, so the two cannot share a module.
"""
import importlib.util
import os
import subprocess
import sys
import threading
import time

delay, game, bot = int(sys.argv[1]) / 1000.0, sys.argv[2], sys.argv[3:]


def load(path):
    spec = importlib.util.spec_from_file_location("sample_bot", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def relay():
    proc = subprocess.Popen(bot, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1)
    asked = threading.Event()

    def feed():
        for line in sys.stdin:
            asked.set()
            proc.stdin.write(line)
            proc.stdin.flush()
        proc.stdin.close()
    threading.Thread(target=feed, daemon=True).start()
    for line in proc.stdout:
        if asked.is_set():
            asked.clear()
            time.sleep(delay)
        sys.stdout.write(line)
        sys.stdout.flush()


def smartdog():
    module = load(bot[0])
    decide = module.Game.decide

    def slowly(self):
        time.sleep(delay)
        return decide(self)
    module.Game.decide = slowly
    module.main()


def koehandel():
    sys.argv = [bot[0]]
    module = load(bot[0])
    for kind, handler in list(module.HANDLERS.items()):
        def slowly(q, handler=handler):
            time.sleep(delay)
            return handler(q)
        module.HANDLERS[kind] = slowly
    module.HTTPServer(("127.0.0.1", int(os.environ["ARBITER_PORT"])), module.Bot).serve_forever()


{"ants": relay, "planowanie": relay, "samurai": relay, "smartdog": smartdog, "koehandel": koehandel}[game]()
