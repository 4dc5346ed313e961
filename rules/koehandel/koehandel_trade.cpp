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

void Game::trade(int initiator, int opponent, int kind, const Cards& first_offer) {
    const auto& a = state_.players[initiator];
    const auto& b = state_.players[opponent];
    // Ruling 14: two cards only when both hold exactly two.
    const int count = a.animals[kind] == 2 && b.animals[kind] == 2 ? 2 : 1;
    const std::string goods(static_cast<std::size_t>(count), kind_letter(kind));
    Cards offer = first_offer;
    for (int round = 0; round < 2; ++round) {
        const std::string tie = round == 0 ? "" : "equal_bid";
        if (round == 1) {
            // Ruling 13: after a tie the initiator offers again; an invalid offer loses at once.
            const auto reply = players_.ask(initiator, Message{.type = "trade", .opponent = rel(initiator, opponent), .goods = goods, .message = tie});
            const auto again = read_offer(reply, initiator);
            if (!again) {
                players_.adjudicated(initiator, reply ? "trade re-offer not valid, the trade is lost" : "trade re-offer: no reply, the trade is lost");
                settle_trade(opponent, initiator, kind, count, Cards{}, Cards{});
                return;
            }
            offer = *again;
        }
        const auto reply = players_.ask(opponent, Message{.type = "trade",
                                                          .opponent = rel(opponent, initiator),
                                                          .goods = goods,
                                                          .money = q_text(card_count(offer.money)),
                                                          .message = tie});
        const auto it = reply ? reply->find("money") : Fields::const_iterator{};
        const bool countered = reply && it != reply->end() && !it->second.empty();
        if (!reply) players_.adjudicated(opponent, "challenged: no reply, offer accepted");
        const auto counter = countered ? read_offer(reply, opponent) : std::nullopt;
        if (countered && !counter) {
            // Seed: an invalid counter-offer loses the trade at once.
            players_.tell(opponent, Message{.type = "information", .message = "invalid_bid"});
            players_.adjudicated(opponent, "counter-offer '" + it->second + "' not valid, offer accepted");
        }
        if (!counter) {
            settle_trade(initiator, opponent, kind, count, offer, Cards{});
            return;
        }
        const int mine = money_value(offer.money), theirs = money_value(counter->money);
        if (mine != theirs) {
            const bool initiator_wins = mine > theirs;
            const int winner = initiator_wins ? initiator : opponent;
            const int loser = initiator_wins ? opponent : initiator;
            const Cards& winner_offer = initiator_wins ? offer : *counter;
            const Cards& loser_offer = initiator_wins ? *counter : offer;
            settle_trade(winner, loser, kind, count, winner_offer,
                         options_.edition == Edition::second ? loser_offer : Cards{});
            return;
        }
    }
    // Ruling 13: a second tie gives the initiator the animals, and no money moves.
    settle_trade(initiator, opponent, kind, count, Cards{}, Cards{});
}

void Game::settle_trade(int winner, int loser, int kind, int count, const Cards& winner_pays, const Cards& loser_pays) {
    const std::string goods(static_cast<std::size_t>(count), kind_letter(kind));
    state_.players[loser].animals[kind] -= count;
    state_.players[winner].animals[kind] += count;
    players_.tell(loser, Message{.type = "collect", .opponent = rel(loser, winner), .goods = goods});
    players_.tell(winner, Message{.type = "receive", .opponent = rel(winner, loser), .goods = goods});
    // One collect/receive pair for each direction in which money moves.
    auto move_money = [&](int from, int to, const Cards& cards) {
        if (card_count(cards.money) == 0) return;
        state_.players[from].money = state_.players[from].money - cards.money;
        state_.players[to].money = state_.players[to].money + cards.money;
        players_.tell(from, Message{.type = "collect", .opponent = rel(from, to), .money = cards.text});
        players_.tell(to, Message{.type = "receive", .opponent = rel(to, from), .money = cards.text});
    };
    move_money(winner, loser, winner_pays);
    move_money(loser, winner, loser_pays);
    // Bystanders learn only the number of cards (ruling 17), labelled from their own seat (ruling 18).
    auto paid = [](const Cards& c) { return card_count(c.money) ? "-" + q_text(card_count(c.money)) : std::string(); };
    auto got = [](const Cards& c) { return q_text(card_count(c.money)); };
    tell_others(winner, loser, [&](int r) { return Message{.type = "information", .opponent = rel(r, winner), .goods = goods, .money = paid(winner_pays)}; });
    tell_others(winner, loser, [&](int r) { return Message{.type = "information", .opponent = rel(r, loser), .goods = "-" + goods, .money = got(winner_pays)}; });
    if (card_count(loser_pays.money) == 0) return;
    tell_others(winner, loser, [&](int r) { return Message{.type = "information", .opponent = rel(r, loser), .money = paid(loser_pays)}; });
    tell_others(winner, loser, [&](int r) { return Message{.type = "information", .opponent = rel(r, winner), .money = got(loser_pays)}; });
}

}  // namespace arb::koehandel
