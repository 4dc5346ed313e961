#pragma once
// Replays in the original JSON format (ants.md 8.1): reading them (and checking their numbers),
// the recording's food and spawns as engine inputs, and writing ours. Replaying a recording
// through the engine is ants_verify.hpp.
#include <filesystem>
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

// The whole replay file the original's worker writes (ants.md 8.1): the engine's replaydata in
// its wrapper, with each player's status and last turn, the scores, ranks and game length.
// player_names may be empty (no playernames key then).
nlohmann::json replay_file(const AntsEngine& engine, const std::vector<std::string>& status,
                           const std::vector<int>& playerturns, int game_length,
                           const std::vector<std::string>& player_names);

// Writes a replay (the whole file: the wrapper and its replaydata) as one line of JSON; a file
// that cannot be written is logged, not thrown: the match has been played.
void write_replay(const std::filesystem::path& path, const nlohmann::json& replay);

}  // namespace arb::ants
