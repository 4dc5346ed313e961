#pragma once
// A deterministic player for whole games in rule tests: it answers from the question, the
// position and a seeded generator, so that one seed gives one game. It trades, bids (and
// bluffs), claims the right to buy, pays, counters and ties, sends junk and sometimes does not
// answer at all, so that a game passes through every branch of the rules.
#include <cstdint>
#include <optional>
#include <string>

#include "rules/koehandel/koehandel_engine.hpp"

namespace arb::koehandel::test {

class RandomPolicy {
public:
    explicit RandomPolicy(std::uint64_t seed) : x_(seed * 0x9E3779B97F4A7C15ULL + 1) {}

    std::optional<Fields> answer(int seat, const Message& m, const GameState& state) {
        if (below(16) == 0) return std::nullopt;
        const Money& mine = state.players[seat].money;
        if (m.type == "start") {
            for (int k = 0; k < kKinds && below(3) != 0; ++k) {
                if (state.players[seat].animals[k] == 0) continue;
                for (int other = 0; other < kSeats; ++other)
                    if (other != seat && state.players[other].animals[k] > 0)
                        return Fields{{"type", "trade"}, {"opponent", std::string(1, relative_letter(seat, other))},
                                      {"goods", std::string(1, kind_letter(k))}, {"money", money_text(part_of(mine))}};
            }
            if (below(8) == 0) return Fields{{"type", "trade"}, {"opponent", "X"}, {"goods", "A"}};
            return Fields{{"type", "auction"}};
        }
        if (m.type == "auction") {
            if (m.auctioneer.empty()) return below(3) == 0 ? Fields{{"money", m.money}} : Fields{};  // the right to buy
            if (below(10) == 0) return Fields{{"money", "zz"}};
            if (below(2) == 0) return Fields{};
            const auto high = parse_bid_value(m.money);
            const std::int64_t tens = (high ? *high : 0) / 10 + 1 + static_cast<std::int64_t>(below(3));
            return Fields{{"money", std::string(static_cast<std::size_t>(tens), 't')}};
        }
        if (m.type == "collect") {
            if (below(2) == 0) return Fields{};
            const auto value = parse_bid_value(m.money);
            const auto pay = value ? choose_payment(mine, static_cast<int>(*value)) : std::nullopt;
            return Fields{{"money", pay ? money_text(*pay) : "F"}};
        }
        if (m.type == "trade") {
            if (below(5) == 0) return Fields{};
            if (below(8) == 0) return Fields{{"money", "FFFF"}};
            return Fields{{"money", money_text(part_of(mine))}};
        }
        return Fields{};
    }

private:
    std::uint64_t below(std::uint64_t n) {
        x_ ^= x_ << 13;
        x_ ^= x_ >> 7;
        x_ ^= x_ << 17;
        return x_ % n;
    }

    Money part_of(const Money& hand) {
        Money part{};
        for (int d = 0; d < kDenominations; ++d) part[d] = static_cast<int>(below(static_cast<std::uint64_t>(hand[d]) + 1));
        return part;
    }

    std::uint64_t x_;
};

}  // namespace arb::koehandel::test
