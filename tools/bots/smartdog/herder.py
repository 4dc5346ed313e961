#!/usr/bin/env python3
"""A smart-dog sample bot in Python, the same strategy as herder.cpp: each dog takes the nearest
sheep outside our pen, walks to the cell behind it (away from the pen) and barks when the sheep
lies between it and the pen. It connects to ARBITER_HOST:ARBITER_PORT and joins with
ARBITER_TOKEN; messages are `cmd` plus a JSON object without braces (`:` separators)."""
import os
import socket
from collections import deque

STEPS = {"up": (0, -1), "down": (0, 1), "left": (-1, 0), "right": (1, 0)}


def fields(text):
    out = {}
    for part in text.split(","):
        if ":" not in part:
            continue
        key, value = part.split(":", 1)
        out[key.strip('"')] = value.strip('"')
    return out


class Game:
    def __init__(self):
        self.you = self.rows = self.cols = self.bark_r = 0
        self.land = []
        self.objs = []

    def delta(self, a, b, size):
        d = (b - a) % size
        return d - size if d > size // 2 else d

    def dist2(self, ax, ay, bx, by):
        dx, dy = self.delta(ax, bx, self.cols), self.delta(ay, by, self.rows)
        return dx * dx + dy * dy

    def at(self, x, y):
        return self.land[y % self.rows][x % self.cols]

    def walkable(self, x, y):
        return self.at(x, y) not in "#^"

    def own_pen(self, x, y):
        return self.at(x, y) == str(self.you)

    def occupied(self, x, y):
        x, y = x % self.cols, y % self.rows
        return any(o.get("type") and int(o["x"]) == x and int(o["y"]) == y for o in self.objs)

    def direction(self, ax, ay, bx, by):
        dx, dy = self.delta(ax, bx, self.cols), self.delta(ay, by, self.rows)
        if abs(dx) > abs(dy):
            return "right" if dx > 0 else "left"
        return "down" if dy > 0 else "up"

    def nearest_pen(self, x, y):
        seen = {(x, y)}
        queue = deque([(x, y)])
        while queue:
            cx, cy = queue.popleft()
            if self.own_pen(cx, cy):
                return cx, cy
            for dx in (-1, 0, 1):
                for dy in (-1, 0, 1):
                    n = ((cx + dx) % self.cols, (cy + dy) % self.rows)
                    if n not in seen and self.walkable(*n):
                        seen.add(n)
                        queue.append(n)
        return None

    def decide(self):
        out, taken = [], set()
        for dog in [o for o in self.objs if o.get("type") == "Dog" and int(o["owner"]) == self.you]:
            did, dx0, dy0 = dog["id"], int(dog["x"]), int(dog["y"])
            sheep = [(int(o["x"]), int(o["y"])) for o in self.objs if o.get("type") == "Sheep"]
            sheep = [s for s in sheep if not self.own_pen(*s) and s not in taken]
            sheep.sort(key=lambda s: self.dist2(dx0, dy0, s[0], s[1]))
            for sx, sy in sheep:
                pen = self.nearest_pen(sx, sy)
                if pen is None:
                    continue
                push = self.direction(sx, sy, pen[0], pen[1])
                px, py = STEPS[push]
                bx, by = (sx - px) % self.cols, (sy - py) % self.rows
                if not self.walkable(bx, by):
                    continue
                taken.add((sx, sy))
                if self.direction(dx0, dy0, sx, sy) == push and self.dist2(dx0, dy0, sx, sy) <= self.bark_r ** 2:
                    out.append(f"do {did} bark")
                    break
                head = self.direction(dx0, dy0, bx, by)
                sides = ["left", "right"] if head in ("up", "down") else ["up", "down"]
                for name in [head] + sides:
                    mx, my = STEPS[name]
                    if self.walkable(dx0 + mx, dy0 + my) and not self.occupied(dx0 + mx, dy0 + my):
                        out.append(f"do {did} move {name}")
                        break
                else:
                    out.append(f"do {did} bark")
                break
        return out


def main():
    sock = socket.create_connection((os.environ["ARBITER_HOST"], int(os.environ["ARBITER_PORT"])))
    sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
    reader = sock.makefile("r", encoding="utf-8", newline="\n")

    def send(lines):
        sock.sendall("".join(line + "\n" for line in lines).encode())

    send(["join " + os.environ["ARBITER_TOKEN"]])
    game = Game()
    for line in reader:
        line = line.rstrip("\r\n")
        cmd, _, arg = line.partition(" ")
        arg = arg.lstrip(" ")
        if cmd == "start":
            f = fields(arg)
            game.you, game.rows, game.cols = int(f["you"]), int(f["rows"]), int(f["cols"])
            game.bark_r = int(f["dogBarkingR"])
        elif cmd == "landscape":
            game.land = [row.strip('"') for row in arg.split(",")]
        elif cmd == "state":
            game.objs = []
        elif cmd == "obj":
            game.objs.append(fields(arg))
        elif cmd == "turn":
            send(game.decide() + ["end"])
        elif cmd in ("finished", "error"):
            break


if __name__ == "__main__":
    main()
