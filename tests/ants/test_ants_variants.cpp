// The original's battle rules other than focus (--attack closest|support|damage) and its
// `sections` food placer (--food sections), as rules/ants/README.md states them from the final
// ants.py (do_attack_closest, do_attack_support, do_attack_damage, do_food_sections,
// access_map, start_game). Every expected outcome below was worked out by hand from those rules;
// each board is also run under focus (ants.md 3.3) where the rules disagree, so a rule that fell
// back to focus would fail.
#include <doctest/doctest.h>

#include <algorithm>
#include <filesystem>
#include <map>
#include <set>
#include <string>
#include <tuple>
#include <utility>
#include <vector>


#include <nlohmann/json.hpp>

#include "core/bot_spec.hpp"
#include "core/user_error.hpp"
#include "arbiter/match/match_runner.hpp"
#include "rules/ants/ants_engine.hpp"
#include "rules/ants/ants_food.hpp"
#include "rules/ants/ants_game.hpp"
#include "rules/ants/ants_replay.hpp"
#include "rules/ants/ants_verify.hpp"
#include "rules/ants/cpython_random.hpp"
#include "tests/ants/ants_test_support.hpp"

using namespace arb::ants;
using namespace arb::ants::test;

namespace {

using Square = std::pair<int, int>;

AntsParams scenario_params(AttackRule rule = AttackRule::focus) {
    AntsParams p;
    p.food_rate = 0;
    p.food_turn = 1;
    p.scenario = true;
    p.attack = rule;
    return p;
}

// A 10 x 10 open board with ants (a, b, c = players 0, 1, 2) at the given squares.
std::vector<std::string> board(const std::vector<std::tuple<int, int, char>>& ants) {
    std::vector<std::string> rows(10, std::string(10, '.'));
    for (auto [r, c, ch] : ants) rows[r][c] = ch;
    return rows;
}

// The squares of the ants alive after one turn without orders (moves: none, so only the
// battle phase can kill), sorted.
std::vector<Square> survivors(int players, const std::vector<std::tuple<int, int, char>>& ants, AttackRule rule) {
    AntsEngine e(parse_map(scenario_map_text(players, board(ants)), "test map"), scenario_params(rule),
                 std::make_unique<NoFood>(), nullptr);
    e.start_turn();
    e.finish_turn();
    std::vector<Square> out;
    for (const auto& a : e.ants())
        if (a.alive()) out.emplace_back(e.row_of(a.cell), e.col_of(a.cell));
    std::sort(out.begin(), out.end());
    return out;
}

using Squares = std::vector<Square>;

// Row 4: a at columns 3 4 5, b at 6 7 8.
const std::vector<std::tuple<int, int, char>> kLineOfThreeAgainstThree = {{4, 3, 'a'}, {4, 4, 'a'}, {4, 5, 'a'},
                                                                          {4, 6, 'b'}, {4, 7, 'b'}, {4, 8, 'b'}};
// b at 4 5 between a at 4 4 (d2 1), 3 3 (d2 5), 4 7 (d2 4) and 5 7 (d2 5).
const std::vector<std::tuple<int, int, char>> kBetweenTwoGroups = {{4, 5, 'b'}, {4, 4, 'a'}, {3, 3, 'a'}, {4, 7, 'a'}, {5, 7, 'a'}};

}  // namespace

// ---------------------------------------------------------------------------------------------
// Option names

TEST_CASE("3.3 attack rules: the four names of the original, and no other") {
    for (const char* name : {"focus", "closest", "support", "damage"}) {
        const auto rule = attack_rule_from_name(name);
        REQUIRE(rule.has_value());
        CHECK(attack_rule_name(*rule) == name);
    }
    CHECK_FALSE(attack_rule_from_name("Focus").has_value());
    CHECK_FALSE(attack_rule_from_name("").has_value());
}

// ---------------------------------------------------------------------------------------------
// do_attack_closest: groups linked at exactly distance d die, d = 1 .. attackradius2 - 1

TEST_CASE("3.3 do_attack_closest: one against one at d2 1 and d2 4 both die") {
    CHECK(survivors(2, {{4, 4, 'a'}, {4, 5, 'b'}}, AttackRule::closest).empty());
    CHECK(survivors(2, {{4, 4, 'a'}, {4, 6, 'b'}}, AttackRule::closest).empty());
}

TEST_CASE("3.3 do_attack_closest: at d2 = attackradius2 (5) nobody fights, unlike focus") {
    const std::vector<std::tuple<int, int, char>> ants = {{4, 4, 'a'}, {5, 6, 'b'}};
    CHECK(survivors(2, ants, AttackRule::closest) == Squares{{4, 4}, {5, 6}});
    CHECK(survivors(2, ants, AttackRule::focus).empty());
}

TEST_CASE("3.3 do_attack_closest: one against two, the nearer enemy dies with it, the farther survives") {
    // a-b1 at d2 1 form a group first; b2 (d2 4 from a) finds its only enemy dead.
    CHECK(survivors(2, {{4, 4, 'a'}, {4, 5, 'b'}, {4, 6, 'b'}}, AttackRule::closest) == Squares{{4, 6}});
    // both enemies at d2 1: one group of three, all die (focus: the lone ant dies, the pair lives).
    const std::vector<std::tuple<int, int, char>> pair = {{4, 4, 'a'}, {4, 5, 'b'}, {5, 4, 'b'}};
    CHECK(survivors(2, pair, AttackRule::closest).empty());
    CHECK(survivors(2, pair, AttackRule::focus) == Squares{{4, 5}, {5, 4}});
}

TEST_CASE("3.3 do_attack_closest: a line of three against three, only the front pair dies") {
    // a at columns 3 4 5, b at 6 7 8 of row 4: d2 1 only between a5-b6; the d2 4 links
    // (a4-b6, a5-b7) lead to ants already dead.
    const auto& line = kLineOfThreeAgainstThree;
    CHECK(survivors(2, line, AttackRule::closest) == Squares{{4, 3}, {4, 4}, {4, 7}, {4, 8}});
}

TEST_CASE("3.3 do_attack_closest: an ant between two enemy groups") {
    // b at 4 5; a at 4 4 (d2 1), 3 3 (d2 5), 4 7 (d2 4), 5 7 (d2 5). The d2 1 pair dies; 4 7 then
    // finds b dead; the d2 5 ants never fight.
    const auto& between = kBetweenTwoGroups;
    CHECK(survivors(2, between, AttackRule::closest) == Squares{{3, 3}, {4, 7}, {5, 7}});
    // a b a in a row at d2 1: one group through b, so both a (team mates) die with it.
    CHECK(survivors(2, {{4, 4, 'a'}, {4, 5, 'b'}, {4, 6, 'a'}}, AttackRule::closest).empty());
}

TEST_CASE("3.3 do_attack_closest: three players") {
    // a-b at d2 1 die first; c is d2 4 from b only and survives.
    CHECK(survivors(3, {{4, 4, 'a'}, {4, 5, 'b'}, {4, 7, 'c'}}, AttackRule::closest) == Squares{{4, 7}});
    // a-b and a-c at d2 1, b-c at d2 2: the d2 1 group holds all three.
    CHECK(survivors(3, {{4, 4, 'a'}, {4, 5, 'b'}, {5, 4, 'c'}}, AttackRule::closest).empty());
    // b-c at d2 2 die at distance 2; a (d2 5 from c, 13 from b) is out of every group. Focus:
    // c faces two and dies, a and b live.
    const std::vector<std::tuple<int, int, char>> apart = {{4, 4, 'a'}, {6, 7, 'b'}, {5, 6, 'c'}};
    CHECK(survivors(3, apart, AttackRule::closest) == Squares{{4, 4}});
    CHECK(survivors(3, apart, AttackRule::focus) == Squares{{4, 4}, {6, 7}});
}

// ---------------------------------------------------------------------------------------------
// do_attack_support: the friend count is always 0 in the original, so any enemy in range kills

TEST_CASE("3.3 do_attack_support: one against one at d2 5 both die") {
    CHECK(survivors(2, {{4, 4, 'a'}, {5, 6, 'b'}}, AttackRule::support).empty());
    CHECK(survivors(2, {{4, 4, 'a'}, {6, 6, 'b'}}, AttackRule::support) == Squares{{4, 4}, {6, 6}});
}

TEST_CASE("3.3 do_attack_support: one against two all three die") {
    CHECK(survivors(2, {{4, 4, 'a'}, {4, 6, 'b'}, {5, 5, 'b'}}, AttackRule::support).empty());
}

TEST_CASE("3.3 do_attack_support: a line of three against three, friends in range do not save anyone") {
    // a5 has two friends and two enemies, a4 two friends and one enemy: both die all the same.
    // Only the back ants (no enemy within d2 5) survive.
    const auto& line = kLineOfThreeAgainstThree;
    CHECK(survivors(2, line, AttackRule::support) == Squares{{4, 3}, {4, 8}});
}

TEST_CASE("3.3 do_attack_support: an ant between two enemy groups, and three players") {
    const auto& between = kBetweenTwoGroups;
    CHECK(survivors(2, between, AttackRule::support).empty());
    CHECK(survivors(2, between, AttackRule::focus) == Squares{{3, 3}, {4, 4}, {4, 7}, {5, 7}});
    // a-b in range, c far from both: c survives.
    CHECK(survivors(3, {{4, 4, 'a'}, {4, 5, 'b'}, {8, 8, 'c'}}, AttackRule::support) == Squares{{8, 8}});
    CHECK(survivors(3, {{4, 4, 'a'}, {4, 5, 'b'}, {4, 7, 'c'}}, AttackRule::support).empty());
}

// ---------------------------------------------------------------------------------------------
// do_attack_damage: each ant deals 1/n to each of its n enemies; total damage >= 1 kills

TEST_CASE("3.3 do_attack_damage: one against one both die, one against two the lone ant dies") {
    CHECK(survivors(2, {{4, 4, 'a'}, {5, 6, 'b'}}, AttackRule::damage).empty());
    // a takes 1 + 1, each b takes 1/2.
    CHECK(survivors(2, {{4, 4, 'a'}, {4, 6, 'b'}, {5, 5, 'b'}}, AttackRule::damage) == Squares{{4, 6}, {5, 5}});
}

TEST_CASE("3.3 do_attack_damage: exactly 1 kills, 1/2 + 1/3 does not (focus kills both times)") {
    // a at 4 4 between b1 (4 5) and b2 (4 3); b1 also fights a2 (4 7), b2 also fights a3 (4 1).
    // n(a) = n(b1) = n(b2) = 2, n(a2) = n(a3) = 1. a takes 1/2 + 1/2 = 1: dies; b1, b2 take
    // 1/2 + 1: die; a2, a3 take 1/2: live.
    std::vector<std::tuple<int, int, char>> ants = {{4, 4, 'a'}, {4, 5, 'b'}, {4, 3, 'b'}, {4, 7, 'a'}, {4, 1, 'a'}};
    CHECK(survivors(2, ants, AttackRule::damage) == Squares{{4, 1}, {4, 7}});
    // a4 at 2 3 also fights b2 (d2 4, and d2 8 from b1): n(b2) = 3, so a takes 1/2 + 1/3 < 1 and
    // lives; b2 takes 1/2 + 1 + 1, b1 1/2 + 1: both die; a2 takes 1/2, a3 and a4 1/3.
    ants.emplace_back(2, 3, 'a');
    CHECK(survivors(2, ants, AttackRule::damage) == Squares{{2, 3}, {4, 1}, {4, 4}, {4, 7}});
    CHECK(survivors(2, ants, AttackRule::focus) == Squares{{2, 3}, {4, 1}, {4, 7}});
}

TEST_CASE("3.3 do_attack_damage: a line of three against three") {
    // n: a4 1, a5 2, b6 2, b7 1. a4 takes 1/2, a5 1/2 + 1, b6 1/2 + 1, b7 1/2.
    const auto& line = kLineOfThreeAgainstThree;
    CHECK(survivors(2, line, AttackRule::damage) == Squares{{4, 3}, {4, 4}, {4, 7}, {4, 8}});
}

TEST_CASE("3.3 do_attack_damage: an ant between two enemy groups, and three players") {
    // b has four enemies with one enemy each: b takes 4, each a takes 1/4.
    const auto& between = kBetweenTwoGroups;
    CHECK(survivors(2, between, AttackRule::damage) == Squares{{3, 3}, {4, 4}, {4, 7}, {5, 7}});
    // three mutual enemies with two enemies each: 1/2 + 1/2 = 1 for everyone.
    CHECK(survivors(3, {{4, 4, 'a'}, {4, 5, 'b'}, {5, 4, 'c'}}, AttackRule::damage).empty());
    // a-b-c in a row (a-b d2 1, b-c d2 4, a-c out of range): n(b) = 2, so a and c take 1/2; b takes 2.
    CHECK(survivors(3, {{4, 4, 'a'}, {4, 5, 'b'}, {4, 7, 'c'}}, AttackRule::damage) == Squares{{4, 4}, {4, 7}});
}

TEST_CASE("3.3 battle rules: the same board under all four rules") {
    // a-b at d2 1, b-c at d2 4: focus and damage kill only b, support all three, closest a and b.
    const std::vector<std::tuple<int, int, char>> ants = {{4, 4, 'a'}, {4, 5, 'b'}, {4, 7, 'c'}};
    CHECK(survivors(3, ants, AttackRule::focus) == Squares{{4, 4}, {4, 7}});
    CHECK(survivors(3, ants, AttackRule::damage) == Squares{{4, 4}, {4, 7}});
    CHECK(survivors(3, ants, AttackRule::support).empty());
    CHECK(survivors(3, ants, AttackRule::closest) == Squares{{4, 7}});
}

TEST_CASE("3.3 battle rules: collisions happen before the battle, dead ants do not fight") {
    // Two a ants step onto one square next to b: they die in the move phase, b survives under
    // every rule.
    for (AttackRule rule : {AttackRule::focus, AttackRule::closest, AttackRule::support, AttackRule::damage}) {
        AntsEngine e(parse_map(scenario_map_text(2, board({{4, 3, 'a'}, {4, 5, 'a'}, {5, 4, 'b'}})), "test map"),
                     scenario_params(rule), std::make_unique<NoFood>(), nullptr);
        e.start_turn();
        e.do_moves(0, {"o 4 3 e", "o 4 5 w"});
        e.finish_turn();
        INFO(attack_rule_name(rule));
        CHECK(e.ant_at(e.cell(5, 4)) >= 0);
        CHECK(e.killed_this_turn().size() == 2);
    }
}

// ---------------------------------------------------------------------------------------------
// do_food_sections / access_map

namespace {

// One row of land between water: a at column 0, b at column 4, water at column 3; row 1 water.
// Torus: column 7 touches column 0.
const std::vector<std::string> kStrip = {"a..%b...", "%%%%%%%%"};

AntsEngine strip_engine() {
    return AntsEngine(parse_map(scenario_map_text(2, kStrip), "strip"), scenario_params(), std::make_unique<NoFood>(), nullptr);
}

std::vector<int> cells_of(const AntsEngine& e, const std::vector<Square>& squares) {
    std::vector<int> out;
    for (auto [r, c] : squares) out.push_back(e.cell(r, c));
    return out;
}

}  // namespace

TEST_CASE("3.7 access_map: each player's section in the original's order, ties belong to nobody") {
    const auto e = strip_engine();
    // BFS from (0 0) and (0 4) together, n e s w: a reaches 1 and 7 at 1, 2 and 6 at 2; b reaches
    // 5 at 1 and 6 at 2 as well, so 6 is a tie. Discovery order: 0 4 1 7 5 2 6.
    const auto sections = SectionsFood::sections(e);
    REQUIRE(sections.size() == 2);
    CHECK(sections[0] == cells_of(e, {{0, 0}, {0, 1}, {0, 7}, {0, 2}}));
    CHECK(sections[1] == cells_of(e, {{0, 4}, {0, 5}}));
}

TEST_CASE("3.7 do_food_sections: one choice() per player per round, in player order, busy squares waste the draw") {
    auto e = strip_engine();
    const std::int64_t seed = 7;
    auto python = std::make_shared<CPythonRandom>(seed);
    SectionsFood food(python);
    // The strip has no symmetry, so no visible food (the original would stop here); food_start 0
    // asks for no starting food.
    food.start_game(e);
    CHECK(e.food().empty());
    const auto sections = SectionsFood::sections(e);
    // 5 food for 2 players: two rounds (a, b, a, b), one left over.
    CHECK(food.place(e, 5) == 1);
    CPythonRandom expected_draws(seed);
    std::vector<int> expected;
    for (int round = 0; round < 2; ++round)
        for (const auto& section : sections) {
            const int c = section[expected_draws.randbelow(section.size())];
            const bool has_ant = c == e.cell(0, 0) || c == e.cell(0, 4);
            if (!has_ant && std::find(expected.begin(), expected.end(), c) == expected.end()) expected.push_back(c);
        }
    std::vector<int> placed;
    for (const auto& f : e.food()) placed.push_back(f.cell);
    std::sort(placed.begin(), placed.end());
    std::sort(expected.begin(), expected.end());
    CHECK(placed == expected);
    // Both generators made the same number of draws.
    CHECK(python->genrand_uint32() == expected_draws.genrand_uint32());
    // Fewer than one food per player: nothing drawn, all of it left over.
    CPythonRandom before(*python);
    CHECK(food.place(e, 1) == 1);
    CHECK(python->genrand_uint32() == before.genrand_uint32());
}

TEST_CASE("3.7 do_food_sections: on a real map the sections are disjoint land holding each player's start") {
    const auto map = load_map_file((std::filesystem::path(ARBITER_SHARED_DIR) / "data/ants/maps/random_walk_04p_01.map").string());
    AntsParams params;
    params.food_rate = 5;
    params.food_turn = 20;
    params.food_start = 75;
    params.food_visible = 3;
    AntsEngine e(map, params, nullptr, nullptr);
    const auto sections = SectionsFood::sections(e);
    REQUIRE(static_cast<int>(sections.size()) == e.players());
    std::set<int> seen;
    for (int p = 0; p < e.players(); ++p) {
        CHECK_FALSE(sections[p].empty());
        for (int c : sections[p]) {
            CHECK_FALSE(e.water()[c]);
            CHECK(seen.insert(c).second);
        }
        for (const auto& a : e.ants())
            if (a.owner == p) CHECK(std::find(sections[p].begin(), sections[p].end(), a.cell) != sections[p].end());
    }
    CHECK(static_cast<int>(seen.size()) <= e.land_area());
}

namespace {

struct StartedGame {
    std::vector<int> food_cells;  // in creation order
    int visible_amount = 0;
    int starting_amount = 0;
};

template <class Placer>
StartedGame start_with(const std::string& map_name, std::int64_t seed, int extra_turns_of_food = 0) {
    const auto map = load_map_file((std::filesystem::path(ARBITER_SHARED_DIR) / "data/ants/maps" / map_name).string());
    AntsParams params;
    params.food_rate = 7;
    params.food_turn = 20;
    params.food_start = 80;
    params.food_visible = 4;
    AntsEngine e(map, params, std::make_unique<Placer>(std::make_shared<CPythonRandom>(seed)), nullptr);
    e.start_game();
    for (int t = 0; t < extra_turns_of_food; ++t) {
        e.start_turn();
        e.finish_turn();
    }
    StartedGame out;
    for (const auto& f : e.food()) out.food_cells.push_back(f.cell);
    out.visible_amount = params.food_visible * e.players();
    out.starting_amount = e.land_area() / params.food_start;
    for (int c : out.food_cells) {
        CHECK_FALSE(e.water()[c]);
        CHECK(e.ant_at(c) < 0);
    }
    return out;
}

}  // namespace

TEST_CASE("3.7 start_game: random and sections begin with the symmetric placer's visible food") {
    // The original's start_game calls do_food_visible for every placer but none, then the
    // placer with the rest: the first food_visible x players items are the symmetric ones.
    const auto symmetric = start_with<SymmetricFood>("maze_02p_02.map", 11);
    const auto random = start_with<RandomFood>("maze_02p_02.map", 11);
    const auto sections = start_with<SectionsFood>("maze_02p_02.map", 11);
    REQUIRE(static_cast<int>(symmetric.food_cells.size()) >= symmetric.visible_amount);
    const std::vector<int> visible(symmetric.food_cells.begin(), symmetric.food_cells.begin() + symmetric.visible_amount);
    for (const auto* game : {&random, &sections}) {
        REQUIRE(static_cast<int>(game->food_cells.size()) >= game->visible_amount);
        CHECK(std::vector<int>(game->food_cells.begin(), game->food_cells.begin() + game->visible_amount) == visible);
        // then at most land_area / food_start in all (draws on busy squares are lost or queued)
        CHECK(static_cast<int>(game->food_cells.size()) <= game->starting_amount);
    }
    // random redraws until a square is free: only a square drawn twice can be short
    CHECK(static_cast<int>(random.food_cells.size()) >= random.starting_amount - 3);
    CHECK(static_cast<int>(sections.food_cells.size()) > sections.visible_amount);
}

TEST_CASE("3.7 start_game: with food_visible 0 there is no visible food and no symmetry draw") {
    // The final ants.py calls do_food_visible only when food_visible > 0: the generator's first
    // draws are then the sections' own choice() calls.
    const auto map = load_map_file((std::filesystem::path(ARBITER_SHARED_DIR) / "data/ants/maps/tutorial1.map").string());
    AntsParams params;
    params.food_rate = 0;
    params.food_turn = 1;
    params.food_start = 50;
    params.food_visible = 0;
    const std::int64_t seed = 21;
    auto python = std::make_shared<CPythonRandom>(seed);
    AntsEngine e(map, params, std::make_unique<SectionsFood>(python), nullptr);
    const auto sections = SectionsFood::sections(e);
    e.start_game();
    CPythonRandom draws(seed);
    std::set<int> expected;
    const int rounds = e.land_area() / params.food_start / e.players();
    for (int round = 0; round < rounds; ++round)
        for (const auto& section : sections) {
            const int c = section[draws.randbelow(section.size())];
            if (e.ant_at(c) < 0) expected.insert(c);  // only the starting ants make a square busy
        }
    std::set<int> placed;
    for (const auto& f : e.food()) placed.insert(f.cell);
    CHECK(placed == expected);
    CHECK(e.food().size() == expected.size());
    CHECK(python->genrand_uint32() == draws.genrand_uint32());
}

TEST_CASE("3.7 do_food_sections: the same seed gives the same food, another seed other food") {
    const auto a = start_with<SectionsFood>("maze_02p_02.map", 3, 60);
    const auto b = start_with<SectionsFood>("maze_02p_02.map", 3, 60);
    const auto c = start_with<SectionsFood>("maze_02p_02.map", 4, 60);
    CHECK(a.food_cells == b.food_cells);
    CHECK(a.food_cells != c.food_cells);
    // 60 turns at 7 x 2 / 20 per turn = 42 food offered after the start; draws on busy
    // squares are lost, so at most that many more.
    CHECK(a.food_cells.size() > static_cast<std::size_t>(a.visible_amount));
    CHECK(a.food_cells.size() <= static_cast<std::size_t>(a.starting_amount + 42));
}

// ---------------------------------------------------------------------------------------------
// Whole games through the descriptor with the sample bots as processes

namespace {

arb::MatchRecord play(std::map<std::string, std::string> options, const std::filesystem::path& replay) {
    const auto game = describe_game();
    arb::MatchRequest request;
    request.game = "ants";
    request.bots.push_back(arb::parse_bot_spec("name=hunter cmd=" + (kBots / "hunter_bot").string()));
    request.bots.push_back(arb::parse_bot_spec("name=greedy cmd=" + (kBots / "greedy_bot").string()));
    request.seed = 9;
    // 200 turns on this map: every battle rule gives a different game (checked below).
    options.emplace("map", (kMaps / "random_walk_p02_01.map").string());
    options.emplace("turns", "200");
    request.options = arb::GameOptions(game.options, options);
    request.replay_path = replay;
    return arb::run_match(game, request);
}

// Ants that died (in a collision or a battle) before the game ended; survivors' end turn is
// game_length + 1.
int deaths(const RecordedGame& game) {
    const int length = game.meta.at("game_length").get<int>();
    int dead = 0;
    for (const auto& ant : game.replaydata.at("ants"))
        if (ant.at(3).get<int>() <= length) ++dead;
    return dead;
}

// Plays the game twice: the replay must verify (with the rule it records) and repeat byte for
// byte. Returns the replay as read back.
RecordedGame whole_game(const std::map<std::string, std::string>& options, const std::string& label) {
    const auto dir = temp_dir("variant-" + label);
    const auto record = play(options, dir / "a.json");
    for (const auto& p : record.participants) CHECK(p.status == arb::SeatStatus::ok);
    const auto outcome = verify_replay_file(dir / "a.json");
    INFO(outcome.first_difference);
    CHECK(outcome.ok);
    CHECK(outcome.steps == record.turns);
    play(options, dir / "b.json");
    CHECK(read_file(dir / "a.json") == read_file(dir / "b.json"));
    auto game = load_recorded_game(dir / "a.json");
    std::filesystem::remove_all(dir);
    return game;
}

}  // namespace

TEST_CASE("match: a whole game under each battle rule replays with its rule and repeats byte for byte") {
    for (const char* name : {"closest", "support", "damage"}) {
        INFO(name);
        auto game = whole_game({{"attack", name}}, name);
        const auto rule = attack_rule_from_name(name);
        CHECK(game.params.attack == rule);
        CHECK(game.replaydata.at("attack") == name);
        CHECK(deaths(game) > 0);
        // The rule mattered: the same orders under focus give another game.
        game.params.attack = AttackRule::focus;
        CHECK_FALSE(verify_recorded_game(game).ok);
    }
}

TEST_CASE("match: a focus game's replay has no attack field (the original's format)") {
    const auto game = whole_game({}, "focus");
    CHECK_FALSE(game.replaydata.contains("attack"));
    CHECK(game.params.attack == AttackRule::focus);
}

TEST_CASE("match: whole games with --food sections and --food random replay and repeat byte for byte") {
    whole_game({{"food", "sections"}}, "sections");
    whole_game({{"food", "random"}}, "random");
}

TEST_CASE("match: unknown attack and food values are user errors naming the allowed ones") {
    const auto game = describe_game();
    arb::MatchRequest request;
    request.game = "ants";
    request.bots.push_back(arb::parse_bot_spec("name=a cmd=/bin/true"));
    request.bots.push_back(arb::parse_bot_spec("name=b cmd=/bin/true"));
    auto message = [&](std::map<std::string, std::string> options) -> std::string {
        options.emplace("map", (kMaps / "tutorial1.map").string());
        request.options = arb::GameOptions(game.options, options);
        try {
            game.plan(request);
        } catch (const arb::UserError& e) {
            return e.what();
        }
        return "";
    };
    CHECK(message({{"attack", "nearest"}}) ==
          "game option 'attack' must be focus, closest, support or damage (got 'nearest')");
    CHECK(message({{"food", "offset"}}) ==
          "game option 'food' must be symmetric, random, sections or none (got 'offset')");
    CHECK(message({{"attack", "damage"}, {"food", "sections"}}).empty());
}
