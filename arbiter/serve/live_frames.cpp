#include "arbiter/serve/live_frames.hpp"

#include <fmt/format.h>

#include "arbiter/serve/file_stamp.hpp"
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

// The running match as a record holds it so far: its game, seed, options and bots.
MatchRecord record_of(const std::string& game, const tournament::LiveMatchFile& file) {
    MatchRecord record;
    record.game = game;
    record.seed = file.seed;
    record.deal_set = file.deal_set;
    record.config_json = file.options_json;
    for (const auto& bot : file.bots) record.participants.emplace_back().bot = bot;
    return record;
}

}  // namespace

void LiveBoard::look(int step, int delay) {
    const std::string now = file_stamp(file_.live_replay.string());
    if (!now.empty() && now != stamp_) {
        stamp_ = now;
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
        return viewer.read_live_folder(record_of(game_.name, file_), file_.folder / game_.replay_file, s.step);
    }
    std::optional<json> parsed;
    if (view::is_json_text(s.text)) parsed = parse_json_text(s.text, file_.live_replay.string());
    const ReplayText r{file_.live_replay, s.text, parsed ? &*parsed : nullptr};
    if (viewer.read_live) return viewer.read_live(r);
    if (!viewer.read || !viewer.recognises || !viewer.recognises(r)) throw UserError(game_.name + ": no live viewer");
    return viewer.read(r);
}

json LiveBoard::bot_io_upto(int step) const {
    try {
        json io = view::bot_io_json(file_.transcript, record_of(game_.name, file_));
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
