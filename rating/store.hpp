#pragma once
// The results store: one SQLite file (WAL journal) holding bots, every match record, and rating
// snapshots. A match is written in one transaction, so an interrupted run never leaves half a
// match; a unique schedule key makes a resumed tournament unable to store a match twice.
//
// The schema is versioned (PRAGMA user_version, plus PRAGMA application_id to recognise our
// files) and migrated on open. A corrupt or foreign file is a UserError and is never written to.
// The tournament's and the ladder's tables sit in the same file with their own schema versions
// (ensure_component_schema); rating/results_repository.hpp holds them. No SQL leaves rating/.
#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "core/match_record.hpp"
#include "rating/result_set.hpp"
#include "rating/sqlite_db.hpp"

namespace arb::rating {

namespace store_internal {
struct StoreAccess;
}

// A database that is a file on disk (not ":memory:" nor a "file:" URI): one a lock file or a
// -wal file can sit beside.
bool is_file_database(const std::string& path);

enum class OpenMode {
    read_only,        // must exist and be an arbiter store at the current schema; never written
    // As read_only, for a reader that looks again and again while another process may write (a
    // live page): always SQLITE_OPEN_READONLY, and, when no -wal file is there (no writer has the
    // file open), immutable, so that it creates no -wal or -shm file either. Such a connection is
    // for one short look: opened, read, closed.
    read_only_beside_writers,
    read_write,       // must exist; migrated to the current schema if older
    create_or_open,   // created (with its directory) if missing, else as read_write
};

// Which matches a query covers. Unset fields match everything.
struct MatchFilter {
    std::optional<std::string> game;
    std::optional<std::string> since;       // started_at >= since (ISO 8601 UTC text compare)
    std::optional<std::string> until;       // started_at <  until
    std::optional<std::string> tournament;
    std::optional<std::int64_t> after_id;   // id > after_id (incremental readers)
    // Matches whose game option `option_key` names a file called `option_file` (a map's name).
    std::optional<std::string> option_key;
    std::optional<std::string> option_file;
};

struct StoredMatch {
    std::int64_t id = 0;
    std::optional<std::string> tournament;
    std::optional<std::string> schedule_key;
    MatchRecord record;
    // Filled by matches_as_stored only: each participant's status as the file holds it, in
    // record order (a newer arbiter may store one this build does not know).
    std::vector<std::string> stored_statuses;
};

struct BotRow {
    std::int64_t id = 0;
    std::string name;
    std::string command;
    std::string version;
};

// One row of a rating snapshot (displayed units, as printed).
struct SnapshotRow {
    std::string bot;
    int rank = 0;
    double elo = 0;
    double plus = 0;
    double minus = 0;
    std::int64_t games = 0;
    double score = 0;   // 0..1
    double draws = 0;   // 0..1
};

struct Snapshot {
    std::int64_t id = 0;
    std::string label;          // e.g. "ladder nightly 2026-11-22" or a tournament id
    std::string created_at;     // ISO 8601 UTC
    std::string game;           // "" when over several games
    std::string params_json = "{}";  // options of the fit (advantage, drawelo, prior, ...)
    std::vector<SnapshotRow> rows;
};

// What insert_match stores besides the record.
struct InsertOptions {
    std::optional<std::string> tournament;
    std::optional<std::string> schedule_key;
    std::map<std::string, std::string> bot_versions;  // bot name -> version label
};

// One Store (one SQLite connection) per thread: the connection is opened without SQLite's
// internal mutex. Several processes or threads may open the same file at once.
class Store {
public:
    static constexpr int kSchemaVersion = 2;
    // Read-only commands read stores from this version on without migrating them (the columns a
    // later version added read as empty).
    static constexpr int kOldestReadableVersion = 1;
    static constexpr std::int32_t kApplicationId = 0x41524254;  // "ARBT"

    // Opens or creates the store. UserError for: missing file (read modes), not a SQLite file,
    // a SQLite file of another application, a newer schema than this build knows.
    static Store open(const std::string& path, OpenMode mode);

    Store(Store&&) noexcept = default;
    Store& operator=(Store&&) noexcept = default;

    // Stores one match in one transaction and returns its id. If schedule_key is already
    // stored, nothing is written and the existing id is returned.
    std::int64_t insert_match(const MatchRecord& record, const InsertOptions& options = {});
    std::int64_t insert_match(const MatchRecord& record, std::optional<std::string> tournament,
                              std::optional<std::string> schedule_key);
    // Many matches in one transaction (much faster); ids in input order.
    std::vector<std::int64_t> insert_matches(const std::vector<MatchRecord>& records,
                                             const InsertOptions& options = {});

    // The id of a stored match that is this record (same game, seed, rotation, start time,
    // options, end and participants in order), if any: importing a record twice adds nothing.
    std::optional<std::int64_t> find_record(const MatchRecord& record) const;

    bool has_schedule_key(const std::string& schedule_key) const;
    std::optional<std::int64_t> match_id_for_schedule_key(const std::string& schedule_key) const;

    // A status this build does not know is an error (std::invalid_argument) here...
    std::vector<StoredMatch> matches(const MatchFilter& filter = {}) const;
    // ... and here reads as `crashed` in the record, its text kept in stored_statuses: for
    // readers that only show a match (reports), so that one odd row fails nothing.
    std::vector<StoredMatch> matches_as_stored(const MatchFilter& filter = {}) const;
    // The matches of the filter in id order, handed to fn one by one and read `batch` at a
    // time: the memory used stays that of one batch, however many matches there are.
    void for_each_match(const MatchFilter& filter, const std::function<void(StoredMatch&)>& fn,
                        std::size_t batch = 256) const;
    std::optional<StoredMatch> match(std::int64_t id) const;
    std::int64_t match_count(const MatchFilter& filter = {}) const;
    std::vector<std::string> games() const;  // distinct game names stored
    std::vector<std::string> tournaments() const;  // distinct tournament names of stored matches

    // The pairwise results (MatchRecord::pairs, seat a = white) of the filtered matches, by
    // bot name, in match id order. This is what `arbiter rate --db` feeds the model.
    // unit_of_game, when given, receives per game the match's resampling unit for the bootstrap
    // (rating/bootstrap.hpp): matches of one scheduled group (its rotations or permutations,
    // which share the deal set) are one unit; an unscheduled match with a deal set shares the
    // unit of its tournament's matches on that deal set; any other match is a unit alone.
    ResultSet pair_games(const MatchFilter& filter = {}, std::vector<std::int64_t>* unit_of_game = nullptr) const;
    // Matches of the filter with two or more participants but no pairwise result: they add
    // nothing to a rating (a referee that did not derive pairs, or a match void by its rule).
    std::int64_t unpaired_match_count(const MatchFilter& filter = {}) const;

    // Bots: (name, command, version) is unique; returns the id, inserting when new.
    std::int64_t ensure_bot(const std::string& name, const std::string& command,
                            const std::string& version = "");
    std::vector<BotRow> bots() const;

    // Rating snapshots.
    std::int64_t save_snapshot(const Snapshot& snapshot);  // created_at filled if empty
    std::vector<Snapshot> snapshots(const std::optional<std::string>& label = std::nullopt) const;
    std::optional<Snapshot> latest_snapshot(const std::string& label) const;

    // Lets another component keep its own tables here. migrations[k] brings the component's
    // schema from version k to k+1; those not yet applied run in one transaction, in order.
    // Returns the component's version after the call (= migrations.size()).
    int ensure_component_schema(const std::string& component, const std::vector<std::string>& migrations);
    int component_schema_version(const std::string& component) const;  // 0 if unknown

    // Runs fn in one transaction (nested calls join the outer one).
    void transaction(const std::function<void()>& fn) { db_.transaction(fn); }
    // Runs fn on one state of the file (a read transaction): a reader made of several queries
    // (a report, a listing) never sees half of what a running tournament stores meanwhile.
    void read_snapshot(const std::function<void()>& fn) const { const_cast<Database&>(db_).read_snapshot(fn); }

    // Caps the connection's page cache (SQLite's default is 2 MB): a long writer whose file keeps
    // growing then holds a fixed amount however large the file gets.
    void limit_page_cache(int kib);

    const std::string& path() const { return db_.path(); }
    bool read_only() const { return db_.read_only(); }

private:
    friend struct store_internal::StoreAccess;  // the repository's own files reach the connection
    explicit Store(Database db);
    Statement prepare(const std::string& sql) const { return const_cast<Database&>(db_).prepare(sql); }
    ResultSet pair_games_now(const MatchFilter& filter, std::vector<std::int64_t>* unit_of_game) const;

    Database db_;
};

}  // namespace arb::rating
