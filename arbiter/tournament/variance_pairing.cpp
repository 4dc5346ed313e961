#include "arbiter/tournament/variance_pairing.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numbers>
#include <stdexcept>

namespace arb::tournament {
namespace {

// c = ln 10 / 400: Elo to natural-log odds (planowanie.md 5.2).
constexpr double kC = std::numbers::ln10 / 400.0;

double logistic_elo(double x) { return 1.0 / (1.0 + std::pow(10.0, -x / 400.0)); }

// Solves A x = b in place for a small dense k x k system (Gaussian elimination, partial
// pivoting). A is row-major. The matrices here are I + M S with M, S positive semi-definite,
// so they are never singular; a zero pivot would be our bug.
void solve_small(std::vector<double>& a, std::vector<double>& b, std::size_t k) {
    for (std::size_t col = 0; col < k; ++col) {
        std::size_t pivot = col;
        for (std::size_t r = col + 1; r < k; ++r)
            if (std::abs(a[r * k + col]) > std::abs(a[pivot * k + col])) pivot = r;
        if (a[pivot * k + col] == 0) throw std::logic_error("variance_reduction: singular system");
        if (pivot != col) {
            for (std::size_t c = 0; c < k; ++c) std::swap(a[col * k + c], a[pivot * k + c]);
            std::swap(b[col], b[pivot]);
        }
        for (std::size_t r = col + 1; r < k; ++r) {
            const double f = a[r * k + col] / a[col * k + col];
            if (f == 0) continue;
            for (std::size_t c = col; c < k; ++c) a[r * k + c] -= f * a[col * k + c];
            b[r] -= f * b[col];
        }
    }
    for (std::size_t i = k; i-- > 0;) {
        double s = b[i];
        for (std::size_t c = i + 1; c < k; ++c) s -= a[i * k + c] * b[c];
        b[i] = s / a[i * k + i];
    }
}

double pair_meetings(std::span<const double> meetings, std::size_t n, std::span<const int> group) {
    if (meetings.empty()) return 0;
    double total = 0;
    for (std::size_t i = 0; i < group.size(); ++i)
        for (std::size_t j = i + 1; j < group.size(); ++j) total += meetings[group[i] * n + group[j]];
    return total;
}

struct Scored {
    double reduction = -1;
    double meetings = 0;
};

// Larger reduction wins; a tie within rounding goes to the set whose pairs met less.
bool better(const Scored& a, const Scored& b) {
    const double tolerance = 1e-12 * std::max({1.0, std::abs(a.reduction), std::abs(b.reduction)});
    if (std::abs(a.reduction - b.reduction) > tolerance) return a.reduction > b.reduction;
    return a.meetings < b.meetings;
}

std::vector<double> unit_target(std::size_t n, int player) {
    std::vector<double> t(n, 0.0);
    t[player] = 1.0;
    return t;
}

double game_information_impl(double delta_elo, double drawelo) {
    const double fw = logistic_elo(delta_elo - drawelo);
    const double fl = logistic_elo(-delta_elo - drawelo);
    const double pd = 1.0 - fw - fl;
    const double gw = fw * (1 - fw), gl = fl * (1 - fl);
    double info = fw * (1 - fw) * (1 - fw) + fl * (1 - fl) * (1 - fl);
    if (pd > 1e-15) info += (gw - gl) * (gw - gl) / pd;
    return kC * kC * info;
}

double effective_difference_impl(double mu_delta, double var_delta) {
    return mu_delta / std::sqrt(1.0 + std::numbers::pi * kC * kC * std::max(0.0, var_delta) / 8.0);
}

// Sigma a, over all players: computed once per anchor, then read per candidate group.
std::vector<double> sigma_times(const RatingModel& model, std::span<const double> target) {
    const std::size_t n = model.size();
    std::vector<double> out(n, 0.0);
    for (std::size_t q = 0; q < n; ++q) {
        if (target[q] == 0) continue;
        for (std::size_t p = 0; p < n; ++p) out[p] += model.cov(p, q) * target[q];
    }
    return out;
}

double reduction_given_sigma_target(const RatingModel& model, std::span<const int> group,
                                    std::span<const double> sigma_target, double games_per_pair) {
    const std::size_t k = group.size();
    if (k < 2) return 0;
    // S = the group's covariance block; v = (Sigma a) on the group's coordinates.
    std::vector<double> s(k * k), v(k, 0.0);
    for (std::size_t i = 0; i < k; ++i) {
        for (std::size_t j = 0; j < k; ++j) s[i * k + j] = model.cov(group[i], group[j]);
        v[i] = sigma_target[group[i]];
    }
    // M = K * sum_{i<j} w_ij (e_i - e_j)(e_i - e_j)^T  (rows sum to zero).
    std::vector<double> m(k * k, 0.0);
    for (std::size_t i = 0; i < k; ++i) {
        for (std::size_t j = i + 1; j < k; ++j) {
            const double mu = model.elo[group[i]] - model.elo[group[j]];
            const double var = s[i * k + i] + s[j * k + j] - 2 * s[i * k + j];
            const double w = games_per_pair * game_information_impl(effective_difference_impl(mu, var), model.drawelo);
            m[i * k + i] += w;
            m[j * k + j] += w;
            m[i * k + j] -= w;
            m[j * k + i] -= w;
        }
    }
    // x = (I + M S)^-1 M v; reduction = v^T x.
    std::vector<double> a(k * k, 0.0), mv(k, 0.0);
    for (std::size_t i = 0; i < k; ++i) {
        for (std::size_t j = 0; j < k; ++j) {
            double sum = i == j ? 1.0 : 0.0;
            for (std::size_t p = 0; p < k; ++p) sum += m[i * k + p] * s[p * k + j];
            a[i * k + j] = sum;
            mv[i] += m[i * k + j] * v[j];
        }
    }
    solve_small(a, mv, k);
    double reduction = 0;
    for (std::size_t i = 0; i < k; ++i) reduction += v[i] * mv[i];
    return reduction;
}

}  // namespace

double variance_reduction(const RatingModel& model, std::span<const int> group, std::span<const double> target,
                          double games_per_pair) {
    const auto sigma_target = sigma_times(model, target);
    return reduction_given_sigma_target(model, group, sigma_target, games_per_pair);
}

double game_information(double delta_elo, double drawelo) { return game_information_impl(delta_elo, drawelo); }
double effective_difference(double mu_delta, double var_delta) { return effective_difference_impl(mu_delta, var_delta); }

std::vector<int> best_opponents(const RatingModel& model, int anchor, std::span<const int> pool,
                                std::span<const double> target, std::span<const double> meetings,
                                const PairingOptions& options) {
    const std::size_t need = static_cast<std::size_t>(std::max(0, options.group_size - 1));
    const std::size_t n = model.size();
    if (pool.size() <= need) return {pool.begin(), pool.end()};

    // How many opponent sets an exhaustive search would score: C(|pool|, need), capped.
    double combinations = 1;
    for (std::size_t i = 0; i < need; ++i) combinations = combinations * double(pool.size() - i) / double(i + 1);

    const auto sigma_target = sigma_times(model, target);
    std::vector<int> group{anchor};
    auto score = [&](const std::vector<int>& g) {
        return Scored{reduction_given_sigma_target(model, g, sigma_target, options.games_per_pair),
                      pair_meetings(meetings, n, g)};
    };

    if (combinations <= double(options.exhaustive_limit)) {
        // Every set of `need` opponents, in lexicographic order of pool positions.
        std::vector<std::size_t> pick(need);
        for (std::size_t i = 0; i < need; ++i) pick[i] = i;
        std::vector<int> best;
        Scored best_score;
        while (true) {
            group.resize(1);
            for (std::size_t i : pick) group.push_back(pool[i]);
            const Scored s = score(group);
            if (best.empty() || better(s, best_score)) {
                best.assign(group.begin() + 1, group.end());
                best_score = s;
            }
            std::size_t i = need;
            while (i > 0 && pick[i - 1] == pool.size() - need + (i - 1)) --i;
            if (i == 0) break;
            ++pick[i - 1];
            for (std::size_t j = i; j < need; ++j) pick[j] = pick[j - 1] + 1;
        }
        return best;
    }

    // Greedy: add the opponent that helps most given those already chosen.
    std::vector<char> used(pool.size(), 0);
    for (std::size_t step = 0; step < need; ++step) {
        std::size_t best_i = pool.size();
        Scored best_score;
        for (std::size_t i = 0; i < pool.size(); ++i) {
            if (used[i]) continue;
            group.push_back(pool[i]);
            const Scored s = score(group);
            group.pop_back();
            if (best_i == pool.size() || better(s, best_score)) {
                best_i = i;
                best_score = s;
            }
        }
        used[best_i] = 1;
        group.push_back(pool[best_i]);
    }
    return {group.begin() + 1, group.end()};
}

PairingResult variance_minimising_groups(const RatingModel& model, std::span<const int> candidates,
                                         std::span<const double> meetings, const PairingOptions& options) {
    std::vector<int> unassigned(candidates.begin(), candidates.end());
    std::stable_sort(unassigned.begin(), unassigned.end(), [&](int a, int b) {
        if (model.elo[a] != model.elo[b]) return model.elo[a] > model.elo[b];
        return a < b;
    });
    PairingResult result;
    const std::size_t size = static_cast<std::size_t>(options.group_size);
    while (unassigned.size() >= size && size > 0) {
        const int anchor = unassigned.front();
        std::vector<int> pool(unassigned.begin() + 1, unassigned.end());
        const auto target = unit_target(model.size(), anchor);
        std::vector<int> group{anchor};
        for (int b : best_opponents(model, anchor, pool, target, meetings, options)) group.push_back(b);
        for (int member : group) unassigned.erase(std::find(unassigned.begin(), unassigned.end(), member));
        result.groups.push_back(std::move(group));
    }
    result.left_over = std::move(unassigned);
    return result;
}

}  // namespace arb::tournament
