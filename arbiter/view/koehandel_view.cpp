#include "arbiter/view/koehandel_view.hpp"

#include <charconv>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "core/json_text.hpp"
#include "core/user_error.hpp"
#include "rules/koehandel/koehandel_engine.hpp"
#include "rules/koehandel/koehandel_referee.hpp"
#include "rules/registry.hpp"

namespace arb::view {
namespace {

namespace fs = std::filesystem;
namespace kh = arb::koehandel;
using nlohmann::json;

constexpr std::size_t kMaxLogBytes = std::size_t{64} << 20;

struct SeatLog {
    fs::path path;
    std::vector<std::string> lines;
    std::size_t next = 0;

    bool at(std::string_view prefix) const { return next < lines.size() && lines[next].rfind(prefix, 0) == 0; }
};

SeatLog read_seat_log(const fs::path& folder, int seat) {
    const std::string prefix = fmt::format("player{}-", seat + 1);
    std::error_code ec;
    for (fs::directory_iterator it(folder, ec), end; !ec && it != end; it.increment(ec)) {
        const std::string name = it->path().filename().string();
        if (name.rfind(prefix, 0) != 0 || it->path().extension() != ".log") continue;
        SeatLog log{it->path(), {}, 0};
        std::istringstream in(read_text_file(it->path(), kMaxLogBytes));
        for (std::string line; std::getline(in, line);) log.lines.push_back(line);
        return log;
    }
    throw UserError(fmt::format("{}: no {}*.log (the match's player logs)", folder.string(), prefix));
}

// The market every request names, from seat 1's first request ("> /?market=M&id=1&...").
std::uint64_t market_of(const SeatLog& log) {
    const std::string key = "> /?market=";
    std::uint64_t market = 0;
    if (!log.lines.empty() && log.lines[0].rfind(key, 0) == 0) {
        const char* first = log.lines[0].data() + key.size();
        const auto [end, ec] = std::from_chars(first, log.lines[0].data() + log.lines[0].size(), market);
        if (ec == std::errc() && (*end == '&')) return market;
    }
    throw UserError(log.path.string() + ":1: not a Koehandel player log (no '> /?market=...' request)");
}

// The seats answer as their logs say; what they were told and asked is checked against the logs.
class LoggedPlayers : public kh::Players {
public:
    LoggedPlayers(std::vector<SeatLog> logs, int bots, std::uint64_t market)
        : logs_(std::move(logs)), bots_(bots), market_(market) {}

    void tell(int seat, const kh::Message& message) override {
        expect(seat, message);
        SeatLog& notified = logs_[static_cast<std::size_t>(seat)];
        if (notified.at("< (")) ++notified.next;  // a notification's failed answer (its fault note follows)
        const bool interesting = message.type == "receive" || message.type == "collect" ||
                                 (message.type == "information" && message.message == "bluffed");
        if (!interesting) return;
        json e = event(seat, message, nullptr);
        if (message.message == "bluffed" && !events_.empty() && events_.back()["type"] == "information" &&
            events_.back()["fields"] == e["fields"] &&
            events_.back().value("opponent_seat", -1) == e.value("opponent_seat", -1))
            return;  // told to every other seat: once is enough
        events_.push_back(std::move(e));
    }

    std::optional<kh::Fields> ask(int seat, const kh::Message& message) override {
        expect(seat, message);
        SeatLog& log = logs_[static_cast<std::size_t>(seat)];
        if (log.at("< ")) {
            const std::string reply = log.lines[log.next++].substr(2);
            const bool failed = reply.size() > 2 && reply.front() == '(' && reply.back() == ')';
            events_.push_back(event(seat, message, failed ? json(nullptr) : json(reply)));
            events_.back()["asked"] = true;
            if (failed) return std::nullopt;
            return kh::parse_query(reply);
        }
        events_.push_back(event(seat, message, nullptr));
        events_.back()["asked"] = true;
        if (seat >= bots_) return kh::Fields{};  // a house seat passes on everything
        return std::nullopt;                     // a seat that is out
    }

    void adjudicated(int seat, const std::string& what) override {
        SeatLog& log = logs_[static_cast<std::size_t>(seat)];
        skip_out_notes(seat);
        if (!log.at("# default: " + what)) mismatch(seat, "# default: " + what);
        ++log.next;
        if (seat < bots_) events_.push_back({{"seat", seat}, {"type", "default"}, {"text", what}});
    }

    json take_events() { return std::exchange(events_, json::array()); }

    // Every log read to its end once the game is over.
    void check_finished() {
        for (int s = 0; s < kh::kSeats; ++s) {
            skip_out_notes(s);
            const SeatLog& log = logs_[static_cast<std::size_t>(s)];
            if (log.next < log.lines.size() && !log.lines[log.next].empty())
                throw UserError(fmt::format("{}:{}: the log goes on after the game replayed from the record's seed ended",
                                            log.path.string(), log.next + 1));
        }
    }

private:
    void skip_out_notes(int seat) {
        SeatLog& log = logs_[static_cast<std::size_t>(seat)];
        // A failed reply is a fault ("# fault 2 of 3: notification receive timeout"); enough of
        // them put the seat out.
        while (log.at("# out: ") || log.at("# fault ")) {
            const bool out = log.at("# out: ");
            events_.push_back({{"seat", seat}, {"type", out ? "out" : "fault"}, {"text", log.lines[log.next].substr(out ? 7 : 2)}});
            ++log.next;
        }
    }

    [[noreturn]] void mismatch(int seat, const std::string& want) const {
        const SeatLog& log = logs_[static_cast<std::size_t>(seat)];
        throw UserError(fmt::format("{}:{}: the log has '{}' where the game replayed from the record's seed has '{}'",
                                    log.path.string(), log.next + 1,
                                    log.next < log.lines.size() ? log.lines[log.next] : "its end", want));
    }

    void expect(int seat, const kh::Message& message) {
        skip_out_notes(seat);
        const std::string want = "> " + kh::request_text(message, market_, seat);
        SeatLog& log = logs_[static_cast<std::size_t>(seat)];
        if (log.next >= log.lines.size() || log.lines[log.next] != want) mismatch(seat, want);
        ++log.next;
    }

    // A message in absolute seats: the relative letters of opponent and auctioneer resolved.
    static json event(int seat, const kh::Message& m, json reply) {
        json fields = json::object();
        for (const auto& [key, value] : {std::pair{"opponent", &m.opponent}, std::pair{"auctioneer", &m.auctioneer},
                                         std::pair{"goods", &m.goods}, std::pair{"money", &m.money},
                                         std::pair{"message", &m.message}})
            if (!value->empty()) fields[key] = *value;
        json e = {{"seat", seat}, {"type", m.type}, {"fields", std::move(fields)}, {"reply", std::move(reply)}};
        if (auto s = kh::seat_of_letter(seat, m.opponent)) e["opponent_seat"] = *s;
        if (auto s = kh::seat_of_letter(seat, m.auctioneer)) e["auctioneer_seat"] = *s;
        return e;
    }

    std::vector<SeatLog> logs_;
    int bots_;
    std::uint64_t market_;
    json events_ = json::array();
};

json snapshot(const kh::GameState& state, json events) {
    json players = json::array();
    for (const auto& p : state.players)
        players.push_back({{"animals", p.animals}, {"money", p.money}, {"barred", p.barred}, {"score", kh::score_of(p)}});
    return {{"turn", state.turns},   {"players", std::move(players)},     {"deck", state.deck.size()},
            {"bank", kh::money_value(state.bank)}, {"events", std::move(events)}};
}

kh::Options options_of(const MatchRecord& record) {
    std::map<std::string, std::string> given;
    const json config = parse_json_text(record.config_json, "the match record's config");
    if (config.is_object())
        for (const auto& [key, value] : config.items()) given[key] = value.is_string() ? value.get<std::string>() : value.dump();
    MatchRequest request;
    request.seed = record.seed;
    request.deal_set = record.deal_set;
    request.options = GameOptions(find_game("koehandel").options, given);
    return kh::engine_options(request);
}

}  // namespace

json koehandel_replay(const MatchRecord& record, const fs::path& logs) {
    std::vector<SeatLog> seat_logs;
    for (int s = 0; s < kh::kSeats; ++s) seat_logs.push_back(read_seat_log(logs, s));
    const std::uint64_t market = market_of(seat_logs[0]);
    LoggedPlayers players(std::move(seat_logs), static_cast<int>(record.participants.size()), market);
    kh::Game game(options_of(record), players);
    json turns = json::array();
    game.begin();
    turns.push_back(snapshot(game.state(), players.take_events()));
    while (game.play_turn()) turns.push_back(snapshot(game.state(), players.take_events()));
    game.finish();
    players.check_finished();
    return {{"seats", kh::kSeats}, {"turns", std::move(turns)}, {"end_reason", game.state().end_reason}};
}

}  // namespace arb::view
