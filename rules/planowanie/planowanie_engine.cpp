#include "rules/planowanie/planowanie_engine.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <set>

#include "core/rng.hpp"

namespace arb::planowanie {
namespace {

// The tournament schedule has 13 deals (seed, "set_game").
constexpr int kTournamentDeals = 13;

std::string problem_in_symbols(std::string_view text, const char* what) {
    if (text.empty()) return fmt::format("{} must not be empty", what);
    std::set<char> seen;
    for (char c : text) {
        const auto u = static_cast<unsigned char>(c);
        if (u <= ' ' || u >= 127)
            return fmt::format("{} '{}' must be printable characters without spaces", what, text);
        if (!seen.insert(c).second) return fmt::format("{} '{}' repeats '{}'", what, text, c);
    }
    return {};
}

}  // namespace

std::string Deck::problem(std::string_view values, std::string_view suits) {
    if (auto p = problem_in_symbols(values, "deck values"); !p.empty()) return p;
    return problem_in_symbols(suits, "deck suits");
}

Deck::Deck(std::string values, std::string suits) : values_(std::move(values)), suits_(std::move(suits)) {}

std::string Deck::text(Card card) const {
    return std::string{values_.at(static_cast<std::size_t>(card.value)),
                       suits_.at(static_cast<std::size_t>(card.suit))};
}

std::optional<Card> Deck::parse(std::string_view text) const {
    if (text.size() != 2) return std::nullopt;
    const auto v = values_.find(text[0]);
    const auto s = suits_.find(text[1]);
    if (v == std::string::npos || s == std::string::npos) return std::nullopt;
    return Card{static_cast<int>(s), static_cast<int>(v)};
}

std::vector<Card> Deck::all_cards() const {
    std::vector<Card> cards;
    cards.reserve(static_cast<std::size_t>(size()));
    for (int s = 0; s < suit_count(); ++s) {
        for (int v = 0; v < value_count(); ++v) cards.push_back(Card{s, v});
    }
    return cards;
}

Config Config::tournament() {
    Config config;
    config.deals = default_schedule(config.players, config.deck.size());
    return config;
}

std::vector<DealSpec> Config::default_schedule(int players, int deck_size) {
    std::vector<DealSpec> deals;
    if (players <= 0) return deals;
    const int count = std::min(kTournamentDeals, deck_size / players);
    for (int i = 0; i < count; ++i) deals.push_back(DealSpec{i + 1, i % players});
    return deals;
}

std::string Config::problem() const {
    if (auto p = Deck::problem(deck.values(), deck.suits()); !p.empty()) return p;
    if (players < 2) return fmt::format("Planowanie needs at least 2 players, got {}", players);
    if (deals.empty()) return "the deal schedule is empty";
    for (std::size_t i = 0; i < deals.size(); ++i) {
        const DealSpec& d = deals[i];
        if (d.cards < 1)
            return fmt::format("deal {} gives {} cards; each deal needs at least 1", i + 1, d.cards);
        if (d.cards * players > deck.size()) {
            return fmt::format("deal {} needs {} x {} cards but the deck has {}", i + 1, d.cards, players,
                               deck.size());
        }
        if (d.starter < 0 || d.starter >= players) {
            return fmt::format("deal {} starts with player {}; players are 0..{}", i + 1, d.starter,
                               players - 1);
        }
    }
    return {};
}

std::string Config::set_deck_args() const { return deck.values() + " " + deck.suits(); }

std::string Config::set_game_args() const {
    std::string out = std::to_string(deals.size());
    for (const DealSpec& d : deals) out += fmt::format(" {} {}", d.cards, d.starter);
    return out;
}

std::size_t winning_card(std::span<const PlayedCard> trick) {
    std::size_t best = 0;
    for (std::size_t i = 1; i < trick.size(); ++i) {
        const Card& c = trick[i].card;
        const Card& b = trick[best].card;
        // A card of the winning card's suit beats it if higher; a trump beats any non-trump.
        // Any other card (a discard) never wins.
        if ((c.suit == b.suit && c.value > b.value) || (c.suit == kTrumpSuit && b.suit != kTrumpSuit))
            best = i;
    }
    return best;
}

int deal_points(int declared, int taken, int cards_dealt) {
    return taken + (declared == taken ? cards_dealt : 0);
}

std::vector<std::vector<Card>> deal_hands(const Config& config, int deal_index, std::uint64_t deal_seed) {
    std::vector<Card> deck = config.deck.all_cards();
    Rng rng(derive_seed(deal_seed, {static_cast<std::uint64_t>(deal_index)}));
    rng.shuffle(std::span<Card>(deck));
    const int cards = config.deals.at(static_cast<std::size_t>(deal_index)).cards;
    std::vector<std::vector<Card>> hands(static_cast<std::size_t>(config.players));
    for (int s = 0; s < config.players; ++s) {
        auto first = deck.begin() + s * cards;
        hands[static_cast<std::size_t>(s)].assign(first, first + cards);
        std::sort(hands[static_cast<std::size_t>(s)].begin(), hands[static_cast<std::size_t>(s)].end());
    }
    return hands;
}

const char* to_string(Phase phase) {
    switch (phase) {
        case Phase::deal:
            return "deal";
        case Phase::declare:
            return "declare";
        case Phase::play:
            return "play";
        case Phase::over:
            return "over";
    }
    return "?";
}

State::State(Config config)
    : config_(std::move(config)),
      hands_(static_cast<std::size_t>(config_.players)),
      declared_(static_cast<std::size_t>(config_.players)),
      taken_(static_cast<std::size_t>(config_.players), 0),
      scores_(static_cast<std::size_t>(config_.players), 0) {}

int State::cards_this_deal() const {
    return phase_ == Phase::over ? 0 : config_.deals.at(static_cast<std::size_t>(deal_index_)).cards;
}

std::optional<Violation> State::check_seat(int seat) const {
    if (seat < 0 || seat >= players()) return Violation{fmt::format("there is no player {}", seat)};
    return std::nullopt;
}

std::optional<Violation> State::apply_deal(const std::vector<std::vector<Card>>& hands) {
    if (phase_ != Phase::deal)
        return Violation{fmt::format("cannot deal in the {} phase", to_string(phase_))};
    if (static_cast<int>(hands.size()) != players()) {
        return Violation{fmt::format("{} hands dealt for {} players", hands.size(), players())};
    }
    std::set<Card> seen;
    for (const auto& hand : hands) {
        if (static_cast<int>(hand.size()) != cards_this_deal()) {
            return Violation{
                fmt::format("a hand of {} cards in a deal of {}", hand.size(), cards_this_deal())};
        }
        for (const Card& c : hand) {
            if (c.suit < 0 || c.suit >= config_.deck.suit_count() || c.value < 0 ||
                c.value >= config_.deck.value_count()) {
                return Violation{"a dealt card is not in the deck"};
            }
            if (!seen.insert(c).second) return Violation{"card '" + config_.deck.text(c) + "' dealt twice"};
        }
    }
    hands_ = hands;
    for (auto& hand : hands_) std::sort(hand.begin(), hand.end());
    std::fill(declared_.begin(), declared_.end(), std::nullopt);
    std::fill(taken_.begin(), taken_.end(), 0);
    trick_.clear();
    tricks_played_ = 0;
    last_trick_winner_.reset();
    leader_ = config_.deals.at(static_cast<std::size_t>(deal_index_)).starter;
    phase_ = Phase::declare;
    return std::nullopt;
}

std::vector<int> State::legal_declarations(int seat) const {
    std::vector<int> out;
    if (phase_ != Phase::declare || check_seat(seat) || declared_.at(seat)) return out;
    for (int l = 0; l <= cards_this_deal(); ++l) out.push_back(l);  // seed: "z przedziału [0,c]"
    return out;
}

std::optional<Violation> State::apply_declaration(int seat, int tricks) {
    if (auto v = check_seat(seat)) return v;
    if (phase_ != Phase::declare)
        return Violation{fmt::format("cannot declare in the {} phase", to_string(phase_))};
    if (declared_.at(seat)) return Violation{fmt::format("player {} has already declared", seat)};
    if (tricks < 0 || tricks > cards_this_deal()) {
        return Violation{fmt::format("declaration {} is outside 0..{}", tricks, cards_this_deal())};
    }
    declared_.at(seat) = tricks;
    if (std::all_of(declared_.begin(), declared_.end(), [](const auto& d) { return d.has_value(); })) {
        phase_ = Phase::play;
    }
    return std::nullopt;
}

int State::to_move() const {
    if (phase_ != Phase::play) return -1;
    return (leader_ + static_cast<int>(trick_.size())) % players();
}

std::vector<Card> State::legal_cards(int seat) const {
    if (phase_ != Phase::play || seat != to_move()) return {};
    const auto& hand = hands_.at(seat);
    if (trick_.empty()) return hand;
    // Must follow the led suit when possible, otherwise anything (seed, "Rozgrywka").
    const int led = trick_.front().card.suit;
    std::vector<Card> follow;
    std::copy_if(hand.begin(), hand.end(), std::back_inserter(follow),
                 [&](const Card& c) { return c.suit == led; });
    return follow.empty() ? hand : follow;
}

std::optional<Violation> State::apply_card(int seat, Card card) {
    if (auto v = check_seat(seat)) return v;
    if (phase_ != Phase::play)
        return Violation{fmt::format("cannot play a card in the {} phase", to_string(phase_))};
    if (seat != to_move())
        return Violation{fmt::format("it is player {}'s turn, not player {}'s", to_move(), seat)};
    auto& hand = hands_.at(seat);
    const auto it = std::find(hand.begin(), hand.end(), card);
    const bool valid = card.suit >= 0 && card.suit < config_.deck.suit_count() && card.value >= 0 &&
                       card.value < config_.deck.value_count();
    if (!valid) return Violation{"the card is not in the deck"};
    if (it == hand.end())
        return Violation{fmt::format("card '{}' is not in the hand", config_.deck.text(card))};
    if (!trick_.empty()) {
        const int led = trick_.front().card.suit;
        const bool can_follow =
            std::any_of(hand.begin(), hand.end(), [&](const Card& c) { return c.suit == led; });
        if (can_follow && card.suit != led) {
            return Violation{fmt::format("card '{}' does not follow the led suit '{}' held in the hand",
                                         config_.deck.text(card),
                                         config_.deck.suits()[static_cast<std::size_t>(led)])};
        }
    }
    hand.erase(it);
    trick_.push_back(PlayedCard{seat, card});
    if (static_cast<int>(trick_.size()) == players()) finish_trick();
    return std::nullopt;
}

void State::finish_trick() {
    const int winner = trick_.at(winning_card(trick_)).seat;
    ++taken_.at(winner);
    ++tricks_played_;
    last_trick_winner_ = winner;
    leader_ = winner;  // seed: "Gracz, który wziął lewę, wykłada pierwszą kartę w następnej lewie."
    trick_.clear();
    if (tricks_played_ == cards_this_deal()) finish_deal();
}

void State::finish_deal() {
    DealResult result;
    result.cards = cards_this_deal();
    for (int s = 0; s < players(); ++s) {
        const int declared = declared_.at(s).value_or(0);
        const int points = deal_points(declared, taken_.at(s), result.cards);
        result.declared.push_back(declared);
        result.taken.push_back(taken_.at(s));
        result.points.push_back(points);
        scores_.at(s) += points;
    }
    results_.push_back(std::move(result));
    ++deal_index_;
    phase_ = deal_index_ == static_cast<int>(config_.deals.size()) ? Phase::over : Phase::deal;
}

SeatView State::view_for(int seat) const {
    SeatView view;
    view.seat = seat;
    view.phase = phase_;
    view.deal_index = deal_index_;
    view.hand = hands_.at(seat);
    view.declared.resize(static_cast<std::size_t>(players()));
    for (int s = 0; s < players(); ++s) {
        // Declarations are secret until all are made (seed, "Deklaracje").
        if (phase_ != Phase::declare || s == seat)
            view.declared[static_cast<std::size_t>(s)] = declared_.at(s);
    }
    view.taken = taken_;
    view.scores = scores_;
    view.trick = trick_;
    return view;
}

}  // namespace arb::planowanie
