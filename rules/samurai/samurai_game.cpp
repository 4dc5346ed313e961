#include "rules/samurai/samurai_game.hpp"

#include "arbiter/core/user_error.hpp"

namespace arb::samurai {

// Placeholder until the referee lands: the game is listed but refuses to play.
GameDescriptor describe_game() {
    GameDescriptor game;
    game.name = "samurai";
    game.summary = "(not implemented yet)";
    game.plan = [](const MatchRequest&) -> std::vector<SeatPlan> {
        throw UserError("game 'samurai' is not implemented yet");
    };
    return game;
}

}  // namespace arb::samurai
