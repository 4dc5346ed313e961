// Map pools: files, folders and globs read into a pool, its order fixed by the seed, the map and
// player count of every round, who sits out, and the planner's rounds on a pool.
#include <doctest/doctest.h>

#include <algorithm>
#include <fstream>
#include <map>
#include <set>

#include "arbiter/tournament/formats.hpp"
#include "arbiter/tournament/map_pool.hpp"
#include "core/user_error.hpp"
#include "tests/test_scratch.hpp"

using namespace arb::tournament;
namespace fs = std::filesystem;

namespace {

// A game whose map files say "players N" on their first line, as Ants maps do.
arb::MapFiles counted_maps() {
    return {"map", "maps", [](const fs::path& path) -> std::optional<int> {
                std::ifstream in(path);
                std::string word;
                int players = 0;
                if (!(in >> word >> players) || word != "players") throw arb::UserError("not a map");
                return players;
            }};
}

// A folder of maps: name -> players.
fs::path map_folder(const std::string& name, const std::map<std::string, int>& maps) {
    const fs::path dir = arb::testing::fresh_scratch(name);
    for (const auto& [file, players] : maps) std::ofstream(dir / file) << "players " << players << "\n";
    return dir;
}

std::vector<PoolMap> pool_of(const std::map<std::string, int>& maps) {
    std::vector<PoolMap> pool;
    for (const auto& [file, players] : maps) pool.push_back({"/maps/" + file, players});
    return pool;
}

const std::map<std::string, int> kMixed = {{"a2.map", 2}, {"b2.map", 2}, {"c2.map", 2}, {"d4.map", 4},
                                           {"e4.map", 4}, {"f8.map", 8}};

}  // namespace

TEST_CASE("a pool from files, folders and globs: sorted, each file once, with its player count") {
    const fs::path dir = map_folder("pool-sources", kMixed);
    const auto from_folder = expand_map_pool({dir.string()}, "/", counted_maps(), "--maps");
    REQUIRE(from_folder.size() == 6);
    CHECK(map_name(from_folder.front().path) == "a2.map");
    CHECK(from_folder.back().players == 8);
    const auto from_glob = expand_map_pool({"*2.map", "d4.map", "a2.map"}, dir.string(), counted_maps(), "--maps");
    REQUIRE(from_glob.size() == 4);  // a2 named twice, kept once
    CHECK(map_name(from_glob[3].path) == "d4.map");
    CHECK(from_glob[3].players == 4);
}

TEST_CASE("a pool that names nothing, or a file that is not the game's, is one clear error") {
    const fs::path dir = map_folder("pool-errors", {{"a2.map", 2}});
    std::ofstream(dir / "bad.map") << "rows 3\n";
    const fs::path empty = arb::testing::fresh_scratch("pool-empty");
    CHECK_THROWS_WITH_AS(expand_map_pool({}, "/", counted_maps(), "x.json:4"), "x.json:4: the maps pool is empty",
                         arb::UserError);
    CHECK_THROWS_WITH_AS(expand_map_pool({"*_10p_*.map"}, dir.string(), counted_maps(), "--maps"),
                         "--maps: '*_10p_*.map' matches no file", arb::UserError);
    CHECK_THROWS_WITH_AS(expand_map_pool({"nope.map"}, dir.string(), counted_maps(), "--maps"),
                         "--maps: no map file 'nope.map': No such file or directory", arb::UserError);
    CHECK_THROWS_WITH_AS(expand_map_pool({empty.string()}, "/", counted_maps(), "--maps"),
                         doctest::Contains("holds no file"), arb::UserError);
    CHECK_THROWS_WITH_AS(expand_map_pool({"bad.map"}, dir.string(), counted_maps(), "--maps"),
                         doctest::Contains("bad.map' cannot be used: not a map"), arb::UserError);
}

TEST_CASE("the pool's order is the seed's: the same for the same seed, another for another") {
    std::map<std::string, int> many;
    for (int i = 0; i < 10; ++i) many["m" + std::to_string(i) + ".map"] = 2;
    const auto pool = pool_of(many);
    auto reversed = pool;
    std::reverse(reversed.begin(), reversed.end());
    CHECK(pool_in_seed_order(pool, 7) == pool_in_seed_order(reversed, 7));  // the order given does not matter
    CHECK(pool_in_seed_order(pool, 7) != pool_in_seed_order(pool, 8));
    CHECK(pool_in_seed_order(pool, 7) != pool);
}

TEST_CASE("rounds cycle through the player counts, each count's maps in the seed's order") {
    const auto seeded = pool_in_seed_order(pool_of(kMixed), 3);
    CHECK(player_counts(seeded) == std::vector<int>{2, 4, 8});
    std::map<int, std::vector<std::string>> played;  // count -> maps in round order
    for (int r = 0; r < 18; ++r) {
        const RoundMap m = map_of_round(seeded, r);
        CHECK(m.players == std::vector<int>{2, 4, 8}[r % 3]);
        CHECK(m.visit == r / 3);
        played[m.players].push_back(map_name(m.path));
    }
    // 6 rounds of each count: the three 2-player maps twice each, in one order repeated.
    REQUIRE(played[2].size() == 6);
    CHECK(std::vector<std::string>(played[2].begin(), played[2].begin() + 3) ==
          std::vector<std::string>(played[2].begin() + 3, played[2].end()));
    CHECK(std::set<std::string>(played[2].begin(), played[2].end()).size() == 3);
    CHECK(std::set<std::string>(played[8].begin(), played[8].end()) == std::set<std::string>{"f8.map"});
    // A pool whose maps fix no count goes round the pool itself.
    const auto fields = pool_in_seed_order(pool_of({{"x", 0}, {"y", 0}}), 3);
    CHECK(map_of_round(fields, 0).path != map_of_round(fields, 1).path);
    CHECK(map_of_round(fields, 0).path == map_of_round(fields, 2).path);
}

TEST_CASE("those left over sit out in turn: nobody twice before everyone once") {
    CHECK(sitting_out(8, 4, 0, 1).empty());
    std::map<int, int> sat;
    for (int visit = 0; visit < 7; ++visit) {  // 7 bots, groups of 2: one sits out a round
        const auto out = sitting_out(7, 2, visit, 1);
        REQUIRE(out.size() == 1);
        ++sat[out.front()];
    }
    CHECK(sat.size() == 7);  // each of the 7 once
    CHECK(sitting_out(7, 4, 2, 5) == sitting_out(7, 4, 2, 5));
    CHECK(sitting_out(7, 4, 0, 5).size() == 3);
}

TEST_CASE("a tournament on a mixed pool: groups as big as the round's map, every bot on every count") {
    TournamentConfig c;
    c.name = "pool";
    c.game = "ants";
    c.seed = 11;
    c.rounds = 12;
    for (int i = 0; i < 9; ++i) c.bots.push_back(arb::parse_bot_spec("name=b" + std::to_string(i) + " cmd=/bin/true"));
    c.map_pool = pool_of(kMixed);
    c.map_option = "map";
    c.map_sources_key = "maps";
    validate(c, 2, 10);
    CHECK(c.groups_by_map);
    CHECK(c.identity_json().find("\"maps\":[\"/maps/a2.map\"") != std::string::npos);
    auto planner = make_planner(c, [](const History&) -> RatingModel { FAIL("random rounds only"); return {}; });
    History none;
    std::map<std::string, std::map<int, int>> plays;  // bot -> count -> matches' groups played
    for (int r = 0; r < 12; ++r) {
        const Round round = planner->plan(r, none);
        const int size = std::vector<int>{2, 4, 8}[r % 3];
        CHECK(static_cast<int>(round.matches.size()) == planner->matches_in_round(r));
        CHECK(static_cast<int>(round.matches.size()) == 9 / size * size);  // groups x rotations
        for (const auto& m : round.matches) {
            CHECK(m.map == round.matches.front().map);  // one map a round, in every seating
            CHECK(static_cast<int>(m.bots.size()) == size);
            if (m.seating == 0)
                for (const auto& b : m.bots) ++plays[b][size];
        }
    }
    for (int size : {2, 4, 8}) {
        int least = 99, most = 0;
        for (const auto& [bot, counts] : plays) {
            least = std::min(least, counts.count(size) ? counts.at(size) : 0);
            most = std::max(most, counts.count(size) ? counts.at(size) : 0);
        }
        CHECK(most - least <= 1);
    }
    // The same seed plans the same rounds; the schedule carries the map.
    CHECK(make_planner(c, nullptr)->plan(5, none).matches == planner->plan(5, none).matches);
}

TEST_CASE("a map no group can fill is refused before anything is played") {
    TournamentConfig c;
    c.name = "pool";
    c.game = "ants";
    c.rounds = 1;
    for (int i = 0; i < 5; ++i) c.bots.push_back(arb::parse_bot_spec("name=b" + std::to_string(i) + " cmd=/bin/true"));
    c.map_pool = pool_of(kMixed);
    c.map_option = "map";
    CHECK_THROWS_WITH_AS(validate(c, 2, 10), "map 'f8.map' is for 8 players, but the tournament has 5 bots: no group can fill it",
                         arb::UserError);
    c.players = 2;
    c.format = Format::round_robin;
    CHECK_THROWS_WITH_AS(validate(c, 2, 10), doctest::Contains("map 'd4.map' is for 4 players; a round-robin of 2-player"),
                         arb::UserError);
}
