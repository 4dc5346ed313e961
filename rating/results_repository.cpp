// The tournament's and the ladder's tables of the results repository: their schemas (migrated
// like the store's, per component) and every statement on them.
#include "rating/results_repository.hpp"

#include <nlohmann/json.hpp>

#include "rating/store_internal.hpp"

namespace arb::rating {
namespace {

using store_internal::from_sql;
using store_internal::StoreAccess;
using store_internal::to_sql;

const std::vector<std::string>& tournament_migrations() {
    static const std::vector<std::string> m = {
        // v1
        "CREATE TABLE tournament ("
        "  name TEXT PRIMARY KEY,"
        "  game TEXT NOT NULL,"
        "  identity_json TEXT NOT NULL,"
        "  created_at TEXT NOT NULL,"
        "  runner_pid INTEGER,"
        "  runner_host TEXT,"
        "  runner_since TEXT);"
        "CREATE TABLE tournament_match ("
        "  schedule_key TEXT PRIMARY KEY,"
        "  tournament TEXT NOT NULL REFERENCES tournament(name),"
        "  round INTEGER NOT NULL,"
        "  grp INTEGER NOT NULL,"
        "  seating INTEGER NOT NULL,"
        "  seed INTEGER NOT NULL,"
        "  deal_set INTEGER NOT NULL,"
        "  bots_json TEXT NOT NULL,"
        "  started_at TEXT,"
        "  concurrent_matches INTEGER,"
        "  jobs INTEGER,"
        "  cores INTEGER,"
        "  load_per_core REAL);"
        "CREATE INDEX tournament_match_order ON tournament_match(tournament, round, grp, seating);",
        // v2: when `plan` wrote the match out as a job (NULL: never handed out)
        "ALTER TABLE tournament_match ADD COLUMN handed_out_at TEXT;",
        // v3: the map (or field) a pool gave the match ('' = the tournament's options)
        "ALTER TABLE tournament_match ADD COLUMN map TEXT NOT NULL DEFAULT '';",
    };
    return m;
}

const std::vector<std::string>& ladder_migrations() {
    static const std::vector<std::string> m = {
        // v1
        "CREATE TABLE ladder_bot ("
        "  game TEXT NOT NULL,"
        "  name TEXT NOT NULL,"
        "  spec TEXT NOT NULL,"
        "  family TEXT NOT NULL,"
        "  registered_at TEXT NOT NULL,"
        "  seq INTEGER NOT NULL,"
        "  PRIMARY KEY (game, name));"
        "CREATE TABLE ladder_run ("
        "  id INTEGER PRIMARY KEY,"
        "  game TEXT NOT NULL,"
        "  bot TEXT NOT NULL,"
        "  previous TEXT,"
        "  finished_at TEXT NOT NULL,"
        "  verdict TEXT NOT NULL,"
        "  los REAL,"
        "  matches INTEGER NOT NULL,"
        "  snapshot_id INTEGER,"
        "  outcome_json TEXT NOT NULL);",
    };
    return m;
}

}  // namespace

// ---------------------------------------------------------------------------------------------
// Tournament

TournamentTables::TournamentTables(Store& store) : store_(store) {
    store_.ensure_component_schema("tournament", tournament_migrations());
}

std::optional<std::string> TournamentTables::identity_json(const std::string& name) const {
    auto q = StoreAccess::prepare(store_, "SELECT identity_json FROM tournament WHERE name = ?1");
    q.bind(1, name);
    if (q.step()) return q.column_text(0);
    return std::nullopt;
}

void TournamentTables::insert_tournament(const std::string& name, const std::string& game,
                                         const std::string& identity_json) {
    auto insert = StoreAccess::prepare(
        store_, "INSERT INTO tournament(name, game, identity_json, created_at) VALUES (?1, ?2, ?3, ?4)");
    insert.bind(1, name).bind(2, game).bind(3, identity_json).bind(4, utc_timestamp_now());
    insert.run();
}

std::optional<TournamentRunnerRow> TournamentTables::runner(const std::string& name) const {
    auto q = StoreAccess::prepare(store_, "SELECT runner_pid, runner_host, runner_since FROM tournament WHERE name = ?1");
    q.bind(1, name);
    if (!q.step()) return std::nullopt;
    return TournamentRunnerRow{q.column_optional_int64(0), q.column_optional_text(1), q.column_optional_text(2)};
}

void TournamentTables::set_runner(const std::string& name, std::int64_t pid, const std::string& host) {
    auto u = StoreAccess::prepare(
        store_, "UPDATE tournament SET runner_pid = ?1, runner_host = ?2, runner_since = ?3 WHERE name = ?4");
    u.bind(1, pid).bind(2, host).bind(3, utc_timestamp_now()).bind(4, name);
    u.run();
}

void TournamentTables::clear_runner(const std::string& name, std::int64_t pid) {
    auto u = StoreAccess::prepare(store_, "UPDATE tournament SET runner_pid = NULL WHERE name = ?1 AND runner_pid = ?2");
    u.bind(1, name).bind(2, pid);
    u.run();
}

namespace {

// The columns every schedule query reads, and a row from them.
constexpr const char* kScheduleColumns =
    "t.schedule_key, t.round, t.grp, t.seating, t.seed, t.deal_set, t.bots_json, t.map";

ScheduleRow schedule_row(const Statement& q) {
    ScheduleRow m;
    m.key = q.column_text(0);
    m.round = q.column_int(1);
    m.group = q.column_int(2);
    m.seating = q.column_int(3);
    m.seed = from_sql(q.column_int64(4));
    m.deal_set = from_sql(q.column_int64(5));
    m.bots = nlohmann::json::parse(q.column_text(6)).get<std::vector<std::string>>();
    m.map = q.column_text(7);
    return m;
}

}  // namespace

std::vector<ScheduleRow> TournamentTables::schedule(const std::string& name) const {
    std::vector<ScheduleRow> rows;
    auto q = StoreAccess::prepare(store_, std::string("SELECT ") + kScheduleColumns +
                                              " FROM tournament_match t WHERE t.tournament = ?1"
                                              " ORDER BY t.round, t.grp, t.seating");
    q.bind(1, name);
    while (q.step()) rows.push_back(schedule_row(q));
    return rows;
}

std::vector<ScheduleRow> TournamentTables::unplayed_schedule(const std::string& name) const {
    std::vector<ScheduleRow> rows;
    auto q = StoreAccess::prepare(store_, std::string("SELECT ") + kScheduleColumns +
                                              " FROM tournament_match t WHERE t.tournament = ?1 AND NOT EXISTS"
                                              " (SELECT 1 FROM matches m WHERE m.schedule_key = t.schedule_key)"
                                              " ORDER BY t.round, t.grp, t.seating");
    q.bind(1, name);
    while (q.step()) rows.push_back(schedule_row(q));
    return rows;
}

std::map<int, int> TournamentTables::schedule_round_sizes(const std::string& name) const {
    std::map<int, int> sizes;
    auto q = StoreAccess::prepare(
        store_, "SELECT round, count(*) FROM tournament_match WHERE tournament = ?1 GROUP BY round ORDER BY round");
    q.bind(1, name);
    while (q.step()) sizes.emplace(q.column_int(0), q.column_int(1));
    return sizes;
}

std::optional<ScheduleRow> TournamentTables::scheduled(const std::string& name, const std::string& key) const {
    auto q = StoreAccess::prepare(store_, std::string("SELECT ") + kScheduleColumns +
                                              " FROM tournament_match t WHERE t.tournament = ?1 AND t.schedule_key = ?2");
    q.bind(1, name).bind(2, key);
    if (q.step()) return schedule_row(q);
    return std::nullopt;
}

void TournamentTables::insert_schedule(const std::string& name, const std::vector<ScheduleRow>& rows) {
    store_.transaction([&] {
        auto insert = StoreAccess::prepare(
            store_,
            "INSERT INTO tournament_match(schedule_key, tournament, round, grp, seating, seed, deal_set, bots_json, map) "
            "VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9)");
        for (const ScheduleRow& m : rows) {
            insert.reset();
            insert.bind(1, m.key).bind(2, name).bind(3, m.round).bind(4, m.group).bind(5, m.seating);
            insert.bind(6, to_sql(m.seed)).bind(7, to_sql(m.deal_set)).bind(8, nlohmann::json(m.bots).dump()).bind(9, m.map);
            insert.run();
        }
    });
}

void TournamentTables::store_result(const std::string& name, const std::string& key, const MatchRecord& record,
                                    const LoadNote& load) {
    store_.transaction([&] {
        store_.insert_match(record, name, key);
        auto u = StoreAccess::prepare(
            store_,
            "UPDATE tournament_match SET started_at = ?1, concurrent_matches = ?2, jobs = ?3, cores = ?4, "
            "load_per_core = ?5 WHERE schedule_key = ?6");
        u.bind(1, load.started_at).bind(2, load.concurrent_matches).bind(3, load.jobs).bind(4, load.cores);
        u.bind(5, load.load_per_core).bind(6, key);
        u.run();
    });
}

std::set<std::string> TournamentTables::handed_out(const std::string& name) const {
    std::set<std::string> keys;
    auto q = StoreAccess::prepare(
        store_, "SELECT schedule_key FROM tournament_match WHERE tournament = ?1 AND handed_out_at IS NOT NULL");
    q.bind(1, name);
    while (q.step()) keys.insert(q.column_text(0));
    return keys;
}

void TournamentTables::mark_handed_out(const std::vector<std::string>& keys) {
    const std::string now = utc_timestamp_now();
    store_.transaction([&] {
        auto u = StoreAccess::prepare(store_, "UPDATE tournament_match SET handed_out_at = ?1 WHERE schedule_key = ?2");
        for (const auto& key : keys) {
            u.reset();
            u.bind(1, now).bind(2, key);
            u.run();
        }
    });
}

std::vector<TournamentIdentity> tournament_identities(const Store& store, const std::vector<std::string>& names) {
    std::vector<TournamentIdentity> out;
    if (!store_internal::has_table(store, "tournament")) return out;
    auto st = StoreAccess::prepare(store, "SELECT name, game, identity_json, created_at FROM tournament WHERE name = ?1");
    for (const auto& name : names) {
        st.reset();
        st.bind(1, name);
        if (st.step()) out.push_back({st.column_text(0), st.column_text(1), st.column_text(2), st.column_text(3)});
    }
    return out;
}

// ---------------------------------------------------------------------------------------------
// Ladder

LadderTables::LadderTables(Store& store) : store_(store) { store_.ensure_component_schema("ladder", ladder_migrations()); }

std::optional<std::string> LadderTables::bot_spec(const std::string& game, const std::string& name) const {
    auto q = StoreAccess::prepare(store_, "SELECT spec FROM ladder_bot WHERE game = ?1 AND name = ?2");
    q.bind(1, game).bind(2, name);
    if (q.step()) return q.column_text(0);
    return std::nullopt;
}

void LadderTables::insert_bot(const std::string& game, const std::string& name, const std::string& spec,
                              const std::string& family) {
    store_.transaction([&] {
        auto seq = StoreAccess::prepare(store_, "SELECT COALESCE(MAX(seq), 0) + 1 FROM ladder_bot WHERE game = ?1");
        seq.bind(1, game);
        seq.step();
        const std::int64_t next = seq.column_int64(0);
        auto insert = StoreAccess::prepare(
            store_, "INSERT INTO ladder_bot(game, name, spec, family, registered_at, seq) VALUES (?1, ?2, ?3, ?4, ?5, ?6)");
        insert.bind(1, game).bind(2, name).bind(3, spec).bind(4, family);
        insert.bind(5, utc_timestamp_now()).bind(6, next);
        insert.run();
    });
}

std::vector<LadderBotRow> LadderTables::bots(const std::string& game) const {
    std::vector<LadderBotRow> out;
    auto q = StoreAccess::prepare(store_, "SELECT name, spec, family, seq FROM ladder_bot WHERE game = ?1 ORDER BY seq");
    q.bind(1, game);
    while (q.step()) out.push_back({q.column_text(0), q.column_text(1), q.column_text(2), q.column_int64(3)});
    return out;
}

void LadderTables::insert_run(const LadderRunRow& run) {
    auto insert = StoreAccess::prepare(
        store_,
        "INSERT INTO ladder_run(game, bot, previous, finished_at, verdict, los, matches, snapshot_id, outcome_json) "
        "VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9)");
    insert.bind(1, run.game).bind(2, run.bot).bind(3, run.previous).bind(4, utc_timestamp_now());
    insert.bind(5, run.verdict).bind(6, run.los).bind(7, run.matches);
    insert.bind(8, run.snapshot_id).bind(9, run.outcome_json);
    insert.run();
}

}  // namespace arb::rating
