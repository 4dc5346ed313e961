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

#include "arbiter/tournament/schedule.hpp"
#include "core/match_record.hpp"
#include "rules/game.hpp"

namespace arb::tournament {

struct ForfeitRule {
    std::optional<int> max_faults;  // consecutive faults that stop a bot (nullopt = never)
    std::set<std::string> broken;   // failed the pre-flight: every seat forfeited
};

// What --max-faults decides on: per bot, its scheduled matches in schedule order, each open (no
// result yet) or stored with a fault for the bot or without one. A decision reads the bot's
// last max_faults matches before the one decided, so only the last max_faults stored matches
// before the bot's first open one are kept (and every match after it): the size depends on the
// bots and the matches in play, not on the number played. Matches may be added in any order.
class FaultStreaks {
public:
    explicit FaultStreaks(std::optional<int> max_faults);
    // A scheduled match without a result.
    void open(const ScheduledMatch& match);
    // A stored result (of an open match, or one found in the store).
    void stored(const ScheduledMatch& match, const MatchRecord& record);
    // A match that could not be played in this run: passed over, as if not scheduled.
    void skip(const ScheduledMatch& match);
    // Whether `bot` forfeits `match` (its last max_faults matches before it all faulted);
    // nullopt while one of them is open.
    std::optional<bool> too_many_faults(const std::string& bot, const ScheduledMatch& match) const;

private:
    enum class State { open, clean, fault };
    void trim(std::map<SchedulePosition, State>& matches) const;
    std::optional<int> max_faults_;
    std::map<std::string, std::map<SchedulePosition, State>> by_bot_;
};

// The bots of `match` that forfeit it, in seat order, or nullopt while an earlier match that
// decides it has no result yet.
std::optional<std::vector<std::string>> forfeiting_bots(const ForfeitRule& rule, const ScheduledMatch& match,
                                                        const FaultStreaks& streaks);

// The record of a match forfeited by `forfeiting` (bot names); `request` supplies the commands,
// the seed and the options.
MatchRecord forfeit_record(const ForfeitRule& rule, const MatchRequest& request,
                           const std::vector<std::string>& forfeiting);

}  // namespace arb::tournament
