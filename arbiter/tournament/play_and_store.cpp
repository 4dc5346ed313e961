#include "arbiter/tournament/play_and_store.hpp"

#include <algorithm>
#include <exception>

namespace arb::tournament {

PlayAndStore::PlayAndStore(int jobs, const MatchFunction& play, std::function<bool()> stop_requested,
                           StoreCompletion store)
    : pool_(jobs, play, std::move(stop_requested)), store_(std::move(store)) {}

void PlayAndStore::play(Job job) { pool_.push(std::move(job)); }

void PlayAndStore::finished(Completion completion) { pool_.push_finished(std::move(completion)); }

std::size_t PlayAndStore::store_next() {
    std::vector<Completion> back = pool_.wait();
    for (Completion& c : back) store_(c);
    return back.size();
}

int play_and_store(rating::Store& store, const std::string& tournament, const std::vector<KeyedRequest>& requests,
                   int jobs, const MatchFunction& play, const std::function<bool()>& stop_requested,
                   std::map<std::string, MatchRecord>& stored) {
    int count = 0;
    std::exception_ptr error;
    const int threads = std::max(1, std::min<int>(jobs, static_cast<int>(requests.size())));
    PlayAndStore stream(threads, play, stop_requested, [&](Completion& c) {
        if (error) return;  // after a match that could not be played nothing more is stored
        if (!c.record) {
            error = c.error;
            return;
        }
        store.insert_match(*c.record, tournament, c.match.key);
        stored.emplace(c.match.key, std::move(*c.record));
        ++count;
    });
    for (const KeyedRequest& r : requests) {
        Job job;
        job.match.key = r.key;
        job.request = r.request;
        stream.play(std::move(job));
    }
    while (stream.store_next() > 0)
        if (error) stream.stop_taking();
    stream.close();
    if (error) std::rethrow_exception(error);
    return count;
}

}  // namespace arb::tournament
