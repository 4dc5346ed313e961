#pragma once
// A tournament in the results repository (rating::TournamentTables): its identity checked on
// resume, one runner at a time, its schedule round by round, and per match how loaded the
// machine was. Results are stored under their schedule key, so a key is played at most once.
#include <functional>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "arbiter/tournament/history.hpp"
#include "arbiter/tournament/schedule.hpp"
#include "rating/results_repository.hpp"

namespace arb::tournament {

using rating::LoadNote;

class TournamentStore {
public:
    explicit TournamentStore(rating::Store& store);

    // Creates the tournament, or checks that the stored one has the same identity (a resumed
    // run must be the same tournament). UserError naming the tournament when it differs.
    void open_tournament(const std::string& name, const std::string& game, const std::string& identity_json);
    // The same check without creating anything, for a run that wants to refuse before it starts
    // a bot: UserError naming each key that differs, with the stored and the new value.
    void check_resumable(const std::string& name, const std::string& identity_json) const;

    // Marks the tournament as being run by this process. UserError if another process holds it
    // (two arbiters must not play the same schedule). The guard is an flock on a lock file beside
    // the database, so it dies with its holder: after a SIGKILL the same command resumes at once,
    // even while the killed arbiter is still a zombie.
    void claim(const std::string& name);
    void release(const std::string& name);
    ~TournamentStore();
    TournamentStore(const TournamentStore&) = delete;
    TournamentStore& operator=(const TournamentStore&) = delete;

    std::map<int, Round> stored_rounds(const std::string& name) const;
    void store_rounds(const std::string& name, const std::vector<Round>& rounds);

    // The number of scheduled matches per round, by round.
    std::map<int, int> round_sizes(const std::string& name) const;
    // The scheduled matches without a stored result, in schedule order.
    std::vector<ScheduledMatch> unplayed(const std::string& name) const;

    // One scheduled match by its key; nullopt when the tournament has no such key.
    std::optional<ScheduledMatch> scheduled(const std::string& name, const std::string& key) const;
    // Whether a result is stored under the schedule key.
    bool has_result(const std::string& key) const;
    // Every stored result of the tournament, by schedule key.
    std::map<std::string, MatchRecord> results(const std::string& name) const;
    // Every stored result of a scheduled match, with its match, one at a time (in the order they
    // were stored): what a run reads back without holding all of them.
    void for_each_result(const std::string& name,
                         const std::function<void(const ScheduledMatch&, MatchRecord&)>& fn) const;
    // Every stored result of a scheduled match in schedule order (all of them in memory at once).
    std::vector<PlayedMatch> played(const std::string& name) const;

    // Stores the result and its load note in one transaction. No-op if the key is stored.
    void store_result(const std::string& name, const ScheduledMatch& match, const MatchRecord& record,
                      const LoadNote& load);

    // Matches written out as jobs by `plan` (they are not written again unless asked).
    std::set<std::string> handed_out(const std::string& name) const;
    void mark_handed_out(const std::vector<std::string>& keys);

    rating::Store& store() { return tables_.store(); }

private:
    rating::TournamentTables tables_;
    int run_lock_fd_ = -1;  // held from claim to release
};

}  // namespace arb::tournament
