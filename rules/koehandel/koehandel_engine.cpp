#include "rules/koehandel/koehandel_engine.hpp"

#include "core/rng.hpp"

namespace arb::koehandel {
namespace {

std::string field(const Fields& fields, const std::string& key) {
    const auto it = fields.find(key);
    return it == fields.end() ? std::string() : it->second;
}

int hex_digit(char c) {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
}

std::string url_decode(std::string_view text) {
    std::string out;
    for (std::size_t i = 0; i < text.size(); ++i) {
        if (text[i] == '+') {
            out += ' ';
        } else if (text[i] == '%' && i + 2 < text.size() && hex_digit(text[i + 1]) >= 0 && hex_digit(text[i + 2]) >= 0) {
            out += static_cast<char>(hex_digit(text[i + 1]) * 16 + hex_digit(text[i + 2]));
            i += 2;
        } else {
            out += text[i];
        }
    }
    return out;
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

Fields parse_query(std::string_view body) {
    std::string_view line;
    while (!body.empty()) {
        const auto eol = body.find('\n');
        std::string_view candidate = body.substr(0, eol);
        body = eol == std::string_view::npos ? std::string_view() : body.substr(eol + 1);
        while (!candidate.empty() && (candidate.back() == '\r' || candidate.back() == ' ')) candidate.remove_suffix(1);
        while (!candidate.empty() && candidate.front() == ' ') candidate.remove_prefix(1);
        if (!candidate.empty()) {
            line = candidate;
            break;
        }
    }
    if (!line.empty() && line.front() == '?') line.remove_prefix(1);
    Fields fields;
    while (!line.empty()) {
        const auto amp = line.find('&');
        const std::string_view pair = line.substr(0, amp);
        line = amp == std::string_view::npos ? std::string_view() : line.substr(amp + 1);
        const auto eq = pair.find('=');
        if (eq == std::string_view::npos || eq == 0) continue;
        fields[url_decode(pair.substr(0, eq))] = url_decode(pair.substr(eq + 1));
    }
    return fields;
}

Game::Game(Options options, Players& players) : options_(options), players_(players) {
    Rng rng(options_.seed);
    for (int k = 0; k < kKinds; ++k)
        for (int c = 0; c < kCardsPerKind; ++c) state_.deck.push_back(k);
    rng.shuffle(std::span<int>(state_.deck));
    for (auto& p : state_.players) p.money = starting_money();
    state_.bank = Money{0, 0, kSeats, kSeats, kSeats, kSeats};
    state_.turn_player = static_cast<int>(rng.below(kSeats));
}

void Game::play() {
    begin();
    while (play_turn()) {
    }
    finish();
}

void Game::begin() {
    for (int s = 0; s < kSeats; ++s) players_.tell(s, Message{.type = "information", .message = "begin"});
}

bool Game::play_turn() {
    if (state_.over) return false;
    if (!state_.deck.empty()) {
        const int seat = state_.turn_player;
        play_stock_turn(seat);
        state_.turn_player = (seat + 1) % kSeats;
        ++state_.turns;
        return true;
    }
    // Deck empty: only trades; players without a possible trade are skipped, barred ones too.
    for (int step = 0; step < kSeats; ++step) {
        const int seat = (state_.turn_player + step) % kSeats;
        if (state_.players[seat].barred || !can_trade(state_, seat)) continue;
        if (state_.trade_turns >= options_.max_trade_turns) {
            state_.over = true;
            state_.end_reason = "cap";
            return false;
        }
        play_trade_turn(seat);
        state_.turn_player = (seat + 1) % kSeats;
        ++state_.turns;
        ++state_.trade_turns;
        return true;
    }
    state_.over = true;
    state_.end_reason = "complete";
    return false;
}

void Game::play_stock_turn(int seat) {
    const auto reply = players_.ask(seat, Message{.type = "start"});
    if (!reply) {
        players_.adjudicated(seat, "start: no reply, auction");
    } else if (field(*reply, "type") == "trade") {
        const std::string error = trade_error(seat, *reply);
        if (error.empty()) {
            const int opponent = *seat_of_letter(seat, field(*reply, "opponent"));
            trade(seat, opponent, *kind_of(field(*reply, "goods")[0]), *parse_cards(field(*reply, "money")));
            return;
        }
        players_.tell(seat, Message{.type = "information", .message = error});
        players_.adjudicated(seat, "start: invalid trade (" + error + "), auction");
    }
    auction(seat);
}

bool Game::play_trade_turn(int seat) {
    const auto reply = players_.ask(seat, Message{.type = "start"});
    std::string why = "no reply";
    if (reply && field(*reply, "type") == "trade") {
        const std::string error = trade_error(seat, *reply);
        if (error.empty()) {
            const int opponent = *seat_of_letter(seat, field(*reply, "opponent"));
            trade(seat, opponent, *kind_of(field(*reply, "goods")[0]), *parse_cards(field(*reply, "money")));
            return true;
        }
        players_.tell(seat, Message{.type = "information", .message = error});
        why = "invalid trade (" + error + ")";
    } else if (reply) {
        why = "no trade asked";
    }
    state_.players[seat].barred = true;
    players_.adjudicated(seat, "start with the deck empty: " + why + ", barred from starting trades");
    return false;
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

void Game::finish() {
    const auto s = scores();
    for (int r = 0; r < kSeats; ++r) {
        std::string text;
        for (int k = 0; k < kSeats; ++k) {
            const int seat = (r + k) % kSeats;
            text += relative_letter(r, seat) + std::to_string(s[seat]);
        }
        players_.tell(r, Message{.type = "end", .message = text});
    }
}

std::array<int, kSeats> Game::scores() const {
    std::array<int, kSeats> s{};
    for (int p = 0; p < kSeats; ++p) s[p] = score_of(state_.players[p]);
    return s;
}

void Game::tell_others(int except_a, int except_b, const std::function<Message(int)>& make) {
    for (int s = 0; s < kSeats; ++s)
        if (s != except_a && s != except_b) players_.tell(s, make(s));
}

}  // namespace arb::koehandel
