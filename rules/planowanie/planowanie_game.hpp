#pragma once
// The planowanie game as the arbiter sees it: options, seats, referee, verify.
#include "rules/game.hpp"

namespace arb::planowanie {

GameDescriptor describe_game();

// How `arbiter view` shows its matches (planowanie_view.cpp), and its page's renderer (planowanie_viewer.js,
// compiled in).
GameViewer viewer();
std::string_view viewer_script();

}  // namespace arb::planowanie
