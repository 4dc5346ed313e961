// The Planowanie game descriptor over in-process bots: deal-set rotations, option checking and
// the match plan, and match logs that replay through the engine (tampering is found).
#include <doctest/doctest.h>

#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "core/user_error.hpp"

#include "tests/planowanie/planowanie_referee_helpers.hpp"

using namespace arb;
using namespace arb::planowanie;
using namespace planowanie_test;
using namespace planowanie_referee_test;
using namespace std::chrono_literals;

TEST_CASE("planowanie game: every rotation of a deal set gives each seat the same hands") {
    const GameDescriptor game = describe_game();
    MatchRequest base;
    base.game = "planowanie";
    for (int i = 0; i < 4; ++i)
        base.bots.push_back(parse_bot_spec("name=b" + std::to_string(i) + " cmd=/bin/true"));
    base.seed = 555;
    base.options = GameOptions(game.options, {{"schedule", "3 5 0 8 1 13 2"}});
    std::vector<std::vector<std::string>> hands_by_rotation;
    for (int r = 0; r < 4; ++r) {
        const MatchRequest request = rotated_request(base, r);
        ScriptedTable table = make_table(random_bots(4, 10 + static_cast<std::uint64_t>(r)));
        const RefereeResult result = game.referee(request, table);
        REQUIRE(result.end_reason == "completed");
        std::vector<std::string> hands;
        for (int s = 0; s < 4; ++s) {
            for (const auto& c : commands_to(table, s)) {
                if (starts_with(c, "set_cards")) hands.push_back(std::to_string(s) + ": " + c);
            }
        }
        CHECK(hands.size() == 12);
        hands_by_rotation.push_back(hands);
    }
    for (int r = 1; r < 4; ++r) CHECK(hands_by_rotation[r] == hands_by_rotation[0]);
    MatchRequest other = base;
    other.seed = 556;
    ScriptedTable table = make_table(random_bots(4));
    game.referee(other, table);
    std::vector<std::string> hands;
    for (int s = 0; s < 4; ++s) {
        for (const auto& c : commands_to(table, s)) {
            if (starts_with(c, "set_cards")) hands.push_back(std::to_string(s) + ": " + c);
        }
    }
    CHECK(hands != hands_by_rotation[0]);
}

TEST_CASE("planowanie game: options are checked and the plan gives each seat the match budget") {
    const GameDescriptor game = describe_game();
    CHECK(game.name == "planowanie");
    auto request_with = [&](std::map<std::string, std::string> options, int bots = 4) {
        MatchRequest request;
        for (int i = 0; i < bots; ++i)
            request.bots.push_back(parse_bot_spec("name=b" + std::to_string(i) + " cmd=/bin/true"));
        request.options = GameOptions(game.options, std::move(options));
        return request;
    };
    const auto seats = game.plan(request_with({}));
    REQUIRE(seats.size() == 4);
    CHECK(seats[0].time.total_budget == Millis{180000});
    CHECK_FALSE(seats[0].time.per_request.has_value());
    CHECK(seats[3].label == "p3");
    CHECK(seats[3].bot == 3);
    CHECK(game.plan(request_with({{"total-time-ms", "5000"}}))[1].time.total_budget == Millis{5000});
    CHECK(game.plan(request_with({}, 2)).size() == 2);
    CHECK(game.plan(request_with({{"deck-values", "TJQKA"}, {"deck-suits", "HS"}}, 3)).size() == 3);
    CHECK_THROWS_AS(game.plan(request_with({{"deck-values", "AA"}})), UserError);
    CHECK_THROWS_AS(game.plan(request_with({{"deck-suits", ""}})), UserError);
    CHECK_THROWS_AS(game.plan(request_with({{"schedule", "2 1 0"}})), UserError);
    CHECK_THROWS_AS(game.plan(request_with({{"schedule", "1 14 0"}})), UserError);
    CHECK_THROWS_AS(game.plan(request_with({{"schedule", "1 1 4"}})), UserError);
    CHECK_THROWS_AS(game.plan(request_with({{"schedule", "1 x 0"}})), UserError);
    CHECK_THROWS_AS(game.plan(request_with({{"end", "stop"}})), UserError);
    CHECK_THROWS_AS(game.plan(request_with({{"total-time-ms", "0"}})), UserError);
    CHECK_THROWS_AS(
        game.plan(request_with({{"deck-values", "TJQKA"}, {"deck-suits", "HS"}, {"schedule", "1 3 0"}}, 4)),
        UserError);
    try {
        game.plan(request_with({{"schedule", "1 14 0"}}));
    } catch (const UserError& e) {
        CHECK(std::string(e.what()).find("deal 1 needs 14 x 4 cards") != std::string::npos);
    }
}

TEST_CASE("planowanie log: a full match's log replays through the engine, tampering is found") {
    const auto path = scratch_file("full.json");
    std::filesystem::remove(path);
    ScriptedTable table = make_table(random_bots(4, 21));
    const RefereeResult result = run_referee(settings_for(Config::tournament(), 808, true, path), table);
    REQUIRE(result.end_reason == "completed");
    const GameLog log = read_game_log(path);
    CHECK(log.deals.size() == 13);
    CHECK(log.deal_seed == std::optional<std::uint64_t>(808));
    for (int s = 0; s < 4; ++s) CHECK(log.scores[s] == result.participants[s].score);
    const VerifyOutcome ok = verify_game_log(log);
    CHECK(ok.ok);
    CHECK(ok.first_difference.empty());
    CHECK(ok.steps == 13 * 4 + 91 * 4);  // declarations and cards
    // The log goes through JSON unchanged.
    CHECK(to_json(game_log_from_json(to_json(log))) == to_json(log));

    GameLog card = log;
    std::swap(card.deals[5].tricks[1].cards[0], card.deals[5].tricks[2].cards[0]);
    CHECK_FALSE(verify_game_log(card).ok);
    GameLog points = log;
    points.deals[12].points[0] += 1;
    const VerifyOutcome bad_points = verify_game_log(points);
    CHECK_FALSE(bad_points.ok);
    CHECK(bad_points.first_difference == "deal 13: points differ");
    GameLog hands = log;
    std::swap(hands.deals[3].hands[0][0], hands.deals[3].hands[1][0]);
    CHECK(verify_game_log(hands).first_difference ==
          "deal 4: the hands are not the ones the deal seed gives");
    GameLog winner = log;
    winner.deals[2].tricks[0].winner = (*winner.deals[2].tricks[0].winner + 1) % 4;
    CHECK(verify_game_log(winner).first_difference.find("winner") != std::string::npos);
    GameLog scores = log;
    scores.scores[2] += 1;
    CHECK(verify_game_log(scores).first_difference == "final scores differ");
}

TEST_CASE("planowanie log: a match ended by a fault logs the deals up to the fault") {
    const auto path = scratch_file("fault.json");
    std::vector<ScriptedBot> bots = random_bots(4);
    bots[1] = random_bot(2, on("gen_move", 4, ScriptedAnswer::crash()));
    ScriptedTable table = make_table(std::move(bots));
    const RefereeResult result = run_referee(settings_for(Config::tournament(), 42, true, path), table);
    REQUIRE(result.end_reason == "seat 1 crashed");
    const GameLog log = read_game_log(path);
    CHECK(log.end_reason == "seat 1 crashed");
    REQUIRE(log.deals.size() == 5);
    CHECK(log.deals.back().points.empty());
    CHECK(verify_game_log(log).ok);
    // The card that never came is the match's last step: the log names it for the viewer.
    REQUIRE(log.fault);
    CHECK(log.fault->during == "play");
    CHECK(log.fault->seats == std::vector<int>{1});
    CHECK(to_json(game_log_from_json(to_json(log))) == to_json(log));
    nlohmann::json bad = to_json(log);
    bad["fault"]["during"] = "deal";
    CHECK_THROWS_AS(game_log_from_json(bad), UserError);
    bad = to_json(log);
    bad["fault"]["seats"] = {4};
    CHECK_THROWS_AS(game_log_from_json(bad), UserError);
}

TEST_CASE("planowanie log: a fault in the declarations is named, not one in a broadcast (its frame is drawn)") {
    const auto path = scratch_file("fault-declare.json");
    std::vector<ScriptedBot> bots = random_bots(4);
    bots[2] = random_bot(3, on("gen_declare", 2, ScriptedAnswer::crash()));
    ScriptedTable table = make_table(std::move(bots));
    REQUIRE(run_referee(settings_for(Config::tournament(), 42, true, path), table).end_reason == "seat 2 crashed");
    GameLog log = read_game_log(path);
    REQUIRE(log.fault);
    CHECK(log.fault->during == "declarations");
    CHECK(log.fault->seats == std::vector<int>{2});
    CHECK(log.deals.back().declarations.empty());

    std::vector<ScriptedBot> more = random_bots(4);
    more[0] = random_bot(1, on("set_cards", 2, ScriptedAnswer::crash()));
    ScriptedTable dealt = make_table(std::move(more));
    REQUIRE(run_referee(settings_for(Config::tournament(), 42, true, path), dealt).end_reason == "seat 0 crashed");
    log = read_game_log(path);
    CHECK_FALSE(log.fault);
}

TEST_CASE("planowanie log: unreadable logs are user errors") {
    const GameDescriptor game = describe_game();
    REQUIRE(game.verify);
    const auto path = scratch_file("not-a-log.json");
    std::ofstream(path) << "{\"game\": \"ants\"}";
    CHECK_THROWS_AS(game.verify(path), UserError);
    std::ofstream(path) << "not json";
    CHECK_THROWS_AS(game.verify(path), UserError);
    std::ofstream(path) << "{\"game\": \"planowanie\", \"version\": 1}";
    CHECK_THROWS_AS(game.verify(path), UserError);
    CHECK_THROWS_AS(game.verify(scratch_file("missing.json")), UserError);
}
