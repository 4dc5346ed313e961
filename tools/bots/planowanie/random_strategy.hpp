#pragma once
// Plays uniformly at random among the legal choices: any declaration 0..c, any legal card.
// The generator is std::mt19937_64, whose output the C++ standard fixes, and draws use a plain
// modulo (no <random> distributions), so the same seed plays the same game everywhere.
#include <cstdint>
#include <random>

#include "planowanie_bot.hpp"

namespace planowanie_bot {

class RandomStrategy final : public Strategy {
  public:
    explicit RandomStrategy(std::uint64_t seed) : rng_(seed) {}

    int declare(const Game& game) override { return static_cast<int>(draw(game.cards_in_deal() + 1)); }

    Card choose(const Game& game) override {
        const auto legal = game.legal_cards();
        return legal[draw(legal.size())];
    }

  private:
    std::size_t draw(std::size_t bound) { return static_cast<std::size_t>(rng_() % bound); }
    std::mt19937_64 rng_;
};

}  // namespace planowanie_bot
