#pragma once
// Tournament formats as round planners (a scheduler hands out work piece by piece; here
// the unit is a round, because the seed's later rounds are paired from earlier results).
//
// groups       seed 000 "Przebieg turnieju": bots (plus house bots) split into groups; every
//              group of a round plays the same deal set in every cyclic rotation; the first
//              random_rounds rounds group at random, later ones by variance-minimising pairing.
// round-robin  every set of `players` bots, each round, with one deal set per round.
// gauntlet     every challenger against every set of players-1 other bots.
//
// Seeds: deal set = derive_seed(seed, {round}); match seed = derive_seed(seed, {round, group,
// seating}); nothing depends on the order matches finish in.
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "arbiter/tournament/schedule.hpp"
#include "arbiter/tournament/tournament_config.hpp"
#include "arbiter/tournament/variance_pairing.hpp"
#include "rating/result_set.hpp"

namespace arb::tournament {

// What a planner may know when it plans a round: the results of the rounds before it.
struct History {
    std::vector<std::string> participants;  // tournament order; results' first players, same indices
    rating::ResultSet results;              // pairwise games of finished rounds, canonical order
    std::vector<double> meetings;           // n x n: comparisons between participants so far
};

// Builds the rating model the pairing needs from the history (BayesElo in production).
using RatingFit = std::function<RatingModel(const History&)>;

class RoundPlanner {
public:
    virtual ~RoundPlanner() = default;
    // True when the round is planned from the seed alone (it may be planned ahead of results).
    virtual bool independent(int round) const = 0;
    // Plans a round. For a dependent round, `history` holds exactly the rounds before it.
    virtual Round plan(int round, const History& history) const = 0;
    // The matches of a round (a pool's rounds of different player counts differ).
    virtual int matches_in_round(int round) const = 0;
    virtual const std::vector<std::string>& participants() const = 0;
};

// The bots that take part: the config's bots, then the house bots a format needs (groups:
// only as many as fill the last group; other formats: all of them).
std::vector<BotSpec> participants_of(const TournamentConfig& config);

// `config` must be validated. `fit` is used by dependent rounds only.
std::unique_ptr<RoundPlanner> make_planner(const TournamentConfig& config, RatingFit fit);

// The seat orders of one group of k: rotation r puts member (i + r) mod k in seat i;
// permutations are in lexicographic order.
std::vector<std::vector<int>> seat_arrangements(int k, Seating seating);

}  // namespace arb::tournament
