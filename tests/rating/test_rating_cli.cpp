// `arbiter rate | los | import` end to end through the real binary: store and PGN inputs agree,
// bad input gives one line and exit code 2, and the store is never modified by rate/los or by a
// failed command.
#include <doctest/doctest.h>

#include <sys/wait.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

#include <nlohmann/json.hpp>

#include "core/match_record.hpp"
#include "rating/store.hpp"
#include "rating/store_internal.hpp"
#include "rating/synthetic.hpp"

namespace fs = std::filesystem;
using namespace arb;
using namespace arb::rating;

namespace {

const fs::path kArbiter = fs::path(ARBITER_BINARY_DIR) / "bin" / "arbiter";

struct Run {
    int exit_code;
    std::string out, err;
};

std::string slurp(const fs::path& p) {
    std::ifstream in(p, std::ios::binary);
    std::ostringstream s;
    s << in.rdbuf();
    return s.str();
}

struct Sandbox {
    fs::path dir;
    explicit Sandbox(const std::string& name) : dir(fs::path(ARBITER_BINARY_DIR) / "test-tmp" / "rating-cli" / name) {
        fs::remove_all(dir);
        fs::create_directories(dir);
    }
    std::string path(const std::string& name) const { return (dir / name).string(); }

    Run arbiter(const std::string& args) const {
        const std::string out = path("stdout.txt"), err = path("stderr.txt");
        const std::string cmd = kArbiter.string() + " " + args + " > " + out + " 2> " + err;
        const int status = std::system(cmd.c_str());
        return {WIFEXITED(status) ? WEXITSTATUS(status) : -1, slurp(out), slurp(err)};
    }
};

// 2-player match records from synthetic games: score 2/1/0 per win/draw/loss, pairs by rank.
std::vector<MatchRecord> synthetic_records(int players, int games, std::uint64_t seed) {
    SyntheticSpec spec;
    spec.players = players;
    spec.games = games;
    spec.seed = seed;
    const SyntheticData data = generate_synthetic(spec);
    std::vector<MatchRecord> records;
    for (const PairwiseGame& g : data.results.games()) {
        MatchRecord m;
        m.game = "synthetic";
        m.seed = records.size();
        m.started_at = "2026-11-22T10:00:00Z";
        m.end_reason = "completed";
        for (int s = 0; s < 2; ++s) {
            ParticipantResult p;
            p.bot = data.results.players()[s == 0 ? g.white : g.black];
            p.command = "./" + p.bot;
            p.seat = s;
            p.score = g.outcome == Outcome::draw ? 1 : ((g.outcome == Outcome::white_wins) == (s == 0) ? 2 : 0);
            m.participants.push_back(p);
        }
        assign_ranks_by_score(m.participants);
        m.pairs = derive_pairs_by_rank(m.participants);
        records.push_back(std::move(m));
    }
    return records;
}

void write_records(const std::string& path, const std::vector<MatchRecord>& records) {
    std::ofstream out(path);
    out << nlohmann::json(records).dump() << "\n";
}

}  // namespace

TEST_CASE("import, rate from the store, and the same data through PGN give the same table") {
    Sandbox box("roundtrip");
    write_records(box.path("records.json"), synthetic_records(6, 400, 31));
    const std::string db = box.path("results.db");
    Run imported = box.arbiter("import --db " + db + " " + box.path("records.json"));
    REQUIRE(imported.exit_code == 0);
    CHECK(imported.out.find(": 400 new, 0 already stored") != std::string::npos);

    Run from_db = box.arbiter("rate --db " + db + " --write-pgn " + box.path("export.pgn"));
    REQUIRE(from_db.exit_code == 0);
    CHECK(from_db.out.rfind("Rank Name", 0) == 0);
    CHECK(std::count(from_db.out.begin(), from_db.out.end(), '\n') == 7);
    // The store defaults to advantage 0; PGN keeps bayeselo's 32.8 unless told.
    Run from_pgn = box.arbiter("rate --pgn " + box.path("export.pgn") + " --advantage 0");
    REQUIRE(from_pgn.exit_code == 0);
    CHECK(from_pgn.out == from_db.out);
    Run pgn_default = box.arbiter("rate --pgn " + box.path("export.pgn"));
    CHECK(pgn_default.out != from_db.out);

    Run json = box.arbiter("rate --db " + db + " --format json --intervals covariance");
    REQUIRE(json.exit_code == 0);
    const auto parsed = nlohmann::json::parse(json.out);
    CHECK(parsed["rows"].size() == 6);
    CHECK(parsed["advantage"] == 0.0);

    Run los = box.arbiter("los --db " + db + " --width 5");
    REQUIRE(los.exit_code == 0);
    CHECK(std::count(los.out.begin(), los.out.end(), '\n') == 7);
}

TEST_CASE("importing records already stored adds nothing and says so") {
    Sandbox box("reimport");
    const auto records = synthetic_records(4, 30, 5);
    write_records(box.path("records.json"), records);
    write_records(box.path("one-twice.json"), {records[0], records[0], records[1]});
    const std::string db = box.path("results.db");
    REQUIRE(box.arbiter("import --db " + db + " " + box.path("records.json")).exit_code == 0);
    const std::string table = box.arbiter("rate --db " + db).out;

    Run again = box.arbiter("import --db " + db + " " + box.path("records.json"));
    REQUIRE(again.exit_code == 0);
    CHECK(again.out == "imported into '" + db + "': 0 new, 30 already stored\n");
    CHECK(box.arbiter("rate --db " + db).out == table);

    const std::string fresh_db = box.path("fresh.db");
    Run twice = box.arbiter("import --db " + fresh_db + " " + box.path("one-twice.json"));
    REQUIRE(twice.exit_code == 0);
    CHECK(twice.out == "imported into '" + fresh_db + "': 2 new, 1 already stored\n");
}

TEST_CASE("rate and los never modify the store and --save-snapshot adds a snapshot") {
    Sandbox box("readonly");
    write_records(box.path("records.json"), synthetic_records(4, 100, 7));
    const std::string db = box.path("results.db");
    REQUIRE(box.arbiter("import --db " + db + " " + box.path("records.json")).exit_code == 0);
    const std::string before = slurp(db);
    CHECK(box.arbiter("rate --db " + db).exit_code == 0);
    CHECK(box.arbiter("los --db " + db).exit_code == 0);
    CHECK(box.arbiter("rate --db " + db + " --game nothing").exit_code == 2);
    CHECK(slurp(db) == before);
    CHECK(box.arbiter("rate --db " + db + " --save-snapshot nightly").exit_code == 0);
    const Store store = Store::open(db, OpenMode::read_only);
    REQUIRE(store.snapshots("nightly").size() == 1);
    CHECK(store.snapshots("nightly")[0].rows.size() == 4);
}

TEST_CASE("bad input: one line, exit code 2, nothing modified") {
    Sandbox box("bad");
    // Not SQLite.
    { std::ofstream(box.path("text.db")) << "plain text\n"; }
    Run text = box.arbiter("rate --db " + box.path("text.db"));
    CHECK(text.exit_code == 2);
    CHECK(text.err == "arbiter: database '" + box.path("text.db") + "' is not a SQLite file (refusing to touch it)\n");
    CHECK(slurp(box.path("text.db")) == "plain text\n");
    // Missing store is not created by rate.
    CHECK(box.arbiter("rate --db " + box.path("missing.db")).exit_code == 2);
    CHECK_FALSE(fs::exists(box.path("missing.db")));
    // Foreign SQLite file, also for import (which would otherwise create or write).
    {
        Store own = Store::open(box.path("own.db"), OpenMode::create_or_open);
        rating::store_internal::StoreAccess::db(own).exec("PRAGMA application_id=7");
    }
    const std::string foreign_before = slurp(box.path("own.db"));
    write_records(box.path("records.json"), synthetic_records(3, 10, 1));
    Run foreign = box.arbiter("import --db " + box.path("own.db") + " " + box.path("records.json"));
    CHECK(foreign.exit_code == 2);
    CHECK(foreign.err.find("another application") != std::string::npos);
    CHECK(slurp(box.path("own.db")) == foreign_before);
    // Unknown PGN result token.
    { std::ofstream(box.path("bad.pgn")) << "[White \"a\"]\n[Black \"b\"]\n[Result \"1-1\"]\n\n1-1\n"; }
    Run pgn = box.arbiter("rate --pgn " + box.path("bad.pgn"));
    CHECK(pgn.exit_code == 2);
    CHECK(pgn.err.find("bad.pgn:1: unknown result '1-1'") != std::string::npos);
    // Empty selection.
    { std::ofstream(box.path("empty.pgn")) << "[White \"a\"]\n[Black \"b\"]\n[Result \"*\"]\n\n*\n"; }
    Run empty = box.arbiter("rate --pgn " + box.path("empty.pgn"));
    CHECK(empty.exit_code == 2);
    CHECK(empty.err.find("no results to rate") != std::string::npos);
    // A broken record file: the store is not even created.
    { std::ofstream(box.path("broken.json")) << "{\"game\": 3}\n"; }
    CHECK(box.arbiter("import --db " + box.path("new.db") + " " + box.path("broken.json")).exit_code == 2);
    CHECK_FALSE(fs::exists(box.path("new.db")));
}
