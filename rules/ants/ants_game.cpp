#include "rules/ants/ants_game.hpp"

#include "arbiter/core/user_error.hpp"

namespace arb::ants {

// Placeholder until the referee lands: the game is listed but refuses to play.
GameDescriptor describe_game() {
    GameDescriptor game;
    game.name = "ants";
    game.summary = "(not implemented yet)";
    game.plan = [](const MatchRequest&) -> std::vector<SeatPlan> {
        throw UserError("game 'ants' is not implemented yet");
    };
    return game;
}

}  // namespace arb::ants
