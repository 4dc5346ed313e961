#pragma once
// Variance-minimising group selection (seed 000 "Przebieg turnieju"; formulas from
// shared/rules/planowanie.md section 5). After the random warm-up rounds the tournament fits
// BayesElo, takes the highest-rated bot A not yet placed, and gives it the opponents whose
// games with A would shrink the posterior variance of A's rating the most.
//
// Everything here is pure arithmetic on a rating model (ratings + covariance); the fit itself
// comes from rating/bayeselo.hpp, so tests can hand in any model.
#include <cstddef>
#include <span>
#include <string>
#include <vector>

namespace arb::tournament {

// Ratings and their posterior covariance, model units (Elo, mean 0), over players 0..n-1.
struct RatingModel {
    std::vector<std::string> players;
    std::vector<double> elo;
    std::vector<double> covariance;  // row-major n x n
    double drawelo = 97.3;           // the draw margin of the fit (planowanie.md 5.1)

    std::size_t size() const { return players.size(); }
    double cov(std::size_t i, std::size_t j) const { return covariance[i * players.size() + j]; }
};

// Expected Fisher information (Elo^-2) of one game between two players rated delta_elo apart,
// under the BayesElo win/draw/loss model without first-move advantage (planowanie.md 5.2).
double game_information(double delta_elo, double drawelo);

// Expected rating difference shrunk for the uncertainty of the difference (planowanie.md 5.2,
// E[p] approximation): mu / sqrt(1 + pi c^2 s^2 / 8).
double effective_difference(double mu_delta, double var_delta);

// How much the variance of a linear combination t = a^T r drops when the players of `group`
// play `games_per_pair` more comparisons between every two of them (planowanie.md 5.3,
// push-through identity): delta = v^T (I + M S)^-1 M v, with S the group's covariance block,
// M = K * sum_{i<j} w_ij (e_i - e_j)(e_i - e_j)^T and v = (Sigma a) restricted to the group.
// `target` is a (one weight per player of the model); e_A gives plain Var(r_A).
double variance_reduction(const RatingModel& model, std::span<const int> group, std::span<const double> target,
                          double games_per_pair);

struct PairingOptions {
    int group_size = 4;
    // Pairwise comparisons one pair adds per group and round: 4 rotations x 1 comparison
    // (planowanie.md 5.4: the same weighting the store feeds the fit with).
    double games_per_pair = 4;
    // Above this many candidate opponent sets for one bot, choose greedily (best B, then best
    // C given {A,B}, ...) instead of trying every set (planowanie.md 5.3, fallback).
    std::size_t exhaustive_limit = 20000;
};

// meetings[i*n+j] = comparisons i and j already had; used only to break exact ties in favour
// of pairs that met less (the seed: "liczba rozegranych meczy ... możliwie najmniejsza").
struct PairingResult {
    std::vector<std::vector<int>> groups;  // each starts with its anchor A
    std::vector<int> left_over;            // fewer than group_size bots, not placed
};

// The seed's loop: U = candidates by rating (best first, ties by index); while |U| >= size:
// A = top of U; choose the opponents maximising variance_reduction(e_A); remove the group.
PairingResult variance_minimising_groups(const RatingModel& model, std::span<const int> candidates,
                                         std::span<const double> meetings, const PairingOptions& options);

// Best opponents for one anchor among `pool` maximising the drop in Var(a^T r) (the ladder
// uses a = e_new - e_previous). Returns group_size - 1 players (or fewer if the pool is small).
std::vector<int> best_opponents(const RatingModel& model, int anchor, std::span<const int> pool,
                                std::span<const double> target, std::span<const double> meetings,
                                const PairingOptions& options);

}  // namespace arb::tournament
