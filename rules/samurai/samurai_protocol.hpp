#pragma once
// What a SamurAI agent's process reads and writes (rules.html "Player Processes"): each step the
// 13-line state text, and one line holding one integer, its plan.
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "core/seat.hpp"
#include "rules/samurai/samurai_engine.hpp"

namespace arb::samurai {

// The 13-line game state text of rules.html "Game State Information" for one agent.
std::string state_message(const Field& field, const GameState& state, int agent, std::int64_t think_time_left_ms);

// A plan line: one integer, optionally signed, with blanks around it. Anything else is no plan
// (nullopt), which the referee plays as -1 (rules.html "Invalid plans").
std::optional<std::int64_t> parse_plan(std::string_view line);

// The reader for the seat driver: the reply's first line as a plan.
inline std::optional<std::int64_t> read_plan(const Reply& reply) { return parse_plan(reply.first_line()); }

}  // namespace arb::samurai
