#pragma once
// Seeded synthetic results with known true strengths, drawn from the BayesElo model itself
// (rating.md A.2), for calibration tests and benchmarks. Reproducible: the same spec gives the
// same games on every platform (arb::Rng only).
#include <cstdint>
#include <string>
#include <vector>

#include "rating/result_set.hpp"

namespace arb::rating {

struct SyntheticSpec {
    int players = 8;
    std::int64_t games = 1000;      // total games (layout random) or per pair (layout all_pairs)
    enum class Layout { random, all_pairs } layout = Layout::random;
    double spread = 200;            // true ratings uniform in [-spread*sqrt(3), +spread*sqrt(3)] (sd = spread)
    double advantage = 32.8;        // Elo, of the true model
    double drawelo = 97.3;          // Elo, of the true model
    std::uint64_t seed = 1;
};

struct SyntheticData {
    ResultSet results;
    std::vector<double> true_elo;   // per player index, mean 0, model units
};

// Players are named "P001", "P002", ... . In the all_pairs layout every pair plays `games`
// games with alternating colours; in the random layout each game picks two distinct players
// uniformly and a random White.
SyntheticData generate_synthetic(const SyntheticSpec& spec);

// The BayesElo outcome probabilities for White rated `white` against `black` (model units).
struct OutcomeProbabilities {
    double white_wins, draw, black_wins;
};
OutcomeProbabilities bayeselo_probabilities(double white, double black, double advantage, double drawelo);

}  // namespace arb::rating
