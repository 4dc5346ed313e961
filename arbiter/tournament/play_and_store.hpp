#pragma once
// Playing matches and storing them, for the tournament, the ladder and `arbiter match`. The
// matches play on a few threads; each is stored on the caller's thread, in the order the matches
// were handed in, so match ids do not depend on which match finished first.
#include <cstddef>
#include <functional>
#include <map>
#include <string>
#include <vector>

#include "arbiter/tournament/worker_pool.hpp"
#include "rating/store.hpp"

namespace arb::tournament {

// Stores one match that came back: its record, or the error that kept it from being played.
using StoreCompletion = std::function<void(Completion&)>;

// Matches handed in one by one (a tournament hands out rounds as it plans them) are played on
// `jobs` threads; store_next() hands each finished one to `store`, in hand-in order.
class PlayAndStore {
public:
    PlayAndStore(int jobs, const MatchFunction& play, std::function<bool()> stop_requested, StoreCompletion store);
    void play(Job job);
    // A match whose result is known without playing it (a forfeit): stored in its turn.
    void finished(Completion completion);
    // Waits until the next match in hand-in order is back (or nothing runs or waits), stores
    // every match back in order and returns how many; 0 when nothing is left to come back.
    std::size_t store_next();
    // No more matches start; those running finish and are stored.
    void stop_taking() { pool_.stop_taking(); }
    std::size_t queued() { return pool_.queued(); }
    int running() { return pool_.running(); }
    void close() { pool_.close(); }

private:
    WorkerPool pool_;
    StoreCompletion store_;
};

// One match to play, and the schedule key it is stored under.
struct KeyedRequest {
    std::string key;
    MatchRequest request;
};

// Plays the requests on up to `jobs` threads (when stop_requested turns true, those not yet
// started are skipped) and stores each played match under `tournament` and its key, adding it
// to `stored`. Returns how many were stored. A match that could not be played is rethrown once
// the ones asked for before it are stored; no match after it is stored, none starts after it.
int play_and_store(rating::Store& store, const std::string& tournament, const std::vector<KeyedRequest>& requests,
                   int jobs, const MatchFunction& play, const std::function<bool()>& stop_requested,
                   std::map<std::string, MatchRecord>& stored);

}  // namespace arb::tournament
