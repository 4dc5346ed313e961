#include "arbiter/tournament/play_and_store.hpp"

namespace arb::tournament {

int play_and_store(rating::Store& store, const std::string& tournament, const std::vector<KeyedRequest>& requests,
                   int jobs, const MatchFunction& play, const std::function<bool()>& stop_requested,
                   std::map<std::string, MatchRecord>& stored) {
    std::vector<MatchRequest> to_play;
    to_play.reserve(requests.size());
    for (const KeyedRequest& r : requests) to_play.push_back(r.request);
    auto results = play_concurrently(to_play, jobs, play, stop_requested);
    int count = 0;
    for (std::size_t i = 0; i < results.size(); ++i) {
        if (results[i].error) std::rethrow_exception(results[i].error);
        if (!results[i].record) continue;  // not started: a stop was requested
        store.insert_match(*results[i].record, tournament, requests[i].key);
        stored.emplace(requests[i].key, std::move(*results[i].record));
        ++count;
    }
    return count;
}

}  // namespace arb::tournament
