#include "rules/koehandel/koehandel_replay.hpp"

#include <charconv>
#include <sstream>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "core/json_text.hpp"
#include "core/user_error.hpp"
#include "rules/koehandel/koehandel_protocol.hpp"

namespace arb::koehandel {
namespace {

namespace fs = std::filesystem;

constexpr std::size_t kMaxLogBytes = std::size_t{64} << 20;

// The prefixes of a log's lines.
constexpr std::string_view kRequest = "> ";
constexpr std::string_view kReply = "< ";
constexpr std::string_view kFailedReply = "< (";
constexpr std::string_view kDefault = "# default: ";
constexpr std::string_view kNote = "# ";
constexpr std::string_view kFault = "# fault ";
constexpr std::string_view kOut = "# out: ";

std::string failure_text(ReplyStatus status) { return std::string("(") + to_string(status) + ")"; }

// "(timeout)": the referee's note of a failed reply, where a reply would be.
bool is_failure(const std::string& reply) {
    for (const auto status : {ReplyStatus::timeout, ReplyStatus::closed, ReplyStatus::overflow, ReplyStatus::not_running})
        if (reply == failure_text(status)) return true;
    return false;
}

// A reply that starts with '(' or a backslash is logged behind a backslash, so a bot that answers
// "(timeout)" is not read back as a failed reply. Every other reply is logged as it came.
constexpr char kEscape = '\\';
bool needs_escape(std::string_view reply) { return !reply.empty() && (reply.front() == '(' || reply.front() == kEscape); }
std::string_view unescaped(std::string_view reply) {
    if (!reply.empty() && reply.front() == kEscape) reply.remove_prefix(1);
    return reply;
}

}  // namespace

void write_match_file(const fs::path& folder, const MatchRequest& request) {
    fs::create_directories(folder);
    nlohmann::json j = {{"game", "koehandel"},
                        {"seed", request.seed},
                        {"deal_set", request.deal_set ? nlohmann::json(*request.deal_set) : nlohmann::json(nullptr)},
                        {"bots", request.bots.size()},
                        {"options", request.options.values()}};
    std::ofstream out(folder / kMatchFile, std::ios::binary);
    out << j.dump(2) << "\n";
    if (!out) throw UserError("cannot write " + (folder / kMatchFile).string());
}

PlayerLogs::PlayerLogs(const fs::path& folder, const std::vector<std::string>& names) {
    if (folder.empty()) return;
    fs::create_directories(folder);
    for (std::size_t s = 0; s < names.size(); ++s)
        files_.push_back(std::make_unique<std::ofstream>(folder / fmt::format("player{}-{}.log", s + 1, names[s])));
}

void PlayerLogs::request(int seat, const std::string& text) { write(seat, kRequest, text); }
void PlayerLogs::reply(int seat, std::string_view first_line) {
    if (needs_escape(first_line)) {
        write(seat, kReply, std::string(1, kEscape) + std::string(first_line));
    } else {
        write(seat, kReply, first_line);
    }
}
void PlayerLogs::failed_reply(int seat, ReplyStatus status) { write(seat, kReply, failure_text(status)); }
void PlayerLogs::default_action(int seat, const std::string& what) { write(seat, kDefault, what); }
void PlayerLogs::note(int seat, const std::string& text) { write(seat, kNote, text); }

void PlayerLogs::flush() {
    for (auto& f : files_) f->flush();
}

void PlayerLogs::write(int seat, std::string_view prefix, std::string_view text) {
    if (!files_.empty()) *files_[static_cast<std::size_t>(seat)] << prefix << text << '\n';
}

SeatLog read_seat_log(const fs::path& folder, int seat) {
    const std::string prefix = fmt::format("player{}-", seat + 1);
    std::error_code ec;
    for (fs::directory_iterator it(folder, ec), end; !ec && it != end; it.increment(ec)) {
        const std::string name = it->path().filename().string();
        if (!name.starts_with(prefix) || it->path().extension() != ".log") continue;
        SeatLog log{it->path(), {}, 0};
        std::istringstream in(read_text_file(it->path(), kMaxLogBytes));
        for (std::string line; std::getline(in, line);) log.lines.push_back(line);
        return log;
    }
    throw UserError(fmt::format("{}: no {}*.log (the match's player logs)", folder.string(), prefix));
}

std::uint64_t logged_market(const SeatLog& log) {
    const std::string key = std::string(kRequest) + "/?market=";
    std::uint64_t market = 0;
    if (!log.lines.empty() && log.lines[0].starts_with(key)) {
        const char* first = log.lines[0].data() + key.size();
        const auto [end, ec] = std::from_chars(first, log.lines[0].data() + log.lines[0].size(), market);
        if (ec == std::errc() && (*end == '&')) return market;
    }
    throw UserError(log.path.string() + ":1: not a Koehandel player log (no '> /?market=...' request)");
}

LoggedPlayers::LoggedPlayers(std::vector<SeatLog> logs, int bots, std::uint64_t market)
    : logs_(std::move(logs)), bots_(bots), market_(market) {}

void LoggedPlayers::tell(int seat, const Message& message) {
    expect(seat, std::string(kRequest) + request_text(message, market_, seat));
    SeatLog& log = logs_[static_cast<std::size_t>(seat)];
    if (log.at(kFailedReply)) ++log.next;  // a notification's failed answer (its fault note follows)
    on_tell(seat, message);
}

std::optional<Fields> LoggedPlayers::ask(int seat, const Message& message) {
    expect(seat, std::string(kRequest) + request_text(message, market_, seat));
    SeatLog& log = logs_[static_cast<std::size_t>(seat)];
    if (log.at(kReply)) {
        const std::string logged = log.lines[log.next++].substr(kReply.size());
        if (is_failure(logged)) {
            on_ask(seat, message, std::nullopt);
            return std::nullopt;
        }
        const std::string reply(unescaped(logged));
        on_ask(seat, message, reply);
        return parse_query(reply);
    }
    on_ask(seat, message, std::nullopt);
    if (seat >= bots_) return Fields{};  // a house seat passes on everything
    return std::nullopt;                 // a seat that is out
}

void LoggedPlayers::adjudicated(int seat, const std::string& what) {
    skip_notes(seat);
    const std::string want = std::string(kDefault) + what;
    SeatLog& log = logs_[static_cast<std::size_t>(seat)];
    if (!log.at(want)) differ(seat, want);
    ++log.next;
    on_default(seat, what);
}

void LoggedPlayers::check_finished() {
    for (int s = 0; s < kSeats; ++s) {
        skip_notes(s);
        const SeatLog& log = logs_[static_cast<std::size_t>(s)];
        if (log.next < log.lines.size() && !log.lines[log.next].empty()) differ(s, "the end of the game");
    }
}

// A failed reply is a fault ("# fault 2 of 3: notification receive timeout"); enough of them put
// the seat out.
void LoggedPlayers::skip_notes(int seat) {
    SeatLog& log = logs_[static_cast<std::size_t>(seat)];
    while (log.at(kOut) || log.at(kFault)) on_note(seat, log.lines[log.next++]);
}

void LoggedPlayers::expect(int seat, const std::string& want) {
    skip_notes(seat);
    SeatLog& log = logs_[static_cast<std::size_t>(seat)];
    if (log.next >= log.lines.size() || log.lines[log.next] != want) differ(seat, want);
    ++log.next;
}

void LoggedPlayers::differ(int seat, const std::string& want) const {
    const SeatLog& log = logs_[static_cast<std::size_t>(seat)];
    throw LogDifference{log.path, log.next + 1, log.next < log.lines.size() ? log.lines[log.next] : "its end", want};
}

}  // namespace arb::koehandel
