// Koehandel bots' HTTP reply bodies (query form), through the referee (2 bots, 2 house bots).
#include "tests/fuzz/fuzz_target.hpp"
#include "tests/fuzz/referee_harness.hpp"

ARBITER_FUZZ_TARGET(replies_koehandel) {
    arb::fuzz::play_scripted_match("koehandel", {{"max-trade-turns", "20"}}, 2, data);
}
