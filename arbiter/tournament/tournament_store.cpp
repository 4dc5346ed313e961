#include "arbiter/tournament/tournament_store.hpp"

#include <fcntl.h>
#include <signal.h>
#include <sys/file.h>
#include <unistd.h>

#include <cctype>
#include <cerrno>
#include <cstring>
#include <functional>
#include <map>
#include <set>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "core/user_error.hpp"

namespace arb::tournament {
namespace {

const std::vector<std::string>& migrations() {
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
    };
    return m;
}

std::string host_name() {
    char buffer[256] = {};
    if (gethostname(buffer, sizeof buffer - 1) != 0) return "";
    return buffer;
}

bool process_alive(std::int64_t pid) {
    if (pid <= 0) return false;
    return kill(static_cast<pid_t>(pid), 0) == 0 || errno == EPERM;
}

// The lock file of one tournament: beside the database, named after it. Names are reduced to
// safe characters; two names reduced alike only share a lock.
std::string run_lock_path(const std::string& db_path, const std::string& name) {
    std::string safe;
    for (char c : name) safe += (std::isalnum(static_cast<unsigned char>(c)) || c == '-' || c == '_') ? c : '_';
    return db_path + ".run-" + safe + ".lock";
}

// Seeds are unsigned 64-bit; SQLite integers are signed. Stored bit for bit.
std::int64_t to_sql(std::uint64_t v) { return static_cast<std::int64_t>(v); }
std::uint64_t from_sql(std::int64_t v) { return static_cast<std::uint64_t>(v); }

// "rounds: 3 then, 4 now; seed: 1 then, 2 now": the keys of two identities that differ, by JSON
// pointer ("ladder.sprt"), lists compared whole.
std::string identity_differences(const std::string& stored, const std::string& now) {
    const nlohmann::json a = nlohmann::json::parse(stored, nullptr, false), b = nlohmann::json::parse(now, nullptr, false);
    if (a.is_discarded() || b.is_discarded() || !a.is_object() || !b.is_object()) return "";
    std::map<std::string, std::pair<std::string, std::string>> differ;
    const std::function<void(const std::string&, const nlohmann::json*, const nlohmann::json*)> walk =
        [&](const std::string& path, const nlohmann::json* x, const nlohmann::json* y) {
            if (x && y && x->is_object() && y->is_object()) {
                std::set<std::string> keys;
                for (const auto& [k, v] : x->items()) keys.insert(k);
                for (const auto& [k, v] : y->items()) keys.insert(k);
                for (const auto& k : keys)
                    walk(path.empty() ? k : path + "." + k, x->contains(k) ? &x->at(k) : nullptr,
                         y->contains(k) ? &y->at(k) : nullptr);
                return;
            }
            if (x && y && *x == *y) return;
            differ[path] = {x ? x->dump() : "(none)", y ? y->dump() : "(none)"};
        };
    walk("", &a, &b);
    std::string out;
    for (const auto& [key, values] : differ)
        out += fmt::format("{}{}: {} then, {} now", out.empty() ? "" : "; ", key, values.first, values.second);
    return out;
}

void check_same_identity(const std::string& name, const std::string& path, const std::string& stored,
                         const std::string& now) {
    if (stored == now) return;
    const std::string differences = identity_differences(stored, now);
    throw UserError("tournament '" + name + "' in " + path + " was created with a different config" +
                    (differences.empty() ? "" : " (" + differences + ")") +
                    "; to resume it use the same config, to start a new one give it another name");
}

}  // namespace

void TournamentStore::check_resumable(const std::string& name, const std::string& identity_json) const {
    auto q = store_.prepare("SELECT identity_json FROM tournament WHERE name = ?1");
    q.bind(1, name);
    if (q.step()) check_same_identity(name, store_.path(), q.column_text(0), identity_json);
}

TournamentStore::TournamentStore(rating::Store& store) : store_(store) {
    store_.ensure_component_schema("tournament", migrations());
}

void TournamentStore::open_tournament(const std::string& name, const std::string& game,
                                      const std::string& identity_json) {
    store_.transaction([&] {
        auto q = store_.prepare("SELECT identity_json FROM tournament WHERE name = ?1");
        q.bind(1, name);
        if (q.step()) {
            check_same_identity(name, store_.path(), q.column_text(0), identity_json);
            return;
        }
        auto insert = store_.prepare(
            "INSERT INTO tournament(name, game, identity_json, created_at) VALUES (?1, ?2, ?3, ?4)");
        insert.bind(1, name).bind(2, game).bind(3, identity_json).bind(4, utc_timestamp_now());
        insert.run();
    });
}

TournamentStore::~TournamentStore() {
    if (run_lock_fd_ >= 0) close(run_lock_fd_);
}

void TournamentStore::claim(const std::string& name) {
    const std::string host = host_name();
    const bool locked_by_file = rating::is_file_database(store_.path());
    if (locked_by_file && run_lock_fd_ < 0) {
        const std::string lock_path = run_lock_path(store_.path(), name);
        const int fd = open(lock_path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0644);
        if (fd < 0) {
            throw UserError("cannot open the run lock " + lock_path + ": " + std::strerror(errno));
        }
        if (flock(fd, LOCK_EX | LOCK_NB) != 0) {
            const int err = errno;
            close(fd);
            if (err != EWOULDBLOCK) {
                throw UserError("cannot lock " + lock_path + ": " + std::strerror(err));
            }
            auto q = store_.prepare("SELECT runner_pid, runner_host, runner_since FROM tournament WHERE name = ?1");
            q.bind(1, name);
            std::string holder = "another process";
            std::string since = "?";
            if (q.step()) {
                if (const auto pid = q.column_optional_int64(0)) {
                    holder = "process " + std::to_string(*pid) + " on " + q.column_optional_text(1).value_or("?");
                }
                since = q.column_optional_text(2).value_or("?");
            }
            throw UserError("tournament '" + name + "' is being run by " + holder + " (since " + since +
                            "); wait for it or stop it");
        }
        run_lock_fd_ = fd;
    }
    store_.transaction([&] {
        auto q = store_.prepare("SELECT runner_pid, runner_host, runner_since FROM tournament WHERE name = ?1");
        q.bind(1, name);
        if (!q.step()) throw std::logic_error("claim: tournament not opened");
        const auto pid = q.column_optional_int64(0);
        const auto their_host = q.column_optional_text(1).value_or("");
        // Without a file there is no lock to hold; a stored live holder still refuses.
        if (!locked_by_file && pid && *pid != getpid() && their_host == host && process_alive(*pid)) {
            throw UserError("tournament '" + name + "' is being run by process " + std::to_string(*pid) +
                            " (since " + q.column_optional_text(2).value_or("?") + "); wait for it or stop it");
        }
        auto u = store_.prepare("UPDATE tournament SET runner_pid = ?1, runner_host = ?2, runner_since = ?3 WHERE name = ?4");
        u.bind(1, static_cast<std::int64_t>(getpid())).bind(2, host).bind(3, utc_timestamp_now()).bind(4, name);
        u.run();
    });
}

void TournamentStore::release(const std::string& name) {
    auto u = store_.prepare("UPDATE tournament SET runner_pid = NULL WHERE name = ?1 AND runner_pid = ?2");
    u.bind(1, name).bind(2, static_cast<std::int64_t>(getpid()));
    u.run();
    if (run_lock_fd_ >= 0) {
        close(run_lock_fd_);
        run_lock_fd_ = -1;
    }
}

std::map<int, Round> TournamentStore::stored_rounds(const std::string& name) const {
    std::map<int, Round> rounds;
    auto q = store_.prepare(
        "SELECT schedule_key, round, grp, seating, seed, deal_set, bots_json FROM tournament_match "
        "WHERE tournament = ?1 ORDER BY round, grp, seating");
    q.bind(1, name);
    while (q.step()) {
        ScheduledMatch m;
        m.key = q.column_text(0);
        m.round = q.column_int(1);
        m.group = q.column_int(2);
        m.seating = q.column_int(3);
        m.seed = from_sql(q.column_int64(4));
        m.deal_set = from_sql(q.column_int64(5));
        m.bots = nlohmann::json::parse(q.column_text(6)).get<std::vector<std::string>>();
        Round& r = rounds[m.round];
        r.index = m.round;
        r.matches.push_back(std::move(m));
    }
    return rounds;
}

void TournamentStore::store_rounds(const std::string& name, const std::vector<Round>& rounds) {
    store_.transaction([&] {
        auto insert = store_.prepare(
            "INSERT INTO tournament_match(schedule_key, tournament, round, grp, seating, seed, deal_set, bots_json) "
            "VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)");
        for (const Round& r : rounds) {
            for (const ScheduledMatch& m : r.matches) {
                insert.reset();
                insert.bind(1, m.key).bind(2, name).bind(3, m.round).bind(4, m.group).bind(5, m.seating);
                insert.bind(6, to_sql(m.seed)).bind(7, to_sql(m.deal_set)).bind(8, nlohmann::json(m.bots).dump());
                insert.run();
            }
        }
    });
}

std::map<std::string, MatchRecord> TournamentStore::results(const std::string& name) const {
    std::map<std::string, MatchRecord> out;
    rating::MatchFilter filter;
    filter.tournament = name;
    for (auto& stored : store_.matches(filter)) {
        if (stored.schedule_key) out.emplace(*stored.schedule_key, std::move(stored.record));
    }
    return out;
}

void TournamentStore::store_result(const std::string& name, const ScheduledMatch& match, const MatchRecord& record,
                                   const LoadNote& load) {
    store_.transaction([&] {
        store_.insert_match(record, name, match.key);
        auto u = store_.prepare(
            "UPDATE tournament_match SET started_at = ?1, concurrent_matches = ?2, jobs = ?3, cores = ?4, "
            "load_per_core = ?5 WHERE schedule_key = ?6");
        u.bind(1, load.started_at).bind(2, load.concurrent_matches).bind(3, load.jobs).bind(4, load.cores);
        u.bind(5, load.load_per_core).bind(6, match.key);
        u.run();
    });
}

std::set<std::string> TournamentStore::handed_out(const std::string& name) const {
    std::set<std::string> keys;
    auto q = store_.prepare("SELECT schedule_key FROM tournament_match WHERE tournament = ?1 AND handed_out_at IS NOT NULL");
    q.bind(1, name);
    while (q.step()) keys.insert(q.column_text(0));
    return keys;
}

void TournamentStore::mark_handed_out(const std::vector<std::string>& keys) {
    const std::string now = utc_timestamp_now();
    store_.transaction([&] {
        auto u = store_.prepare("UPDATE tournament_match SET handed_out_at = ?1 WHERE schedule_key = ?2");
        for (const auto& key : keys) {
            u.reset();
            u.bind(1, now).bind(2, key);
            u.run();
        }
    });
}

}  // namespace arb::tournament
