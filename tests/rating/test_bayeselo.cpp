// The BayesElo model against the numbers printed in shared/rules/rating.md, against naive
// re-computations written straight from the model's formulas, and against synthetic data with
// known true strengths (recovery and interval calibration).
#include <doctest/doctest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <numeric>

#include "core/user_error.hpp"
#include "rating/bayeselo.hpp"
#include "rating/bayeselo_model.hpp"
#include "rating/synthetic.hpp"

using namespace arb::rating;

namespace {

// The log-posterior of all games (prior draws included), written from rating.md A.2 with
// P(draw) = 1 - P(white) - P(black) computed directly, independently of the fast code.
struct NaiveModel {
    int n = 0;
    // cells[(w*n + b)] = {black wins, draws, white wins}, prior included.
    std::vector<std::array<double, 3>> cells;
    double advantage = 32.8, drawelo = 97.3;

    NaiveModel(const ResultSet& rs, double prior, double adv, double draw)
        : n(static_cast<int>(rs.players().size())), cells(static_cast<std::size_t>(n * n)), advantage(adv), drawelo(draw) {
        std::vector<double> games(static_cast<std::size_t>(n), 0);
        std::vector<double> pair_games(static_cast<std::size_t>(n * n), 0);
        for (const auto& g : rs.games()) {
            cells[static_cast<std::size_t>(g.white * n + g.black)][static_cast<int>(g.outcome)] += 1;
            games[g.white] += 1;
            games[g.black] += 1;
            pair_games[g.white * n + g.black] += 1;
            pair_games[g.black * n + g.white] += 1;
        }
        for (int i = 0; i < n; ++i)
            for (int j = 0; j < n; ++j)
                if (i != j && pair_games[i * n + j] > 0)
                    cells[i * n + j][1] += prior / 4 * pair_games[i * n + j] * (1 / games[i] + 1 / games[j]);
    }

    double loglik_cell(int w, int b, double rw, double rb) const {
        auto f = [](double x) { return 1 / (1 + std::pow(10.0, -x / 400)); };
        const auto& c = cells[w * n + b];
        const double pw = f(rw - rb + advantage - drawelo);
        const double pb = f(rb - rw - advantage - drawelo);
        double s = 0;
        if (c[0] > 0) s += c[0] * std::log(pb);
        if (c[1] > 0) s += c[1] * std::log(1 - pw - pb);
        if (c[2] > 0) s += c[2] * std::log(pw);
        return s;
    }
    double log_posterior(const std::vector<double>& r) const {
        double s = 0;
        for (int i = 0; i < n; ++i)
            for (int j = 0; j < n; ++j)
                if (i != j) s += loglik_cell(i, j, r[i], r[j]);
        return s;
    }
    // The player's own games with the others shifted so the mean stays put.
    double player_loglik(int p, double x, const std::vector<double>& r) const {
        const double shift = (x - r[p]) / (n - 1);
        double s = 0;
        for (int j = 0; j < n; ++j) {
            if (j == p) continue;
            s += loglik_cell(p, j, x, r[j] - shift) + loglik_cell(j, p, r[j] - shift, x);
        }
        return s;
    }
};

ResultSet small_results(std::uint64_t seed, int players = 8, int per_pair = 20) {
    SyntheticSpec spec;
    spec.players = players;
    spec.games = per_pair;
    spec.layout = SyntheticSpec::Layout::all_pairs;
    spec.advantage = 40;
    spec.drawelo = 150;
    spec.seed = seed;
    return generate_synthetic(spec).results;
}

// `games` games between random pairs of `players`, drawn with the model's default parameters.
SyntheticSpec random_games(int players, std::int64_t games, std::uint64_t seed) {
    SyntheticSpec spec;
    spec.players = players;
    spec.games = games;
    spec.seed = seed;
    return spec;
}

}  // namespace

TEST_CASE("prior demo reproduces the table in rating.md A.2") {
    // prior 2: +89.3 +150.2 +195.8 +232.2 +262.4 ; prior 10: +21.3 +40.5 +58.1 +74.3 +89.3
    const double prior2[] = {89.3, 150.2, 195.8, 232.2, 262.4};
    const double prior10[] = {21.3, 40.5, 58.1, 74.3, 89.3};
    for (int k = 1; k <= 5; ++k) {
        CHECK(std::fabs(prior_demo_difference(2, k) - prior2[k - 1]) < 0.05);
        CHECK(std::fabs(prior_demo_difference(10, k) - prior10[k - 1]) < 0.05);
    }
}

TEST_CASE("display scale is 0.9255 at the default drawelo and scales every printed number") {
    const ResultSet rs = small_results(3);
    EloOptions o;
    o.intervals = IntervalMethod::covariance;
    const RatingResult r = rate(rs, o);
    CHECK(r.scale == doctest::Approx(0.9255).epsilon(0.0002));
    for (const RatingRow& row : r.rows) CHECK(row.elo == doctest::Approx(r.scale * r.model_elo[row.player]));
    EloOptions unscaled = o;
    unscaled.scale = 1.0;
    const RatingResult r1 = rate(rs, unscaled);
    CHECK(r1.rows.front().elo == doctest::Approx(r.rows.front().elo / r.scale));
    CHECK(r1.rows.front().plus == doctest::Approx(r.rows.front().plus / r.scale));
}

TEST_CASE("mm finds the maximum of the log-posterior and centres ratings on 0") {
    const ResultSet rs = small_results(11);
    EloOptions o;
    o.intervals = IntervalMethod::hessian_diagonal;
    const RatingResult r = rate(rs, o);
    CHECK(r.converged);
    const double mean = std::accumulate(r.model_elo.begin(), r.model_elo.end(), 0.0) / r.model_elo.size();
    CHECK(std::fabs(mean) < 1e-9);
    const NaiveModel naive(rs, 2.0, 32.8, 97.3);
    const double best = naive.log_posterior(r.model_elo);
    // Any single rating moved by 1 Elo (others fixed) lowers the posterior.
    for (std::size_t i = 0; i < r.model_elo.size(); ++i) {
        for (double h : {-1.0, 1.0}) {
            auto moved = r.model_elo;
            moved[i] += h;
            CHECK(naive.log_posterior(moved) < best);
        }
    }
    // And the gradient is ~0: central difference per player.
    for (std::size_t i = 0; i < r.model_elo.size(); ++i) {
        auto up = r.model_elo, down = r.model_elo;
        up[i] += 0.01;
        down[i] -= 0.01;
        CHECK(std::fabs((naive.log_posterior(up) - naive.log_posterior(down)) / 0.02) < 1e-3);
    }
}

TEST_CASE("exactdist intervals equal a naive full-grid computation") {
    const ResultSet rs = small_results(5, 6, 12);
    EloOptions o;  // default: exactdist
    const RatingResult r = rate(rs, o);
    const NaiveModel naive(rs, 2.0, 32.8, 97.3);
    // Naive: evaluate all 1001 cell centres of [-1500, 1500], normalise, walk the trapezoid tails.
    const auto x = [](double k) { return -1500 + (k + 0.5) * 3000.0 / 1001; };
    for (const RatingRow& row : r.rows) {
        const int p = row.player;
        std::vector<double> ll(1001);
        double best = -1e300;
        for (int k = 0; k < 1001; ++k) best = std::max(best, ll[k] = naive.player_loglik(p, x(k), r.model_elo));
        std::vector<double> dens(1001);
        double total = 0;
        for (int k = 0; k < 1001; ++k) total += dens[k] = std::exp(ll[k] - best);
        for (double& d : dens) d /= total;
        auto bound = [&](bool upper) {
            double tail = 0, prev = 0;
            for (int s = 0; s < 1001; ++s) {
                const int k = upper ? 1000 - s : s;
                const double next = tail + (prev + dens[k]) / 2;
                if (next >= 0.025) {
                    const double from = x(upper ? k + 1 : k - 1), to = x(k);
                    return from + (to - from) * (0.025 - tail) / (next - tail);
                }
                tail = next;
                prev = dens[k];
            }
            return 0.0;
        };
        const double minus = r.model_elo[p] - bound(false), plus = bound(true) - r.model_elo[p];
        CHECK(row.minus == doctest::Approx(r.scale * minus).epsilon(1e-6));
        CHECK(row.plus == doctest::Approx(r.scale * plus).epsilon(1e-6));
    }
}

TEST_CASE("covariance is centred and its diagonal matches a numerical Hessian") {
    const ResultSet rs = small_results(21, 5, 30);
    EloOptions o;
    o.intervals = IntervalMethod::covariance;
    o.want_los = true;
    const RatingResult r = rate(rs, o);
    const std::size_t n = rs.players().size();
    REQUIRE(r.covariance.size() == n * n);
    for (std::size_t i = 0; i < n; ++i) {
        double row = 0;
        for (std::size_t j = 0; j < n; ++j) {
            row += r.covariance[i * n + j];
            CHECK(r.covariance[i * n + j] == doctest::Approx(r.covariance[j * n + i]));
        }
        CHECK(std::fabs(row) < 1e-9);
    }
    // Independent route: numerical Hessian of the naive log-posterior in the gauge r_last = 0,
    // inverted by Gauss-Jordan, then centred.
    const NaiveModel naive(rs, 2.0, 32.8, 97.3);
    const int m = static_cast<int>(n) - 1;
    const double h = 0.5;
    std::vector<double> hess(m * m), inv(m * m, 0);
    for (int a = 0; a < m; ++a)
        for (int b = 0; b < m; ++b) {
            auto at = [&](double da, double db) {
                auto x = r.model_elo;
                x[a] += da;
                x[b] += db;
                return naive.log_posterior(x);
            };
            hess[a * m + b] = -(at(h, h) - at(h, -h) - at(-h, h) + at(-h, -h)) / (4 * h * h);
        }
    for (int i = 0; i < m; ++i) inv[i * m + i] = 1;
    for (int c = 0; c < m; ++c) {
        const double d = hess[c * m + c];
        for (int k = 0; k < m; ++k) {
            hess[c * m + k] /= d;
            inv[c * m + k] /= d;
        }
        for (int rr = 0; rr < m; ++rr) {
            if (rr == c) continue;
            const double f = hess[rr * m + c];
            for (int k = 0; k < m; ++k) {
                hess[rr * m + k] -= f * hess[c * m + k];
                inv[rr * m + k] -= f * inv[c * m + k];
            }
        }
    }
    std::vector<double> s(n * n, 0);
    for (int i = 0; i < m; ++i)
        for (int j = 0; j < m; ++j) s[i * n + j] = inv[i * m + j];
    std::vector<double> rowmean(n, 0);
    double all = 0;
    for (std::size_t i = 0; i < n; ++i) {
        for (std::size_t j = 0; j < n; ++j) rowmean[i] += s[i * n + j] / n;
        all += rowmean[i] / n;
    }
    for (std::size_t i = 0; i < n; ++i) {
        const double expected = s[i * n + i] - 2 * rowmean[i] + all;
        CHECK(r.covariance[i * n + i] == doctest::Approx(expected).epsilon(1e-3));
    }
    // LOS is a probability pair.
    for (std::size_t i = 0; i < n; ++i)
        for (std::size_t j = 0; j < n; ++j)
            if (i != j) CHECK(r.los[i * n + j] + r.los[j * n + i] == doctest::Approx(1.0));
}

TEST_CASE("symmetric results give equal ratings and symmetric intervals") {
    ResultSet rs;
    for (int k = 0; k < 10; ++k) {
        rs.add_game("A", "B", Outcome::white_wins);
        rs.add_game("B", "A", Outcome::white_wins);
        rs.add_game("A", "B", Outcome::draw);
        rs.add_game("B", "A", Outcome::draw);
    }
    EloOptions o;
    const RatingResult r = rate(rs, o);
    CHECK(std::fabs(r.model_elo[0]) < 1e-6);
    CHECK(std::fabs(r.model_elo[1]) < 1e-6);
    CHECK(r.rows[0].plus == doctest::Approx(r.rows[0].minus).epsilon(1e-6));
    CHECK(r.rows[0].score == doctest::Approx(0.5));
    CHECK(r.rows[0].draws == doctest::Approx(0.5));
    CHECK(r.rows[0].games == 40);
}

TEST_CASE("mm 1 1 recovers the advantage and drawelo of the generating model") {
    SyntheticSpec spec = random_games(30, 60000, 99);
    spec.advantage = 40;
    spec.drawelo = 150;
    const SyntheticData data = generate_synthetic(spec);
    EloOptions o;
    o.fit_advantage = o.fit_drawelo = true;
    o.intervals = IntervalMethod::hessian_diagonal;
    const RatingResult r = rate(data.results, o);
    CHECK(r.converged);
    CHECK(r.advantage == doctest::Approx(40).epsilon(0.1));
    CHECK(r.drawelo == doctest::Approx(150).epsilon(0.05));
    const double x = std::pow(10.0, -r.drawelo / 400);
    CHECK(r.scale == doctest::Approx(4 * x / ((1 + x) * (1 + x))));
}

TEST_CASE("ratings recover true strengths and 95 percent intervals cover them about 95 percent of the time") {
    // 200 players, 40k random games, true model = the default parameters, so printed ratings are
    // scale * truth (rating.md A.4). Coverage over 200 players: binomial sd 1.5 %, so accept 90..99 %.
    const SyntheticData data = generate_synthetic(random_games(200, 40000, 777));
    for (IntervalMethod method : {IntervalMethod::exact_distribution, IntervalMethod::covariance}) {
        EloOptions o;
        o.intervals = method;
        const RatingResult r = rate(data.results, o);
        int inside = 0;
        double sxy = 0, sxx = 0;
        for (const RatingRow& row : r.rows) {
            const double truth = r.scale * data.true_elo[row.player];
            if (truth >= row.elo - row.minus && truth <= row.elo + row.plus) ++inside;
            sxy += row.elo * truth;
            sxx += truth * truth;
        }
        const double coverage = inside / 200.0;
        CAPTURE(static_cast<int>(method));
        CHECK(coverage >= 0.90);
        CHECK(coverage <= 0.99);
        // Slope of printed on scaled truth: the prior shrinks slightly below 1.
        CHECK(sxy / sxx == doctest::Approx(0.98).epsilon(0.04));
    }
}

TEST_CASE("exactdist results do not depend on the number of threads") {
    const SyntheticData data = generate_synthetic(random_games(40, 5000, 4));
    EloOptions one, two;
    one.threads = 1;
    two.threads = 2;
    const RatingResult a = rate(data.results, one), b = rate(data.results, two);
    REQUIRE(a.rows.size() == b.rows.size());
    for (std::size_t i = 0; i < a.rows.size(); ++i) {
        CHECK(a.rows[i].plus == b.rows[i].plus);
        CHECK(a.rows[i].minus == b.rows[i].minus);
    }
    CHECK(format_ratings_table(a) == format_ratings_table(b));
}

TEST_CASE("the four-lane (AVX2) and two-lane kernels give the same bits") {
    const SyntheticData data = generate_synthetic(random_games(60, 8000, 5));
    for (const bool fit_thetas : {false, true}) {
        EloOptions o;
        o.fit_advantage = o.fit_drawelo = fit_thetas;
        o.want_los = true;
        bayeselo_model::use_portable_kernels(true);
        const RatingResult portable = rate(data.results, o);
        bayeselo_model::use_portable_kernels(false);
        const RatingResult native = rate(data.results, o);
        CAPTURE(fit_thetas);
        CHECK(portable.sweeps == native.sweeps);
        CHECK(portable.model_elo == native.model_elo);
        REQUIRE(portable.rows.size() == native.rows.size());
        for (std::size_t i = 0; i < portable.rows.size(); ++i) {
            CHECK(portable.rows[i].plus == native.rows[i].plus);
            CHECK(portable.rows[i].minus == native.rows[i].minus);
        }
        CHECK(portable.los == native.los);
    }
}

TEST_CASE("the ratings table has bayeselo's columns and widths") {
    ResultSet rs;
    rs.add_game("Bot01", "Bot02", Outcome::white_wins);
    rs.add_game("Bot02", "Bot01", Outcome::draw);
    rs.add_game("Bot01", "Bot02", Outcome::white_wins);
    EloOptions o;
    const RatingResult r = rate(rs, o);
    const std::string table = format_ratings_table(r);
    const std::string header = "Rank Name    Elo    +    - games score oppo. draws \n";
    REQUIRE(table.substr(0, header.size()) == header);
    // Row: "   1 Bot01   ddd  ddd  ddd     3   83%  -ddd   33% "
    const std::string row1 = table.substr(header.size(), table.find('\n', header.size()) - header.size() + 1);
    CHECK(row1.size() == header.size());
    CHECK(row1.substr(0, 11) == "   1 Bot01 ");
    CHECK(row1.substr(27, 6) == "    3 ");
    CHECK(row1.substr(33, 6) == "  83% ");
    CHECK(row1.substr(45, 6) == "  33% ");
    CHECK(row1.back() == '\n');
    CHECK(row1[row1.size() - 2] == ' ');
}

TEST_CASE("score and draw percentages round as bayeselo computes them, 100 * x / games") {
    // 23 points of 40 is 57.5 %: 100 * 23 / 40 is exactly 57.5 (printed 58), while
    // 100 * (23 / 40) is 57.49999... (it would print 57); the same for 23 draws in 40 games.
    ResultSet rs;
    for (int k = 0; k < 20; ++k) rs.add_game("A", "B", Outcome::white_wins);
    for (int k = 0; k < 6; ++k) rs.add_game("B", "A", Outcome::draw);
    for (int k = 0; k < 14; ++k) rs.add_game("B", "A", Outcome::white_wins);
    ResultSet drawn;
    for (int k = 0; k < 23; ++k) drawn.add_game("C", "D", Outcome::draw);
    for (int k = 0; k < 17; ++k) drawn.add_game("D", "C", Outcome::white_wins);
    const std::string table = format_ratings_table(rate(rs, EloOptions{}));
    CHECK(table.find("   40   58% ") != std::string::npos);
    CHECK(table.find("   40   43% ") != std::string::npos);
    CHECK(table.find("   15% \n") != std::string::npos);
    CHECK(format_ratings_table(rate(drawn, EloOptions{})).find("   58% \n") != std::string::npos);
}

TEST_CASE("the covariance route's z is bayeselo's discretised normal quantile, bit for bit") {
    // Printed (%.17g) by bayeselo 0057's own CCDistribution(1000, -10, 10).SetNormal(0, 1)
    // .GetUpperValue(c); the exact quantiles are 1.959964, 1.644854 and 2.575829.
    CHECK(bayeselo_model::discretised_normal_quantile(0.95) == 1.9601273015853284);
    CHECK(bayeselo_model::discretised_normal_quantile(0.90) == 1.6449705876679601);
    CHECK(bayeselo_model::discretised_normal_quantile(0.99) == 2.5760229382234812);
}

TEST_CASE("offset shifts displayed ratings and can anchor a named player") {
    const ResultSet rs = small_results(8);
    EloOptions o;
    o.intervals = IntervalMethod::hessian_diagonal;
    const RatingResult base = rate(rs, o);
    o.offset = 2000;
    const RatingResult shifted = rate(rs, o);
    CHECK(shifted.rows[0].elo == doctest::Approx(base.rows[0].elo + 2000));
    CHECK(shifted.rows[0].oppo == doctest::Approx(base.rows[0].oppo + 2000));
    o.offset = 2800;
    o.offset_anchor = base.rows[3].name;
    const RatingResult anchored = rate(rs, o);
    CHECK(anchored.rows[3].elo == doctest::Approx(2800));
    o.offset_anchor = "nobody";
    CHECK_THROWS_AS(rate(rs, o), arb::UserError);
}

TEST_CASE("an empty result set is a user error") {
    ResultSet rs;
    CHECK_THROWS_AS(rate(rs, EloOptions{}), arb::UserError);
}

TEST_CASE("los matrix text truncates to width-1 digits like bayeselo") {
    SyntheticSpec spec;
    spec.players = 4;
    spec.games = 200;
    spec.layout = SyntheticSpec::Layout::all_pairs;
    spec.seed = 12;
    const SyntheticData data = generate_synthetic(spec);
    EloOptions o;
    o.want_los = true;
    const RatingResult r = rate(data.results, o);
    const std::string text = format_los_matrix(r, 0, 4, 3);
    // Header: name width (4) + space, then the first 2 letters of each name in width 3.
    CHECK(text.substr(0, text.find('\n')) == "      P0 P0 P0 P0");
    const std::size_t lines = static_cast<std::size_t>(std::count(text.begin(), text.end(), '\n'));
    CHECK(lines == 5);
    // Best player against the worst: LOS truncated, so at most 99 printed... or 100 when exact.
    const std::size_t n = data.results.players().size();
    const double los = r.los[static_cast<std::size_t>(r.rows[0].player) * n + r.rows[3].player];
    CHECK(los > 0.99);
}

TEST_CASE("synthetic generator is reproducible") {
    SyntheticSpec spec = random_games(10, 500, 42);
    const SyntheticData a = generate_synthetic(spec), b = generate_synthetic(spec);
    CHECK(a.results.games() == b.results.games());
    CHECK(a.true_elo == b.true_elo);
    spec.seed = 43;
    CHECK(generate_synthetic(spec).results.games() != a.results.games());
}

TEST_CASE("players in groups that never met: exact intervals work, covariance is a user error") {
    ResultSet rs;
    for (int k = 0; k < 5; ++k) {
        rs.add_game("A", "B", k % 2 ? Outcome::white_wins : Outcome::draw);
        rs.add_game("C", "D", k % 3 ? Outcome::black_wins : Outcome::draw);
    }
    EloOptions o;
    const RatingResult r = rate(rs, o);
    CHECK(r.rows.size() == 4);
    for (const RatingRow& row : r.rows) CHECK(row.plus > 0);
    o.intervals = IntervalMethod::covariance;
    CHECK_THROWS_AS(rate(rs, o), arb::UserError);
}
