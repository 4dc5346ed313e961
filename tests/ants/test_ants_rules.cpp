// Rule cases for each phase of the Ants turn, written from ../shared/rules/ants.md (section in
// each test name). Scenario maps put ants and food exactly where the case needs them
// (lower-case letter = ant of that player, digit = hill, upper-case = hill with its ant).
#include <doctest/doctest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "core/table/scripted_table.hpp"
#include "rules/ants/ants_engine.hpp"
#include "rules/ants/ants_food.hpp"
#include "rules/ants/ants_referee.hpp"
#include "tests/ants/ants_test_support.hpp"

using namespace arb::ants;

namespace {

AntsParams scenario_params() {
    AntsParams p;
    p.food_rate = 0;
    p.food_turn = 1;
    p.scenario = true;
    return p;
}

AntsEngine make(int players, const std::vector<std::string>& rows, AntsParams params = scenario_params()) {
    return AntsEngine(parse_map(test::scenario_map_text(players, rows), "test map"), params, std::make_unique<NoFood>(),
                      nullptr);
}

// One turn with the given order lines per player (only live players get theirs).
std::vector<OrderVerdicts> turn(AntsEngine& e, const std::vector<std::vector<std::string>>& orders) {
    e.start_turn();
    std::vector<OrderVerdicts> out(e.players());
    for (int p = 0; p < e.players(); ++p)
        if (e.is_alive(p) && p < static_cast<int>(orders.size())) out[p] = e.do_moves(p, orders[p]);
    e.finish_turn();
    return out;
}

int ant_owner_at(const AntsEngine& e, int row, int col) {
    const int a = e.ant_at(e.cell(row, col));
    return a < 0 ? -1 : e.ants()[a].owner;
}

int live_ants(const AntsEngine& e) {
    return static_cast<int>(std::count_if(e.ants().begin(), e.ants().end(), [](const Ant& a) { return a.alive(); }));
}

const std::vector<std::string> kOpen = {
    "..........", "..........", "..........", "..........", "..........",
    "..........", "..........", "..........", "..........", ".........."};

std::vector<std::string> with(std::vector<std::string> rows, const std::vector<std::tuple<int, int, char>>& marks) {
    for (auto [r, c, ch] : marks) rows[r][c] = ch;
    return rows;
}

}  // namespace

// ---------------------------------------------------------------------------------------------
TEST_CASE("3.1 orders: every invalid and ignored verdict of the original") {
    auto e = make(2, with(kOpen, {{2, 2, 'a'}, {2, 3, '%'}, {4, 9, 'b'}, {7, 7, 'a'}, {6, 7, '*'}, {9, 9, 'a'}}));
    e.start_turn();
    const auto v = e.do_moves(0, {
                                     "",                 // skipped
                                     "# a comment",      // skipped
                                     "x 2 2 n",          // unknown action
                                     "o 2 2",            // incorrectly formatted order
                                     "o two 2 n",        // invalid row or col
                                     "o 2 2 up",         // invalid direction
                                     "o 5 5 n",          // not player ant (empty square)
                                     "o 4 9 n",          // not player ant (enemy ant)
                                     "o 10 2 n",         // out of bounds
                                     "o -1 -1 n",        // wraps onto our ant at 9 9: out of bounds
                                     "o -2 -2 n",        // wraps onto an empty square: not player ant
                                     "o 2 2 e",          // blocked by water: ignored
                                     "O 2 2 N",          // upper case is accepted
                                     "o 2 2 s",          // duplicate order
                                     "o 7 7 n",          // blocked by food: ignored
                                     "o +7 7 w",         // Python int(): '+7' is 7, accepted
                                 });
    CHECK(v.valid == std::vector<std::size_t>{12, 15});  // "O 2 2 N" and "o +7 7 w"
    CHECK(v.ignored == std::vector<std::string>{"o 2 2 e # move blocked", "o 7 7 n # move blocked"});
    CHECK(v.invalid == std::vector<std::string>{
                           "x 2 2 n # unknown action", "o 2 2 # incorrectly formatted order",
                           "o two 2 n # invalid row or col", "o 2 2 up # invalid direction",
                           "o 5 5 n # not player ant", "o 4 9 n # not player ant", "o 10 2 n # out of bounds",
                           "o -1 -1 n # out of bounds", "o -2 -2 n # not player ant", "o 2 2 s # duplicate order"});
    e.finish_turn();
    CHECK(ant_owner_at(e, 1, 2) == 0);
    CHECK(ant_owner_at(e, 7, 6) == 0);
}

TEST_CASE("3.1 orders: plain lines and the same orders spelled otherwise get the same verdicts") {
    // "o R C D" lines take a direct reader; every other spelling goes through the general
    // tokenizer. Both must agree on every verdict and on the moves made.
    const auto rows = with(kOpen, {{2, 2, 'a'}, {2, 3, '%'}, {4, 4, 'a'}, {6, 6, 'a'}, {7, 7, 'a'}, {6, 7, '*'},
                                   {9, 9, 'b'}});
    const std::vector<std::string> plain = {"o 2 2 n", "o 2 2 e", "o 4 4 w", "o 4 4 s", "o 5 5 n", "o 9 9 n",
                                            "o 10 2 n", "o 06 6 s", "o 7 7 n", "o 1234567 1 n"};
    const std::vector<std::string> spelled = {"  o 2 2 n\r", "O  2\t2 E", "o +4 4 w ", "o 4 4 S", "o 5 5 N",
                                              "o 9 +9 n", "o 1_0 2 n", "\to 6 6 s", "o 7 7 n\n", "o 1234567 1 n "};
    auto a = make(2, rows);
    auto b = make(2, rows);
    const auto va = turn(a, {plain, {}});
    const auto vb = turn(b, {spelled, {}});
    auto strip_line = [](const std::vector<std::string>& verdicts) {
        std::vector<std::string> reasons;
        for (const auto& v : verdicts) reasons.push_back(v.substr(v.find(" # ")));
        return reasons;
    };
    CHECK(va[0].valid == vb[0].valid);
    CHECK(va[0].valid == std::vector<std::size_t>{0, 2, 7});
    CHECK(strip_line(va[0].ignored) == strip_line(vb[0].ignored));
    CHECK(strip_line(va[0].invalid) == strip_line(vb[0].invalid));
    CHECK(va[0].ignored == std::vector<std::string>{"o 7 7 n # move blocked"});
    CHECK(va[0].invalid == std::vector<std::string>{"o 2 2 e # duplicate order", "o 4 4 s # duplicate order",
                                                    "o 5 5 n # not player ant", "o 9 9 n # not player ant",
                                                    "o 10 2 n # out of bounds", "o 1234567 1 n # out of bounds"});
    CHECK(vb[0].invalid[0] == "o  2\t2 e # duplicate order");  // lower-cased and stripped, as the original
    for (int c = 0; c < 100; ++c) CHECK(ant_owner_at(a, c / 10, c % 10) == ant_owner_at(b, c / 10, c % 10));
}

TEST_CASE("3.1 orders: a blocked first order does not reserve the ant") {
    auto e = make(2, with(kOpen, {{2, 2, 'a'}, {1, 2, '%'}, {8, 8, 'b'}}));
    const auto v = turn(e, {{"o 2 2 n", "o 2 2 s"}});
    CHECK(v[0].ignored.size() == 1);
    CHECK(v[0].valid == std::vector<std::size_t>{1});
    CHECK(ant_owner_at(e, 3, 2) == 0);
}

TEST_CASE("3.2 moves: the torus wraps and every ant records its executed move") {
    auto e = make(2, with(kOpen, {{0, 0, 'a'}, {5, 5, 'b'}}));
    turn(e, {{"o 0 0 n"}, {}});
    CHECK(ant_owner_at(e, 9, 0) == 0);
    turn(e, {{"o 9 0 w"}, {}});
    CHECK(ant_owner_at(e, 9, 9) == 0);
    CHECK(e.ants()[0].orders == "nw");
    CHECK(e.ants()[1].orders == "--");
}

TEST_CASE("3.2 collisions: all ants on one square die, own ants and stationary ones too") {
    auto e = make(2, with(kOpen, {{2, 2, 'a'}, {2, 4, 'a'}, {6, 6, 'a'}, {6, 7, 'a'}, {0, 9, 'b'}}));
    turn(e, {{"o 2 2 e", "o 2 4 w", "o 6 6 e"}, {}});
    CHECK(ant_owner_at(e, 2, 3) == -1);
    CHECK(ant_owner_at(e, 6, 7) == -1);  // the ant that held still dies with the one that moved in
    CHECK(live_ants(e) == 1);
    CHECK(e.killed_this_turn().size() == 4);
    for (int a : e.killed_this_turn()) CHECK(e.ants()[a].die_turn == 1);
}

TEST_CASE("3.2 swaps: two adjacent ants may pass through each other") {
    auto e = make(2, with(kOpen, {{4, 4, 'a'}, {4, 5, 'a'}, {0, 0, 'b'}}));
    turn(e, {{"o 4 4 e", "o 4 5 w"}, {}});
    CHECK(live_ants(e) == 3);
    // Ants are listed by owner in order of first appearance (b at 0 0 comes first).
    CHECK(e.ants()[1].cell == e.cell(4, 5));
    CHECK(e.ants()[2].cell == e.cell(4, 4));
    CHECK(e.ants()[1].orders == "e");
}

TEST_CASE("3.3 focus battle: one against one in range, both die") {
    auto e = make(2, with(kOpen, {{4, 4, 'a'}, {5, 6, 'b'}}));  // d2 = 1 + 4 = 5 = attackradius2
    turn(e, {});
    CHECK(live_ants(e) == 0);
}

TEST_CASE("3.3 focus battle: out of range (d2 = 8) nobody dies") {
    auto e = make(2, with(kOpen, {{4, 4, 'a'}, {6, 6, 'b'}}));
    turn(e, {});
    CHECK(live_ants(e) == 2);
}

TEST_CASE("3.3 focus battle: a lone ant against two dies, the pair survives") {
    auto e = make(2, with(kOpen, {{4, 4, 'a'}, {4, 6, 'b'}, {5, 5, 'b'}}));
    turn(e, {});
    CHECK(ant_owner_at(e, 4, 4) == -1);
    CHECK(ant_owner_at(e, 4, 6) == 1);
    CHECK(ant_owner_at(e, 5, 5) == 1);
}

TEST_CASE("3.3 focus battle: a chain a-b-a where b faces two, and a three-player melee") {
    // b at (4,5) has two enemies, each a has one: b dies, both a survive.
    auto e = make(2, with(kOpen, {{4, 3, 'a'}, {4, 5, 'b'}, {4, 7, 'a'}}));
    turn(e, {});
    CHECK(live_ants(e) == 2);
    CHECK(ant_owner_at(e, 4, 5) == -1);
    // three owners, each ant sees two enemies: everyone's weakness 2 <= 2, all die.
    auto m = make(3, with(kOpen, {{4, 4, 'a'}, {4, 5, 'b'}, {5, 4, 'c'}}));
    turn(m, {});
    CHECK(live_ants(m) == 0);
}

TEST_CASE("3.4 razing: an enemy ant on a hill razes it, +2 to the razer, -1 to the owner") {
    auto e = make(2, with(kOpen, {{2, 2, '0'}, {2, 4, 'b'}, {8, 8, 'a'}}));
    const int start = e.scores()[0];
    turn(e, {{}, {"o 2 4 w"}});
    turn(e, {{}, {"o 2 3 w"}});
    REQUIRE(e.hills()[0].end_turn == 2);
    CHECK(e.hills()[0].killed_by == 1);
    CHECK(e.scores()[1] == start + 2);
    CHECK(e.scores()[0] == start - 1);
    CHECK(e.cutoff_turns() == 0);
    // The razed hill is no longer sent to anyone, and the ant standing on it is not consumed.
    CHECK(ant_owner_at(e, 2, 2) == 1);
}

TEST_CASE("3.4 razing: an own ant on the hill only marks it touched") {
    auto e = make(2, with(kOpen, {{2, 2, 'A'}, {8, 8, 'b'}}));
    turn(e, {});
    CHECK(e.hills()[0].standing());
    CHECK(e.hills()[0].last_touched == 1);
}

TEST_CASE("3.6 gathering: one owner gathers into its hive, 3.5 the hive spawns next turn") {
    auto e = make(2, with(kOpen, {{2, 2, '0'}, {4, 4, 'a'}, {4, 5, '*'}, {8, 8, 'b'}}));
    turn(e, {});
    CHECK(e.food()[0].end_turn == 1);
    CHECK(e.food()[0].owner == 0);
    CHECK(e.hive()[0] == 1);
    CHECK(e.ants().size() == 2);  // spawning came before gathering this turn
    turn(e, {});
    CHECK(e.hive()[0] == 0);
    REQUIRE(e.ants().size() == 3);
    CHECK(e.ants()[2].cell == e.cell(2, 2));
    CHECK(e.ants()[2].spawn_turn == 2);
    CHECK(e.ants()[2].orders.empty());
}

TEST_CASE("3.6 gathering: contested food is destroyed, nobody gains") {
    AntsParams params = scenario_params();
    params.spawnradius2 = 4;   // both ants reach the food...
    params.attackradius2 = 1;  // ...without fighting each other
    auto e = make(2, with(kOpen, {{4, 3, 'a'}, {4, 5, '*'}, {4, 7, 'b'}}), params);
    turn(e, {});
    CHECK(e.food()[0].end_turn == 1);
    CHECK(e.food()[0].owner == kNoOwner);
    CHECK(e.hive() == std::vector<int>{0, 0});
    CHECK(live_ants(e) == 2);
}

TEST_CASE("3.5 spawning: an ant on the hill blocks it, the least recently touched hill goes first") {
    // Player 0 has two hills; it gathers one food per turn from two food squares.
    auto e = make(2, with(kOpen, {{1, 1, 'A'}, {1, 8, '0'}, {5, 5, 'a'}, {5, 6, '*'}, {7, 0, 'b'}}));
    turn(e, {});  // turn 1: own ant touches hill (1,1); food gathered
    CHECK(e.hive()[0] == 1);
    turn(e, {});  // turn 2: (1,1) is occupied, (1,8) was touched at 0: spawn there
    REQUIRE(e.ants().size() == 4);
    CHECK(e.ants()[3].cell == e.cell(1, 8));
}

TEST_CASE("3.5 spawning: among free hills the one touched longest ago spawns") {
    AntsParams params = scenario_params();
    auto e = make(2, with(kOpen, {{1, 1, 'A'}, {1, 8, 'A'}, {5, 5, 'a'}, {5, 6, '*'}, {7, 0, 'b'}}), params);
    turn(e, {{"o 1 1 s"}});  // leaves (1,1) at turn 1 (last touched 0); (1,8) touched at 1
    CHECK(e.hive()[0] == 1);
    turn(e, {});
    REQUIRE(e.ants().size() == 5);
    CHECK(e.ants()[4].cell == e.cell(1, 1));
}

TEST_CASE("4 lone survivor: the game ends and the survivor gets +2 per standing enemy hill") {
    auto e = make(2, with(kOpen, {{1, 1, 'A'}, {8, 8, 'B'}, {4, 4, 'a'}, {4, 6, 'a'}, {4, 5, 'b'}}));
    turn(e, {{}, {"o 8 8 n"}});  // b at (4,5) dies to two a; B leaves its hill
    CHECK(!e.game_over());
    // Kill player 1's last ant by walking two ants next to it.
    auto f = make(2, with(kOpen, {{1, 1, '0'}, {8, 8, '1'}, {4, 4, 'a'}, {4, 6, 'a'}, {4, 5, 'b'}}));
    turn(f, {});
    CHECK(!f.is_alive(1));
    REQUIRE(f.game_over());
    CHECK(f.cutoff() == "lone survivor");
    f.finish_game();
    CHECK(f.bonus() == std::vector<int>{2, -1});
    CHECK(f.scores() == std::vector<int>{3, 0});
    CHECK(f.score_history()[0].back() == 1);  // the bonus is not in the history
    CHECK(f.hills()[1].end_turn == -1);       // recorded as standing until the end
}

TEST_CASE("4 extermination: nobody has ants left") {
    auto e = make(2, with(kOpen, {{4, 4, 'a'}, {5, 6, 'b'}}));
    turn(e, {});
    REQUIRE(e.game_over());
    CHECK(e.cutoff() == "extermination");
}

TEST_CASE("4 rank stabilized: no remaining hill can change the order") {
    auto e = make(2, with(kOpen, {{2, 2, '0'}, {2, 3, 'b'}, {8, 8, '1'}, {5, 8, 'a'}}));
    CHECK(!e.game_over());  // both have hills: razing could still change the order
    turn(e, {{}, {"o 2 3 w"}});
    CHECK(e.scores() == std::vector<int>{0, 3});
    REQUIRE(e.game_over());
    CHECK(e.cutoff() == "rank stabilized");
}

TEST_CASE("4 crash: the player is out and loses its hill point, its ants stay") {
    auto e = make(2, with(kOpen, {{1, 1, 'A'}, {8, 8, 'B'}}));
    e.kill_player(1);
    CHECK(e.scores() == std::vector<int>{1, 0});
    CHECK(live_ants(e) == 2);
    CHECK_FALSE(e.is_alive(1));
    REQUIRE(e.game_over());
    CHECK(e.cutoff() == "lone survivor");
    e.finish_game();
    CHECK(e.bonus() == std::vector<int>{2, 0});  // its point for the hill was already taken
}

TEST_CASE("3.8 cutoff: food not being gathered ends the game after cutoff_turn turns") {
    AntsParams params = scenario_params();
    params.cutoff_turn = 3;
    std::vector<std::tuple<int, int, char>> marks{{0, 0, 'A'}, {0, 5, 'B'}};
    for (int c = 0; c < 10; ++c) {
        marks.push_back({6, c, '*'});
        marks.push_back({7, c, '*'});
    }
    auto e = make(2, with(kOpen, marks), params);
    for (int t = 1; t <= 3; ++t) {
        CHECK(!e.game_over());
        turn(e, {});
        CHECK(e.cutoff_turns() == t);
    }
    REQUIRE(e.game_over());
    CHECK(e.cutoff() == "food not being gathered");
}

TEST_CASE("3.8 cutoff: one player holding the population ends it as ants not razing hills") {
    AntsParams params = scenario_params();
    params.cutoff_turn = 2;
    std::vector<std::tuple<int, int, char>> marks{{0, 0, 'A'}, {0, 5, 'B'}};
    for (int c = 0; c < 10; ++c) marks.push_back({6, c, 'a'});
    auto e = make(2, with(kOpen, marks), params);
    turn(e, {});
    CHECK(!e.game_over());
    turn(e, {});
    REQUIRE(e.game_over());
    CHECK(e.cutoff() == "ants not razing hills");
}

TEST_CASE("3.8 cutoff: razing a hill resets the counter") {
    AntsParams params = scenario_params();
    params.cutoff_turn = 100;
    std::vector<std::tuple<int, int, char>> marks{{0, 0, 'A'}, {5, 5, '1'}, {2, 8, 'b'}, {5, 4, 'a'}};
    for (int c = 0; c < 10; ++c) marks.push_back({8, c, 'a'});
    auto e = make(2, with(kOpen, marks), params);
    turn(e, {});
    CHECK(e.cutoff_turns() == 1);
    turn(e, {{"o 5 4 e"}, {}});
    CHECK(e.hills()[1].end_turn == 2);
    CHECK(e.cutoff_turns() == 1);  // reset to 0 by the raze, then counted again for this turn
}

TEST_CASE("2 vision: water is sent once, own dead ants are always reported") {
    auto e = make(2, with(kOpen, {{3, 3, 'a'}, {3, 5, '%'}, {9, 0, 'b'}}));
    e.start_game();
    const std::string first = e.player_state_text(0);
    CHECK(first.find("w 3 5\n") != std::string::npos);
    turn(e, {});
    CHECK(e.player_state_text(0).find("w 3 5") == std::string::npos);
}

TEST_CASE("2 referee: the turn limit ends the game, a crash puts a bot out but its ants stay") {
    AntsParams params;
    params.food_rate = 0;
    params.food_turn = 1;
    params.turns = 5;
    const std::string text = "rows 10\ncols 10\nplayers 3\nm 0.........\nm ..........\nm ..........\n"
                             "m ....1.....\nm ..........\nm ..........\nm .......2..\nm ..........\n"
                             "m ..........\nm ..........\n";
    AntsEngine engine(parse_map(text, "test map"), params, std::make_unique<NoFood>(), nullptr);
    std::vector<arb::ScriptedTable::Seat> seats;
    for (int p = 0; p < 3; ++p) {
        arb::ScriptedTable::Seat seat;
        seat.info = {p, "bot" + std::to_string(p), "p" + std::to_string(p)};
        seat.bot = [p](std::string_view request) {
            if (p == 2 && request.rfind("turn 3\n", 0) == 0) return arb::ScriptedAnswer::crash();
            return arb::ScriptedAnswer::text("go\n");
        };
        seats.push_back(std::move(seat));
    }
    arb::ScriptedTable table(std::move(seats));
    const auto outcome = run_ants_match(engine, table, {});
    CHECK(outcome.game_length == 5);
    CHECK(engine.cutoff() == "turn limit reached");
    CHECK(outcome.status == std::vector<std::string>{"survived", "survived", "crashed"});
    CHECK(outcome.playerturns == std::vector<int>{5, 5, 3});
    CHECK(engine.scores() == std::vector<int>{1, 1, 0});
    CHECK(engine.ant_count(2) == 1);  // the crashed player's ant stays on the map
    const auto result = referee_result(engine, outcome);
    CHECK(result.participants[2].status == arb::SeatStatus::crashed);
    CHECK(result.participants[0].rank == 1);
    CHECK(result.participants[2].rank == 3);
    CHECK(outcome.replay["replaydata"]["cutoff"] == "turn limit reached");
}
