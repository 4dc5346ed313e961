// SamurAI .dighere files: fields and game logs (`arbiter verify samurai`, --field).
#include "rules/samurai/samurai_replay.hpp"
#include "rules/samurai/samurai_verify.hpp"
#include "tests/fuzz/fuzz_target.hpp"

ARBITER_FUZZ_TARGET(samurai_log) {
    const arb::samurai::GameLog log = arb::samurai::parse_game_log(data, "fuzz.dighere");
    (void)arb::samurai::verify_game_log(log);
    (void)arb::samurai::game_log_json(log);
}
