#pragma once
// The Ants referee: the original engine's turn loop (ants.md section 2, worker/engine.py)
// over a Table. Seat i is player i. Every bot gets exactly the text the original sends:
// the turn-0 block + "ready", then "turn t", its visible state and "go" each turn, and the end
// block; it answers with order lines ended by "go" (any case) (ants_protocol.hpp). The seats are
// asked through the seat driver (rules/seat_driver.hpp).
#include <filesystem>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/seat.hpp"
#include "rules/ants/ants_engine.hpp"
#include "rules/game.hpp"
#include "core/seat.hpp"

namespace arb::ants {

struct AntsRefereeSettings {
    bool strict = false;                    // --strict: an invalid order line puts the bot out
    std::vector<std::string> player_names;  // for the replay's playernames
    // Called when the original engine shuffles its list of live bots (every turn, turn 0 too),
    // so a seed-exact game consumes the same random numbers. Gets the live bot count.
    std::function<void(int live_bots)> bots_listed;
    // When set, receives the original's stream log (ants.md 8.3) piece by piece: the start
    // block, each turn's full state before its orders, and the end block.
    std::function<void(std::string_view text)> stream;
    // Where the replay so far is written as the game plays (rules/live_replay.hpp); empty = not.
    std::filesystem::path live_replay;
};

struct AntsMatchOutcome {
    std::vector<std::string> status;  // survived / eliminated / crashed / crashed 0 / timeout / invalid
    std::vector<SeatFault> faults;    // per player: how a failed reply ended it (core/seat.hpp)
    std::vector<int> playerturns;
    int game_length = 0;
    nlohmann::json replay;            // the whole replay file, original format
};

// Plays a whole game on an engine that is set up and not started. Bot faults are results.
AntsMatchOutcome run_ants_match(AntsEngine& engine, Table& table, const AntsRefereeSettings& settings);

// Scores, ranks (1 = best), statuses and rating pairs for the match record.
RefereeResult referee_result(const AntsEngine& engine, const AntsMatchOutcome& outcome);

}  // namespace arb::ants
