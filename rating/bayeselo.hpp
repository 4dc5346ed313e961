#pragma once
// The BayesElo model (Rémi Coulom's bayeselo, v0057), re-implemented from the description in
// shared/rules/rating.md part A: Bradley-Terry with a draw margin (drawelo) and a first-mover
// bonus (advantage), a prior of virtual draws, MAP ratings by Hunter's MM iteration, intervals
// by the exact per-player distribution or by the covariance (Laplace) route, and the
// likelihood-of-superiority matrix. Numbers equal bayeselo's on the same data.
//
// Units: "model" ratings are 400*log10(gamma), mean 0. What bayeselo prints is
// scale*model + offset, with scale = 4x/(1+x)^2, x = 10^(-drawelo/400) after mm (rating.md A.2,
// "Display scale"). RatingRow carries displayed values; RatingResult::model_elo the raw ones.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "rating/result_set.hpp"

namespace arb::rating {

enum class IntervalMethod {
    exact_distribution,  // bayeselo `exactdist` (default): asymmetric, opponents held fixed
    covariance,          // bayeselo `covariance`: Laplace approximation, symmetric
    hessian_diagonal,    // what `mm` alone leaves behind (bayeselo `variance`)
};

struct EloOptions {
    double advantage = 32.8;   // Elo; our own games pass 0 (no meaningful first mover)
    double drawelo = 97.3;     // Elo
    double prior = 2.0;        // virtual draws per player
    bool fit_advantage = false;  // `mm 1 x`
    bool fit_drawelo = false;    // `mm x 1`
    double confidence = 0.95;
    IntervalMethod intervals = IntervalMethod::exact_distribution;
    // exactdist grid (bayeselo minelo/maxelo/resolution)
    double grid_min_elo = -1500;
    double grid_max_elo = 1500;
    int grid_points = 1001;
    // Display: offset added after scaling; if offset_anchor names a player, the offset is chosen
    // so that player shows `offset` (bayeselo `offset X Name`).
    double offset = 0;
    std::optional<std::string> offset_anchor;
    std::optional<double> scale;  // nullopt: bayeselo's scale from the (fitted) drawelo
    // MM stopping rule (rating.md A.2 step 5).
    double tolerance = 1e-5;
    int max_sweeps = 10000;
    // Also compute the covariance matrix (model units) and the LOS matrix even when the
    // intervals come from exactdist.
    bool want_covariance = false;
    bool want_los = false;
    // Worker threads for exactdist; 0 = hardware concurrency. Results do not depend on it.
    int threads = 0;
};

// One line of bayeselo's `ratings` table; elo/plus/minus/oppo are displayed (scaled, offset).
struct RatingRow {
    int rank = 0;          // 1-based, by rating
    int player = 0;        // index into the ResultSet's players
    std::string name;
    double elo = 0;
    double plus = 0;       // upper interval width
    double minus = 0;      // lower interval width
    std::int64_t games = 0;  // real games (prior excluded)
    double score = 0;      // fraction of points in real games, 0..1
    double oppo = 0;       // games-weighted mean opponent rating, displayed units
    double draws = 0;      // fraction of real games drawn, 0..1
    std::int64_t wins = 0, losses = 0, draw_count = 0;
};

struct RatingResult {
    std::vector<RatingRow> rows;        // sorted by rating, best first
    std::vector<double> model_elo;      // per player index, mean 0, model units
    double advantage = 0;               // used or fitted (Elo)
    double drawelo = 0;                 // used or fitted (Elo)
    double scale = 1;                   // display scale applied
    double offset = 0;                  // display offset applied
    int sweeps = 0;                     // MM sweeps run
    bool converged = false;
    // Players in the model (all players in the ResultSet that have at least one game).
    // Covariance is row-major n x n over player indices, model units; empty unless computed.
    std::vector<double> covariance;
    // los[i*n + j] = P(rating of i > rating of j), over player indices; empty unless computed.
    std::vector<double> los;
    std::size_t player_count = 0;
};

// Fits ratings. Throws UserError when the result set has no games.
RatingResult rate(const ResultSet& results, const EloOptions& options);

// bayeselo's `prior` demo: the displayed-units (scale 1) rating difference between two
// players after `wins` straight wins of one over the other and no other games
// (rating.md A.2 prior table: +89.3 +150.2 ... with prior 2).
double prior_demo_difference(double prior, int wins, const EloOptions& options = {});

// Text exactly as bayeselo prints `ratings` (rating.md A.3): header and one line per row.
std::string format_ratings_table(const RatingResult& result);
// Text as bayeselo prints `los first count width`: the matrix of rows [first, first+count)
// against the same players, sorted by rating, values truncated to width-1 digits.
std::string format_los_matrix(const RatingResult& result, int first, int count, int width);

}  // namespace arb::rating
