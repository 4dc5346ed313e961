#pragma once
// Turning stored match records into what planners and tables need: pairwise games by bot name
// in a canonical order (so a resumed run fits exactly what an uninterrupted one fitted), and
// the BayesElo rating model the variance pairing works on.
#include <cstdint>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "core/match_record.hpp"
#include "arbiter/tournament/schedule.hpp"
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

// The pairwise games of stored results in aggregate form: per (white, black) pair of bots the
// count of each outcome and where in schedule order its latest game was, per pair of
// participants their meetings. Its size depends on the bots only, never on the number of
// matches, and results may be added in any order. history() gives a History the fit treats
// exactly as build_history's over the same matches: the same players in the same order, the
// same counts per pair and side, and the pairs in the order of their latest game (the order
// BayesElo takes each player's opponents in; the order of games within a pair is not used).
class HistoryTally {
public:
    explicit HistoryTally(std::vector<std::string> participants = {});
    void add(const ScheduledMatch& match, const MatchRecord& record);
    bool empty() const { return games_ == 0; }
    const std::vector<std::string>& participants() const { return participants_; }
    History history() const;

private:
    // A game's place in build_history's order: its match, its pair, then white before black.
    struct GamePosition {
        SchedulePosition match;
        int pair = 0;
        int side = 0;
        friend auto operator<=>(const GamePosition&, const GamePosition&) = default;
    };
    struct Cell {
        std::uint64_t outcomes[3] = {0, 0, 0};  // by rating::Outcome
        GamePosition latest;
    };
    std::vector<std::string> participants_;
    std::map<std::pair<std::string, std::string>, Cell> cells_;  // (white, black) bot names
    std::map<std::string, GamePosition> others_;  // names outside the participants: first game
    std::vector<double> meetings_;
    std::uint64_t games_ = 0;
};

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
