#pragma once
// The planowanie game as the arbiter sees it: options, seats, referee, verify.
#include "rules/game.hpp"

namespace arb::planowanie {

GameDescriptor describe_game();

}  // namespace arb::planowanie
