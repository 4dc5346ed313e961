#!/usr/bin/env python3
"""Reference values for the SPRT of rating/sprt.hpp, computed from the published formulas
(Fishtest's LLRcalc and fastchess's "logistic" model: regularise unseen values to 1e-3, then
LLR = N * sum q_i ln(p1_i / p0_i) with p0, p1 the maximum-likelihood distributions of mean s0, s1
from Van den Bergh's "Comments on Normalized Elo"; fastchess's Elo interval and LOS), written
independently of the C++ code: exact fractions for the grid, and the constrained MLE found by
plain bisection in its Lagrange multiplier, checked to reproduce the mean it was asked for.

The printed figures are fastchess's (EloWDL, EloPentanomial): from the raw counts, each one
that is inf or nan there replaced by that of the regularised counts; under the bayesian model
those of the W/D/L totals.

Prints one case per line:
  seq elo0 elo1 alpha beta model seats|w/l/d,w/l/d,...|stop llr mean var score elo elo_error los nelo nelo_error decision
where `stop` is the number of observations a sequential run uses (the first prefix whose LLR
leaves the bounds, else all) and the values are those of that prefix (mean and var of the
regularised observations, score of the raw ones); and
  wdl|ptnml elo0 elo1 alpha beta model|counts|llr nelo nelo_error elo elo_error los
for fastchess's W/D/L (W D L) and pentanomial (LL LD WL DD WD WW) count vectors.
"""
import math
import random
from fractions import Fraction

REG = 1e-3
MAX_D = 64
NELO_UNIT = 800 / math.log(10)
Z975 = 1.959963984540054


def score(elo):
    return 1 / (1 + 10 ** (-elo / 400))


def elo_of(s):
    s = min(max(s, REG), 1 - REG)
    return -400 * math.log10(1 / s - 1)


def phi(x):
    return 0.5 * (1 + math.erf(x / math.sqrt(2)))


def grid_of(obs):
    """D, the common denominator of the observation values, or 0 past MAX_D."""
    d = 1
    for w, l, dr in obs:
        if w + l + dr:
            d = d * (2 * (w + l + dr)) // math.gcd(d, 2 * (w + l + dr))
    return d if 1 < d <= MAX_D else 0


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


def bisect_falling(g, lo, hi):
    """The root of g, which falls from + to - on (lo, hi)."""
    for _ in range(300):
        mid = (lo + hi) / 2
        if not lo < mid < hi:
            break
        if g(mid) > 0:
            lo = mid
        else:
            hi = mid
    return (lo + hi) / 2


def mle(pdf, s):
    """argmax sum q_i ln p_i over distributions p on the same values with mean s."""
    def g(x):
        return sum(q * (v - s) / (1 + x * (v - s)) for v, q in pdf)
    lo, hi = -1 / (max(v for v, _ in pdf) - s), -1 / (min(v for v, _ in pdf) - s)
    x = bisect_falling(g, lo, hi)
    p = [q / (1 + x * (v - s)) for v, q in pdf]
    assert abs(sum(p) - 1) < 1e-9 and abs(sum(v * q for (v, _), q in zip(pdf, p)) - s) < 1e-9
    return p


def moments(values, p):
    mu = sum(v * w for v, w in zip(values, p))
    return mu, math.sqrt(sum(w * (v - mu) ** 2 for v, w in zip(values, p)))


def mle_normalized(pdf, t):
    """argmax sum q_i ln p_i over distributions p on the same values with (mu - 1/2) / sigma = t:
    Van den Bergh's fixed point p_i = q_i / (1 + x phi_i(mu, sigma of p)), iterated to rest."""
    values = [v for v, _ in pdf]
    p = [1 / len(pdf)] * len(pdf)
    last = math.inf
    for _ in range(5000):
        mu, sigma = moments(values, p)
        phi = [v - 0.5 - t * sigma / 2 * (1 + ((v - mu) / sigma) ** 2) for v in values]
        x = bisect_falling(lambda x: sum(q * f / (1 + x * f) for (_, q), f in zip(pdf, phi)),
                           -1 / max(phi), -1 / min(phi))
        new = [q / (1 + x * f) for (_, q), f in zip(pdf, phi)]
        moved = max(abs(a - b) for a, b in zip(new, p))
        p = new
        # At rest, or moving by rounding noise only.
        if moved < 1e-15 or (moved < 1e-12 and moved >= last):
            break
        last = moved
    # A distribution, on the constraint, and stationary: q_i / p_i = 1 + x * (derivative of the
    # constraint (mu - 1/2 - t sigma) in p_i, up to a constant), i.e. the Lagrange conditions.
    mu, sigma = moments(values, p)
    assert abs(sum(p) - 1) < 1e-11 and abs((mu - 0.5) / sigma - t) < 1e-10, (sum(p), (mu - 0.5) / sigma, t)
    grad = [v - t * (v - mu) ** 2 / (2 * sigma) for v in values]
    ratio = [q / w for (_, q), w in zip(pdf, p)]
    # ratio_i = a + b * grad_i for some a, b: check by the first two points against all.
    i, j = min(range(len(p)), key=lambda k: grad[k]), max(range(len(p)), key=lambda k: grad[k])
    b = (ratio[j] - ratio[i]) / (grad[j] - grad[i])
    a = ratio[i] - b * grad[i]
    assert all(abs(a + b * g - r) < 1e-8 * max(1, abs(r)) for g, r in zip(grad, ratio))
    return p


def llr_of(pdf, n, p0, p1):
    return n * sum(q * (math.log(b) - math.log(a)) for (_, q), a, b in zip(pdf, p0, p1))


def bayes_score(elo, drawelo):
    win = 1 / (1 + 10 ** ((drawelo - elo) / 400))
    loss = 1 / (1 + 10 ** ((drawelo + elo) / 400))
    return win + (1 - win - loss) / 2


def llr_bayesian(elo0, elo1, wins, draws, losses):
    """BayesElo on a W/D/L trinomial: nothing to say until there are wins and losses."""
    if wins == 0 or losses == 0:
        return 0.0
    counts = [losses, draws if draws else REG, wins]
    n = sum(counts)
    pdf = [(0.0, counts[0] / n), (0.5, counts[1] / n), (1.0, counts[2] / n)]
    l, w = pdf[0][1], pdf[2][1]
    drawelo = 200 * math.log10((1 - l) / l * (1 - w) / w)
    return llr_of(pdf, n, mle(pdf, bayes_score(elo0, drawelo)), mle(pdf, bayes_score(elo1, drawelo)))


def llr_model(model, elo0, elo1, n, pdf, k, wdl):
    if model == "logistic":
        return llr_of(pdf, n, mle(pdf, score(elo0)), mle(pdf, score(elo1)))
    if model == "normalized":
        scale = math.sqrt(k) / NELO_UNIT
        return llr_of(pdf, n, mle_normalized(pdf, scale * elo0), mle_normalized(pdf, scale * elo1))
    return llr_bayesian(elo0, elo1, *wdl)


def nelo_of(values, k):
    """fastchess's nElo and its 95% half-width from raw observation values (population variance);
    undefined (nan) when every value is the same."""
    m = len(values)
    mu = sum(values) / m
    var = sum((v - mu) ** 2 for v in values) / m
    if var == 0:
        return math.nan, math.nan
    se = math.sqrt(var / m)
    def nelo(s):
        return (s - 0.5) / math.sqrt(k * var) * NELO_UNIT
    return nelo(mu), (nelo(mu + Z975 * se) - nelo(mu - Z975 * se)) / 2


def fastchess_elo(s):
    """fastchess's scoreToEloDiff, -400 log10(1/s - 1), with its infinities and NaNs spelt out."""
    if s == 1:
        return math.inf
    if s == 0:
        return -math.inf
    if not 0 < s < 1:
        return math.nan
    return -400 * math.log10(1 / s - 1)


def figures(raw, regularised):
    """fastchess's Elo, its 95% half-width and LOS (EloWDL / EloPentanomial) of values weighted by
    their raw counts: score and population variance of the values, per-sample variance var / n,
    the interval score +/- 1.96 sqrt(var / n) mapped to Elo, LOS (1 - erf(-(score - 1/2) /
    sqrt(2 var / n))) / 2. Each figure that is infinite or NaN there is that of the regularised
    weights instead (score clamped into [1e-3, 1 - 1e-3], as elo_of). Also the raw score and
    variance (for nElo)."""
    n = sum(c for _, c in raw)
    score = sum(v * c for v, c in raw) / n
    var = sum(c * (v - score) ** 2 for v, c in raw) / n
    per = var / n
    elo = fastchess_elo(score)
    err = (fastchess_elo(score + Z975 * math.sqrt(per)) - fastchess_elo(score - Z975 * math.sqrt(per))) / 2
    if per > 0:
        los = (1 - math.erf(-(score - 0.5) / math.sqrt(2 * per))) / 2
    else:  # erf of +-inf, or of 0/0
        los = 1.0 if score > 0.5 else 0.0 if score < 0.5 else math.nan
    rn = sum(c for _, c in regularised)
    rmu = sum(v * c for v, c in regularised) / rn
    rse = math.sqrt(sum(c * (v - rmu) ** 2 for v, c in regularised) / rn / rn)
    if not math.isfinite(elo):
        elo = elo_of(rmu)
    if not math.isfinite(err):
        err = (elo_of(rmu + Z975 * rse) - elo_of(rmu - Z975 * rse)) / 2
    if not math.isfinite(los):
        los = phi((rmu - 0.5) / rse)
    return score, var, elo, err, los


def nelo_from(score, var, n, k):
    """fastchess's nElo and its half-width from the raw score and population variance of n values
    of k games each; nan without spread (fastchess prints inf or nan)."""
    if var == 0:
        return math.nan, math.nan
    se = math.sqrt(var / n)
    def nelo(x):
        return (x - 0.5) / math.sqrt(k * var) * NELO_UNIT
    return nelo(score), (nelo(score + Z975 * se) - nelo(score - Z975 * se)) / 2


def wdl_weights(wins, draws, losses, unseen):
    return [(v, c if c else unseen) for v, c in ((0.0, losses), (0.5, draws), (1.0, wins))]


def evaluate(params, obs):
    elo0, elo1, alpha, beta, model, seats = params
    lower, upper = math.log(beta / (1 - alpha)), math.log((1 - beta) / alpha)
    n, pdf = pdf_of(obs)
    played = [o for o in obs if sum(o) > 0]
    mu = sum(v * p for v, p in pdf)
    var = sum(p * (v - mu) ** 2 for v, p in pdf)
    d = grid_of(obs)
    k = d / 2 if d else sum(sum(o) for o in played) / len(played)
    wdl = (sum(o[0] for o in played), sum(o[2] for o in played), sum(o[1] for o in played))
    weights = [(v, q * n) for v, q in pdf]
    raw = [((w + dr / 2) / (w + l + dr), 1) for w, l, dr in played]
    if seats > 2:
        llr = llr_model("logistic", elo0, elo1, n, pdf, k, wdl)
        raw_score, _, elo, err, los = figures(raw, weights)
        nelo, nerr = 0.0, 0.0
    elif model == "bayesian":
        # fastchess reports W/D/L for this model: the figures of the games' totals.
        llr = llr_model(model, elo0, elo1, n, pdf, k, wdl)
        raw_score, raw_var, elo, err, los = figures(wdl_weights(*wdl, 0), wdl_weights(*wdl, REG))
        nelo, nerr = nelo_from(raw_score, raw_var, sum(wdl), 1)
    else:
        llr = llr_model(model, elo0, elo1, n, pdf, k, wdl)
        raw_score, raw_var, elo, err, los = figures(raw, weights)
        nelo, nerr = nelo_from(raw_score, raw_var, len(raw), k)
        assert (math.isnan(nelo) and math.isnan(nelo_of([v for v, _ in raw], k)[0])) or \
            abs(nelo - nelo_of([v for v, _ in raw], k)[0]) < 1e-9 * max(1, abs(nelo))
    decision = "h1" if llr >= upper else "h0" if llr <= lower else "none"
    return llr, mu, var, raw_score, elo, err, los, nelo, nerr, decision


def sequential(params, obs):
    for k in range(1, len(obs) + 1):
        if sum(obs[k - 1]) == 0:
            continue
        r = evaluate(params, obs[:k])
        if r[-1] != "none":
            return k, r
    return len(obs), evaluate(params, obs)


def table_wdl(model, elo0, elo1, wins, draws, losses):
    """fastchess's getLLR(win, draw, loss) and EloWDL's nElo, on the counts as they are."""
    counts = [c if c else REG for c in (losses, draws, wins)]
    n = sum(counts)
    pdf = [(0.0, counts[0] / n), (0.5, counts[1] / n), (1.0, counts[2] / n)]
    games = wins + draws + losses
    if model == "normalized":
        llr = llr_of(pdf, n, mle_normalized(pdf, elo0 / NELO_UNIT), mle_normalized(pdf, elo1 / NELO_UNIT))
    elif model == "logistic":
        llr = llr_of(pdf, n, mle(pdf, score(elo0)), mle(pdf, score(elo1)))
    else:
        llr = llr_bayesian(elo0, elo1, wins, draws, losses)
    s = (wins + draws / 2) / games
    var = (wins * (1 - s) ** 2 + draws * (0.5 - s) ** 2 + losses * s ** 2) / games
    raw_score, _, elo, err, los = figures(wdl_weights(wins, draws, losses, 0), wdl_weights(wins, draws, losses, REG))
    assert abs(raw_score - s) < 1e-15
    return (llr, *nelo_from(s, var, games, 1), elo, err, los)


def table_ptnml(model, elo0, elo1, ll, ld, wl, dd, wd, ww):
    """fastchess's pentanomial getLLR (WL and DD pooled) and EloPentanomial's nElo; the bayesian
    model reads the W/D/L totals of the pairs, as fastchess does without pentanomial reports."""
    if model == "bayesian":
        wins, draws, losses = 2 * ww + wd + wl, wd + 2 * dd + ld, 2 * ll + ld + wl
        llr = llr_bayesian(elo0, elo1, wins, draws, losses)
    else:
        counts = [c if c else REG for c in (ll, ld, wl + dd, wd, ww)]
        n = sum(counts)
        pdf = [(j / 4, c / n) for j, c in enumerate(counts)]
        if model == "normalized":
            t0, t1 = math.sqrt(2) * elo0 / NELO_UNIT, math.sqrt(2) * elo1 / NELO_UNIT
            llr = llr_of(pdf, n, mle_normalized(pdf, t0), mle_normalized(pdf, t1))
        else:
            llr = llr_of(pdf, n, mle(pdf, score(elo0)), mle(pdf, score(elo1)))
    if model == "bayesian":
        # fastchess drops its pentanomial report for this model: EloWDL on the games' totals.
        wins, draws, losses = 2 * ww + wd + wl, wd + 2 * dd + ld, 2 * ll + ld + wl
        games = wins + draws + losses
        s = (wins + draws / 2) / games
        var = (wins * (1 - s) ** 2 + draws * (0.5 - s) ** 2 + losses * s ** 2) / games
        _, _, elo, err, los = figures(wdl_weights(wins, draws, losses, 0), wdl_weights(wins, draws, losses, REG))
        return (llr, *nelo_from(s, var, games, 1), elo, err, los)
    pairs = ll + ld + wl + dd + wd + ww
    s = (ww + 0.75 * wd + 0.5 * (wl + dd) + 0.25 * ld) / pairs
    var = (ww * (1 - s) ** 2 + wd * (0.75 - s) ** 2 + (wl + dd) * (0.5 - s) ** 2 + ld * (0.25 - s) ** 2
           + ll * s ** 2) / pairs
    counts = (ll, ld, wl + dd, wd, ww)
    _, _, elo, err, los = figures([(j / 4, c) for j, c in enumerate(counts)],
                                  [(j / 4, c if c else REG) for j, c in enumerate(counts)])
    return (llr, *nelo_from(s, var, pairs, 2), elo, err, los)


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


# fastchess's table: W/D/L and pentanomial counts, each under the three models.
WDL_TABLE = [(30, 40, 30), (55, 20, 25), (10, 80, 10), (400, 180, 420), (7, 0, 3), (0, 5, 5), (1234, 2345, 1111),
             (3, 1, 1), (90, 10, 100), (20000, 41000, 19500), (12, 1, 0),
             (25, 0, 0), (0, 30, 0), (0, 0, 9), (0, 4, 6), (1, 0, 1)]
PTNML_TABLE = [(10, 30, 5, 45, 40, 15), (0, 5, 1, 9, 4, 1), (120, 600, 80, 1500, 680, 140), (3, 9, 0, 20, 15, 3),
               (1, 2, 3, 4, 5, 6), (50, 50, 50, 50, 50, 50), (0, 0, 2, 8, 12, 30), (900, 2100, 400, 3000, 2300, 1000),
               (5, 1, 0, 0, 1, 5), (17, 44, 13, 61, 52, 21), (0, 3, 0, 10, 0, 0),
               (0, 0, 0, 0, 0, 20), (0, 0, 0, 15, 0, 0), (0, 0, 7, 0, 0, 0), (9, 0, 0, 0, 0, 0),
               (0, 0, 0, 0, 3, 11), (0, 0, 1, 0, 0, 1)]
TABLE_BOUNDS = [(0, 5, 0.05, 0.05), (-1.75, 0.25, 0.05, 0.1), (0, 2, 0.05, 0.05), (-5, 5, 0.1, 0.1)]


def main():
    rng = random.Random(20261125)
    cases = []
    models = ["normalized", "logistic", "bayesian"]
    # Two-player games, two rotations: the pentanomial case, under each model.
    for i, (p_win, p_draw) in enumerate([(0.45, 0.1), (0.6, 0.1), (0.3, 0.4), (0.5, 0.0), (0.9, 0.05), (0.35, 0.1)]):
        cases.append(((0, 5, 0.05, 0.05, models[i % 3], 2), deal_sets(rng, 300, 2, p_win, p_draw)))
    cases.append(((-10, 10, 0.05, 0.1, "normalized", 2), deal_sets(rng, 400, 2, 0.48, 0.04)))
    cases.append(((-10, 10, 0.05, 0.1, "logistic", 2), deal_sets(rng, 400, 2, 0.48, 0.04)))
    # One game per deal set: the W/D/L trinomial.
    cases.append(((0, 10, 0.05, 0.05, "normalized", 2), deal_sets(rng, 300, 1, 0.55, 0.2)))
    cases.append(((0, 10, 0.05, 0.05, "bayesian", 2), deal_sets(rng, 300, 1, 0.55, 0.2)))
    # Four seats A, B, A, B in four rotations: 16 comparisons per deal set; logistic whatever the model.
    cases.append(((0, 20, 0.05, 0.05, "normalized", 4), deal_sets(rng, 80, 16, 0.55, 0.05)))
    cases.append(((0, 5, 0.1, 0.2, "logistic", 4), deal_sets(rng, 60, 4, 0.5, 0.2)))
    # Deal sets of different sizes (faulted matches without pairs) and a grid finer than 64.
    mixed = deal_sets(rng, 30, 2, 0.55, 0.1) + deal_sets(rng, 10, 1, 0.55, 0.1) + [(0, 0, 0)]
    rng.shuffle(mixed)
    cases.append(((0, 10, 0.05, 0.05, "logistic", 2), mixed))
    cases.append(((0, 10, 0.05, 0.05, "normalized", 2), mixed))
    fine = deal_sets(rng, 20, 3, 0.6, 0.1) + deal_sets(rng, 20, 5, 0.6, 0.1) + deal_sets(rng, 20, 7, 0.6, 0.1)
    rng.shuffle(fine)
    cases.append(((0, 10, 0.05, 0.05, "logistic", 2), fine))
    cases.append(((0, 10, 0.05, 0.05, "normalized", 2), fine))
    # Every deal set won outright: a stop at the upper bound after a few sets.
    for model in models[:2]:
        cases.append(((0, 5, 0.05, 0.05, model, 2), [(2, 0, 0)] * 250))
        cases.append(((0, 5, 0.05, 0.05, model, 2), [(0, 2, 0)] * 50))
    for params, obs in cases:
        k, result = sequential(params, obs)
        print("seq {} {} {} {} {} {}|{}|{} {!r} {!r} {!r} {!r} {!r} {!r} {!r} {!r} {!r} {}".format(
            *params, ",".join("{}/{}/{}".format(*o) for o in obs), k, *result))
    for i, counts in enumerate(WDL_TABLE):
        for model in models:
            bounds = TABLE_BOUNDS[i % len(TABLE_BOUNDS)]
            print("wdl {} {} {} {} {}|{} {} {}|{!r} {!r} {!r} {!r} {!r} {!r}".format(
                *bounds, model, *counts, *table_wdl(model, bounds[0], bounds[1], *counts)))
    for i, counts in enumerate(PTNML_TABLE):
        for model in models:
            bounds = TABLE_BOUNDS[i % len(TABLE_BOUNDS)]
            print("ptnml {} {} {} {} {}|{} {} {} {} {} {}|{!r} {!r} {!r} {!r} {!r} {!r}".format(
                *bounds, model, *counts, *table_ptnml(model, bounds[0], bounds[1], *counts)))


if __name__ == "__main__":
    main()
