#pragma once
// The official .dighere JSON: fields (a game log with no plays) and game logs, read and written
// in the official manager's format (samurai.md 1.2 and 1.3). The check of a recorded game
// against our engine is samurai_verify.hpp.
#include <array>
#include <cstdint>
#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

#include "rules/game.hpp"
#include "rules/samurai/samurai_engine.hpp"

namespace arb::samurai {

// One element of "plays".
struct LoggedPlay {
    int step = 0;
    std::array<std::int64_t, kAgents> plans{};  // as logged; the official manager logs raw plans
    Plans actions{};
    std::array<Agent, kAgents> agents{};        // after the step
    bool directions_logged = true;              // false in pre-release logs (files.html)
    std::array<int, 2> scores{};                // cumulative, after the step
    std::array<std::int64_t, kAgents> time_left{};  // ms; never compared (wall clock)
};

struct GameLog {
    Field field;
    std::vector<LoggedPlay> plays;
};

// Parses a .dighere text. Every key the manager requires must be there (it aborts otherwise);
// numbers are truncated to integers as the manager does. Throws UserError naming `source` and
// the key on a malformed file, and for fields we cannot play (size < 1, agents off the field).
GameLog parse_game_log(std::string_view text, const std::string& source);
GameLog read_game_log(const std::filesystem::path& path);

LoggedPlay to_logged_play(const StepRecord& record, const std::array<std::int64_t, kAgents>& time_left);

// The log as the official manager writes it: one line of JSON, keys in alphabetical order,
// "field" without name/params, then a newline.
std::string game_log_json(const GameLog& log);
void write_game_log(const std::filesystem::path& path, const GameLog& log);

}  // namespace arb::samurai
