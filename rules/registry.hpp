#pragma once
// Every game the arbiter knows, by name: the five contest games, and any game a program adds
// before it plays (a test's toy game).
#include <deque>
#include <string>

#include "rules/game.hpp"

namespace arb {

// In the order they were added; a reference to one stays valid while the program runs.
const std::deque<GameDescriptor>& all_games();
// Throws UserError listing the known games when the name is unknown.
const GameDescriptor& find_game(const std::string& name);
// The file name of the map (or field) a match was played on, from its game options as a record
// keeps them (JSON): the option the game's descriptor names. "" for an unknown game, a game
// without maps, or options without one.
std::string map_file_of(const std::string& game, const std::string& options_json);
// Adds a game described by its descriptor alone. Not thread-safe: before any match is played.
// Throws std::invalid_argument when a game of that name exists.
void add_game(GameDescriptor game);

}  // namespace arb
