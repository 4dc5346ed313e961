// Match record files (`arbiter import`): JSON to a record, its checks, and the store's insert.
#include <nlohmann/json.hpp>

#include "core/match_record.hpp"
#include "core/user_error.hpp"
#include "rating/store.hpp"
#include "tests/fuzz/fuzz_target.hpp"

ARBITER_FUZZ_TARGET(match_record) {
    nlohmann::json j;
    try {
        j = nlohmann::json::parse(data);
    } catch (const nlohmann::json::exception& e) {  // as import's reader
        throw arb::UserError(std::string("not JSON: ") + e.what());
    }
    arb::MatchRecord record;
    try {
        record = j.get<arb::MatchRecord>();  // import turns any failure here into a UserError
    } catch (const std::exception& e) {
        throw arb::UserError(std::string("not a match record: ") + e.what());
    }
    arb::check_record(record);
    arb::rating::Store store = arb::rating::Store::open(":memory:", arb::rating::OpenMode::create_or_open);
    store.insert_matches({record}, {});
}
