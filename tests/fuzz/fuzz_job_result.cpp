// Match result files (`arbiter ingest`).
#include <nlohmann/json.hpp>

#include "arbiter/tournament/match_jobs.hpp"
#include "core/json_text.hpp"
#include "tests/fuzz/fuzz_target.hpp"

ARBITER_FUZZ_TARGET(job_result) {
    const nlohmann::json j = arb::parse_json_text(data, "result.json");  // as the file reader does
    const arb::tournament::JobResult result = arb::tournament::result_from_json(j, "result.json");
    arb::check_record(result.record);  // ingest checks the record before storing it
}
