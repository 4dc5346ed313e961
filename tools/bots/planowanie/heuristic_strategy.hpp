#pragma once
// A simple rule-of-thumb player, to give the random one a clear opponent.
// Declaring: sum, over the hand, of a rough chance that each card takes a trick (high trumps
// nearly always, high cards of other suits often, low cards rarely; less so at bigger tables).
// Playing: while it still needs tricks it wins as cheaply as it can (the lowest winning card when
// it plays last, the highest otherwise); once it has its declaration it ducks, shedding its
// highest card that does not win, or dumps its lowest card when it must win anyway.
#include <algorithm>
#include <cmath>

#include "planowanie_bot.hpp"

namespace planowanie_bot {

class HeuristicStrategy final : public Strategy {
  public:
    int declare(const Game& game) override {
        double expected = 0;
        for (const Card& c : game.hand) expected += win_chance(game, c);
        const int declared = static_cast<int>(std::lround(expected));
        return std::clamp(declared, 0, game.cards_in_deal());
    }

    Card choose(const Game& game) override {
        const auto legal = game.legal_cards();
        const int me = game.me;
        const bool need_more = game.taken[me] < game.declared[me];
        const bool last = static_cast<int>(game.trick.size()) == game.players - 1;
        auto strength = [&](const Card& c) { return c.value + (c.suit == 0 ? 100 : 0); };
        auto weakest = [&](const std::vector<Card>& cards) {
            return *std::min_element(cards.begin(), cards.end(),
                                     [&](const Card& a, const Card& b) { return strength(a) < strength(b); });
        };
        auto strongest = [&](const std::vector<Card>& cards) {
            return *std::max_element(cards.begin(), cards.end(),
                                     [&](const Card& a, const Card& b) { return strength(a) < strength(b); });
        };
        if (game.trick.empty()) {
            if (!need_more) return weakest(legal);
            // Lead the card most likely to hold the trick.
            return *std::max_element(legal.begin(), legal.end(), [&](const Card& a, const Card& b) {
                return win_chance(game, a) < win_chance(game, b);
            });
        }
        std::vector<Card> winning, losing;
        for (const Card& c : legal) (game.would_win(c) ? winning : losing).push_back(c);
        if (need_more) {
            if (winning.empty()) return weakest(legal);
            return last ? weakest(winning) : strongest(winning);
        }
        if (!losing.empty()) return strongest(losing);
        return strongest(winning);  // forced to win: at least get rid of a strong card
    }

  private:
    static double win_chance(const Game& game, const Card& c) {
        const double top = std::max(1, static_cast<int>(game.values.size()) - 1);
        const double s = c.value / top;  // 0 lowest .. 1 highest
        const double crowd = std::max(1, game.players - 1);
        if (c.suit == 0) return std::min(1.0, 0.15 + 0.85 * std::pow(s, 1.5) * (3.0 / (crowd + 0.5)));
        return 0.9 * std::pow(s, 2.0 + crowd);
    }
};

}  // namespace planowanie_bot
