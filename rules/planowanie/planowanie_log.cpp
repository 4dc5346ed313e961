#include "rules/planowanie/planowanie_log.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cstdint>
#include <fstream>
#include <limits>
#include <type_traits>
#include <utility>
#include <nlohmann/json.hpp>

#include "core/json_text.hpp"
#include "core/user_error.hpp"

namespace arb::planowanie {
namespace {

constexpr int kLogVersion = 1;

// Every number in `value` (and in its lists) an integer that fits an int: get<int>() would
// cast a float or a larger integer unchecked (undefined for 1e300).
bool ints_only(const nlohmann::json& value) {
    if (value.is_array()) return std::all_of(value.begin(), value.end(), ints_only);
    if (!value.is_number()) return true;
    return value.is_number_integer() && std::cmp_greater_equal(value.get<std::int64_t>(), std::numeric_limits<int>::min()) &&
           std::cmp_less_equal(value.get<std::int64_t>(), std::numeric_limits<int>::max()) &&
           !(value.is_number_unsigned() && value.get<std::uint64_t>() > static_cast<std::uint64_t>(std::numeric_limits<int>::max()));
}

template <class T>
T field(const nlohmann::json& object, const char* key, const std::string& where) {
    if (!object.is_object() || !object.contains(key))
        throw UserError(fmt::format("planowanie log: {} has no '{}'", where, key));
    const nlohmann::json& value = object.at(key);
    const bool unchecked_cast = std::is_same_v<T, std::uint64_t> ? !value.is_number_unsigned()
                                : std::is_same_v<T, nlohmann::json> || std::is_same_v<T, std::vector<nlohmann::json>>
                                    ? false
                                    : !ints_only(value);
    if (unchecked_cast) throw UserError(fmt::format("planowanie log: '{}' in {} has the wrong type", key, where));
    try {
        return object.at(key).get<T>();
    } catch (const nlohmann::json::exception&) {
        throw UserError(fmt::format("planowanie log: '{}' in {} has the wrong type", key, where));
    }
}

// The first difference found while replaying, as a VerifyOutcome.
VerifyOutcome differs(int steps, std::string what) { return VerifyOutcome{false, steps, std::move(what)}; }

}  // namespace

nlohmann::json to_json(const GameLog& log) {
    nlohmann::json deals = nlohmann::json::array();
    for (const DealLog& d : log.deals) {
        nlohmann::json tricks = nlohmann::json::array();
        for (const TrickLog& t : d.tricks) {
            nlohmann::json trick = {{"leader", t.leader}, {"cards", t.cards}};
            if (t.winner) trick["winner"] = *t.winner;
            tricks.push_back(std::move(trick));
        }
        nlohmann::json deal = {{"cards", d.cards},
                               {"starter", d.starter},
                               {"hands", d.hands},
                               {"declarations", d.declarations},
                               {"tricks", std::move(tricks)}};
        if (!d.points.empty()) {
            deal["taken"] = d.taken;
            deal["points"] = d.points;
        }
        deals.push_back(std::move(deal));
    }
    nlohmann::json schedule = nlohmann::json::array();
    for (const DealSpec& s : log.schedule) schedule.push_back({s.cards, s.starter});
    nlohmann::json out = {{"game", "planowanie"},
                          {"version", kLogVersion},
                          {"deck", {{"values", log.values}, {"suits", log.suits}}},
                          {"players", log.players},
                          {"schedule", std::move(schedule)}};
    if (log.deal_seed) out["deal_seed"] = *log.deal_seed;
    out["deals"] = std::move(deals);
    out["scores"] = log.scores;
    out["end_reason"] = log.end_reason;
    return out;
}

GameLog game_log_from_json(const nlohmann::json& json) {
    if (field<std::string>(json, "game", "the file") != "planowanie")
        throw UserError("planowanie log: not a planowanie game");
    if (field<int>(json, "version", "the file") != kLogVersion) {
        throw UserError(fmt::format("planowanie log: version {} is not supported (this arbiter writes {})",
                                    json.at("version").dump(), kLogVersion));
    }
    GameLog log;
    const auto deck = field<nlohmann::json>(json, "deck", "the file");
    log.values = field<std::string>(deck, "values", "'deck'");
    log.suits = field<std::string>(deck, "suits", "'deck'");
    log.players = field<int>(json, "players", "the file");
    for (const auto& pair : field<std::vector<std::vector<int>>>(json, "schedule", "the file")) {
        if (pair.size() != 2) throw UserError("planowanie log: 'schedule' entries are [cards, starter]");
        log.schedule.push_back(DealSpec{pair[0], pair[1]});
    }
    if (json.contains("deal_seed")) log.deal_seed = field<std::uint64_t>(json, "deal_seed", "the file");
    const auto deals = field<std::vector<nlohmann::json>>(json, "deals", "the file");
    for (std::size_t i = 0; i < deals.size(); ++i) {
        const std::string where = fmt::format("deal {}", i + 1);
        DealLog d;
        d.cards = field<int>(deals[i], "cards", where);
        d.starter = field<int>(deals[i], "starter", where);
        d.hands = field<std::vector<std::vector<std::string>>>(deals[i], "hands", where);
        d.declarations = field<std::vector<int>>(deals[i], "declarations", where);
        for (const auto& t : field<std::vector<nlohmann::json>>(deals[i], "tricks", where)) {
            TrickLog trick;
            trick.leader = field<int>(t, "leader", where + " trick");
            trick.cards = field<std::vector<std::string>>(t, "cards", where + " trick");
            if (t.contains("winner")) trick.winner = field<int>(t, "winner", where + " trick");
            d.tricks.push_back(std::move(trick));
        }
        if (deals[i].contains("points")) {
            d.taken = field<std::vector<int>>(deals[i], "taken", where);
            d.points = field<std::vector<int>>(deals[i], "points", where);
        }
        log.deals.push_back(std::move(d));
    }
    log.scores = field<std::vector<int>>(json, "scores", "the file");
    log.end_reason = field<std::string>(json, "end_reason", "the file");
    return log;
}

void write_game_log(const std::filesystem::path& path, const GameLog& log) {
    if (path.has_parent_path()) std::filesystem::create_directories(path.parent_path());
    std::ofstream out(path);
    if (!out) throw UserError("cannot write the planowanie log '" + path.string() + "'");
    out << to_json(log).dump(1) << "\n";
}

GameLog read_game_log(const std::filesystem::path& path) {
    if (!std::ifstream(path)) throw UserError("cannot read the planowanie log '" + path.string() + "'");
    // A 16-player game of 13 deals logs well under 1 MiB.
    return game_log_from_json(parse_json_text(read_text_file(path, std::size_t{16} << 20), path.string()));
}

VerifyOutcome verify_game_log(const GameLog& log) {
    if (auto p = Deck::problem(log.values, log.suits); !p.empty()) return differs(0, "deck: " + p);
    Config config;
    config.deck = Deck(log.values, log.suits);
    config.players = log.players;
    config.deals = log.schedule;
    if (auto p = config.problem(); !p.empty()) return differs(0, "configuration: " + p);
    if (log.deals.size() > config.deals.size()) return differs(0, "more deals than the schedule has");

    State state(config);
    const Deck& deck = config.deck;
    int steps = 0;
    for (std::size_t k = 0; k < log.deals.size(); ++k) {
        const DealLog& d = log.deals[k];
        const std::string where = fmt::format("deal {}", k + 1);
        if (d.cards != config.deals[k].cards || d.starter != config.deals[k].starter) {
            return differs(steps, where + ": cards/starter differ from the schedule");
        }
        std::vector<std::vector<Card>> hands;
        for (const auto& hand : d.hands) {
            std::vector<Card> cards;
            for (const auto& text : hand) {
                auto c = deck.parse(text);
                if (!c) return differs(steps, fmt::format("{}: '{}' is not a card", where, text));
                cards.push_back(*c);
            }
            std::sort(cards.begin(), cards.end());
            hands.push_back(std::move(cards));
        }
        if (log.deal_seed && hands != deal_hands(config, static_cast<int>(k), *log.deal_seed)) {
            return differs(steps, where + ": the hands are not the ones the deal seed gives");
        }
        if (auto v = state.apply_deal(hands)) return differs(steps, where + ": " + v->what);
        for (std::size_t s = 0; s < d.declarations.size(); ++s) {
            if (auto v = state.apply_declaration(static_cast<int>(s), d.declarations[s])) {
                return differs(steps, fmt::format("{}: player {}: {}", where, s, v->what));
            }
            ++steps;
        }
        for (std::size_t t = 0; t < d.tricks.size(); ++t) {
            const TrickLog& trick = d.tricks[t];
            const std::string at = fmt::format("{}, trick {}", where, t + 1);
            if (state.phase() != Phase::play) return differs(steps, at + ": no trick is being played");
            if (trick.leader != state.to_move()) {
                return differs(steps, fmt::format("{}: leader {} but player {} leads", at, trick.leader,
                                                  state.to_move()));
            }
            for (const auto& text : trick.cards) {
                const int seat = state.to_move();
                auto c = deck.parse(text);
                if (!c) return differs(steps, fmt::format("{}: '{}' is not a card", at, text));
                if (auto v = state.apply_card(seat, *c))
                    return differs(steps, fmt::format("{}: player {}: {}", at, seat, v->what));
                ++steps;
            }
            if (trick.winner && trick.winner != state.last_trick_winner()) {
                return differs(steps, fmt::format("{}: winner {} but the rules give {}", at, *trick.winner,
                                                  state.last_trick_winner().value_or(-1)));
            }
        }
        if (!d.points.empty()) {
            if (state.results().size() != k + 1) return differs(steps, where + ": the deal is not finished");
            if (state.results().back().taken != d.taken)
                return differs(steps, where + ": tricks taken differ");
            if (state.results().back().points != d.points) return differs(steps, where + ": points differ");
        }
    }
    std::vector<int> scores;
    for (int s = 0; s < config.players; ++s) scores.push_back(state.score(s));
    if (scores != log.scores) return differs(steps, "final scores differ");
    if (log.end_reason == "completed" && state.phase() != Phase::over)
        return differs(steps, "completed, but deals are missing");
    return VerifyOutcome{true, steps, {}};
}

}  // namespace arb::planowanie
