#pragma once
#include "rules/game.hpp"

namespace arb::smartdog {

GameDescriptor describe_game();

}  // namespace arb::smartdog
