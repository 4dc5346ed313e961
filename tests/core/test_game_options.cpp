#include <doctest/doctest.h>

#include "core/user_error.hpp"
#include "rules/game.hpp"

using namespace arb;

TEST_CASE("game options: defaults, types, unknown keys with a suggestion") {
    std::vector<GameOptionSpec> specs = {
        {"turns", OptionKind::integer, "1000", "Turn limit"},
        {"map", OptionKind::path, "", "Map file", true},
        {"viewradius2", OptionKind::integer, "77", "View radius squared"},
        {"fast", OptionKind::flag, "false", "Go fast"},
    };
    GameOptions o(specs, {{"map", "x.map"}, {"fast", "yes"}});
    CHECK(o.integer("turns") == 1000);
    CHECK(o.path("map") == "x.map");
    CHECK(o.flag("fast"));
    CHECK_THROWS_WITH_AS(GameOptions(specs, {{"map", "m"}, {"turn", "5"}}),
                         doctest::Contains("unknown game option 'turn' (did you mean 'turns'?)"), UserError);
    CHECK_THROWS_WITH_AS(GameOptions(specs, {{"map", "m"}, {"turns", "many"}}),
                         doctest::Contains("'turns' must be an integer"), UserError);
    CHECK_THROWS_WITH_AS(GameOptions(specs, {}), doctest::Contains("'map' is required"), UserError);
}
