#pragma once
// What a tournament plans: matches grouped in rounds. A scheduled match is fully determined
// before it starts (seat order, seed, deal set), is stored before the first match of its round
// runs, and is keyed so the store can never hold it twice.
#include <compare>
#include <cstdint>
#include <string>
#include <vector>

namespace arb::tournament {

struct ScheduledMatch {
    std::string key;                 // "<tournament>/r<round>/g<group>/s<seating>": unique in the store
    int round = 0;
    int group = 0;                   // group (seed 000) or encounter (round-robin, gauntlet) index
    int seating = 0;                 // rotation or permutation index within the group
    std::vector<std::string> bots;   // bot names in seat order
    std::uint64_t seed = 0;
    std::uint64_t deal_set = 0;      // shared by every match of the round (same deals everywhere)
    std::string map;                 // the pool's map (or field) of the round; "" = the config's options

    friend bool operator==(const ScheduledMatch&, const ScheduledMatch&) = default;
};

// Where a match sits in schedule order: (round, group, seating).
struct SchedulePosition {
    int round = 0;
    int group = 0;
    int seating = 0;

    friend auto operator<=>(const SchedulePosition&, const SchedulePosition&) = default;
};

inline SchedulePosition position_of(const ScheduledMatch& m) { return {m.round, m.group, m.seating}; }

struct Round {
    int index = 0;
    std::vector<ScheduledMatch> matches;
};

std::string schedule_key(const std::string& tournament, int round, int group, int seating);

}  // namespace arb::tournament
