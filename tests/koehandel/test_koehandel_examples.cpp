// The two worked examples of seed 002 ("Voorbeeld"), message for message. Seats are absolute
// S=0, W=1, N=2, E=3 as in the example's "direction" column; every field is relative to the
// recipient, as sent.
#include "koehandel_test_support.hpp"

namespace arb::koehandel::test {

TEST_CASE("koehandel: seed example 1, auction of F by S with the right to buy") {
    ScriptedPlayers players;
    Game game(Options{});
    clear_position(game.state(), {0, 1, *kind_of('F')});
    game.state().turn_player = S;
    players.script(S, Fields{{"type", "auction"}});
    players.script(W, Fields{{"money", "t"}});
    players.script(N, Fields{});  // N passes
    players.script(E, Fields{{"money", "tttt"}});
    players.script(W, Fields{{"money", "ntttt"}});  // not higher than 40: a pass
    players.script(S, Fields{{"money", "tttt"}});   // S uses its right to buy
    players.script(S, Fields{{"money", "tttt"}});   // and pays with four tens
    REQUIRE(play_turn(game, players));

    check_rows(players.rows, {
        {S, true, {.type = "start"}},
        {W, true, {.type = "auction", .opponent = "E", .auctioneer = "E", .goods = "F"}},
        {N, true, {.type = "auction", .opponent = "E", .auctioneer = "N", .goods = "F", .money = "t", .message = "E10"}},
        {E, true, {.type = "auction", .opponent = "N", .auctioneer = "W", .goods = "F", .money = "t", .message = "N10E0"}},
        {W, true, {.type = "auction", .opponent = "N", .auctioneer = "E", .goods = "F", .money = "tttt", .message = "W0N40"}},
        {S, true, {.type = "auction", .opponent = "E", .goods = "F", .money = "tttt", .message = "W10N0E40W40"}},
        {S, false, {.type = "receive", .goods = "F"}},
        {S, true, {.type = "collect", .opponent = "E", .money = "tttt"}},
        {E, false, {.type = "receive", .opponent = "W", .money = "tttt"}},
        {W, false, {.type = "information", .opponent = "E", .goods = "F", .money = "-QQQQ40"}},
        {N, false, {.type = "information", .opponent = "N", .goods = "F", .money = "-QQQQ40"}},
        {W, false, {.type = "information", .opponent = "N", .money = "QQQQ40"}},
        {N, false, {.type = "information", .opponent = "W", .money = "QQQQ40"}},
    });
    CHECK(players.script_done());
    const GameState& st = game.state();
    CHECK(st.players[S].animals[*kind_of('F')] == 1);
    CHECK(st.players[S].money == Money{2, 0, 1, 0, 0, 0});
    CHECK(st.players[E].money == Money{2, 8, 1, 0, 0, 0});
    CHECK(st.deck.size() == 2);
    CHECK(st.turn_player == W);
}

TEST_CASE("koehandel: seed example 2, trade of H started by N, invalid counter-offer") {
    ScriptedPlayers players;
    Game game(Options{});
    const int h = *kind_of('H');
    clear_position(game.state(), {0, 1});
    game.state().players[N].animals[h] = 1;
    game.state().players[E].animals[h] = 1;
    game.state().turn_player = N;
    players.script(N, Fields{{"type", "trade"}, {"goods", "H"}, {"opponent", "W"}, {"money", "nntt"}});
    players.script(E, Fields{{"money", "ttff"}});  // E holds one f only: invalid_bid, E loses
    REQUIRE(play_turn(game, players));

    // The seed's last two rows label the giver E as "N" (to S) and "W" (to W); ruling 18 labels
    // it from the recipient's seat: E is "E" to S and "N" to W.
    check_rows(players.rows, {
        {N, true, {.type = "start"}},
        {E, true, {.type = "trade", .opponent = "E", .goods = "H", .money = "QQQQ"}},
        {E, false, {.type = "information", .message = "invalid_bid"}},
        {E, false, {.type = "collect", .opponent = "E", .goods = "H"}},
        {N, false, {.type = "receive", .opponent = "W", .goods = "H"}},
        {N, false, {.type = "collect", .opponent = "W", .money = "nntt"}},
        {E, false, {.type = "receive", .opponent = "E", .money = "nntt"}},
        {S, false, {.type = "information", .opponent = "N", .goods = "H", .money = "-QQQQ"}},
        {W, false, {.type = "information", .opponent = "W", .goods = "H", .money = "-QQQQ"}},
        {S, false, {.type = "information", .opponent = "E", .goods = "-H", .money = "QQQQ"}},
        {W, false, {.type = "information", .opponent = "N", .goods = "-H", .money = "QQQQ"}},
    });
    CHECK(players.script_done());
    const GameState& st = game.state();
    CHECK(st.players[N].animals[h] == 2);
    CHECK(st.players[E].animals[h] == 0);
    CHECK(st.players[N].money == Money{0, 2, 1, 0, 0, 0});
    CHECK(st.players[E].money == Money{4, 6, 1, 0, 0, 0});
    CHECK(st.deck.size() == 2);  // a trade turn does not touch the deck
}

}  // namespace arb::koehandel::test

#include "rules/koehandel/koehandel_protocol.hpp"

namespace arb::koehandel::test {

TEST_CASE("koehandel: a message as a GET request: market, id, then the non-empty fields in the seed's order") {
    CHECK(request_text(Message{.type = "start"}, 7, 0) == "/?market=7&id=1&type=start");
    CHECK(request_text(Message{.type = "auction", .opponent = "E", .auctioneer = "N", .goods = "F", .money = "t", .message = "E10"}, 7, 2) ==
          "/?market=7&id=3&type=auction&opponent=E&auctioneer=N&goods=F&money=t&message=E10");
    CHECK(parse_query(request_text(Message{.type = "trade", .goods = "HH", .money = "QQ"}, 1, 3).substr(1)) ==
          Fields{{"market", "1"}, {"id", "4"}, {"type", "trade"}, {"goods", "HH"}, {"money", "QQ"}});
}

}  // namespace arb::koehandel::test
