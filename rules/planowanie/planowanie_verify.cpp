// Checking a Planowanie game log against the engine (`arbiter verify planowanie FILE`).
#include "rules/planowanie/planowanie_verify.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <string>
#include <utility>
#include <vector>

namespace arb::planowanie {
namespace {

// The first difference found while replaying, as a VerifyOutcome.
VerifyOutcome differs(int steps, std::string what) { return VerifyOutcome{false, steps, std::move(what)}; }

}  // namespace

VerifyOutcome verify_game_log(const GameLog& log) {
    if (auto p = Deck::problem(log.values, log.suits); !p.empty()) return differs(0, "deck: " + p);
    Config config;
    config.deck = Deck(log.values, log.suits);
    config.players = log.players;
    config.deals = log.schedule;
    if (auto p = config.problem(); !p.empty()) return differs(0, "configuration: " + p);
    if (log.deals.size() > config.deals.size()) return differs(0, "more deals than the schedule has");

    State state(config);
    const Deck& deck = config.deck;
    int steps = 0;
    for (std::size_t k = 0; k < log.deals.size(); ++k) {
        const DealLog& d = log.deals[k];
        const std::string where = fmt::format("deal {}", k + 1);
        if (d.cards != config.deals[k].cards || d.starter != config.deals[k].starter) {
            return differs(steps, where + ": cards/starter differ from the schedule");
        }
        std::vector<std::vector<Card>> hands;
        for (const auto& hand : d.hands) {
            std::vector<Card> cards;
            for (const auto& text : hand) {
                auto c = deck.parse(text);
                if (!c) return differs(steps, fmt::format("{}: '{}' is not a card", where, text));
                cards.push_back(*c);
            }
            std::sort(cards.begin(), cards.end());
            hands.push_back(std::move(cards));
        }
        if (log.deal_seed && hands != deal_hands(config, static_cast<int>(k), *log.deal_seed)) {
            return differs(steps, where + ": the hands are not the ones the deal seed gives");
        }
        if (auto v = state.apply_deal(hands)) return differs(steps, where + ": " + v->what);
        for (std::size_t s = 0; s < d.declarations.size(); ++s) {
            if (auto v = state.apply_declaration(static_cast<int>(s), d.declarations[s])) {
                return differs(steps, fmt::format("{}: player {}: {}", where, s, v->what));
            }
            ++steps;
        }
        for (std::size_t t = 0; t < d.tricks.size(); ++t) {
            const TrickLog& trick = d.tricks[t];
            const std::string at = fmt::format("{}, trick {}", where, t + 1);
            if (state.phase() != Phase::play) return differs(steps, at + ": no trick is being played");
            if (trick.leader != state.to_move()) {
                return differs(steps, fmt::format("{}: leader {} but player {} leads", at, trick.leader,
                                                  state.to_move()));
            }
            for (const auto& text : trick.cards) {
                const int seat = state.to_move();
                auto c = deck.parse(text);
                if (!c) return differs(steps, fmt::format("{}: '{}' is not a card", at, text));
                if (auto v = state.apply_card(seat, *c))
                    return differs(steps, fmt::format("{}: player {}: {}", at, seat, v->what));
                ++steps;
            }
            if (trick.winner && trick.winner != state.last_trick_winner()) {
                return differs(steps, fmt::format("{}: winner {} but the rules give {}", at, *trick.winner,
                                                  state.last_trick_winner().value_or(-1)));
            }
        }
        if (!d.points.empty()) {
            if (state.results().size() != k + 1) return differs(steps, where + ": the deal is not finished");
            if (state.results().back().taken != d.taken)
                return differs(steps, where + ": tricks taken differ");
            if (state.results().back().points != d.points) return differs(steps, where + ": points differ");
        }
    }
    std::vector<int> scores;
    for (int s = 0; s < config.players; ++s) scores.push_back(state.score(s));
    if (scores != log.scores) return differs(steps, "final scores differ");
    if (log.end_reason == "completed" && state.phase() != Phase::over)
        return differs(steps, "completed, but deals are missing");
    return VerifyOutcome{true, steps, {}};
}

}  // namespace arb::planowanie
