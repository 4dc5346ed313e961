#!/usr/bin/env python3
"""Writes the generated rating result sets as PGN: games drawn from the BayesElo model itself
(White advantage, draw margin) with a seeded generator of its own (splitmix64), so the same
name always gives the same bytes on every machine and Python version. bayeselo 0057's tables
for these files are checked in beside this script (bayeselo_tables/); the test re-creates the
PGN and compares every cell of `arbiter rate --pgn` with them.

usage: gen_result_sets.py OUT_DIR [SET ...]     (default: every set)"""
import math
import os
import sys

MASK = (1 << 64) - 1


class SplitMix64:
    def __init__(self, seed):
        self.state = seed & MASK

    def next(self):
        self.state = (self.state + 0x9E3779B97F4A7C15) & MASK
        z = self.state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK
        return z ^ (z >> 31)

    def uniform(self):
        """In [0, 1), 53 bits."""
        return (self.next() >> 11) * (1.0 / (1 << 53))

    def below(self, n):
        return self.next() % n

    def normal(self):
        """Box-Muller; u1 kept away from 0."""
        u1 = ((self.next() >> 11) + 1) * (1.0 / ((1 << 53) + 1))
        u2 = self.uniform()
        return math.sqrt(-2.0 * math.log(u1)) * math.cos(2.0 * math.pi * u2)


def outcome(rng, white_elo, black_elo, advantage, drawelo):
    """BayesElo's model: P(White wins) = f(dW - dB + adv - drawelo), P(Black wins) =
    f(dB - dW - adv - drawelo), f(x) = 1 / (1 + 10^(-x/400)); the rest is a draw."""
    delta = white_elo - black_elo + advantage
    p_win = 1.0 / (1.0 + 10.0 ** ((drawelo - delta) / 400.0))
    p_loss = 1.0 / (1.0 + 10.0 ** ((drawelo + delta) / 400.0))
    u = rng.uniform()
    return "1-0" if u < p_win else "0-1" if u < p_win + p_loss else "1/2-1/2"


def write_pgn(path, games):
    with open(path, "w", encoding="utf-8", newline="\n") as f:
        for white, black, result in games:
            f.write(f'[White "{white}"]\n[Black "{black}"]\n[Result "{result}"]\n\n{result}\n\n')


def model_set(seed, players, games, sd, advantage, drawelo, local_share, prefix):
    """Many players, many games: true ratings ~ N(0, sd); a share of the pairings between players
    close in true rating (as a ladder pairs them), the rest uniform; colours at random."""
    rng = SplitMix64(seed)
    elo = [sd * rng.normal() for _ in range(players)]
    names = [f"{prefix}{i:03d}" for i in range(players)]
    by_rating = sorted(range(players), key=lambda i: elo[i])
    rank = {p: r for r, p in enumerate(by_rating)}
    out = []
    for _ in range(games):
        a = rng.below(players)
        if rng.uniform() < local_share:
            r = rank[a] + rng.below(41) - 20
            b = by_rating[min(players - 1, max(0, r))]
        else:
            b = rng.below(players)
        if a == b:
            b = (a + 1 + rng.below(players - 1)) % players
        white, black = (a, b) if rng.below(2) else (b, a)
        out.append((names[white], names[black], outcome(rng, elo[white], elo[black], advantage, drawelo)))
    return out


def awkward_set(seed):
    """Sparse and unusual: a ring where each player meets only its near neighbours a few times,
    one player who wins every game, one who loses every game, one who never draws, one with a
    single game, one who is always White, two with exactly equal ratings, long and short names,
    players first seen in a mixed order."""
    rng = SplitMix64(seed)
    count = 70
    names = [f"R{i}" if i % 7 else f"Ring-Engine-{i:02d}" for i in range(count)]
    elo = [150 * rng.normal() for _ in range(count)]
    adv, drawelo = 25.0, 90.0
    games = []
    for i in range(count):
        for step in (1, 2, 5):
            j = (i + step) % count
            for _ in range(1 + rng.below(6)):
                w, b = (i, j) if rng.below(2) else (j, i)
                games.append((names[w], names[b], outcome(rng, elo[w], elo[b], adv, drawelo)))
    specials = []
    for k in range(25):  # always wins, as either colour
        o = names[rng.below(count)]
        specials.append(("Perfect", o, "1-0") if k % 2 else (o, "Perfect", "0-1"))
    for k in range(18):  # always loses
        o = names[rng.below(count)]
        specials.append(("Hopeless", o, "0-1") if k % 3 else (o, "Hopeless", "1-0"))
    for k in range(40):  # never draws: a draw drawn from the model becomes a White win
        o = rng.below(count)
        w, b = ("NoDraw", names[o]) if rng.below(2) else (names[o], "NoDraw")
        r = outcome(rng, 0.0 if w == "NoDraw" else elo[o], elo[o] if w == "NoDraw" else 0.0, adv, drawelo)
        specials.append((w, b, "1-0" if r == "1/2-1/2" else r))
    specials.append(("Once", names[3], "1/2-1/2"))
    for _ in range(30):  # always White
        o = rng.below(count)
        specials.append(("W", names[o], outcome(rng, 40.0, elo[o], adv, drawelo)))
    # Interleave the special games into the ring games at seeded places.
    for g in specials:
        games.insert(rng.below(len(games) + 1), g)
    # Twins, last in the file: one loss each to the same earlier player, so their ratings are
    # exactly equal and their order is the one bayeselo's std::sort gives.
    games += [(names[0], "TwinA", "1-0"), (names[0], "TwinB", "1-0")]
    return games


SETS = {
    # name: builder
    "m400": lambda: model_set(20240601, 400, 300_000, 200.0, 35.0, 110.0, 0.7, "P"),
    "m250": lambda: model_set(777001, 250, 120_000, 300.0, 60.0, 200.0, 0.0, "Bot"),
    "odd70": lambda: awkward_set(4242),
}


def main():
    if len(sys.argv) < 2:
        raise SystemExit(__doc__)
    out_dir = sys.argv[1]
    names = sys.argv[2:] or list(SETS)
    os.makedirs(out_dir, exist_ok=True)
    for name in names:
        if name not in SETS:
            raise SystemExit(f"gen_result_sets.py: unknown set '{name}' (known: {', '.join(SETS)})")
        write_pgn(os.path.join(out_dir, name + ".pgn"), SETS[name]())


if __name__ == "__main__":
    main()
