// Reading recorded Ants games, the recording's food and spawns as engine inputs (level A), and
// writing our replays (the wrapper around the engine's replaydata, ants.md 8.1); replaying a
// recording through the engine is in ants_verify.cpp.
#include "rules/ants/ants_replay.hpp"

#include <algorithm>
#include <limits>
#include <fstream>
#include <optional>
#include <sstream>

#include <spdlog/spdlog.h>

#include "core/json_text.hpp"
#include "core/user_error.hpp"

namespace arb::ants {
namespace {

using nlohmann::json;

int get_int(const json& obj, const char* key, int fallback) {
    auto it = obj.find(key);
    if (it == obj.end() || !it->is_number()) return fallback;
    if (it->is_number_float()) {  // truncated like the original's int(); out of range is bad input
        const double d = it->get<double>();
        if (d >= std::numeric_limits<int>::min() && d <= std::numeric_limits<int>::max()) return static_cast<int>(d);
    }
    return json_integer<int>(*it);
}

}  // namespace

RecordedGame parse_recorded_game(const json& replay, const std::string& source) {
    RecordedGame game;
    const json* data = &replay;
    if (replay.contains("replaydata")) {
        if (replay.value("challenge", "ants") != "ants")
            throw UserError(source + ": not an Ants replay (challenge '" + replay.value("challenge", "") + "')");
        data = &replay.at("replaydata");
        game.meta = replay;
        game.meta.erase("replaydata");
    }
    try {
        game.replaydata = *data;
        const json& rd = game.replaydata;
        check_replay_numbers(rd, source);
        game.players = rd.at("players").get<int>();
        const json& map = rd.at("map");
        game.map.rows = map.at("rows").get<int>();
        game.map.cols = map.at("cols").get<int>();
        game.map.players = game.players;
        game.map.water.assign(static_cast<std::size_t>(game.map.rows) * game.map.cols, 0);
        const auto& rows = map.at("data");
        if (static_cast<int>(rows.size()) != game.map.rows) throw UserError(source + ": map.data has the wrong row count");
        for (int r = 0; r < game.map.rows; ++r) {
            const auto line = rows[static_cast<std::size_t>(r)].get<std::string>();
            if (static_cast<int>(line.size()) != game.map.cols) throw UserError(source + ": map row " + std::to_string(r) + " has the wrong width");
            for (int c = 0; c < game.map.cols; ++c)
                if (line[static_cast<std::size_t>(c)] == '%') game.map.water[static_cast<std::size_t>(r) * game.map.cols + c] = 1;
        }
        // Hills in recorded order, which is the original's hill order.
        for (const auto& h : rd.at("hills"))
            game.map.hills.push_back({h.at(0).get<int>(), h.at(1).get<int>(), h.at(2).get<int>()});
        auto& p = game.params;
        p.loadtime_ms = get_int(rd, "loadtime", p.loadtime_ms);
        p.turntime_ms = get_int(rd, "turntime", p.turntime_ms);
        p.turns = get_int(rd, "turns", p.turns);
        p.viewradius2 = get_int(rd, "viewradius2", p.viewradius2);
        p.attackradius2 = get_int(rd, "attackradius2", p.attackradius2);
        p.spawnradius2 = get_int(rd, "spawnradius2", p.spawnradius2);
        if (rd.contains("attack")) {
            const auto rule = rd["attack"].is_string() ? attack_rule_from_name(rd["attack"].get<std::string>()) : std::nullopt;
            if (!rule) throw UserError(source + ": replaydata 'attack' must be focus, closest, support or damage");
            p.attack = *rule;
        }
        p.food_rate = get_int(rd, "food_rate", 0);
        p.food_turn = get_int(rd, "food_turn", 1);
        p.food_start = get_int(rd, "food_start", 0);
        if (rd.contains("engine_seed") && rd["engine_seed"].is_number_integer()) p.engine_seed = rd["engine_seed"].get<std::int64_t>();
        if (rd.contains("player_seed") && rd["player_seed"].is_number_integer()) p.player_seed = rd["player_seed"].get<std::int64_t>();
        if (game.meta.contains("status")) game.status = game.meta["status"].get<std::vector<std::string>>();
        if (game.meta.contains("playerturns")) game.playerturns = game.meta["playerturns"].get<std::vector<int>>();
        for (const char* key : {"ants", "food", "scores", "hive_history"})
            if (!rd.contains(key)) throw UserError(source + ": replaydata has no '" + key + "'");
    } catch (const json::exception& e) {
        throw UserError(source + ": malformed Ants replay: " + e.what());
    }
    return game;
}

RecordedGame load_recorded_game(const std::filesystem::path& path) {
    if (!std::ifstream(path, std::ios::binary)) throw UserError("cannot read replay file '" + path.string() + "'");
    const json replay = parse_json_text(read_text_file(path, kMaxReplayBytes), path.string());
    return parse_recorded_game(replay, path.string());
}

std::unique_ptr<ScheduledFood> recorded_food(const RecordedGame& game) {
    std::vector<ScheduledFood::Item> items;
    for (const auto& f : game.replaydata.at("food"))
        items.push_back({f.at(0).get<int>() * game.map.cols + f.at(1).get<int>(), f.at(2).get<int>()});
    return std::make_unique<ScheduledFood>(std::move(items));
}

SpawnKey recorded_spawn_key(const RecordedGame& game) {
    // (turn, cell) -> index of the ant the replay shows spawning there. Ants are recorded in
    // creation order, so when a player spawns on several hills in one turn the smaller index was
    // first in the original's (last_touched, random()) order; a hill with no recorded spawn that
    // turn sorts after those (it was occupied, or the hive ran out before it).
    std::vector<std::pair<std::pair<int, int>, int>> spawns;
    int index = 0;
    for (const auto& a : game.replaydata.at("ants")) {
        const int start = a.at(2).get<int>();
        if (start > 0) spawns.push_back({{start, a.at(0).get<int>() * game.map.cols + a.at(1).get<int>()}, index});
        ++index;
    }
    std::sort(spawns.begin(), spawns.end());
    const double not_shown = static_cast<double>(index);
    return [spawns, not_shown](const AntsEngine& engine, int hill) {
        const std::pair<int, int> at{engine.turn(), engine.hills()[hill].cell};
        const auto it = std::lower_bound(spawns.begin(), spawns.end(), at,
                                         [](const auto& s, const auto& key) { return s.first < key; });
        return it != spawns.end() && it->first == at ? static_cast<double>(it->second) : not_shown;
    };
}

nlohmann::json replay_file(const AntsEngine& engine, const std::vector<std::string>& status,
                           const std::vector<int>& playerturns, int game_length,
                           const std::vector<std::string>& player_names) {
    json r;
    r["challenge"] = "ants";
    r["replayformat"] = "json";
    r["replaydata"] = engine.replaydata();
    r["status"] = status;
    r["playerturns"] = playerturns;
    r["score"] = engine.scores();
    r["rank"] = engine.ranks();
    r["game_length"] = game_length;
    r["game_id"] = 0;
    r["location"] = "localhost";
    if (!player_names.empty()) r["playernames"] = player_names;
    return r;
}

void write_replay(const std::filesystem::path& path, const nlohmann::json& replay) {
    std::ofstream out(path, std::ios::binary);
    out << replay.dump() << "\n";
    if (!out) spdlog::error("ants: could not write the replay to {}", path.string());
}

}  // namespace arb::ants
