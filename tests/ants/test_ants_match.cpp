// Whole Ants matches with the sample bots as real processes: run_match end to end, the replay
// it writes verifies against our engine, the same seed gives the same bytes, and bot faults
// (a bot that exits, a bot that hangs) become results.
#include <doctest/doctest.h>

#include <filesystem>


#include <nlohmann/json.hpp>

#include "core/bot_spec.hpp"
#include "core/user_error.hpp"
#include "arbiter/match/match_runner.hpp"
#include "rules/ants/ants_game.hpp"
#include "rules/ants/ants_replay.hpp"
#include "rules/ants/ants_verify.hpp"
#include "tests/ants/ants_test_support.hpp"

namespace {

using namespace arb::ants::test;


arb::MatchRecord play(const arb::GameDescriptor& game, std::vector<std::string> bots,
                      std::map<std::string, std::string> options, const std::filesystem::path& replay,
                      std::uint64_t seed = 5) {
    arb::MatchRequest request;
    request.game = "ants";
    for (const auto& b : bots) request.bots.push_back(arb::parse_bot_spec(b));
    request.seed = seed;
    options.emplace("map", (kMaps / "tutorial1.map").string());
    request.options = arb::GameOptions(game.options, options);
    request.replay_path = replay;
    return arb::run_match(game, request);
}

}  // namespace

TEST_CASE("match: sample bots play a game whose replay verifies and reproduces byte for byte") {
    const auto game = arb::ants::describe_game();
    const auto dir = temp_dir("sample");
    const std::vector<std::string> bots = {"name=hunter cmd=" + (kBots / "hunter_bot").string(),
                                           "name=greedy cmd=" + (kBots / "greedy_bot").string()};
    const auto record = play(game, bots, {{"turns", "200"}}, dir / "a.json");
    REQUIRE(record.participants.size() == 2);
    CHECK(record.turns >= 1);
    CHECK(record.turns <= 200);
    for (const auto& p : record.participants) CHECK(p.status == arb::SeatStatus::ok);
    const auto outcome = arb::ants::verify_replay_file(dir / "a.json");
    INFO(outcome.first_difference);
    CHECK(outcome.ok);
    CHECK(outcome.steps == record.turns);
    play(game, bots, {{"turns", "200"}}, dir / "b.json");
    CHECK(read_file(dir / "a.json") == read_file(dir / "b.json"));
    std::filesystem::remove_all(dir);
}

TEST_CASE("match: a bot that exits at once is out, its ants stay, the other bot survives") {
    const auto game = arb::ants::describe_game();
    const auto dir = temp_dir("crash");
    const auto record = play(game, {"name=quitter cmd=\"sh -c 'exit 3'\"", "name=hold cmd=" + (kBots / "hold_bot").string()},
                             {{"turns", "50"}}, dir / "r.json");
    REQUIRE(record.participants.size() == 2);
    CHECK(record.participants[0].status == arb::SeatStatus::crashed);
    CHECK(record.participants[1].status == arb::SeatStatus::ok);
    CHECK(record.participants[1].rank == 1);
    const auto replay = nlohmann::json::parse(read_file(dir / "r.json"));
    CHECK(replay["status"][0].get<std::string>().rfind("crashed", 0) == 0);
    CHECK(replay["replaydata"]["cutoff"] == "lone survivor");
    std::filesystem::remove_all(dir);
}

TEST_CASE("match: under --strict an invalid order is recorded invalid, not eliminated") {
    const auto game = arb::ants::describe_game();
    const auto dir = temp_dir("strict");
    // Answers every turn with an order whose direction is not n, e, s or w.
    const std::string bad = "name=bad cmd=\"sh -c 'while read l; do case $l in ready|go) printf \\\"o 0 0 x\\\\ngo\\\\n\\\";; esac; done'\"";
    const auto record = play(game, {bad, "name=hold cmd=" + (kBots / "hold_bot").string()},
                             {{"turns", "20"}, {"strict", "true"}}, dir / "r.json");
    REQUIRE(record.participants.size() == 2);
    CHECK(record.participants[0].status == arb::SeatStatus::illegal);
    CHECK(record.participants[0].detail.rfind("invalid", 0) == 0);
    const auto replay = nlohmann::json::parse(read_file(dir / "r.json"));
    CHECK(replay["status"][0] == "invalid");
    const auto outcome = arb::ants::verify_replay_file(dir / "r.json");
    CHECK_MESSAGE(outcome.ok, outcome.first_difference);
    std::filesystem::remove_all(dir);
}

TEST_CASE("match: a bot that never answers times out at loadtime") {
    const auto game = arb::ants::describe_game();
    const auto dir = temp_dir("hang");
    const auto record = play(game, {"name=sleeper cmd=\"sleep 30\"", "name=hold cmd=" + (kBots / "hold_bot").string()},
                             {{"turns", "50"}, {"loadtime", "300"}}, dir / "r.json");
    REQUIRE(record.participants.size() == 2);
    CHECK(record.participants[0].status == arb::SeatStatus::timeout);
    CHECK(record.participants[1].rank == 1);
    const auto replay = nlohmann::json::parse(read_file(dir / "r.json"));
    CHECK(replay["status"][0] == "timeout");
    CHECK(replay["playerturns"][0] == 0);
    std::filesystem::remove_all(dir);
}

TEST_CASE("match: a map for another player count is a user error naming the map") {
    const auto game = arb::ants::describe_game();
    arb::MatchRequest request;
    request.bots = {arb::parse_bot_spec("name=a cmd=true"), arb::parse_bot_spec("name=b cmd=true")};
    request.options = arb::GameOptions(game.options, {{"map", (kMaps / "maze_04p_01.map").string()}});
    CHECK_THROWS_WITH_AS(game.plan(request), doctest::Contains("maze_04p_01.map"), arb::UserError);
}

TEST_CASE("match: one seat per bot, p0 and p1, on turntime with loadtime for the first reply") {
    const auto game = arb::ants::describe_game();
    arb::MatchRequest request;
    request.bots = {arb::parse_bot_spec("name=a cmd=true"), arb::parse_bot_spec("name=b cmd=true")};
    request.options = arb::GameOptions(game.options, {{"map", (kMaps / "tutorial1.map").string()},
                                                      {"turntime", "500"}, {"loadtime", "2000"}});
    const auto seats = game.plan(request);
    REQUIRE(seats.size() == 2);
    for (int b = 0; b < 2; ++b) {
        CHECK(seats[b].bot == b);
        CHECK(seats[b].label == "p" + std::to_string(b));
        CHECK(seats[b].time.per_request == arb::Millis{500});
        CHECK(seats[b].time.first_request == arb::Millis{2000});
        CHECK_FALSE(seats[b].time.total_budget.has_value());
    }
}

TEST_CASE("match: a bot killed for a line past the limit is recorded killed with the reason") {
    const auto game = arb::ants::describe_game();
    const auto dir = temp_dir("flood");
    // Two MB without a newline: past the 1 MiB line limit.
    const auto record = play(game, {"name=flood cmd=\"sh -c 'head -c 2000000 /dev/zero | tr \\\\\\\\0 x; sleep 5'\"",
                                    "name=hold cmd=" + (kBots / "hold_bot").string()},
                             {{"turns", "20"}}, dir / "r.json");
    REQUIRE(record.participants.size() == 2);
    CHECK(record.participants[0].status == arb::SeatStatus::killed);
    CHECK(record.participants[0].detail.find("line longer than") != std::string::npos);
    // The replay keeps the original's word for a bot that is out.
    const auto replay = nlohmann::json::parse(read_file(dir / "r.json"));
    CHECK(replay["status"][0].get<std::string>() == "crashed");
    std::filesystem::remove_all(dir);
}
