#pragma once
// What an Ants bot reads and writes (ants.md section 2, worker/engine.py): the turn-0 block and
// "ready", then each turn "turn t", its visible state and "go", and the end block; it answers
// with order lines ended by "go". The state lines themselves come from the engine
// (ants_bot_text.cpp), which renders them from its own tables.
#include <string>
#include <vector>

#include <fmt/format.h>

#include "core/seat.hpp"
#include "rules/ants/ants_engine.hpp"

namespace arb::ants {

// A "go" line ends a reply (case-insensitive, surrounding blanks ignored, as the original).
ReplyFramer go_framer();

// The reader for the seat driver is the driver's own `reply_lines`: every line before "go" is an
// order line, as it came, and the engine judges them (do_moves, ants.md 3.1).

// The words of one line of the original's text, space-separated, and numbers as its words.
std::string join_words(const std::vector<std::string>& words);
template <class T>
std::vector<std::string> to_words(const std::vector<T>& values) {
    std::vector<std::string> out;
    for (const auto& v : values) out.push_back(fmt::format("{}", v));
    return out;
}

// The turn-0 block with "ready".
std::string start_message(const AntsEngine& engine);
// "turn t", the player's visible state and "go".
std::string turn_message(AntsEngine& engine, int player, int turn);
// The end block in the player's own numbering ("None" for players it never saw), its last
// state and "go". `status` and `playerturns` are per player, in seat order.
std::string end_message(AntsEngine& engine, int player, const std::vector<std::string>& status,
                        const std::vector<int>& playerturns);

}  // namespace arb::ants
