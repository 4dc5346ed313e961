// What a tournament run keeps instead of its results: the pairwise tally must fit exactly as the
// history of every record does, and the fault streaks must decide every forfeit as a look at the
// whole schedule does, whatever order the results come in.
#include <doctest/doctest.h>

#include <algorithm>
#include <map>
#include <optional>
#include <set>
#include <tuple>

#include "arbiter/tournament/forfeits.hpp"
#include "arbiter/tournament/history.hpp"
#include "core/rng.hpp"

using namespace arb;
using namespace arb::tournament;

namespace {

struct RandomTournament {
    std::vector<std::string> participants;
    std::vector<PlayedMatch> played;  // in the order they finished
};

// Matches of 2 to 4 seats with random pairwise scores, finished in a random order; some seats hold
// a bot from outside the field, some pairs point at no seat.
RandomTournament random_tournament(std::uint64_t seed, int matches) {
    Rng rng(seed);
    RandomTournament t;
    for (int i = 0; i < 6; ++i) t.participants.push_back("p" + std::to_string(i));
    for (int i = 0; i < matches; ++i) {
        PlayedMatch pm;
        pm.scheduled.round = i / 5;
        pm.scheduled.group = static_cast<int>(rng.below(3));
        pm.scheduled.seating = i % 5;
        pm.scheduled.key = "t/r" + std::to_string(pm.scheduled.round) + "/g" + std::to_string(pm.scheduled.group) +
                           "/s" + std::to_string(pm.scheduled.seating);
        const int seats = 2 + static_cast<int>(rng.below(3));
        std::vector<std::string> pool = t.participants;
        pool.push_back("outsider" + std::to_string(rng.below(2)));
        rng.shuffle(std::span<std::string>(pool));
        for (int s = 0; s < seats; ++s) {
            ParticipantResult p;
            p.bot = pool[s];
            p.seat = s;
            pm.record.participants.push_back(p);
        }
        for (int a = 0; a < seats; ++a)
            for (int b = a + 1; b < seats; ++b)
                pm.record.pairs.push_back({a, b, static_cast<double>(rng.below(3)) / 2});
        if (rng.below(10) == 0) pm.record.pairs.push_back({0, seats, 1.0});  // no such seat: ignored
        t.played.push_back(std::move(pm));
    }
    std::set<std::tuple<int, int, int>> seen;  // one match per position
    std::erase_if(t.played, [&](const PlayedMatch& m) {
        return !seen.insert({m.scheduled.round, m.scheduled.group, m.scheduled.seating}).second;
    });
    rng.shuffle(std::span<PlayedMatch>(t.played));
    return t;
}

std::vector<std::tuple<int, int, int>> sorted_games(const rating::ResultSet& r) {
    std::vector<std::tuple<int, int, int>> out;
    for (const auto& g : r.games()) out.emplace_back(g.white, g.black, static_cast<int>(g.outcome));
    std::sort(out.begin(), out.end());
    return out;
}

}  // namespace

TEST_CASE("the pairwise tally fits exactly as the history of every record") {
    for (std::uint64_t seed = 1; seed <= 12; ++seed) {
        const RandomTournament t = random_tournament(seed, 40 + static_cast<int>(seed) * 7);
        std::vector<const PlayedMatch*> pointers;
        HistoryTally tally(t.participants);
        for (const auto& pm : t.played) {
            pointers.push_back(&pm);
            tally.add(pm.scheduled, pm.record);
        }
        const History full = build_history(t.participants, pointers);
        const History aggregate = tally.history();
        REQUIRE_FALSE(tally.empty());
        CHECK(aggregate.participants == full.participants);
        CHECK(aggregate.results.players() == full.results.players());
        CHECK(aggregate.meetings == full.meetings);
        CHECK(sorted_games(aggregate.results) == sorted_games(full.results));
        CHECK(rating::format_ratings_table(rating::rate(aggregate.results, tournament_elo_options())) ==
              rating::format_ratings_table(rating::rate(full.results, tournament_elo_options())));
        const RatingModel a = fit_rating_model(aggregate), f = fit_rating_model(full);
        CHECK(a.elo == f.elo);
        CHECK(a.covariance == f.covariance);
        CHECK(a.drawelo == f.drawelo);
    }
    CHECK(HistoryTally({"x", "y"}).empty());
}

namespace {

// The decision from the whole schedule: the bot's last max_faults matches before this one that
// were not passed over, in schedule order.
std::optional<bool> decide_from_everything(int max_faults, const std::string& bot, const ScheduledMatch& match,
                                           const std::vector<ScheduledMatch>& schedule,
                                           const std::map<std::string, bool>& clean_by_key,  // the bot's results
                                           const std::set<std::string>& skipped) {
    std::vector<const ScheduledMatch*> before;
    for (const auto& m : schedule)
        if (position_of(m) < position_of(match) && !skipped.count(m.key) &&
            std::count(m.bots.begin(), m.bots.end(), bot))
            before.push_back(&m);
    if (static_cast<int>(before.size()) < max_faults) return false;
    bool unknown = false;
    for (auto it = before.end() - max_faults; it != before.end(); ++it) {
        const auto found = clean_by_key.find((*it)->key);
        if (found == clean_by_key.end()) unknown = true;
        else if (found->second) return false;
    }
    if (unknown) return std::nullopt;
    return true;
}

}  // namespace

TEST_CASE("fault streaks decide every forfeit as the whole schedule does, in any order of results") {
    for (std::uint64_t seed = 1; seed <= 20; ++seed) {
        Rng rng(seed);
        const int max_faults = 1 + static_cast<int>(rng.below(3));
        const std::vector<std::string> bots = {"a", "b", "c", "d", "e"};
        std::vector<ScheduledMatch> schedule;
        for (int round = 0; round < 12; ++round) {
            for (int group = 0; group < 2; ++group) {
                ScheduledMatch m;
                m.round = round, m.group = group, m.seating = 0;
                m.key = "t/r" + std::to_string(round) + "/g" + std::to_string(group);
                std::vector<std::string> pool = bots;
                rng.shuffle(std::span<std::string>(pool));
                m.bots.assign(pool.begin(), pool.begin() + 2 + static_cast<std::ptrdiff_t>(rng.below(2)));
                schedule.push_back(m);
            }
        }
        FaultStreaks streaks(max_faults);
        for (const auto& m : schedule) streaks.open(m);
        std::map<std::string, std::map<std::string, bool>> clean;  // by key, then bot
        std::set<std::string> skipped;
        std::vector<const ScheduledMatch*> order;
        for (const auto& m : schedule) order.push_back(&m);
        // Mostly in schedule order with a few overtaking, as with several workers.
        for (std::size_t i = 0; i + 1 < order.size(); ++i)
            if (rng.below(3) == 0) std::swap(order[i], order[i + 1]);
        for (const ScheduledMatch* m : order) {
            if (rng.below(15) == 0) {
                skipped.insert(m->key);
                streaks.skip(*m);
            } else {
                MatchRecord r;
                for (const auto& bot : m->bots) {
                    ParticipantResult p;
                    p.bot = bot;
                    p.status = rng.below(3) == 0 ? SeatStatus::ok : SeatStatus::crashed;
                    clean[m->key][bot] = p.status == SeatStatus::ok;
                    r.participants.push_back(p);
                }
                streaks.stored(*m, r);
            }
            // Every open match, every bot of it: the same decision.
            for (const auto& open : schedule) {
                if (clean.count(open.key) || skipped.count(open.key)) continue;
                for (const auto& bot : open.bots) {
                    std::map<std::string, bool> view;  // the bot's clean or faulted matches
                    for (const auto& [key, by_bot] : clean)
                        if (by_bot.count(bot)) view[key] = by_bot.at(bot);
                    CHECK(streaks.too_many_faults(bot, open) ==
                          decide_from_everything(max_faults, bot, open, schedule, view, skipped));
                }
            }
        }
    }
}
