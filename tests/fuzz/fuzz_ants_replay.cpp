// Ants replays (`arbiter verify ants`): read, then replayed through the engine with the
// recorded food and with the seeded generator.
#include "rules/ants/ants_replay.hpp"
#include "rules/ants/ants_verify.hpp"
#include "core/json_text.hpp"
#include "tests/fuzz/fuzz_target.hpp"

ARBITER_FUZZ_TARGET(ants_replay) {
    const nlohmann::json replay = arb::parse_json_text(data, "fuzz.replay.json");  // as the file reader does
    const arb::ants::RecordedGame game = arb::ants::parse_recorded_game(replay, "fuzz.replay.json");
    (void)arb::ants::verify_recorded_game(game, false);
    (void)arb::ants::verify_recorded_game(game, true);
}
