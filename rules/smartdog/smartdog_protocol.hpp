#pragma once
// What a smart-dog seat says and how its replies are framed and read (smartdog.md 9, seed 004):
// the first line `join <username> [hub]`, then each turn `do` lines up to `end`. What the server
// answers to each line is the session's (smartdog_session.hpp), which `verify` also replays from
// a transcript with no seats at all.
#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/seat.hpp"

namespace arb::smartdog {

// A turn's reply of kMaxCommandsPerTurn lines or more is a flood (ruling 6).
inline constexpr int kMaxCommandsPerTurn = 1000;

// A player's first line must be `join <username> [hub]` (any user name); anything else gets
// this answer and the player is out.
bool is_join(std::string_view line);
inline constexpr std::string_view kExpectedJoin = "error Expected join <username> [hub]";
// A line whose command (the text up to the first space, '\r' aside) is `join`: after the first,
// the session answers it `error Already joined`.
bool is_join_command(std::string_view line);

// The line's words between single spaces (runs of spaces give no empty words).
std::vector<std::string> split_words(const std::string& line);
// The hub a `join` names, its leading '#' stripped; "" when it names none.
std::string hub_of(const std::vector<std::string>& words);

// A good first line: the hub it names ("" for none). The seat is known by its connection, so
// the user name is not kept.
struct Join {
    std::string hub;
};
// The reader of the join reply for the seat driver: nullopt when the first line is no `join`.
std::optional<Join> read_join(const Reply& reply);

// Lines up to `end` (dropped); more than kMaxCommandsPerTurn lines end the reply early, and the
// missing `end` marks it a flood.
ReplyFramer turn_framer();
// The reader of a turn's reply for the seat driver: its command lines as they came, or nullopt
// for a flood (kMaxCommandsPerTurn lines or more).
std::optional<std::vector<std::string>> read_commands(const Reply& reply);

}  // namespace arb::smartdog
