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

void Game::start_auction(int auctioneer) {
    auction_ = Auction{};
    auction_.auctioneer = auctioneer;
    auction_.kind = state_.deck.back();
    state_.deck.pop_back();
    if (auction_.kind == kDonkey) pay_donkey_money(auctioneer);
    start_bidding();
}

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
        tell(seat, Message{.type = "receive", .money = letter});
        tell_others(seat, seat, [&](int r) { return Message{.type = "information", .opponent = rel(r, seat), .money = letter}; });
    }
}

std::string Game::history_text(const Bidding& bidding, int self, std::size_t from) const {
    std::string text;
    for (std::size_t i = from; i < bidding.history.size(); ++i)
        text += relative_letter(self, bidding.history[i].first) + std::to_string(bidding.history[i].second);
    return text;
}

// A round of bidding: the card's first, or its repeat after a bluff (a new bid history).
void Game::start_bidding() {
    Auction& a = auction_;
    a.bidding = Bidding{};
    a.seen = {};
    for (int s = 0; s < kSeats; ++s) a.active[s] = s != a.auctioneer && !a.excluded[s];
    a.seat = a.auctioneer;
    ask_next_bidder();
}

void Game::ask_next_bidder() {
    Auction& a = auction_;
    const Bidding& bidding = a.bidding;
    int left = 0;
    for (int s = 0; s < kSeats; ++s) left += a.active[s] && s != bidding.high;
    if (left == 0) {
        if (bidding.high >= 0) {
            // The example's row to the auctioneer leaves the auctioneer field empty.
            return ask(a.auctioneer,
                       Message{.type = "auction",
                               .opponent = rel(a.auctioneer, bidding.high),
                               .goods = goods_text(a.kind),
                               .money = bidding.text,
                               .message = history_text(bidding, a.auctioneer, 0)},
                       Phase::right_to_buy);
        }
        // Nobody bid: the auctioneer takes the card for free.
        ++state_.players[a.auctioneer].animals[a.kind];
        tell(a.auctioneer, Message{.type = "receive", .goods = goods_text(a.kind)});
        tell_others(a.auctioneer, a.auctioneer, [&](int r) {
            return Message{.type = "information", .opponent = rel(r, a.auctioneer), .goods = goods_text(a.kind), .money = "-0"};
        });
        return end_turn();
    }
    do a.seat = (a.seat + 1) % kSeats;
    while (!a.active[a.seat] || a.seat == bidding.high);
    const int holder = bidding.high >= 0 ? bidding.high : a.auctioneer;
    ask(a.seat,
        Message{.type = "auction",
                .opponent = rel(a.seat, holder),
                .auctioneer = rel(a.seat, a.auctioneer),
                .goods = goods_text(a.kind),
                .money = bidding.text,
                .message = history_text(bidding, a.seat, a.seen[a.seat])},
        Phase::bid);
}

void Game::on_bid(const std::optional<Fields>& reply) {
    Auction& a = auction_;
    Bidding& bidding = a.bidding;
    const int seat = a.seat;
    const std::string text = money_field(reply);
    const auto value = parse_bid_value(text);
    bool valid = value && *value > bidding.value;
    if (valid && a.caught[seat] && *value > money_value(state_.players[seat].money)) {
        tell(seat, Message{.type = "information", .message = "second_bluff_not_allowed"});
        adjudicate(seat, "bid " + text + " after a bluff exceeds its money, pass");
        valid = false;
    } else if (!valid && (!reply || !text.empty())) {
        adjudicate(seat, !reply ? "bid: no reply, pass" : "bid '" + text + "' not a higher bid, pass");
    }
    bidding.history.emplace_back(seat, value ? static_cast<int>(*value) : 0);
    a.seen[seat] = bidding.history.size();
    if (valid) {
        bidding.high = seat;
        bidding.value = static_cast<int>(*value);
        bidding.text = text;
    } else {
        a.active[seat] = false;
    }
    ask_next_bidder();
}

void Game::on_right_to_buy(const std::optional<Fields>& reply) {
    Auction& a = auction_;
    const Bidding& bidding = a.bidding;
    const auto value = parse_bid_value(money_field(reply));
    if (!reply) adjudicate(a.auctioneer, "right to buy: no reply, sold");
    a.buyer = bidding.high;
    if (value && *value >= bidding.value) {
        if (money_value(state_.players[a.auctioneer].money) < bidding.value) {
            // Ruling 6: a claim the auctioneer cannot pay is void; its money stays hidden.
            tell(a.auctioneer, Message{.type = "information", .message = "invalid_bid"});
            adjudicate(a.auctioneer, "right to buy without the money to pay, void");
        } else {
            a.buyer = a.auctioneer;
        }
    }
    a.payer = a.buyer;
    a.payee = a.buyer == a.auctioneer ? bidding.high : a.auctioneer;
    if (money_value(state_.players[a.payer].money) < bidding.value) {
        // The bidder cannot pay: everyone sees its money, and the card is auctioned again.
        a.caught[a.payer] = true;
        if (!options_.bluffer_rejoins) a.excluded[a.payer] = true;
        const std::string real = money_text(state_.players[a.payer].money);
        for (int r = 0; r < kSeats; ++r)
            tell(r, Message{.type = "information", .opponent = rel(r, a.payer), .money = real, .message = "bluffed"});
        adjudicate(a.payer, "bluffed: bid " + std::to_string(bidding.value) + " with " +
                                std::to_string(money_value(state_.players[a.payer].money)) + ", auction repeated");
        return start_bidding();
    }
    ++state_.players[a.buyer].animals[a.kind];
    tell(a.buyer, Message{.type = "receive", .goods = goods_text(a.kind)});
    ask(a.payer, Message{.type = "collect", .opponent = rel(a.payer, a.payee), .money = bidding.text}, Phase::collect);
}

void Game::on_collect(const std::optional<Fields>& reply) {
    const Auction& a = auction_;
    const int payer = a.payer, payee = a.payee;
    Money& hand = state_.players[payer].money;
    const auto chosen = parse_cards(money_field(reply));
    Cards cards;
    if (chosen && covers(hand, chosen->money) && money_value(chosen->money) >= a.bidding.value) {
        cards = *chosen;
    } else {
        cards = cards_of(*choose_payment(hand, a.bidding.value));  // the hand covers the bid: checked before
        tell(payer, Message{.type = "information", .opponent = rel(payer, payee), .money = "-" + cards.text});
        adjudicate(payer, reply ? "collect: payment not valid, the server paid " + cards.text
                                : "collect: no reply, the server paid " + cards.text);
    }
    const Money paid = cards.money;
    hand = hand - paid;
    state_.players[payee].money = state_.players[payee].money + paid;
    const std::string paid_text = cards.text;
    tell(payee, Message{.type = "receive", .opponent = rel(payee, payer), .money = paid_text});
    const int count = card_count(paid), total = money_value(paid);
    tell_others(payer, payee, [&](int r) {
        return Message{.type = "information", .opponent = rel(r, a.buyer), .goods = goods_text(a.kind), .money = "-" + q_total_text(count, total)};
    });
    tell_others(payer, payee, [&](int r) {
        return Message{.type = "information", .opponent = rel(r, payee), .money = q_total_text(count, total)};
    });
    end_turn();
}

}  // namespace arb::koehandel
