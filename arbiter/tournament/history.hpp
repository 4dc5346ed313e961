#pragma once
// Turning stored match records into what planners and tables need: pairwise games by bot name
// in a canonical order (so a resumed run fits exactly what an uninterrupted one fitted), and
// the BayesElo rating model the variance pairing works on.
#include <map>
#include <string>
#include <vector>

#include "core/match_record.hpp"
#include "arbiter/tournament/formats.hpp"
#include "rating/bayeselo.hpp"

namespace arb::tournament {

struct PlayedMatch {
    ScheduledMatch scheduled;
    MatchRecord record;
};

// Sorts by (round, group, seating) and adds every record's pairs; participants are registered
// first, in order, so history indices equal participant indices.
History build_history(const std::vector<std::string>& participants, std::vector<const PlayedMatch*> played);

// Duplicate-style pairs (planowanie.md 5.4): the rotations of one group share their deals and
// are not independent, so each pair of a group gives ONE comparison, on the sum of its scores
// over the group's rotations. A bot that faulted in any rotation loses to every other bot of
// the group (seed 000's rule at group level) and those rotations count for no other pair.
// `groups` maps a group key to its matches; groups are taken in key order.
History build_duplicate_history(const std::vector<std::string>& participants,
                                const std::map<std::string, std::vector<const MatchRecord*>>& groups);

// The fit options tournaments use: BayesElo defaults, no first-move advantage (seats are
// symmetric after rotation, planowanie.md 5.1).
rating::EloOptions tournament_elo_options();

// BayesElo fit with covariance (model units) over the history's participants.
RatingModel fit_rating_model(const History& history);

}  // namespace arb::tournament
