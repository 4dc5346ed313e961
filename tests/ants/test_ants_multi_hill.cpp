// Games recorded with the original engine on maps where every player owns several hills
// (tests/ants/data/multi_hill/README.md): replayed through ours, each gives the recorded game
// turn for turn and at the end (ants, food, hills, scores, hive, bonus, cutoff, game length,
// score, rank, status, player turns), from the recorded food and spawns (level A) and from the
// engine seed alone (level C: food and spawn order drawn as the original draws them).
#include <doctest/doctest.h>

#include <filesystem>
#include <string>
#include <utility>

#include "rules/ants/ants_map.hpp"
#include "rules/ants/ants_replay.hpp"
#include "rules/ants/ants_verify.hpp"

namespace {

const std::filesystem::path kGames = std::filesystem::path(ARBITER_SOURCE_DIR) / "tests/ants/data/multi_hill";
const std::filesystem::path kSharedMaps = std::filesystem::path(ARBITER_SHARED_DIR) / "data/ants/maps";

void check_both_levels(const std::string& name, int expected_turns) {
    const auto game = arb::ants::load_recorded_game(kGames / (name + ".replay.json"));
    for (const bool seed_exact : {false, true}) {
        CAPTURE(seed_exact);
        const auto outcome = arb::ants::verify_recorded_game(game, seed_exact);
        INFO(outcome.first_difference);
        CHECK(outcome.ok);
        CHECK(outcome.steps == expected_turns);
    }
}

}  // namespace

TEST_CASE("multi-hill: maze_p02_28, 2 players with 4 hills each, replays as recorded") {
    check_both_levels("maze_p02_28__Hunter_Lefty", 300);
}

TEST_CASE("multi-hill: maze_04p_02, 4 players with 2 hills each, replays as recorded") {
    check_both_levels("maze_04p_02__Hunter_Greedy_Lefty_Random", 300);
}

TEST_CASE("multi-hill: maze_04p_02 with a crashed and a timed-out player replays as recorded") {
    check_both_levels("maze_04p_02__Hunter_Error_Timeout_Greedy", 200);
}

TEST_CASE("multi-hill: maze_07p_01, 7 players with 4 hills each, replays as recorded") {
    check_both_levels("maze_07p_01__seven_bots", 200);
}

TEST_CASE("multi-hill: cell_maze_p10_02, 10 players with 2 hills each, replays as recorded") {
    check_both_levels("cell_maze_p10_02__ten_bots", 150);
}

// The games above build the engine from the replay's hill list; a game played from the map file
// (`arbiter play ants`) must list the same hills in the same order, since the original's per-turn
// spawn draws and its replay follow that order, and see the same water.
TEST_CASE("multi-hill: the map files give the recorded hill order and water") {
    const std::pair<const char*, std::filesystem::path> cases[] = {
        {"maze_p02_28__Hunter_Lefty", kSharedMaps / "maze_p02_28.map"},
        {"maze_04p_02__Hunter_Greedy_Lefty_Random", kGames / "maps/maze_04p_02.map"},
        {"maze_07p_01__seven_bots", kGames / "maps/maze_07p_01.map"},
        {"cell_maze_p10_02__ten_bots", kGames / "maps/cell_maze_p10_02.map"},
    };
    for (const auto& [game_name, map_file] : cases) {
        const char* name = game_name;  // CAPTURE's lambda cannot name a structured binding (clang 14)
        CAPTURE(name);
        const auto game = arb::ants::load_recorded_game(kGames / (std::string(name) + ".replay.json"));
        const auto map = arb::ants::load_map_file(map_file.string());
        REQUIRE(map.hills.size() == game.map.hills.size());
        for (std::size_t h = 0; h < map.hills.size(); ++h) {
            CAPTURE(h);
            CHECK(map.hills[h].row == game.map.hills[h].row);
            CHECK(map.hills[h].col == game.map.hills[h].col);
            CHECK(map.hills[h].owner == game.map.hills[h].owner);
        }
        CHECK(map.water == game.map.water);
    }
}
