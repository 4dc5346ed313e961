#pragma once
// The Koehandel rules engine (koehandel.md sections 1-3 and the rulings of section 5; seed 002):
// four seats, the auction with sequential bidding and the auctioneer's right to buy, bluffs,
// the donkey money, cow trades with hidden offers, ties, the trade barring once the deck is
// empty, the end and the scoring.
//
// The engine is pure: it does no input or output. It talks to the players through the Players
// interface, one message at a time, with the fields of the seed's GET requests already made
// relative to the recipient (it is S; the others are W, N, E clockwise). The referee puts these
// on the wire; tests script them.
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

// A player's answer: the fields of its query-string reply.
using Fields = std::map<std::string, std::string>;

class Players {
public:
    virtual ~Players() = default;
    // A message that needs no answer (information, receive, trade collect, end).
    virtual void tell(int seat, const Message& message) = 0;
    // A message that asks for a decision. nullopt = no answer (missing, late, refused).
    virtual std::optional<Fields> ask(int seat, const Message& message) = 0;
    // The engine applied a default action for the seat (for the match record).
    virtual void adjudicated(int seat, const std::string& what) { (void)seat, (void)what; }
};

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

class Game {
public:
    // Deals: shuffles the 40 animals and picks the first player from the seed.
    Game(Options options, Players& players);

    GameState& state() { return state_; }
    const GameState& state() const { return state_; }
    const Options& options() const { return options_; }

    // Plays the whole game: "begin" to everyone, turns until the end, "end" with the scores.
    void play();
    void begin();
    // Plays the turn of the next player; false once the game is over.
    bool play_turn();
    void finish();
    std::array<int, kSeats> scores() const;

    // The parts of a turn, public so that rule cases can start them from a set position.
    void auction(int auctioneer);
    // Checks a start reply asking for a trade; "" when it is valid, else the seed's message.
    std::string trade_error(int initiator, const Fields& reply) const;
    void trade(int initiator, int opponent, int kind, const Cards& offer);

private:
    struct Bidding {
        int high = -1;  // highest bidder, -1 = nobody bid
        int value = 0;
        std::string text;
        std::vector<std::pair<int, int>> history;  // seat, value (0 = pass)
    };

    void pay_donkey_money(int auctioneer);
    Bidding run_bidding(int auctioneer, int kind, const std::array<bool, kSeats>& caught,
                        const std::array<bool, kSeats>& excluded);
    std::string history_text(const Bidding& bidding, int self, std::size_t from) const;
    int right_to_buy(int auctioneer, int kind, const Bidding& bidding);  // the buyer
    void settle_auction(int buyer, int payer, int payee, int kind, const Bidding& bidding);
    void settle_trade(int winner, int loser, int kind, int count, const Cards& winner_pays, const Cards& loser_pays);
    std::optional<Cards> read_offer(const std::optional<Fields>& reply, int seat) const;
    bool play_trade_turn(int seat);  // deck empty
    void play_stock_turn(int seat);  // deck not empty
    void tell_others(int except_a, int except_b, const std::function<Message(int)>& make);

    Options options_;
    Players& players_;
    GameState state_;
};

// Reads a reply body in query form ("?a=1&b=2", the '?' optional, %XX and '+' decoded); the
// first non-blank line counts. Unknown keys are kept; a malformed pair is skipped.
Fields parse_query(std::string_view body);

}  // namespace arb::koehandel
