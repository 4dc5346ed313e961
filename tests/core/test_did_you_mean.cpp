#include <doctest/doctest.h>

#include "core/did_you_mean.hpp"

using namespace arb;

TEST_CASE("did you mean: edit distance") {
    CHECK(edit_distance("rounds", "rounds") == 0);
    CHECK(edit_distance("roundz", "rounds") == 1);
    CHECK(edit_distance("", "abc") == 3);
    CHECK(edit_distance("kitten", "sitting") == 3);
}

TEST_CASE("did you mean: closest within two edits, else a unique prefix, else nothing") {
    const std::vector<std::string> flags = {"map", "turns", "turntime", "total-time-ms", "seed"};
    CHECK(closest_name("mapp", flags) == "map");
    CHECK(closest_name("turn", flags) == "turns");
    CHECK(closest_name("total-time", flags) == "total-time-ms");
    CHECK(closest_name("xyzzy", flags).empty());
    CHECK(closest_name("tu", flags).empty());
    CHECK(did_you_mean("sed", flags) == " (did you mean 'seed'?)");
    CHECK(did_you_mean("colour", flags).empty());
    // Two candidates share the prefix: no guess.
    CHECK(closest_name("turnti", {"turntime-a", "turntime-b"}).empty());
}
