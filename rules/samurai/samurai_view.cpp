// A SamurAI match for the viewer: {"games": [...]}, each game's log with the field after every
// step, from our engine fed the logged plans (the log itself records only the agents and the
// scores, not where holes and gold are). Game 2's log is beside game 1's (game_log_path).
#include <string>
#include <vector>

#include "core/json_text.hpp"
#include "core/user_error.hpp"
#include "rules/samurai/samurai_game.hpp"
#include "rules/samurai/samurai_referee.hpp"
#include "rules/samurai/samurai_replay.hpp"

namespace arb::samurai {
namespace {

namespace fs = std::filesystem;

nlohmann::json cells_json(const std::vector<Cell>& cells) {
    nlohmann::json out = nlohmann::json::array();
    for (const auto& c : cells) out.push_back({c.x, c.y});
    return out;
}

nlohmann::json gold_json(const std::vector<Gold>& gold) {
    nlohmann::json out = nlohmann::json::array();
    for (const auto& g : gold) out.push_back({g.cell.x, g.cell.y, g.amount});
    return out;
}

nlohmann::json states_json(const GameLog& log) {
    nlohmann::json states = nlohmann::json::array();
    GameState state = initial_state(log.field);
    const auto add = [&](const GameState& s) {
        nlohmann::json agents = nlohmann::json::array();
        for (const auto& a : s.agents) agents.push_back({a.cell.x, a.cell.y, a.direction});
        states.push_back({{"holes", cells_json(s.holes)}, {"known", gold_json(s.known)}, {"hidden", gold_json(s.hidden)},
                          {"agents", std::move(agents)}, {"scores", {s.scores[0], s.scores[1]}}, {"actions", s.last_actions}});
    };
    add(state);
    for (const auto& play : log.plays) {
        if (game_over(log.field, state)) break;
        play_step(log.field, state, play.plans);
        add(state);
    }
    return states;
}

nlohmann::json game_json(std::string_view text, const std::string& source) {
    const GameLog log = parse_game_log(text, source);
    nlohmann::json json = parse_json_text(text, source);
    return {{"size", log.field.size}, {"steps", log.field.steps}, {"plays", json["plays"]}, {"states", states_json(log)}};
}

nlohmann::json match_json(const fs::path& path) {
    nlohmann::json games = nlohmann::json::array();
    for (const fs::path& p : {path, game_log_path(path, 1)}) {
        if (p != path && !fs::is_regular_file(p)) break;
        games.push_back(game_json(read_text_file(p, kMaxReplayBytes), p.string()));
    }
    return {{"games", std::move(games)}};
}

// A running match's live text (samurai_referee.cpp): a JSON array of its games' logs so far.
nlohmann::json live_match_json(const ReplayText& r) {
    const nlohmann::json logs = parse_json_text(r.text, r.path.string());
    if (!logs.is_array() || logs.empty() || logs.size() > static_cast<std::size_t>(kGamesPerMatch))
        throw UserError(r.path.string() + ": not a running SamurAI match (an array of 1 or 2 game logs)");
    nlohmann::json games = nlohmann::json::array();
    for (const auto& log : logs) games.push_back(game_json(log.dump(), r.path.string()));
    return {{"games", std::move(games)}};
}

}  // namespace

GameViewer viewer() {
    GameViewer v;
    v.script = viewer_script();
    v.kind = "a SamurAI log";
    v.example_replay = "game.dighere";
    v.recognises = [](const ReplayText& r) {
        return r.json != nullptr && r.json->value("filetype", "") == "SamurAI Dig Here Game Log";
    };
    v.read = [](const ReplayText& r) { return match_json(r.path); };
    v.read_live = live_match_json;
    return v;
}

}  // namespace arb::samurai
