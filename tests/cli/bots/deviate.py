#!/usr/bin/env python3
"""A sample bot that plays as usual until a point it counts itself, then otherwise: the copy of a
bot that `arbiter diff` must find at a known step, or a bot that faults at a known step for
`arbiter show`. It says on stderr when it gets there ("deviate: ...").

Usage: deviate.py GAME FROM ACTION BOT...
  GAME and where FROM counts (from 0):
    samurai    the step number in the state it is sent (each game counts from 0)
    smartdog   its turns ("turn" commands)
    koehandel  its auction requests
    planowanie its decision requests (gen_declare, gen_move)
    ants       its requests ("ready" is 0, turn n's "go" is n)
  ACTION: change  from there on, replies otherwise (Ants: "go" alone; SamurAI: another plan;
                  smart-dog: no command where it gave some, a bark where it gave none;
                  Koehandel: passes where it bid, bids 10 where it passed; Planowanie:
                  '? changed')
          crash   there, prints a line to stderr and exits with code 3 instead of replying
  BOT: Ants, SamurAI and Planowanie, the bot's command (run as a child); smart-dog and Koehandel, the
       Python sample bot's file (run in this process, its decision wrapped).
Writes no file.
"""
import importlib.util
import os
import subprocess
import sys
import threading

game, start, action, bot = sys.argv[1], int(sys.argv[2]), sys.argv[3], sys.argv[4:]


def arrived(what):
    """Says where it is; exits there when it crashes."""
    sys.stderr.write(f"deviate: {action} at {what}\n")
    sys.stderr.flush()
    if action == "crash":
        os._exit(3)


def load(path):
    spec = importlib.util.spec_from_file_location("sample_bot", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def child():
    proc = subprocess.Popen(bot, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1)

    def feed():
        for line in sys.stdin:
            proc.stdin.write(line)
            proc.stdin.flush()
        proc.stdin.close()
    return proc, feed


def samurai():
    # Lines in: 13 per state, its step the third; one plan per line out.
    proc, _ = child()
    state = []
    for line in sys.stdin:
        state.append(line)
        proc.stdin.write(line)
        proc.stdin.flush()
        if len(state) < 13:
            continue
        step, state = int(state[2]), []
        plan = proc.stdout.readline()
        if step >= start:
            if step == start:
                arrived(f"step {step}")
            plan = "0\n" if plan.strip() == "-1" else "-1\n"
        sys.stdout.write(plan)
        sys.stdout.flush()


def ants():
    proc, feed = child()
    threading.Thread(target=feed, daemon=True).start()
    n, held = 0, []
    for line in proc.stdout:
        if line.strip() != "go":
            held.append(line)
            continue
        if n == start:
            arrived(f"request {n}")
        out = "go\n" if n >= start else "".join(held) + line
        held, n = [], n + 1
        sys.stdout.write(out)
        sys.stdout.flush()


def planowanie():
    proc, feed = child()
    asked = []  # the decision requests, in order, for the replies to come

    def forward():
        decisions = 0
        for line in sys.stdin:
            if line.split()[:1] in (["gen_declare"], ["gen_move"]):
                asked.append(decisions)
                decisions += 1
            else:
                asked.append(None)
            proc.stdin.write(line)
            proc.stdin.flush()
        proc.stdin.close()
    threading.Thread(target=forward, daemon=True).start()
    for line in proc.stdout:
        if line.startswith(("=", "?")):
            n = asked.pop(0) if asked else None
            if n is not None and n >= start:
                if n == start:
                    arrived(f"decision {n}")
                line = "? changed\n"
        sys.stdout.write(line)
        sys.stdout.flush()


def smartdog():
    module = load(bot[0])
    decide = module.Game.decide
    turns = [0]

    def otherwise(self):
        orders = decide(self)
        turn = turns[0]
        turns[0] += 1
        if turn < start:
            return orders
        if turn == start:
            arrived(f"turn {turn}")
        if orders:
            return []
        dogs = [o["id"] for o in self.objs if o.get("type") == "Dog" and int(o["owner"]) == self.you]
        return [f"do {dogs[0]} bark"] if dogs else ["do 0 bark"]
    module.Game.decide = otherwise
    module.main()


def koehandel():
    sys.argv = [bot[0]]
    module = load(bot[0])
    auction = module.HANDLERS["auction"]
    auctions = [0]

    def otherwise(q):
        answer = auction(q)
        n = auctions[0]
        auctions[0] += 1
        if n < start:
            return answer
        if n == start:
            arrived(f"auction {n}")
        return {} if answer else {"money": "t"}
    module.HANDLERS["auction"] = otherwise
    module.HTTPServer(("127.0.0.1", int(os.environ["ARBITER_PORT"])), module.Bot).serve_forever()


{"ants": ants, "samurai": samurai, "planowanie": planowanie, "smartdog": smartdog, "koehandel": koehandel}[game]()
