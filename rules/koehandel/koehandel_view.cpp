// A Koehandel match for the viewer. Its logs are each seat's side of the conversation (requests
// with its own relative seat letters, replies, default actions), so the game is replayed through
// the engine from the record's seed, each seat answering as its log says: that gives every
// player's animals and money after every turn, the auctions with their bids and the cow trades
// with both offers, in the order they happened. A log that differs from the replay is refused.
//   {"seats": N, "turns": [{"turn": t, "players": [{"animals": [...10], "money": [...6], "barred": b,
//     "score": s}], "deck": n, "bank": v, "events": [{"seat": s, "type": "...", "fields": {...},
//     "reply": "..." | null}]}], "end_reason": "..."}
#include <optional>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "core/json_text.hpp"
#include "core/user_error.hpp"
#include "rules/koehandel/koehandel_engine.hpp"
#include "rules/koehandel/koehandel_game.hpp"
#include "rules/koehandel/koehandel_play.hpp"
#include "rules/koehandel/koehandel_replay.hpp"
#include "rules/koehandel/koehandel_referee.hpp"

namespace arb::koehandel {
namespace {

namespace fs = std::filesystem;
namespace kh = arb::koehandel;
using nlohmann::json;

// The replay's events for the page: what each seat was told and asked, with its replies, its
// default actions and the referee's notes of its failed replies.
class ViewedPlayers : public kh::LoggedPlayers {
public:
    ViewedPlayers(std::vector<kh::SeatLog> logs, int bots, std::uint64_t market)
        : LoggedPlayers(std::move(logs), bots, market), bots_(bots) {}

    json take_events() { return std::exchange(events_, json::array()); }

private:
    void on_note(int seat, const std::string& line) override {
        // "# fault 2 of 3: notification receive timeout", "# out: 3 failed replies (...)"
        const bool out = line.starts_with("# out: ");
        events_.push_back({{"seat", seat}, {"type", out ? "out" : "fault"}, {"text", line.substr(out ? 7 : 2)}});
    }

    void on_tell(int seat, const kh::Message& message) override {
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

    void on_ask(int seat, const kh::Message& message, const std::optional<std::string>& reply) override {
        events_.push_back(event(seat, message, reply ? json(*reply) : json(nullptr)));
        events_.back()["asked"] = true;
    }

    void on_default(int seat, const std::string& what) override {
        if (seat < bots_) events_.push_back({{"seat", seat}, {"type", "default"}, {"text", what}});
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

    int bots_;
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
    request.options = GameOptions(describe_game().options, given);
    return kh::engine_options(request);
}

// The match's frames from its logs: all of them (last_frame nullopt), the logs then read to
// their end; or, for a match still playing, frames 0..last_frame only (what the logs hold whole).
json replay_of_logs_to(const MatchRecord& record, const fs::path& logs, std::optional<int> last_frame) {
    std::vector<kh::SeatLog> seat_logs;
    for (int s = 0; s < kh::kSeats; ++s) seat_logs.push_back(kh::read_seat_log(logs, s));
    const std::uint64_t market = kh::logged_market(seat_logs[0]);
    ViewedPlayers players(std::move(seat_logs), static_cast<int>(record.participants.size()), market);
    kh::Game game(options_of(record));
    json turns = json::array();
    try {
        kh::begin(game, players);
        turns.push_back(snapshot(game.state(), players.take_events()));
        const auto more = [&] { return !last_frame || static_cast<int>(turns.size()) <= *last_frame; };
        while (more() && kh::play_turn(game, players)) turns.push_back(snapshot(game.state(), players.take_events()));
        if (last_frame) return {{"seats", kh::kSeats}, {"turns", std::move(turns)}, {"end_reason", ""}};
        kh::finish(game, players);
    } catch (const kh::LogDifference& d) {
        throw UserError(fmt::format("{}:{}: the log has '{}' where the game replayed from the record's seed has '{}'",
                                    d.path.string(), d.line, d.has, d.want));
    }
    try {
        players.check_finished();
    } catch (const kh::LogDifference& d) {
        throw UserError(fmt::format("{}:{}: the log goes on after the game replayed from the record's seed ended",
                                    d.path.string(), d.line));
    }
    return {{"seats", kh::kSeats}, {"turns", std::move(turns)}, {"end_reason", game.state().end_reason}};
}

json replay_of_logs(const MatchRecord& record, const fs::path& logs) { return replay_of_logs_to(record, logs, std::nullopt); }

}  // namespace

GameViewer viewer() {
    GameViewer v;
    v.script = viewer_script();
    v.kind = "Koehandel player logs";  // read only with the record, which holds their seed
    v.example_replay = "logs/";
    v.replay_is_folder = true;
    v.read_folder = replay_of_logs;
    v.read_live_folder = [](const MatchRecord& record, const fs::path& logs, int step) {
        return replay_of_logs_to(record, logs, step);
    };
    return v;
}

}  // namespace arb::koehandel
