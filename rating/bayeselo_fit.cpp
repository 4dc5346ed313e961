// The BayesElo fit: the results condensed into per-player opponent lists with the prior added,
// and the MAP ratings and thetas by Hunter's MM iteration (rating.md A.2).
#include <algorithm>
#include <cmath>

#include "rating/bayeselo_model.hpp"

namespace arb::rating::bayeselo_model {
namespace {

// The games of one unordered pair of model players, by who was White and the outcome.
struct PairCounts {
    int lo, hi;
    double count[6];  // [lo white: black wins, draw, white wins][hi white: same]
    std::size_t last_game = 0;  // index of the pair's latest game (orders the opponent lists)
    double games() const { return count[0] + count[1] + count[2] + count[3] + count[4] + count[5]; }
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

std::uint64_t pair_key(const PairwiseGame& g, const std::vector<int>& model_of, std::uint64_t n) {
    const auto w = static_cast<std::uint64_t>(model_of[static_cast<std::size_t>(g.white)]);
    const auto b = static_cast<std::uint64_t>(model_of[static_cast<std::size_t>(g.black)]);
    return std::min(w, b) * n + std::max(w, b);
}

// The games counted per unordered pair, pairs sorted by (lo, hi).
std::vector<PairCounts> count_pairs(const ResultSet& results, const std::vector<int>& model_of, std::uint64_t n) {
    // Sort the games by unordered pair; the low 3 bits say who was White and the outcome.
    std::vector<std::uint64_t> keys;
    keys.reserve(results.games().size());
    for (const PairwiseGame& g : results.games()) {
        const auto w = static_cast<std::uint64_t>(model_of[static_cast<std::size_t>(g.white)]);
        const std::uint64_t key = pair_key(g, model_of, n);
        const std::uint64_t code = (w == key / n ? 0 : 3) + static_cast<std::uint64_t>(g.outcome);
        keys.push_back((key << 3) | code);
    }
    std::sort(keys.begin(), keys.end());

    std::vector<PairCounts> pairs;
    std::vector<std::uint64_t> pair_keys;
    for (std::size_t k = 0; k < keys.size();) {
        const std::uint64_t key = keys[k] >> 3;
        PairCounts pc{static_cast<int>(key / n), static_cast<int>(key % n), {0, 0, 0, 0, 0, 0}};
        for (; k < keys.size() && (keys[k] >> 3) == key; ++k) pc.count[keys[k] & 7] += 1;
        pairs.push_back(pc);
        pair_keys.push_back(key);
    }
    const std::vector<PairwiseGame>& games = results.games();
    for (std::size_t i = 0; i < games.size(); ++i) {
        const auto at = std::lower_bound(pair_keys.begin(), pair_keys.end(), pair_key(games[i], model_of, n));
        pairs[static_cast<std::size_t>(at - pair_keys.begin())].last_game = i;
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
        c.wins[pc.lo] += static_cast<std::int64_t>(pc.count[2] + pc.count[3]);
        c.wins[pc.hi] += static_cast<std::int64_t>(pc.count[0] + pc.count[5]);
        c.losses[pc.lo] += static_cast<std::int64_t>(pc.count[0] + pc.count[5]);
        c.losses[pc.hi] += static_cast<std::int64_t>(pc.count[2] + pc.count[3]);
        c.draws[pc.lo] += static_cast<std::int64_t>(pc.count[1] + pc.count[4]);
        c.draws[pc.hi] += static_cast<std::int64_t>(pc.count[1] + pc.count[4]);
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
// right in float), the draws of i as White, and the pair's latest game, which orders the lists.
struct EdgeExtras {
    float successes = 0, white_draws = 0;
    std::size_t last_game = 0;
};

// One side of a pair as the edge of player i against j, from bayeselo's float cells:
// [0] i White loses, [1] i White draws, [2] i White wins, then the same with j White.
void set_side(std::size_t k, int opponent, const float cell[6], double games, std::size_t last_game, Condensed& c,
              std::vector<EdgeExtras>& extras) {
    Edge& e = c.edges[k];
    e.opponent = opponent;
    e.i_white_win_draw = cell[2] + cell[1];  // float sums, as bayeselo's MM forms them
    e.i_white_loss_draw = cell[0] + cell[1];
    e.j_white_win_draw = cell[5] + cell[4];
    e.j_white_loss_draw = cell[3] + cell[4];
    e.real_games = games;
    auto exact = [&](int a, int b) { return static_cast<double>(cell[a]) + static_cast<double>(cell[b]); };
    c.likelihood[k] = {exact(2, 1), exact(0, 1), exact(5, 4), exact(3, 4)};
    float successes = cell[2] + cell[1];
    successes += cell[3];
    successes += cell[4];
    extras[k] = {successes, cell[1], last_game};
}

// Puts the edges [begin, end) in bayeselo's order for one player: the latest opponent first.
void order_like_bayeselo(std::size_t begin, std::size_t end, Condensed& c, std::vector<EdgeExtras>& extras) {
    std::vector<std::size_t> order(end - begin);
    for (std::size_t k = 0; k < order.size(); ++k) order[k] = begin + k;
    std::sort(order.begin(), order.end(),
              [&](std::size_t a, std::size_t b) { return extras[a].last_game > extras[b].last_game; });
    std::vector<Edge> edges(order.size());
    std::vector<LikelihoodCounts> likelihood(order.size());
    std::vector<EdgeExtras> moved(order.size());
    for (std::size_t k = 0; k < order.size(); ++k) {
        edges[k] = c.edges[order[k]];
        likelihood[k] = c.likelihood[order[k]];
        moved[k] = extras[order[k]];
    }
    std::copy(edges.begin(), edges.end(), c.edges.begin() + static_cast<std::ptrdiff_t>(begin));
    std::copy(likelihood.begin(), likelihood.end(), c.likelihood.begin() + static_cast<std::ptrdiff_t>(begin));
    std::copy(moved.begin(), moved.end(), extras.begin() + static_cast<std::ptrdiff_t>(begin));
}

// The CSR opponent lists with the prior's virtual draws, each list in bayeselo's order (latest
// opponent first), then the successes and the theta numerators summed in bayeselo's order.
void add_edges(const std::vector<PairCounts>& pairs, const std::vector<std::size_t>& degree, std::uint64_t n,
               double prior, Condensed& c) {
    c.first_edge.assign(n + 1, 0);
    for (std::size_t i = 0; i < n; ++i) c.first_edge[i + 1] = c.first_edge[i] + degree[i];
    c.edges.resize(c.first_edge[n]);
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
        set_side(fill[pc.lo]++, pc.hi, lo_side, games, pc.last_game, c, extras);
        set_side(fill[pc.hi]++, pc.lo, hi_side, games, pc.last_game, c, extras);
    }
    for (std::size_t p = 0; p < n; ++p) order_like_bayeselo(c.first_edge[p], c.first_edge[p + 1], c, extras);
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
    const double tdw = td * tw;
    double diff = 0;
    for (int p = c.n - 1; p >= 0; --p) {
        const double gp = gamma[p];
        double b = 0;
        for (std::size_t k = c.first_edge[p]; k < c.first_edge[p + 1]; ++k) {
            const Edge& e = c.edges[k];
            const double go = gamma[e.opponent];  // already new when opponent > p
            b += e.i_white_win_draw * tw / (tw * gp + td * go) + e.i_white_loss_draw * td * tw / (tdw * gp + go) +
                 e.j_white_win_draw * td / (tw * go + td * gp) + e.j_white_loss_draw / (tdw * go + gp);
        }
        const double updated = c.successes[p] / b;
        diff = std::max(diff, std::fabs(updated - gp) / (updated + gp));
        gamma[p] = updated;
    }
    return diff;
}

// The sum over every player p and every edge of p of term(edge, gamma_p, gamma_opponent), players
// from the highest index down as bayeselo: the denominators of both theta updates are such sums.
// A template so that the term is inlined into the walk.
template <typename EdgeTerm>
double sum_over_edges(const Condensed& c, const std::vector<double>& gamma, EdgeTerm term) {
    double total = 0;
    for (int p = c.n - 1; p >= 0; --p) {
        const double gp = gamma[p];
        for (std::size_t k = c.first_edge[p]; k < c.first_edge[p + 1]; ++k) {
            const Edge& e = c.edges[k];
            total += term(e, gp, gamma[e.opponent]);
        }
    }
    return total;
}

// A.2 step 3: the next theta_white.
double next_theta_white(const Condensed& c, const std::vector<double>& gamma, double tw, double td) {
    const double denominator = sum_over_edges(c, gamma, [tw, td](const Edge& e, double gp, double go) {
        return e.i_white_win_draw * gp / (tw * gp + td * go) + e.i_white_loss_draw * td * gp / (td * tw * gp + go);
    });
    return c.total_white_win_draw / denominator;
}

// A.2 step 4: the next theta_draw, the positive root left by minorizing the theta_D^2 - 1 term.
double next_theta_draw(const Condensed& c, const std::vector<double>& gamma, double tw, double td) {
    const double denominator = sum_over_edges(c, gamma, [tw, td](const Edge& e, double gp, double go) {
        return e.i_white_win_draw * go / (tw * gp + td * go) + e.i_white_loss_draw * tw * gp / (td * tw * gp + go);
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
