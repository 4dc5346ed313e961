// BayesElo's intervals (rating.md A.2 "Confidence intervals", "covariance"): the exact
// per-player distribution on a grid (exactdist), and the covariance matrix of the Laplace
// approximation that the symmetric intervals and the LOS matrix come from.
#include <algorithm>
#include <atomic>
#include <cmath>
#include <thread>

#include "core/user_error.hpp"
#include "rating/bayeselo.hpp"
#include "rating/bayeselo_model.hpp"

namespace arb::rating::bayeselo_model {
namespace {

// A discretised density on an even grid of cell centres, min + (i + 0.5) (max - min) / size, as
// bayeselo evaluates it (with the end points instead, a few +/- cells of a 100-player table land
// on the other side of a rounding boundary), with bayeselo's credible-bound rule: walk in from one
// end accumulating trapezoids of the normalised values (the first point counts half), and
// interpolate linearly inside the step where the tail reaches (1 - confidence) / 2.
struct GridDistribution {
    double min = 0, max = 0;
    std::vector<double> p;

    double value(double index) const { return min + (max - min) * (index + 0.5) / static_cast<double>(p.size()); }

    void normalise() {
        double total = 0;
        for (std::size_t i = p.size(); i-- > 0;) total += p[i];  // bayeselo sums from the top down
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

// The negative Hessian of the log-likelihood over the first m = n - 1 players (the last one is
// dropped to fix the gauge), model Elo units, row-major m x m.
std::vector<double> negative_hessian_without_last(const Condensed& c, const std::vector<double>& gamma, double tw,
                                                  double td) {
    const int m = c.n - 1;
    const double k2 = kNatPerElo * kNatPerElo;
    std::vector<double> h(static_cast<std::size_t>(m) * m, 0.0);
    for (int p = 0; p < m; ++p) {
        double diagonal = 0;
        for (std::size_t k = c.first_edge[p]; k < c.first_edge[p + 1]; ++k) {
            const Edge& e = c.edges[k];
            const double curvature = edge_curvature(e, gamma[p], gamma[e.opponent], tw, td);
            diagonal += curvature;
            if (e.opponent < m) h[static_cast<std::size_t>(p) * m + e.opponent] = -(curvature * k2);
        }
        h[static_cast<std::size_t>(p) * m + p] = diagonal * k2;  // summed first, scaled once, as bayeselo
    }
    return h;
}

// In-place Cholesky of the m x m matrix h: its lower triangle becomes L with h = L L^T.
// UserError when h is singular (the ratings are not all determined).
void cholesky_in_place(std::vector<double>& h, int m) {
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
}

// S = L^-T L^-1 from the m x m Cholesky factor l, padded with zeros to n x n (n = m + 1).
std::vector<double> inverse_from_cholesky(const std::vector<double>& l, int m, int n) {
    // Inverse of L (lower triangular).
    std::vector<double> inv_l(static_cast<std::size_t>(m) * m, 0.0);
    for (int i = 0; i < m; ++i) {
        inv_l[static_cast<std::size_t>(i) * m + i] = 1.0 / l[static_cast<std::size_t>(i) * m + i];
        for (int j = 0; j < i; ++j) {
            double s = 0;
            for (int k = j; k < i; ++k) s += l[static_cast<std::size_t>(i) * m + k] * inv_l[static_cast<std::size_t>(k) * m + j];
            inv_l[static_cast<std::size_t>(i) * m + j] = -s / l[static_cast<std::size_t>(i) * m + i];
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
    return s;
}

// A S A^T with A = I - 11^T/n: the n x n matrix s centred on both sides.
std::vector<double> double_centred(const std::vector<double>& s, int n) {
    std::vector<double> row_mean(static_cast<std::size_t>(n), 0.0);
    double total_mean = 0;
    for (int i = 0; i < n; ++i) {
        double sum = 0;
        for (int j = 0; j < n; ++j) sum += s[static_cast<std::size_t>(i) * n + j];
        row_mean[i] = sum / n;
        total_mean += sum;
    }
    total_mean /= static_cast<double>(n) * n;
    std::vector<double> cov(static_cast<std::size_t>(n) * n, 0.0);
    for (int i = 0; i < n; ++i)
        for (int j = 0; j < n; ++j)
            cov[static_cast<std::size_t>(i) * n + j] =
                s[static_cast<std::size_t>(i) * n + j] - row_mean[i] - row_mean[j] + total_mean;
    return cov;
}

}  // namespace

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

// exactdist (A.2 "Confidence intervals"): for each player, the likelihood of its own games
// (prior included) over a grid of its rating, the others shifted by -delta/(N-1) so the mean
// stays 0; the bounds come from that curve.
//
// Speed: with rho = gamma_i/gamma_j = E(x) * exp(-kNatPerElo r_j), the log-likelihood is
//   A_i ln E(x) - sum_j [a1 ln(tw rho + td) + a2 ln(td tw rho + 1) + a3 ln(tw + td rho) + a4 ln(td tw + rho)]
// plus a constant (a1..a4 and A_i from the float cells taken one by one, as bayeselo's likelihood takes
// them), so each grid point costs 4 logs per opponent and nothing per non-opponent.
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
            const double sum = c.likelihood_successes[p] * ln_e - likelihood_log_terms(c, p, inverse_exp, e_x, tw, td);
            loglik[static_cast<std::size_t>(index)] = sum;
            done[static_cast<std::size_t>(index)] = 1;
            return sum;
        };
        const double position = (elo[p] - o.grid_min_elo) / (o.grid_max_elo - o.grid_min_elo) * points - 0.5;
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
    if (n < 2) return std::vector<double>(static_cast<std::size_t>(n) * n, 0.0);
    const int m = n - 1;
    std::vector<double> h = negative_hessian_without_last(c, gamma, tw, td);
    cholesky_in_place(h, m);
    return double_centred(inverse_from_cholesky(h, m, n), n);
}

}  // namespace arb::rating::bayeselo_model
