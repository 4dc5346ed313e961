#pragma once
// The Planowanie game log: what `arbiter play planowanie --replay FILE` writes and
// `arbiter verify planowanie FILE` checks. The seed defines no log format, so this one is ours:
// one JSON object with the configuration, the deal seed, and per deal the hands, the
// declarations, every trick (leader, cards in play order, winner) and the points.
//
//   {"game": "planowanie", "version": 1, "deck": {"values": "...", "suits": "..."}, "players": 4,
//    "schedule": [[1, 0], [2, 1], ...], "deal_seed": 7,
//    "deals": [{"cards": 1, "starter": 0, "hands": [["2C"], ...], "declarations": [0, 1, 0, 0],
//               "tricks": [{"leader": 0, "cards": ["2C", "JC", "9S", "2D"], "winner": 1}],
//               "taken": [0, 1, 0, 0], "points": [1, 2, 1, 1]}, ...],
//    "scores": [...], "end_reason": "completed"}
//
// A match ended by a fault has a last deal with fewer tricks and no "taken"/"points". When it
// ended while asking for a decision the log has no place for (a declaration round or a card that
// never came), "fault": {"during": "declarations" | "play", "seats": [...]} says so: the viewer
// draws that request as a frame of its own, the step the transcript marks it at.
#include <cstdint>
#include <filesystem>
#include <nlohmann/json_fwd.hpp>
#include <optional>
#include <string>
#include <vector>

#include "rules/game.hpp"
#include "rules/planowanie/planowanie_engine.hpp"

namespace arb::planowanie {

struct TrickLog {
    int leader = 0;
    std::vector<std::string> cards;  // in play order, from the leader
    std::optional<int> winner;       // empty for a trick cut short by a fault
};

struct DealLog {
    int cards = 0;
    int starter = 0;
    std::vector<std::vector<std::string>> hands;
    std::vector<int> declarations;  // empty when the match ended during the declarations
    std::vector<TrickLog> tricks;
    std::vector<int> taken;   // empty for a deal cut short
    std::vector<int> points;  // empty for a deal cut short
};

// The decision a fault left unanswered: the match's last step.
struct FaultLog {
    std::string during;      // "declarations" or "play"
    std::vector<int> seats;  // the seats that failed to give it
};

struct GameLog {
    std::string values;
    std::string suits;
    int players = 0;
    std::vector<DealSpec> schedule;
    std::optional<std::uint64_t> deal_seed;
    std::vector<DealLog> deals;
    std::vector<int> scores;
    std::string end_reason;
    std::optional<FaultLog> fault;
};

nlohmann::json to_json(const GameLog& log);
// Throws UserError naming the field when the JSON is not a Planowanie log.
GameLog game_log_from_json(const nlohmann::json& json);

void write_game_log(const std::filesystem::path& path, const GameLog& log);
GameLog read_game_log(const std::filesystem::path& path);  // throws UserError

}  // namespace arb::planowanie
