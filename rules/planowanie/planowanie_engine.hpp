#pragma once
// Planowanie, the ITPW 2009 trick-taking game (seed 000, ../shared/seeds/000_70b6242a7afbb206.txt).
//
// Rules as the seed states them ("Zasady gry"):
// - A game is a fixed schedule of deals. In deal i every player gets c_i cards and player s_i
//   (the "starter") leads the first trick.
// - Declarations: every player secretly declares how many tricks it will take, 0..c_i; all
//   declarations are revealed together (they are simultaneous, so there is no "hook" rule).
// - Play: c_i tricks. The leader plays any card; the others follow clockwise (seat order) and
//   must follow the led suit when they can, otherwise may play any card. The highest card of the
//   led suit wins, unless trumps were played: then the highest trump wins. The trump suit is the
//   first suit of the deck and never changes. The trick winner leads the next trick.
// - Scoring per deal: tricks taken, plus a bonus equal to c_i when the declaration was exact.
//
// The deck is configurable (`set_deck V C`: V = values from lowest to highest, C = suits, the
// first one trump); the tournament deck is 23456789TJQKA x CDHS, four players, 13 deals of 1..13
// cards with the starter rotating 0,1,2,3 (the seed's `set_game` line).
//
// This file is the pure rules: no I/O, no clocks. Illegal moves come back as a Violation value.
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace arb::planowanie {

// A card as indices into the deck strings. Suit 0 is trump. Ordered suit-major so a sorted hand
// reads suit by suit, lowest value first.
struct Card {
    int suit = 0;
    int value = 0;  // 0 = lowest
    friend auto operator<=>(const Card&, const Card&) = default;
};

inline constexpr int kTrumpSuit = 0;  // seed: "Pierwszy znak w łańcuchu reprezentuje kolor atutowy"

class Deck {
  public:
    // Why these strings cannot describe a deck ("" when they can): each must be non-empty, made
    // of distinct printable non-space characters.
    static std::string problem(std::string_view values, std::string_view suits);

    Deck(std::string values, std::string suits);                        // precondition: problem() is empty
    static Deck tournament() { return Deck("23456789TJQKA", "CDHS"); }  // seed, "set_deck"

    const std::string& values() const { return values_; }
    const std::string& suits() const { return suits_; }
    int value_count() const { return static_cast<int>(values_.size()); }
    int suit_count() const { return static_cast<int>(suits_.size()); }
    int size() const { return value_count() * suit_count(); }

    // Two characters: value then suit ("AS", "2C").
    std::string text(Card card) const;
    // Exactly two characters naming a card of this deck, case-sensitive.
    std::optional<Card> parse(std::string_view text) const;
    // Every card, suit-major, lowest value first.
    std::vector<Card> all_cards() const;

    friend bool operator==(const Deck&, const Deck&) = default;

  private:
    std::string values_;
    std::string suits_;
};

struct DealSpec {
    int cards = 1;    // cards each player gets
    int starter = 0;  // who leads the first trick
    friend bool operator==(const DealSpec&, const DealSpec&) = default;
};

struct Config {
    Deck deck = Deck::tournament();
    int players = 4;
    std::vector<DealSpec> deals;

    // The seed's tournament game: `set_game 13 1 0 2 1 3 2 4 3 5 0 ... 13 0`.
    static Config tournament();
    // Deals of 1, 2, ... cards (as many as the deck allows, at most 13), the starter rotating
    // 0, 1, ..., players-1, 0, ...: the tournament schedule generalised to other tables.
    static std::vector<DealSpec> default_schedule(int players, int deck_size);

    // Why this configuration cannot be played ("" when it can).
    std::string problem() const;

    // The argument lists of the setup commands (without the command names).
    std::string set_deck_args() const;  // "23456789TJQKA CDHS"
    std::string set_game_args() const;  // "13 1 0 2 1 ..."

    friend bool operator==(const Config&, const Config&) = default;
};

// A rule a move broke, for the match record ("card 'AS' is not in the hand").
struct Violation {
    std::string what;
};

struct PlayedCard {
    int seat = 0;
    Card card;
    friend bool operator==(const PlayedCard&, const PlayedCard&) = default;
};

// Seed, "Rozgrywka": the highest card of the led suit wins unless a trump was played; then the
// highest trump wins. Returns the index into `trick` of the winning card. trick must be non-empty.
std::size_t winning_card(std::span<const PlayedCard> trick);

// Seed, "Punktacja": tricks taken, plus the number of cards dealt when the declaration was exact.
int deal_points(int declared, int taken, int cards_dealt);

// The hands of deal `deal_index` (0-based) for a deal seed: the deck is shuffled with the
// project's RNG seeded by derive_seed(deal_seed, {deal_index}), and seat s gets the cards at
// positions [s*c, (s+1)*c), sorted. Depends only on (config, deal_seed, deal_index), so every
// match of a deal set, in every seat rotation, gives each seat the same cards.
std::vector<std::vector<Card>> deal_hands(const Config& config, int deal_index, std::uint64_t deal_seed);

enum class Phase { deal, declare, play, over };
const char* to_string(Phase phase);

// One finished deal, per seat.
struct DealResult {
    int cards = 0;
    std::vector<int> declared;
    std::vector<int> taken;
    std::vector<int> points;
    friend bool operator==(const DealResult&, const DealResult&) = default;
};

// What one seat may know: its own hand, its own declaration until all are revealed, everything
// played on the table.
struct SeatView {
    int seat = 0;
    Phase phase = Phase::deal;
    int deal_index = 0;
    std::vector<Card> hand;
    std::vector<std::optional<int>> declared;  // others' stay empty during the declare phase
    std::vector<int> taken;
    std::vector<int> scores;
    std::vector<PlayedCard> trick;
    friend bool operator==(const SeatView&, const SeatView&) = default;
};

class State {
  public:
    explicit State(Config config);  // precondition: config.problem() is empty

    const Config& config() const { return config_; }
    int players() const { return config_.players; }
    Phase phase() const { return phase_; }
    int deal_index() const { return deal_index_; }  // == deals.size() when over
    int cards_this_deal() const;                    // 0 when over

    // Phase::deal: the chance move. Each hand must hold cards_this_deal() distinct cards of the deck.
    std::optional<Violation> apply_deal(const std::vector<std::vector<Card>>& hands);

    // Phase::declare: any order, one per seat; play starts once every seat has declared.
    std::vector<int> legal_declarations(int seat) const;
    std::optional<Violation> apply_declaration(int seat, int tricks);

    // Phase::play.
    int to_move() const;  // -1 outside the play phase
    std::vector<Card> legal_cards(int seat) const;
    std::optional<Violation> apply_card(int seat, Card card);

    const std::vector<Card>& hand(int seat) const { return hands_.at(seat); }
    std::optional<int> declaration(int seat) const { return declared_.at(seat); }
    int tricks_taken(int seat) const { return taken_.at(seat); }
    int score(int seat) const { return scores_.at(seat); }  // completed deals only
    const std::vector<PlayedCard>& trick() const { return trick_; }
    int leader() const { return leader_; }
    int tricks_played() const { return tricks_played_; }  // in the current deal
    std::optional<int> last_trick_winner() const { return last_trick_winner_; }
    const std::vector<DealResult>& results() const { return results_; }

    SeatView view_for(int seat) const;

    friend bool operator==(const State&, const State&) = default;

  private:
    std::optional<Violation> check_seat(int seat) const;
    void finish_trick();
    void finish_deal();

    Config config_;
    Phase phase_ = Phase::deal;
    int deal_index_ = 0;
    std::vector<std::vector<Card>> hands_;
    std::vector<std::optional<int>> declared_;
    std::vector<int> taken_;
    std::vector<int> scores_;
    std::vector<PlayedCard> trick_;
    int leader_ = 0;
    int tricks_played_ = 0;
    std::optional<int> last_trick_winner_;
    std::vector<DealResult> results_;
};

}  // namespace arb::planowanie
