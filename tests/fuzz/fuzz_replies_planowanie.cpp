// Planowanie bots' GTP replies, through the referee (3 bots, the default deck and schedule).
#include "tests/fuzz/fuzz_target.hpp"
#include "tests/fuzz/referee_harness.hpp"

ARBITER_FUZZ_TARGET(replies_planowanie) { arb::fuzz::play_scripted_match("planowanie", {}, 3, data); }
