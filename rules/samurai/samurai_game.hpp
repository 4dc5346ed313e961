#pragma once
// The samurai game as the arbiter sees it: options, seats, referee, verify.
#include "rules/game.hpp"

namespace arb::samurai {

GameDescriptor describe_game();

// How `arbiter view` shows its matches (samurai_view.cpp), and its page's renderer (samurai_viewer.js,
// compiled in).
GameViewer viewer();
std::string_view viewer_script();

}  // namespace arb::samurai
