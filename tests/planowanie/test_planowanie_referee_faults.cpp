// The referee's adjudication paths over in-process bots: illegal and malformed answers, crashes,
// timeouts, junk floods, scores at a fault and several seats failing at once.
#include <doctest/doctest.h>

#include "tests/planowanie/planowanie_referee_helpers.hpp"

using namespace arb;
using namespace arb::planowanie;
using namespace planowanie_test;
using namespace planowanie_referee_test;
using namespace std::chrono_literals;

TEST_CASE("planowanie referee: an illegal card ends the match, the player loses to each other") {
    std::vector<ScriptedBot> bots = random_bots(4);
    bots[1] = random_bot(2,
                         [](std::string_view command, int deal,
                            const planowanie_bot::Game& game) -> std::optional<ScriptedAnswer> {
                             if (deal == 2 && command == "gen_move")
                                 return ScriptedAnswer::text("= " + card_not_in_hand(game) + "\n\n");
                             return std::nullopt;
                         });
    ScriptedTable table = make_table(std::move(bots));
    const RefereeResult result = run_referee(settings_for(Config::tournament()), table);
    check_fault_result(result, 1, SeatStatus::illegal, table);
    CHECK(result.participants[1].detail.find("not in the hand") != std::string::npos);
    CHECK(result.participants[1].detail.find("deal 3") != std::string::npos);
    CHECK(result.turns == 2);
}

TEST_CASE("planowanie referee: not following suit is an illegal card") {
    std::vector<ScriptedBot> bots = random_bots(4);
    bots[3] = random_bot(
        4,
        [](std::string_view command, int, const planowanie_bot::Game& game) -> std::optional<ScriptedAnswer> {
            if (command != "gen_move" || game.trick.empty()) return std::nullopt;
            const int led = game.trick.front().card.suit;
            const bool holds =
                std::any_of(game.hand.begin(), game.hand.end(), [&](auto& c) { return c.suit == led; });
            for (const auto& c : game.hand) {
                if (holds && c.suit != led) return ScriptedAnswer::text("= " + game.text(c) + "\n\n");
            }
            return std::nullopt;
        });
    ScriptedTable table = make_table(std::move(bots));
    const RefereeResult result = run_referee(settings_for(Config::tournament()), table);
    check_fault_result(result, 3, SeatStatus::illegal, table);
    CHECK(result.participants[3].detail.find("does not follow") != std::string::npos);
}

TEST_CASE("planowanie referee: malformed cards and declarations are illegal") {
    struct Case {
        const char* command;
        const char* reply;
        const char* detail;
    };
    const Case cases[] = {
        {"gen_move", "= ZZ\n\n", "malformed card 'ZZ'"},
        {"gen_move", "= AS AH\n\n", "malformed card"},
        {"gen_move", "=\n\n", "malformed card ''"},
        {"gen_declare", "= abc\n\n", "malformed declaration 'abc'"},
        {"gen_declare", "= -1\n\n", "illegal declaration -1"},
        {"gen_declare", "= 3\n\n", "outside 0..2"},  // deal 2 has 2 cards
    };
    for (const Case& c : cases) {
        CAPTURE(c.reply);
        ScriptedTable table = make_table(random_bots_with_fault(0, on(c.command, 1, ScriptedAnswer::text(c.reply))));
        const RefereeResult result = run_referee(settings_for(Config::tournament()), table);
        check_fault_result(result, 0, SeatStatus::illegal, table);
        CHECK(result.participants[0].detail.find(c.detail) != std::string::npos);
    }
}

TEST_CASE("planowanie referee: a '?' answer to gen_declare or gen_move is a fault") {
    for (const char* command : {"gen_declare", "gen_move"}) {
        CAPTURE(command);
        ScriptedTable table = make_table(random_bots_with_fault(2, on(command, 0, ScriptedAnswer::text("? cannot decide\n\n"))));
        const RefereeResult result = run_referee(settings_for(Config::tournament()), table);
        check_fault_result(result, 2, SeatStatus::illegal, table);
        CHECK(result.participants[2].detail.find("answered '? cannot decide'") != std::string::npos);
    }
}

TEST_CASE("planowanie referee: a '?' answer to time_left or another informational command is fine") {
    for (const char* command : {"time_left", "play", "declare", "set_game"}) {
        CAPTURE(command);
        std::vector<ScriptedBot> bots = random_bots(4);
        ScriptedBot inner = bots[1];
        bots[1] = [inner, command = std::string(command)](std::string_view request) {
            ScriptedAnswer a = inner(request);  // keep the bot's state up to date
            if (starts_with(request, command)) a.output = "? not supported\n\n";
            return a;
        };
        ScriptedTable table = make_table(std::move(bots));
        const RefereeResult result = run_referee(settings_for(Config::tournament()), table);
        CHECK(result.end_reason == "completed");
        CHECK(result.participants[1].status == SeatStatus::ok);
        CHECK(result.participants[1].detail.find("protocol warnings") != std::string::npos);
    }
}

TEST_CASE("planowanie referee: a crash mid-deal ends the match") {
    ScriptedTable table = make_table(random_bots_with_fault(2, on("play", 4, ScriptedAnswer::crash())));
    const RefereeResult result = run_referee(settings_for(Config::tournament()), table);
    check_fault_result(result, 2, SeatStatus::crashed, table);
    CHECK(result.participants[2].detail.find("deal 5") != std::string::npos);
    CHECK(result.turns == 4);
}

TEST_CASE("planowanie referee: a timeout ends the match") {
    ScriptedTable table = make_table(random_bots_with_fault(0, on("gen_move", 6, ScriptedAnswer::timeout())));
    const RefereeResult result = run_referee(settings_for(Config::tournament()), table);
    check_fault_result(result, 0, SeatStatus::timeout, table);
    CHECK(result.participants[0].detail.find("gen_move") != std::string::npos);
}

TEST_CASE("planowanie referee: a reply without its empty line runs the bot out of time") {
    ScriptedTable table = make_table(random_bots_with_fault(3, on("gen_declare", 0, ScriptedAnswer::text("= 0\n"))));
    const RefereeResult result = run_referee(settings_for(Config::tournament()), table);
    check_fault_result(result, 3, SeatStatus::timeout, table);
    CHECK(result.participants[3].detail.find("received '= 0' but no closing empty line") !=
          std::string::npos);
}

TEST_CASE("planowanie referee: a flood of junk instead of a reply is illegal") {
    std::string flood;
    for (int i = 0; i <= kMaxJunkLines; ++i) flood += "debug line " + std::to_string(i) + "\n";
    ScriptedTable table = make_table(random_bots_with_fault(1, on("set_cards", 3, ScriptedAnswer::text(flood))));
    const RefereeResult result = run_referee(settings_for(Config::tournament()), table);
    check_fault_result(result, 1, SeatStatus::illegal, table);
    CHECK(result.participants[1].detail.find("no '=' or '?' line") != std::string::npos);
}

TEST_CASE("planowanie referee: scores at a fault are the points of the completed deals") {
    std::vector<ScriptedBot> bots = first_legal_bots(4);
    // The fault's deal is the bot's deal index before the command: 1 = crash on the third set_cards.
    bots[2] = scripted_bot(std::make_shared<FirstLegal>(), on("set_cards", 1, ScriptedAnswer::crash()));
    ScriptedTable table = make_table(std::move(bots));
    const Config config = Config::tournament();
    const RefereeResult result = run_referee(settings_for(config, 31), table);
    REQUIRE(result.end_reason == "seat 2 crashed");
    // The same two deals played directly on the engine with the same policy.
    State state(config);
    for (int deal = 0; deal < 2; ++deal) {
        REQUIRE_FALSE(state.apply_deal(deal_hands(config, deal, 31)));
        for (int s = 0; s < 4; ++s) REQUIRE_FALSE(state.apply_declaration(s, 0));
        while (state.phase() == Phase::play) {
            const int s = state.to_move();
            REQUIRE_FALSE(state.apply_card(s, state.legal_cards(s).front()));
        }
    }
    for (int s = 0; s < 4; ++s) CHECK(result.participants[s].score == state.score(s));
    CHECK(result.turns == 2);
}

TEST_CASE("planowanie referee: seats failing on the same command all lose, only to the others") {
    std::vector<ScriptedBot> bots = random_bots(4);
    bots[1] = random_bot(2, on("gen_declare", 0, ScriptedAnswer::text("? no\n\n")));
    bots[3] = random_bot(4, on("gen_declare", 0, ScriptedAnswer::crash()));
    ScriptedTable table = make_table(std::move(bots));
    const RefereeResult result = run_referee(settings_for(Config::tournament()), table);
    CHECK(result.end_reason == "seat 1 illegal, seat 3 crashed");
    CHECK(result.participants[0].rank == 1);
    CHECK(result.participants[1].rank == 3);
    CHECK(result.participants[3].rank == 3);
    const std::vector<PairResult> expected = {{0, 1, 1.0}, {0, 3, 1.0}, {1, 2, 0.0}, {2, 3, 1.0}};
    CHECK(result.pairs == expected);
}
