#pragma once
// The check of a recorded .dighere game (samurai_replay.hpp) against our engine: the manager's
// verify mode, plus positions and directions like the viewer.
#include "rules/game.hpp"
#include "rules/samurai/samurai_replay.hpp"

namespace arb::samurai {

// Replays the plans of every play through our engine and compares step number, actions,
// agents (cells and directions) and scores, and that the log ends exactly when the game does.
VerifyOutcome verify_game_log(const GameLog& log);

}  // namespace arb::samurai
