#pragma once
// The ants game as the arbiter sees it: options, seats, referee, verify.
#include "rules/game.hpp"

namespace arb::ants {

GameDescriptor describe_game();

// How `arbiter view` shows its matches (ants_view.cpp), and its page's renderer (ants_viewer.js,
// compiled in).
GameViewer viewer();
std::string_view viewer_script();

}  // namespace arb::ants
