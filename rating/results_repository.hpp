#pragma once
// The results repository: the store (rating/store.hpp: bots, matches, snapshots) and the tables
// the tournament and the ladder keep beside it in the same file, each behind typed rows. Every
// SQL statement of the arbiter is in rating/; the layers above ask for rows and never for SQL,
// so a new column touches the repository and its row type only.
#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "core/match_record.hpp"
#include "rating/store.hpp"

namespace arb::rating {

// ---------------------------------------------------------------------------------------------
// The tournament's tables (component "tournament")

// A tournament's stored identity: the settings it was created with, as JSON text.
struct TournamentIdentity {
    std::string name;
    std::string game;
    std::string identity_json;
    std::string created_at;
};

// The process recorded as running a tournament (unset fields: none recorded).
struct TournamentRunnerRow {
    std::optional<std::int64_t> pid;
    std::optional<std::string> host;
    std::optional<std::string> since;
};

// One planned match of a tournament's schedule.
struct ScheduleRow {
    std::string key;
    int round = 0;
    int group = 0;
    int seating = 0;
    std::uint64_t seed = 0;
    std::uint64_t deal_set = 0;
    std::vector<std::string> bots;  // in seat order
    std::string map;                // the pool's map (or field) file; "" = none
};

// How busy the machine was when a match started, so that timing faults under load can be told
// apart from slow bots.
struct LoadNote {
    std::string started_at;
    int concurrent_matches = 0;  // matches of this arbiter running, this one included
    int jobs = 0;
    int cores = 0;
    double load_per_core = 0;    // 1-minute load average / cores
};

class TournamentTables {
public:
    // Creates or migrates the tables (the store must be writable when they need it).
    explicit TournamentTables(Store& store);

    Store& store() { return store_; }
    const Store& store() const { return store_; }

    // The stored identity JSON of the tournament, if it exists.
    std::optional<std::string> identity_json(const std::string& name) const;
    void insert_tournament(const std::string& name, const std::string& game, const std::string& identity_json);

    // The recorded runner; nullopt when there is no such tournament.
    std::optional<TournamentRunnerRow> runner(const std::string& name) const;
    // Records this pid on this host as the runner, since now.
    void set_runner(const std::string& name, std::int64_t pid, const std::string& host);
    // Forgets the runner if it is still this pid.
    void clear_runner(const std::string& name, std::int64_t pid);

    // The schedule in round, group, seating order.
    std::vector<ScheduleRow> schedule(const std::string& name) const;
    // The rows without a stored result (no match under their key), in the same order.
    std::vector<ScheduleRow> unplayed_schedule(const std::string& name) const;
    // The number of scheduled matches per round, by round.
    std::map<int, int> schedule_round_sizes(const std::string& name) const;
    // The row of one key of the tournament's schedule; nullopt when it has no such key.
    std::optional<ScheduleRow> scheduled(const std::string& name, const std::string& key) const;
    // Adds the rows in one transaction.
    void insert_schedule(const std::string& name, const std::vector<ScheduleRow>& rows);

    // Stores the result under the tournament and schedule key with its load note, in one
    // transaction. No-op if the key is stored.
    void store_result(const std::string& name, const std::string& key, const MatchRecord& record,
                      const LoadNote& load);

    // Keys written out as jobs (by `plan`), and marking more of them (handed out now).
    std::set<std::string> handed_out(const std::string& name) const;
    void mark_handed_out(const std::vector<std::string>& keys);

private:
    Store& store_;
};

// The stored identities of the named tournaments that have one, in the order asked. A store
// without the tournament tables (or names from imported records) yields nothing; never writes.
std::vector<TournamentIdentity> tournament_identities(const Store& store, const std::vector<std::string>& names);

// ---------------------------------------------------------------------------------------------
// The ladder's tables (component "ladder")

struct LadderBotRow {
    std::string name;
    std::string spec;     // the bot's spec string (core/bot_spec.hpp)
    std::string family;
    std::int64_t seq = 0;  // registration order within the game
};

struct LadderRunRow {
    std::string game;
    std::string bot;
    std::optional<std::string> previous;
    std::string verdict;
    double los = 0.5;
    int matches = 0;
    std::int64_t snapshot_id = 0;
    std::string outcome_json;
};

class LadderTables {
public:
    // Creates the tables when missing.
    explicit LadderTables(Store& store);

    Store& store() { return store_; }
    const Store& store() const { return store_; }

    // The spec a bot name is registered with in the game, if it is.
    std::optional<std::string> bot_spec(const std::string& game, const std::string& name) const;
    // Registers a bot as the game's next one (registered now).
    void insert_bot(const std::string& game, const std::string& name, const std::string& spec,
                    const std::string& family);
    // The game's bots in registration order.
    std::vector<LadderBotRow> bots(const std::string& game) const;
    // One finished ladder run (finished now).
    void insert_run(const LadderRunRow& run);

private:
    Store& store_;
};

}  // namespace arb::rating
