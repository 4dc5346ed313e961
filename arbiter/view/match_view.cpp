#include "arbiter/view/match_view.hpp"
#include "arbiter/view/koehandel_view.hpp"

#include <algorithm>
#include <optional>
#include <sstream>

#include <fmt/format.h>

#include "core/json_text.hpp"
#include "core/match_record.hpp"
#include "core/user_error.hpp"
#include "rules/ants/ants_replay.hpp"
#include "rules/planowanie/planowanie_replay.hpp"
#include "rules/registry.hpp"
#include "rules/samurai/samurai_replay.hpp"

namespace arb::view {
namespace fs = std::filesystem;
namespace {

constexpr std::size_t kMaxInputBytes = std::size_t{64} << 20;  // the largest replay any game writes
constexpr std::size_t kMaxTranscriptLines = 2'000'000;
constexpr const char* kUnknownInput =
    "not a match record, nor a replay or log of a game the viewer knows (an Ants replay, a Planowanie log, a "
    "SamurAI log, a smart-dog transcript)";

std::string read_input(const fs::path& path) { return read_text_file(path, kMaxInputBytes); }

bool is_json_text(const std::string& text) {
    const auto first = text.find_first_not_of(" \t\r\n");
    return first != std::string::npos && text[first] == '{';
}

std::vector<std::string> split_lines(const std::string& text) {
    std::vector<std::string> lines;
    std::istringstream in(text);
    std::string line;
    while (std::getline(in, line)) {
        if (!line.empty() && line.back() == '\r') line.pop_back();
        lines.push_back(std::move(line));
    }
    return lines;
}

// A smart-dog wire transcript: "P<n> > ..." (sent by player n), "P<n> < ..." (sent to it), "# ...".
bool is_transcript_line(const std::string& line) {
    if (line.empty() || line[0] == '#') return true;
    return line.size() >= 4 && line[0] == 'P' && line[1] >= '1' && line[1] <= '9' && line[2] == ' ' &&
           (line[3] == '>' || line[3] == '<');
}

// The first line after the leading notes says whether a text is meant as a transcript; the
// others are then checked one by one.
bool looks_like_transcript(const std::string& text) {
    std::size_t at = 0;
    while (at < text.size() && (text[at] == '#' || text[at] == '\n')) {
        const std::size_t end = text.find('\n', at);
        if (end == std::string::npos) return false;
        at = end + 1;
    }
    const std::string first = text.substr(at, text.find('\n', at) - at);
    return first.size() >= 4 && first[0] == 'P' && is_transcript_line(first);
}

nlohmann::json smartdog_replay(const std::string& text, const fs::path& path) {
    std::vector<std::string> lines = split_lines(text);
    if (lines.size() > kMaxTranscriptLines)
        throw UserError(fmt::format("{}: {} lines, at most {}", path.string(), lines.size(), kMaxTranscriptLines));
    bool any = false;
    for (std::size_t i = 0; i < lines.size(); ++i) {
        if (!is_transcript_line(lines[i]))
            throw UserError(fmt::format("{}:{}: not a smart-dog transcript line (\"P<n> > ...\", \"P<n> < ...\" or "
                                        "\"# ...\")",
                                        path.string(), i + 1));
        any = any || lines[i].rfind("P", 0) == 0;
    }
    if (!any) throw UserError(path.string() + ": an empty smart-dog transcript");
    return {{"lines", lines}};
}

// Game 2 of a SamurAI match is written beside game 1 as NAME-game2.EXT.
fs::path samurai_second_game(const fs::path& first) {
    return first.parent_path() / (first.stem().string() + "-game2" + first.extension().string());
}

nlohmann::json samurai_cells(const std::vector<samurai::Cell>& cells) {
    nlohmann::json out = nlohmann::json::array();
    for (const auto& c : cells) out.push_back({c.x, c.y});
    return out;
}

nlohmann::json samurai_gold(const std::vector<samurai::Gold>& gold) {
    nlohmann::json out = nlohmann::json::array();
    for (const auto& g : gold) out.push_back({g.cell.x, g.cell.y, g.amount});
    return out;
}

// The field after each step, from our engine fed the logged plans: the log itself records only
// the agents and the scores, not where holes and gold are.
nlohmann::json samurai_states(const samurai::GameLog& log) {
    nlohmann::json states = nlohmann::json::array();
    samurai::GameState state = samurai::initial_state(log.field);
    const auto add = [&](const samurai::GameState& s) {
        nlohmann::json agents = nlohmann::json::array();
        for (const auto& a : s.agents) agents.push_back({a.cell.x, a.cell.y, a.direction});
        states.push_back({{"holes", samurai_cells(s.holes)}, {"known", samurai_gold(s.known)},
                          {"hidden", samurai_gold(s.hidden)}, {"agents", std::move(agents)},
                          {"scores", {s.scores[0], s.scores[1]}}, {"actions", s.last_actions}});
    };
    add(state);
    for (const auto& play : log.plays) {
        if (samurai::game_over(log.field, state)) break;
        samurai::play_step(log.field, state, play.plans);
        add(state);
    }
    return states;
}

nlohmann::json samurai_replay(const fs::path& path) {
    nlohmann::json games = nlohmann::json::array();
    for (const fs::path& p : {path, samurai_second_game(path)}) {
        if (p != path && !fs::is_regular_file(p)) break;
        const std::string text = read_input(p);
        const samurai::GameLog log = samurai::parse_game_log(text, p.string());
        nlohmann::json json = parse_json_text(text, p.string());
        games.push_back({{"size", log.field.size}, {"steps", log.field.steps}, {"plays", json["plays"]},
                         {"states", samurai_states(log)}});
    }
    return {{"games", std::move(games)}};
}

// A replay or log file of one game, checked by that game's reader. Empty when `json` is no
// replay the viewer knows.
std::optional<MatchView> view_of_replay_json(const nlohmann::json& json, const fs::path& path) {
    MatchView view;
    if (json.contains("replaydata") || json.value("challenge", "") == "ants") {
        ants::parse_recorded_game(json, path.string());
        view.game = "ants";
        view.data["replay"] = json;
    } else if (json.value("filetype", "") == "SamurAI Dig Here Game Log") {
        view.game = "samurai";
        view.data["replay"] = samurai_replay(path);
    } else if (json.value("game", "") == "planowanie" && json.contains("deals")) {
        planowanie::game_log_from_json(json);
        view.game = "planowanie";
        view.data["replay"] = json;
    } else {
        return std::nullopt;
    }
    return view;
}

MatchView view_of_replay_file(const fs::path& path, const std::string& expected_game) {
    const std::string text = read_input(path);
    MatchView view;
    if (is_json_text(text)) {
        auto found = view_of_replay_json(parse_json_text(text, path.string()), path);
        if (!found) throw UserError(path.string() + ": " + kUnknownInput);
        view = std::move(*found);
    } else if (looks_like_transcript(text)) {
        view.game = "smartdog";
        view.data["replay"] = smartdog_replay(text, path);
    } else {
        throw UserError(path.string() + ": " + kUnknownInput);
    }
    if (!expected_game.empty() && view.game != expected_game)
        throw UserError(fmt::format("{}: a {} replay, where its match record says {}", path.string(), view.game,
                                    expected_game));
    return view;
}

// The replay a record names: by its name inside the record's folder first (a folder moved or
// copied keeps its own files), then as written, relative to that folder, or by the game's usual
// name there.
fs::path find_replay(const MatchRecord& record, const fs::path& record_path) {
    const fs::path folder = record_path.parent_path();
    std::vector<fs::path> candidates;
    if (!record.replay_path.empty()) {
        const fs::path named = record.replay_path;
        candidates.push_back(folder / named.filename());
        candidates.push_back(named);
        candidates.push_back(folder / named);
    }
    candidates.push_back(folder / find_game(record.game).replay_file);
    for (const fs::path& p : candidates) {
        std::error_code ec;
        if (fs::exists(p, ec)) return p;
    }
    throw UserError(fmt::format("{}: the match's replay {} is not there (was the match played with --replay?)",
                                record_path.string(),
                                record.replay_path.empty() ? candidates.back().string() : record.replay_path));
}

std::string title_of(const MatchView& view, const fs::path& input) {
    std::vector<std::string> names;
    const nlohmann::json& record = view.data["record"];
    if (record.is_object())
        for (const auto& p : record.value("participants", nlohmann::json::array())) names.push_back(p.value("bot", "?"));
    std::string title = view.game;
    if (!names.empty()) title += ": " + fmt::format("{}", fmt::join(names, " vs "));
    if (record.is_object() && record.contains("seed")) title += fmt::format(", seed {}", record["seed"].dump());
    if (!record.is_object()) title += ": " + input.filename().string();
    return title;
}

MatchView view_of_record(const nlohmann::json& json, const fs::path& path) {
    MatchRecord record;
    try {
        record = json.get<MatchRecord>();
        check_record(record);
    } catch (const nlohmann::json::exception& e) {
        throw UserError(fmt::format("{}: not a match record ({})", path.string(), e.what()));
    }
    find_game(record.game);  // UserError naming the known games
    MatchView view;
    if (record.game == "koehandel") {  // a folder of player logs, replayed with the record's seed
        view.game = "koehandel";
        view.data["replay"] = koehandel_replay(record, find_replay(record, path));
    } else {
        view = view_of_replay_file(find_replay(record, path), record.game);
    }
    view.data["record"] = json;
    view.folder = path.parent_path();
    return view;
}

}  // namespace

MatchView load_match_view(const fs::path& input) {
    std::error_code ec;
    if (!fs::exists(input, ec)) throw UserError(input.string() + ": no such file or folder");
    MatchView view;
    if (fs::is_directory(input, ec)) {
        const fs::path record = input / "record.json";
        if (!fs::is_regular_file(record, ec))
            throw UserError(input.string() + ": no record.json in this folder (give a match folder, a record or a replay)");
        view = view_of_record(parse_json_text(read_input(record), record.string()), record);
    } else {
        const std::string text = read_input(input);
        if (is_json_text(text)) {
            nlohmann::json json = parse_json_text(text, input.string());
            if (json.contains("participants") && json.contains("game")) view = view_of_record(json, input);
            else view = view_of_replay_file(input, "");
        } else {
            view = view_of_replay_file(input, "");
        }
    }
    view.data["game"] = view.game;
    if (!view.data.contains("record")) view.data["record"] = nullptr;
    view.data["title"] = title_of(view, input);
    return view;
}

fs::path default_page_path(const fs::path& input) {
    std::error_code ec;
    if (fs::is_directory(input, ec)) return input / "viewer.html";
    if (input.filename() == "record.json") return input.parent_path() / "viewer.html";
    // A replay is often somewhere read-only or shared (a data set): its page goes here.
    return fs::path(input.filename()).replace_extension(".html");
}

}  // namespace arb::view
