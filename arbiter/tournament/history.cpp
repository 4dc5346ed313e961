#include "arbiter/tournament/history.hpp"

#include <algorithm>
#include <tuple>

namespace arb::tournament {

History build_history(const std::vector<std::string>& participants, std::vector<const PlayedMatch*> played) {
    History h;
    h.participants = participants;
    for (const auto& name : participants) h.results.player_index(name);
    const std::size_t n = participants.size();
    h.meetings.assign(n * n, 0.0);
    std::sort(played.begin(), played.end(), [](const PlayedMatch* a, const PlayedMatch* b) {
        return std::tie(a->scheduled.round, a->scheduled.group, a->scheduled.seating) <
               std::tie(b->scheduled.round, b->scheduled.group, b->scheduled.seating);
    });
    for (const PlayedMatch* m : played) {
        const auto& seats = m->record.participants;
        for (const auto& pair : m->record.pairs) {
            if (pair.a < 0 || pair.b < 0 || pair.a >= static_cast<int>(seats.size()) ||
                pair.b >= static_cast<int>(seats.size()))
                continue;
            const int a = h.results.player_index(seats[pair.a].bot);
            const int b = h.results.player_index(seats[pair.b].bot);
            h.results.add_game(a, b, rating::outcome_from_score(pair.score_a));
            if (static_cast<std::size_t>(a) < n && static_cast<std::size_t>(b) < n) {
                h.meetings[a * n + b] += 1;
                h.meetings[b * n + a] += 1;
            }
        }
    }
    return h;
}

History build_duplicate_history(const std::vector<std::string>& participants,
                                const std::map<std::string, std::vector<const MatchRecord*>>& groups) {
    History h;
    h.participants = participants;
    for (const auto& name : participants) h.results.player_index(name);
    const std::size_t n = participants.size();
    h.meetings.assign(n * n, 0.0);
    for (const auto& [key, matches] : groups) {
        // Members in first-seen order; who faulted anywhere; score sums over clean rotations.
        std::vector<std::string> members;
        std::map<std::string, bool> faulted;
        std::map<std::string, double> clean_sum;
        int clean_rotations = 0;
        for (const MatchRecord* m : matches) {
            bool clean = true;
            for (const auto& p : m->participants) {
                if (!faulted.count(p.bot)) members.push_back(p.bot), faulted[p.bot] = false;
                if (p.status != SeatStatus::ok) faulted[p.bot] = true, clean = false;
            }
            if (!clean) continue;
            ++clean_rotations;
            for (const auto& p : m->participants) clean_sum[p.bot] += p.score;
        }
        for (std::size_t i = 0; i < members.size(); ++i) {
            for (std::size_t j = i + 1; j < members.size(); ++j) {
                const std::string& x = members[i];
                const std::string& y = members[j];
                rating::Outcome outcome;
                if (faulted[x] != faulted[y]) {
                    outcome = faulted[x] ? rating::Outcome::black_wins : rating::Outcome::white_wins;
                } else if (faulted[x] || clean_rotations == 0) {
                    continue;  // both at fault, or no clean rotation to compare on
                } else {
                    const double dx = clean_sum[x], dy = clean_sum[y];
                    outcome = dx > dy ? rating::Outcome::white_wins
                                      : dx < dy ? rating::Outcome::black_wins : rating::Outcome::draw;
                }
                const int a = h.results.player_index(x), b = h.results.player_index(y);
                h.results.add_game(a, b, outcome);
                if (static_cast<std::size_t>(a) < n && static_cast<std::size_t>(b) < n) {
                    h.meetings[a * n + b] += 1;
                    h.meetings[b * n + a] += 1;
                }
            }
        }
    }
    return h;
}

rating::EloOptions tournament_elo_options() {
    rating::EloOptions o;
    o.advantage = 0;
    return o;
}

RatingModel fit_rating_model(const History& history) {
    const std::size_t n = history.participants.size();
    RatingModel model;
    model.players = history.participants;
    model.elo.assign(n, 0.0);
    // Without results every bot is equally unknown: a wide, independent prior.
    constexpr double kUnknownVariance = 400.0 * 400.0;
    model.covariance.assign(n * n, 0.0);
    for (std::size_t i = 0; i < n; ++i) model.covariance[i * n + i] = kUnknownVariance;
    if (history.results.empty()) return model;

    rating::EloOptions options = tournament_elo_options();
    options.intervals = rating::IntervalMethod::covariance;
    options.want_covariance = true;
    const rating::RatingResult fit = rating::rate(history.results, options);
    model.drawelo = fit.drawelo;
    const std::size_t m = fit.player_count;
    for (std::size_t i = 0; i < n && i < fit.model_elo.size(); ++i) model.elo[i] = fit.model_elo[i];
    if (fit.covariance.size() == m * m) {
        for (std::size_t i = 0; i < n && i < m; ++i)
            for (std::size_t j = 0; j < n && j < m; ++j) model.covariance[i * n + j] = fit.covariance[i * m + j];
    }
    return model;
}

}  // namespace arb::tournament
