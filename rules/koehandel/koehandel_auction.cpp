// The auction (koehandel.md 1.4, 1.5, 2.6 deviations 1, 2 and 4; rulings 3-7 and 17): sequential
// bids in seat order after the auctioneer, the auctioneer's right to buy, payment without
// change, the bluff and its repeat, the donkey money.
#include <stdexcept>

#include "rules/koehandel/koehandel_engine.hpp"

namespace arb::koehandel {
namespace {

std::string goods_text(int kind) { return std::string(1, kind_letter(kind)); }

std::string rel(int self, int other) { return std::string(1, relative_letter(self, other)); }

std::string money_field(const std::optional<Fields>& reply) {
    if (!reply) return "";
    const auto it = reply->find("money");
    return it == reply->end() ? std::string() : it->second;
}

}  // namespace

void Game::pay_donkey_money(int auctioneer) {
    // 50, 100, 200, 500 for the 1st..4th donkey, to every player (koehandel.md 1.5).
    const int denomination = 2 + state_.donkeys_turned;
    ++state_.donkeys_turned;
    const std::string letter(1, kMoneyLetter[denomination]);
    for (int step = 0; step < kSeats; ++step) {
        const int seat = (auctioneer + step) % kSeats;
        if (state_.bank[denomination] <= 0) throw std::logic_error("koehandel: the bank ran out of donkey money");
        --state_.bank[denomination];
        ++state_.players[seat].money[denomination];
        players_.tell(seat, Message{.type = "receive", .money = letter});
        tell_others(seat, seat, [&](int r) { return Message{.type = "information", .opponent = rel(r, seat), .money = letter}; });
    }
}

std::string Game::history_text(const Bidding& bidding, int self, std::size_t from) const {
    std::string text;
    for (std::size_t i = from; i < bidding.history.size(); ++i)
        text += relative_letter(self, bidding.history[i].first) + std::to_string(bidding.history[i].second);
    return text;
}

Game::Bidding Game::run_bidding(int auctioneer, int kind, const std::array<bool, kSeats>& caught,
                                const std::array<bool, kSeats>& excluded) {
    Bidding bidding;
    std::array<bool, kSeats> active{};
    std::array<std::size_t, kSeats> seen{};  // history a seat has been told about
    for (int s = 0; s < kSeats; ++s) active[s] = s != auctioneer && !excluded[s];
    int seat = auctioneer;
    for (;;) {
        int left = 0;
        for (int s = 0; s < kSeats; ++s) left += active[s] && s != bidding.high;
        if (left == 0) break;
        do seat = (seat + 1) % kSeats;
        while (!active[seat] || seat == bidding.high);
        const int holder = bidding.high >= 0 ? bidding.high : auctioneer;
        const auto reply = players_.ask(seat, Message{.type = "auction",
                                                      .opponent = rel(seat, holder),
                                                      .auctioneer = rel(seat, auctioneer),
                                                      .goods = goods_text(kind),
                                                      .money = bidding.text,
                                                      .message = history_text(bidding, seat, seen[seat])});
        const std::string text = money_field(reply);
        const auto value = parse_bid_value(text);
        bool valid = value && *value > bidding.value;
        if (valid && caught[seat] && *value > money_value(state_.players[seat].money)) {
            players_.tell(seat, Message{.type = "information", .message = "second_bluff_not_allowed"});
            players_.adjudicated(seat, "bid " + text + " after a bluff exceeds its money, pass");
            valid = false;
        } else if (!valid && (!reply || !text.empty())) {
            players_.adjudicated(seat, !reply ? "bid: no reply, pass" : "bid '" + text + "' not a higher bid, pass");
        }
        bidding.history.emplace_back(seat, value ? static_cast<int>(*value) : 0);
        seen[seat] = bidding.history.size();
        if (valid) {
            bidding.high = seat;
            bidding.value = static_cast<int>(*value);
            bidding.text = text;
        } else {
            active[seat] = false;
        }
    }
    return bidding;
}

int Game::right_to_buy(int auctioneer, int kind, const Bidding& bidding) {
    // The example's row to the auctioneer leaves the auctioneer field empty.
    const auto reply = players_.ask(auctioneer, Message{.type = "auction",
                                                        .opponent = rel(auctioneer, bidding.high),
                                                        .goods = goods_text(kind),
                                                        .money = bidding.text,
                                                        .message = history_text(bidding, auctioneer, 0)});
    const auto value = parse_bid_value(money_field(reply));
    if (!reply) players_.adjudicated(auctioneer, "right to buy: no reply, sold");
    if (!value || *value < bidding.value) return bidding.high;
    if (money_value(state_.players[auctioneer].money) < bidding.value) {
        // Ruling 6: a claim the auctioneer cannot pay is void; its money stays hidden.
        players_.tell(auctioneer, Message{.type = "information", .message = "invalid_bid"});
        players_.adjudicated(auctioneer, "right to buy without the money to pay, void");
        return bidding.high;
    }
    return auctioneer;
}

void Game::auction(int auctioneer) {
    const int kind = state_.deck.back();
    state_.deck.pop_back();
    if (kind == kDonkey) pay_donkey_money(auctioneer);
    std::array<bool, kSeats> caught{}, excluded{};
    for (;;) {
        const Bidding bidding = run_bidding(auctioneer, kind, caught, excluded);
        if (bidding.high < 0) {
            // Nobody bid: the auctioneer takes the card for free.
            ++state_.players[auctioneer].animals[kind];
            players_.tell(auctioneer, Message{.type = "receive", .goods = goods_text(kind)});
            tell_others(auctioneer, auctioneer, [&](int r) {
                return Message{.type = "information", .opponent = rel(r, auctioneer), .goods = goods_text(kind), .money = "-0"};
            });
            return;
        }
        const int buyer = right_to_buy(auctioneer, kind, bidding);
        const int payer = buyer;
        const int payee = buyer == auctioneer ? bidding.high : auctioneer;
        if (money_value(state_.players[payer].money) < bidding.value) {
            // The bidder cannot pay: everyone sees its money, and the card is auctioned again.
            caught[payer] = true;
            if (!options_.bluffer_rejoins) excluded[payer] = true;
            const std::string real = money_text(state_.players[payer].money);
            for (int r = 0; r < kSeats; ++r)
                players_.tell(r, Message{.type = "information", .opponent = rel(r, payer), .money = real, .message = "bluffed"});
            players_.adjudicated(payer, "bluffed: bid " + std::to_string(bidding.value) + " with " +
                                            std::to_string(money_value(state_.players[payer].money)) + ", auction repeated");
            continue;
        }
        settle_auction(buyer, payer, payee, kind, bidding);
        return;
    }
}

void Game::settle_auction(int buyer, int payer, int payee, int kind, const Bidding& bidding) {
    ++state_.players[buyer].animals[kind];
    players_.tell(buyer, Message{.type = "receive", .goods = goods_text(kind)});
    const auto reply = players_.ask(payer, Message{.type = "collect", .opponent = rel(payer, payee), .money = bidding.text});
    Money& hand = state_.players[payer].money;
    const auto chosen = parse_cards(money_field(reply));
    Cards cards;
    if (chosen && covers(hand, chosen->money) && money_value(chosen->money) >= bidding.value) {
        cards = *chosen;
    } else {
        cards = cards_of(*choose_payment(hand, bidding.value));  // the hand covers the bid: checked before
        players_.tell(payer, Message{.type = "information", .opponent = rel(payer, payee), .money = "-" + cards.text});
        players_.adjudicated(payer, reply ? "collect: payment not valid, the server paid " + cards.text
                                          : "collect: no reply, the server paid " + cards.text);
    }
    const Money paid = cards.money;
    hand = hand - paid;
    state_.players[payee].money = state_.players[payee].money + paid;
    const std::string paid_text = cards.text;
    players_.tell(payee, Message{.type = "receive", .opponent = rel(payee, payer), .money = paid_text});
    const int count = card_count(paid), total = money_value(paid);
    tell_others(payer, payee, [&](int r) {
        return Message{.type = "information", .opponent = rel(r, buyer), .goods = goods_text(kind), .money = "-" + q_total_text(count, total)};
    });
    tell_others(payer, payee, [&](int r) {
        return Message{.type = "information", .opponent = rel(r, payee), .money = q_total_text(count, total)};
    });
}

}  // namespace arb::koehandel
