#pragma once
// The ants game as the arbiter sees it: options, seats, referee, verify.
#include "rules/game.hpp"

namespace arb::ants {

GameDescriptor describe_game();

}  // namespace arb::ants
