// smart-dog players' join and command lines, through the referee (simple-1, 2 players, 20 turns).
#include "tests/fuzz/fuzz_target.hpp"
#include "tests/fuzz/referee_harness.hpp"

ARBITER_FUZZ_TARGET(replies_smartdog) {
    static const std::string map = arb::fuzz::shared_data("smartdog/maps/simple-1.txt");
    arb::fuzz::play_scripted_match("smartdog", {{"map", map}, {"turns", "20"}}, 2, data);
}
