#pragma once
// What `arbiter view` shows: one match, found from a match folder, a match record, or a game's
// replay or log file (ours or the original engine's), read and checked by the game's own reader,
// and gathered into one JSON object the viewer page embeds:
//
//   {"game": "ants", "title": "ants: a vs b, seed 7", "record": {...} | null, "replay": ...}
//
// "replay" is the game's file as it is written (Ants, Planowanie: the JSON object), or, where a
// match has several files or a text format, a small wrapper: SamurAI {"games": [log, log]},
// smart-dog {"lines": [...]}, Koehandel the game replayed from its logs (koehandel_view.hpp).
#include <filesystem>
#include <string>

#include <nlohmann/json.hpp>

namespace arb::view {

struct MatchView {
    std::string game;
    nlohmann::json data;                 // the object above
    std::filesystem::path folder;        // the match's folder, where one was given or found
};

// Throws UserError naming the file and what is wrong with it (not a record or a replay of a game
// the viewer knows, a replay that its game's reader refuses, a record whose replay is missing).
MatchView load_match_view(const std::filesystem::path& input);

// Where `arbiter view INPUT` writes its page by default: viewer.html in a match folder (given, or
// holding the record given), else INPUT's file name with .html in the current folder.
std::filesystem::path default_page_path(const std::filesystem::path& input);

}  // namespace arb::view
