#pragma once
// Every game the arbiter knows, by name.
#include <string>
#include <vector>

#include "rules/game.hpp"

namespace arb {

const std::vector<GameDescriptor>& all_games();
// Throws UserError listing the known games when the name is unknown.
const GameDescriptor& find_game(const std::string& name);

}  // namespace arb
