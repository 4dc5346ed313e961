// The cow trade (koehandel.md 1.6, 2.6 deviation 5; rulings 10-14, 17, 18): hidden offers of
// real cards, the counter-offer, the tie and its second round, how many cards move, and the
// money of the first and second editions.
#include "rules/koehandel/koehandel_engine.hpp"

namespace arb::koehandel {
namespace {

std::string rel(int self, int other) { return std::string(1, relative_letter(self, other)); }

}  // namespace

std::optional<Cards> Game::read_offer(const std::optional<Fields>& reply, int seat) const {
    if (!reply) return std::nullopt;
    const auto it = reply->find("money");
    const auto offer = parse_cards(it == reply->end() ? "" : it->second);
    if (!offer || !covers(state_.players[seat].money, offer->money)) return std::nullopt;
    return offer;
}

void Game::start_trade(int initiator, int opponent, int kind, const Cards& offer) {
    const auto& a = state_.players[initiator];
    const auto& b = state_.players[opponent];
    trade_ = Trade{};
    trade_.initiator = initiator;
    trade_.opponent = opponent;
    trade_.kind = kind;
    // Ruling 14: two cards only when both hold exactly two.
    trade_.count = a.animals[kind] == 2 && b.animals[kind] == 2 ? 2 : 1;
    trade_.goods = std::string(static_cast<std::size_t>(trade_.count), kind_letter(kind));
    trade_.offer = offer;
    ask_counter();
}

// The challenged player is asked for its counter-offer; after a tie, again (ruling 13).
void Game::ask_counter() {
    const Trade& t = trade_;
    ask(t.opponent,
        Message{.type = "trade",
                .opponent = rel(t.opponent, t.initiator),
                .goods = t.goods,
                .money = q_text(card_count(t.offer.money)),
                .message = t.round == 0 ? "" : "equal_bid"},
        Phase::counter);
}

void Game::on_counter(const std::optional<Fields>& reply) {
    Trade& t = trade_;
    const auto it = reply ? reply->find("money") : Fields::const_iterator{};
    const bool countered = reply && it != reply->end() && !it->second.empty();
    if (!reply) adjudicate(t.opponent, "challenged: no reply, offer accepted");
    const auto counter = countered ? read_offer(reply, t.opponent) : std::nullopt;
    if (countered && !counter) {
        // Seed: an invalid counter-offer loses the trade at once.
        tell(t.opponent, Message{.type = "information", .message = "invalid_bid"});
        adjudicate(t.opponent, "counter-offer '" + it->second + "' not valid, offer accepted");
    }
    if (!counter) return settle_trade(t.initiator, t.opponent, t.offer, Cards{});
    const int mine = money_value(t.offer.money), theirs = money_value(counter->money);
    if (mine != theirs) {
        const bool initiator_wins = mine > theirs;
        const int winner = initiator_wins ? t.initiator : t.opponent;
        const int loser = initiator_wins ? t.opponent : t.initiator;
        const Cards& winner_offer = initiator_wins ? t.offer : *counter;
        const Cards& loser_offer = initiator_wins ? *counter : t.offer;
        return settle_trade(winner, loser, winner_offer, options_.edition == Edition::second ? loser_offer : Cards{});
    }
    // Ruling 13: a second tie gives the initiator the animals, and no money moves.
    if (t.round == 1) return settle_trade(t.initiator, t.opponent, Cards{}, Cards{});
    // Ruling 13: after a tie the initiator offers again; an invalid offer loses at once.
    t.round = 1;
    ask(t.initiator, Message{.type = "trade", .opponent = rel(t.initiator, t.opponent), .goods = t.goods, .message = "equal_bid"},
        Phase::reoffer);
}

void Game::on_reoffer(const std::optional<Fields>& reply) {
    Trade& t = trade_;
    const auto again = read_offer(reply, t.initiator);
    if (!again) {
        adjudicate(t.initiator, reply ? "trade re-offer not valid, the trade is lost" : "trade re-offer: no reply, the trade is lost");
        return settle_trade(t.opponent, t.initiator, Cards{}, Cards{});
    }
    t.offer = *again;
    ask_counter();
}

// Ends the turn.
void Game::settle_trade(int winner, int loser, const Cards& winner_pays, const Cards& loser_pays) {
    const int kind = trade_.kind, count = trade_.count;
    const std::string& goods = trade_.goods;
    state_.players[loser].animals[kind] -= count;
    state_.players[winner].animals[kind] += count;
    tell(loser, Message{.type = "collect", .opponent = rel(loser, winner), .goods = goods});
    tell(winner, Message{.type = "receive", .opponent = rel(winner, loser), .goods = goods});
    // One collect/receive pair for each direction in which money moves.
    auto move_money = [&](int from, int to, const Cards& cards) {
        if (card_count(cards.money) == 0) return;
        state_.players[from].money = state_.players[from].money - cards.money;
        state_.players[to].money = state_.players[to].money + cards.money;
        tell(from, Message{.type = "collect", .opponent = rel(from, to), .money = cards.text});
        tell(to, Message{.type = "receive", .opponent = rel(to, from), .money = cards.text});
    };
    move_money(winner, loser, winner_pays);
    move_money(loser, winner, loser_pays);
    // Bystanders learn only the number of cards (ruling 17), labelled from their own seat (ruling 18).
    auto paid = [](const Cards& c) { return card_count(c.money) ? "-" + q_text(card_count(c.money)) : std::string(); };
    auto got = [](const Cards& c) { return q_text(card_count(c.money)); };
    tell_others(winner, loser, [&](int r) { return Message{.type = "information", .opponent = rel(r, winner), .goods = goods, .money = paid(winner_pays)}; });
    tell_others(winner, loser, [&](int r) { return Message{.type = "information", .opponent = rel(r, loser), .goods = "-" + goods, .money = got(winner_pays)}; });
    if (card_count(loser_pays.money) > 0) {
        tell_others(winner, loser, [&](int r) { return Message{.type = "information", .opponent = rel(r, loser), .money = paid(loser_pays)}; });
        tell_others(winner, loser, [&](int r) { return Message{.type = "information", .opponent = rel(r, winner), .money = got(loser_pays)}; });
    }
    end_turn();
}

}  // namespace arb::koehandel
