// Tournament and ladder configs (JSON with comments).
#include "arbiter/tournament/tournament_config.hpp"
#include "tests/fuzz/fuzz_target.hpp"

ARBITER_FUZZ_TARGET(tournament_config) {
    const auto config = arb::tournament::parse_tournament_config(std::string(data), "config.json");
    (void)config.identity_json();
}
