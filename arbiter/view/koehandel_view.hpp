#pragma once
// A Koehandel match for the viewer. Its logs are each seat's side of the conversation (requests
// with its own relative seat letters, replies, default actions), so the game is replayed through
// the engine from the record's seed, each seat answering as its log says: that gives every
// player's animals and money after every turn, the auctions with their bids and the cow trades
// with both offers, in the order they happened. A log that differs from the replay is refused.
#include <filesystem>

#include <nlohmann/json.hpp>

#include "core/match_record.hpp"

namespace arb::view {

// {"seats": N, "turns": [{"turn": t, "players": [{"animals": [...10], "money": [...6], "barred": b,
//   "score": s}], "deck": n, "bank": v, "events": [{"seat": s, "type": "...", "fields": {...},
//   "reply": "..." | null}]}], "end_reason": "..."}. Throws UserError naming the log and line.
nlohmann::json koehandel_replay(const MatchRecord& record, const std::filesystem::path& logs);

}  // namespace arb::view
