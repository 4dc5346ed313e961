#!/usr/bin/env python3
"""Koehandel sample bot on the standard library's http.server: serves GET on
127.0.0.1:$ARBITER_PORT (or the port given as argument) and answers in query form.

It keeps track of the animals everyone holds (from receive, collect and information), bids up
to a share of an animal's value that grows with the cards it already holds, never bids more
than it owns, pays auctions with the fewest cards that cover the amount, starts a cow trade when
it can complete a set (and always once the deck is empty), and counters trades for kinds it
collects. With --random it plays at random instead (the baseline the tests compare with)."""
import os
import random
import sys
from http.server import BaseHTTPRequestHandler, HTTPServer
from urllib.parse import parse_qsl

VALUES = dict(zip("ABCDEFGHIJ", (10, 40, 90, 160, 250, 350, 500, 650, 800, 1000)))
MONEY = dict(zip("ntfhTF", (0, 10, 50, 100, 200, 500)))
RANDOM = "--random" in sys.argv
rng = random.Random(int(os.environ.get("BOT_SEED", "1")))


class State:
    def __init__(self):
        self.animals = {p: dict.fromkeys(VALUES, 0) for p in "SWNE"}
        self.money = list("nnttttf")
        self.auctioned = None  # the card of the auction under way, until we learn its buyer

    def seen(self):
        return sum(sum(a.values()) for a in self.animals.values())

    def worth(self):
        return sum(MONEY[c] for c in self.money)


state = State()


def cards_covering(amount):
    """The fewest of our cards (largest first) whose total covers amount, or None."""
    hand = sorted((c for c in state.money if c != "n"), key=lambda c: -MONEY[c])
    best = None
    for skip in range(len(hand) + 1):  # a few greedy variants are enough for a sample
        picked, total = [], 0
        for c in hand[skip:] + hand[:skip]:
            if total >= amount:
                break
            picked.append(c)
            total += MONEY[c]
        if total >= amount and (best is None or (total, len(picked)) < (sum(MONEY[c] for c in best), len(best))):
            best = picked
    return best


def cards_up_to(target):
    picked, total = [], 0
    for c in sorted(state.money, key=lambda c: -MONEY[c]):
        if c != "n" and total + MONEY[c] <= target:
            picked.append(c)
            total += MONEY[c]
    return picked


def letters_for(value):
    out = ""
    for c in "FThft":
        while value >= MONEY[c]:
            out += c
            value -= MONEY[c]
    return out


def willing(kind):
    mine = state.animals["S"][kind]
    return int(VALUES[kind] * (0.25 + 0.2 * mine))


def start(q):
    mine = state.animals["S"]
    deck_empty = state.seen() >= 40
    options = []
    for kind, n in mine.items():
        if n == 0 or n == 4:
            continue
        for p in "WNE":
            theirs = state.animals[p][kind]
            if theirs and (deck_empty or n + theirs == 4 and n >= 2):
                options.append((VALUES[kind] * (n + 1), kind, p))
    if RANDOM:
        if options and rng.random() < 0.5:
            _, kind, p = rng.choice(options)
            return {"type": "trade", "goods": kind, "opponent": p, "money": "".join(rng.sample(state.money, rng.randint(0, len(state.money))))}
        return {"type": "auction"}
    if not options:
        return {"type": "auction"}
    _, kind, p = max(options)
    return {"type": "trade", "goods": kind, "opponent": p, "money": "".join(cards_up_to(willing(kind)))}


def auction(q):
    kind, bid = q.get("goods", "A"), sum(MONEY.get(c, 0) for c in q.get("money", ""))
    state.auctioned = kind
    if "auctioneer" not in q:  # we are the auctioneer: the right to buy
        if RANDOM:
            return {"money": q.get("money", "")} if rng.random() < 0.3 else {}
        return {"money": q.get("money", "")} if bid <= willing(kind) and bid <= state.worth() else {}
    if RANDOM:
        return {"money": letters_for(bid + 10 * rng.randint(1, 10))} if rng.random() < 0.5 else {}
    if bid + 10 <= min(willing(kind), state.worth()):
        return {"money": letters_for(bid + 10)}
    return {}


def collect(q):
    if "goods" in q:
        state.animals["S"][q["goods"][0]] -= len(q["goods"])
        state.animals[q.get("opponent", "S")][q["goods"][0]] += len(q["goods"])
        return {}
    wanted = q.get("money", "")
    hand = list(state.money)
    if all(hand.count(c) >= wanted.count(c) for c in set(wanted)):
        pay = list(wanted)  # exactly these cards (a trade, or a bid we can pay card for card)
    else:
        pay = cards_covering(sum(MONEY.get(c, 0) for c in wanted)) or []
    for c in pay:
        state.money.remove(c)
    return {"money": "".join(pay)}


def trade(q):
    kind = q.get("goods", "A")[0]
    if RANDOM:
        return {"money": "".join(rng.sample(state.money, rng.randint(0, len(state.money))))} if rng.random() < 0.5 else {}
    counter = cards_up_to(willing(kind) if state.animals["S"][kind] >= 2 else 0)
    return {"money": "".join(counter)} if counter else {}


def note(q):
    kind, who, goods, money = q.get("type"), q.get("opponent", "S"), q.get("goods", ""), q.get("money", "")
    if kind == "receive":
        if goods:
            state.animals["S"][goods[0]] += len(goods)
            if who != "S":
                state.animals[who][goods[0]] -= len(goods)  # a trade: the opponent gave them
        elif state.auctioned and who != "S":
            state.animals[who][state.auctioned] += 1  # the buyer paid us: it got the card
        if goods or who != "S":
            state.auctioned = None
        state.money.extend(c for c in money if c in MONEY)
    elif kind == "information" and goods and q.get("message") is None:
        if goods.startswith("-"):
            state.animals[who][goods[1]] -= len(goods) - 1
        elif who != "S":
            state.animals[who][goods[0]] += len(goods)
    elif kind == "information" and q.get("message") == "begin":
        state.__init__()
    return {}


def forget_auction(handler):
    def wrapped(q):
        state.auctioned = None
        return handler(q)
    return wrapped


HANDLERS = {"start": forget_auction(start), "auction": auction, "collect": collect, "trade": forget_auction(trade)}


class Bot(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def do_GET(self):
        q = dict(parse_qsl(self.path.partition("?")[2]))
        handler = HANDLERS.get(q.get("type"))
        answer = handler(q) if handler else note(q)
        body = ("?" + "&".join("%s=%s" % kv for kv in answer.items()) + "\n").encode()
        self.send_response(200)
        self.send_header("Content-Type", "text/plain")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args):
        pass


if __name__ == "__main__":
    ports = [a for a in sys.argv[1:] if a.isdigit()]
    port = int(ports[0]) if ports else int(os.environ["ARBITER_PORT"])
    HTTPServer(("127.0.0.1", port), Bot).serve_forever()
