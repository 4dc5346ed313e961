// Rule cases: cards and letters, bids, the right to buy, payment, bluffs, the donkey, the
// trade barring once the deck is empty, the end, the scoring (koehandel.md 1-3, rulings 3-9,
// 15-20).
#include "koehandel_test_support.hpp"
#include "rules/koehandel/koehandel_protocol.hpp"

namespace arb::koehandel::test {
namespace {

// Runs one auction turn of `auctioneer` for the kind on top of the deck.
void auction_turn(Game& game, ScriptedPlayers& players, int auctioneer) {
    game.state().turn_player = auctioneer;
    players.script(auctioneer, Fields{});  // no answer to start: an auction
    REQUIRE(play_turn(game, players));
}

std::vector<Row> rows_of(const ScriptedPlayers& players, int seat, const std::string& type) {
    std::vector<Row> out;
    for (const auto& r : players.rows)
        if (r.seat == seat && r.message.type == type) out.push_back(r);
    return out;
}

}  // namespace

TEST_CASE("koehandel: letters, values and relative seats") {
    CHECK(money_value(*parse_money("FThftn")) == 860);
    CHECK_FALSE(parse_money("tx"));
    CHECK_FALSE(parse_money(std::string(kMaxMoneyLetters + 1, 't')));
    CHECK(parse_bid_value("FFFFF") == 2500);  // a bid is a value, not cards (koehandel.md 2.3)
    CHECK(money_text(Money{2, 4, 1, 0, 0, 0}) == "fttttnn");
    CHECK(relative_letter(S, W) == 'W');
    CHECK(relative_letter(W, S) == 'E');
    CHECK(relative_letter(N, S) == 'N');
    CHECK(relative_letter(E, S) == 'W');
    CHECK(seat_of_letter(N, "W") == E);
    CHECK_FALSE(seat_of_letter(N, "S"));
    CHECK_FALSE(seat_of_letter(N, "X"));
    CHECK(parse_query("?type=trade&opponent=W&goods=H&money=nntt\r\n") ==
          Fields{{"type", "trade"}, {"opponent", "W"}, {"goods", "H"}, {"money", "nntt"}});
    CHECK(parse_query("\n\nmoney=t%74&x") == Fields{{"money", "tt"}});
}

TEST_CASE("koehandel: the server's payment is the smallest total, then the fewest cards (ruling 7)") {
    CHECK(choose_payment(Money{2, 4, 1, 0, 0, 0}, 40) == Money{0, 4, 0, 0, 0, 0});
    CHECK(choose_payment(Money{2, 4, 1, 0, 0, 0}, 45) == Money{0, 0, 1, 0, 0, 0});
    CHECK(choose_payment(Money{2, 4, 1, 0, 0, 0}, 30) == Money{0, 3, 0, 0, 0, 0});
    CHECK(choose_payment(Money{0, 5, 1, 0, 0, 0}, 50) == Money{0, 0, 1, 0, 0, 0});
    CHECK(choose_payment(Money{0, 0, 0, 1, 1, 0}, 150) == Money{0, 0, 0, 0, 1, 0});
    CHECK_FALSE(choose_payment(Money{5, 1, 0, 0, 0, 0}, 20));
}

TEST_CASE("koehandel: the deal is 40 animals, nnttttf each, first player from the seed") {
    ScriptedPlayers players;
    Game game(Options{.seed = 7});
    std::array<int, kKinds> count{};
    for (int k : game.state().deck) ++count[k];
    for (int c : count) CHECK(c == kCardsPerKind);
    for (const auto& p : game.state().players) CHECK(p.money == Money{2, 4, 1, 0, 0, 0});
    Game same(Options{.seed = 7});
    CHECK(same.state().deck == game.state().deck);
    CHECK(same.state().turn_player == game.state().turn_player);
    Game other(Options{.seed = 8});
    CHECK(other.state().deck != game.state().deck);
}

TEST_CASE("koehandel: nobody bids, the auctioneer takes the card for free (-0)") {
    ScriptedPlayers players;
    Game game(Options{});
    clear_position(game.state(), {*kind_of('A')});
    auction_turn(game, players, W);
    CHECK(game.state().players[W].animals[0] == 1);
    CHECK(game.state().players[W].money == starting_money());
    CHECK(rows_of(players, S, "information").back().message == Message{.type = "information", .opponent = "W", .goods = "A", .money = "-0"});
    CHECK(rows_of(players, W, "receive").size() == 1);
    CHECK(rows_of(players, W, "auction").empty());  // no right to buy without a bid
}

TEST_CASE("koehandel: bids must be strictly higher and above 0, junk is a pass (rulings 3, 4)") {
    ScriptedPlayers players;
    Game game(Options{});
    clear_position(game.state(), {*kind_of('B')});
    game.state().turn_player = S;
    players.script(S, Fields{});
    players.script(W, Fields{{"money", "n"}});    // worth 0: a pass
    players.script(N, Fields{{"money", "tq"}});   // not money letters: a pass
    players.script(E, Fields{{"money", "tt"}});   // 20
    REQUIRE(play_turn(game, players));                   // only E is left: bidding ends
    CHECK(players.script_done());
    CHECK(game.state().players[E].animals[1] == 1);  // S did not answer: sold to E
    CHECK(game.state().players[S].money == starting_money() + Money{0, 2, 0, 0, 0, 0});
    CHECK(rows_of(players, S, "auction").back().message.message == "W0N0E20");
    // A passed player is not asked again in this auction.
    CHECK(rows_of(players, W, "auction").size() == 1);
}

TEST_CASE("koehandel: the payer chooses its cards, an invalid choice is paid by the server") {
    ScriptedPlayers players;
    Game game(Options{});
    clear_position(game.state(), {*kind_of('C')});
    game.state().turn_player = S;
    players.script(S, Fields{});
    players.script(W, Fields{{"money", "ttt"}});
    players.script(N, Fields{});
    players.script(E, Fields{});
    players.script(S, Fields{});                   // sells to W
    players.script(W, Fields{{"money", "ff"}});    // W has one f: the server pays
    REQUIRE(play_turn(game, players));
    CHECK(players.script_done());
    CHECK(game.state().players[W].money == Money{2, 1, 1, 0, 0, 0});  // the server paid ttt
    const auto info = rows_of(players, W, "information");
    REQUIRE_FALSE(info.empty());
    CHECK(info.back().message == Message{.type = "information", .opponent = "E", .money = "-ttt"});
    CHECK(rows_of(players, N, "information").back().message == Message{.type = "information", .opponent = "N", .money = "QQQ30"});
    CHECK(players.notes.back().first == W);
}

TEST_CASE("koehandel: a bluff reveals the money and the card is auctioned again (ruling 5)") {
    ScriptedPlayers players;
    Game game(Options{});
    clear_position(game.state(), {*kind_of('J')});
    game.state().turn_player = S;
    players.script(S, Fields{});
    players.script(W, Fields{{"money", "FF"}});  // 1000 with 90 in hand
    players.script(N, Fields{});
    players.script(E, Fields{});
    players.script(S, Fields{});                 // sells: W cannot pay
    // The repeat: W may bid again, but not above its now-public 90.
    players.script(W, Fields{{"money", "h"}});   // second_bluff_not_allowed: a pass
    players.script(N, Fields{{"money", "t"}});
    players.script(E, Fields{});
    players.script(S, Fields{});                 // sells to N
    players.script(N, Fields{});                 // server pays
    REQUIRE(play_turn(game, players));
    CHECK(players.script_done());
    for (int r = 0; r < kSeats; ++r) {
        const auto bluff = rows_of(players, r, "information");
        bool seen = false;
        for (const auto& row : bluff)
            if (row.message.message == "bluffed") {
                seen = true;
                CHECK(row.message.opponent == std::string(1, relative_letter(r, W)));
                CHECK(row.message.money == "fttttnn");
            }
        CHECK(seen);
    }
    int refused = 0;
    for (const auto& row : rows_of(players, W, "information")) refused += row.message.message == "second_bluff_not_allowed";
    CHECK(refused == 1);
    CHECK(game.state().players[N].animals[9] == 1);
    CHECK(game.state().players[W].money == starting_money());
    // The repeated auction starts a new bid history.
    CHECK(rows_of(players, W, "auction").back().message.message.empty());
}

TEST_CASE("koehandel: with bluffer_rejoins off the bluffer is left out of the repeat") {
    ScriptedPlayers players;
    Game game(Options{.bluffer_rejoins = false});
    clear_position(game.state(), {*kind_of('J')});
    game.state().turn_player = S;
    players.script(S, Fields{});
    players.script(W, Fields{{"money", "FF"}});
    players.script(N, Fields{});
    players.script(E, Fields{});
    players.script(S, Fields{});
    players.script(N, Fields{});  // repeat: W is not asked
    players.script(E, Fields{});
    REQUIRE(play_turn(game, players));
    CHECK(players.script_done());
    CHECK(game.state().players[S].animals[9] == 1);
    CHECK(rows_of(players, W, "auction").size() == 1);
}

TEST_CASE("koehandel: a right to buy the auctioneer cannot pay is void, money stays hidden (ruling 6)") {
    ScriptedPlayers players;
    Game game(Options{});
    clear_position(game.state(), {*kind_of('D')});
    game.state().players[W].money = Money{0, 0, 0, 0, 1, 0};
    game.state().turn_player = S;
    players.script(S, Fields{});
    players.script(W, Fields{{"money", "T"}});
    players.script(N, Fields{});
    players.script(E, Fields{});
    players.script(S, Fields{{"money", "T"}});   // S holds 90
    players.script(W, Fields{{"money", "T"}});
    REQUIRE(play_turn(game, players));
    CHECK(players.script_done());
    CHECK(game.state().players[W].animals[3] == 1);
    CHECK(game.state().players[S].money == starting_money() + Money{0, 0, 0, 0, 1, 0});
    CHECK(rows_of(players, S, "information").front().message.message == "invalid_bid");
    for (const auto& row : players.rows) CHECK(row.message.message != "bluffed");
}

TEST_CASE("koehandel: each donkey pays 50, 100, 200, 500 to every player before its auction") {
    ScriptedPlayers players;
    Game game(Options{});
    clear_position(game.state(), {kDonkey, kDonkey, kDonkey, kDonkey});
    for (int d = 0; d < 4; ++d) auction_turn(game, players, d);
    for (const auto& p : game.state().players) CHECK(p.money == starting_money() + Money{0, 0, 1, 1, 1, 1});
    CHECK(game.state().bank == Money{});
    const auto received = rows_of(players, N, "receive");
    std::string letters;
    for (const auto& r : received)
        if (!r.message.money.empty()) letters += r.message.money;
    CHECK(letters == "fhTF");
    // The others hear of each payment: 3 information messages per donkey per player.
    int info = 0;
    for (const auto& r : rows_of(players, N, "information"))
        if (r.message.goods.empty() && r.message.money.size() == 1) ++info;
    CHECK(info == 12);
}

TEST_CASE("koehandel: with the deck empty a bad start bars the player from starting trades (ruling 9)") {
    ScriptedPlayers players;
    Game game(Options{});
    clear_position(game.state(), {});
    auto& ps = game.state().players;
    ps[S].animals[0] = 2;
    ps[W].animals[0] = 2;
    ps[N].animals[1] = 4;
    ps[E].animals[2] = 4;
    game.state().turn_player = S;
    players.script(S, Fields{{"type", "auction"}});  // no trade: barred
    players.script(W, Fields{{"type", "trade"}, {"opponent", "N"}, {"goods", "A"}, {"money", ""}});  // W's "N" is E
    REQUIRE(play_turn(game, players));
    CHECK(ps[S].barred);
    REQUIRE(play_turn(game, players));
    CHECK(ps[W].barred);  // E holds no A
    CHECK(rows_of(players, W, "information").back().message.message == "opponent_goods_do_not_match");
    // Nobody may start a trade now: N and E hold only complete sets, S and W are barred.
    CHECK_FALSE(play_turn(game, players));
    CHECK(game.state().end_reason == "complete");
    CHECK(players.script_done());
}

TEST_CASE("koehandel: the barred player can still be challenged") {
    ScriptedPlayers players;
    Game game(Options{});
    clear_position(game.state(), {});
    auto& ps = game.state().players;
    ps[S].animals[0] = 1;
    ps[W].animals[0] = 3;
    ps[S].barred = true;
    game.state().turn_player = S;
    players.script(W, Fields{{"type", "trade"}, {"opponent", "E"}, {"goods", "A"}, {"money", "t"}});
    players.script(S, Fields{});  // accept
    REQUIRE(play_turn(game, players));    // S is skipped, W trades with S
    CHECK(ps[W].animals[0] == 4);
    CHECK_FALSE(play_turn(game, players));
    CHECK(game.scores() == std::array<int, kSeats>{0, 10, 0, 0});
}

// Players who always start a trade for A against the biggest other holder, offering nothing,
// and always accept: one card moves each turn and the quartet never completes.
class CyclingPlayers : public Players {
public:
    void tell(int, const Message&) override {}
    std::optional<Fields> ask(int seat, const Message& message) override {
        if (message.type != "start") return Fields{};
        int best = -1;
        for (int s = 0; s < kSeats; ++s)
            if (s != seat && state->players[s].animals[0] > 0 && (best < 0 || state->players[s].animals[0] > state->players[best].animals[0])) best = s;
        return Fields{{"type", "trade"}, {"goods", "A"}, {"opponent", std::string(1, relative_letter(seat, best))}};
    }

    const GameState* state = nullptr;
};

TEST_CASE("koehandel: the trade-turn cap ends a game that could cycle (ruling 15)") {
    CyclingPlayers cycling;
    Game capped(Options{.max_trade_turns = 9});
    cycling.state = &capped.state();
    clear_position(capped.state(), {});
    auto& ps = capped.state().players;
    ps[S].animals[0] = 1;
    ps[W].animals[0] = 2;
    ps[N].animals[0] = 1;
    capped.state().turn_player = S;
    int turns = 0;
    while (play_turn(capped, cycling)) ++turns;
    CHECK(turns == 9);
    CHECK(capped.state().end_reason == "cap");
    CHECK(capped.scores() == std::array<int, kSeats>{0, 0, 0, 0});
}

TEST_CASE("koehandel: scores are the quartet values times their number, end is relative (ruling 19)") {
    ScriptedPlayers players;
    Game game(Options{});
    clear_position(game.state(), {});
    auto& ps = game.state().players;
    ps[S].animals = {4, 4, 4, 0, 0, 0, 0, 0, 0, 0};  // 3 x 140 = 420 (seed "Score")
    ps[W].animals = {0, 0, 0, 0, 0, 4, 0, 0, 0, 0};  // 350
    ps[N].animals = {0, 0, 0, 4, 0, 0, 0, 4, 3, 0};  // 2 x 810 = 1620
    ps[E].animals = {0, 0, 0, 0, 4, 0, 4, 0, 1, 4};
    CHECK(game.scores() == std::array<int, kSeats>{420, 350, 1620, 3 * 1750});
    finish(game, players);
    CHECK(players.rows[0].message == Message{.type = "end", .message = "S420W350N1620E5250"});
    CHECK(players.rows[1].message == Message{.type = "end", .message = "S350W1620N5250E420"});
}

}  // namespace arb::koehandel::test

namespace arb::koehandel::test {

TEST_CASE("koehandel: 0-cards may be part of an auction payment and count in the Q count (ruling 8)") {
    ScriptedPlayers players;
    Game game(Options{});
    clear_position(game.state(), {*kind_of('B')});
    game.state().turn_player = S;
    players.script(S, Fields{});
    players.script(W, Fields{{"money", "tt"}});
    players.script(N, Fields{});
    players.script(E, Fields{});
    players.script(S, Fields{});
    players.script(W, Fields{{"money", "ttn"}});  // 20 with a 0-card
    REQUIRE(play_turn(game, players));
    CHECK(players.script_done());
    CHECK(game.state().players[W].money == Money{1, 2, 1, 0, 0, 0});
    CHECK(game.state().players[S].money == Money{3, 6, 1, 0, 0, 0});
    CHECK(players.rows.back().seat == E);
    CHECK(players.rows.back().message == Message{.type = "information", .opponent = "W", .money = "QQQ20"});
}

}  // namespace arb::koehandel::test
