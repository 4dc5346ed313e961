#pragma once
// The one record a match produces. Everything above the match runner consumes it: the store
// keeps it, the rating stage reads its pairwise results, reports render it.
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include "core/seat.hpp"

namespace arb {

// Time and memory one participant's processes used in the match (summed over its seats).
struct UsageStats {
    double wall_used_s = 0;      // time charged to its clocks
    double cpu_used_s = 0;       // CPU time of its processes (user + system), 0 if unknown
    double longest_reply_s = 0;
    std::int64_t requests = 0;
    std::int64_t peak_memory_kib = 0;  // 0 if unknown

    friend bool operator==(const UsageStats&, const UsageStats&) = default;
};

// What the referee decides for one participant: the game's verdict, nothing about the process.
struct ParticipantOutcome {
    double score = 0;
    int rank = 0;             // 1 = best; equal scores share a rank
    SeatStatus status = SeatStatus::ok;
    std::string detail;       // why the status, e.g. "illegal card 'XX' in deal 3"

    friend bool operator==(const ParticipantOutcome&, const ParticipantOutcome&) = default;
};

// One participant (a bot; for team games a team of processes) of a match, in seat order: the
// referee's outcome and what the arbiter knows of the bot and its processes. The match runner
// assembles it once, when the match has ended (arbiter/match/match_runner.cpp).
struct ParticipantResult : ParticipantOutcome {
    std::string bot;          // bot name
    std::string command;      // the bot's command line, for the store
    int seat = 0;             // position in the match (0 = first)
    UsageStats usage;
    // Why a failed participant failed, beyond `detail` (empty / unset for one that did not fail):
    std::optional<int> exit_code;    // its main process exited by itself with this code
    std::optional<int> exit_signal;  // ... or ended by this signal (ours when the arbiter stopped it)
    std::string limit;               // the limit it hit: "time", "memory", "line length", "cpu time"
    std::string stderr_tail;         // the last lines of its stderr (bounded, valid UTF-8)

    friend bool operator==(const ParticipantResult&, const ParticipantResult&) = default;
};

// A pairwise result for rating: seat a against seat b (a is "first" for a first-mover advantage).
// score_a = 1 win of a, 0.5 draw, 0 loss of a.
struct PairResult {
    int a = 0;
    int b = 0;
    double score_a = 0.5;

    friend bool operator==(const PairResult&, const PairResult&) = default;
};

struct MatchRecord {
    std::string game;
    std::string config_json = "{}";      // the game options the match ran with, as a JSON object
    std::uint64_t seed = 0;
    std::optional<std::uint64_t> deal_set;  // shared deal seed, when the match is one of a set
    int rotation = 0;                    // cyclic rotation index within a deal set (0 = as given)
    std::vector<ParticipantResult> participants;
    std::vector<PairResult> pairs;       // derived by the game's rule (see derive_pairs_*)
    std::string end_reason;              // "completed", "turn limit", "seat 2 illegal", ...
    int turns = 0;                       // turns/deals/steps played, as the game counts them
    std::string transcript_path;
    std::string replay_path;
    std::string started_at;              // ISO 8601 UTC
    double wall_s = 0;
    double machine_load = 0;             // 1-minute load average / cores at the start of the match

    friend bool operator==(const MatchRecord&, const MatchRecord&) = default;
};

// The stderr tail kept in a record: at most this many lines and bytes, from the end.
inline constexpr int kStderrTailLines = 5;
inline constexpr std::size_t kStderrTailBytes = 1024;

// The last kStderrTailLines lines of `text`, cut to the last kStderrTailBytes bytes (at a line
// start or a UTF-8 character start where it can), bytes that are not UTF-8 escaped ("\xHH").
std::string stderr_tail_of(std::string_view text);

// "exited with code 1", "killed by signal 9 (SIGKILL)", "" when neither is known.
std::string exit_text(const ParticipantResult& p);
// One line on why a participant failed: status, limit, exit, detail ("" when it did not fail).
std::string failure_summary(const ParticipantResult& p);

// Ranks by score, higher is better; equal scores share the better rank (1, 2, 2, 4).
// These work on the referee's outcomes and on whole results alike.
template <class Participant>
void assign_ranks_by_score(std::vector<Participant>& participants) {
    for (auto& p : participants) {
        p.rank = 1;
        for (const auto& q : participants) p.rank += q.score > p.score ? 1 : 0;
    }
}

// Every pair compared by rank (lower rank wins, equal is a draw).
template <class Participant>
std::vector<PairResult> derive_pairs_by_rank(const std::vector<Participant>& participants) {
    std::vector<PairResult> pairs;
    for (std::size_t a = 0; a < participants.size(); ++a) {
        for (std::size_t b = a + 1; b < participants.size(); ++b) {
            const int ra = participants[a].rank, rb = participants[b].rank;
            pairs.push_back({static_cast<int>(a), static_cast<int>(b), ra < rb ? 1.0 : (ra == rb ? 0.5 : 0.0)});
        }
    }
    return pairs;
}

// Seed 000's rule: when a participant's fault ended the match, only its losses to each other
// participant count; otherwise every pair by score. `faulty` is the seat that failed, if any.
template <class Participant>
std::vector<PairResult> derive_pairs_fault_loses(const std::vector<Participant>& participants,
                                                 std::optional<int> faulty) {
    std::vector<PairResult> pairs;
    if (!faulty) {
        for (std::size_t a = 0; a < participants.size(); ++a) {
            for (std::size_t b = a + 1; b < participants.size(); ++b) {
                const double sa = participants[a].score, sb = participants[b].score;
                pairs.push_back({static_cast<int>(a), static_cast<int>(b), sa > sb ? 1.0 : (sa == sb ? 0.5 : 0.0)});
            }
        }
        return pairs;
    }
    const int f = *faulty;
    for (int other = 0; other < static_cast<int>(participants.size()); ++other) {
        if (other == f) continue;
        // Keep the lower seat as "a" so the first-mover convention stays seat order.
        if (other < f) pairs.push_back({other, f, 1.0});
        else pairs.push_back({f, other, 0.0});
    }
    return pairs;
}

void to_json(nlohmann::json& j, const UsageStats& v);
void from_json(const nlohmann::json& j, UsageStats& v);
void to_json(nlohmann::json& j, const ParticipantResult& v);
void from_json(const nlohmann::json& j, ParticipantResult& v);
void to_json(nlohmann::json& j, const PairResult& v);
void from_json(const nlohmann::json& j, PairResult& v);
void to_json(nlohmann::json& j, const MatchRecord& v);
void from_json(const nlohmann::json& j, MatchRecord& v);

// UserError unless every pair names two participants and scores 0, 0.5 or 1 for its first.
// Records read from files go through it before they are stored.
void check_record(const MatchRecord& record);

SeatStatus seat_status_from_string(const std::string& text);  // throws std::invalid_argument

// Now, as ISO 8601 UTC with seconds ("2026-11-22T17:43:38Z").
std::string utc_timestamp_now();

}  // namespace arb
