#include "rules/samurai/samurai_replay.hpp"

#include <cmath>
#include <fstream>
#include <limits>
#include <sstream>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "core/did_you_mean.hpp"
#include "core/json_text.hpp"
#include "core/user_error.hpp"

namespace arb::samurai {
namespace {

using nlohmann::json;

// Reads one JSON document with a context path for error messages ("field.agents[2].x").
class Reader {
public:
    explicit Reader(std::string source) : source_(std::move(source)) {}

    const json& member(const json& object, const std::string& key, const std::string& where) const {
        if (!object.is_object()) fail(where, "is not an object");
        const auto it = object.find(key);
        if (it == object.end()) fail(where.empty() ? key : where + "." + key, "is missing");
        return *it;
    }

    const json& array(const json& object, const std::string& key, const std::string& where) const {
        const json& value = member(object, key, where);
        if (!value.is_array()) fail(path(where, key), "is not an array");
        return value;
    }

    // The manager reads numbers as doubles and truncates them (samurai.md 1.2).
    std::int64_t number(const json& object, const std::string& key, const std::string& where) const {
        const json& value = member(object, key, where);
        if (!value.is_number()) fail(path(where, key), "is not a number");
        const double d = std::trunc(value.get<double>());
        constexpr double limit = 9.0e18;
        if (!(d > -limit && d < limit)) fail(path(where, key), "is out of range");
        return static_cast<std::int64_t>(d);
    }

    int small_number(const json& object, const std::string& key, const std::string& where) const {
        const std::int64_t n = number(object, key, where);
        if (n < std::numeric_limits<int>::min() / 4 || n > std::numeric_limits<int>::max() / 4) {
            fail(path(where, key), "is out of range");
        }
        return static_cast<int>(n);
    }

    template <std::size_t N>
    std::array<std::int64_t, N> numbers(const json& object, const std::string& key, const std::string& where) const {
        const json& value = array(object, key, where);
        if (value.size() != N) fail(path(where, key), fmt::format("must have {} elements", N));
        std::array<std::int64_t, N> out{};
        for (std::size_t i = 0; i < N; ++i) {
            if (!value[i].is_number()) fail(fmt::format("{}[{}]", path(where, key), i), "is not a number");
            const double d = std::trunc(value[i].get<double>());
            if (!(d > -9.0e18 && d < 9.0e18)) fail(fmt::format("{}[{}]", path(where, key), i), "is out of range");
            out[i] = static_cast<std::int64_t>(d);
        }
        return out;
    }

    [[noreturn]] void fail(const std::string& where, const std::string& what) const {
        throw UserError(fmt::format("{}: '{}' {}", source_, where, what));
    }

    static std::string path(const std::string& where, const std::string& key) {
        return where.empty() ? key : where + "." + key;
    }

private:
    std::string source_;
};

Cell read_cell(const Reader& r, const json& j, const std::string& where) {
    return {r.small_number(j, "x", where), r.small_number(j, "y", where)};
}

std::vector<Gold> read_golds(const Reader& r, const json& field, const std::string& key) {
    std::vector<Gold> golds;
    const json& list = r.array(field, key, "field");
    for (std::size_t i = 0; i < list.size(); ++i) {
        const std::string where = fmt::format("field.{}[{}]", key, i);
        golds.push_back({read_cell(r, list[i], where), r.small_number(list[i], "amount", where)});
    }
    return golds;
}

Field read_field(const Reader& r, const json& root) {
    const json& f = r.member(root, "field", "");
    Field field;
    field.size = r.small_number(f, "size", "field");
    field.steps = r.small_number(f, "steps", "field");
    field.think_time_ms = r.number(f, "thinkTime", "field");
    if (field.size < 1) r.fail("field.size", "must be at least 1");
    if (field.steps < 0) r.fail("field.steps", "must not be negative");
    if (field.think_time_ms < 0) r.fail("field.thinkTime", "must not be negative");
    const json& agents = r.array(f, "agents", "field");
    if (agents.size() != kAgents) r.fail("field.agents", "must list 4 agents (samurai 0, samurai 1, dog 0, dog 1)");
    for (int a = 0; a < kAgents; ++a) {
        const std::string where = fmt::format("field.agents[{}]", a);
        field.agents[a].cell = read_cell(r, agents[a], where);
        field.agents[a].direction = r.small_number(agents[a], "direction", where);
        const Cell c = field.agents[a].cell;
        // The manager does not check this; an agent off the field is a broken file, not a game.
        if (c.x < 0 || c.y < 0 || c.x >= field.size || c.y >= field.size) r.fail(where, "is outside the field");
    }
    const json& holes = r.array(f, "holes", "field");
    for (std::size_t i = 0; i < holes.size(); ++i) {
        field.holes.push_back(read_cell(r, holes[i], fmt::format("field.holes[{}]", i)));
    }
    field.known = read_golds(r, f, "known");
    field.hidden = read_golds(r, f, "hidden");
    return field;
}

json cell_json(Cell c) { return json{{"x", c.x}, {"y", c.y}}; }
json gold_json(const Gold& g) { return json{{"amount", g.amount}, {"x", g.cell.x}, {"y", g.cell.y}}; }
json agent_json(const Agent& a) { return json{{"direction", a.direction}, {"x", a.cell.x}, {"y", a.cell.y}}; }

}  // namespace

GameLog parse_game_log(std::string_view text, const std::string& source) {
    const Reader r(source);
    json root;
    root = parse_json_text(text, source);
    GameLog log;
    log.field = read_field(r, root);
    const json& plays = r.array(root, "plays", "");
    for (std::size_t i = 0; i < plays.size(); ++i) {
        const std::string where = fmt::format("plays[{}]", i);
        const json& p = plays[i];
        LoggedPlay play;
        play.step = r.small_number(p, "step", where);
        play.plans = r.numbers<kAgents>(p, "plans", where);
        const auto actions = r.numbers<kAgents>(p, "actions", where);
        for (int a = 0; a < kAgents; ++a) {
            play.actions[a] = static_cast<int>(std::clamp<std::int64_t>(actions[a], -1000, 1000));
        }
        const auto scores = r.numbers<2>(p, "scores", where);
        for (int t = 0; t < 2; ++t) play.scores[t] = static_cast<int>(std::clamp<std::int64_t>(scores[t], -1, 1 << 30));
        const json& agents = r.array(p, "agents", where);
        if (agents.size() != kAgents) r.fail(where + ".agents", "must have 4 elements");
        for (int a = 0; a < kAgents; ++a) {
            const std::string agent_where = fmt::format("{}.agents[{}]", where, a);
            play.agents[a].cell = read_cell(r, agents[a], agent_where);
            // Plays in pre-release logs (files.html, e.g. tt-maze2's stale plays) have no
            // direction; the manager's verify mode never reads agents at all.
            if (agents[a].is_object() && !agents[a].contains("direction")) {
                play.directions_logged = false;
            } else {
                play.agents[a].direction = r.small_number(agents[a], "direction", agent_where);
            }
        }
        // Older logs (files.html) carry one timeLeft number; it is never compared, so accept both.
        if (p.contains("timeLeft") && p["timeLeft"].is_array()) play.time_left = r.numbers<kAgents>(p, "timeLeft", where);
        log.plays.push_back(play);
    }
    return log;
}

GameLog read_game_log(const std::filesystem::path& path) {
    if (!std::ifstream(path, std::ios::binary))
        throw UserError("cannot read SamurAI field/log file '" + path.string() + "': " + unreadable_reason(path));
    // A log of the longest game the manager plays (a few hundred steps) is under 1 MiB.
    return parse_game_log(read_text_file(path, std::size_t{16} << 20), path.string());
}

LoggedPlay to_logged_play(const StepRecord& record, const std::array<std::int64_t, kAgents>& time_left) {
    LoggedPlay play;
    play.step = record.step;
    for (int a = 0; a < kAgents; ++a) play.plans[a] = record.plans[a];
    play.actions = record.actions;
    play.agents = record.agents;
    play.scores = record.scores;
    play.time_left = time_left;
    return play;
}

std::string game_log_json(const GameLog& log) {
    const Field& f = log.field;
    json field = json::object();
    field["size"] = f.size;
    field["steps"] = f.steps;
    field["thinkTime"] = f.think_time_ms;
    field["agents"] = json::array();
    for (const auto& a : f.agents) field["agents"].push_back(agent_json(a));
    field["holes"] = json::array();
    for (const auto& h : f.holes) field["holes"].push_back(cell_json(h));
    field["known"] = json::array();
    for (const auto& g : f.known) field["known"].push_back(gold_json(g));
    field["hidden"] = json::array();
    for (const auto& g : f.hidden) field["hidden"].push_back(gold_json(g));

    json plays = json::array();
    for (const auto& p : log.plays) {
        json play = json::object();
        play["step"] = p.step;
        play["plans"] = p.plans;
        play["actions"] = p.actions;
        play["scores"] = p.scores;
        play["timeLeft"] = p.time_left;
        play["agents"] = json::array();
        for (const auto& a : p.agents) play["agents"].push_back(agent_json(a));
        plays.push_back(std::move(play));
    }
    // nlohmann's default object keeps keys sorted, as picojson's std::map does in the manager.
    const json root{{"field", std::move(field)}, {"filetype", "SamurAI Dig Here Game Log"}, {"plays", std::move(plays)}};
    return root.dump() + "\n";
}

void write_game_log(const std::filesystem::path& path, const GameLog& log) {
    if (path.has_parent_path()) std::filesystem::create_directories(path.parent_path());
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    if (!out) throw UserError("cannot write SamurAI game log '" + path.string() + "'");
    out << game_log_json(log);
}

}  // namespace arb::samurai
