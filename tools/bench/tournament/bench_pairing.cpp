// Cost of choosing groups of 4 for N bots: the BayesElo fit with
// covariance over a realistic history, then the seed-000 variance-minimising loop.
//
//   build/tools/bench/tournament/bench_pairing [BOTS=1000] [RANDOM_ROUNDS=10] [REPEATS=3]
//
// The history is synthetic: RANDOM_ROUNDS random rounds of groups of 4, 4 rotations each, 6
// pairwise comparisons per match, outcomes drawn from hidden strengths (seeded).
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <numeric>
#include <string>

#include "core/rng.hpp"
#include "arbiter/tournament/history.hpp"
#include "arbiter/tournament/variance_pairing.hpp"

using namespace arb;
using namespace arb::tournament;
using Clock = std::chrono::steady_clock;

static double seconds_since(Clock::time_point t) { return std::chrono::duration<double>(Clock::now() - t).count(); }

int main(int argc, char** argv) {
    const int bots = argc > 1 ? std::atoi(argv[1]) : 1000;
    const int rounds = argc > 2 ? std::atoi(argv[2]) : 10;
    const int repeats = argc > 3 ? std::atoi(argv[3]) : 3;
    Rng rng(2009);
    History history;
    std::vector<double> strength;
    for (int i = 0; i < bots; ++i) {
        history.participants.push_back("bot" + std::to_string(i));
        history.results.player_index(history.participants.back());
        strength.push_back(rng.unit() * 600 - 300);
    }
    history.meetings.assign(static_cast<std::size_t>(bots) * bots, 0.0);
    std::vector<int> order(bots);
    std::iota(order.begin(), order.end(), 0);
    for (int r = 0; r < rounds; ++r) {
        rng.shuffle(std::span<int>(order));
        for (int g = 0; g + 4 <= bots; g += 4)
            for (int rotation = 0; rotation < 4; ++rotation)
                for (int a = 0; a < 4; ++a)
                    for (int b = a + 1; b < 4; ++b) {
                        const int x = order[g + a], y = order[g + b];
                        const double p = 1 / (1 + std::pow(10, -(strength[x] - strength[y]) / 400));
                        const double u = rng.unit();
                        history.results.add_game(x, y, u < p * 0.8 ? rating::Outcome::white_wins
                                                       : u < p * 0.8 + 0.2 ? rating::Outcome::draw
                                                                           : rating::Outcome::black_wins);
                        history.meetings[x * bots + y] += 1;
                        history.meetings[y * bots + x] += 1;
                    }
    }
    std::printf("%d bots, %d random rounds, %zu pairwise games\n", bots, rounds, history.results.games().size());
    std::vector<double> fit_s, choose_s;
    for (int rep = 0; rep < repeats; ++rep) {
        auto t = Clock::now();
        const RatingModel model = fit_rating_model(history);
        fit_s.push_back(seconds_since(t));
        std::vector<int> all(bots);
        std::iota(all.begin(), all.end(), 0);
        t = Clock::now();
        const PairingResult groups = variance_minimising_groups(model, all, history.meetings, PairingOptions{});
        choose_s.push_back(seconds_since(t));
        std::printf("run %d: fit with covariance %.3f s, choosing %zu groups %.3f s\n", rep + 1, fit_s.back(),
                    groups.groups.size(), choose_s.back());
    }
    std::sort(fit_s.begin(), fit_s.end());
    std::sort(choose_s.begin(), choose_s.end());
    std::printf("median: fit %.3f s, choose groups %.3f s\n", fit_s[fit_s.size() / 2], choose_s[choose_s.size() / 2]);
}
