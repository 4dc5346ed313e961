#include "rules/planowanie/planowanie_game.hpp"

#include "arbiter/core/user_error.hpp"

namespace arb::planowanie {

// Placeholder until the referee lands: the game is listed but refuses to play.
GameDescriptor describe_game() {
    GameDescriptor game;
    game.name = "planowanie";
    game.summary = "(not implemented yet)";
    game.plan = [](const MatchRequest&) -> std::vector<SeatPlan> {
        throw UserError("game 'planowanie' is not implemented yet");
    };
    return game;
}

}  // namespace arb::planowanie
