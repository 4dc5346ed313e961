#include "core/match_record.hpp"

#include <algorithm>
#include <csignal>
#include <cstring>
#include <ctime>
#include <numeric>
#include <stdexcept>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "core/json_text.hpp"
#include "core/user_error.hpp"
#include "core/utf8_text.hpp"

namespace arb {

std::string stderr_tail_of(std::string_view text) {
    while (!text.empty() && (text.back() == '\n' || text.back() == '\r')) text.remove_suffix(1);
    // The start of the last kStderrTailLines lines.
    std::size_t from = text.size();
    for (int lines = 1; from > 0; ++lines) {
        const std::size_t nl = text.rfind('\n', from - 1);
        if (nl == std::string_view::npos) {
            from = 0;
            break;
        }
        from = lines == kStderrTailLines ? nl + 1 : nl;
        if (lines == kStderrTailLines) break;
    }
    while (from < text.size() && text[from] == '\n') ++from;
    std::string_view tail = text.substr(from);
    if (tail.size() > kStderrTailBytes) {
        // Cut at a line start inside the last kStderrTailBytes, else at a UTF-8 character start.
        std::size_t cut = tail.size() - kStderrTailBytes;
        const std::size_t nl = tail.find('\n', cut);
        if (nl != std::string_view::npos && nl + 1 < tail.size()) cut = nl + 1;
        else
            while (cut < tail.size() && (static_cast<unsigned char>(tail[cut]) & 0xC0) == 0x80) ++cut;
        tail = tail.substr(cut);
    }
    return valid_utf8(tail);
}

std::string exit_text(const ParticipantResult& p) {
    if (p.exit_code) return fmt::format("exited with code {}", *p.exit_code);
    if (p.exit_signal) {
        const char* name = sigabbrev_np(*p.exit_signal);
        return fmt::format("killed by signal {}{}", *p.exit_signal, name ? fmt::format(" (SIG{})", name) : "");
    }
    return "";
}

std::string failure_summary(const ParticipantResult& p) {
    if (p.status == SeatStatus::ok) return "";
    std::string out = to_string(p.status);
    if (!p.limit.empty()) out += ", " + p.limit + " limit";
    if (const std::string exit = exit_text(p); !exit.empty()) out += ", " + exit;
    if (!p.detail.empty()) out += ": " + p.detail;
    return out;
}

SeatStatus seat_status_from_string(const std::string& text) {
    for (SeatStatus s : {SeatStatus::ok, SeatStatus::crashed, SeatStatus::timeout, SeatStatus::illegal,
                         SeatStatus::killed, SeatStatus::forfeited}) {
        if (text == to_string(s)) return s;
    }
    throw std::invalid_argument("unknown seat status '" + text + "'");
}

std::string utc_timestamp_now() {
    std::time_t now = std::time(nullptr);
    std::tm tm{};
    gmtime_r(&now, &tm);
    char buf[32];
    std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", &tm);
    return buf;
}

void to_json(nlohmann::json& j, const UsageStats& v) {
    j = {{"wall_used_s", v.wall_used_s}, {"cpu_used_s", v.cpu_used_s}, {"longest_reply_s", v.longest_reply_s},
         {"requests", v.requests}, {"peak_memory_kib", v.peak_memory_kib}};
}
void from_json(const nlohmann::json& j, UsageStats& v) {
    v.wall_used_s = j.value("wall_used_s", 0.0);
    v.cpu_used_s = j.value("cpu_used_s", 0.0);
    v.longest_reply_s = j.value("longest_reply_s", 0.0);
    v.requests = json_integer<std::int64_t>(j, "requests", 0);
    v.peak_memory_kib = json_integer<std::int64_t>(j, "peak_memory_kib", 0);
}

void to_json(nlohmann::json& j, const ParticipantResult& v) {
    j = {{"bot", v.bot}, {"command", v.command}, {"seat", v.seat}, {"score", v.score}, {"rank", v.rank},
         {"status", to_string(v.status)}, {"detail", v.detail}, {"usage", v.usage}};
    j["exit_code"] = v.exit_code ? nlohmann::json(*v.exit_code) : nlohmann::json(nullptr);
    j["exit_signal"] = v.exit_signal ? nlohmann::json(*v.exit_signal) : nlohmann::json(nullptr);
    j["limit"] = v.limit;
    j["stderr_tail"] = v.stderr_tail;
}

namespace {
std::optional<int> optional_int(const nlohmann::json& j, const char* key) {
    if (!j.contains(key) || j.at(key).is_null()) return std::nullopt;
    return json_integer<int>(j.at(key));
}
}  // namespace
void from_json(const nlohmann::json& j, ParticipantResult& v) {
    v.bot = j.at("bot").get<std::string>();
    v.command = j.value("command", std::string{});
    v.seat = json_integer<int>(j.at("seat"));
    v.score = j.at("score").get<double>();
    v.rank = json_integer<int>(j.at("rank"));
    v.status = seat_status_from_string(j.at("status").get<std::string>());
    v.detail = j.value("detail", std::string{});
    if (j.contains("usage")) v.usage = j.at("usage").get<UsageStats>();
    v.exit_code = optional_int(j, "exit_code");
    v.exit_signal = optional_int(j, "exit_signal");
    v.limit = j.value("limit", std::string{});
    v.stderr_tail = j.value("stderr_tail", std::string{});
}

void to_json(nlohmann::json& j, const PairResult& v) { j = {{"a", v.a}, {"b", v.b}, {"score_a", v.score_a}}; }
void from_json(const nlohmann::json& j, PairResult& v) {
    v.a = json_integer<int>(j.at("a"));
    v.b = json_integer<int>(j.at("b"));
    v.score_a = j.at("score_a").get<double>();
}

void to_json(nlohmann::json& j, const MatchRecord& v) {
    j = {{"game", v.game},
         {"config", nlohmann::json::parse(v.config_json)},
         {"seed", v.seed},
         {"rotation", v.rotation},
         {"participants", v.participants},
         {"pairs", v.pairs},
         {"end_reason", v.end_reason},
         {"turns", v.turns},
         {"transcript_path", v.transcript_path},
         {"replay_path", v.replay_path},
         {"started_at", v.started_at},
         {"wall_s", v.wall_s},
         {"machine_load", v.machine_load}};
    j["deal_set"] = v.deal_set ? nlohmann::json(*v.deal_set) : nlohmann::json(nullptr);
}
void from_json(const nlohmann::json& j, MatchRecord& v) {
    v.game = j.at("game").get<std::string>();
    v.config_json = j.contains("config") ? j.at("config").dump() : "{}";
    v.seed = json_integer<std::uint64_t>(j.at("seed"));
    if (j.contains("deal_set") && !j.at("deal_set").is_null()) v.deal_set = json_integer<std::uint64_t>(j.at("deal_set"));
    else v.deal_set.reset();
    v.rotation = json_integer<int>(j, "rotation", 0);
    v.participants = j.at("participants").get<std::vector<ParticipantResult>>();
    v.pairs = j.value("pairs", std::vector<PairResult>{});
    v.end_reason = j.value("end_reason", std::string{});
    v.turns = json_integer<int>(j, "turns", 0);
    v.transcript_path = j.value("transcript_path", std::string{});
    v.replay_path = j.value("replay_path", std::string{});
    v.started_at = j.value("started_at", std::string{});
    v.wall_s = j.value("wall_s", 0.0);
    v.machine_load = j.value("machine_load", 0.0);
}

void check_record(const MatchRecord& r) {
    const auto n = static_cast<int>(r.participants.size());
    for (const PairResult& p : r.pairs) {
        if (p.a < 0 || p.b < 0 || p.a >= n || p.b >= n || p.a == p.b)
            throw UserError(fmt::format("match record of {} seed {}: pair ({}, {}) does not name two participants",
                                        r.game, r.seed, p.a, p.b));
        if (p.score_a != 0 && p.score_a != 0.5 && p.score_a != 1)
            throw UserError(fmt::format("match record of {} seed {}: pair ({}, {}) scores {} (0, 0.5 or 1 expected)",
                                        r.game, r.seed, p.a, p.b, p.score_a));
    }
}

}  // namespace arb
