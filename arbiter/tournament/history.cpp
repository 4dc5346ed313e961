#include "arbiter/tournament/history.hpp"

#include <algorithm>
#include <tuple>
#include <utility>

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

HistoryTally::HistoryTally(std::vector<std::string> participants)
    : participants_(std::move(participants)), meetings_(participants_.size() * participants_.size(), 0.0) {}

void HistoryTally::add(const ScheduledMatch& match, const MatchRecord& record) {
    const auto& seats = record.participants;
    const std::size_t n = participants_.size();
    auto index_of = [&](const std::string& name) -> std::size_t {
        return static_cast<std::size_t>(std::find(participants_.begin(), participants_.end(), name) -
                                        participants_.begin());
    };
    for (int i = 0; i < static_cast<int>(record.pairs.size()); ++i) {
        const auto& pair = record.pairs[i];
        if (pair.a < 0 || pair.b < 0 || pair.a >= static_cast<int>(seats.size()) ||
            pair.b >= static_cast<int>(seats.size()))
            continue;
        const std::string& white = seats[pair.a].bot;
        const std::string& black = seats[pair.b].bot;
        const GamePosition at{position_of(match), i, 0};
        const std::size_t a = index_of(white), b = index_of(black);
        for (const auto& [name, index, side] : {std::tuple{&white, a, 0}, std::tuple{&black, b, 1}}) {
            if (index < n) continue;
            GamePosition seen = at;
            seen.side = side;
            auto [it, inserted] = others_.try_emplace(*name, seen);
            if (!inserted && seen < it->second) it->second = seen;
        }
        Cell& cell = cells_[{white, black}];
        ++cell.outcomes[static_cast<int>(rating::outcome_from_score(pair.score_a))];
        if (cell.latest < at) cell.latest = at;
        ++games_;
        if (a < n && b < n) {
            meetings_[a * n + b] += 1;
            meetings_[b * n + a] += 1;
        }
    }
}

History HistoryTally::history() const {
    History h;
    h.participants = participants_;
    for (const auto& name : participants_) h.results.player_index(name);
    std::vector<std::pair<GamePosition, const std::string*>> others;
    for (const auto& [name, first] : others_) others.emplace_back(first, &name);
    std::sort(others.begin(), others.end());
    for (const auto& [first, name] : others) h.results.player_index(*name);
    h.meetings = meetings_;
    // The cells of each unordered pair together, the pairs by their latest game, earliest first:
    // read from the last game back (as the fit does), each pair then shows up at its latest game.
    struct Block {
        GamePosition latest;
        std::vector<std::pair<std::pair<int, int>, const Cell*>> cells;  // (white, black) indices
    };
    std::map<std::pair<int, int>, Block> blocks;
    for (const auto& [names, cell] : cells_) {
        const int white = h.results.player_index(names.first);
        const int black = h.results.player_index(names.second);
        Block& block = blocks[{std::min(white, black), std::max(white, black)}];
        if (block.cells.empty() || block.latest < cell.latest) block.latest = cell.latest;
        block.cells.push_back({{white, black}, &cell});
    }
    std::vector<const Block*> order;
    for (const auto& [key, block] : blocks) order.push_back(&block);
    std::sort(order.begin(), order.end(), [](const Block* x, const Block* y) { return x->latest < y->latest; });
    h.results.reserve_games(games_);
    for (const Block* block : order)
        for (const auto& [players, cell] : block->cells)
            for (int o = 0; o < 3; ++o)
                for (std::uint64_t k = 0; k < cell->outcomes[o]; ++k)
                    h.results.add_game(players.first, players.second, static_cast<rating::Outcome>(o));
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
