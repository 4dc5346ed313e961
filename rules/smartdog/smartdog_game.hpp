#pragma once
#include "rules/game.hpp"

namespace arb::smartdog {

GameDescriptor describe_game();

// How `arbiter view` shows its matches (smartdog_view.cpp), and its page's renderer (smartdog_viewer.js,
// compiled in).
GameViewer viewer();
std::string_view viewer_script();

}  // namespace arb::smartdog
