#include "rating/store.hpp"

#include <bit>
#include <filesystem>
#include <fstream>
#include <unordered_map>

#include <fmt/format.h>
#include <sqlite3.h>

#include "core/user_error.hpp"

namespace arb::rating {
namespace {

namespace fs = std::filesystem;

// migrations[k] takes the store schema from version k to k+1 (k = 0: a new, empty file).
const std::vector<std::string>& store_migrations() {
    static const std::vector<std::string> migrations = {
        // v1
        R"sql(
CREATE TABLE bots (
    id INTEGER PRIMARY KEY,
    name TEXT NOT NULL,
    command TEXT NOT NULL DEFAULT '',
    version TEXT NOT NULL DEFAULT '',
    first_seen TEXT NOT NULL,
    UNIQUE (name, command, version)
);
CREATE TABLE matches (
    id INTEGER PRIMARY KEY,
    game TEXT NOT NULL,
    config_json TEXT NOT NULL,
    seed INTEGER NOT NULL,            -- uint64 stored by bit pattern
    deal_set INTEGER,                 -- uint64 stored by bit pattern, NULL when none
    rotation INTEGER NOT NULL,
    end_reason TEXT NOT NULL,
    turns INTEGER NOT NULL,
    transcript_path TEXT NOT NULL,
    replay_path TEXT NOT NULL,
    started_at TEXT NOT NULL,
    wall_s REAL NOT NULL,
    machine_load REAL NOT NULL,
    tournament TEXT,
    schedule_key TEXT UNIQUE,
    stored_at TEXT NOT NULL
);
CREATE INDEX matches_by_game_time ON matches (game, started_at);
CREATE INDEX matches_by_time ON matches (started_at);
CREATE INDEX matches_by_tournament ON matches (tournament);
CREATE TABLE participants (
    match_id INTEGER NOT NULL REFERENCES matches (id) ON DELETE CASCADE,
    position INTEGER NOT NULL,        -- index in MatchRecord::participants
    bot_id INTEGER NOT NULL REFERENCES bots (id),
    seat INTEGER NOT NULL,
    score REAL NOT NULL,
    rank INTEGER NOT NULL,
    status TEXT NOT NULL,
    detail TEXT NOT NULL,
    wall_used_s REAL NOT NULL,
    cpu_used_s REAL NOT NULL,
    longest_reply_s REAL NOT NULL,
    requests INTEGER NOT NULL,
    peak_memory_kib INTEGER NOT NULL,
    PRIMARY KEY (match_id, position)
) WITHOUT ROWID;
CREATE INDEX participants_by_bot ON participants (bot_id);
CREATE TABLE pairs (
    match_id INTEGER NOT NULL REFERENCES matches (id) ON DELETE CASCADE,
    position INTEGER NOT NULL,        -- index in MatchRecord::pairs
    a INTEGER NOT NULL,               -- participant positions; a is "white"
    b INTEGER NOT NULL,
    score_a REAL NOT NULL,
    PRIMARY KEY (match_id, position)
) WITHOUT ROWID;
CREATE TABLE rating_snapshots (
    id INTEGER PRIMARY KEY,
    label TEXT NOT NULL,
    created_at TEXT NOT NULL,
    game TEXT NOT NULL,
    params_json TEXT NOT NULL
);
CREATE INDEX rating_snapshots_by_label ON rating_snapshots (label, id);
CREATE TABLE rating_snapshot_rows (
    snapshot_id INTEGER NOT NULL REFERENCES rating_snapshots (id) ON DELETE CASCADE,
    bot TEXT NOT NULL,
    rank INTEGER NOT NULL,
    elo REAL NOT NULL,
    plus REAL NOT NULL,
    minus REAL NOT NULL,
    games INTEGER NOT NULL,
    score REAL NOT NULL,
    draws REAL NOT NULL,
    PRIMARY KEY (snapshot_id, bot)
) WITHOUT ROWID;
CREATE TABLE component_schemas (
    component TEXT PRIMARY KEY,
    version INTEGER NOT NULL
);
)sql",
    };
    return migrations;
}

std::int64_t to_sql(std::uint64_t v) { return std::bit_cast<std::int64_t>(v); }
std::uint64_t from_sql(std::int64_t v) { return std::bit_cast<std::uint64_t>(v); }

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

// Turns SQLite's "this is not a database / it is damaged" into the user's problem.
[[noreturn]] void rethrow_open_error(const std::string& path, const SqliteError& e) {
    if (e.code() == SQLITE_NOTADB || e.code() == SQLITE_CORRUPT)
        throw UserError(fmt::format("database '{}' is corrupt or not a SQLite file ({})", path, e.what()));
    if (e.code() == SQLITE_CANTOPEN || e.code() == SQLITE_PERM || e.code() == SQLITE_READONLY)
        throw UserError(fmt::format("database '{}' cannot be opened ({})", path, e.what()));
    throw;
}

struct FilterSql {
    std::string where;  // " WHERE ..." or ""
    std::vector<std::string> text_args;
    std::optional<std::int64_t> after_id;
};

// The WHERE clause over table alias m. Text arguments are bound first, then after_id.
FilterSql filter_sql(const MatchFilter& filter) {
    FilterSql out;
    std::vector<std::string> terms;
    if (filter.game) {
        terms.push_back("m.game = ?");
        out.text_args.push_back(*filter.game);
    }
    if (filter.since) {
        terms.push_back("m.started_at >= ?");
        out.text_args.push_back(*filter.since);
    }
    if (filter.until) {
        terms.push_back("m.started_at < ?");
        out.text_args.push_back(*filter.until);
    }
    if (filter.tournament) {
        terms.push_back("m.tournament = ?");
        out.text_args.push_back(*filter.tournament);
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

std::vector<StoredMatch> load_matches(const Store& store, const FilterSql& f);

void run_migrations(Database& db, const std::vector<std::string>& migrations, int from) {
    for (std::size_t v = static_cast<std::size_t>(from); v < migrations.size(); ++v) db.exec(migrations[v]);
}

}  // namespace

Store::Store(Database db) : db_(std::move(db)) {}

Store Store::open(const std::string& path, OpenMode mode) {
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

    const auto access = mode == OpenMode::read_only ? Database::Access::read_only
                        : exists                    ? Database::Access::read_write
                                                    : Database::Access::read_write_create;
    try {
        Database db(path, access);
        // Two arbiters on one file wait for each other instead of failing at once.
        sqlite3_busy_timeout(db.handle(), 30000);

        const std::int64_t application_id = pragma_int(db, "application_id");
        const std::int64_t version = pragma_int(db, "user_version");
        std::int64_t table_count = 0;
        {
            Statement st = db.prepare("SELECT count(*) FROM sqlite_master");
            if (st.step()) table_count = st.column_int64(0);
        }
        const bool fresh = application_id == 0 && version == 0 && table_count == 0;
        if (!fresh && application_id != kApplicationId)
            throw UserError(fmt::format("database '{}' is a SQLite file of another application, not an arbiter store",
                                        path));
        if (version > kSchemaVersion)
            throw UserError(fmt::format("database '{}' has schema version {}, newer than this arbiter knows ({}); "
                                        "use a newer arbiter",
                                        path, version, kSchemaVersion));
        if (mode == OpenMode::read_only) {
            if (fresh) throw UserError(fmt::format("database '{}' is empty (no arbiter store in it)", path));
            if (version < kSchemaVersion)
                throw UserError(fmt::format("database '{}' has the old schema version {}; run a writing command "
                                            "(e.g. arbiter import) once to migrate it",
                                            path, version));
            return Store(std::move(db));
        }

        // WAL lets readers (reports, rate) run while a tournament writes. NORMAL sync is safe
        // with WAL against process crashes; only an OS crash can lose the last commits.
        db.exec("PRAGMA journal_mode=WAL");
        db.exec("PRAGMA synchronous=NORMAL");
        db.exec("PRAGMA foreign_keys=ON");
        if (version < kSchemaVersion) {
            db.transaction([&] {
                // Re-read inside the write lock: another arbiter may have migrated meanwhile.
                const auto current = pragma_int(db, "user_version");
                if (current >= kSchemaVersion) return;
                run_migrations(db, store_migrations(), static_cast<int>(current));
                db.exec(fmt::format("PRAGMA application_id={}", kApplicationId));
                db.exec(fmt::format("PRAGMA user_version={}", kSchemaVersion));
            });
        }
        return Store(std::move(db));
    } catch (const SqliteError& e) {
        rethrow_open_error(path, e);
    }
}

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

std::int64_t Store::insert_match(const MatchRecord& record, std::optional<std::string> tournament,
                                 std::optional<std::string> schedule_key) {
    InsertOptions options;
    options.tournament = std::move(tournament);
    options.schedule_key = std::move(schedule_key);
    return insert_match(record, options);
}

std::int64_t Store::insert_match(const MatchRecord& record, const InsertOptions& options) {
    std::int64_t id = 0;
    db_.transaction([&] { id = insert_matches({record}, options).front(); });
    return id;
}

std::vector<std::int64_t> Store::insert_matches(const std::vector<MatchRecord>& records, const InsertOptions& options) {
    std::vector<std::int64_t> ids;
    ids.reserve(records.size());
    db_.transaction([&] {
        Statement find_key = db_.prepare("SELECT id FROM matches WHERE schedule_key = ?");
        Statement find_bot = db_.prepare("SELECT id FROM bots WHERE name = ? AND command = ? AND version = ?");
        Statement add_bot = db_.prepare("INSERT INTO bots (name, command, version, first_seen) VALUES (?, ?, ?, ?)");
        Statement add_match = db_.prepare(
            "INSERT INTO matches (game, config_json, seed, deal_set, rotation, end_reason, turns, transcript_path,"
            " replay_path, started_at, wall_s, machine_load, tournament, schedule_key, stored_at)"
            " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)");
        Statement add_participant = db_.prepare(
            "INSERT INTO participants (match_id, position, bot_id, seat, score, rank, status, detail, wall_used_s,"
            " cpu_used_s, longest_reply_s, requests, peak_memory_kib) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)");
        Statement add_pair = db_.prepare("INSERT INTO pairs (match_id, position, a, b, score_a) VALUES (?, ?, ?, ?, ?)");
        const std::string stored_at = utc_timestamp_now();
        // Bot ids cached per call: a batch of a round robin names the same few bots many times.
        std::unordered_map<std::string, std::int64_t> bot_ids;
        auto bot_id = [&](const ParticipantResult& p) {
            auto version_it = options.bot_versions.find(p.bot);
            const std::string version = version_it == options.bot_versions.end() ? "" : version_it->second;
            std::string key = p.bot;
            key.push_back('\0');
            key += p.command;
            key.push_back('\0');
            key += version;
            if (auto it = bot_ids.find(key); it != bot_ids.end()) return it->second;
            find_bot.bind(1, p.bot).bind(2, p.command).bind(3, version);
            std::int64_t id;
            if (find_bot.step()) {
                id = find_bot.column_int64(0);
            } else {
                add_bot.bind(1, p.bot).bind(2, p.command).bind(3, version).bind(4, stored_at);
                add_bot.run();
                id = db_.last_insert_rowid();
            }
            find_bot.reset();
            bot_ids.emplace(std::move(key), id);
            return id;
        };

        for (const MatchRecord& record : records) {
            if (options.schedule_key && records.size() > 1)
                throw std::invalid_argument("insert_matches: one schedule key cannot name several matches");
            if (options.schedule_key) {
                find_key.bind(1, *options.schedule_key);
                const bool found = find_key.step();
                const std::int64_t existing = found ? find_key.column_int64(0) : 0;
                find_key.reset();
                if (found) {
                    ids.push_back(existing);
                    continue;
                }
            }
            for (const PairResult& pair : record.pairs) {
                const auto n = static_cast<int>(record.participants.size());
                if (pair.a < 0 || pair.b < 0 || pair.a >= n || pair.b >= n)
                    throw std::invalid_argument(fmt::format("match record of {}: pair ({}, {}) names no participant",
                                                            record.game, pair.a, pair.b));
            }
            add_match.bind(1, record.game)
                .bind(2, record.config_json)
                .bind(3, to_sql(record.seed))
                .bind(5, record.rotation)
                .bind(6, record.end_reason)
                .bind(7, record.turns)
                .bind(8, record.transcript_path)
                .bind(9, record.replay_path)
                .bind(10, record.started_at)
                .bind(11, record.wall_s)
                .bind(12, record.machine_load)
                .bind(13, options.tournament)
                .bind(14, options.schedule_key)
                .bind(15, stored_at);
            if (record.deal_set) add_match.bind(4, to_sql(*record.deal_set));
            else add_match.bind_null(4);
            add_match.run();
            const std::int64_t match_id = db_.last_insert_rowid();
            for (std::size_t i = 0; i < record.participants.size(); ++i) {
                const ParticipantResult& p = record.participants[i];
                add_participant.bind(1, match_id)
                    .bind(2, static_cast<std::int64_t>(i))
                    .bind(3, bot_id(p))
                    .bind(4, p.seat)
                    .bind(5, p.score)
                    .bind(6, p.rank)
                    .bind(7, std::string(to_string(p.status)))
                    .bind(8, p.detail)
                    .bind(9, p.usage.wall_used_s)
                    .bind(10, p.usage.cpu_used_s)
                    .bind(11, p.usage.longest_reply_s)
                    .bind(12, p.usage.requests)
                    .bind(13, p.usage.peak_memory_kib);
                add_participant.run();
            }
            for (std::size_t i = 0; i < record.pairs.size(); ++i) {
                const PairResult& pair = record.pairs[i];
                add_pair.bind(1, match_id)
                    .bind(2, static_cast<std::int64_t>(i))
                    .bind(3, pair.a)
                    .bind(4, pair.b)
                    .bind(5, pair.score_a);
                add_pair.run();
            }
            ids.push_back(match_id);
        }
    });
    return ids;
}

std::vector<StoredMatch> Store::matches(const MatchFilter& filter) const { return load_matches(*this, filter_sql(filter)); }

namespace {
std::vector<StoredMatch> load_matches(const Store& store, const FilterSql& f) {
    std::vector<StoredMatch> out;
    std::unordered_map<std::int64_t, std::size_t> position_of;
    {
        Statement st = store.prepare(
            "SELECT m.id, m.game, m.config_json, m.seed, m.deal_set, m.rotation, m.end_reason, m.turns,"
            " m.transcript_path, m.replay_path, m.started_at, m.wall_s, m.machine_load, m.tournament, m.schedule_key"
            " FROM matches m" +
            f.where + " ORDER BY m.id");
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
    }
    if (out.empty()) return out;
    {
        Statement st = store.prepare(
            "SELECT p.match_id, b.name, b.command, p.seat, p.score, p.rank, p.status, p.detail, p.wall_used_s,"
            " p.cpu_used_s, p.longest_reply_s, p.requests, p.peak_memory_kib"
            " FROM participants p JOIN bots b ON b.id = p.bot_id"
            " WHERE p.match_id IN (SELECT m.id FROM matches m" +
            f.where + ") ORDER BY p.match_id, p.position");
        bind_filter(st, f);
        while (st.step()) {
            ParticipantResult p;
            p.bot = st.column_text(1);
            p.command = st.column_text(2);
            p.seat = st.column_int(3);
            p.score = st.column_double(4);
            p.rank = st.column_int(5);
            p.status = seat_status_from_string(st.column_text(6));
            p.detail = st.column_text(7);
            p.usage.wall_used_s = st.column_double(8);
            p.usage.cpu_used_s = st.column_double(9);
            p.usage.longest_reply_s = st.column_double(10);
            p.usage.requests = st.column_int64(11);
            p.usage.peak_memory_kib = st.column_int64(12);
            out[position_of.at(st.column_int64(0))].record.participants.push_back(std::move(p));
        }
    }
    {
        Statement st = store.prepare(
            "SELECT p.match_id, p.a, p.b, p.score_a FROM pairs p"
            " WHERE p.match_id IN (SELECT m.id FROM matches m" +
            f.where + ") ORDER BY p.match_id, p.position");
        bind_filter(st, f);
        while (st.step()) {
            out[position_of.at(st.column_int64(0))].record.pairs.push_back(
                {st.column_int(1), st.column_int(2), st.column_double(3)});
        }
    }
    return out;
}

}  // namespace

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

ResultSet Store::pair_games(const MatchFilter& filter) const {
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
    Statement st = prepare(
        "SELECT xa.bot_id, xb.bot_id, p.score_a FROM matches m"
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
    }
    return results;
}

// ---------------------------------------------------------------------------------------------
// Snapshots

std::int64_t Store::save_snapshot(const Snapshot& snapshot) {
    std::int64_t id = 0;
    db_.transaction([&] {
        Statement head =
            db_.prepare("INSERT INTO rating_snapshots (label, created_at, game, params_json) VALUES (?, ?, ?, ?)");
        head.bind(1, snapshot.label)
            .bind(2, snapshot.created_at.empty() ? utc_timestamp_now() : snapshot.created_at)
            .bind(3, snapshot.game)
            .bind(4, snapshot.params_json);
        head.run();
        id = db_.last_insert_rowid();
        Statement row = db_.prepare(
            "INSERT INTO rating_snapshot_rows (snapshot_id, bot, rank, elo, plus, minus, games, score, draws)"
            " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)");
        for (const SnapshotRow& r : snapshot.rows) {
            row.bind(1, id)
                .bind(2, r.bot)
                .bind(3, r.rank)
                .bind(4, r.elo)
                .bind(5, r.plus)
                .bind(6, r.minus)
                .bind(7, r.games)
                .bind(8, r.score)
                .bind(9, r.draws);
            row.run();
        }
    });
    return id;
}

std::vector<Snapshot> Store::snapshots(const std::optional<std::string>& label) const {
    std::vector<Snapshot> out;
    Statement head = prepare(label ? "SELECT id, label, created_at, game, params_json FROM rating_snapshots"
                                     " WHERE label = ? ORDER BY id"
                                   : "SELECT id, label, created_at, game, params_json FROM rating_snapshots ORDER BY id");
    if (label) head.bind(1, *label);
    Statement rows = prepare(
        "SELECT bot, rank, elo, plus, minus, games, score, draws FROM rating_snapshot_rows"
        " WHERE snapshot_id = ? ORDER BY rank, bot");
    while (head.step()) {
        Snapshot s;
        s.id = head.column_int64(0);
        s.label = head.column_text(1);
        s.created_at = head.column_text(2);
        s.game = head.column_text(3);
        s.params_json = head.column_text(4);
        rows.bind(1, s.id);
        while (rows.step()) {
            s.rows.push_back({rows.column_text(0), rows.column_int(1), rows.column_double(2), rows.column_double(3),
                              rows.column_double(4), rows.column_int64(5), rows.column_double(6),
                              rows.column_double(7)});
        }
        rows.reset();
        out.push_back(std::move(s));
    }
    return out;
}

std::optional<Snapshot> Store::latest_snapshot(const std::string& label) const {
    auto all = snapshots(label);
    if (all.empty()) return std::nullopt;
    return std::move(all.back());
}

// ---------------------------------------------------------------------------------------------
// Components

int Store::component_schema_version(const std::string& component) const {
    Statement st = prepare("SELECT version FROM component_schemas WHERE component = ?");
    st.bind(1, component);
    return st.step() ? st.column_int(0) : 0;
}

int Store::ensure_component_schema(const std::string& component, const std::vector<std::string>& migrations) {
    const int target = static_cast<int>(migrations.size());
    if (component_schema_version(component) == target) return target;
    if (db_.read_only())
        throw UserError(fmt::format("database '{}': the {} tables need a schema update; open it for writing",
                                    path(), component));
    int version = 0;
    db_.transaction([&] {
        version = component_schema_version(component);
        if (version > target)
            throw UserError(fmt::format("database '{}': the {} tables have schema version {}, newer than this "
                                        "arbiter knows ({})",
                                        path(), component, version, target));
        if (version == target) return;
        run_migrations(db_, migrations, version);
        Statement st = db_.prepare(
            "INSERT INTO component_schemas (component, version) VALUES (?, ?)"
            " ON CONFLICT (component) DO UPDATE SET version = excluded.version");
        st.bind(1, component).bind(2, target);
        st.run();
        version = target;
    });
    return version;
}

}  // namespace arb::rating
