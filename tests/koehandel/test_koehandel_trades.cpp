// Cow trades (koehandel.md 1.6, 2.6; rulings 10-14, 17): start errors, accept, counters in both
// editions, ties and the second tie, two-card trades, invalid re-offers.
#include "koehandel_test_support.hpp"

namespace arb::koehandel::test {
namespace {

// S and W each hold `s_count` and `w_count` of A; S starts a trade against W.
struct TradeSetup {
    ScriptedPlayers players;
    Game game;
    TradeSetup(Edition edition, int s_count, int w_count, std::string offer) : game(Options{.edition = edition}) {
        clear_position(game.state(), {*kind_of('J')});
        game.state().players[S].animals[0] = s_count;
        game.state().players[W].animals[0] = w_count;
        game.state().turn_player = S;
        players.script(S, Fields{{"type", "trade"}, {"opponent", "W"}, {"goods", "A"}, {"money", std::move(offer)}});
    }
    PlayerState& p(int seat) { return game.state().players[seat]; }
};

}  // namespace

TEST_CASE("koehandel: an invalid trade start is an auction while the deck lasts, with the seed's message") {
    struct Case {
        Fields reply;
        std::string message;
    };
    const std::vector<Case> cases = {
        {{{"type", "trade"}, {"goods", "A"}, {"money", "t"}}, "no_opponement_specified"},
        {{{"type", "trade"}, {"opponent", "S"}, {"goods", "A"}}, "no_opponement_specified"},
        {{{"type", "trade"}, {"opponent", "W"}, {"goods", "B"}}, "goods_not_owned_by_player"},
        {{{"type", "trade"}, {"opponent", "W"}, {"goods", "Z"}}, "goods_not_owned_by_player"},
        {{{"type", "trade"}, {"opponent", "N"}, {"goods", "A"}}, "opponent_goods_do_not_match"},
        {{{"type", "trade"}, {"opponent", "W"}, {"goods", "A"}, {"money", "ff"}}, "invalid_bid"},
        {{{"type", "trade"}, {"opponent", "W"}, {"goods", "A"}, {"money", "x"}}, "invalid_bid"},
    };
    for (const auto& c : cases) {
        CAPTURE(c.message);
        ScriptedPlayers players;
        Game game(Options{});
        clear_position(game.state(), {*kind_of('C')});
        game.state().players[S].animals[0] = 1;
        game.state().players[W].animals[0] = 1;
        game.state().turn_player = S;
        players.script(S, c.reply);
        REQUIRE(play_turn(game, players));
        REQUIRE(players.rows.size() > 2);
        CHECK(players.rows[1].message == Message{.type = "information", .message = c.message});
        CHECK(players.rows[2].message.type == "auction");  // W is asked to bid on C
        CHECK(game.state().deck.empty());
    }
}

TEST_CASE("koehandel: an empty offer is valid and an empty answer accepts it (rulings 10, 11)") {
    TradeSetup t(Edition::second, 1, 1, "");
    t.players.script(W, Fields{});
    REQUIRE(play_turn(t.game, t.players));
    CHECK(t.players.rows[1].message == Message{.type = "trade", .opponent = "E", .goods = "A", .money = ""});
    CHECK(t.p(S).animals[0] == 2);
    CHECK(t.p(S).money == starting_money());
    CHECK(t.players.script_done());
}

TEST_CASE("koehandel: a higher counter wins, second edition swaps both offers (ruling 12)") {
    TradeSetup t(Edition::second, 1, 3, "tt");
    t.players.script(W, Fields{{"money", "fn"}});
    REQUIRE(play_turn(t.game, t.players));
    CHECK(t.p(W).animals[0] == 4);
    CHECK(t.p(S).animals[0] == 0);
    CHECK(t.p(S).money == Money{3, 2, 2, 0, 0, 0});  // gave tt, got fn
    CHECK(t.p(W).money == Money{1, 6, 0, 0, 0, 0});
    // Bystanders: W got A paying 2 cards, S gave it for 2; then S paid 2, W got 2.
    std::vector<Message> seen_by_n;
    for (const auto& r : t.players.rows)
        if (r.seat == N) seen_by_n.push_back(r.message);
    REQUIRE(seen_by_n.size() == 4);
    CHECK(seen_by_n[0] == Message{.type = "information", .opponent = "E", .goods = "A", .money = "-QQ"});
    CHECK(seen_by_n[1] == Message{.type = "information", .opponent = "N", .goods = "-A", .money = "QQ"});
    CHECK(seen_by_n[2] == Message{.type = "information", .opponent = "N", .money = "-QQ"});
    CHECK(seen_by_n[3] == Message{.type = "information", .opponent = "E", .money = "QQ"});
}

TEST_CASE("koehandel: first edition: the winner's offer goes to the loser, the loser keeps its own") {
    TradeSetup t(Edition::first, 1, 3, "tt");
    t.players.script(W, Fields{{"money", "fn"}});
    REQUIRE(play_turn(t.game, t.players));
    CHECK(t.p(W).animals[0] == 4);
    CHECK(t.p(S).money == Money{3, 4, 2, 0, 0, 0});  // got fn, kept tt
    CHECK(t.p(W).money == Money{1, 4, 0, 0, 0, 0});
}

TEST_CASE("koehandel: two cards move only when both hold exactly two (ruling 14)") {
    for (auto [s_held, w_held, moved] : {std::tuple{2, 2, 2}, std::tuple{1, 2, 1}, std::tuple{2, 3, 1}}) {
        // CAPTURE's lambda cannot name a structured binding (clang 14): copies.
        const int s_count = s_held, w_count = w_held;
        CAPTURE(s_count);
        CAPTURE(w_count);
        TradeSetup t(Edition::second, s_count, w_count, "t");
        t.players.script(W, Fields{});
        REQUIRE(play_turn(t.game, t.players));
        CHECK(t.players.rows[1].message.goods == std::string(static_cast<std::size_t>(moved), 'A'));
        CHECK(t.p(S).animals[0] == s_count + moved);
    }
}

TEST_CASE("koehandel: a tie is offered again, a second tie gives the challenger the card free (ruling 13)") {
    TradeSetup t(Edition::second, 1, 1, "tt");
    t.players.script(W, Fields{{"money", "tt"}});  // tie
    t.players.script(S, Fields{{"money", "t"}});   // new offer
    t.players.script(W, Fields{{"money", "t"}});   // tie again
    REQUIRE(play_turn(t.game, t.players));
    CHECK(t.players.script_done());
    CHECK(t.players.rows[2].message == Message{.type = "trade", .opponent = "W", .goods = "A", .message = "equal_bid"});
    CHECK(t.players.rows[3].message == Message{.type = "trade", .opponent = "E", .goods = "A", .money = "Q", .message = "equal_bid"});
    CHECK(t.p(S).animals[0] == 2);
    CHECK(t.p(S).money == starting_money());
    CHECK(t.p(W).money == starting_money());
}

TEST_CASE("koehandel: after a tie the re-offer decides the trade") {
    TradeSetup t(Edition::second, 1, 1, "t");
    t.players.script(W, Fields{{"money", "t"}});
    t.players.script(S, Fields{{"money", "n"}});   // 0
    t.players.script(W, Fields{{"money", "tt"}});  // W wins, both offers change hands
    REQUIRE(play_turn(t.game, t.players));
    CHECK(t.p(W).animals[0] == 2);
    CHECK(t.p(S).money == Money{1, 6, 1, 0, 0, 0});
    CHECK(t.p(W).money == Money{3, 2, 1, 0, 0, 0});
}

TEST_CASE("koehandel: an invalid re-offer by the challenger loses the trade at once") {
    TradeSetup t(Edition::second, 1, 1, "t");
    t.players.script(W, Fields{{"money", "t"}});
    t.players.script(S, Fields{{"money", "FF"}});  // not owned
    REQUIRE(play_turn(t.game, t.players));
    CHECK(t.players.script_done());
    CHECK(t.p(W).animals[0] == 2);
    CHECK(t.p(S).money == starting_money());
}

TEST_CASE("koehandel: a challenged player who does not answer accepts") {
    TradeSetup t(Edition::second, 1, 1, "nn");
    t.players.script(W, std::nullopt);
    REQUIRE(play_turn(t.game, t.players));
    CHECK(t.p(S).animals[0] == 2);
    CHECK(t.p(W).money == starting_money() + Money{2, 0, 0, 0, 0, 0});
    CHECK(t.players.notes.size() == 1);
}

}  // namespace arb::koehandel::test
