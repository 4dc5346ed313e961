#pragma once
// Helpers of the tournament runner tests: a fresh database, a fake-game config, a cheap fit.
#include <unistd.h>

#include <filesystem>
#include <string>
#include <utility>
#include <vector>

#include "arbiter/tournament/tournament_runner.hpp"
#include "tests/test_scratch.hpp"

namespace arb::test {

using namespace arb::tournament;

inline std::filesystem::path temp_db(const std::string& name) {
    const auto dir = arb::testing::scratch_root() / "tournament";
    std::filesystem::create_directories(dir);
    const auto path = dir / (name + ".sqlite");
    std::filesystem::remove(path);
    std::filesystem::remove(path.string() + "-wal");
    std::filesystem::remove(path.string() + "-shm");
    return path;
}

inline TournamentConfig config_of(int bots, int rounds, int random_rounds) {
    TournamentConfig c;
    c.name = "unit";
    c.game = "fake";
    c.seed = 77;
    c.rounds = rounds;
    c.random_rounds = random_rounds;
    for (int i = 0; i < bots; ++i) c.bots.push_back(parse_bot_spec("name=bot" + std::to_string(i) + " cmd=/bin/true"));
    validate(c, 2, 4);
    return c;
}

// A cheap stand-in for the BayesElo fit: mean pair score as rating, variance 1/games.
inline RatingModel simple_fit(const History& h) {
    RatingModel m;
    m.players = h.participants;
    const std::size_t n = m.players.size();
    std::vector<double> points(n, 0), games(n, 0);
    for (const auto& g : h.results.games()) {
        const double s = g.outcome == rating::Outcome::white_wins ? 1 : g.outcome == rating::Outcome::draw ? 0.5 : 0;
        points[g.white] += s, points[g.black] += 1 - s, games[g.white] += 1, games[g.black] += 1;
    }
    m.covariance.assign(n * n, 0.0);
    for (std::size_t i = 0; i < n; ++i) {
        m.elo.push_back(games[i] ? 800 * (points[i] / games[i] - 0.5) : 0);
        m.covariance[i * n + i] = 160000 / (1 + games[i]);
    }
    return m;
}

inline RunnerOptions quiet(int jobs) {
    RunnerOptions o;
    o.jobs = jobs;
    o.progress_out = nullptr;
    return o;
}

// Every stored result of the tournament, in schedule order.
inline std::vector<PlayedMatch> stored_played(rating::Store& store, const std::string& name = "unit") {
    return TournamentStore(store).played(name);
}

inline std::vector<std::pair<std::string, MatchRecord>> results_by_key(const std::vector<PlayedMatch>& played) {
    std::vector<std::pair<std::string, MatchRecord>> out;
    for (const auto& p : played) {
        MatchRecord r = p.record;
        r.started_at.clear();  // timestamps differ between runs; everything else must not
        r.wall_s = 0;
        r.machine_load = 0;
        r.transcript_path.clear();  // each store keeps its matches' folders beside it
        r.replay_path.clear();
        out.emplace_back(p.scheduled.key, r);
    }
    return out;
}


}  // namespace arb::test
