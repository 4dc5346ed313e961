#pragma once
// Reading a map file into a tile. The engine parses a tile's text (parse_tile) and never opens a
// file: reading one is the referee's and the verifier's part.
#include <string>

#include "rules/smartdog/smartdog_engine.hpp"

namespace arb::smartdog {

// parse_tile over the file's text; UserError naming the file when it cannot be read or is too big.
Tile read_tile(const std::string& path);

}  // namespace arb::smartdog
