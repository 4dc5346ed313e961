#include "rules/koehandel/koehandel_engine.hpp"

#include "core/rng.hpp"

namespace arb::koehandel {
namespace {

std::string field(const Fields& fields, const std::string& key) {
    const auto it = fields.find(key);
    return it == fields.end() ? std::string() : it->second;
}

}  // namespace

Money starting_money() { return Money{2, 4, 1, 0, 0, 0}; }

int score_of(const PlayerState& player) {
    int sum = 0, quartets = 0;
    for (int k = 0; k < kKinds; ++k) {
        if (player.animals[k] == kCardsPerKind) {
            sum += kKindValue[k];
            ++quartets;
        }
    }
    return sum * quartets;
}

bool can_trade(const GameState& state, int seat) {
    for (int k = 0; k < kKinds; ++k) {
        if (state.players[seat].animals[k] == 0) continue;
        for (int other = 0; other < kSeats; ++other)
            if (other != seat && state.players[other].animals[k] > 0) return true;
    }
    return false;
}

Game::Game(Options options) : options_(options) {
    Rng rng(options_.seed);
    for (int k = 0; k < kKinds; ++k)
        for (int c = 0; c < kCardsPerKind; ++c) state_.deck.push_back(k);
    rng.shuffle(std::span<int>(state_.deck));
    for (auto& p : state_.players) p.money = starting_money();
    state_.bank = Money{0, 0, kSeats, kSeats, kSeats, kSeats};
    state_.turn_player = static_cast<int>(rng.below(kSeats));
    for (int s = 0; s < kSeats; ++s) tell(s, Message{.type = "information", .message = "begin"});
}

void Game::advance(std::optional<Fields> answer) {
    if (phase_ == Phase::over) return;
    const Phase phase = phase_;
    wait_ = Wait{};
    switch (phase) {
    case Phase::between_turns: next_turn(); break;
    case Phase::start: on_start(answer); break;
    case Phase::bid: on_bid(answer); break;
    case Phase::right_to_buy: on_right_to_buy(answer); break;
    case Phase::collect: on_collect(answer); break;
    case Phase::counter: on_counter(answer); break;
    case Phase::reoffer: on_reoffer(answer); break;
    case Phase::over: break;
    }
}

void Game::tell(int seat, Message message) { wait_.deliver.push_back(Notice{.seat = seat, .message = std::move(message)}); }

void Game::adjudicate(int seat, std::string what) {
    wait_.deliver.push_back(Notice{.seat = seat, .default_action = std::move(what)});
}

void Game::ask(int seat, Message message, Phase phase) {
    wait_.question = Question{seat, std::move(message)};
    phase_ = phase;
}

void Game::tell_others(int except_a, int except_b, const std::function<Message(int)>& make) {
    for (int s = 0; s < kSeats; ++s)
        if (s != except_a && s != except_b) tell(s, make(s));
}

void Game::next_turn() {
    if (state_.over) return end();
    if (!state_.deck.empty()) {
        turn_ = Turn{.seat = state_.turn_player, .deck_empty = false};
        return ask(turn_.seat, Message{.type = "start"}, Phase::start);
    }
    // Deck empty: only trades; players without a possible trade are skipped, barred ones too.
    for (int step = 0; step < kSeats; ++step) {
        const int seat = (state_.turn_player + step) % kSeats;
        if (state_.players[seat].barred || !can_trade(state_, seat)) continue;
        if (state_.trade_turns >= options_.max_trade_turns) {
            state_.over = true;
            state_.end_reason = "cap";
            return end();
        }
        turn_ = Turn{.seat = seat, .deck_empty = true};
        return ask(seat, Message{.type = "start"}, Phase::start);
    }
    state_.over = true;
    state_.end_reason = "complete";
    end();
}

void Game::end_turn() {
    state_.turn_player = (turn_.seat + 1) % kSeats;
    ++state_.turns;
    if (turn_.deck_empty) ++state_.trade_turns;
    phase_ = Phase::between_turns;
}

void Game::on_start(const std::optional<Fields>& reply) {
    const int seat = turn_.seat;
    const bool wants_trade = reply && field(*reply, "type") == "trade";
    const std::string error = wants_trade ? trade_error(seat, *reply) : "";
    if (wants_trade && error.empty())
        return start_trade(seat, *seat_of_letter(seat, field(*reply, "opponent")), *kind_of(field(*reply, "goods")[0]),
                           *parse_cards(field(*reply, "money")));
    if (wants_trade) tell(seat, Message{.type = "information", .message = error});
    const std::string why = !reply ? "no reply" : wants_trade ? "invalid trade (" + error + ")" : "no trade asked";
    if (!turn_.deck_empty) {
        // While the deck lasts anything but a valid trade is an auction (one asked for is no default).
        if (!reply || wants_trade) adjudicate(seat, "start: " + why + ", auction");
        return start_auction(seat);
    }
    state_.players[seat].barred = true;
    adjudicate(seat, "start with the deck empty: " + why + ", barred from starting trades");
    end_turn();
}

std::string Game::trade_error(int initiator, const Fields& reply) const {
    const auto opponent = seat_of_letter(initiator, field(reply, "opponent"));
    if (!opponent) return "no_opponement_specified";
    const std::string goods = field(reply, "goods");
    const auto kind = goods.size() == 1 ? kind_of(goods[0]) : std::nullopt;
    if (!kind || state_.players[initiator].animals[*kind] == 0) return "goods_not_owned_by_player";
    if (state_.players[*opponent].animals[*kind] == 0) return "opponent_goods_do_not_match";
    const auto offer = parse_money(field(reply, "money"));
    if (!offer || !covers(state_.players[initiator].money, *offer)) return "invalid_bid";
    return "";
}

void Game::end() {
    wait_ = Wait{};
    phase_ = Phase::over;
    const auto s = scores();
    for (int r = 0; r < kSeats; ++r) {
        std::string text;
        for (int k = 0; k < kSeats; ++k) {
            const int seat = (r + k) % kSeats;
            text += relative_letter(r, seat) + std::to_string(s[seat]);
        }
        tell(r, Message{.type = "end", .message = text});
    }
}

std::array<int, kSeats> Game::scores() const {
    std::array<int, kSeats> s{};
    for (int p = 0; p < kSeats; ++p) s[p] = score_of(state_.players[p]);
    return s;
}

}  // namespace arb::koehandel
