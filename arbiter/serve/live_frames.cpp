#include "arbiter/serve/live_frames.hpp"

#include <sys/stat.h>

#include <fmt/format.h>

#include "arbiter/view/bot_io.hpp"
#include "arbiter/view/match_view.hpp"
#include "arbiter/view/viewer_page.hpp"
#include "core/json_text.hpp"
#include "core/match_record.hpp"
#include "core/user_error.hpp"
#include "rules/live_replay.hpp"

namespace arb::serve {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;

std::string fingerprint(const fs::path& path) {
    struct stat st {};
    if (::stat(path.c_str(), &st) != 0) return {};
    return fmt::format("{}:{}.{}:{}", st.st_size, st.st_mtim.tv_sec, st.st_mtim.tv_nsec, st.st_ino);
}

}  // namespace

void LiveBoard::look(int step, int delay) {
    const std::string now = fingerprint(file_.live_replay);
    if (!now.empty() && now != fingerprint_) {
        fingerprint_ = now;
        try {
            const std::string contents = read_text_file(file_.live_replay, kMaxReplayBytes);
            if (const auto live = split_live_replay(contents);
                live && (snapshots_.empty() || live->step > snapshots_.back().step)) {
                snapshots_.push_back({live->step, std::string(live->text)});
                bytes_ += live->text.size();
            }
        } catch (const UserError&) {
            // Gone between the look and the read (the match ended), or too large: the last one stands.
        }
    }
    // Keep the one a delayed page shows now and the newer ones it will show; thin the newer ones
    // when there are too many (the page then moves in larger strides).
    const int upto = step - delay;
    while (snapshots_.size() > 1 && snapshots_[1].step <= upto) {
        bytes_ -= snapshots_.front().text.size();
        snapshots_.pop_front();
    }
    while (snapshots_.size() > 2 && (snapshots_.size() > kMaxSnapshots || bytes_ > kMaxBytes)) {
        bytes_ -= snapshots_[1].text.size();
        snapshots_.erase(snapshots_.begin() + 1);
    }
}

const LiveBoard::Snapshot* LiveBoard::shown(int upto) const {
    const Snapshot* out = nullptr;
    for (const auto& s : snapshots_)
        if (s.step <= upto) out = &s;
    return out;
}

json LiveBoard::replay_data(const Snapshot& s) const {
    const GameViewer& viewer = game_.viewer;
    if (game_.viewer.replay_is_folder) {
        if (!viewer.read_live_folder) throw UserError(game_.name + ": no live viewer");
        MatchRecord record;
        record.game = game_.name;
        record.seed = file_.seed;
        record.deal_set = file_.deal_set;
        record.config_json = file_.options_json;
        record.participants.resize(file_.bots.size());
        return viewer.read_live_folder(record, file_.folder / game_.replay_file, s.step);
    }
    std::optional<json> parsed;
    const auto first = s.text.find_first_not_of(" \t\r\n");
    if (first != std::string::npos && (s.text[first] == '{' || s.text[first] == '['))
        parsed = parse_json_text(s.text, file_.live_replay.string());
    const ReplayText r{file_.live_replay, s.text, parsed && parsed->is_object() ? &*parsed : nullptr};
    if (viewer.read_live) return viewer.read_live(r);
    if (!viewer.read || !viewer.recognises || !viewer.recognises(r)) throw UserError(game_.name + ": no live viewer");
    return viewer.read(r);
}

json LiveBoard::bot_io_upto(int step) const {
    MatchRecord record;
    for (const auto& bot : file_.bots) record.participants.emplace_back().bot = bot;
    try {
        json io = view::bot_io_json(file_.transcript, record);
        json& steps = io["steps"];
        for (auto it = steps.begin(); it != steps.end();) {
            if (std::stoi(it.key()) > step) it = steps.erase(it);
            else ++it;
        }
        return io;
    } catch (const UserError& e) {  // the board is still worth showing
        return {{"seats", json::array()}, {"steps", json::object()}, {"cut", e.what()}};
    }
}

std::optional<std::string> LiveBoard::page(int upto, const std::string& title) {
    const Snapshot* s = shown(upto);
    if (!s) return std::nullopt;
    if (page_step_ == s->step) return page_;
    try {
        view::MatchView v;
        v.game = game_.name;
        v.folder = file_.folder;
        // A record of the seats only (names, playing), and the bots' exchanges up to the board's
        // step: none of a later step, which a delayed page must not show.
        json participants = json::array();
        for (const auto& bot : file_.bots) participants.push_back({{"bot", bot}, {"status", "playing"}});
        v.data = {{"game", game_.name},
                  {"title", fmt::format("{} (live, step {})", title, s->step)},
                  {"live", true},
                  {"record", {{"participants", std::move(participants)}}},
                  {"replay", replay_data(*s)}};
        v.data["io"] = bot_io_upto(s->step);
        page_ = view::viewer_page(v);
        page_step_ = s->step;
        return page_;
    } catch (const std::exception&) {
        return std::nullopt;  // a replay its viewer refuses, or a game this build does not know
    }
}

}  // namespace arb::serve
