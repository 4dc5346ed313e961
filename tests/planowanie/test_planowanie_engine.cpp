// Rule cases written from seed 000 ("Zasady gry"), and random playouts checking invariants.
#include <doctest/doctest.h>

#include <algorithm>
#include <set>

#include "core/rng.hpp"
#include "rules/planowanie/planowanie_engine.hpp"
#include "tests/test_repeats.hpp"

using namespace arb::planowanie;

namespace {

Card card(const Deck& deck, const char* text) {
    auto c = deck.parse(text);
    REQUIRE_MESSAGE(c.has_value(), text);
    return *c;
}

std::vector<Card> cards(const Deck& deck, std::initializer_list<const char*> texts) {
    std::vector<Card> out;
    for (const char* t : texts) out.push_back(card(deck, t));
    return out;
}

// A state in its first deal's play phase with the given hands and declarations.
State playing(Config config, std::vector<std::vector<Card>> hands, std::vector<int> declarations) {
    State state(std::move(config));
    REQUIRE_FALSE(state.apply_deal(hands));
    for (int s = 0; s < state.players(); ++s) REQUIRE_FALSE(state.apply_declaration(s, declarations.at(s)));
    REQUIRE(state.phase() == Phase::play);
    return state;
}

Config small_config(int players, std::string values, std::string suits, std::vector<DealSpec> deals) {
    Config config;
    config.deck = Deck(std::move(values), std::move(suits));
    config.players = players;
    config.deals = std::move(deals);
    REQUIRE(config.problem().empty());
    return config;
}

std::vector<PlayedCard> trick_of(const Deck& deck, std::initializer_list<const char*> texts) {
    std::vector<PlayedCard> trick;
    int seat = 0;
    for (const char* t : texts) trick.push_back(PlayedCard{seat++, card(deck, t)});
    return trick;
}

}  // namespace

TEST_CASE("planowanie rules: tournament configuration is the seed's set_deck and set_game") {
    const Config config = Config::tournament();
    CHECK(config.set_deck_args() == "23456789TJQKA CDHS");
    CHECK(config.players == 4);
    CHECK(config.set_game_args() == "13 1 0 2 1 3 2 4 3 5 0 6 1 7 2 8 3 9 0 10 1 11 2 12 3 13 0");
    CHECK(config.problem().empty());
}

TEST_CASE("planowanie rules: deck parses two-character cards, first suit is trump") {
    const Deck deck = Deck::tournament();
    CHECK(deck.size() == 52);
    CHECK(card(deck, "2C").suit == kTrumpSuit);
    CHECK(card(deck, "AS").value == 12);
    CHECK(deck.text(card(deck, "TD")) == "TD");
    CHECK_FALSE(deck.parse("as"));
    CHECK_FALSE(deck.parse("1C"));
    CHECK_FALSE(deck.parse("ASX"));
    CHECK_FALSE(deck.parse(""));
    CHECK(Deck::problem("AKA", "CD").find("repeats") != std::string::npos);
    CHECK_FALSE(Deck::problem("", "CD").empty());
    CHECK_FALSE(Deck::problem("23", "C D").empty());
}

TEST_CASE("planowanie rules: the highest card of the led suit wins without trumps") {
    const Deck deck = Deck::tournament();
    CHECK(winning_card(trick_of(deck, {"5H", "KH", "2H", "TH"})) == 1);
    CHECK(winning_card(trick_of(deck, {"AD", "KD"})) == 0);
}

TEST_CASE("planowanie rules: a trump beats a higher card of the led suit") {
    const Deck deck = Deck::tournament();
    CHECK(winning_card(trick_of(deck, {"AS", "2C", "KS", "QS"})) == 1);
}

TEST_CASE("planowanie rules: with several trumps the highest trump wins") {
    const Deck deck = Deck::tournament();
    CHECK(winning_card(trick_of(deck, {"AS", "3C", "JC", "4C"})) == 2);
    // Trump led: ordinary highest-of-suit.
    CHECK(winning_card(trick_of(deck, {"9C", "AH", "TC", "2C"})) == 2);
}

TEST_CASE("planowanie rules: a discard of another suit never wins") {
    const Deck deck = Deck::tournament();
    CHECK(winning_card(trick_of(deck, {"2H", "AS", "AD", "3H"})) == 3);
}

TEST_CASE("planowanie rules: must follow suit when able") {
    const Config config = small_config(2, "23456789TJQKA", "CDHS", {{3, 0}});
    const Deck& d = config.deck;
    State state = playing(config, {cards(d, {"2H", "9H", "AS"}), cards(d, {"3H", "KS", "2C"})}, {1, 1});
    REQUIRE(state.to_move() == 0);
    REQUIRE_FALSE(state.apply_card(0, card(d, "9H")));
    CHECK(state.legal_cards(1) == cards(d, {"3H"}));
    const auto v = state.apply_card(1, card(d, "KS"));
    REQUIRE(v.has_value());
    CHECK(v->what.find("follow") != std::string::npos);
    CHECK(state.apply_card(1, card(d, "2C")).has_value());
    CHECK_FALSE(state.apply_card(1, card(d, "3H")));
    CHECK(state.tricks_taken(0) == 1);
}

TEST_CASE("planowanie rules: a void player may discard or trump, and the trick winner leads next") {
    const Config config = small_config(3, "23456789TJQKA", "CDHS", {{2, 1}});
    const Deck& d = config.deck;
    State state =
        playing(config, {cards(d, {"AH", "2D"}), cards(d, {"5S", "3D"}), cards(d, {"4C", "KD"})}, {0, 0, 0});
    CHECK(state.to_move() == 1);  // the starter of the deal leads
    REQUIRE_FALSE(state.apply_card(1, card(d, "5S")));
    CHECK(state.legal_cards(2) == cards(d, {"4C", "KD"}));  // void in spades: anything
    REQUIRE_FALSE(state.apply_card(2, card(d, "4C")));      // trumps
    CHECK(state.legal_cards(0) == cards(d, {"2D", "AH"}));  // sorted by suit order: D before H
    REQUIRE_FALSE(state.apply_card(0, card(d, "AH")));      // discards the ace: cannot win
    CHECK(state.tricks_taken(2) == 1);
    CHECK(state.last_trick_winner() == 2);
    CHECK(state.to_move() == 2);                            // winner leads
    CHECK(state.apply_card(0, card(d, "2D")).has_value());  // not player 0's turn
}

TEST_CASE("planowanie rules: declarations are 0..cards, once each, and secret until all are made") {
    const Config config = small_config(2, "23456789TJQKA", "CDHS", {{3, 0}});
    State state(config);
    CHECK(state.apply_declaration(0, 1).has_value());  // nothing dealt yet
    REQUIRE_FALSE(state.apply_deal(deal_hands(config, 0, 7)));
    CHECK(state.legal_declarations(0) == std::vector<int>{0, 1, 2, 3});
    CHECK(state.apply_declaration(0, 4).has_value());
    CHECK(state.apply_declaration(0, -1).has_value());
    CHECK(state.apply_declaration(2, 1).has_value());
    REQUIRE_FALSE(state.apply_declaration(0, 3));
    CHECK(state.apply_declaration(0, 2).has_value());  // already declared
    CHECK(state.legal_declarations(0).empty());
    CHECK(state.view_for(1).declared[0] == std::nullopt);  // hidden from the other player
    CHECK(state.view_for(0).declared[0] == 3);
    CHECK(state.phase() == Phase::declare);
    REQUIRE_FALSE(state.apply_declaration(1, 0));
    CHECK(state.phase() == Phase::play);
    CHECK(state.view_for(1).declared[0] == 3);
}

TEST_CASE("planowanie rules: the bonus equals the cards dealt, only for an exact declaration") {
    CHECK(deal_points(2, 2, 5) == 7);
    CHECK(deal_points(2, 3, 5) == 3);
    CHECK(deal_points(2, 1, 5) == 1);
    CHECK(deal_points(0, 0, 13) == 13);
    CHECK(deal_points(0, 1, 13) == 1);
}

TEST_CASE("planowanie rules: the starter schedule sets the first leader of each deal") {
    const Config config = Config::tournament();
    State state(config);
    for (int deal = 0; deal < 13; ++deal) {
        REQUIRE(state.phase() == Phase::deal);
        REQUIRE_FALSE(state.apply_deal(deal_hands(config, deal, 99)));
        CHECK(state.leader() == deal % 4);
        CHECK(state.cards_this_deal() == deal + 1);
        for (int s = 0; s < 4; ++s) REQUIRE_FALSE(state.apply_declaration(s, 0));
        CHECK(state.to_move() == deal % 4);
        while (state.phase() == Phase::play) {
            const int seat = state.to_move();
            REQUIRE_FALSE(state.apply_card(seat, state.legal_cards(seat).front()));
        }
    }
    CHECK(state.phase() == Phase::over);
    CHECK(state.results().size() == 13);
}

TEST_CASE("planowanie rules: a 2-player game with a 12-card deck, played out by hand") {
    // Deck 9TJQKA x HS, hearts trump; two deals: 2 cards (player 1 starts), then 3 (player 0).
    const Config config = small_config(2, "9TJQKA", "HS", {{2, 1}, {3, 0}});
    const Deck& d = config.deck;
    State state(config);
    REQUIRE_FALSE(state.apply_deal({cards(d, {"AS", "9H"}), cards(d, {"KS", "TS"})}));
    REQUIRE_FALSE(state.apply_declaration(0, 2));
    REQUIRE_FALSE(state.apply_declaration(1, 0));
    REQUIRE_FALSE(state.apply_card(1, card(d, "KS")));
    REQUIRE_FALSE(state.apply_card(0, card(d, "AS")));  // 0 wins, leads
    REQUIRE_FALSE(state.apply_card(0, card(d, "9H")));
    REQUIRE_FALSE(state.apply_card(1, card(d, "TS")));  // 0 wins with the trump
    REQUIRE(state.results().size() == 1);
    CHECK(state.results()[0].taken == std::vector<int>{2, 0});
    CHECK(state.results()[0].points == std::vector<int>{4, 2});  // both exact: bonus 2
    REQUIRE_FALSE(state.apply_deal({cards(d, {"JS", "QS", "KH"}), cards(d, {"AH", "9S", "AS"})}));
    REQUIRE_FALSE(state.apply_declaration(0, 1));
    REQUIRE_FALSE(state.apply_declaration(1, 1));
    REQUIRE_FALSE(state.apply_card(0, card(d, "QS")));
    REQUIRE_FALSE(state.apply_card(1, card(d, "AS")));  // 1 wins
    REQUIRE_FALSE(state.apply_card(1, card(d, "AH")));
    REQUIRE_FALSE(state.apply_card(0, card(d, "KH")));  // 1 wins
    REQUIRE_FALSE(state.apply_card(1, card(d, "9S")));
    REQUIRE_FALSE(state.apply_card(0, card(d, "JS")));  // 0 wins
    CHECK(state.phase() == Phase::over);
    CHECK(state.results()[1].taken == std::vector<int>{1, 2});
    CHECK(state.score(0) == 4 + 1 + 3);
    CHECK(state.score(1) == 2 + 2);
}

TEST_CASE("planowanie rules: a 3-player game with a 15-card deck") {
    // Deck TJQKA x DCS (diamonds trump); deals: 1 card (player 2 starts), then 4 (player 1).
    const Config config = small_config(3, "TJQKA", "DCS", {{1, 2}, {4, 1}});
    const Deck& d = config.deck;
    State state(config);
    REQUIRE_FALSE(state.apply_deal({cards(d, {"AS"}), cards(d, {"TD"}), cards(d, {"KS"})}));
    for (int s = 0; s < 3; ++s) REQUIRE_FALSE(state.apply_declaration(s, s == 1 ? 1 : 0));
    CHECK(state.to_move() == 2);
    REQUIRE_FALSE(state.apply_card(2, card(d, "KS")));
    REQUIRE_FALSE(state.apply_card(0, card(d, "AS")));
    REQUIRE_FALSE(state.apply_card(1, card(d, "TD")));  // the lowest trump takes it
    CHECK(state.results()[0].points == std::vector<int>{1, 2, 1});
    // Deal 2 uses 12 of the 15 cards.
    const auto hands = deal_hands(config, 1, 5);
    REQUIRE_FALSE(state.apply_deal(hands));
    CHECK(state.leader() == 1);
    for (int s = 0; s < 3; ++s) REQUIRE_FALSE(state.apply_declaration(s, 4));
    while (state.phase() == Phase::play) {
        const int seat = state.to_move();
        REQUIRE_FALSE(state.apply_card(seat, state.legal_cards(seat).back()));
    }
    const auto& last = state.results()[1];
    CHECK(last.taken[0] + last.taken[1] + last.taken[2] == 4);
    for (int s = 0; s < 3; ++s) CHECK(last.points[s] == last.taken[s] + (last.taken[s] == 4 ? 4 : 0));
}

TEST_CASE("planowanie rules: configuration problems are reported") {
    Config config = Config::tournament();
    config.players = 1;
    CHECK(config.problem().find("at least 2") != std::string::npos);
    config = Config::tournament();
    config.deals.push_back({14, 0});
    CHECK(config.problem().find("deck has 52") != std::string::npos);
    config = Config::tournament();
    config.deals[0].starter = 4;
    CHECK(config.problem().find("players are 0..3") != std::string::npos);
    config.deals.clear();
    CHECK_FALSE(config.problem().empty());
    CHECK(Config::default_schedule(5, 52).size() == 10);
    CHECK(Config::default_schedule(2, 52).size() == 13);
    CHECK(Config::default_schedule(2, 52).back() == DealSpec{13, 0});
}

TEST_CASE("planowanie rules: dealing is reproducible, per seat, and uses distinct cards") {
    const Config config = Config::tournament();
    const auto a = deal_hands(config, 12, 1234);
    CHECK(a == deal_hands(config, 12, 1234));
    CHECK(a != deal_hands(config, 12, 1235));
    CHECK(a != deal_hands(config, 11, 1234));
    std::set<Card> all;
    for (const auto& hand : a) {
        CHECK(hand.size() == 13);
        CHECK(std::is_sorted(hand.begin(), hand.end()));
        all.insert(hand.begin(), hand.end());
    }
    CHECK(all.size() == 52);  // 4 x 13 uses the whole deck
    Config two = config;
    two.players = 2;
    two.deals = Config::default_schedule(2, 52);
    std::set<Card> dealt;
    for (const auto& hand : deal_hands(two, 12, 1234)) dealt.insert(hand.begin(), hand.end());
    CHECK(dealt.size() == 26);  // 26 cards stay undealt
}

TEST_CASE("planowanie rules: random playouts keep the invariants") {
    struct Table {
        int players;
        const char* values;
        const char* suits;
    };
    const Table tables[] = {{4, "23456789TJQKA", "CDHS"}, {2, "23456789TJQKA", "CDHS"}, {3, "TJQKA", "DCS"},
                            {5, "23456789TJQKA", "CDHS"}, {6, "9TJQKA", "CDHS"},        {2, "AK", "SH"}};
    arb::Rng rng(20261122);
    int games = 0;
    for (int round = 0; round < 400 / arb::testing::kRepeatDivisor; ++round) {
        for (const Table& t : tables) {
            Config config;
            config.deck = Deck(t.values, t.suits);
            config.players = t.players;
            config.deals = Config::default_schedule(t.players, config.deck.size());
            REQUIRE(config.problem().empty());
            State state(config);
            std::vector<int> expected_scores(static_cast<std::size_t>(t.players), 0);
            const std::uint64_t deal_seed = rng.next_u64();
            while (state.phase() != Phase::over) {
                const int deal = state.deal_index();
                const int c = config.deals[static_cast<std::size_t>(deal)].cards;
                REQUIRE_FALSE(state.apply_deal(deal_hands(config, deal, deal_seed)));
                for (int s = 0; s < t.players; ++s) {
                    REQUIRE(state.hand(s).size() == static_cast<std::size_t>(c));
                    const auto legal = state.legal_declarations(s);
                    REQUIRE(legal.size() == static_cast<std::size_t>(c + 1));
                    REQUIRE_FALSE(state.apply_declaration(s, legal[rng.below(legal.size())]));
                }
                std::set<Card> played;
                while (state.phase() == Phase::play) {
                    const int seat = state.to_move();
                    const auto legal = state.legal_cards(seat);
                    REQUIRE_FALSE(legal.empty());
                    // Must-follow: when the hand holds the led suit, only that suit is legal.
                    if (!state.trick().empty()) {
                        const int led = state.trick().front().card.suit;
                        const bool holds = std::any_of(state.hand(seat).begin(), state.hand(seat).end(),
                                                       [&](const Card& x) { return x.suit == led; });
                        for (const Card& x : legal) REQUIRE((!holds || x.suit == led));
                    }
                    // Every card not legal is rejected, without changing the state.
                    for (const Card& x : state.hand(seat)) {
                        if (std::find(legal.begin(), legal.end(), x) != legal.end()) continue;
                        State copy = state;
                        REQUIRE(copy.apply_card(seat, x).has_value());
                        REQUIRE(copy == state);
                    }
                    const Card chosen = legal[rng.below(legal.size())];
                    State copy = state;
                    REQUIRE_FALSE(state.apply_card(seat, chosen));
                    REQUIRE_FALSE(copy.apply_card(seat, chosen));
                    REQUIRE(copy == state);                 // copies evolve identically
                    REQUIRE(played.insert(chosen).second);  // each card is played once
                    REQUIRE(state.trick().size() < static_cast<std::size_t>(t.players));
                }
                REQUIRE(played.size() == static_cast<std::size_t>(c * t.players));
                const DealResult& r = state.results().back();
                int total = 0;
                for (int s = 0; s < t.players; ++s) {
                    total += r.taken[s];
                    REQUIRE(r.points[s] == r.taken[s] + (r.taken[s] == r.declared[s] ? c : 0));
                    expected_scores[s] += r.points[s];
                    REQUIRE(state.hand(s).empty());
                }
                REQUIRE(total == c);
            }
            for (int s = 0; s < t.players; ++s) REQUIRE(state.score(s) == expected_scores[s]);
            ++games;
        }
    }
    CHECK(games == 2400 / arb::testing::kRepeatDivisor);
}
