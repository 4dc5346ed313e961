#pragma once
// Tic-tac-toe, a toy game that exists only in this test: a whole game added to the arbiter
// through its descriptor alone (docs/adding-a-game.md), played, verified and viewed by the same
// code as the five contest games.
//
// Protocol: each turn the seat to move reads "turn B" (B: nine cells, '.' free, 'x' seat 0,
// 'o' seat 1) and answers one line, the index 0-8 of a free cell. The replay is
// {"game": "tictactoe", "moves": [cell, ...], "winner": 0 | 1 | null}.
#include <string_view>

#include "rules/game.hpp"

namespace arb::tictactoe {

GameDescriptor describe_game();
std::string_view viewer_script();  // tictactoe_viewer.js, compiled in

}  // namespace arb::tictactoe
