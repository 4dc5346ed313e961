// The SQLite store: round trips, schedule keys, filters, pairwise extraction, snapshots,
// component schemas, and refusing corrupt or foreign files without touching them.
#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include <fmt/format.h>
#include <sqlite3.h>

#include "core/user_error.hpp"
#include "rating/results_repository.hpp"
#include "rating/store.hpp"
#include "rating/store_internal.hpp"

using namespace arb;
using namespace arb::rating;
namespace fs = std::filesystem;

namespace {

// A fresh directory per test case under the build tree.
struct TempDir {
    fs::path path;
    explicit TempDir(const std::string& name) {
        path = fs::path(ARBITER_BINARY_DIR) / "test-tmp" / "rating" / name;
        fs::remove_all(path);
        fs::create_directories(path);
    }
    std::string file(const std::string& name) const { return (path / name).string(); }
};

std::string read_bytes(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    std::ostringstream s;
    s << in.rdbuf();
    return s.str();
}

MatchRecord four_player_match(std::uint64_t seed, const std::string& started_at, std::optional<int> faulty = {}) {
    MatchRecord m;
    m.game = "planowanie";
    m.config_json = R"({"deals":12})";
    m.seed = seed;
    m.deal_set = 0xFFFFFFFFFFFFFFF0ull;  // above 2^63: must survive the int64 column
    m.rotation = 2;
    const char* names[] = {"alpha", "beta", "gamma", "delta"};
    const double scores[] = {30, 10, 30, 5};
    for (int s = 0; s < 4; ++s) {
        ParticipantResult p;
        p.bot = names[s];
        p.command = std::string("./") + names[s] + " --fast";
        p.seat = s;
        p.score = scores[s];
        p.status = (faulty && *faulty == s) ? SeatStatus::crashed : SeatStatus::ok;
        p.detail = p.status == SeatStatus::ok ? "" : "exit code 3";
        p.usage = {1.5 + s, 1.25, 0.125, 40 + s, 2048};
        m.participants.push_back(p);
    }
    assign_ranks_by_score(m.participants);
    m.pairs = derive_pairs_fault_loses(m.participants, faulty);
    m.end_reason = faulty ? "seat crashed" : "completed";
    m.turns = 12;
    m.transcript_path = "out/t.transcript";
    m.replay_path = "out/r.json";
    m.started_at = started_at;
    m.wall_s = 3.25;
    m.machine_load = 0.5;
    return m;
}

}  // namespace

TEST_CASE("a match record round-trips through the store") {
    TempDir dir("roundtrip");
    Store store = Store::open(dir.file("results.db"), OpenMode::create_or_open);
    const MatchRecord m = four_player_match(0x8000000000000001ull, "2026-11-22T10:00:00Z");
    const std::int64_t id = store.insert_match(m, std::string("t1"), std::string("t1/r1/g1"));
    const auto back = store.match(id);
    REQUIRE(back);
    CHECK(back->record == m);
    CHECK(back->tournament == "t1");
    CHECK(back->schedule_key == "t1/r1/g1");
    CHECK(store.match_count() == 1);
    CHECK(store.bots().size() == 4);
}

TEST_CASE("a stored seat status this build does not know is a one-line error naming the match") {
    TempDir dir("unknown-status");
    Store store = Store::open(dir.file("results.db"), OpenMode::create_or_open);
    const std::int64_t id = store.insert_match(four_player_match(0x8000000000000002ull, "2026-11-22T10:00:00Z"));
    store_internal::StoreAccess::db(store).exec("UPDATE participants SET status = 'vanished' WHERE position = 1");
    try {
        store.matches();
        FAIL("an unknown status was read");
    } catch (const UserError& e) {
        const std::string message = e.what();
        CHECK(message.find(fmt::format("match {} has a seat status this arbiter does not know: 'vanished'", id)) != std::string::npos);
        CHECK(message.find('\n') == std::string::npos);
    }
    // The report reads what is stored as it is (store.matches_as_stored).
    CHECK(store.matches_as_stored().size() == 1);
}

TEST_CASE("why a seat failed round-trips through the store") {
    TempDir dir("failures");
    Store store = Store::open(dir.file("results.db"), OpenMode::create_or_open);
    MatchRecord m = four_player_match(5, "2026-11-22T10:00:00Z", 2);
    m.participants[2].exit_signal = 9;
    m.participants[2].limit = "time";
    m.participants[2].stderr_tail = "thinking...\nstill thinking \\xff";
    m.participants[1].exit_code = 0;  // an exit code of 0 is kept, not read back as unset
    const auto back = store.match(store.insert_match(m, std::nullopt, std::nullopt));
    REQUIRE(back);
    CHECK(back->record == m);
    CHECK(back->record.participants[2].exit_code == std::nullopt);
    CHECK(back->record.participants[1].exit_code == 0);
}

TEST_CASE("a store of schema version 1 is read as it is and migrated by a writer") {
    TempDir dir("migrate-v1");
    const std::string path = dir.file("results.db");
    {
        // The file an arbiter of schema version 1 wrote, with one match in it.
        sqlite3* db = nullptr;
        REQUIRE(sqlite3_open(path.c_str(), &db) == SQLITE_OK);
        const std::string sql = store_internal::store_migrations().at(0) + fmt::format(R"sql(
PRAGMA application_id={};
PRAGMA user_version=1;
INSERT INTO bots (id, name, command, version, first_seen) VALUES (1, 'a', './a', '', 'x'), (2, 'b', './b', '', 'x');
INSERT INTO matches (id, game, config_json, seed, deal_set, rotation, end_reason, turns, transcript_path,
  replay_path, started_at, wall_s, machine_load, tournament, schedule_key, stored_at)
  VALUES (1, 'planowanie', '{{}}', 7, NULL, 0, 'seat 1 crashed', 3, '', '', '2026-11-01T00:00:00Z', 1.0, 0.1,
          't', 't/r0/g0/s0', 'x');
INSERT INTO participants VALUES (1, 0, 1, 0, 1, 1, 'ok', '', 0, 0, 0, 3, 0),
                                (1, 1, 2, 1, 0, 2, 'crashed', 'exited', 0, 0, 0, 3, 0);
INSERT INTO pairs VALUES (1, 0, 0, 1, 1.0);
)sql", Store::kApplicationId);
        REQUIRE(sqlite3_exec(db, sql.c_str(), nullptr, nullptr, nullptr) == SQLITE_OK);
        sqlite3_close(db);
    }
    {
        const Store reader = Store::open(path, OpenMode::read_only);
        const auto old = reader.match(1);
        REQUIRE(old);
        CHECK(old->record.participants.at(1).status == SeatStatus::crashed);
        CHECK(old->record.participants.at(1).limit.empty());
        CHECK(old->record.participants.at(1).stderr_tail.empty());
        CHECK_FALSE(old->record.participants.at(1).exit_code);
    }
    Store store = Store::open(path, OpenMode::read_write);
    {
        Statement version = store_internal::StoreAccess::prepare(store, "PRAGMA user_version");
        REQUIRE(version.step());
        CHECK(version.column_int64(0) == Store::kSchemaVersion);
    }
    const auto migrated = store.match(1);
    REQUIRE(migrated);
    CHECK(migrated->record.participants.at(1).detail == "exited");
    CHECK(migrated->record.participants.at(1).limit.empty());
    MatchRecord m = four_player_match(8, "2026-11-22T10:00:00Z", 0);
    m.participants[0].exit_code = 3;
    m.participants[0].stderr_tail = "Traceback (most recent call last):";
    const auto back = store.match(store.insert_match(m, std::string("t"), std::string("t/r1/g0/s0")));
    REQUIRE(back);
    CHECK(back->record == m);
    CHECK(store.pair_games().games().size() == 1 + 3);
}

TEST_CASE("a schedule key is stored once, and the existing id comes back") {
    TempDir dir("schedule");
    Store store = Store::open(dir.file("results.db"), OpenMode::create_or_open);
    const MatchRecord m = four_player_match(1, "2026-11-22T10:00:00Z");
    const auto first = store.insert_match(m, std::string("t"), std::string("k1"));
    const auto again = store.insert_match(four_player_match(2, "2026-11-22T11:00:00Z"), std::string("t"),
                                          std::string("k1"));
    CHECK(first == again);
    CHECK(store.match_count() == 1);
    CHECK(store.has_schedule_key("k1"));
    CHECK_FALSE(store.has_schedule_key("k2"));
    CHECK(store.match(first)->record.seed == 1);
}

TEST_CASE("a batch is one transaction: a bad record stores nothing") {
    TempDir dir("batch");
    Store store = Store::open(dir.file("results.db"), OpenMode::create_or_open);
    std::vector<MatchRecord> batch{four_player_match(1, "2026-11-22T10:00:00Z"),
                                   four_player_match(2, "2026-11-22T10:01:00Z")};
    batch[1].pairs.push_back({0, 9, 1.0});  // names no participant
    CHECK_THROWS(store.insert_matches(batch));
    CHECK(store.match_count() == 0);
    batch[1].pairs.pop_back();
    const auto ids = store.insert_matches(batch);
    CHECK(ids.size() == 2);
    CHECK(store.match_count() == 2);
}

TEST_CASE("filters select by game, time and tournament") {
    TempDir dir("filters");
    Store store = Store::open(dir.file("results.db"), OpenMode::create_or_open);
    store.insert_match(four_player_match(1, "2026-11-20T10:00:00Z"), std::string("a"), std::nullopt);
    store.insert_match(four_player_match(2, "2026-11-21T10:00:00Z"), std::string("b"), std::nullopt);
    MatchRecord ants = four_player_match(3, "2026-11-22T10:00:00Z");
    ants.game = "ants";
    store.insert_match(ants, std::nullopt, std::nullopt);

    MatchFilter f;
    f.game = "planowanie";
    CHECK(store.match_count(f) == 2);
    f.since = "2026-11-21";
    CHECK(store.match_count(f) == 1);
    MatchFilter t;
    t.tournament = "a";
    CHECK(store.matches(t).size() == 1);
    CHECK(store.matches(t)[0].record.seed == 1);
    CHECK(store.games() == std::vector<std::string>{"ants", "planowanie"});
    MatchFilter after;
    after.after_id = 1;
    CHECK(store.match_count(after) == 2);
}

TEST_CASE("pair games follow the stored pairwise results, seat a as white") {
    TempDir dir("pairs");
    Store store = Store::open(dir.file("results.db"), OpenMode::create_or_open);
    store.insert_match(four_player_match(1, "2026-11-20T10:00:00Z"), std::nullopt, std::nullopt);
    store.insert_match(four_player_match(2, "2026-11-20T11:00:00Z", 1), std::nullopt, std::nullopt);
    MatchRecord unpaired = four_player_match(3, "2026-11-20T12:00:00Z");
    unpaired.pairs.clear();
    store.insert_match(unpaired, std::nullopt, std::nullopt);
    CHECK(store.unpaired_match_count() == 1);
    const ResultSet rs = store.pair_games();
    // 6 pairs from the clean match, 3 losses of the crashed seat from the other.
    REQUIRE(rs.games().size() == 9);
    const int alpha = rs.find_player("alpha"), beta = rs.find_player("beta"), gamma = rs.find_player("gamma");
    // alpha 30 vs gamma 30: draw; alpha vs beta: alpha wins.
    CHECK(rs.games()[0] == PairwiseGame{alpha, beta, Outcome::white_wins});
    CHECK(rs.games()[1] == PairwiseGame{alpha, gamma, Outcome::draw});
    // Crash of beta (seat 1): alpha (seat 0) beats beta; beta loses to gamma and delta.
    CHECK(rs.games()[6] == PairwiseGame{alpha, beta, Outcome::white_wins});
    CHECK(rs.games()[7] == PairwiseGame{beta, gamma, Outcome::black_wins});
}

TEST_CASE("the same bot in two seats gives no pairwise game against itself") {
    TempDir dir("selfpair");
    Store store = Store::open(dir.file("results.db"), OpenMode::create_or_open);
    MatchRecord m = four_player_match(1, "2026-11-20T10:00:00Z");
    m.participants[3].bot = "alpha";
    m.participants[3].command = m.participants[0].command;
    store.insert_match(m, std::nullopt, std::nullopt);
    const ResultSet rs = store.pair_games();
    CHECK(rs.games().size() == 5);
    CHECK(store.bots().size() == 3);
}

TEST_CASE("snapshots are saved and listed by label") {
    TempDir dir("snapshots");
    Store store = Store::open(dir.file("results.db"), OpenMode::create_or_open);
    Snapshot s;
    s.label = "nightly";
    s.game = "ants";
    s.rows = {{"a", 1, 120.5, 30, 28, 100, 0.7, 0.1}, {"b", 2, -120.5, 28, 30, 100, 0.3, 0.1}};
    store.save_snapshot(s);
    s.rows[0].elo = 130;
    store.save_snapshot(s);
    CHECK(store.snapshots("nightly").size() == 2);
    CHECK(store.snapshots("other").empty());
    const auto latest = store.latest_snapshot("nightly");
    REQUIRE(latest);
    CHECK(latest->rows.size() == 2);
    CHECK(latest->rows[0].elo == 130);
    CHECK_FALSE(latest->created_at.empty());
}

TEST_CASE("component schemas migrate once and in order") {
    TempDir dir("components");
    const std::string path = dir.file("results.db");
    {
        Store store = Store::open(path, OpenMode::create_or_open);
        CHECK(store.component_schema_version("tournament") == 0);
        CHECK(store.ensure_component_schema("tournament", {"CREATE TABLE t_schedule (k TEXT PRIMARY KEY)"}) == 1);
        // Same list again: nothing runs (a second CREATE TABLE would fail).
        CHECK(store.ensure_component_schema("tournament", {"CREATE TABLE t_schedule (k TEXT PRIMARY KEY)"}) == 1);
        store_internal::StoreAccess::db(store).exec("INSERT INTO t_schedule VALUES ('x')");
    }
    Store store = Store::open(path, OpenMode::read_write);
    CHECK(store.ensure_component_schema("tournament", {"CREATE TABLE t_schedule (k TEXT PRIMARY KEY)",
                                                       "ALTER TABLE t_schedule ADD COLUMN done INTEGER DEFAULT 0"}) == 2);
    Statement st = store_internal::StoreAccess::prepare(store, "SELECT k, done FROM t_schedule");
    REQUIRE(st.step());
    CHECK(st.column_text(0) == "x");
    CHECK(st.column_int(1) == 0);
    CHECK_THROWS_AS(store.ensure_component_schema("tournament", {"SELECT 1"}), UserError);
}

TEST_CASE("a missing file is an error in read modes and is not created") {
    TempDir dir("missing");
    const std::string path = dir.file("nope.db");
    CHECK_THROWS_AS(Store::open(path, OpenMode::read_only), UserError);
    CHECK_THROWS_AS(Store::open(path, OpenMode::read_write), UserError);
    CHECK_FALSE(fs::exists(path));
}

TEST_CASE("a text file is refused and left byte-identical") {
    TempDir dir("text");
    const std::string path = dir.file("notes.db");
    { std::ofstream(path) << "hello, this is not a database\n"; }
    const std::string before = read_bytes(path);
    for (OpenMode mode : {OpenMode::read_only, OpenMode::read_write, OpenMode::create_or_open})
        CHECK_THROWS_AS(Store::open(path, mode), UserError);
    CHECK(read_bytes(path) == before);
    CHECK_FALSE(fs::exists(path + "-wal"));
}

TEST_CASE("a SQLite file of another application is refused and left byte-identical") {
    TempDir dir("foreign");
    const std::string path = dir.file("other.db");
    {
        sqlite3* db = nullptr;
        REQUIRE(sqlite3_open(path.c_str(), &db) == SQLITE_OK);
        REQUIRE(sqlite3_exec(db, "CREATE TABLE customers (id INTEGER, name TEXT); INSERT INTO customers VALUES (1, 'x');",
                             nullptr, nullptr, nullptr) == SQLITE_OK);
        sqlite3_close(db);
    }
    const std::string before = read_bytes(path);
    for (OpenMode mode : {OpenMode::read_only, OpenMode::read_write, OpenMode::create_or_open}) {
        try {
            Store::open(path, mode);
            FAIL("opened a foreign database");
        } catch (const UserError& e) {
            CHECK(std::string(e.what()).find("another application") != std::string::npos);
        }
    }
    CHECK(read_bytes(path) == before);
}

TEST_CASE("a corrupt store is refused and left byte-identical") {
    TempDir dir("corrupt");
    const std::string path = dir.file("results.db");
    {
        Store store = Store::open(path, OpenMode::create_or_open);
        store.insert_match(four_player_match(1, "2026-11-20T10:00:00Z"), std::nullopt, std::nullopt);
    }
    // Checkpointed on close; now damage everything after the header page.
    std::string bytes = read_bytes(path);
    REQUIRE(bytes.size() > 4096);
    for (std::size_t i = 100; i < bytes.size(); ++i) bytes[i] = static_cast<char>(0xA5 ^ (i * 7));
    { std::ofstream(path, std::ios::binary | std::ios::trunc) << bytes; }
    fs::remove(path + "-wal");
    fs::remove(path + "-shm");
    const std::string before = read_bytes(path);
    CHECK_THROWS_AS(Store::open(path, OpenMode::read_only), UserError);
    CHECK_THROWS_AS(Store::open(path, OpenMode::read_write), UserError);
    CHECK(read_bytes(path) == before);
}

TEST_CASE("a store from a newer arbiter is refused") {
    TempDir dir("newer");
    const std::string path = dir.file("results.db");
    {
        Store store = Store::open(path, OpenMode::create_or_open);
        store_internal::StoreAccess::db(store).exec("PRAGMA user_version=99");
    }
    CHECK_THROWS_AS(Store::open(path, OpenMode::read_write), UserError);
    CHECK_THROWS_AS(Store::open(path, OpenMode::read_only), UserError);
}

TEST_CASE("read-only stores cannot be written") {
    TempDir dir("readonly");
    const std::string path = dir.file("results.db");
    { Store::open(path, OpenMode::create_or_open); }
    Store store = Store::open(path, OpenMode::read_only);
    CHECK(store.read_only());
    CHECK_THROWS(store.insert_match(four_player_match(1, "2026-11-20T10:00:00Z"), std::nullopt, std::nullopt));
    CHECK(store.match_count() == 0);
}

TEST_CASE("two connections on one file interleave writes") {
    TempDir dir("two");
    const std::string path = dir.file("results.db");
    Store a = Store::open(path, OpenMode::create_or_open);
    Store b = Store::open(path, OpenMode::read_write);
    for (int i = 0; i < 10; ++i) {
        a.insert_match(four_player_match(2 * i, "2026-11-20T10:00:00Z"), std::nullopt, "a" + std::to_string(i));
        b.insert_match(four_player_match(2 * i + 1, "2026-11-20T10:00:00Z"), std::nullopt, "b" + std::to_string(i));
    }
    CHECK(a.match_count() == 20);
    CHECK(b.match_count() == 20);
    // The same schedule key from the other connection is seen as stored.
    CHECK(b.insert_match(four_player_match(99, "2026-11-20T10:00:00Z"), std::nullopt, std::string("a3")) ==
          a.match_id_for_schedule_key("a3").value());
}

TEST_CASE("a tournament schedule of schema 2 gains the pool's map column, empty for its rows") {
    TempDir dir("schedule-map");
    const std::string path = dir.file("results.db");
    {
        // The tournament tables as an arbiter of their schema version 2 made them, one row planned.
        Store store = Store::open(path, OpenMode::create_or_open);
        CHECK(store.ensure_component_schema(
                  "tournament",
                  {"CREATE TABLE tournament (name TEXT PRIMARY KEY, game TEXT NOT NULL, identity_json TEXT NOT NULL,"
                   " created_at TEXT NOT NULL, runner_pid INTEGER, runner_host TEXT, runner_since TEXT);"
                   "CREATE TABLE tournament_match (schedule_key TEXT PRIMARY KEY, tournament TEXT NOT NULL,"
                   " round INTEGER NOT NULL, grp INTEGER NOT NULL, seating INTEGER NOT NULL, seed INTEGER NOT NULL,"
                   " deal_set INTEGER NOT NULL, bots_json TEXT NOT NULL, started_at TEXT, concurrent_matches INTEGER,"
                   " jobs INTEGER, cores INTEGER, load_per_core REAL);"
                   "INSERT INTO tournament VALUES ('t', 'ants', '{}', 'x', NULL, NULL, NULL);"
                   "INSERT INTO tournament_match (schedule_key, tournament, round, grp, seating, seed, deal_set, bots_json)"
                   " VALUES ('t/r0/g0/s0', 't', 0, 0, 0, 5, 6, '[\"a\",\"b\"]');",
                   "ALTER TABLE tournament_match ADD COLUMN handed_out_at TEXT;"}) == 2);
    }
    Store store = Store::open(path, OpenMode::read_write);
    TournamentTables tables(store);
    CHECK(store.component_schema_version("tournament") == 3);
    auto rows = tables.schedule("t");
    REQUIRE(rows.size() == 1);
    CHECK(rows[0].map.empty());
    CHECK(rows[0].bots == std::vector<std::string>{"a", "b"});
    ScheduleRow pooled{"t/r1/g0/s0", 1, 0, 0, 7, 8, {"b", "a"}, "/maps/maze_02p_02.map"};
    tables.insert_schedule("t", {pooled});
    CHECK(tables.scheduled("t", "t/r1/g0/s0")->map == "/maps/maze_02p_02.map");
}

TEST_CASE("matches are selected by the file a game option names: its name, whatever the folder") {
    TempDir dir("option-file");
    Store store = Store::open(dir.file("results.db"), OpenMode::create_or_open);
    const char* configs[] = {R"({"map":"/data/maps/a.map","turns":"60"})", R"({"map":"a.map"})",
                             R"({"map":"/data/maps/ba.map"})", R"({"turns":"60"})"};
    for (int i = 0; i < 4; ++i) {
        MatchRecord m = four_player_match(static_cast<std::uint64_t>(i), "2026-11-01T00:00:00Z");
        m.config_json = configs[i];
        store.insert_match(m);
    }
    MatchFilter filter;
    filter.option_key = "map";
    filter.option_file = "a.map";
    CHECK(store.matches(filter).size() == 2);  // not ba.map, not the match without a map
    filter.option_file = "ba.map";
    CHECK(store.matches(filter).size() == 1);
}
