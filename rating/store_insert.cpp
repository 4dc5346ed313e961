// Writing matches into the store: one transaction per call, bots found or added on the way, a
// stored schedule key making the insert a no-op that returns the existing id.
#include <stdexcept>
#include <unordered_map>

#include <fmt/format.h>

#include "rating/store.hpp"
#include "rating/store_internal.hpp"

namespace arb::rating {
namespace {

using store_internal::to_sql;

// The prepared statements and the bot-id cache of one insert_matches call.
class MatchInserter {
public:
    MatchInserter(Database& db, const InsertOptions& options)
        : db_(db),
          options_(options),
          find_key_(db.prepare("SELECT id FROM matches WHERE schedule_key = ?")),
          find_bot_(db.prepare("SELECT id FROM bots WHERE name = ? AND command = ? AND version = ?")),
          add_bot_(db.prepare("INSERT INTO bots (name, command, version, first_seen) VALUES (?, ?, ?, ?)")),
          add_match_(db.prepare(
              "INSERT INTO matches (game, config_json, seed, deal_set, rotation, end_reason, turns, transcript_path,"
              " replay_path, started_at, wall_s, machine_load, tournament, schedule_key, stored_at)"
              " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)")),
          add_participant_(db.prepare(
              "INSERT INTO participants (match_id, position, bot_id, seat, score, rank, status, detail, wall_used_s,"
              " cpu_used_s, longest_reply_s, requests, peak_memory_kib, exit_code, exit_signal, limit_hit,"
              " stderr_tail) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)")),
          add_pair_(db.prepare("INSERT INTO pairs (match_id, position, a, b, score_a) VALUES (?, ?, ?, ?, ?)")),
          stored_at_(utc_timestamp_now()) {}

    // The id of the match already stored under the options' schedule key, if any.
    std::optional<std::int64_t> stored_with_schedule_key() {
        if (!options_.schedule_key) return std::nullopt;
        find_key_.bind(1, *options_.schedule_key);
        const bool found = find_key_.step();
        const std::int64_t existing = found ? find_key_.column_int64(0) : 0;
        find_key_.reset();
        if (!found) return std::nullopt;
        return existing;
    }

    // Writes the match, its participants and its pairs; returns the new match id.
    std::int64_t insert(const MatchRecord& record) {
        check_pairs(record);
        const std::int64_t match_id = insert_match_row(record);
        for (std::size_t i = 0; i < record.participants.size(); ++i)
            insert_participant(match_id, i, record.participants[i]);
        for (std::size_t i = 0; i < record.pairs.size(); ++i) insert_pair(match_id, i, record.pairs[i]);
        return match_id;
    }

private:
    static void check_pairs(const MatchRecord& record) {
        for (const PairResult& pair : record.pairs) {
            const auto n = static_cast<int>(record.participants.size());
            if (pair.a < 0 || pair.b < 0 || pair.a >= n || pair.b >= n)
                throw std::invalid_argument(fmt::format("match record of {}: pair ({}, {}) names no participant",
                                                        record.game, pair.a, pair.b));
        }
    }

    std::int64_t insert_match_row(const MatchRecord& record) {
        add_match_.bind(1, record.game)
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
            .bind(13, options_.tournament)
            .bind(14, options_.schedule_key)
            .bind(15, stored_at_);
        if (record.deal_set) add_match_.bind(4, to_sql(*record.deal_set));
        else add_match_.bind_null(4);
        add_match_.run();
        return db_.last_insert_rowid();
    }

    void insert_participant(std::int64_t match_id, std::size_t position, const ParticipantResult& p) {
        add_participant_.bind(1, match_id)
            .bind(2, static_cast<std::int64_t>(position))
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
            .bind(13, p.usage.peak_memory_kib)
            .bind(14, p.exit_code)
            .bind(15, p.exit_signal)
            .bind(16, p.limit)
            .bind(17, p.stderr_tail);
        add_participant_.run();
    }

    void insert_pair(std::int64_t match_id, std::size_t position, const PairResult& pair) {
        add_pair_.bind(1, match_id)
            .bind(2, static_cast<std::int64_t>(position))
            .bind(3, pair.a)
            .bind(4, pair.b)
            .bind(5, pair.score_a);
        add_pair_.run();
    }

    // The bots row of (name, command, version), added when new. Cached per call: a batch of a
    // round robin names the same few bots many times.
    std::int64_t bot_id(const ParticipantResult& p) {
        auto version_it = options_.bot_versions.find(p.bot);
        const std::string version = version_it == options_.bot_versions.end() ? "" : version_it->second;
        std::string key = p.bot;
        key.push_back('\0');
        key += p.command;
        key.push_back('\0');
        key += version;
        if (auto it = bot_ids_.find(key); it != bot_ids_.end()) return it->second;
        find_bot_.bind(1, p.bot).bind(2, p.command).bind(3, version);
        std::int64_t id;
        if (find_bot_.step()) {
            id = find_bot_.column_int64(0);
        } else {
            add_bot_.bind(1, p.bot).bind(2, p.command).bind(3, version).bind(4, stored_at_);
            add_bot_.run();
            id = db_.last_insert_rowid();
        }
        find_bot_.reset();
        bot_ids_.emplace(std::move(key), id);
        return id;
    }

    Database& db_;
    const InsertOptions& options_;
    Statement find_key_;
    Statement find_bot_;
    Statement add_bot_;
    Statement add_match_;
    Statement add_participant_;
    Statement add_pair_;
    const std::string stored_at_;
    std::unordered_map<std::string, std::int64_t> bot_ids_;
};

}  // namespace

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

std::optional<std::int64_t> Store::find_record(const MatchRecord& record) const {
    Statement candidates = prepare(
        "SELECT id FROM matches WHERE game = ? AND seed = ? AND rotation = ? AND started_at = ? AND config_json = ?"
        " AND end_reason = ? AND turns = ? ORDER BY id");
    candidates.bind(1, record.game)
        .bind(2, to_sql(record.seed))
        .bind(3, record.rotation)
        .bind(4, record.started_at)
        .bind(5, record.config_json)
        .bind(6, record.end_reason)
        .bind(7, record.turns);
    Statement names = prepare(
        "SELECT b.name FROM participants p JOIN bots b ON b.id = p.bot_id WHERE p.match_id = ? ORDER BY p.position");
    while (candidates.step()) {
        const std::int64_t id = candidates.column_int64(0);
        names.bind(1, id);
        std::size_t i = 0;
        bool same = true;
        for (; names.step(); ++i)
            same = same && i < record.participants.size() && names.column_text(0) == record.participants[i].bot;
        names.reset();
        if (same && i == record.participants.size()) return id;
    }
    return std::nullopt;
}

std::vector<std::int64_t> Store::insert_matches(const std::vector<MatchRecord>& records, const InsertOptions& options) {
    std::vector<std::int64_t> ids;
    ids.reserve(records.size());
    db_.transaction([&] {
        MatchInserter inserter(db_, options);
        for (const MatchRecord& record : records) {
            if (options.schedule_key && records.size() > 1)
                throw std::invalid_argument("insert_matches: one schedule key cannot name several matches");
            const std::optional<std::int64_t> existing = inserter.stored_with_schedule_key();
            ids.push_back(existing ? *existing : inserter.insert(record));
        }
    });
    return ids;
}

}  // namespace arb::rating
