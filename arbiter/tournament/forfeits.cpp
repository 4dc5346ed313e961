#include "arbiter/tournament/forfeits.hpp"

#include <algorithm>
#include <tuple>

#include <fmt/format.h>

#include "arbiter/match/match_runner.hpp"

namespace arb::tournament {
namespace {

bool earlier(const ScheduledMatch& a, const ScheduledMatch& b) {
    return std::tie(a.round, a.group, a.seating) < std::tie(b.round, b.group, b.seating);
}

const ParticipantResult* seat_of(const MatchRecord& record, const std::string& bot) {
    for (const auto& p : record.participants)
        if (p.bot == bot) return &p;
    return nullptr;
}

// Whether `bot` forfeits `match` under max_faults; nullopt while undecided.
std::optional<bool> too_many_faults(int max_faults, const std::string& bot, const ScheduledMatch& match,
                                    const std::map<int, Round>& rounds,
                                    const std::map<std::string, PlayedMatch>& played,
                                    const std::set<std::string>& skipped) {
    // The bot's last max_faults matches before this one, in schedule order: rounds are walked
    // back from this one, so a decision reads a round or two, not the whole schedule.
    std::vector<const ScheduledMatch*> before;
    for (auto r = rounds.upper_bound(match.round); r != rounds.begin() && static_cast<int>(before.size()) < max_faults;) {
        --r;
        std::vector<const ScheduledMatch*> in_round;
        for (const auto& m : r->second.matches)
            if (earlier(m, match) && !skipped.count(m.key) && std::count(m.bots.begin(), m.bots.end(), bot))
                in_round.push_back(&m);
        std::sort(in_round.begin(), in_round.end(), [](auto* a, auto* b) { return earlier(*a, *b); });
        before.insert(before.begin(), in_round.begin(), in_round.end());
    }
    if (static_cast<int>(before.size()) < max_faults) return false;
    bool unknown = false;
    for (auto it = before.end() - max_faults; it != before.end(); ++it) {
        const auto found = played.find((*it)->key);
        if (found == played.end()) {
            unknown = true;
            continue;
        }
        const ParticipantResult* p = seat_of(found->second.record, bot);
        if (p && p->status == SeatStatus::ok) return false;  // a clean match among them: decided
    }
    if (unknown) return std::nullopt;
    return true;
}

}  // namespace

std::optional<std::vector<std::string>> forfeiting_bots(const ForfeitRule& rule, const ScheduledMatch& match,
                                                        const std::map<int, Round>& rounds,
                                                        const std::map<std::string, PlayedMatch>& played,
                                                        const std::set<std::string>& skipped) {
    std::vector<std::string> out;
    bool undecided = false;
    for (const auto& bot : match.bots) {
        if (rule.broken.count(bot)) {
            out.push_back(bot);
            continue;
        }
        if (!rule.max_faults || *rule.max_faults <= 0) continue;
        const auto decision = too_many_faults(*rule.max_faults, bot, match, rounds, played, skipped);
        if (!decision) undecided = true;
        else if (*decision) out.push_back(bot);
    }
    if (undecided) return std::nullopt;
    return out;
}

MatchRecord forfeit_record(const ForfeitRule& rule, const MatchRequest& request,
                           const std::vector<std::string>& forfeiting) {
    MatchRecord r = record_for(request);
    const int n = static_cast<int>(request.bots.size());
    auto forfeits = [&](int seat) {
        return std::count(forfeiting.begin(), forfeiting.end(), request.bots[seat].name) > 0;
    };
    const int forfeit_count = static_cast<int>(std::count_if(request.bots.begin(), request.bots.end(), [&](const BotSpec& b) {
        return std::count(forfeiting.begin(), forfeiting.end(), b.name) > 0;
    }));
    for (int i = 0; i < n; ++i) {
        ParticipantResult p;
        p.bot = request.bots[i].name;
        p.command = request.bots[i].command;
        p.seat = i;
        if (forfeits(i)) {
            p.status = SeatStatus::forfeited;
            p.rank = n - forfeit_count + 1;  // all forfeiting seats share the last rank
            p.detail = rule.broken.count(p.bot)
                           ? "forfeited: failed the pre-flight (--allow-broken)"
                           : fmt::format("forfeited: {} consecutive faults (--max-faults {})", *rule.max_faults,
                                         *rule.max_faults);
        } else {
            p.rank = 1;
        }
        r.participants.push_back(std::move(p));
    }
    for (int a = 0; a < n; ++a)
        for (int b = a + 1; b < n; ++b)
            r.pairs.push_back({a, b, forfeits(a) == forfeits(b) ? 0.5 : forfeits(a) ? 0.0 : 1.0});
    std::string names;
    for (const auto& f : forfeiting) names += (names.empty() ? "" : ", ") + f;
    r.end_reason = "forfeited by " + names;
    return r;
}

}  // namespace arb::tournament
