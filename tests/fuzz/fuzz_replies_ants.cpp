// Ants bots' order lines, through the referee (maze_02p_02, 30 turns).
#include "tests/fuzz/fuzz_target.hpp"
#include "tests/fuzz/referee_harness.hpp"

ARBITER_FUZZ_TARGET(replies_ants) {
    static const std::string map = arb::fuzz::shared_data("ants/maps/maze_02p_02.map");
    arb::fuzz::play_scripted_match("ants", {{"map", map}, {"turns", "30"}}, 2, data);
}
