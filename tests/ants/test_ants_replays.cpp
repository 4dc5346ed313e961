// Level A (ants.md section 11): the recorded orders and food of games played by the original
// engine, replayed through ours, give the same state after every turn.
#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>
#include <functional>
#include <vector>

#include "core/user_error.hpp"
#include "rules/ants/ants_replay.hpp"
#include "rules/ants/ants_verify.hpp"
#include "rules/ants/cpython_random.hpp"
#include "tests/ants/ants_test_support.hpp"

namespace {

using arb::ants::test::kReplays;

void check_outcome(const arb::VerifyOutcome& outcome, int expected_turns) {
    INFO(outcome.first_difference);
    CHECK(outcome.ok);
    CHECK(outcome.steps == expected_turns);
}

void check_replay(const std::string& name, int expected_turns) {
    check_outcome(arb::ants::verify_replay_file(kReplays / name), expected_turns);
}

// Level C: the food and spawn choices drawn from the recorded engine_seed.
void check_seed_exact_replay(const std::string& name, int expected_turns) {
    check_outcome(arb::ants::verify_recorded_game(arb::ants::load_recorded_game(kReplays / name), true), expected_turns);
}

}  // namespace

TEST_CASE("level A: maze_02p_02 HunterBot vs GreedyBot replays with zero differences") {
    check_replay("maze_02p_02__HunterBot_vs_GreedyBot__seed42__rank_stabilized.replay.json", 396);
}

TEST_CASE("level A: random_walk_04p_01 four bots lone survivor replays with zero differences") {
    check_replay("random_walk_04p_01__Hunter_Lefty_Random_Greedy__seed42__lone_survivor.replay.json", 725);
}

TEST_CASE("level A: the io fixture replay replays with zero differences") {
    check_replay("io_fixture_random_walk_04p_01/0.replay", 725);
}

TEST_CASE("level A: a tampered replay is reported at the first differing turn") {
    auto game = arb::ants::load_recorded_game(
        kReplays / "maze_02p_02__HunterBot_vs_GreedyBot__seed42__rank_stabilized.replay.json");
    // Move one recorded hive value: the comparison must name that turn and field.
    game.replaydata["hive_history"][0][50] = game.replaydata["hive_history"][0][50].get<int>() + 7;
    const auto outcome = arb::ants::verify_recorded_game(game);
    CHECK_FALSE(outcome.ok);
    CHECK(outcome.first_difference.rfind("turn 50: field 'hive_history'", 0) == 0);
}

// Level C (ants.md section 9): with a CPython-compatible generator making the original's random
// calls in its order, the engine seed alone reproduces the recorded food (parameters, starting
// food, every later food item in order) and spawn choices, given the recorded orders.
TEST_CASE("level C: engine_seed 42 regenerates the food of maze_02p_02") {
    check_seed_exact_replay("maze_02p_02__HunterBot_vs_GreedyBot__seed42__rank_stabilized.replay.json", 396);
}

TEST_CASE("level C: engine_seed 42 regenerates the food of random_walk_04p_01") {
    check_seed_exact_replay("random_walk_04p_01__Hunter_Lefty_Random_Greedy__seed42__lone_survivor.replay.json", 725);
}

TEST_CASE("level C: the CPython generator gives CPython's numbers") {
    // random.seed(42); random.random() == 0.6394267984578837 (CPython 3.2+, a documented value
    // reproduced in countless tutorials); randrange(5, 12) etc. give the replay's food settings.
    arb::ants::CPythonRandom rng(42);
    CHECK(rng.random() == doctest::Approx(0.6394267984578837).epsilon(1e-15));
    arb::ants::CPythonRandom draws(42);
    CHECK(draws.randrange(5, 12) == 10);
    CHECK(draws.randrange(19, 38) == 22);
    CHECK(draws.randrange(75, 176) == 78);
}

TEST_CASE("level C: CPython's set iteration order for food-set locations") {
    // Values printed by CPython 3.11: list(set([(3,4),(10,2),(7,7),(0,1),(5,5)])) (5 items:
    // the table grows from 8 to 32 slots) and a two-item set.
    using V = std::vector<std::pair<int, int>>;
    CHECK(arb::ants::python_set_order(V{{3, 4}, {10, 2}, {7, 7}, {0, 1}, {5, 5}}) ==
          V{{0, 1}, {5, 5}, {3, 4}, {7, 7}, {10, 2}});
    CHECK(arb::ants::python_set_order(V{{1, 1}, {1, 1}}) == V{{1, 1}});
    // 3 to 10 random squares (up to 10 players), orders printed by CPython 3.11.
    CHECK(arb::ants::python_set_order(V{{60, 151}, {139, 33}, {94, 154}}) ==
          V{{94, 154}, {60, 151}, {139, 33}});
    CHECK(arb::ants::python_set_order(V{{60, 77}, {26, 184}, {101, 122}, {39, 23}}) ==
          V{{26, 184}, {39, 23}, {60, 77}, {101, 122}});
    CHECK(arb::ants::python_set_order(V{{146, 20}, {124, 195}, {66, 9}, {0, 37}, {120, 194}, {95, 81}}) ==
          V{{95, 81}, {66, 9}, {124, 195}, {146, 20}, {0, 37}, {120, 194}});
    CHECK(arb::ants::python_set_order(V{{82, 38}, {101, 166}, {12, 18}, {137, 24}, {93, 149}, {14, 129}, {54, 9}}) ==
          V{{101, 166}, {93, 149}, {54, 9}, {82, 38}, {14, 129}, {12, 18}, {137, 24}});
    CHECK(arb::ants::python_set_order(V{{118, 156}, {95, 68}, {35, 47}, {1, 86}, {128, 118}, {20, 85}, {141, 157}, {10, 186}, {97, 43}}) ==
          V{{1, 86}, {20, 85}, {95, 68}, {97, 43}, {10, 186}, {141, 157}, {128, 118}, {35, 47}, {118, 156}});
    CHECK(arb::ants::python_set_order(V{{146, 8}, {109, 123}, {147, 3}, {52, 118}, {125, 71}, {41, 8}, {133, 125}, {83, 19}, {63, 190}, {92, 11}}) ==
          V{{41, 8}, {125, 71}, {83, 19}, {133, 125}, {146, 8}, {63, 190}, {147, 3}, {92, 11}, {52, 118}, {109, 123}});
}

TEST_CASE("a replay with numbers out of range is one clear error, never a crash") {
    std::ifstream in(kReplays / "maze_02p_02__HunterBot_vs_GreedyBot__seed42__rank_stabilized.replay.json");
    const nlohmann::json original = nlohmann::json::parse(in);
    struct Case {
        const char* what;
        std::function<void(nlohmann::json&)> change;
        const char* message;
    };
    const std::vector<Case> cases = {
        {"no players", [](auto& rd) { rd["players"] = 0; }, "'players' must be an integer from 1 to 26, not 0"},
        {"revision 99", [](auto& rd) { rd["revision"] = 99; }, "'revision' must be an integer from 2 to 3, not 99"},
        {"hill owner 7", [](auto& rd) { rd["hills"][0][2] = 7; }, "hills 0 owner must be an integer from 0 to 1, not 7"},
        {"a short score list", [](auto& rd) { rd["scores"].erase(1); }, "'scores' must have one list per player (2)"},
        {"an ant outside the map", [](auto& rd) { rd["ants"][0][0] = 1000000; }, "ants 0 row must be an integer from 0 to 71"},
        {"an ant owner 7", [](auto& rd) { rd["ants"][3][4] = 7; }, "ants 3 owner must be an integer from 0 to 1, not 7"},
        {"food outside the map", [](auto& rd) { rd["food"][0][1] = -5; }, "food 0 column must be an integer from 0 to"},
        {"a radius of 10^9", [](auto& rd) { rd["viewradius2"] = 1000000000; }, "'viewradius2' must be an integer from 0 to 1000000"},
        {"10^9 rows", [](auto& rd) { rd["map"]["rows"] = 1000000000; }, "'map.rows' must be an integer from 1 to 1000"},
        {"a string for a number", [](auto& rd) { rd["hills"][1][0] = "x"; }, "hills 1 row must be an integer"},
    };
    for (const auto& c : cases) {
        CAPTURE(c.what);
        nlohmann::json replay = original;
        c.change(replay["replaydata"]);
        CHECK_THROWS_WITH_AS(arb::ants::parse_recorded_game(replay, "r.json"), doctest::Contains(c.message), arb::UserError);
    }
    CHECK_NOTHROW(arb::ants::parse_recorded_game(original, "r.json"));
}
