#!/usr/bin/env python3
"""Ants sample bot in Python (standard library only): each ant steps toward the nearest visible
food by torus Manhattan distance, otherwise in a random direction; it never sends two own ants
to one square. Seeded with player_seed, so its games reproduce."""
import random
import sys

DIRS = {'n': (-1, 0), 'e': (0, 1), 's': (1, 0), 'w': (0, -1)}


def main():
    rows = cols = 0
    water = set()
    ants, food = [], []
    rng = random.Random()
    for raw in sys.stdin:
        parts = raw.split()
        if not parts:
            continue
        key = parts[0]
        if key == 'rows':
            rows = int(parts[1])
        elif key == 'cols':
            cols = int(parts[1])
        elif key == 'player_seed':
            rng.seed(int(parts[1]))
        elif key == 'ready':
            print('go', flush=True)
        elif key == 'turn':
            ants, food = [], []
        elif key == 'end':
            return
        elif key == 'w':
            water.add((int(parts[1]), int(parts[2])))
        elif key == 'f':
            food.append((int(parts[1]), int(parts[2])))
        elif key == 'a' and parts[3] == '0':
            ants.append((int(parts[1]), int(parts[2])))
        elif key == 'go':
            taken = set(ants) | set(food)
            out = []
            for (r, c) in ants:
                def dist(loc):
                    dr, dc = abs(loc[0] - r), abs(loc[1] - c)
                    return min(dr, rows - dr) + min(dc, cols - dc)
                target = min(food, key=dist) if food else None
                options = list(DIRS)
                rng.shuffle(options)
                if target is not None:
                    options.sort(key=lambda d: dist(((target[0] - DIRS[d][0]) % rows, (target[1] - DIRS[d][1]) % cols)))
                for d in options:
                    dest = ((r + DIRS[d][0]) % rows, (c + DIRS[d][1]) % cols)
                    if dest not in water and dest not in taken:
                        taken.discard((r, c))
                        taken.add(dest)
                        out.append('o %d %d %s' % (r, c, d))
                        break
            sys.stdout.write('\n'.join(out + ['go']) + '\n')
            sys.stdout.flush()


if __name__ == '__main__':
    main()
