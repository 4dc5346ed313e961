#pragma once
// Koehandel's cards and their letters (koehandel.md 1.1, 2.3; seed 002 "goods" and "money"):
// ten animal kinds A..J of four cards each, money cards n t f h T F, and the text forms the
// protocol uses for them (real cards, bid values, Q counts, relative seat letters).
#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace arb::koehandel {

inline constexpr int kSeats = 4;
inline constexpr int kKinds = 10;
inline constexpr int kCardsPerKind = 4;
inline constexpr int kDonkey = 6;  // 'G'
inline constexpr std::array<int, kKinds> kKindValue = {10, 40, 90, 160, 250, 350, 500, 650, 800, 1000};

// Money denominations in letter order n t f h T F.
inline constexpr int kDenominations = 6;
inline constexpr std::array<char, kDenominations> kMoneyLetter = {'n', 't', 'f', 'h', 'T', 'F'};
inline constexpr std::array<int, kDenominations> kMoneyValue = {0, 10, 50, 100, 200, 500};
// Longest money text read from a bot; longer is invalid (keeps values far from overflow).
inline constexpr std::size_t kMaxMoneyLetters = 64;

// A bundle of money cards: how many of each denomination.
using Money = std::array<int, kDenominations>;

char kind_letter(int kind);
std::optional<int> kind_of(char letter);  // 'A'..'J'

int money_value(const Money& money);
int card_count(const Money& money);
bool covers(const Money& hand, const Money& part);  // part is a sub-bundle of hand
Money operator+(Money a, const Money& b);
Money operator-(Money a, const Money& b);

// Real cards as letters, largest first ("FThftn"), as the seed writes them.
std::string money_text(const Money& money);
// Letters of real cards; nullopt for any other character or more than kMaxMoneyLetters.
std::optional<Money> parse_money(std::string_view text);
// The value an auction bid names: any letters of n t f h T F (koehandel.md 2.3: a value, not
// cards one owns). nullopt for anything else.
std::optional<std::int64_t> parse_bid_value(std::string_view text);
// "QQQQ" (trade) and "QQQQ40" (auction: count and total).
std::string q_text(int cards);
std::string q_total_text(int cards, int total);

// Relative seat letter of `other` as seen by `self` (koehandel.md 2.1): S, W, N, E for
// 0, 1, 2, 3 seats clockwise after self.
char relative_letter(int self, int other);
// The seat a relative letter names from self's point of view; nullopt unless W, N or E.
std::optional<int> seat_of_letter(int self, std::string_view letter);

// Real cards together with the text a player wrote them in: the worked examples echo a
// player's own letters ("nntt"), so payments and offers keep them.
struct Cards {
    Money money{};
    std::string text;
};
// Cards the server picked, written largest first.
Cards cards_of(const Money& money);
// A player's letters as real cards; nullopt as for parse_money.
std::optional<Cards> parse_cards(std::string_view text);

// The cards the server pays with when the payer does not choose (koehandel.md 5, ruling 7):
// non-zero cards with the smallest total >= amount, then the fewest cards, then the fewest
// large denominations. nullopt when the hand's non-zero cards do not reach the amount.
std::optional<Money> choose_payment(const Money& hand, int amount);

}  // namespace arb::koehandel
