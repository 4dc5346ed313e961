#pragma once
// One match of a game of the registry with in-process bots (every_game_cases), for the generic
// game tests: its result, the table's transcript and the replay it wrote.
#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include "core/match_record.hpp"
#include "rules/registry.hpp"
#include "tests/rules/every_game_support.hpp"
#include "tests/test_scratch.hpp"

namespace every_game {

using namespace arb;
namespace fs = std::filesystem;

// Where an HTTP seat's reply ends: the end of the body. A scripted seat's output has no such end,
// so each output gets this line after it and the framer stops there (an empty body is a reply
// with no lines, as over HTTP).
inline constexpr std::string_view kEndOfBody = "\x01end-of-body";

// The ScriptedTable with HTTP seats' framing: the referee's framer sees the body's lines and the
// reply is complete at the body's end whatever the framer says.
class InProcessTable final : public Table {
public:
    InProcessTable(std::vector<ScriptedTable::Seat> seats, std::vector<bool> http) : http_(std::move(http)) {
        for (std::size_t s = 0; s < seats.size(); ++s) {
            if (!http_[s]) continue;
            seats[s].bot = [bot = std::move(seats[s].bot)](std::string_view request) {
                ScriptedAnswer answer = bot(request);
                if (answer.fault == ReplyStatus::ok) answer.output += std::string(kEndOfBody) + "\n";
                return answer;
            };
        }
        inner_ = std::make_unique<ScriptedTable>(std::move(seats));
    }
    int size() const override { return inner_->size(); }
    const SeatInfo& info(int seat) const override { return inner_->info(seat); }
    SeatStatus status(int seat) const override { return inner_->status(seat); }
    std::string retire_detail(int seat) const override { return inner_->retire_detail(seat); }
    bool send(int seat, std::string_view text) override { return inner_->send(seat, text); }
    Reply ask(int seat, std::string_view text, ReplyFramer framer) override {
        return inner_->ask(seat, text, framed(seat, std::move(framer)));
    }
    std::vector<Reply> ask_all(std::span<const Request> requests) override {
        std::vector<Request> framed_requests(requests.begin(), requests.end());
        for (auto& r : framed_requests) r.framer = framed(r.seat, std::move(r.framer));
        return inner_->ask_all(framed_requests);
    }
    Millis time_left(int seat) const override { return inner_->time_left(seat); }
    void retire(int seat, SeatStatus why, std::string_view detail) override { inner_->retire(seat, why, detail); }
    void note(std::string_view text) override { inner_->note(text); }
    void mark_step(int step) override { inner_->mark_step(step); }
    const std::vector<std::string>& transcript() const { return inner_->transcript(); }

private:
    ReplyFramer framed(int seat, ReplyFramer framer) const {
        if (!http_[static_cast<std::size_t>(seat)]) return framer;
        return [framer = std::move(framer), done = false](std::string_view line) mutable {
            if (line == kEndOfBody) return Frame::end_skip;
            if (done) return Frame::skip;  // the framer's reply ended; the rest of the body is not read
            const Frame f = framer(line);
            if (f == Frame::end_keep || f == Frame::end_skip) {
                done = true;
                return f == Frame::end_keep ? Frame::keep : Frame::skip;
            }
            return f;
        };
    }

    std::unique_ptr<ScriptedTable> inner_;
    std::vector<bool> http_;
};

enum class Fault { none, timeout, crash, overflow, illegal };

inline const char* fault_name(Fault f) {
    switch (f) {
        case Fault::none: return "none";
        case Fault::timeout: return "timeout";
        case Fault::crash: return "crash";
        case Fault::overflow: return "overflow";
        case Fault::illegal: return "illegal reply";
    }
    return "?";
}

inline ScriptedBot faulty_bot(Fault fault, const GameCase& game) {
    return [fault, reply = game.illegal_reply](std::string_view) {
        switch (fault) {
            case Fault::timeout: return ScriptedAnswer::timeout();
            case Fault::crash: return ScriptedAnswer::crash();
            case Fault::overflow: return ScriptedAnswer{"", ReplyStatus::overflow};
            default: return ScriptedAnswer::text(reply);
        }
    };
}

struct Played {
    MatchRequest request;
    RefereeResult result;
    std::vector<std::string> transcript;
    std::map<std::string, std::string> replay;  // file name -> bytes (a folder for Koehandel)
    fs::path replay_path;
};

inline fs::path scratch(const std::string& name) { return arb::testing::fresh_scratch(name); }

inline std::map<std::string, std::string> read_replay(const fs::path& path) {
    std::map<std::string, std::string> files;
    const auto read = [](const fs::path& p) {
        std::ifstream in(p, std::ios::binary);
        std::ostringstream s;
        s << in.rdbuf();
        return s.str();
    };
    if (fs::is_directory(path)) {
        for (const auto& e : fs::directory_iterator(path)) files[e.path().filename().string()] = read(e.path());
    } else {
        for (const auto& e : fs::directory_iterator(path.parent_path()))  // SamurAI writes game 2 beside game 1
            if (e.path().filename().string().starts_with(path.stem().string()))
                files[e.path().filename().string()] = read(e.path());
    }
    return files;
}

// One match of the game in `dir`: bot 0 has the fault (none: every bot plays at random).
inline Played play(const GameCase& game, std::uint64_t seed, const fs::path& dir, Fault fault = Fault::none) {
    const GameDescriptor& descriptor = find_game(game.name);
    MatchRequest request;
    request.game = game.name;
    request.seed = seed;
    for (int b = 0; b < game.bots; ++b) {
        BotSpec bot;
        bot.name = "bot" + std::to_string(b);
        bot.command = "/bin/true";
        bot.argv = {"/bin/true"};
        request.bots.push_back(bot);
    }
    auto options = game.options;
    if (fault == Fault::illegal) options.insert(game.illegal_options.begin(), game.illegal_options.end());
    request.options = GameOptions(descriptor.options, options);
    request.replay_path = dir / descriptor.replay_file;
    const std::vector<SeatPlan> plans = descriptor.plan(request);
    std::vector<ScriptedTable::Seat> seats;
    std::vector<bool> http;
    for (std::size_t s = 0; s < plans.size(); ++s) {
        const SeatPlan& plan = plans[s];
        ScriptedTable::Seat seat;
        seat.info = {plan.bot, request.bots[static_cast<std::size_t>(plan.bot)].name, plan.label};
        // The time a seat is told it has left: its budget, or its limit per reply.
        seat.budget = plan.time.total_budget.value_or(plan.time.per_request.value_or(Millis{1000}));
        seat.bot = plan.bot == 0 && fault != Fault::none ? faulty_bot(fault, game)
                                                         : game.random_bot(derive_seed(seed, {s}));
        seats.push_back(std::move(seat));
        http.push_back(plan.channel == ChannelKind::http_server);
    }
    InProcessTable table(std::move(seats), std::move(http));
    Played played;
    played.request = request;
    played.result = descriptor.referee(request, table);
    played.transcript = table.transcript();
    played.replay_path = request.replay_path;
    played.replay = read_replay(request.replay_path);
    return played;
}

}  // namespace every_game
