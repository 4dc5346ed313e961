#include "rules/koehandel/koehandel_cards.hpp"

#include <algorithm>
#include <limits>
#include <tuple>

namespace arb::koehandel {
namespace {

std::optional<int> denomination_of(char letter) {
    for (int d = 0; d < kDenominations; ++d)
        if (kMoneyLetter[d] == letter) return d;
    return std::nullopt;
}

}  // namespace

char kind_letter(int kind) { return static_cast<char>('A' + kind); }

std::optional<int> kind_of(char letter) {
    if (letter < 'A' || letter >= 'A' + kKinds) return std::nullopt;
    return letter - 'A';
}

int money_value(const Money& money) {
    int total = 0;
    for (int d = 0; d < kDenominations; ++d) total += money[d] * kMoneyValue[d];
    return total;
}

int card_count(const Money& money) {
    int n = 0;
    for (int c : money) n += c;
    return n;
}

bool covers(const Money& hand, const Money& part) {
    for (int d = 0; d < kDenominations; ++d)
        if (part[d] > hand[d]) return false;
    return true;
}

Money operator+(Money a, const Money& b) {
    for (int d = 0; d < kDenominations; ++d) a[d] += b[d];
    return a;
}

Money operator-(Money a, const Money& b) {
    for (int d = 0; d < kDenominations; ++d) a[d] -= b[d];
    return a;
}

std::string money_text(const Money& money) {
    std::string text;
    for (int d = kDenominations - 1; d >= 0; --d) text.append(static_cast<std::size_t>(money[d]), kMoneyLetter[d]);
    return text;
}

std::optional<Money> parse_money(std::string_view text) {
    if (text.size() > kMaxMoneyLetters) return std::nullopt;
    Money money{};
    for (char c : text) {
        const auto d = denomination_of(c);
        if (!d) return std::nullopt;
        ++money[*d];
    }
    return money;
}

Cards cards_of(const Money& money) { return Cards{money, money_text(money)}; }

std::optional<Cards> parse_cards(std::string_view text) {
    const auto money = parse_money(text);
    if (!money) return std::nullopt;
    return Cards{*money, std::string(text)};
}

std::optional<std::int64_t> parse_bid_value(std::string_view text) {
    const auto money = parse_money(text);
    if (!money) return std::nullopt;
    return money_value(*money);
}

std::string q_text(int cards) { return std::string(static_cast<std::size_t>(cards), 'Q'); }

std::string q_total_text(int cards, int total) { return q_text(cards) + std::to_string(total); }

char relative_letter(int self, int other) {
    static constexpr char kLetters[kSeats] = {'S', 'W', 'N', 'E'};
    return kLetters[((other - self) % kSeats + kSeats) % kSeats];
}

std::optional<int> seat_of_letter(int self, std::string_view letter) {
    static constexpr std::string_view kLetters[kSeats] = {"S", "W", "N", "E"};
    for (int k = 1; k < kSeats; ++k)
        if (letter == kLetters[k]) return (self + k) % kSeats;
    return std::nullopt;
}

std::optional<Money> choose_payment(const Money& hand, int amount) {
    // Every combination of the non-zero denominations: at most a few ten thousand with the 55
    // cards of the game.
    std::optional<Money> best;
    auto key = [](const Money& m) {
        return std::make_tuple(money_value(m), card_count(m), m[5], m[4], m[3], m[2], m[1]);
    };
    Money pick{};
    for (pick[5] = 0; pick[5] <= hand[5]; ++pick[5])
        for (pick[4] = 0; pick[4] <= hand[4]; ++pick[4])
            for (pick[3] = 0; pick[3] <= hand[3]; ++pick[3])
                for (pick[2] = 0; pick[2] <= hand[2]; ++pick[2])
                    for (pick[1] = 0; pick[1] <= hand[1]; ++pick[1]) {
                        if (money_value(pick) < amount) continue;
                        if (!best || key(pick) < key(*best)) best = pick;
                    }
    return best;
}

}  // namespace arb::koehandel
