#pragma once
// The Koehandel rules engine (koehandel.md sections 1-3 and the rulings of section 5; seed 002):
// four seats, the auction with sequential bidding and the auctioneer's right to buy, bluffs,
// the donkey money, cow trades with hidden offers, ties, the trade barring once the deck is
// empty, the end and the scoring.
//
// The engine is a pure state machine: it does no input or output and calls nobody. Its wait()
// says what it waits for: messages to deliver (with the fields of the seed's GET requests already
// made relative to the recipient: it is S; the others are W, N, E clockwise), then the answer of
// one seat to one question; advance() applies that answer and runs on to the next wait. The
// referee puts the messages on the wire (through koehandel_play.hpp), tests script them.
#include <array>
#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "rules/koehandel/koehandel_cards.hpp"

namespace arb::koehandel {

// One message to a player: the seed's fields except market and id (the referee adds those).
// Every field has an initialiser, so Message{.type = "start"} names only what it sets.
struct Message {
    std::string type{};
    std::string opponent{};
    std::string auctioneer{};
    std::string goods{};
    std::string money{};
    std::string message{};

    friend bool operator==(const Message&, const Message&) = default;
};

// A player's answer: the fields of its query-string reply (koehandel_protocol.hpp reads them).
using Fields = std::map<std::string, std::string>;

// Money in a cow trade with a valid counter-offer (koehandel.md 1.6, ruling 12; RULINGS.md).
enum class Edition {
    first = 1,   // the winner's offer goes to the loser, the loser takes its own back
    second = 2,  // both offers change hands
};

struct Options {
    std::uint64_t seed = 1;
    Edition edition = Edition::second;
    int max_trade_turns = 200;    // turns after the deck is empty before the game is scored (ruling 15)
    bool bluffer_rejoins = true;  // a caught bluffer may bid again when the card is re-auctioned (ruling 5)
};

struct PlayerState {
    std::array<int, kKinds> animals{};
    Money money{};
    bool barred = false;  // may no longer start trades (seed deviation 3, ruling 9)
};

struct GameState {
    std::array<PlayerState, kSeats> players{};
    std::vector<int> deck;  // kinds; the top card is the back
    Money bank{};           // the donkey money still to pay
    int donkeys_turned = 0;
    int turn_player = 0;    // whose turn is next
    int turns = 0;
    int trade_turns = 0;    // turns since the deck ran out
    bool over = false;
    std::string end_reason;  // "complete" (no trade possible) or "cap"
};

// The starting hand nnttttf (koehandel.md 2.3) and the bank: one f, h, T, F per seat.
Money starting_money();
// Score: sum of the values of the complete quartets times their number (seed "Score").
int score_of(const PlayerState& player);
// Whether the seat could start a valid trade: a kind both it and another seat hold.
bool can_trade(const GameState& state, int seat);

// A message that needs no answer (information, receive, trade collect, end), or a default
// action the engine applied for the seat (for the match record): then `default_action` says which
// and `message` is empty.
struct Notice {
    int seat = 0;
    Message message{};
    std::string default_action{};

    bool is_default() const { return !default_action.empty(); }
    friend bool operator==(const Notice&, const Notice&) = default;
};

// A message that asks a seat for a decision (start, auction, collect, trade).
struct Question {
    int seat = 0;
    Message message{};

    friend bool operator==(const Question&, const Question&) = default;
};

// What the game waits for: first the notices to deliver, in order; then the answer to the
// question. There is no question at the start (the notices are "begin"), at the end of each turn
// and once the game is over (the notices are "end").
struct Wait {
    std::vector<Notice> deliver;
    std::optional<Question> question;
};

class Game {
public:
    // Deals: shuffles the 40 animals and picks the first player from the seed. The first wait
    // delivers "begin" to everyone.
    explicit Game(Options options);

    GameState& state() { return state_; }
    const GameState& state() const { return state_; }
    const Options& options() const { return options_; }
    std::array<int, kSeats> scores() const;

    const Wait& wait() const { return wait_; }
    // A turn has ended (or the game has not started) and no question is open.
    bool between_turns() const { return phase_ == Phase::between_turns; }
    // The game is over; the last wait delivers "end" with the scores.
    bool over() const { return phase_ == Phase::over; }
    // Applies the answer to wait().question (nullopt = no answer: missing, late, refused) and
    // runs on to the next wait. Between turns (where the answer is ignored) it starts the next
    // turn, or ends the game when no turn is left. Once the game is over it does nothing.
    void advance(std::optional<Fields> answer);
    // Ends the game where it stands: the wait becomes "end" with the current scores. For rule
    // cases that score a set position.
    void end();

    // Checks a start reply asking for a trade; "" when it is valid, else the seed's message.
    std::string trade_error(int initiator, const Fields& reply) const;

private:
    enum class Phase { between_turns, start, bid, right_to_buy, collect, counter, reoffer, over };

    struct Bidding {
        int high = -1;  // highest bidder, -1 = nobody bid
        int value = 0;
        std::string text;
        std::vector<std::pair<int, int>> history;  // seat, value (0 = pass)
    };

    // The turn under way.
    struct Turn {
        int seat = 0;
        bool deck_empty = false;  // a trade turn: the deck was empty when it began
    };

    // The auction under way: the card, the bluffers, the current round of bidding and its sale.
    struct Auction {
        int auctioneer = 0;
        int kind = 0;
        std::array<bool, kSeats> caught{};
        std::array<bool, kSeats> excluded{};
        Bidding bidding;
        std::array<bool, kSeats> active{};
        std::array<std::size_t, kSeats> seen{};  // history a seat has been told about
        int seat = 0;                             // the seat asked last
        int buyer = 0, payer = 0, payee = 0;      // once sold
    };

    // The cow trade under way.
    struct Trade {
        int initiator = 0;
        int opponent = 0;
        int kind = 0;
        int count = 1;
        std::string goods;
        Cards offer;
        int round = 0;  // 1 after a tie
    };

    // The engine's outputs: a message, a default action, a question (then it waits).
    void tell(int seat, Message message);
    void adjudicate(int seat, std::string what);
    void ask(int seat, Message message, Phase phase);
    void tell_others(int except_a, int except_b, const std::function<Message(int)>& make);

    // Turns.
    void next_turn();
    void end_turn();
    void on_start(const std::optional<Fields>& reply);

    // The auction (koehandel_auction.cpp).
    void start_auction(int auctioneer);
    void pay_donkey_money(int auctioneer);
    void start_bidding();
    void ask_next_bidder();
    void on_bid(const std::optional<Fields>& reply);
    void on_right_to_buy(const std::optional<Fields>& reply);
    void on_collect(const std::optional<Fields>& reply);
    std::string history_text(const Bidding& bidding, int self, std::size_t from) const;

    // The cow trade (koehandel_trade.cpp).
    void start_trade(int initiator, int opponent, int kind, const Cards& offer);
    void ask_counter();
    void on_counter(const std::optional<Fields>& reply);
    void on_reoffer(const std::optional<Fields>& reply);
    void settle_trade(int winner, int loser, const Cards& winner_pays, const Cards& loser_pays);  // ends the turn
    std::optional<Cards> read_offer(const std::optional<Fields>& reply, int seat) const;

    Options options_;
    GameState state_;
    Phase phase_ = Phase::between_turns;
    Wait wait_;
    Turn turn_;
    Auction auction_;
    Trade trade_;
};

}  // namespace arb::koehandel
