// SamurAI agents' plans, through the referee (the sample field; 4 agent processes per game).
#include "tests/fuzz/fuzz_target.hpp"
#include "tests/fuzz/referee_harness.hpp"

ARBITER_FUZZ_TARGET(replies_samurai) {
    static const std::string field = arb::fuzz::shared_data("samurai/fields/sample.dighere");
    arb::fuzz::play_scripted_match("samurai", {{"field", field}}, 2, data);
}
