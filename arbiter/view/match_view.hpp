#pragma once
// What `arbiter view` shows: one match, found from a match folder, a match record, or a game's
// replay or log file (ours or the original engine's), read and checked by the game's own reader,
// and gathered into one JSON object the viewer page embeds:
//
//   {"game": GAME, "title": "GAME: a vs b, seed 7", "record": {...} | null, "replay": ...}
//
// "replay" is what the game's viewer reads from its replay (GameViewer in rules/game.hpp): the
// file as it is written, or, where a match has several files or a text format, a small wrapper.
// The viewer names no game: each game's descriptor says how its matches are read and drawn.
#include <filesystem>
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

namespace arb::view {

struct MatchView {
    std::string game;
    nlohmann::json data;                 // the object above
    std::filesystem::path folder;        // the match's folder, where one was given or found
};

// Whether a replay's text is a JSON object (its first character past white space is '{'): the
// readers then get it parsed (ReplayText::json).
bool is_json_text(std::string_view text);

// Throws UserError naming the file and what is wrong with it (not a record or a replay of a game
// the viewer knows, a replay that its game's reader refuses, a record whose replay is missing).
MatchView load_match_view(const std::filesystem::path& input);

// Where `arbiter view INPUT` writes its page by default: viewer.html in a match folder (given, or
// holding the record given), else INPUT's file name with .html in the current folder.
std::filesystem::path default_page_path(const std::filesystem::path& input);

// What `arbiter view` reads besides records, for its help and messages: each game's replay kind
// (GameViewer::kind), "KIND, KIND; KIND only through their match's record", the last part naming
// the games whose replay is a folder of logs.
std::string replay_kinds();

}  // namespace arb::view
