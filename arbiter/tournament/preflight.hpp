#pragma once
// The pre-flight: before a tournament's schedule starts, every distinct bot plays the opening of
// one match against copies of itself (the match size of the tournament), on the tournament's
// game, options and limits, and must get through the game's set-up: its first request answered
// and accepted by the referee (the referee moves on to the next request without retiring it).
// The match is stopped there; nothing is stored and the schedule is untouched. Each seat has at
// most 10 s for the whole pre-flight (less when the game's own limits are shorter).
#include <string>
#include <vector>

#include "arbiter/tournament/tournament_config.hpp"
#include "rules/game.hpp"

namespace arb::tournament {

struct PreflightFailure {
    std::string bot;
    std::string reason;  // "crashed: exited with code 3; stderr: ...", "timeout: ...", "illegal: ..."
};

// Checks the bots of a validated config, `jobs` at a time; returns the failures in bot order.
// Throws UserError for set-up problems that are not a bot's (missing map, bad option).
std::vector<PreflightFailure> preflight(const GameDescriptor& game, const TournamentConfig& config, int jobs);

// The last `lines` lines of a log file, joined with " | " ("" if the file is missing or empty).
std::string log_tail(const std::string& path, int lines = 3);

}  // namespace arb::tournament
