// The BayesElo model. Every step cites shared/rules/rating.md part A (section A.2 unless noted).
#include "rating/bayeselo.hpp"

#include <algorithm>
#include <atomic>
#include <cmath>
#include <numbers>
#include <stdexcept>
#include <thread>

#include <fmt/format.h>

#include "core/user_error.hpp"

namespace arb::rating {
namespace {

// d(ln gamma)/d(elo): gamma = 10^(elo/400).
constexpr double kNatPerElo = std::numbers::ln10 / 400.0;

double elo_to_theta(double elo) { return std::pow(10.0, elo / 400.0); }
double theta_to_elo(double theta) { return 400.0 * std::log10(theta); }

// bayeselo prints with round-half-away-from-zero.
long long round_half_away(double x) { return x > 0 ? static_cast<long long>(x + 0.5) : static_cast<long long>(x - 0.5); }

// One opponent of a player, seen from that player ("i") against the opponent ("j").
// The four sums are the only counts the likelihood needs (prior draws included):
//   i_white_win_draw  = wins + draws of i as White vs j
//   i_white_loss_draw = losses + draws of i as White vs j
//   j_white_win_draw  = wins + draws of j as White vs i
//   j_white_loss_draw = losses + draws of j as White vs i
struct Edge {
    int opponent = 0;
    double i_white_win_draw = 0;
    double i_white_loss_draw = 0;
    double j_white_win_draw = 0;
    double j_white_loss_draw = 0;
    double real_games = 0;  // without the prior: weights of `oppo.` and of the prior itself
};

// The condensed results (bayeselo "elo" step): per-player opponent lists in CSR form over the
// players that have at least one game, with the prior already added.
struct Condensed {
    int n = 0;
    std::vector<int> model_to_player;  // model index -> ResultSet player index
    std::vector<std::size_t> first_edge;  // n + 1 offsets into edges
    std::vector<Edge> edges;
    std::vector<double> successes;     // A_i: wins + draws (prior included)
    // Real-game statistics for the table.
    std::vector<std::int64_t> games, wins, draws, losses;
    // Totals for the theta updates: sum over White cells of draws (prior included).
    double total_draws = 0;
    double total_white_win_draw = 0;
};

Condensed condense(const ResultSet& results, double prior) {
    const auto player_count = static_cast<std::int64_t>(results.players().size());
    // Which players have games, numbered in ResultSet order (bayeselo numbers players by first
    // appearance, and sweeps them from the highest number down).
    std::vector<int> model_of(static_cast<std::size_t>(player_count), -1);
    for (const PairwiseGame& g : results.games()) {
        model_of[static_cast<std::size_t>(g.white)] = 0;
        model_of[static_cast<std::size_t>(g.black)] = 0;
    }
    Condensed c;
    for (std::int64_t p = 0; p < player_count; ++p) {
        if (model_of[static_cast<std::size_t>(p)] == 0) {
            model_of[static_cast<std::size_t>(p)] = c.n++;
            c.model_to_player.push_back(static_cast<int>(p));
        }
    }
    const auto n = static_cast<std::uint64_t>(c.n);

    // Sort the games by unordered pair; the low 3 bits say who was White and the outcome.
    std::vector<std::uint64_t> keys;
    keys.reserve(results.games().size());
    for (const PairwiseGame& g : results.games()) {
        const auto w = static_cast<std::uint64_t>(model_of[static_cast<std::size_t>(g.white)]);
        const auto b = static_cast<std::uint64_t>(model_of[static_cast<std::size_t>(g.black)]);
        const std::uint64_t lo = std::min(w, b), hi = std::max(w, b);
        const std::uint64_t code = (w == lo ? 0 : 3) + static_cast<std::uint64_t>(g.outcome);
        keys.push_back(((lo * n + hi) << 3) | code);
    }
    std::sort(keys.begin(), keys.end());

    struct PairCounts {
        int lo, hi;
        double count[6];  // [lo white: black wins, draw, white wins][hi white: same]
        double games() const { return count[0] + count[1] + count[2] + count[3] + count[4] + count[5]; }
    };
    std::vector<PairCounts> pairs;
    for (std::size_t k = 0; k < keys.size();) {
        const std::uint64_t pair_key = keys[k] >> 3;
        PairCounts pc{static_cast<int>(pair_key / n), static_cast<int>(pair_key % n), {0, 0, 0, 0, 0, 0}};
        for (; k < keys.size() && (keys[k] >> 3) == pair_key; ++k) pc.count[keys[k] & 7] += 1;
        pairs.push_back(pc);
    }

    c.games.assign(n, 0);
    c.wins.assign(n, 0);
    c.draws.assign(n, 0);
    c.losses.assign(n, 0);
    std::vector<std::size_t> degree(n, 0);
    for (const PairCounts& pc : pairs) {
        const auto g = static_cast<std::int64_t>(pc.games());
        c.games[pc.lo] += g;
        c.games[pc.hi] += g;
        // lo's wins: lo white wins (2) + hi white loses (3+0); hi's wins the other way round.
        c.wins[pc.lo] += static_cast<std::int64_t>(pc.count[2] + pc.count[3]);
        c.wins[pc.hi] += static_cast<std::int64_t>(pc.count[0] + pc.count[5]);
        c.losses[pc.lo] += static_cast<std::int64_t>(pc.count[0] + pc.count[5]);
        c.losses[pc.hi] += static_cast<std::int64_t>(pc.count[2] + pc.count[3]);
        c.draws[pc.lo] += static_cast<std::int64_t>(pc.count[1] + pc.count[4]);
        c.draws[pc.hi] += static_cast<std::int64_t>(pc.count[1] + pc.count[4]);
        ++degree[pc.lo];
        ++degree[pc.hi];
    }

    c.first_edge.assign(n + 1, 0);
    for (std::size_t i = 0; i < n; ++i) c.first_edge[i + 1] = c.first_edge[i] + degree[i];
    c.edges.resize(c.first_edge[n]);
    std::vector<std::size_t> fill(c.first_edge.begin(), c.first_edge.end() - 1);
    c.successes.assign(n, 0);
    for (const PairCounts& pc : pairs) {
        const double games = pc.games();
        // Prior (A.2 "Prior"): each player i spreads P/4 * n_ij / N_i virtual draws into each
        // of the two draw cells of the pair (i white, j white), in both players' records; per
        // cell that is P/4 * n_ij * (1/N_i + 1/N_j).
        const double virtual_draws = prior * 0.25 * games *
                                     (1.0 / static_cast<double>(c.games[pc.lo]) + 1.0 / static_cast<double>(c.games[pc.hi]));
        const double lo_white_loss = pc.count[0], lo_white_draw = pc.count[1] + virtual_draws, lo_white_win = pc.count[2];
        const double hi_white_loss = pc.count[3], hi_white_draw = pc.count[4] + virtual_draws, hi_white_win = pc.count[5];

        Edge lo_edge{pc.hi, lo_white_win + lo_white_draw, lo_white_loss + lo_white_draw, hi_white_win + hi_white_draw,
                     hi_white_loss + hi_white_draw, games};
        Edge hi_edge{pc.lo, hi_white_win + hi_white_draw, hi_white_loss + hi_white_draw, lo_white_win + lo_white_draw,
                     lo_white_loss + lo_white_draw, games};
        c.successes[pc.lo] += lo_edge.i_white_win_draw + lo_edge.j_white_loss_draw;
        c.successes[pc.hi] += hi_edge.i_white_win_draw + hi_edge.j_white_loss_draw;
        c.edges[fill[pc.lo]++] = lo_edge;
        c.edges[fill[pc.hi]++] = hi_edge;
        c.total_draws += lo_white_draw + hi_white_draw;
        c.total_white_win_draw += lo_white_win + lo_white_draw + hi_white_win + hi_white_draw;
    }
    // pairs are sorted by (lo, hi), so every player's list is sorted by opponent already for
    // the lo side; the hi side receives its opponents in increasing lo order too.
    return c;
}

struct Fit {
    std::vector<double> gamma;  // per model index
    double theta_white = 1;
    double theta_draw = 1;
    int sweeps = 0;
    bool converged = false;
};

// A.2 "MM iteration": Hunter's minorization-maximization, players swept from the highest index
// down, each update seeing the new gammas of the players already swept (Gauss-Seidel).
Fit minorize_maximize(const Condensed& c, const EloOptions& o) {
    Fit fit;
    fit.theta_white = o.fit_advantage ? 1.0 : elo_to_theta(o.advantage);
    fit.theta_draw = o.fit_drawelo ? 1.0 : elo_to_theta(o.drawelo);
    fit.gamma.assign(static_cast<std::size_t>(c.n), 1.0);
    std::vector<double>& gamma = fit.gamma;

    for (int sweep = 0; sweep < o.max_sweeps; ++sweep) {
        const double tw = fit.theta_white, td = fit.theta_draw, tdw = td * tw;
        double diff = 0;
        for (int p = c.n - 1; p >= 0; --p) {
            const double gp = gamma[p];
            double b = 0;
            for (std::size_t k = c.first_edge[p]; k < c.first_edge[p + 1]; ++k) {
                const Edge& e = c.edges[k];
                const double go = gamma[e.opponent];  // already new when opponent > p
                b += e.i_white_win_draw * tw / (tw * gp + td * go) + e.i_white_loss_draw * tdw / (tdw * gp + go) +
                     e.j_white_win_draw * td / (tw * go + td * gp) + e.j_white_loss_draw / (tdw * go + gp);
            }
            const double updated = c.successes[p] / b;
            diff = std::max(diff, std::fabs(updated - gp) / (updated + gp));
            gamma[p] = updated;
        }
        if (o.fit_advantage) {
            // A.2 step 3.
            double denominator = 0;
            for (int p = 0; p < c.n; ++p) {
                const double gp = gamma[p];
                for (std::size_t k = c.first_edge[p]; k < c.first_edge[p + 1]; ++k) {
                    const Edge& e = c.edges[k];
                    const double go = gamma[e.opponent];
                    denominator += e.i_white_win_draw * gp / (fit.theta_white * gp + fit.theta_draw * go) +
                                   e.i_white_loss_draw * fit.theta_draw * gp /
                                       (fit.theta_draw * fit.theta_white * gp + go);
                }
            }
            const double updated = c.total_white_win_draw / denominator;
            diff = std::max(diff, std::fabs(updated - fit.theta_white));
            fit.theta_white = updated;
        }
        if (o.fit_drawelo) {
            // A.2 step 4: the positive root left by minorizing the theta_D^2 - 1 term.
            double denominator = 0;
            for (int p = 0; p < c.n; ++p) {
                const double gp = gamma[p];
                for (std::size_t k = c.first_edge[p]; k < c.first_edge[p + 1]; ++k) {
                    const Edge& e = c.edges[k];
                    const double go = gamma[e.opponent];
                    denominator += e.i_white_win_draw * go / (fit.theta_white * gp + fit.theta_draw * go) +
                                   e.i_white_loss_draw * fit.theta_white * gp /
                                       (fit.theta_draw * fit.theta_white * gp + go);
                }
            }
            const double ratio = c.total_draws / denominator;
            const double updated = ratio + std::sqrt(ratio * ratio + 1);
            diff = std::max(diff, std::fabs(updated - fit.theta_draw));
            fit.theta_draw = updated;
        }
        fit.sweeps = sweep + 1;
        if (diff < o.tolerance) {
            fit.converged = true;
            break;
        }
    }
    return fit;
}

// Model ratings (Elo units) with mean 0 (A.2 step 6: the unweighted mean is subtracted).
std::vector<double> centred_elos(const std::vector<double>& gamma) {
    std::vector<double> elo(gamma.size());
    double total = 0;
    for (std::size_t i = 0; i < gamma.size(); ++i) total += (elo[i] = theta_to_elo(gamma[i]));
    const double mean = total / static_cast<double>(gamma.size());
    for (double& r : elo) r -= mean;
    return elo;
}

// A discretised density on an even grid, with bayeselo's credible-bound rule: walk in from one
// end accumulating trapezoids of the normalised values (the first point counts half), and
// interpolate linearly inside the step where the tail reaches (1 - confidence) / 2.
struct GridDistribution {
    double min = 0, max = 0;
    std::vector<double> p;

    double value(double index) const { return min + (max - min) * index / static_cast<double>(p.size() - 1); }

    void normalise() {
        double total = 0;
        for (double v : p) total += v;
        for (double& v : p) v /= total;
    }

    double bound(double confidence, bool upper) const {
        const double threshold = (1 - confidence) / 2;
        const int size = static_cast<int>(p.size());
        const int begin = upper ? size - 1 : 0, end = upper ? -1 : size, step = upper ? -1 : 1;
        double tail = 0, previous = 0;
        for (int i = begin; i != end; i += step) {
            const double next_tail = tail + (previous + p[static_cast<std::size_t>(i)]) / 2;
            if (next_tail >= threshold) {
                const double from = value(i - step), to = value(i);
                return from + (to - from) * (threshold - tail) / (next_tail - tail);
            }
            tail = next_tail;
            previous = p[static_cast<std::size_t>(i)];
        }
        return value(end - step);
    }
};

// bayeselo takes z for symmetric intervals from a normal discretised on 1000 points over
// [-10, 10] (A.2 "covariance": "z comes from a discretised standard normal"), which is
// slightly off 1.95996; we compute it the same way so the widths match.
double discretised_normal_quantile(double confidence) {
    GridDistribution normal{-10, 10, std::vector<double>(1000, 0.0)};
    for (std::size_t i = 1; i < normal.p.size(); ++i) {  // the first point stays 0, as there
        const double x = normal.value(static_cast<double>(i));
        normal.p[i] = std::exp(-0.5 * x * x);
    }
    normal.normalise();
    return normal.bound(confidence, true);
}

// Second derivative of one edge's log-likelihood with respect to the rating difference,
// in gamma form (A.2 "variance", "covariance"), times -1/kNatPerElo^2 (so positive).
double edge_curvature(const Edge& e, double gp, double go, double tw, double td) {
    const double d1 = tw * gp + td * go;
    const double d2 = td * tw * gp + go;
    const double d3 = tw * go + td * gp;
    const double d4 = td * tw * go + gp;
    return (e.i_white_win_draw / (d1 * d1) + e.i_white_loss_draw / (d2 * d2) + e.j_white_win_draw / (d3 * d3) +
            e.j_white_loss_draw / (d4 * d4)) *
           gp * go * td * tw;
}

// exactdist (A.2 "Confidence intervals"): for each player, the likelihood of its own games
// (prior included) over a grid of its rating, the others shifted by -delta/(N-1) so the mean
// stays 0; the bounds come from that curve.
//
// Speed: with rho = gamma_i/gamma_j = E(x) * exp(-kNatPerElo r_j), the log-likelihood is
//   A_i ln E(x) - sum_j [a1 ln(tw rho + td) + a2 ln(td tw rho + 1) + a3 ln(tw + td rho) + a4 ln(td tw + rho)]
// plus a constant, so each grid point costs 4 logs per opponent and nothing per non-opponent.
// The curve is log-concave, so it is evaluated outward from the rating until it falls 40 nats
// below its maximum; the points left out weigh less than e^-40 each, which does not change a
// double-precision sum of the normalised curve.
void exact_intervals(const Condensed& c, const std::vector<double>& elo, double tw, double td, const EloOptions& o,
                     std::vector<double>& lower, std::vector<double>& upper) {
    const int n = c.n;
    lower.assign(static_cast<std::size_t>(n), 0);
    upper.assign(static_cast<std::size_t>(n), 0);
    std::vector<double> inverse_exp(static_cast<std::size_t>(n));
    for (int j = 0; j < n; ++j) inverse_exp[j] = std::exp(-kNatPerElo * elo[j]);
    const int points = std::max(2, o.grid_points);
    const double tdw = td * tw;
    constexpr double kCutoffNats = 40;

    auto one_player = [&](int p, std::vector<double>& loglik, std::vector<char>& done) {
        GridDistribution dist{o.grid_min_elo, o.grid_max_elo, {}};
        dist.p.assign(static_cast<std::size_t>(points), 0.0);
        loglik.assign(static_cast<std::size_t>(points), 0.0);
        done.assign(static_cast<std::size_t>(points), 0);
        const double shift_share = n > 1 ? 1.0 / (n - 1) : 0.0;
        auto evaluate = [&](int index) {
            const double x = dist.value(index);
            const double delta = (x - elo[p]) * shift_share;
            const double ln_e = kNatPerElo * (x + delta);
            const double e_x = std::exp(ln_e);
            double sum = c.successes[p] * ln_e;
            for (std::size_t k = c.first_edge[p]; k < c.first_edge[p + 1]; ++k) {
                const Edge& e = c.edges[k];
                const double rho = e_x * inverse_exp[e.opponent];
                sum -= e.i_white_win_draw * std::log(tw * rho + td) + e.i_white_loss_draw * std::log(tdw * rho + 1) +
                       e.j_white_win_draw * std::log(tw + td * rho) + e.j_white_loss_draw * std::log(tdw + rho);
            }
            loglik[static_cast<std::size_t>(index)] = sum;
            done[static_cast<std::size_t>(index)] = 1;
            return sum;
        };
        const double position = (elo[p] - o.grid_min_elo) / (o.grid_max_elo - o.grid_min_elo) * (points - 1);
        const int centre = std::clamp(static_cast<int>(std::lround(position)), 0, points - 1);
        double best = evaluate(centre);
        for (int i = centre - 1; i >= 0; --i) {
            const double v = evaluate(i);
            best = std::max(best, v);
            if (v < best - kCutoffNats) break;
        }
        for (int i = centre + 1; i < points; ++i) {
            const double v = evaluate(i);
            best = std::max(best, v);
            if (v < best - kCutoffNats) break;
        }
        for (int i = 0; i < points; ++i) {
            if (done[static_cast<std::size_t>(i)]) dist.p[static_cast<std::size_t>(i)] = std::exp(loglik[static_cast<std::size_t>(i)] - best);
        }
        dist.normalise();
        lower[p] = elo[p] - dist.bound(o.confidence, false);
        upper[p] = dist.bound(o.confidence, true) - elo[p];
    };

    int threads = o.threads > 0 ? o.threads : static_cast<int>(std::thread::hardware_concurrency());
    threads = std::clamp(threads, 1, std::max(1, n / 8));
    std::atomic<int> next{0};
    auto worker = [&] {
        std::vector<double> loglik;
        std::vector<char> done;
        for (int p; (p = next.fetch_add(1)) < n;) one_player(p, loglik, done);
    };
    std::vector<std::thread> pool;
    for (int t = 1; t < threads; ++t) pool.emplace_back(worker);
    worker();
    for (auto& t : pool) t.join();
}

// Covariance of the mean-centred ratings (model Elo units): the negative Hessian with the last
// player dropped to fix the gauge, inverted (Cholesky, as it is positive definite), padded with
// zeros for the dropped player, then centred on both sides: C = A S A^T with A = I - 11^T/n.
std::vector<double> covariance_matrix(const Condensed& c, const std::vector<double>& gamma, double tw, double td) {
    const int n = c.n;
    std::vector<double> cov(static_cast<std::size_t>(n) * n, 0.0);
    if (n < 2) return cov;
    const int m = n - 1;
    const double k2 = kNatPerElo * kNatPerElo;
    std::vector<double> h(static_cast<std::size_t>(m) * m, 0.0);
    for (int p = 0; p < m; ++p) {
        double diagonal = 0;
        for (std::size_t k = c.first_edge[p]; k < c.first_edge[p + 1]; ++k) {
            const Edge& e = c.edges[k];
            const double curvature = edge_curvature(e, gamma[p], gamma[e.opponent], tw, td) * k2;
            diagonal += curvature;
            if (e.opponent < m) h[static_cast<std::size_t>(p) * m + e.opponent] = -curvature;
        }
        h[static_cast<std::size_t>(p) * m + p] = diagonal;
    }
    // In-place Cholesky: lower triangle of h becomes L with h = L L^T.
    for (int j = 0; j < m; ++j) {
        double* row_j = &h[static_cast<std::size_t>(j) * m];
        const double original = row_j[j];
        double d = original;
        for (int k = 0; k < j; ++k) d -= row_j[k] * row_j[k];
        // Relative test: a singular Hessian leaves round-off, not an exact 0, on the pivot.
        if (!(d > 1e-10 * original))
            throw UserError("the results do not determine every rating difference (groups of players that never "
                            "met, or prior 0 with an unbeaten player); covariance intervals and LOS are undefined, "
                            "use --intervals exact");
        const double ljj = std::sqrt(d);
        row_j[j] = ljj;
        for (int i = j + 1; i < m; ++i) {
            double* row_i = &h[static_cast<std::size_t>(i) * m];
            double s = row_i[j];
            for (int k = 0; k < j; ++k) s -= row_i[k] * row_j[k];
            row_i[j] = s / ljj;
        }
    }
    // Inverse of L (lower triangular), then S = L^-T L^-1.
    std::vector<double> inv_l(static_cast<std::size_t>(m) * m, 0.0);
    for (int i = 0; i < m; ++i) {
        inv_l[static_cast<std::size_t>(i) * m + i] = 1.0 / h[static_cast<std::size_t>(i) * m + i];
        for (int j = 0; j < i; ++j) {
            double s = 0;
            for (int k = j; k < i; ++k) s += h[static_cast<std::size_t>(i) * m + k] * inv_l[static_cast<std::size_t>(k) * m + j];
            inv_l[static_cast<std::size_t>(i) * m + j] = -s / h[static_cast<std::size_t>(i) * m + i];
        }
    }
    // S_ij = sum_k inv_l[k][i] inv_l[k][j] for k >= max(i, j).
    std::vector<double> s(static_cast<std::size_t>(n) * n, 0.0);
    for (int k = 0; k < m; ++k) {
        const double* row = &inv_l[static_cast<std::size_t>(k) * m];
        for (int i = 0; i <= k; ++i) {
            const double v = row[i];
            if (v == 0) continue;
            double* out = &s[static_cast<std::size_t>(i) * n];
            for (int j = 0; j <= k; ++j) out[j] += v * row[j];
        }
    }
    // Double centring.
    std::vector<double> row_mean(static_cast<std::size_t>(n), 0.0);
    double total_mean = 0;
    for (int i = 0; i < n; ++i) {
        double sum = 0;
        for (int j = 0; j < n; ++j) sum += s[static_cast<std::size_t>(i) * n + j];
        row_mean[i] = sum / n;
        total_mean += sum;
    }
    total_mean /= static_cast<double>(n) * n;
    for (int i = 0; i < n; ++i)
        for (int j = 0; j < n; ++j)
            cov[static_cast<std::size_t>(i) * n + j] =
                s[static_cast<std::size_t>(i) * n + j] - row_mean[i] - row_mean[j] + total_mean;
    return cov;
}

}  // namespace

RatingResult rate(const ResultSet& results, const EloOptions& options) {
    if (results.games().empty()) throw UserError("no results to rate (the selection has no games)");
    if (!(options.confidence > 0 && options.confidence < 1))
        throw UserError(fmt::format("confidence {} is not between 0 and 1", options.confidence));
    if (options.prior < 0) throw UserError(fmt::format("prior {} is negative", options.prior));
    if (options.grid_points < 2 || !(options.grid_max_elo > options.grid_min_elo))
        throw UserError("the exactdist grid needs at least 2 points and max > min");

    const Condensed c = condense(results, options.prior);
    const Fit fit = minorize_maximize(c, options);
    const std::vector<double> elo = centred_elos(fit.gamma);
    const double tw = fit.theta_white, td = fit.theta_draw;

    RatingResult out;
    out.advantage = options.fit_advantage ? theta_to_elo(tw) : options.advantage;
    out.drawelo = options.fit_drawelo ? theta_to_elo(td) : options.drawelo;
    out.sweeps = fit.sweeps;
    out.converged = fit.converged;
    out.player_count = static_cast<std::size_t>(c.n);
    out.model_elo.assign(results.players().size(), 0.0);
    for (int i = 0; i < c.n; ++i) out.model_elo[c.model_to_player[i]] = elo[i];

    // A.2 "Display scale": set by mm from the drawelo it used or fitted.
    if (options.scale) {
        out.scale = *options.scale;
    } else {
        const double x = std::pow(10.0, -out.drawelo / 400.0);
        out.scale = 4 * x / ((1 + x) * (1 + x));
    }

    // The reference state is the recomputed gammas of the centred Elos, as bayeselo converts
    // back before computing variances.
    std::vector<double> gamma(static_cast<std::size_t>(c.n));
    for (int i = 0; i < c.n; ++i) gamma[i] = elo_to_theta(elo[i]);

    std::vector<double> lower(static_cast<std::size_t>(c.n)), upper(static_cast<std::size_t>(c.n));
    const bool need_covariance =
        options.intervals == IntervalMethod::covariance || options.want_covariance || options.want_los;
    std::vector<double> cov;
    if (need_covariance) cov = covariance_matrix(c, gamma, tw, td);

    switch (options.intervals) {
        case IntervalMethod::exact_distribution:
            exact_intervals(c, elo, tw, td, options, lower, upper);
            break;
        case IntervalMethod::covariance: {
            const double z = discretised_normal_quantile(options.confidence);
            for (int i = 0; i < c.n; ++i)
                lower[i] = upper[i] = z * std::sqrt(std::max(0.0, cov[static_cast<std::size_t>(i) * c.n + i]));
            break;
        }
        case IntervalMethod::hessian_diagonal: {
            const double z = discretised_normal_quantile(options.confidence);
            for (int p = 0; p < c.n; ++p) {
                double curvature = 0;
                for (std::size_t k = c.first_edge[p]; k < c.first_edge[p + 1]; ++k)
                    curvature += edge_curvature(c.edges[k], gamma[p], gamma[c.edges[k].opponent], tw, td);
                lower[p] = upper[p] = z * std::sqrt(1.0 / (curvature * kNatPerElo * kNatPerElo));
            }
            break;
        }
    }

    // Offset: either given, or chosen so that the anchor player shows `offset`.
    out.offset = options.offset;
    if (options.offset_anchor) {
        const int anchor = results.find_player(*options.offset_anchor);
        if (anchor < 0) throw UserError(fmt::format("offset anchor '{}' is not a rated player", *options.offset_anchor));
        out.offset = options.offset - out.scale * out.model_elo[anchor];
    }

    // Rows sorted by internal rating, best first (A.3); ties keep player order.
    std::vector<int> order(static_cast<std::size_t>(c.n));
    for (int i = 0; i < c.n; ++i) order[i] = i;
    std::stable_sort(order.begin(), order.end(), [&](int a, int b) { return elo[a] > elo[b]; });
    for (int rank = 0; rank < c.n; ++rank) {
        const int i = order[rank];
        RatingRow row;
        row.rank = rank + 1;
        row.player = c.model_to_player[i];
        row.name = results.players()[row.player];
        row.elo = out.scale * elo[i] + out.offset;
        row.plus = out.scale * upper[i];
        row.minus = out.scale * lower[i];
        row.games = c.games[i];
        row.wins = c.wins[i];
        row.losses = c.losses[i];
        row.draw_count = c.draws[i];
        const double games = static_cast<double>(c.games[i]);
        row.score = (static_cast<double>(c.wins[i]) + 0.5 * static_cast<double>(c.draws[i])) / games;
        row.draws = static_cast<double>(c.draws[i]) / games;
        double opponent_total = 0;
        for (std::size_t k = c.first_edge[i]; k < c.first_edge[i + 1]; ++k)
            opponent_total += c.edges[k].real_games * elo[c.edges[k].opponent];
        row.oppo = out.scale * (opponent_total / games) + out.offset;
        out.rows.push_back(std::move(row));
    }

    // Covariance and LOS over ResultSet player indices (players without games stay 0).
    if (need_covariance) {
        const std::size_t players = results.players().size();
        out.covariance.assign(players * players, 0.0);
        for (int i = 0; i < c.n; ++i)
            for (int j = 0; j < c.n; ++j)
                out.covariance[static_cast<std::size_t>(c.model_to_player[i]) * players + c.model_to_player[j]] =
                    cov[static_cast<std::size_t>(i) * c.n + j];
        if (options.want_los || options.intervals == IntervalMethod::covariance) {
            out.los.assign(players * players, 0.0);
            for (int i = 0; i < c.n; ++i) {
                for (int j = 0; j < c.n; ++j) {
                    if (i == j) continue;
                    const double variance = cov[static_cast<std::size_t>(i) * c.n + i] +
                                            cov[static_cast<std::size_t>(j) * c.n + j] -
                                            2 * cov[static_cast<std::size_t>(i) * c.n + j];
                    // P(r_i > r_j) = Phi((r_i - r_j) / sigma) = erfc((r_j - r_i) / (sigma sqrt 2)) / 2
                    const double los = 0.5 * std::erfc((elo[j] - elo[i]) / std::sqrt(2 * variance));
                    out.los[static_cast<std::size_t>(c.model_to_player[i]) * players + c.model_to_player[j]] = los;
                }
            }
        }
    }
    return out;
}

double prior_demo_difference(double prior, int wins, const EloOptions& options) {
    // As bayeselo's `prior` command: k games, player 0 White each time and winning each.
    ResultSet results;
    results.player_index("winner");
    results.player_index("loser");
    for (int k = 0; k < wins; ++k) results.add_game(0, 1, Outcome::white_wins);
    EloOptions o = options;
    o.prior = prior;
    o.fit_advantage = o.fit_drawelo = false;
    const Condensed c = condense(results, prior);
    const Fit fit = minorize_maximize(c, o);
    const std::vector<double> elo = centred_elos(fit.gamma);
    return elo[0] - elo[1];
}

std::string format_ratings_table(const RatingResult& result) {
    std::size_t width = 4;
    for (const RatingRow& row : result.rows) width = std::max(width, row.name.size());
    std::string out = fmt::format("{:>4} {:<{}} {:>5} {:>4} {:>4} {:>5} {:>5} {:>5} {:>5} \n", "Rank", "Name", width,
                                  "Elo", "+", "-", "games", "score", "oppo.", "draws");
    for (const RatingRow& row : result.rows) {
        out += fmt::format("{:>4} {:<{}} {:>5} {:>4} {:>4} {:>5} {:>4}% {:>5} {:>4}% \n", row.rank, row.name, width,
                           round_half_away(row.elo), round_half_away(row.plus), round_half_away(row.minus), row.games,
                           round_half_away(100 * row.score), round_half_away(row.oppo),
                           round_half_away(100 * row.draws));
    }
    return out;
}

std::string format_los_matrix(const RatingResult& result, int first, int count, int width) {
    const int rows = static_cast<int>(result.rows.size());
    if (width < 2) width = 2;
    if (first < 0) first = 0;
    if (count <= 0 || first + count > rows) count = rows - first;
    if (count <= 0) {
        first = 0;
        count = rows;
    }
    if (result.los.empty()) throw std::logic_error("format_los_matrix: LOS was not computed (set want_los)");
    const std::size_t players = static_cast<std::size_t>(std::sqrt(static_cast<double>(result.los.size())) + 0.5);
    const double multiplier = std::pow(10.0, std::min(width, 8) - 1);
    std::size_t name_width = 0;
    for (const RatingRow& row : result.rows) name_width = std::max(name_width, row.name.size());

    std::string out = fmt::format("{:<{}} ", "", name_width);
    for (int q = first; q < first + count; ++q)
        out += fmt::format("{:>{}}", result.rows[q].name.substr(0, static_cast<std::size_t>(width - 1)), width);
    out += '\n';
    for (int p = first; p < first + count; ++p) {
        out += fmt::format("{:<{}} ", result.rows[p].name, name_width);
        for (int q = first; q < first + count; ++q) {
            if (p == q) {
                out += fmt::format("{:>{}}", "", width);
            } else {
                // Truncated, not rounded (A.2 "los").
                const double los = result.los[static_cast<std::size_t>(result.rows[p].player) * players +
                                              static_cast<std::size_t>(result.rows[q].player)];
                out += fmt::format("{:>{}}", static_cast<long long>(los * multiplier), width);
            }
        }
        out += '\n';
    }
    return out;
}

}  // namespace arb::rating
