#include "arbiter/tournament/tournament_store.hpp"

#include <fcntl.h>
#include <signal.h>
#include <sys/file.h>
#include <unistd.h>

#include <algorithm>
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
    if (const auto stored = tables_.identity_json(name))
        check_same_identity(name, tables_.store().path(), *stored, identity_json);
}

TournamentStore::TournamentStore(rating::Store& store) : tables_(store) {}

void TournamentStore::open_tournament(const std::string& name, const std::string& game,
                                      const std::string& identity_json) {
    tables_.store().transaction([&] {
        if (const auto stored = tables_.identity_json(name)) {
            check_same_identity(name, tables_.store().path(), *stored, identity_json);
            return;
        }
        tables_.insert_tournament(name, game, identity_json);
    });
}

TournamentStore::~TournamentStore() {
    if (run_lock_fd_ >= 0) close(run_lock_fd_);
}

void TournamentStore::claim(const std::string& name) {
    const std::string host = host_name();
    const std::string& path = tables_.store().path();
    const bool locked_by_file = rating::is_file_database(path);
    if (locked_by_file && run_lock_fd_ < 0) {
        const std::string lock_path = run_lock_path(path, name);
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
            std::string holder = "another process";
            std::string since = "?";
            if (const auto runner = tables_.runner(name)) {
                if (runner->pid) holder = "process " + std::to_string(*runner->pid) + " on " + runner->host.value_or("?");
                since = runner->since.value_or("?");
            }
            throw UserError("tournament '" + name + "' is being run by " + holder + " (since " + since +
                            "); wait for it or stop it");
        }
        run_lock_fd_ = fd;
    }
    tables_.store().transaction([&] {
        const auto runner = tables_.runner(name);
        if (!runner) throw std::logic_error("claim: tournament not opened");
        const auto pid = runner->pid;
        const auto their_host = runner->host.value_or("");
        // Without a file there is no lock to hold; a stored live holder still refuses.
        if (!locked_by_file && pid && *pid != getpid() && their_host == host && process_alive(*pid)) {
            throw UserError("tournament '" + name + "' is being run by process " + std::to_string(*pid) +
                            " (since " + runner->since.value_or("?") + "); wait for it or stop it");
        }
        tables_.set_runner(name, static_cast<std::int64_t>(getpid()), host);
    });
}

void TournamentStore::release(const std::string& name) {
    tables_.clear_runner(name, static_cast<std::int64_t>(getpid()));
    if (run_lock_fd_ >= 0) {
        close(run_lock_fd_);
        run_lock_fd_ = -1;
    }
}

namespace {

ScheduledMatch scheduled_match(rating::ScheduleRow&& row) {
    ScheduledMatch m;
    m.key = std::move(row.key);
    m.round = row.round;
    m.group = row.group;
    m.seating = row.seating;
    m.seed = row.seed;
    m.deal_set = row.deal_set;
    m.bots = std::move(row.bots);
    m.map = std::move(row.map);
    return m;
}

}  // namespace

std::map<int, int> TournamentStore::round_sizes(const std::string& name) const {
    return tables_.schedule_round_sizes(name);
}

std::vector<ScheduledMatch> TournamentStore::unplayed(const std::string& name) const {
    std::vector<ScheduledMatch> out;
    for (rating::ScheduleRow& row : tables_.unplayed_schedule(name)) out.push_back(scheduled_match(std::move(row)));
    return out;
}

void TournamentStore::for_each_result(const std::string& name,
                                      const std::function<void(const ScheduledMatch&, MatchRecord&)>& fn) const {
    rating::MatchFilter filter;
    filter.tournament = name;
    tables_.store().for_each_match(filter, [&](rating::StoredMatch& stored) {
        if (!stored.schedule_key) return;
        auto row = tables_.scheduled(name, *stored.schedule_key);
        if (!row) return;  // stored under the tournament's name, but not one of its scheduled matches
        fn(scheduled_match(std::move(*row)), stored.record);
    });
}

std::vector<PlayedMatch> TournamentStore::played(const std::string& name) const {
    std::vector<PlayedMatch> out;
    for_each_result(name, [&](const ScheduledMatch& m, MatchRecord& r) { out.push_back({m, std::move(r)}); });
    std::sort(out.begin(), out.end(),
              [](const PlayedMatch& a, const PlayedMatch& b) { return position_of(a.scheduled) < position_of(b.scheduled); });
    return out;
}

std::map<int, Round> TournamentStore::stored_rounds(const std::string& name) const {
    std::map<int, Round> rounds;
    for (rating::ScheduleRow& row : tables_.schedule(name)) {
        ScheduledMatch m = scheduled_match(std::move(row));
        Round& r = rounds[m.round];
        r.index = m.round;
        r.matches.push_back(std::move(m));
    }
    return rounds;
}

void TournamentStore::store_rounds(const std::string& name, const std::vector<Round>& rounds) {
    std::vector<rating::ScheduleRow> rows;
    for (const Round& r : rounds)
        for (const ScheduledMatch& m : r.matches)
            rows.push_back({m.key, m.round, m.group, m.seating, m.seed, m.deal_set, m.bots, m.map});
    tables_.insert_schedule(name, rows);
}

std::optional<ScheduledMatch> TournamentStore::scheduled(const std::string& name, const std::string& key) const {
    auto row = tables_.scheduled(name, key);
    if (!row) return std::nullopt;
    return scheduled_match(std::move(*row));
}

bool TournamentStore::has_result(const std::string& key) const { return tables_.store().has_schedule_key(key); }

std::map<std::string, MatchRecord> TournamentStore::results(const std::string& name) const {
    std::map<std::string, MatchRecord> out;
    rating::MatchFilter filter;
    filter.tournament = name;
    for (auto& stored : tables_.store().matches(filter)) {
        if (stored.schedule_key) out.emplace(*stored.schedule_key, std::move(stored.record));
    }
    return out;
}

void TournamentStore::store_result(const std::string& name, const ScheduledMatch& match, const MatchRecord& record,
                                   const LoadNote& load) {
    tables_.store_result(name, match.key, record, load);
}

std::set<std::string> TournamentStore::handed_out(const std::string& name) const { return tables_.handed_out(name); }

void TournamentStore::mark_handed_out(const std::vector<std::string>& keys) { tables_.mark_handed_out(keys); }

}  // namespace arb::tournament
