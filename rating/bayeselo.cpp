// The BayesElo entry points (rating.md A.2, A.3): the fit and its intervals put together into
// the ratings table, and bayeselo's printed tables. The fit itself is in bayeselo_fit.cpp, the
// intervals in bayeselo_intervals.cpp.
#include "rating/bayeselo.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <stdexcept>

#include <fmt/format.h>

#include "core/user_error.hpp"
#include "rating/bayeselo_model.hpp"

namespace arb::rating {
namespace {

using namespace bayeselo_model;

// bayeselo prints with round-half-away-from-zero.
long long round_half_away(double x) { return x > 0 ? static_cast<long long>(x + 0.5) : static_cast<long long>(x - 0.5); }

// A float as a C++ stream prints it by default (%g, 6 significant digits): 1e+06 for a million.
std::string stream_float(float x) {
    char text[32];
    std::snprintf(text, sizeof text, "%g", static_cast<double>(x));
    return text;
}

void check_options(const ResultSet& results, const EloOptions& options) {
    if (results.games().empty()) throw UserError("no results to rate (the selection has no games)");
    if (!(options.confidence > 0 && options.confidence < 1))
        throw UserError(fmt::format("confidence {} is not between 0 and 1", options.confidence));
    if (options.prior < 0) throw UserError(fmt::format("prior {} is negative", options.prior));
    if (options.grid_points < 2 || !(options.grid_max_elo > options.grid_min_elo))
        throw UserError("the exactdist grid needs at least 2 points and max > min");
}

// A.2 "Display scale": set by mm from the drawelo it used or fitted.
double display_scale(const EloOptions& options, double drawelo) {
    if (options.scale) return *options.scale;
    const double x = std::pow(10.0, -drawelo / 400.0);
    return 4 * x / ((1 + x) * (1 + x));
}

// The lower and upper interval widths (model units) by the chosen method. gamma is the
// reference state; cov the covariance matrix when it was computed.
void interval_widths(const Condensed& c, const std::vector<double>& elo, const std::vector<double>& gamma,
                     const std::vector<double>& cov, double tw, double td, const EloOptions& options,
                     std::vector<double>& lower, std::vector<double>& upper) {
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
                lower[p] = upper[p] = z * std::sqrt(1.0 / (curvature * (kNatPerElo * kNatPerElo)));
            }
            break;
        }
    }
}

// Offset: either given, or chosen so that the anchor player shows `offset`.
double display_offset(const ResultSet& results, const EloOptions& options, const RatingResult& out) {
    if (!options.offset_anchor) return options.offset;
    const int anchor = results.find_player(*options.offset_anchor);
    if (anchor < 0) throw UserError(fmt::format("offset anchor '{}' is not a rated player", *options.offset_anchor));
    return options.offset - out.scale * out.model_elo[anchor];
}

// Rows sorted by internal rating, best first (A.3). Players with exactly equal ratings come in
// the order bayeselo's std::sort of the player numbers leaves them (not necessarily stable).
void add_table_rows(const ResultSet& results, const Condensed& c, const std::vector<double>& elo,
                    const std::vector<double>& lower, const std::vector<double>& upper, RatingResult& out) {
    std::vector<int> order(static_cast<std::size_t>(c.n));
    for (int i = 0; i < c.n; ++i) order[i] = i;
    std::sort(order.begin(), order.end(), [&](int a, int b) { return elo[a] > elo[b]; });
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
        double opponent_total = 0;  // in bayeselo's opponent order
        for (std::size_t k = c.first_edge[i]; k < c.first_edge[i + 1]; ++k)
            opponent_total += c.real_games[k] * elo[c.edges[k].opponent];
        row.oppo = out.scale * (opponent_total / games) + out.offset;
        out.rows.push_back(std::move(row));
    }
}

// Covariance and, if asked, LOS over ResultSet player indices (players without games stay 0).
void add_covariance_and_los(const ResultSet& results, const Condensed& c, const std::vector<double>& elo,
                            const std::vector<double>& cov, bool want_los, RatingResult& out) {
    const std::size_t players = results.players().size();
    out.covariance.assign(players * players, 0.0);
    for (int i = 0; i < c.n; ++i)
        for (int j = 0; j < c.n; ++j)
            out.covariance[static_cast<std::size_t>(c.model_to_player[i]) * players + c.model_to_player[j]] =
                cov[static_cast<std::size_t>(i) * c.n + j];
    if (!want_los) return;
    out.los.assign(players * players, 0.0);
    auto at = [&](int i, int j) -> double& {
        return out.los[static_cast<std::size_t>(c.model_to_player[i]) * players + c.model_to_player[j]];
    };
    const auto n = static_cast<std::size_t>(c.n);
    for (int i = 1; i < c.n; ++i) {
        for (int j = 0; j < i; ++j) {
            // As bayeselo: one x per pair (i > j), from the variance of r_i - r_j summed in its order;
            // P(r_i > r_j) = Phi((r_i - r_j) / sigma) = erfc(x) / 2 with x = (r_j - r_i) / (sigma sqrt 2).
            const double variance = cov[i * n + i] + cov[j * n + j] - cov[i * n + j] - cov[j * n + i];
            const double x = (elo[j] - elo[i]) / std::sqrt(2 * variance);
            at(i, j) = std::erfc(x) / 2;
            at(j, i) = std::erfc(-x) / 2;
        }
    }
}

}  // namespace

RatingResult rate(const ResultSet& results, const EloOptions& options) {
    check_options(results, options);

    const Condensed c = condense(results, options.prior);
    const Fit fit = minorize_maximize(c, options);
    const std::vector<double> elo = centred_elos(fit.gamma);

    RatingResult out;
    out.advantage = options.fit_advantage ? theta_to_elo(fit.theta_white) : options.advantage;
    out.drawelo = options.fit_drawelo ? theta_to_elo(fit.theta_draw) : options.drawelo;
    out.sweeps = fit.sweeps;
    out.converged = fit.converged;
    out.player_count = static_cast<std::size_t>(c.n);
    out.model_elo.assign(results.players().size(), 0.0);
    for (int i = 0; i < c.n; ++i) out.model_elo[c.model_to_player[i]] = elo[i];
    out.scale = display_scale(options, out.drawelo);

    // The reference state is the recomputed gammas of the centred Elos, as bayeselo converts
    // back before computing variances.
    std::vector<double> gamma(static_cast<std::size_t>(c.n));
    for (int i = 0; i < c.n; ++i) gamma[i] = elo_to_theta(elo[i]);

    // bayeselo keeps the thetas as Elo after mm and converts them back for the intervals.
    const double tw = elo_to_theta(out.advantage), td = elo_to_theta(out.drawelo);
    std::vector<double> lower(static_cast<std::size_t>(c.n)), upper(static_cast<std::size_t>(c.n));
    const bool need_covariance =
        options.intervals == IntervalMethod::covariance || options.want_covariance || options.want_los;
    std::vector<double> cov;
    if (need_covariance) cov = covariance_matrix(c, gamma, tw, td);
    interval_widths(c, elo, gamma, cov, tw, td, options, lower, upper);

    out.offset = display_offset(results, options, out);
    add_table_rows(results, c, elo, lower, upper, out);
    if (need_covariance)
        add_covariance_and_los(results, c, elo, cov,
                               options.want_los || options.intervals == IntervalMethod::covariance, out);
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
        // bayeselo's arithmetic: the game count is a float (printed as C++ streams print one),
        // score = (2 wins + draws) / 2, and the percentages are 100 * x / games in that order
        // (100 * (x / games) lands on the other side of .5 for, e.g., 23 points in 40 games).
        const auto games = static_cast<float>(row.games);
        const double score = static_cast<double>(static_cast<float>(2 * row.wins + row.draw_count)) / 2;
        const double draws = static_cast<double>(100 * static_cast<float>(row.draw_count));
        out += fmt::format("{:>4} {:<{}} {:>5} {:>4} {:>4} {:>5} {:>4}% {:>5} {:>4}% \n", row.rank, row.name, width,
                           round_half_away(row.elo), round_half_away(row.plus), round_half_away(row.minus),
                           stream_float(games), round_half_away(100 * score / games), round_half_away(row.oppo),
                           round_half_away(draws / static_cast<double>(games)));
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

    // bayeselo's `los` sorts its player order by rating again, starting from the order `ratings`
    // left; with exactly equal ratings that second std::sort can swap players once more.
    std::vector<int> order(result.rows.size());
    for (std::size_t r = 0; r < order.size(); ++r) order[r] = static_cast<int>(r);
    std::sort(order.begin(), order.end(), [&](int a, int b) {
        return result.model_elo[static_cast<std::size_t>(result.rows[a].player)] >
               result.model_elo[static_cast<std::size_t>(result.rows[b].player)];
    });
    auto row = [&](int position) -> const RatingRow& { return result.rows[static_cast<std::size_t>(order[position])]; };

    std::string out = fmt::format("{:<{}} ", "", name_width);
    for (int q = first; q < first + count; ++q)
        out += fmt::format("{:>{}}", row(q).name.substr(0, static_cast<std::size_t>(width - 1)), width);
    out += '\n';
    for (int p = first; p < first + count; ++p) {
        out += fmt::format("{:<{}} ", row(p).name, name_width);
        for (int q = first; q < first + count; ++q) {
            if (p == q) {
                out += fmt::format("{:>{}}", "", width);
            } else {
                // Truncated, not rounded (A.2 "los").
                const double los = result.los[static_cast<std::size_t>(row(p).player) * players +
                                              static_cast<std::size_t>(row(q).player)];
                out += fmt::format("{:>{}}", static_cast<long long>(los * multiplier), width);
            }
        }
        out += '\n';
    }
    return out;
}

}  // namespace arb::rating
