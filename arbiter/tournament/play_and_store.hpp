#pragma once
// Playing a batch of keyed matches and storing them: the step the ladder and `arbiter match`
// repeat round after round. The matches play on a few threads; the store is written on the
// caller's thread only, in the order the matches were asked for, so match ids do not depend on
// which match finished first.
#include <functional>
#include <map>
#include <string>
#include <vector>

#include "arbiter/tournament/worker_pool.hpp"
#include "rating/store.hpp"

namespace arb::tournament {

// One match to play, and the schedule key it is stored under.
struct KeyedRequest {
    std::string key;
    MatchRequest request;
};

// Plays the requests on up to `jobs` threads (when stop_requested turns true, those not yet
// started are skipped), then stores each played match under `tournament` and its key and adds
// it to `stored`. Returns how many were stored. A match that could not be played is rethrown
// once the ones asked for before it are stored.
int play_and_store(rating::Store& store, const std::string& tournament, const std::vector<KeyedRequest>& requests,
                   int jobs, const MatchFunction& play, const std::function<bool()>& stop_requested,
                   std::map<std::string, MatchRecord>& stored);

}  // namespace arb::tournament
