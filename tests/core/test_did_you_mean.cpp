#include <doctest/doctest.h>

#include <cerrno>
#include <cstring>
#include <fstream>

#include "core/did_you_mean.hpp"
#include "tests/test_scratch.hpp"

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

TEST_CASE("did you mean: why a file cannot be read, with the nearest name in its folder") {
    const std::filesystem::path dir = arb::testing::fresh_scratch("unreadable");
    std::ofstream(dir / "maze_02p_02.map") << "rows 1\n";
    std::filesystem::create_directory(dir / "maps");
    CHECK(unreadable_reason(dir / "maze_02p_02.map").empty());
    CHECK(unreadable_reason(dir / "maze_2p_02.map") ==
          std::string(std::strerror(ENOENT)) + " (did you mean 'maze_02p_02.map'?)");
    CHECK(unreadable_reason(dir / "nothing_like_it") == std::strerror(ENOENT));
    CHECK(unreadable_reason(dir / "missing" / "x.map") == "no folder " + (dir / "missing").string());
    CHECK(unreadable_reason(dir / "maps") == "it is a folder");
    CHECK(did_you_mean_file(dir / "mapz") == " (did you mean 'maps'?)");
    // A name left to clear the terminal of whoever reads the error is never suggested.
    std::ofstream(dir / "bot\x1b" "c") << "";
    CHECK(did_you_mean_file(dir / "bot").empty());
}
