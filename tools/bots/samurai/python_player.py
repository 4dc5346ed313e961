#!/usr/bin/env python3
"""SamurAI Dig Here sample player in Python (standard library only).

Samurai: steps toward the nearest known gold (Manhattan distance, trying the axis with the
larger gap first) and digs it when next to it. Dog: steps onto sensed hidden gold so that it
barks, otherwise walks the field in a fixed clockwise pattern. Deterministic.
Protocol: rules.html "Game State Information" (13 lines in), one plan per line out.
"""
import sys

OFFSETS = [(0, 1), (-1, 1), (-1, 0), (-1, -1), (0, -1), (1, -1), (1, 0), (1, 1)]
STAY, DIG = -1, 8


def read_state(tokens):
    """Parses one state from an iterator of integers; None at end of input."""
    try:
        s = {"id": next(tokens), "size": next(tokens), "step": next(tokens), "max_steps": next(tokens)}
    except StopIteration:
        return None
    n = next(tokens)
    s["holes"] = {(next(tokens), next(tokens)) for _ in range(n)}
    n = next(tokens)
    s["known"] = [((next(tokens), next(tokens)), next(tokens)) for _ in range(n)]
    n = next(tokens)
    s["sensed"] = [((next(tokens), next(tokens)), next(tokens)) for _ in range(n)]
    s["agents"] = [(next(tokens), next(tokens)) for _ in range(4)]
    for _ in range(8 + 2 + 1 + 1):  # plans, actions, scores, remaining gold, think time
        next(tokens)
    return s


def is_open(s, cell):
    x, y = cell
    size = s["size"]
    return 0 <= x < size and 0 <= y < size and cell not in s["holes"] and cell not in s["agents"]


def samurai_plan(s):
    me = s["agents"][s["id"]]
    golds = [c for c, _ in s["known"] if c not in s["agents"]]
    if not golds:
        return STAY
    gx, gy = min(golds, key=lambda c: (abs(c[0] - me[0]) + abs(c[1] - me[1]), c))
    dx, dy = gx - me[0], gy - me[1]
    if abs(dx) + abs(dy) == 1:
        return DIG + OFFSETS.index((dx, dy))
    options = []
    if dx:
        options.append(6 if dx > 0 else 2)
    if dy:
        options.append(0 if dy > 0 else 4)
    if abs(dy) > abs(dx):
        options.reverse()
    for d in options + [0, 2, 4, 6]:
        if is_open(s, (me[0] + OFFSETS[d][0], me[1] + OFFSETS[d][1])):
            return d
    return STAY


def dog_plan(s):
    me = s["agents"][s["id"]]
    for d, (ox, oy) in enumerate(OFFSETS):
        cell = (me[0] + ox, me[1] + oy)
        if any(c == cell for c, _ in s["sensed"]) and is_open(s, cell):
            return d
    for i in range(8):
        d = (s["step"] // 5 + i) % 8
        if is_open(s, (me[0] + OFFSETS[d][0], me[1] + OFFSETS[d][1])):
            return d
    return STAY


def integers(stream):
    for line in stream:
        for word in line.split():
            yield int(word)


def main():
    tokens = integers(sys.stdin)
    while True:
        s = read_state(tokens)
        if s is None:
            return
        plan = samurai_plan(s) if s["id"] < 2 else dog_plan(s)
        sys.stdout.write(f"{plan}\n")
        sys.stdout.flush()


if __name__ == "__main__":
    main()
