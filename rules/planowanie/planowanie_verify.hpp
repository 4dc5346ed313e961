#pragma once
// The check of a Planowanie game log (planowanie_replay.hpp) against the engine: what
// `arbiter verify planowanie FILE` runs.
#include "rules/game.hpp"
#include "rules/planowanie/planowanie_replay.hpp"

namespace arb::planowanie {

// Replays a log through the engine: the configuration, the hands (against the deal seed when it
// is given), every declaration and card, trick winners, points and scores.
VerifyOutcome verify_game_log(const GameLog& log);

}  // namespace arb::planowanie
