// Planowanie game logs (`arbiter verify planowanie`).
#include <nlohmann/json.hpp>

#include "core/json_text.hpp"
#include "rules/planowanie/planowanie_replay.hpp"
#include "rules/planowanie/planowanie_verify.hpp"
#include "tests/fuzz/fuzz_target.hpp"

ARBITER_FUZZ_TARGET(planowanie_log) {
    const nlohmann::json json = arb::parse_json_text(data, "game.json");  // as the file reader does
    (void)arb::planowanie::verify_game_log(arb::planowanie::game_log_from_json(json));
}
