// Bot specs (--bot, config "bots", job files): parse, and a parsed spec survives its rendering.
#include <cstdlib>

#include "core/bot_spec.hpp"
#include "tests/fuzz/fuzz_target.hpp"

ARBITER_FUZZ_TARGET(bot_spec) {
    const arb::BotSpec spec = arb::parse_bot_spec(data);
    if (arb::parse_bot_spec(arb::to_spec_string(spec)) != spec) std::abort();
}
