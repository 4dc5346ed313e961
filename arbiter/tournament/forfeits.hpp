#pragma once
// Giving up on a bot that keeps failing. With --max-faults N, a bot whose N previous matches in
// schedule order (round, group, seating) all ended in a fault for it forfeits its next match;
// a bot that failed the pre-flight and was let in with --allow-broken forfeits every match.
// A forfeited match is recorded without starting any process: each forfeiting bot loses to
// every other seat, forfeiting bots draw among themselves, the others draw among themselves.
//
// The decision for a match depends only on the stored results of earlier-scheduled matches, so
// it is the same with any -j and on a resumed run; a match whose decision waits for an earlier
// match still being played is held back until that result is stored.
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "arbiter/tournament/history.hpp"
#include "arbiter/tournament/schedule.hpp"
#include "rules/game.hpp"

namespace arb::tournament {

struct ForfeitRule {
    std::optional<int> max_faults;  // consecutive faults that stop a bot (nullopt = never)
    std::set<std::string> broken;   // failed the pre-flight: every seat forfeited
};

// The bots of `match` that forfeit it, in seat order, or nullopt while an earlier match that
// decides it has no result yet. `skipped`: keys that could not be played in this run (they are
// passed over, as if not scheduled).
std::optional<std::vector<std::string>> forfeiting_bots(const ForfeitRule& rule, const ScheduledMatch& match,
                                                        const std::map<int, Round>& rounds,
                                                        const std::map<std::string, PlayedMatch>& played,
                                                        const std::set<std::string>& skipped);

// The record of a match forfeited by `forfeiting` (bot names); `request` supplies the commands,
// the seed and the options.
MatchRecord forfeit_record(const ForfeitRule& rule, const MatchRequest& request,
                           const std::vector<std::string>& forfeiting);

}  // namespace arb::tournament
