#include "arbiter/view/match_view.hpp"

#include <algorithm>
#include <optional>

#include <fmt/format.h>

#include "arbiter/match/match_locator.hpp"
#include "arbiter/view/bot_io.hpp"
#include "core/json_text.hpp"
#include "core/match_record.hpp"
#include "core/user_error.hpp"
#include "rules/registry.hpp"

namespace arb::view {
namespace fs = std::filesystem;
namespace {

std::string read_input(const fs::path& path) { return read_text_file(path, kMaxReplayBytes); }

std::string unknown_input(const fs::path& path) {
    return fmt::format("{}: not a match record, nor a replay or log of a game the viewer knows ({})", path.string(),
                       replay_kinds());
}

// A replay or log file, read by the game whose viewer recognises it.
MatchView view_of_replay_file(const fs::path& path, const std::string& expected_game) {
    ReplayText replay{path, read_input(path)};
    std::optional<nlohmann::json> json;
    if (is_json_text(replay.text)) json = parse_json_text(replay.text, path.string());
    replay.json = json ? &*json : nullptr;
    const auto game = std::find_if(all_games().begin(), all_games().end(), [&](const GameDescriptor& g) {
        return g.viewer.recognises && g.viewer.recognises(replay);
    });
    if (game == all_games().end()) throw UserError(unknown_input(path));
    if (!expected_game.empty() && game->name != expected_game)
        throw UserError(fmt::format("{}: a {} replay, where its match record says {}", path.string(), game->name,
                                    expected_game));
    MatchView view;
    view.game = game->name;
    view.data["replay"] = game->viewer.read(replay);
    return view;
}

// The replay a record names (match_locator.hpp says where it is looked for).
fs::path find_replay(const MatchRecord& record, const fs::path& record_path) {
    const std::string usual = find_game(record.game).replay_file;
    if (auto found = find_record_file(record_path, record.replay_path, usual)) return *found;
    throw UserError(fmt::format("{}: the match's replay is not there: not {} (as the record names it), nor beside the "
                                "record; the record was written {}",
                                record_path.string(), record.replay_path.empty() ? usual : record.replay_path,
                                record.replay_path.empty() ? "without a replay" : "with one, since moved or deleted"));
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
    const GameViewer& viewer = find_game(record.game).viewer;  // UserError naming the known games
    MatchView view;
    if (viewer.replay_is_folder) {  // a folder of logs, replayed with the record's seed
        view.game = record.game;
        view.data["replay"] = viewer.read_folder(record, find_replay(record, path));
    } else {
        view = view_of_replay_file(find_replay(record, path), record.game);
    }
    view.data["record"] = json;
    view.folder = path.parent_path();
    if (auto transcript = find_record_file(path, record.transcript_path, "transcript.txt")) {
        try {
            view.data["io"] = bot_io_json(*transcript, record);
        } catch (const UserError& e) {  // the board is still worth showing
            view.data["io"] = {{"seats", nlohmann::json::array()}, {"steps", nlohmann::json::object()}, {"cut", e.what()}};
        }
    }
    return view;
}

}  // namespace

std::string replay_kinds() {
    std::vector<std::string> files, folders;
    for (const auto& game : all_games()) {
        if (game.viewer.recognises) files.push_back(game.viewer.kind);
        else if (game.viewer.replay_is_folder) folders.push_back(game.viewer.kind);
    }
    std::string kinds = fmt::format("{}", fmt::join(files, ", "));
    if (!folders.empty()) kinds += fmt::format("; {} only through their match's record", fmt::join(folders, ", "));
    return kinds;
}

bool is_json_text(std::string_view text) {
    const auto first = text.find_first_not_of(" \t\r\n");
    return first != std::string_view::npos && text[first] == '{';
}

MatchView load_match_view(const fs::path& input) {
    std::error_code ec;
    if (!fs::exists(input, ec)) throw UserError(input.string() + ": no such file or folder");
    MatchView view;
    if (fs::is_directory(input, ec)) {
        const fs::path record = find_record(input);  // UserError saying what to give instead
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
    if (fs::is_directory(input, ec)) {
        // A folder of player logs: the page goes into the match's folder, beside its record.
        if (const auto record = record_in_folder(input)) return record->parent_path() / "viewer.html";
        return input / "viewer.html";
    }
    if (input.filename() == "record.json") return input.parent_path() / "viewer.html";
    // A replay is often somewhere read-only or shared (a data set): its page goes here.
    return fs::path(input.filename()).replace_extension(".html");
}

}  // namespace arb::view
