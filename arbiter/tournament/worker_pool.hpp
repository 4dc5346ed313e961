#pragma once
// Running matches concurrently. WorkerPool: N threads, each playing whole matches handed to it,
// while the tournament runner's own thread alone touches the store. play_concurrently: a fixed
// list of independent matches on N threads (a ladder round).
#include <condition_variable>
#include <deque>
#include <exception>
#include <cstdint>
#include <functional>
#include <map>
#include <mutex>
#include <optional>
#include <thread>
#include <vector>

#include "arbiter/match/match_runner.hpp"
#include "arbiter/tournament/schedule.hpp"
#include "arbiter/tournament/tournament_store.hpp"

namespace arb::tournament {

// Plays one match. Production: arb::run_match with the game's descriptor. Bot faults are
// results; an exception means the match could not be played (it stays unplayed; UserError
// stops the tournament).
using MatchFunction = std::function<MatchRecord(const MatchRequest&)>;

// The production MatchFunction: arb::run_match with `game` (which outlives it), so that a played
// record comes back to the tournament from the match room, not through its caller.
MatchFunction real_matches(const GameDescriptor& game);

int core_count();

struct Job {
    ScheduledMatch match;
    MatchRequest request;
};

struct Completion {
    ScheduledMatch match;
    std::optional<MatchRecord> record;
    std::exception_ptr error;
    LoadNote load;
};

// Completions come back in the order their matches were handed in (a finished match waits for
// those handed in before it), so whatever stores them stores in that order: match ids do not
// depend on which match finished first.
class WorkerPool {
public:
    WorkerPool(int threads, const MatchFunction& play, std::function<bool()> stop_requested);
    ~WorkerPool() { close(); }

    void push(Job job);
    // A match with its result already known (a forfeit): it comes back in its turn.
    void push_finished(Completion completion);
    // No more matches are handed out; running ones finish. Those never started are passed over.
    void stop_taking();
    std::size_t queued();
    int running();
    // Waits until the next completion in hand-in order is available or nothing is running or
    // queued; returns every completion ready in order. A stop request is polled a few times a
    // second (it comes from a signal handler).
    std::vector<Completion> wait();
    void close();

private:
    struct Queued {
        std::uint64_t order;
        Job job;
    };
    void work();
    void stop_taking_locked();
    bool releasable() const;

    const MatchFunction& play_;
    const int jobs_;
    const std::function<bool()> stop_requested_;
    std::mutex mutex_;
    std::condition_variable work_cv_, done_cv_;
    std::deque<Queued> queue_;
    std::map<std::uint64_t, std::optional<Completion>> done_;  // by hand-in order; nullopt: never started
    std::uint64_t next_order_ = 0;     // given to the next match handed in
    std::uint64_t next_release_ = 0;   // the next to come back
    bool closing_ = false;
    bool stop_taking_ = false;
    int running_ = 0;
    std::vector<std::thread> threads_;
};

// Plays independent matches on up to `jobs` threads; results in input order. An entry without
// a record holds the exception that match threw.
struct ConcurrentResult {
    std::optional<MatchRecord> record;  // neither record nor error: not started (stop requested)
    std::exception_ptr error;
    LoadNote load;
};
// Plays the requests on `jobs` threads. When stop_requested turns true, requests not yet
// started are skipped; those in progress finish.
std::vector<ConcurrentResult> play_concurrently(const std::vector<MatchRequest>& requests, int jobs,
                                                const MatchFunction& play,
                                                const std::function<bool()>& stop_requested = {});

}  // namespace arb::tournament
