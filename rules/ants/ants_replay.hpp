#pragma once
// Reading replays in the original JSON format (ants.md 8.1) and replaying their recorded
// orders and food through our engine (ants.md section 11, level A).
#include <filesystem>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "rules/ants/ants_engine.hpp"
#include "rules/ants/ants_food.hpp"
#include "rules/game.hpp"

namespace arb::ants {

struct RecordedGame {
    nlohmann::json replaydata;           // the replaydata object
    nlohmann::json meta;                 // the wrapper without replaydata ({} for a bare replay)
    AntsMap map;                         // water from map.data '%', hills from replaydata.hills
    AntsParams params;
    int players = 0;
    std::vector<std::string> status;      // per player, empty if not recorded
    std::vector<int> playerturns;         // per player, empty if not recorded
};

// The largest replay file read (a 1000-turn 10-player game on a 200x200 map is about 10 MiB).
inline constexpr std::size_t kMaxReplayBytes = std::size_t{64} << 20;

// Throws UserError naming the file when it is not an Ants replay we can read.
RecordedGame load_recorded_game(const std::filesystem::path& path);
RecordedGame parse_recorded_game(const nlohmann::json& replay, const std::string& source);
// The replay's numbers in range (players, map size, radii, hill/ant/food rows and owners, one
// score and hive list per player): UserError naming the first that is not.
void check_replay_numbers(const nlohmann::json& replaydata, const std::string& source);

// The recorded food as a ScheduledFood source, and a spawn tie-break that puts the hills the
// replay shows a spawn on first, in the recorded creation order of those ants.
std::unique_ptr<ScheduledFood> recorded_food(const RecordedGame& game);
SpawnKey recorded_spawn_key(const RecordedGame& game);

// What a replay calls back, for the benchmark that times it: just before the engine is set up
// (after the recording is read), after turn 0, before each turn (where a referee builds every
// live bot's state text), and after the last turn (before the end state is compared).
struct ReplayHooks {
    std::function<void()> setup_begins;
    std::function<void(AntsEngine&)> started;
    std::function<void(AntsEngine&)> before_turn;
    std::function<void(AntsEngine&)> finished;
    bool compare_each_turn = true;  // false: only the end state (timing runs)
};

// Plays the recording through the engine: its orders as order lines, and its crashes, timeouts
// and invalid-order put-outs (status and playerturns) at their turns. Compares every turn and
// the whole end state (replaydata's ants, food, hills, scores, hive, bonus, cutoff, winning and
// ranking turn, final map rendering; game_length, score, rank, status, playerturns); ok only
// with zero differences. `steps` = turns compared.
// seed_exact (level C): instead of injecting the recorded food, draw the food parameters, the
// symmetric food and the spawn tie-breaks from a CPython-compatible generator seeded with the
// recorded engine_seed, making the original's random calls in its order (ants.md section 9).
VerifyOutcome verify_recorded_game(const RecordedGame& game, bool seed_exact = false, const ReplayHooks& hooks = {});
VerifyOutcome verify_replay_file(const std::filesystem::path& path);

}  // namespace arb::ants
