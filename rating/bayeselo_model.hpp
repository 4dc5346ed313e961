#pragma once
// Internal to the BayesElo files (not for other layers): the condensed results the fit and the
// intervals work on, the fit itself, and the interval routes. Every step cites
// shared/rules/rating.md part A (section A.2 unless noted).
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <numbers>
#include <vector>

#include "rating/result_set.hpp"

namespace arb::rating {
struct EloOptions;  // rating/bayeselo.hpp: the fit's options, taken by reference here
}  // namespace arb::rating

namespace arb::rating::bayeselo_model {

// d(ln gamma)/d(elo): gamma = 10^(elo/400).
constexpr double kNatPerElo = std::numbers::ln10 / 400.0;

inline double elo_to_theta(double elo) { return std::pow(10.0, elo / 400.0); }
inline double theta_to_elo(double theta) { return 400.0 * std::log10(theta); }

// One opponent of a player, seen from that player ("i") against the opponent ("j").
// The four sums are the only counts the likelihood needs (prior draws included). bayeselo keeps
// its counts as float and forms these sums in float; the values here are those floats (20 bytes
// an edge: the MM sweeps read every edge some fifty times), so that every later step sees the
// same numbers:
//   i_white_win_draw  = wins + draws of i as White vs j
//   i_white_loss_draw = losses + draws of i as White vs j
//   j_white_win_draw  = wins + draws of j as White vs i
//   j_white_loss_draw = losses + draws of j as White vs i
struct Edge {
    std::int32_t opponent = 0;
    float i_white_win_draw = 0;
    float i_white_loss_draw = 0;
    float j_white_win_draw = 0;
    float j_white_loss_draw = 0;
};

// The condensed results (bayeselo "elo" step): per-player opponent lists in CSR form over the
// players that have at least one game, with the prior already added. Each list is in the order
// bayeselo walks it (the opponent met most recently first), and every sum over players runs from
// the highest index down as there, so that the floating-point sums are the same.
// exactdist's log-likelihood takes each of bayeselo's float cells on its own (w_ij log P(win) +
// d_ij log P(draw) + ...), not the float-rounded sums the MM uses: its coefficients are the same
// sums taken exactly, in double.
struct LikelihoodCounts {
    double i_white_win_draw = 0, i_white_loss_draw = 0, j_white_win_draw = 0, j_white_loss_draw = 0;
};

struct Condensed {
    int n = 0;
    std::vector<int> model_to_player;  // model index -> ResultSet player index
    std::vector<std::size_t> first_edge;  // n + 1 offsets into edges
    std::vector<Edge> edges;
    std::vector<double> real_games;  // parallel to edges: without the prior (weights of `oppo.`)
    std::vector<LikelihoodCounts> likelihood;  // parallel to edges
    std::vector<double> likelihood_successes;  // per player, as successes but summed exactly
    std::vector<double> successes;     // A_i: wins + draws (prior included)
    // Real-game statistics for the table.
    std::vector<std::int64_t> games, wins, draws, losses;
    // Numerators of the theta updates: draws (prior included) and wins + draws of White.
    double total_draws = 0;
    double total_white_win_draw = 0;
};

struct Fit {
    std::vector<double> gamma;  // per model index
    double theta_white = 1;
    double theta_draw = 1;
    int sweeps = 0;
    bool converged = false;
};

// bayeselo_fit.cpp
Condensed condense(const ResultSet& results, double prior);
Fit minorize_maximize(const Condensed& c, const EloOptions& o);
std::vector<double> centred_elos(const std::vector<double>& gamma);

// Second derivative of one edge's log-likelihood with respect to the rating difference,
// in gamma form (A.2 "variance", "covariance"), times -1/kNatPerElo^2 (so positive).
// Inline: the covariance and Hessian-diagonal routes call it once per edge.
inline double edge_curvature(const Edge& e, double gp, double go, double tw, double td) {
    const double d1 = tw * gp + td * go;
    const double d2 = td * tw * gp + go;
    const double d3 = tw * go + td * gp;
    const double d4 = td * tw * go + gp;
    const double sum = e.i_white_win_draw / (d1 * d1) + e.i_white_loss_draw / (d2 * d2) +
                       e.j_white_win_draw / (d3 * d3) + e.j_white_loss_draw / (d4 * d4);
    return sum * (gp * go * td * tw);  // bayeselo's grouping: the product first
}

// bayeselo_kernels.cpp: the inner loops. One player's MM denominator (A.2 step 1; gamma as
// swept so far), and the sum over one player's edges of the log-likelihood's logarithm terms at
// one grid point (exactdist; e_x = exp(kNatPerElo x'), inverse_exp[j] = exp(-kNatPerElo r_j)).
double mm_denominator(const Condensed& c, int p, const std::vector<double>& gamma, double tw, double td);
double likelihood_log_terms(const Condensed& c, int p, const std::vector<double>& inverse_exp, double e_x, double tw,
                            double td);
// Tests: the two-lane kernels even where AVX2 is there (they give the same bits).
void use_portable_kernels(bool portable);

// bayeselo_intervals.cpp
double discretised_normal_quantile(double confidence);
void exact_intervals(const Condensed& c, const std::vector<double>& elo, double tw, double td, const EloOptions& o,
                     std::vector<double>& lower, std::vector<double>& upper);
std::vector<double> covariance_matrix(const Condensed& c, const std::vector<double>& gamma, double tw, double td);

}  // namespace arb::rating::bayeselo_model
