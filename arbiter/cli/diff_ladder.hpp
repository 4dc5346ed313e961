#pragma once
// `arbiter diff --ladder-db DB`: the two versions a ladder judged, replayed on the ladder's own
// matches (their seeds, deal sets, rotations, seats and opponents).
#include <optional>
#include <string>

#include "arbiter/diff/diff.hpp"

namespace arb::cli {

struct LadderDiffChoice {
    std::string db;
    std::string old_name, new_name;  // registered names; empty: the latest bot and the version before it
    std::optional<int> games;        // the first N of the new version's ladder matches (default: all, at most 40)
};

// Fills plan.game's versions, fixed games and options from the ladder; returns the line that says
// what was chosen. UserError naming what is missing (no ladder, one version, no matches).
std::string plan_from_ladder(const LadderDiffChoice& choice, diff::DiffPlan& plan);

}  // namespace arb::cli
