#pragma once
// The koehandel game as the arbiter sees it: options, seats, referee.
#include "rules/game.hpp"

namespace arb::koehandel {

GameDescriptor describe_game();

}  // namespace arb::koehandel
