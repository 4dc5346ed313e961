// The BayesElo fit: the results condensed into per-player opponent lists with the prior added,
// and the MAP ratings and thetas by Hunter's MM iteration (rating.md A.2).
#include <algorithm>
#include <cmath>
#include <limits>

#include "core/user_error.hpp"
#include "rating/bayeselo.hpp"
#include "rating/bayeselo_model.hpp"
#include "rating/vector_log.hpp"

namespace arb::rating::bayeselo_model {
namespace {

// The games of one unordered pair of model players, by who was White and the outcome.
// 32-bit counts keep the table that the walk over the games updates small (fewer cache misses).
struct PairCounts {
    int lo, hi;
    std::uint32_t count[6];  // [lo white: black wins, draw, white wins][hi white: same]
    double games() const {
        return static_cast<double>(std::uint64_t{count[0]} + count[1] + count[2] + count[3] + count[4] + count[5]);
    }
};

// Which players have games, numbered in ResultSet order (bayeselo numbers players by first
// appearance, and sweeps them from the highest number down). Returns -1 for players without.
std::vector<int> number_model_players(const ResultSet& results, Condensed& c) {
    const auto player_count = static_cast<std::int64_t>(results.players().size());
    std::vector<int> model_of(static_cast<std::size_t>(player_count), -1);
    for (const PairwiseGame& g : results.games()) {
        model_of[static_cast<std::size_t>(g.white)] = 0;
        model_of[static_cast<std::size_t>(g.black)] = 0;
    }
    for (std::int64_t p = 0; p < player_count; ++p) {
        if (model_of[static_cast<std::size_t>(p)] == 0) {
            model_of[static_cast<std::size_t>(p)] = c.n++;
            c.model_to_player.push_back(static_cast<int>(p));
        }
    }
    return model_of;
}

// The games counted per unordered pair, the pairs in the order of their latest game, latest first:
// each player's opponents in that order are bayeselo's order (the opponent met most recently
// first). One walk over the games from the last, with an open-addressing table from pair to slot
// (at most twice as many entries as pairs that can exist, so memory stays in proportion to the games).
std::vector<PairCounts> count_pairs(const ResultSet& results, const std::vector<int>& model_of, std::uint64_t n) {
    const std::vector<PairwiseGame>& games = results.games();
    if (games.size() > std::numeric_limits<std::uint32_t>::max())
        throw UserError("more than 4,294,967,295 games to rate: more than a rating run holds");
    const std::uint64_t possible_pairs = n * (n - 1) / 2;
    std::uint64_t capacity = 16;
    while (capacity < 2 * std::min<std::uint64_t>(games.size(), possible_pairs)) capacity *= 2;
    constexpr std::uint64_t kEmpty = ~std::uint64_t{0};
    struct Entry {
        std::uint64_t key = kEmpty;
        std::uint32_t slot = 0;
    };
    std::vector<Entry> table(capacity);
    std::vector<PairCounts> pairs;
    for (std::size_t i = games.size(); i-- > 0;) {
        const auto w = static_cast<std::uint64_t>(model_of[static_cast<std::size_t>(games[i].white)]);
        const auto b = static_cast<std::uint64_t>(model_of[static_cast<std::size_t>(games[i].black)]);
        const std::uint64_t lo = std::min(w, b), hi = std::max(w, b), key = lo * n + hi;
        std::uint64_t at = (key * 0x9E3779B97F4A7C15ULL) >> 20 & (capacity - 1);
        while (table[at].key != key && table[at].key != kEmpty) at = (at + 1) & (capacity - 1);
        if (table[at].key == kEmpty) {
            table[at] = {key, static_cast<std::uint32_t>(pairs.size())};
            pairs.push_back({static_cast<int>(lo), static_cast<int>(hi), {0, 0, 0, 0, 0, 0}});
        }
        // [lo White: black wins, draw, white wins][hi White: the same]
        ++pairs[table[at].slot].count[(w == lo ? 0 : 3) + static_cast<int>(games[i].outcome)];
    }
    return pairs;
}

// Real-game statistics per player (games, wins, draws, losses) and each player's opponent count.
std::vector<std::size_t> add_real_game_counts(const std::vector<PairCounts>& pairs, std::uint64_t n, Condensed& c) {
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
        c.wins[pc.lo] += std::int64_t{pc.count[2]} + pc.count[3];
        c.wins[pc.hi] += std::int64_t{pc.count[0]} + pc.count[5];
        c.losses[pc.lo] += std::int64_t{pc.count[0]} + pc.count[5];
        c.losses[pc.hi] += std::int64_t{pc.count[2]} + pc.count[3];
        c.draws[pc.lo] += std::int64_t{pc.count[1]} + pc.count[4];
        c.draws[pc.hi] += std::int64_t{pc.count[1]} + pc.count[4];
        ++degree[pc.lo];
        ++degree[pc.hi];
    }
    return degree;
}

// The prior's virtual draws in one draw cell of a pair, as bayeselo adds them (A.2 "Prior"):
// each player p spreads P/4 * n_ij / N_p virtual draws into each draw cell of the pair, in
// float, the higher-numbered player's share first (its AddPrior walks the players downwards).
// A prior other than bayeselo's default 2 is what its `prior P` command leaves: the default
// added first, then P - 2 the same way. Prior 0 adds nothing: bayeselo's `prior 0` leaves float
// crumbs of +2 - 2 in the cells (often negative, and its ratings NaN).
float draw_cell(double real_draws, double pair_games, std::int64_t lo_games, std::int64_t hi_games, double prior) {
    auto share = [pair_games](float stage, std::int64_t player_games) {
        const auto per_game = static_cast<float>(static_cast<double>(stage) * 0.25 / static_cast<double>(player_games));
        return per_game * static_cast<float>(pair_games);
    };
    float cell = static_cast<float>(real_draws);
    if (prior == 0) return cell;
    const float first = 2.0f, second = static_cast<float>(prior) - first;
    cell += share(first, hi_games);
    cell += share(first, lo_games);
    if (second != 0) {
        cell += share(second, hi_games);
        cell += share(second, lo_games);
    }
    return cell;
}

// The per-edge numbers only the sums below need: A_i's term (w_ij + d_ij + l_ji + d_ji, left to
// right in float) and the draws of i as White.
struct EdgeExtras {
    float successes = 0, white_draws = 0;
};

// One side of a pair as the edge of player i against j, from bayeselo's float cells:
// [0] i White loses, [1] i White draws, [2] i White wins, then the same with j White.
void set_side(std::size_t k, int opponent, const float cell[6], double games, Condensed& c,
              std::vector<EdgeExtras>& extras) {
    Edge& e = c.edges[k];
    e.opponent = opponent;
    e.i_white_win_draw = cell[2] + cell[1];  // float sums, as bayeselo's MM forms them
    e.i_white_loss_draw = cell[0] + cell[1];
    e.j_white_win_draw = cell[5] + cell[4];
    e.j_white_loss_draw = cell[3] + cell[4];
    c.real_games[k] = games;
    auto exact = [&](int a, int b) { return static_cast<double>(cell[a]) + static_cast<double>(cell[b]); };
    c.likelihood[k] = {exact(2, 1), exact(0, 1), exact(5, 4), exact(3, 4)};
    float successes = cell[2] + cell[1];
    successes += cell[3];
    successes += cell[4];
    extras[k] = {successes, cell[1]};
}

// The CSR opponent lists with the prior's virtual draws, each list in bayeselo's order (latest
// opponent first, as the pairs come), then the successes and the theta numerators summed in bayeselo's order.
void add_edges(const std::vector<PairCounts>& pairs, const std::vector<std::size_t>& degree, std::uint64_t n,
               double prior, Condensed& c) {
    c.first_edge.assign(n + 1, 0);
    for (std::size_t i = 0; i < n; ++i) c.first_edge[i + 1] = c.first_edge[i] + degree[i];
    c.edges.resize(c.first_edge[n]);
    c.real_games.resize(c.first_edge[n]);
    c.likelihood.resize(c.first_edge[n]);
    std::vector<EdgeExtras> extras(c.first_edge[n]);
    std::vector<std::size_t> fill(c.first_edge.begin(), c.first_edge.end() - 1);
    for (const PairCounts& pc : pairs) {
        const double games = pc.games();
        const std::int64_t lo_games = c.games[pc.lo], hi_games = c.games[pc.hi];
        const float lo_white_draw = draw_cell(pc.count[1], games, lo_games, hi_games, prior);
        const float hi_white_draw = draw_cell(pc.count[4], games, lo_games, hi_games, prior);
        const float lo_side[6] = {static_cast<float>(pc.count[0]), lo_white_draw, static_cast<float>(pc.count[2]),
                                  static_cast<float>(pc.count[3]), hi_white_draw, static_cast<float>(pc.count[5])};
        const float hi_side[6] = {lo_side[3], lo_side[4], lo_side[5], lo_side[0], lo_side[1], lo_side[2]};
        set_side(fill[pc.lo]++, pc.hi, lo_side, games, c, extras);
        set_side(fill[pc.hi]++, pc.lo, hi_side, games, c, extras);
    }
    c.successes.assign(n, 0);
    c.likelihood_successes.assign(n, 0);
    for (std::size_t p = n; p-- > 0;) {
        for (std::size_t k = c.first_edge[p]; k < c.first_edge[p + 1]; ++k) {
            const LikelihoodCounts& l = c.likelihood[k];
            c.successes[p] += extras[k].successes;
            c.likelihood_successes[p] += l.i_white_win_draw + l.j_white_loss_draw;
            c.total_draws += extras[k].white_draws;
            c.total_white_win_draw += c.edges[k].i_white_win_draw;
        }
    }
}

// A.2 steps 1-2: one Gauss-Seidel sweep over the gammas, from the highest index down, each
// update seeing the new gammas of the players already swept. Returns the largest relative change.
double sweep_gammas(const Condensed& c, double tw, double td, std::vector<double>& gamma) {
    double diff = 0;
    for (int p = c.n - 1; p >= 0; --p) {
        const double gp = gamma[p];
        const double updated = c.successes[p] / mm_denominator(c, p, gamma, tw, td);
        diff = std::max(diff, std::fabs(updated - gp) / (updated + gp));
        gamma[p] = updated;
    }
    return diff;
}

// The sum over every player p and every edge of p of term(edge, gamma_p, gamma_opponent), players
// from the highest index down as bayeselo: the denominators of both theta updates are such sums.
// A template so that the term is inlined into the walk. The term gives an edge's two summands as
// a two-lane vector, each lane summed on its own and the two added at the end (rounding only
// differs from summing edge by edge; the printed tables are the same).
template <typename EdgeTerm>
double sum_over_edges(const Condensed& c, const std::vector<double>& gamma, EdgeTerm term) {
    Double2 total = {0, 0};
    for (int p = c.n - 1; p >= 0; --p) {
        const double gp = gamma[p];
        for (std::size_t k = c.first_edge[p]; k < c.first_edge[p + 1]; ++k) {
            const Edge& e = c.edges[k];
            total += term(e, gp, gamma[e.opponent]);
        }
    }
    return total[0] + total[1];
}

// A.2 step 3: the next theta_white.
double next_theta_white(const Condensed& c, const std::vector<double>& gamma, double tw, double td) {
    const double denominator = sum_over_edges(c, gamma, [tw, td](const Edge& e, double gp, double go) {
        // a1 gp / (tw gp + td go), a2 td gp / (td tw gp + go)
        return Double2{e.i_white_win_draw, e.i_white_loss_draw * td} * gp /
               (Double2{tw, td * tw} * gp + Double2{td, 1.0} * go);
    });
    return c.total_white_win_draw / denominator;
}

// A.2 step 4: the next theta_draw, the positive root left by minorizing the theta_D^2 - 1 term.
double next_theta_draw(const Condensed& c, const std::vector<double>& gamma, double tw, double td) {
    const double denominator = sum_over_edges(c, gamma, [tw, td](const Edge& e, double gp, double go) {
        // a1 go / (tw gp + td go), a2 tw gp / (td tw gp + go)
        return Double2{e.i_white_win_draw * go, e.i_white_loss_draw * tw * gp} /
               (Double2{tw, td * tw} * gp + Double2{td, 1.0} * go);
    });
    const double ratio = c.total_draws / denominator;
    return ratio + std::sqrt(ratio * ratio + 1);
}

// Sets theta to its update; returns the change, for the stopping rule.
double adopt(double& theta, double updated) {
    const double change = std::fabs(updated - theta);
    theta = updated;
    return change;
}

}  // namespace

Condensed condense(const ResultSet& results, double prior) {
    Condensed c;
    const std::vector<int> model_of = number_model_players(results, c);
    const auto n = static_cast<std::uint64_t>(c.n);
    const std::vector<PairCounts> pairs = count_pairs(results, model_of, n);
    const std::vector<std::size_t> degree = add_real_game_counts(pairs, n, c);
    add_edges(pairs, degree, n, prior, c);
    return c;
}

// A.2 "MM iteration": Hunter's minorization-maximization, sweeps until the largest change in a
// gamma (relative) or a fitted theta falls below the tolerance (step 5).
Fit minorize_maximize(const Condensed& c, const EloOptions& o) {
    Fit fit;
    fit.theta_white = o.fit_advantage ? 1.0 : elo_to_theta(o.advantage);
    fit.theta_draw = o.fit_drawelo ? 1.0 : elo_to_theta(o.drawelo);
    fit.gamma.assign(static_cast<std::size_t>(c.n), 1.0);

    for (int sweep = 0; sweep < o.max_sweeps; ++sweep) {
        double diff = sweep_gammas(c, fit.theta_white, fit.theta_draw, fit.gamma);
        if (o.fit_advantage)
            diff = std::max(diff, adopt(fit.theta_white, next_theta_white(c, fit.gamma, fit.theta_white, fit.theta_draw)));
        if (o.fit_drawelo)
            diff = std::max(diff, adopt(fit.theta_draw, next_theta_draw(c, fit.gamma, fit.theta_white, fit.theta_draw)));
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
    for (std::size_t i = gamma.size(); i-- > 0;) total += (elo[i] = theta_to_elo(gamma[i]));
    const double mean = total / static_cast<double>(gamma.size());
    for (double& r : elo) r -= mean;
    return elo;
}

}  // namespace arb::rating::bayeselo_model
