#include "arbiter/tournament/preflight.hpp"

#include <stdlib.h>

#include <filesystem>
#include <fstream>
#include <memory>
#include <map>

#include <fmt/format.h>

#include "arbiter/match/match_runner.hpp"
#include "arbiter/tournament/worker_pool.hpp"

namespace arb::tournament {
namespace {

namespace fs = std::filesystem;

// Thrown through the referee once every seat got through the set-up: ends the match early.
struct SetupDone {};

// A Table that watches the referee's exchanges: a seat has passed once it answered a request
// and the referee went on to make another request without retiring it.
class SetupWatch final : public Table {
public:
    explicit SetupWatch(Table& table) : t_(table), answered_(table.size()), passed_(table.size()) {}

    int size() const override { return t_.size(); }
    const SeatInfo& info(int seat) const override { return t_.info(seat); }
    SeatStatus status(int seat) const override { return t_.status(seat); }
    std::string retire_detail(int seat) const override { return t_.retire_detail(seat); }
    bool send(int seat, std::string_view text) override { return t_.send(seat, text); }
    Millis time_left(int seat) const override { return t_.time_left(seat); }
    void retire(int seat, SeatStatus why, std::string_view detail) override { t_.retire(seat, why, detail); }
    void note(std::string_view text) override { t_.note(text); }

    Reply ask(int seat, std::string_view text, ReplyFramer framer) override {
        next_request();
        Reply r = t_.ask(seat, text, std::move(framer));
        if (r.ok()) answered_[seat] = true;
        return r;
    }
    std::vector<Reply> ask_all(std::span<const Request> requests) override {
        next_request();
        std::vector<Reply> replies = t_.ask_all(requests);
        for (std::size_t i = 0; i < replies.size(); ++i)
            if (replies[i].ok()) answered_[requests[i].seat] = true;
        return replies;
    }

    // After the referee ended or was stopped: "" or why the seat failed its set-up.
    std::string failure(int seat) const {
        if (passed_[seat] || t_.status(seat) == SeatStatus::ok) return "";
        const std::string detail = t_.retire_detail(seat);
        return fmt::format("{}{}", to_string(t_.status(seat)), detail.empty() ? "" : ": " + detail);
    }

private:
    void next_request() {
        bool all = true;
        for (int s = 0; s < size(); ++s) {
            if (answered_[s] && t_.status(s) == SeatStatus::ok) passed_[s] = true;
            all = all && (passed_[s] || t_.status(s) != SeatStatus::ok);
        }
        if (all) throw SetupDone{};
    }

    Table& t_;
    std::vector<char> answered_, passed_;
};

struct Probe {
    MatchRequest request;
    std::vector<std::string> failures;  // per table seat, filled by the referee wrapper
};

// The most time a seat has for the whole pre-flight: a game's set-up budget can be minutes
// (Planowanie's 180 s match budget), and a silent bot must not hold the start for that long.
constexpr Millis kPreflightBudget{10000};

GameDescriptor watched(const GameDescriptor& game, Probe& probe) {
    GameDescriptor g = game;
    g.plan = [plan = game.plan](const MatchRequest& r) {
        std::vector<SeatPlan> seats = plan(r);
        for (auto& s : seats) s.time.total_budget = std::min(s.time.total_budget.value_or(kPreflightBudget), kPreflightBudget);
        return seats;
    };
    g.referee = [referee = game.referee, &probe](const MatchRequest& r, Table& table) {
        SetupWatch watch(table);
        RefereeResult result;
        try {
            result = referee(r, watch);
        } catch (const SetupDone&) {
            result.participants.resize(r.bots.size());
            result.end_reason = "pre-flight done";
        }
        for (int s = 0; s < watch.size(); ++s) {
            const std::string why = watch.failure(s);
            if (!why.empty()) probe.failures.push_back(fmt::format("{} {}", watch.info(s).label, why));
        }
        return result;
    };
    return g;
}

MatchRequest probe_request(const GameDescriptor& game, const TournamentConfig& config, const BotSpec& bot,
                           const fs::path& logs) {
    MatchRequest r;
    r.game = config.game;
    const int seats = std::clamp(config.players > 0 ? config.players : game.min_bots, game.min_bots, game.max_bots);
    for (int i = 0; i < seats; ++i) {
        BotSpec copy = bot;
        if (i > 0) copy.name = fmt::format("{} (copy {})", bot.name, i + 1);
        r.bots.push_back(std::move(copy));
    }
    r.seed = config.seed;
    r.options = GameOptions(game.options, config.options_with_map(config.first_map(seats)));
    r.limits.memory_mib = config.memory_mib;
    config.confine(r.limits);
    r.freeze_idle = config.freeze_idle;
    r.log_dir = logs;
    fs::create_directories(logs);
    return r;
}

// The reason of a failed probe: what the seats' faults were, and the tail of the first failing
// seat's stderr.
std::string reason_of(const Probe& probe, const MatchRecord* record) {
    // Every seat runs the same bot: the first failure tells why.
    std::string reason = probe.failures.empty() ? "" : probe.failures.front();
    if (reason.empty() && record) {
        for (const auto& p : record->participants)
            if (p.status != SeatStatus::ok)
                return fmt::format("{}{}", to_string(p.status), p.detail.empty() ? "" : ": " + p.detail);
        return "";
    }
    if (reason.empty()) return "";
    const std::string label = probe.failures.front().substr(0, probe.failures.front().find(' '));
    const std::string tail = log_tail((probe.request.log_dir / (label + ".stderr.log")).string());
    return tail.empty() ? reason : reason + "; stderr: " + tail;
}

}  // namespace

std::string log_tail(const std::string& path, int lines) {
    std::ifstream in(path);
    std::vector<std::string> all;
    for (std::string line; std::getline(in, line);)
        if (line.find_first_not_of(" \t\r") != std::string::npos) all.push_back(line);
    std::string out;
    for (std::size_t i = all.size() > static_cast<std::size_t>(lines) ? all.size() - lines : 0; i < all.size(); ++i)
        out += (out.empty() ? "" : " | ") + all[i].substr(0, 200);
    return out;
}

std::vector<PreflightFailure> preflight(const GameDescriptor& game, const TournamentConfig& config, int jobs) {
    std::string pattern = (fs::temp_directory_path() / "arbiter-preflight-XXXXXX").string();
    if (!mkdtemp(pattern.data())) throw std::runtime_error("cannot make a temporary folder for the pre-flight");
    const fs::path temp = pattern;
    struct Remove {
        fs::path p;
        ~Remove() {
            std::error_code ec;
            fs::remove_all(p, ec);
        }
    } remove{temp};

    const std::vector<BotSpec> bots = participants_of(config);
    std::vector<std::unique_ptr<Probe>> probes;
    std::vector<MatchRequest> requests;
    for (std::size_t i = 0; i < bots.size(); ++i) {
        auto probe = std::make_unique<Probe>();
        probe->request = probe_request(game, config, bots[i], temp / std::to_string(i));
        requests.push_back(probe->request);
        probes.push_back(std::move(probe));
    }
    std::map<std::string, Probe*> by_logs;  // the play function finds its probe by log folder
    for (auto& p : probes) by_logs[p->request.log_dir.string()] = p.get();
    const MatchFunction play = [&](const MatchRequest& r) {
        return run_match(watched(game, *by_logs.at(r.log_dir.string())), r);
    };
    const auto results = play_concurrently(requests, jobs, play);
    std::vector<PreflightFailure> failures;
    for (std::size_t i = 0; i < bots.size(); ++i) {
        if (results[i].error) std::rethrow_exception(results[i].error);  // not the bot's fault
        const std::string reason = reason_of(*probes[i], results[i].record ? &*results[i].record : nullptr);
        if (!reason.empty()) failures.push_back({bots[i].name, reason});
    }
    return failures;
}

}  // namespace arb::tournament
