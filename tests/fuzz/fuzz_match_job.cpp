// Match job files (`arbiter run-job`).
#include <nlohmann/json.hpp>

#include "arbiter/tournament/match_jobs.hpp"
#include "core/json_text.hpp"
#include "rules/registry.hpp"
#include "tests/fuzz/fuzz_target.hpp"

ARBITER_FUZZ_TARGET(match_job) {
    const nlohmann::json j = arb::parse_json_text(data, "job.json");  // as the file reader does
    arb::tournament::job_from_json(j, "job.json", [](const std::string& name) -> const arb::GameDescriptor& {
        return arb::find_game(name);
    });
}
