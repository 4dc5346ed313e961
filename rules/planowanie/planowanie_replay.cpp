#include "rules/planowanie/planowanie_replay.hpp"

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
    if (log.fault) out["fault"] = {{"during", log.fault->during}, {"seats", log.fault->seats}};
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
    if (json.contains("fault")) {
        const auto fault = field<nlohmann::json>(json, "fault", "the file");
        FaultLog f{field<std::string>(fault, "during", "'fault'"), field<std::vector<int>>(fault, "seats", "'fault'")};
        if (f.during != "declarations" && f.during != "play")
            throw UserError("planowanie log: 'fault' 'during' is \"declarations\" or \"play\"");
        for (const int seat : f.seats)
            if (seat < 0 || seat >= log.players) throw UserError(fmt::format("planowanie log: 'fault' names seat {}", seat));
        log.fault = std::move(f);
    }
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

}  // namespace arb::planowanie
