#include "arbiter/tournament/forfeits.hpp"

#include <algorithm>
#include <tuple>

#include <fmt/format.h>

#include "arbiter/match/match_runner.hpp"

namespace arb::tournament {
namespace {

const ParticipantResult* seat_of(const MatchRecord& record, const std::string& bot) {
    for (const auto& p : record.participants)
        if (p.bot == bot) return &p;
    return nullptr;
}

// Each bot of the match once, whatever number of seats it has.
template <class Fn>
void for_each_bot(const ScheduledMatch& match, const Fn& fn) {
    for (std::size_t i = 0; i < match.bots.size(); ++i)
        if (std::find(match.bots.begin(), match.bots.begin() + static_cast<std::ptrdiff_t>(i), match.bots[i]) ==
            match.bots.begin() + static_cast<std::ptrdiff_t>(i))
            fn(match.bots[i]);
}

}  // namespace

FaultStreaks::FaultStreaks(std::optional<int> max_faults) {
    if (max_faults && *max_faults > 0) max_faults_ = max_faults;
}

void FaultStreaks::open(const ScheduledMatch& match) {
    if (!max_faults_) return;
    for_each_bot(match, [&](const std::string& bot) { by_bot_[bot][position_of(match)] = State::open; });
}

void FaultStreaks::stored(const ScheduledMatch& match, const MatchRecord& record) {
    if (!max_faults_) return;
    for_each_bot(match, [&](const std::string& bot) {
        const ParticipantResult* p = seat_of(record, bot);
        auto& matches = by_bot_[bot];
        matches[position_of(match)] = p && p->status == SeatStatus::ok ? State::clean : State::fault;
        trim(matches);
    });
}

void FaultStreaks::skip(const ScheduledMatch& match) {
    if (!max_faults_) return;
    for_each_bot(match, [&](const std::string& bot) {
        auto& matches = by_bot_[bot];
        matches.erase(position_of(match));
        trim(matches);
    });
}

// Drops the oldest stored matches while more than max_faults precede the first open one: no
// decision still to come reads them (every such decision is for an open match or a later one).
void FaultStreaks::trim(std::map<SchedulePosition, State>& matches) const {
    int stored_before_open = 0;
    for (const auto& [at, state] : matches) {
        if (state == State::open) break;
        ++stored_before_open;
    }
    for (; stored_before_open > *max_faults_; --stored_before_open) matches.erase(matches.begin());
}

std::optional<bool> FaultStreaks::too_many_faults(const std::string& bot, const ScheduledMatch& match) const {
    if (!max_faults_) return false;
    const auto found = by_bot_.find(bot);
    if (found == by_bot_.end()) return false;
    const auto& matches = found->second;
    // The bot's last max_faults matches before this one, in schedule order.
    auto it = matches.lower_bound(position_of(match));
    bool unknown = false;
    int seen = 0;
    for (; it != matches.begin() && seen < *max_faults_; ++seen) {
        --it;
        if (it->second == State::clean) return false;  // a clean match among them: decided
        if (it->second == State::open) unknown = true;
    }
    if (seen < *max_faults_) return false;
    if (unknown) return std::nullopt;
    return true;
}

std::optional<std::vector<std::string>> forfeiting_bots(const ForfeitRule& rule, const ScheduledMatch& match,
                                                        const FaultStreaks& streaks) {
    std::vector<std::string> out;
    bool undecided = false;
    for (const auto& bot : match.bots) {
        if (rule.broken.count(bot)) {
            out.push_back(bot);
            continue;
        }
        if (!rule.max_faults || *rule.max_faults <= 0) continue;
        const auto decision = streaks.too_many_faults(bot, match);
        if (!decision) undecided = true;
        else if (*decision) out.push_back(bot);
    }
    if (undecided) return std::nullopt;
    return out;
}

MatchRecord forfeit_record(const ForfeitRule& rule, const MatchRequest& request,
                           const std::vector<std::string>& forfeiting) {
    const int n = static_cast<int>(request.bots.size());
    auto forfeits = [&](int seat) {
        return std::count(forfeiting.begin(), forfeiting.end(), request.bots[seat].name) > 0;
    };
    const int forfeit_count = static_cast<int>(std::count_if(request.bots.begin(), request.bots.end(), [&](const BotSpec& b) {
        return std::count(forfeiting.begin(), forfeiting.end(), b.name) > 0;
    }));
    RefereeResult outcome;
    for (int i = 0; i < n; ++i) {
        ParticipantOutcome p;
        if (forfeits(i)) {
            p.status = SeatStatus::forfeited;
            p.rank = n - forfeit_count + 1;  // all forfeiting seats share the last rank
            p.detail = rule.broken.count(request.bots[i].name)
                           ? "forfeited: failed the pre-flight (--allow-broken)"
                           : fmt::format("forfeited: {} consecutive faults (--max-faults {})", *rule.max_faults,
                                         *rule.max_faults);
        } else {
            p.rank = 1;
        }
        outcome.participants.push_back(std::move(p));
    }
    for (int a = 0; a < n; ++a)
        for (int b = a + 1; b < n; ++b)
            outcome.pairs.push_back({a, b, forfeits(a) == forfeits(b) ? 0.5 : forfeits(a) ? 0.0 : 1.0});
    std::string names;
    for (const auto& f : forfeiting) names += (names.empty() ? "" : ", ") + f;
    outcome.end_reason = "forfeited by " + names;
    MatchRecord r = record_for(request);
    finish_record(r, request, std::move(outcome), nullptr);
    return r;
}

}  // namespace arb::tournament
