#!/usr/bin/env python3
"""Reference values for the SPRT of rating/sprt.hpp, computed from the published formulas
(Fishtest's LLRcalc and fastchess's "logistic" model: regularise unseen values to 1e-3, then
LLR = N * sum q_i ln(p1_i / p0_i) with p0, p1 the maximum-likelihood distributions of mean s0, s1
from Van den Bergh's "Comments on Normalized Elo"; fastchess's Elo interval and LOS), written
independently of the C++ code: exact fractions for the grid, and the constrained MLE found by
plain bisection in its Lagrange multiplier, checked to reproduce the mean it was asked for.

Prints one case per line:
  elo0 elo1 alpha beta|w/l/d,w/l/d,...|stop llr mean var elo elo_error los decision
where `stop` is the number of observations a sequential run uses (the first prefix whose LLR
leaves the bounds, else all) and the values are those of that prefix.
"""
import math
import random
from fractions import Fraction

REG = 1e-3
MAX_D = 64


def score(elo):
    return 1 / (1 + 10 ** (-elo / 400))


def elo_of(s):
    s = min(max(s, REG), 1 - REG)
    return -400 * math.log10(1 / s - 1)


def phi(x):
    return 0.5 * (1 + math.erf(x / math.sqrt(2)))


def pdf_of(obs):
    """(N, [(value, probability)]) of the regularised observations."""
    obs = [o for o in obs if sum(o) > 0]
    d = 1
    for w, l, dr in obs:
        d = d * (2 * (w + l + dr)) // math.gcd(d, 2 * (w + l + dr))
    if d > MAX_D:
        d = 0
    if d:
        counts = [0] * (d + 1)
        for w, l, dr in obs:
            value = Fraction(2 * w + dr, 2 * (w + l + dr))
            assert (value * d).denominator == 1
            counts[int(value * d)] += 1
        weights = [(Fraction(j, d), c if c else REG) for j, c in enumerate(counts)]
    else:
        weights = [(Fraction(2 * w + dr, 2 * (w + l + dr)), 1.0) for w, l, dr in obs]
        weights += [(Fraction(0), REG), (Fraction(1), REG)]
    n = sum(c for _, c in weights)
    return n, [(float(v), c / n) for v, c in weights]


def mle(pdf, s):
    """argmax sum q_i ln p_i over distributions p on the same values with mean s."""
    def g(x):
        return sum(q * (v - s) / (1 + x * (v - s)) for v, q in pdf)
    lo, hi = -1 / (max(v for v, _ in pdf) - s), -1 / (min(v for v, _ in pdf) - s)
    for _ in range(300):
        mid = (lo + hi) / 2
        if g(mid) > 0:
            lo = mid
        else:
            hi = mid
    x = (lo + hi) / 2
    p = [q / (1 + x * (v - s)) for v, q in pdf]
    assert abs(sum(p) - 1) < 1e-9 and abs(sum(v * q for (v, _), q in zip(pdf, p)) - s) < 1e-9
    return p


def evaluate(params, obs):
    elo0, elo1, alpha, beta = params
    lower, upper = math.log(beta / (1 - alpha)), math.log((1 - beta) / alpha)
    n, pdf = pdf_of(obs)
    mu = sum(v * p for v, p in pdf)
    var = sum(p * (v - mu) ** 2 for v, p in pdf)
    s0, s1 = score(elo0), score(elo1)
    p0, p1 = mle(pdf, s0), mle(pdf, s1)
    llr = n * sum(q * (math.log(b) - math.log(a)) for (_, q), a, b in zip(pdf, p0, p1))
    se = math.sqrt(var / n)
    z = 1.959963984540054
    err = (elo_of(mu + z * se) - elo_of(mu - z * se)) / 2
    decision = "h1" if llr >= upper else "h0" if llr <= lower else "none"
    return llr, mu, var, elo_of(mu), err, phi((mu - 0.5) / se), decision


def sequential(params, obs):
    for k in range(1, len(obs) + 1):
        if sum(obs[k - 1]) == 0:
            continue
        r = evaluate(params, obs[:k])
        if r[-1] != "none":
            return k, r
    return len(obs), evaluate(params, obs)


def deal_sets(rng, count, comparisons, p_win, p_draw):
    out = []
    for _ in range(count):
        w = l = d = 0
        for _ in range(comparisons):
            x = rng.random()
            if x < p_win:
                w += 1
            elif x < p_win + p_draw:
                d += 1
            else:
                l += 1
        out.append((w, l, d))
    return out


def main():
    rng = random.Random(20261125)
    cases = []
    # Two-player games, two rotations: the pentanomial case.
    for p_win, p_draw in [(0.45, 0.1), (0.6, 0.1), (0.3, 0.4), (0.5, 0.0), (0.9, 0.05), (0.35, 0.1)]:
        cases.append(((0, 5, 0.05, 0.05), deal_sets(rng, 300, 2, p_win, p_draw)))
    cases.append(((-10, 10, 0.05, 0.1), deal_sets(rng, 400, 2, 0.48, 0.04)))
    # Four seats A, B, A, B in four rotations: 16 comparisons per deal set.
    cases.append(((0, 20, 0.05, 0.05), deal_sets(rng, 80, 16, 0.55, 0.05)))
    cases.append(((0, 5, 0.1, 0.2), deal_sets(rng, 60, 4, 0.5, 0.2)))
    # Deal sets of different sizes (faulted matches without pairs) and a grid finer than 64.
    mixed = deal_sets(rng, 30, 2, 0.55, 0.1) + deal_sets(rng, 10, 1, 0.55, 0.1) + [(0, 0, 0)]
    rng.shuffle(mixed)
    cases.append(((0, 10, 0.05, 0.05), mixed))
    fine = deal_sets(rng, 20, 3, 0.6, 0.1) + deal_sets(rng, 20, 5, 0.6, 0.1) + deal_sets(rng, 20, 7, 0.6, 0.1)
    rng.shuffle(fine)
    cases.append(((0, 10, 0.05, 0.05), fine))
    # Every deal set won outright: a stop at the upper bound after a few sets.
    cases.append(((0, 5, 0.05, 0.05), [(2, 0, 0)] * 250))
    cases.append(((0, 5, 0.05, 0.05), [(0, 2, 0)] * 50))
    for params, obs in cases:
        k, (llr, mu, var, elo, err, los, decision) = sequential(params, obs)
        print("{} {} {} {}|{}|{} {!r} {!r} {!r} {!r} {!r} {!r} {}".format(
            *params, ",".join("{}/{}/{}".format(*o) for o in obs), k, llr, mu, var, elo, err, los, decision))


if __name__ == "__main__":
    main()
