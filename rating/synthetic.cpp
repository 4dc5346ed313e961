#include "rating/synthetic.hpp"

#include <cmath>
#include <stdexcept>

#include <fmt/format.h>

#include "core/rng.hpp"

namespace arb::rating {

OutcomeProbabilities bayeselo_probabilities(double white, double black, double advantage, double drawelo) {
    // rating.md A.2: P(White wins) = f(d + advantage - drawelo), P(Black wins) = f(-d - advantage - drawelo),
    // with f(x) = 1 / (1 + 10^(-x/400)).
    auto f = [](double x) { return 1.0 / (1.0 + std::pow(10.0, -x / 400.0)); };
    const double d = white - black;
    const double w = f(d + advantage - drawelo);
    const double b = f(-d - advantage - drawelo);
    return {w, 1.0 - w - b, b};
}

SyntheticData generate_synthetic(const SyntheticSpec& spec) {
    if (spec.players < 2) throw std::invalid_argument("synthetic data needs at least 2 players");
    Rng rng(spec.seed);
    SyntheticData data;
    const double half_width = spec.spread * std::sqrt(3.0);
    double total = 0;
    for (int i = 0; i < spec.players; ++i) {
        data.results.player_index(fmt::format("P{:03}", i + 1));
        const double r = -half_width + 2 * half_width * rng.unit();
        data.true_elo.push_back(r);
        total += r;
    }
    for (double& r : data.true_elo) r -= total / spec.players;

    auto play = [&](int white, int black) {
        const auto p = bayeselo_probabilities(data.true_elo[white], data.true_elo[black], spec.advantage, spec.drawelo);
        const double u = rng.unit();
        const Outcome outcome = u < p.white_wins ? Outcome::white_wins
                                : u < p.white_wins + p.draw ? Outcome::draw
                                                            : Outcome::black_wins;
        data.results.add_game(white, black, outcome);
    };
    if (spec.layout == SyntheticSpec::Layout::all_pairs) {
        data.results.reserve_games(static_cast<std::size_t>(spec.players) * (spec.players - 1) / 2 *
                                   static_cast<std::size_t>(spec.games));
        for (int a = 0; a < spec.players; ++a)
            for (int b = a + 1; b < spec.players; ++b)
                for (std::int64_t k = 0; k < spec.games; ++k) (k % 2 == 0) ? play(a, b) : play(b, a);
    } else {
        data.results.reserve_games(static_cast<std::size_t>(spec.games));
        for (std::int64_t k = 0; k < spec.games; ++k) {
            const int a = static_cast<int>(rng.below(static_cast<std::uint64_t>(spec.players)));
            int b = static_cast<int>(rng.below(static_cast<std::uint64_t>(spec.players - 1)));
            if (b >= a) ++b;
            play(a, b);
        }
    }
    return data;
}

}  // namespace arb::rating
