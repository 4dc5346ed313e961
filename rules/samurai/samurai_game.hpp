#pragma once
// The samurai game as the arbiter sees it: options, seats, referee, verify.
#include "rules/game.hpp"

namespace arb::samurai {

GameDescriptor describe_game();

}  // namespace arb::samurai
