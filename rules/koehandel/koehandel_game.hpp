#pragma once
// The koehandel game as the arbiter sees it: options, seats, referee.
#include "rules/game.hpp"

namespace arb::koehandel {

GameDescriptor describe_game();

// How `arbiter view` shows its matches (koehandel_view.cpp), and its page's renderer (koehandel_viewer.js,
// compiled in).
GameViewer viewer();
std::string_view viewer_script();

}  // namespace arb::koehandel
