// The store: opening (checks and migration), bots, reading matches and pairwise results back.
// Writing matches is in store_insert.cpp, rating snapshots and the schemas of components in
// store_snapshots.cpp, the schema itself in store_schema.cpp.
#include "rating/store.hpp"

#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <stdexcept>
#include <unordered_map>

#include <fmt/format.h>
#include <sqlite3.h>

#include "core/user_error.hpp"
#include "rating/store_internal.hpp"

namespace arb::rating {
namespace {

namespace fs = std::filesystem;
using store_internal::from_sql;
using store_internal::run_migrations;
using store_internal::store_migrations;
using store_internal::StoreAccess;

bool has_sqlite_header(const fs::path& path) {
    std::ifstream in(path, std::ios::binary);
    char header[16] = {};
    in.read(header, sizeof header);
    return in.gcount() == sizeof header && std::string_view(header, sizeof header) == std::string_view("SQLite format 3\0", 16);
}

std::int64_t pragma_int(Database& db, const char* pragma) {
    Statement st = db.prepare(std::string("PRAGMA ") + pragma);
    return st.step() ? st.column_int64(0) : 0;
}

// The checks made before SQLite touches the file; creates the directory of a new file.
// Returns whether the file exists.
bool check_file_before_open(const std::string& path, OpenMode mode) {
    const fs::path file(path);
    std::error_code ec;
    const bool exists = fs::exists(file, ec);
    if (!exists && mode != OpenMode::create_or_open)
        throw UserError(fmt::format("database '{}' does not exist", path));
    if (exists && fs::is_directory(file, ec))
        throw UserError(fmt::format("database '{}' is a directory, not a file", path));
    const bool has_content = exists && fs::file_size(file, ec) > 0;
    // Checked before SQLite touches the file: opening read-write and setting WAL would write
    // to a file that is not ours.
    if (has_content && !has_sqlite_header(file))
        throw UserError(fmt::format("database '{}' is not a SQLite file (refusing to touch it)", path));
    if (!exists && file.has_parent_path()) fs::create_directories(file.parent_path(), ec);
    return exists;
}

// Refuses an opened file that is not an arbiter store this build can use in this mode (a new,
// empty file is one when it may be written). Returns its schema version.
std::int64_t check_store_identity(Database& db, const std::string& path, OpenMode mode) {
    const std::int64_t application_id = pragma_int(db, "application_id");
    const std::int64_t version = pragma_int(db, "user_version");
    std::int64_t table_count = 0;
    {
        Statement st = db.prepare("SELECT count(*) FROM sqlite_master");
        if (st.step()) table_count = st.column_int64(0);
    }
    const bool fresh = application_id == 0 && version == 0 && table_count == 0;
    if (!fresh && application_id != Store::kApplicationId)
        throw UserError(fmt::format("database '{}' is a SQLite file of another application, not an arbiter store",
                                    path));
    if (version > Store::kSchemaVersion)
        throw UserError(fmt::format("database '{}' has schema version {}, newer than this arbiter knows ({}); "
                                    "use a newer arbiter",
                                    path, version, Store::kSchemaVersion));
    if (mode == OpenMode::read_only || mode == OpenMode::read_only_beside_writers) {
        if (fresh) throw UserError(fmt::format("database '{}' is empty (no arbiter store in it)", path));
        if (version < Store::kOldestReadableVersion)
            throw UserError(fmt::format("database '{}' has the old schema version {}; run a writing command "
                                        "(e.g. arbiter import) once to migrate it",
                                        path, version));
    }
    return version;
}

// Sets the connection up for writing and migrates a store older than this build.
void prepare_for_writing(Database& db, std::int64_t version) {
    // WAL lets readers (reports, rate) run while a tournament writes. NORMAL sync is safe
    // with WAL against process crashes; only an OS crash can lose the last commits.
    db.exec("PRAGMA journal_mode=WAL");
    db.exec("PRAGMA synchronous=NORMAL");
    db.exec("PRAGMA foreign_keys=ON");
    if (version < Store::kSchemaVersion) {
        db.transaction([&] {
            // Re-read inside the write lock: another arbiter may have migrated meanwhile.
            const auto current = pragma_int(db, "user_version");
            if (current >= Store::kSchemaVersion) return;
            run_migrations(db, store_migrations(), static_cast<int>(current));
            db.exec(fmt::format("PRAGMA application_id={}", Store::kApplicationId));
            db.exec(fmt::format("PRAGMA user_version={}", Store::kSchemaVersion));
        });
    }
}

// How a reading command opens a store without leaving -wal and -shm files beside it. A read-only
// connection to a WAL database creates both and, unable to checkpoint, leaves them behind. When
// no writer has the database open (no -wal file), a read-write connection kept from writing
// removes them when it closes; a file nobody can write is opened immutable. While a writer has
// it open, the files exist already and a plain read-only connection adds nothing.
// How long a command waits for a database another process has locked: 30 s, or
// ARBITER_DB_WAIT_S seconds.
int lock_wait_ms() {
    const char* env = std::getenv("ARBITER_DB_WAIT_S");
    const int seconds = env && *env ? std::atoi(env) : 30;
    return std::clamp(seconds, 0, 24 * 3600) * 1000;
}

Database::Access quiet_read_access(const std::string& path) {
    std::error_code ec;
    if (!is_file_database(path) || fs::exists(path + "-wal", ec)) return Database::Access::read_only;
    const fs::path folder = fs::absolute(path, ec).parent_path();
    if (::access(path.c_str(), W_OK) == 0 && ::access(folder.c_str(), W_OK) == 0) return Database::Access::read_write;
    return Database::Access::read_only_immutable;
}

// A reader that leaves the file as it found it: beside a writer (its -wal file there) a plain
// read-only connection, which shares the writer's -shm; else immutable, as nothing else has the
// file open to write it and a plain one would create the -wal and -shm files.
Database::Access shared_read_access(const std::string& path) {
    std::error_code ec;
    return is_file_database(path) && !fs::exists(path + "-wal", ec) ? Database::Access::read_only_immutable
                                                                    : Database::Access::read_only;
}

// Turns SQLite's "this is not a database / it is damaged" into the user's problem.
[[noreturn]] void rethrow_open_error(const std::string& path, const SqliteError& e) {
    if (e.code() == SQLITE_NOTADB || e.code() == SQLITE_CORRUPT)
        throw UserError(fmt::format("database '{}' is corrupt or not a SQLite file ({})", path, e.what()));
    if (e.code() == SQLITE_CANTOPEN || e.code() == SQLITE_PERM || e.code() == SQLITE_READONLY) {
        // SQLite makes its journal files beside the database, so a writer needs the folder too.
        std::error_code ec;
        const fs::path folder = fs::absolute(path, ec).parent_path();
        if (fs::is_directory(folder, ec) && ::access(folder.c_str(), W_OK) != 0)
            throw UserError(fmt::format("database '{}' cannot be written: its folder '{}' is read-only ({})", path,
                                        folder.string(), e.what()));
        throw UserError(fmt::format("database '{}' cannot be opened ({})", path, e.what()));
    }
    throw;
}

struct FilterSql {
    std::string where;  // " WHERE ..." or ""
    std::string limit;  // " LIMIT n" or "": the first n matches by id
    std::vector<std::string> text_args;
    std::optional<std::int64_t> after_id;
};

// The optional text fields of a MatchFilter, each with its condition on table alias m, in the
// order their arguments are bound.
struct TextCondition {
    std::optional<std::string> MatchFilter::*field;
    const char* sql;
};
constexpr TextCondition kTextConditions[] = {
    {&MatchFilter::game, "m.game = ?"},
    {&MatchFilter::since, "m.started_at >= ?"},
    {&MatchFilter::until, "m.started_at < ?"},
    {&MatchFilter::tournament, "m.tournament = ?"},
};

// The WHERE clause over table alias m. Text arguments are bound first, then after_id.
FilterSql filter_sql(const MatchFilter& filter) {
    FilterSql out;
    std::vector<std::string> terms;
    for (const TextCondition& condition : kTextConditions) {
        if (const std::optional<std::string>& value = filter.*condition.field) {
            terms.push_back(condition.sql);
            out.text_args.push_back(*value);
        }
    }
    if (filter.option_key && filter.option_file) {
        // The option's value is the file's name or a path ending in it.
        const std::string value = "json_extract(m.config_json, ?)";
        terms.push_back("(" + value + " = ? OR substr(" + value + ", length(" + value + ") - length(?) + 1) = ?)");
        const std::string path = "$.\"" + *filter.option_key + "\"", tail = "/" + *filter.option_file;
        out.text_args.insert(out.text_args.end(), {path, *filter.option_file, path, path, tail, tail});
    }
    if (filter.after_id) {
        terms.push_back("m.id > ?");
        out.after_id = filter.after_id;
    }
    for (std::size_t i = 0; i < terms.size(); ++i) out.where += (i == 0 ? " WHERE " : " AND ") + terms[i];
    return out;
}

void bind_filter(Statement& st, const FilterSql& f) {
    int index = 1;
    for (const auto& arg : f.text_args) st.bind(index++, arg);
    if (f.after_id) st.bind(index++, *f.after_id);
}

// The bootstrap's resampling unit of a pair_games row (columns 3..6: match id, schedule key,
// deal set, tournament). A schedule key ".../s<seating>" names one seating of a group: the
// group's seatings share their deal and are one unit. Without a key, the deal set (within
// the tournament) groups rotations played together; otherwise the match stands alone.
std::string resampling_unit_key(const Statement& st) {
    if (!st.column_is_null(4)) {
        const std::string key = st.column_text(4);
        const auto cut = key.rfind("/s");
        if (cut != std::string::npos && cut + 2 < key.size() &&
            key.find_first_not_of("0123456789", cut + 2) == std::string::npos)
            return "group " + key.substr(0, cut);
        return "key " + key;
    }
    if (!st.column_is_null(5))
        return "deal " + std::to_string(st.column_int64(5)) + " " + (st.column_is_null(6) ? "" : st.column_text(6));
    return "match " + std::to_string(st.column_int64(3));
}

}  // namespace

bool is_file_database(const std::string& path) {
    return !path.empty() && path != ":memory:" && path.rfind("file:", 0) != 0;
}

Store::Store(Database db) : db_(std::move(db)) {}

Store Store::open(const std::string& path, OpenMode mode) {
    const bool exists = check_file_before_open(path, mode);
    const auto access = mode == OpenMode::read_only_beside_writers ? shared_read_access(path)
                        : mode == OpenMode::read_only              ? quiet_read_access(path)
                        : exists                                   ? Database::Access::read_write
                                                                   : Database::Access::read_write_create;
    try {
        Database db(path, access);
        // Opened for writing to read only: the connection may not write.
        if (mode == OpenMode::read_only && access == Database::Access::read_write) db.set_query_only();
        // Two arbiters on one file wait for each other instead of failing at once.
        sqlite3_busy_timeout(db.handle(), lock_wait_ms());
        const std::int64_t version = check_store_identity(db, path, mode);
        if (mode != OpenMode::read_only && mode != OpenMode::read_only_beside_writers) prepare_for_writing(db, version);
        return Store(std::move(db));
    } catch (const SqliteError& e) {
        rethrow_open_error(path, e);
    }
}

void Store::limit_page_cache(int kib) { db_.exec(fmt::format("PRAGMA cache_size=-{}", std::max(1, kib))); }

// ---------------------------------------------------------------------------------------------
// Bots

std::int64_t Store::ensure_bot(const std::string& name, const std::string& command, const std::string& version) {
    Statement find = db_.prepare("SELECT id FROM bots WHERE name = ? AND command = ? AND version = ?");
    find.bind(1, name).bind(2, command).bind(3, version);
    if (find.step()) return find.column_int64(0);
    Statement insert = db_.prepare("INSERT INTO bots (name, command, version, first_seen) VALUES (?, ?, ?, ?)");
    insert.bind(1, name).bind(2, command).bind(3, version).bind(4, utc_timestamp_now());
    insert.run();
    return db_.last_insert_rowid();
}

std::vector<BotRow> Store::bots() const {
    std::vector<BotRow> out;
    Statement st = prepare("SELECT id, name, command, version FROM bots ORDER BY id");
    while (st.step()) out.push_back({st.column_int64(0), st.column_text(1), st.column_text(2), st.column_text(3)});
    return out;
}

// ---------------------------------------------------------------------------------------------
// Matches

std::optional<std::int64_t> Store::match_id_for_schedule_key(const std::string& schedule_key) const {
    Statement st = prepare("SELECT id FROM matches WHERE schedule_key = ?");
    st.bind(1, schedule_key);
    if (st.step()) return st.column_int64(0);
    return std::nullopt;
}

bool Store::has_schedule_key(const std::string& schedule_key) const {
    return match_id_for_schedule_key(schedule_key).has_value();
}

namespace {

// The index of each loaded match in the result, by match id.
using PositionOfMatch = std::unordered_map<std::int64_t, std::size_t>;

// The matches rows of the filter, without participants and pairs.
std::vector<StoredMatch> load_match_rows(const Store& store, const FilterSql& f, PositionOfMatch& position_of) {
    std::vector<StoredMatch> out;
    Statement st = StoreAccess::prepare(store, 
        "SELECT m.id, m.game, m.config_json, m.seed, m.deal_set, m.rotation, m.end_reason, m.turns,"
        " m.transcript_path, m.replay_path, m.started_at, m.wall_s, m.machine_load, m.tournament, m.schedule_key"
        " FROM matches m" +
        f.where + " ORDER BY m.id" + f.limit);
    bind_filter(st, f);
    while (st.step()) {
        StoredMatch sm;
        sm.id = st.column_int64(0);
        MatchRecord& r = sm.record;
        r.game = st.column_text(1);
        r.config_json = st.column_text(2);
        r.seed = from_sql(st.column_int64(3));
        if (!st.column_is_null(4)) r.deal_set = from_sql(st.column_int64(4));
        r.rotation = st.column_int(5);
        r.end_reason = st.column_text(6);
        r.turns = st.column_int(7);
        r.transcript_path = st.column_text(8);
        r.replay_path = st.column_text(9);
        r.started_at = st.column_text(10);
        r.wall_s = st.column_double(11);
        r.machine_load = st.column_double(12);
        sm.tournament = st.column_optional_text(13);
        sm.schedule_key = st.column_optional_text(14);
        position_of.emplace(sm.id, out.size());
        out.push_back(std::move(sm));
    }
    return out;
}

// as_stored: a status this build does not know reads as crashed, the stored text kept beside.
void add_participants(const Store& store, const FilterSql& f, const PositionOfMatch& position_of,
                      std::vector<StoredMatch>& out, bool as_stored) {
    // A store of schema version 1, read without migrating, has no failure columns yet.
    Statement has_failures = StoreAccess::prepare(store, "SELECT count(*) FROM pragma_table_info('participants') WHERE name = 'stderr_tail'");
    const bool failures = has_failures.step() && has_failures.column_int64(0) > 0;
    Statement st = StoreAccess::prepare(store, 
        "SELECT p.match_id, b.name, b.command, p.seat, p.score, p.rank, p.status, p.detail, p.wall_used_s,"
        " p.cpu_used_s, p.longest_reply_s, p.requests, p.peak_memory_kib, " +
        std::string(failures ? "p.exit_code, p.exit_signal, p.limit_hit, p.stderr_tail" : "NULL, NULL, '', ''") +
        " FROM participants p JOIN bots b ON b.id = p.bot_id"
        " WHERE p.match_id IN (SELECT m.id FROM matches m" +
        f.where + (f.limit.empty() ? "" : " ORDER BY m.id" + f.limit) + ") ORDER BY p.match_id, p.position");
    bind_filter(st, f);
    while (st.step()) {
        ParticipantResult p;
        p.bot = st.column_text(1);
        p.command = st.column_text(2);
        p.seat = st.column_int(3);
        p.score = st.column_double(4);
        p.rank = st.column_int(5);
        StoredMatch& match = out[position_of.at(st.column_int64(0))];
        std::string status = st.column_text(6);
        if (!as_stored) {
            try {
                p.status = seat_status_from_string(status);
            } catch (const std::invalid_argument&) {
                throw UserError(fmt::format("database '{}': match {} has a seat status this arbiter does not know: '{}'",
                                            store.path(), st.column_int64(0), status.substr(0, 40)));
            }
        } else {
            try {
                p.status = seat_status_from_string(status);
            } catch (const std::invalid_argument&) {
                p.status = SeatStatus::crashed;
            }
            match.stored_statuses.push_back(std::move(status));
        }
        p.detail = st.column_text(7);
        p.usage.wall_used_s = st.column_double(8);
        p.usage.cpu_used_s = st.column_double(9);
        p.usage.longest_reply_s = st.column_double(10);
        p.usage.requests = st.column_int64(11);
        p.usage.peak_memory_kib = st.column_int64(12);
        if (!st.column_is_null(13)) p.exit_code = st.column_int(13);
        if (!st.column_is_null(14)) p.exit_signal = st.column_int(14);
        p.limit = st.column_text(15);
        p.stderr_tail = st.column_text(16);
        match.record.participants.push_back(std::move(p));
    }
}

void add_pairs(const Store& store, const FilterSql& f, const PositionOfMatch& position_of,
               std::vector<StoredMatch>& out) {
    Statement st = StoreAccess::prepare(store, 
        "SELECT p.match_id, p.a, p.b, p.score_a FROM pairs p"
        " WHERE p.match_id IN (SELECT m.id FROM matches m" +
        f.where + (f.limit.empty() ? "" : " ORDER BY m.id" + f.limit) + ") ORDER BY p.match_id, p.position");
    bind_filter(st, f);
    while (st.step()) {
        out[position_of.at(st.column_int64(0))].record.pairs.push_back(
            {st.column_int(1), st.column_int(2), st.column_double(3)});
    }
}

// The rows, participants and pairs are three queries: read on one snapshot, or a match stored
// between them would have participants without its row.
std::vector<StoredMatch> load_matches(const Store& store, const FilterSql& f, bool as_stored = false) {
    PositionOfMatch position_of;
    std::vector<StoredMatch> out;
    store.read_snapshot([&] {
        out = load_match_rows(store, f, position_of);
        if (out.empty()) return;
        add_participants(store, f, position_of, out, as_stored);
        add_pairs(store, f, position_of, out);
    });
    return out;
}

}  // namespace

std::vector<StoredMatch> Store::matches(const MatchFilter& filter) const { return load_matches(*this, filter_sql(filter)); }

std::vector<StoredMatch> Store::matches_as_stored(const MatchFilter& filter) const {
    return load_matches(*this, filter_sql(filter), true);
}

void Store::for_each_match(const MatchFilter& filter, const std::function<void(StoredMatch&)>& fn,
                           std::size_t batch) const {
    MatchFilter window = filter;
    while (true) {
        FilterSql f = filter_sql(window);
        f.limit = " LIMIT " + std::to_string(std::max<std::size_t>(1, batch));
        std::vector<StoredMatch> matches = load_matches(*this, f);
        if (matches.empty()) return;
        window.after_id = matches.back().id;
        for (StoredMatch& m : matches) fn(m);
        if (matches.size() < batch) return;
    }
}

std::optional<StoredMatch> Store::match(std::int64_t id) const {
    // id > id-1 and id < id+1 through the generic filter: one match, same loading code.
    FilterSql f;
    f.where = " WHERE m.id > ? AND m.id < " + std::to_string(id + 1);
    f.after_id = id - 1;
    auto found = load_matches(*this, f);
    if (found.empty()) return std::nullopt;
    return std::move(found.front());
}

std::int64_t Store::match_count(const MatchFilter& filter) const {
    const FilterSql f = filter_sql(filter);
    Statement st = prepare("SELECT count(*) FROM matches m" + f.where);
    bind_filter(st, f);
    return st.step() ? st.column_int64(0) : 0;
}

std::int64_t Store::unpaired_match_count(const MatchFilter& filter) const {
    const FilterSql f = filter_sql(filter);
    Statement st = prepare("SELECT count(*) FROM matches m" + f.where + (f.where.empty() ? " WHERE" : " AND") +
                           " NOT EXISTS (SELECT 1 FROM pairs p WHERE p.match_id = m.id)"
                           " AND (SELECT count(*) FROM participants x WHERE x.match_id = m.id) >= 2");
    bind_filter(st, f);
    return st.step() ? st.column_int64(0) : 0;
}

std::vector<std::string> Store::games() const {
    std::vector<std::string> out;
    Statement st = prepare("SELECT DISTINCT game FROM matches ORDER BY game");
    while (st.step()) out.push_back(st.column_text(0));
    return out;
}

std::vector<std::string> Store::tournaments() const {
    std::vector<std::string> out;
    Statement st = prepare("SELECT DISTINCT tournament FROM matches WHERE tournament IS NOT NULL ORDER BY tournament");
    while (st.step()) out.push_back(st.column_text(0));
    return out;
}

ResultSet Store::pair_games(const MatchFilter& filter, std::vector<std::int64_t>* unit_of_game) const {
    ResultSet results;
    // The bots, then the games: one snapshot, so that a game never names a bot not yet read.
    read_snapshot([&] { results = pair_games_now(filter, unit_of_game); });
    return results;
}

ResultSet Store::pair_games_now(const MatchFilter& filter, std::vector<std::int64_t>* unit_of_game) const {
    const FilterSql f = filter_sql(filter);
    ResultSet results;
    // Bot rows with the same name are one player (a new command or version of a bot keeps
    // its rating history, as bayeselo keys players by name).
    std::unordered_map<std::int64_t, int> player_of_bot;
    std::unordered_map<std::int64_t, std::string> name_of_bot;
    {
        Statement st = prepare("SELECT id, name FROM bots");
        while (st.step()) name_of_bot.emplace(st.column_int64(0), st.column_text(1));
    }
    // Players are numbered in order of first appearance in the rated games, so the numbering
    // (and bayeselo's tie order) does not depend on unrelated bots in the file.
    auto player = [&](std::int64_t bot) {
        auto [it, inserted] = player_of_bot.try_emplace(bot, 0);
        if (inserted) it->second = results.player_index(name_of_bot.at(bot));
        return it->second;
    };
    std::unordered_map<std::string, std::int64_t> unit_ids;
    Statement st = prepare(
        "SELECT xa.bot_id, xb.bot_id, p.score_a, m.id, m.schedule_key, m.deal_set, m.tournament FROM matches m"
        " JOIN pairs p ON p.match_id = m.id"
        " JOIN participants xa ON xa.match_id = p.match_id AND xa.position = p.a"
        " JOIN participants xb ON xb.match_id = p.match_id AND xb.position = p.b" +
        f.where + " ORDER BY m.id, p.position");
    bind_filter(st, f);
    while (st.step()) {
        const int white = player(st.column_int64(0));
        const int black = player(st.column_int64(1));
        // The same bot in two seats (house bots filling a group) says nothing about strength.
        if (white == black) continue;
        results.add_game(white, black, outcome_from_score(st.column_double(2)));
        if (unit_of_game) {
            const std::string key = resampling_unit_key(st);
            unit_of_game->push_back(unit_ids.try_emplace(key, static_cast<std::int64_t>(unit_ids.size())).first->second);
        }
    }
    return results;
}

}  // namespace arb::rating
