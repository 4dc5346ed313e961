#pragma once
// The bots' side of a match for the viewer's panel: per step and bot, what the arbiter sent, what
// the bot replied, the time charged and what it printed, read from the match's transcript and
// bounded so that a page stays a page (the cut is said in "cut").
//
//   {"seats": [BOT, ...], "steps": {"K": [{"sent": [..], "reply": [..], "stderr": [..],
//    "notes": [..], "charged_ms": N|null} | null, ...]}, "notes": {"K": [..]}, "cut": ""}
#include <filesystem>

#include <nlohmann/json.hpp>

#include "core/match_record.hpp"

namespace arb::view {

inline constexpr std::size_t kSentLinesShown = 60;       // a request's lines per bot and step
inline constexpr std::size_t kBotIoBytes = 24u << 20;    // all of it, in a page

// Throws UserError for a transcript that cannot be read.
nlohmann::json bot_io_json(const std::filesystem::path& transcript, const MatchRecord& record);

}  // namespace arb::view
