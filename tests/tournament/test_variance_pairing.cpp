// Variance-minimising pairing (planowanie.md section 5): the 4x4 block formula must agree with
// a full inverse, and the group choice must follow the seed's loop.
#include <doctest/doctest.h>

#include <cmath>
#include <numeric>
#include <set>

#include "core/rng.hpp"
#include "arbiter/tournament/variance_pairing.hpp"

using namespace arb::tournament;

namespace {

// Gauss-Jordan inverse of a small dense matrix (row-major), for checking only.
std::vector<double> inverse(std::vector<double> a, std::size_t n) {
    std::vector<double> inv(n * n, 0.0);
    for (std::size_t i = 0; i < n; ++i) inv[i * n + i] = 1;
    for (std::size_t c = 0; c < n; ++c) {
        std::size_t p = c;
        for (std::size_t r = c + 1; r < n; ++r)
            if (std::abs(a[r * n + c]) > std::abs(a[p * n + c])) p = r;
        for (std::size_t k = 0; k < n; ++k) std::swap(a[c * n + k], a[p * n + k]), std::swap(inv[c * n + k], inv[p * n + k]);
        const double d = a[c * n + c];
        for (std::size_t k = 0; k < n; ++k) a[c * n + k] /= d, inv[c * n + k] /= d;
        for (std::size_t r = 0; r < n; ++r) {
            if (r == c) continue;
            const double f = a[r * n + c];
            for (std::size_t k = 0; k < n; ++k) a[r * n + k] -= f * a[c * n + k], inv[r * n + k] -= f * inv[c * n + k];
        }
    }
    return inv;
}

// A random positive definite covariance (B B^T + diagonal) in Elo^2, and random ratings.
RatingModel random_model(std::size_t n, std::uint64_t seed) {
    arb::Rng rng(seed);
    RatingModel m;
    std::vector<double> b(n * n);
    for (auto& x : b) x = rng.unit() * 60 - 30;
    m.covariance.assign(n * n, 0.0);
    for (std::size_t i = 0; i < n; ++i)
        for (std::size_t j = 0; j < n; ++j) {
            double s = i == j ? 900.0 : 0.0;
            for (std::size_t k = 0; k < n; ++k) s += b[i * n + k] * b[j * n + k];
            m.covariance[i * n + j] = s;
        }
    for (std::size_t i = 0; i < n; ++i) {
        m.players.push_back("bot" + std::to_string(i));
        m.elo.push_back(rng.unit() * 400 - 200);
    }
    return m;
}

}  // namespace

TEST_CASE("one decisive game at equal ratings carries c^2/4 information") {
    // planowanie.md 5.2: w = c^2 p (1-p) = 8.28e-6 at p = 1/2 (no draws: drawelo -> 0).
    CHECK(game_information(0, 1e-9) == doctest::Approx(8.28e-6).epsilon(0.002));
    // Information falls with the rating gap: 0.92 of it at 100 Elo, 0.73 at 200 (no draws).
    CHECK(game_information(100, 1e-9) / game_information(0, 1e-9) == doctest::Approx(0.92).epsilon(0.01));
    CHECK(game_information(200, 1e-9) / game_information(0, 1e-9) == doctest::Approx(0.73).epsilon(0.01));
    // With a draw margin every game still informs, and symmetric in the sign of the gap.
    CHECK(game_information(150, 97.3) == doctest::Approx(game_information(-150, 97.3)));
    CHECK(game_information(0, 97.3) > 0);
}

TEST_CASE("the group block formula equals the variance from a full inverse") {
    const std::size_t n = 7;
    const RatingModel model = random_model(n, 42);
    const std::vector<int> group{2, 5, 0, 6};
    const double games = 4;
    // Full computation: Sigma' = (Sigma^-1 + E M E^T)^-1, with M built the same way.
    std::vector<double> h = inverse(model.covariance, n);
    for (std::size_t i = 0; i < group.size(); ++i)
        for (std::size_t j = i + 1; j < group.size(); ++j) {
            const int a = group[i], b = group[j];
            const double var = model.cov(a, a) + model.cov(b, b) - 2 * model.cov(a, b);
            const double w = games * game_information(effective_difference(model.elo[a] - model.elo[b], var), model.drawelo);
            h[a * n + a] += w, h[b * n + b] += w, h[a * n + b] -= w, h[b * n + a] -= w;
        }
    const std::vector<double> after = inverse(h, n);
    for (int anchor : group) {
        std::vector<double> target(n, 0.0);
        target[anchor] = 1;
        const double drop = variance_reduction(model, group, target, games);
        CHECK(drop == doctest::Approx(model.cov(anchor, anchor) - after[anchor * n + anchor]).epsilon(1e-9));
        CHECK(drop > 0);
    }
    // A combination: Var(r_2 - r_3), with 3 outside the group.
    std::vector<double> target(n, 0.0);
    target[2] = 1, target[3] = -1;
    const double before_var = model.cov(2, 2) + model.cov(3, 3) - 2 * model.cov(2, 3);
    const double after_var = after[2 * n + 2] + after[3 * n + 3] - 2 * after[2 * n + 3];
    CHECK(variance_reduction(model, group, target, games) == doctest::Approx(before_var - after_var).epsilon(1e-9));
}

TEST_CASE("two-player case matches the Sherman-Morrison closed form") {
    const RatingModel model = random_model(4, 7);
    const std::vector<int> pair{1, 3};
    std::vector<double> target(4, 0.0);
    target[1] = 1;
    const double var = model.cov(1, 1) + model.cov(3, 3) - 2 * model.cov(1, 3);
    const double w = 1 * game_information(effective_difference(model.elo[1] - model.elo[3], var), model.drawelo);
    const double expected = w * std::pow(model.cov(1, 1) - model.cov(1, 3), 2) / (1 + w * var);
    CHECK(variance_reduction(model, pair, target, 1) == doctest::Approx(expected).epsilon(1e-9));
}

TEST_CASE("the anchor prefers a close, well-measured opponent") {
    // A uncertain; B close to A and well known; C close but itself unknown; D well known but
    // 600 Elo away. One opponent per group (pairs).
    RatingModel m;
    m.players = {"A", "B", "C", "D"};
    m.elo = {100, 80, 90, -500};
    m.covariance = {10000, 0, 0, 0, 0, 100, 0, 0, 0, 0, 10000, 0, 0, 0, 0, 100};
    PairingOptions options;
    options.group_size = 2;
    const std::vector<int> pool{1, 2, 3};
    const std::vector<double> target{1, 0, 0, 0};
    CHECK(best_opponents(m, 0, pool, target, {}, options) == std::vector<int>{1});
}

TEST_CASE("the seed's loop places everyone, anchors by rating, and ties go to pairs that met less") {
    const RatingModel model = random_model(12, 99);
    std::vector<int> all(12);
    std::iota(all.begin(), all.end(), 0);
    PairingOptions options;
    const PairingResult result = variance_minimising_groups(model, all, {}, options);
    REQUIRE(result.groups.size() == 3);
    CHECK(result.left_over.empty());
    std::set<int> seen;
    for (const auto& g : result.groups) {
        CHECK(g.size() == 4);
        seen.insert(g.begin(), g.end());
    }
    CHECK(seen.size() == 12);
    // Each anchor is the best-rated of the bots not placed before it.
    std::set<int> placed;
    for (const auto& g : result.groups) {
        for (int i = 0; i < 12; ++i)
            if (!placed.count(i)) CHECK(model.elo[g[0]] >= model.elo[i]);
        placed.insert(g.begin(), g.end());
    }

    // Identical opponents: the one A met less is chosen.
    RatingModel same;
    same.players = {"A", "B", "C"};
    same.elo = {0, 0, 0};
    same.covariance = {400, 0, 0, 0, 400, 0, 0, 0, 400};
    std::vector<double> meetings(9, 0.0);
    meetings[0 * 3 + 1] = meetings[1 * 3 + 0] = 5;
    options.group_size = 2;
    const std::vector<int> pool{1, 2};
    CHECK(best_opponents(same, 0, pool, std::vector<double>{1, 0, 0}, meetings, options) == std::vector<int>{2});
}

TEST_CASE("greedy choice for large pools gives valid groups") {
    const RatingModel model = random_model(40, 5);
    std::vector<int> all(40);
    std::iota(all.begin(), all.end(), 0);
    PairingOptions options;
    options.exhaustive_limit = 0;  // force greedy
    const PairingResult result = variance_minimising_groups(model, all, {}, options);
    CHECK(result.groups.size() == 10);
    std::set<int> seen;
    for (const auto& g : result.groups) seen.insert(g.begin(), g.end());
    CHECK(seen.size() == 40);
}
