// Ants map files: the parser, then a short match on the map (engine set-up, food placement,
// the bots' first turns), as `arbiter play ants --map` does.
#include <fstream>

#include "rules/ants/ants_map.hpp"
#include "tests/fuzz/fuzz_target.hpp"
#include "tests/fuzz/referee_harness.hpp"
#include "tests/test_scratch.hpp"

ARBITER_FUZZ_TARGET(ants_map) {
    const arb::ants::AntsMap map = arb::ants::parse_map(data, "fuzz.map");
    const auto path = arb::testing::scratch_root() / "fuzz.map";
    std::ofstream(path, std::ios::binary) << data;
    std::string answers;  // every bot says "go" for three turns
    for (int turn = 0; turn < 3; ++turn)
        for (int p = 0; p < map.players; ++p) answers += std::string(1, static_cast<char>(p)) + "go\n" + arb::fuzz::kAnswerSeparator;
    arb::fuzz::play_scripted_match("ants", {{"map", path.string()}, {"turns", "3"}}, map.players, answers);
}
