// Rule cases, one per rule of ../shared/rules/samurai.md section 2 (the official manager's step).
#include <doctest/doctest.h>

#include "rules/samurai/samurai_engine.hpp"
#include "samurai_test_fields.hpp"

namespace arb::samurai {
namespace {

using testing::make_field;
using testing::step_once;

constexpr int kEast = 6, kWest = 2, kNorth = 0, kSouth = 4;  // +x, -x, +y, -y
constexpr int dig(int d) { return kFirstDig + d; }
constexpr int plug(int d) { return kFirstPlug + d; }

// Dogs parked in corners out of the way.
constexpr Cell kDog0Corner{0, 5}, kDog1Corner{5, 5};

}  // namespace

TEST_CASE("samurai rules: two moves into one cell both fail but the movers still turn") {
    const Field f = make_field(6, {{1, 2}, {3, 2}, kDog0Corner, kDog1Corner});
    const auto [s, r] = step_once(f, {kEast, kWest, -1, -1});
    CHECK(r.actions == Plans{-1, -1, -1, -1});
    CHECK(s.agents[0].cell == Cell{1, 2});
    CHECK(s.agents[1].cell == Cell{3, 2});
    CHECK(s.agents[0].direction == kEast);  // Q2: direction set by a plan that passed phase A
    CHECK(s.agents[1].direction == kWest);
    CHECK(r.plans == Plans{kEast, kWest, -1, -1});  // inoperable plans are recorded as they are
}

TEST_CASE("samurai rules: a three-way move conflict cancels every mover, a fourth move elsewhere goes") {
    // Dogs move diagonally into (2,2) along with samurai 0; samurai 1 moves away.
    const Field f = make_field(6, {{1, 2}, {4, 4}, {3, 3}, {1, 1}});
    const auto [s, r] = step_once(f, {kEast, kNorth, 3, 7});
    CHECK(r.actions == Plans{-1, kNorth, -1, -1});
    CHECK(s.agents[1].cell == Cell{4, 5});
    CHECK(s.agents[2].cell == Cell{3, 3});
}

TEST_CASE("samurai rules: no following into a vacated cell, no swaps") {
    SUBCASE("following") {
        const Field f = make_field(6, {{1, 1}, {2, 1}, kDog0Corner, kDog1Corner});
        const auto [s, r] = step_once(f, {kEast, kEast, -1, -1});
        CHECK(r.actions == Plans{-1, kEast, -1, -1});
        CHECK(s.agents[0].cell == Cell{1, 1});
        CHECK(s.agents[0].direction == 0);  // failed phase A: direction unchanged
        CHECK(s.agents[1].cell == Cell{3, 1});
    }
    SUBCASE("swap") {
        const Field f = make_field(6, {{1, 1}, {2, 1}, kDog0Corner, kDog1Corner});
        const auto [s, r] = step_once(f, {kEast, kWest, -1, -1});
        CHECK(r.actions == Plans{-1, -1, -1, -1});
        CHECK(s.agents[0].cell == Cell{1, 1});
        CHECK(s.agents[1].cell == Cell{2, 1});
    }
}

TEST_CASE("samurai rules: moving off the field is inoperable and recorded as planned") {
    const Field f = make_field(6, {{0, 0}, {5, 0}, kDog0Corner, kDog1Corner});
    const auto [s, r] = step_once(f, {kWest, dig(kEast), 1, 7});
    CHECK(r.plans == Plans{kWest, dig(kEast), 1, 7});
    CHECK(r.actions == Plans{-1, -1, -1, -1});
    CHECK(s.agents[0].direction == 0);
}

TEST_CASE("samurai rules: holes block moves and digs, plugs need a hole") {
    const Field f = make_field(6, {{1, 1}, {3, 3}, {1, 4}, kDog1Corner}, {{2, 1}, {3, 4}, {2, 4}});
    SUBCASE("move and dig into holes, dog move into a hole") {
        const auto [s, r] = step_once(f, {kEast, dig(kNorth), kEast, -1});
        CHECK(r.actions == Plans{-1, -1, -1, -1});
        CHECK(s.holes == f.holes);
    }
    SUBCASE("plug without a hole") {
        const auto [s, r] = step_once(f, {plug(kWest), plug(kSouth), -1, -1});
        CHECK(r.actions == Plans{-1, -1, -1, -1});
    }
    SUBCASE("plug a hole, then walk in the next step") {
        GameState s = initial_state(f);
        auto r = play_step(f, s, {plug(kEast), -1, -1, -1});
        CHECK(r.actions[0] == plug(kEast));
        CHECK(s.holes.size() == 2);
        r = play_step(f, s, {kEast, -1, -1, -1});
        CHECK(r.actions[0] == kEast);
        CHECK(s.agents[0].cell == Cell{2, 1});
    }
}

TEST_CASE("samurai rules: invalid plans are recorded as -1 and change nothing") {
    const Field f = make_field(6, {{2, 2}, {4, 2}, {2, 4}, {4, 4}});
    for (const auto& plans : std::vector<std::array<std::int64_t, 4>>{
             {1, 25, 8, 16}, {-5, 24, -7, 100}, {9, 23, 24, 15}, {-2, 100, 9, 23}, {1LL << 40, -(1LL << 40), 8, 17}}) {
        CAPTURE(plans[0]);
        const auto [s, r] = step_once(f, plans);
        CHECK(r.plans == Plans{-1, -1, -1, -1});
        CHECK(r.actions == Plans{-1, -1, -1, -1});
        CHECK(s.agents == f.agents);
        CHECK(s.last_plans == Plans{-1, -1, -1, -1});
    }
    CHECK(recorded_plan(0, 22) == 22);
    CHECK(recorded_plan(0, 21) == -1);
    CHECK(recorded_plan(2, 7) == 7);
    CHECK(recorded_plan(3, 8) == -1);
    CHECK(recorded_plan(1, -1) == -1);
}

TEST_CASE("samurai rules: a move into the cell being dug wins, the dig fails") {
    const Field f = make_field(6, {{1, 1}, kDog1Corner, {3, 2}, {5, 0}}, {}, {{{2, 1}, 6}});
    const auto [s, r] = step_once(f, {dig(kEast), -1, 3, -1});
    CHECK(r.actions == Plans{-1, -1, 3, -1});
    CHECK(s.agents[2].cell == Cell{2, 1});
    CHECK(s.agents[0].direction == kEast);  // Q2: the cancelled dig still turned the samurai
    CHECK(s.scores == std::array<int, 2>{0, 0});
    CHECK(s.known.size() == 1);
    CHECK(s.holes.empty());
}

TEST_CASE("samurai rules: two moves into the cell being dug cancel each other and the dig succeeds") {
    const Field f = make_field(6, {{1, 1}, kDog1Corner, {3, 2}, {3, 0}}, {}, {}, {{{2, 1}, 10}});
    const auto [s, r] = step_once(f, {dig(kEast), -1, 3, 1});
    CHECK(r.actions == Plans{dig(kEast), -1, -1, -1});
    CHECK(s.scores == std::array<int, 2>{10, 0});
    CHECK(s.hidden.empty());  // hidden gold can be dug without a bark
    CHECK(s.holes == std::vector<Cell>{{2, 1}});
    CHECK(s.agents[2].direction == 3);
    CHECK(s.agents[3].direction == 1);
}

TEST_CASE("samurai rules: both samurai digging one cell share the gold and make one hole") {
    const Field f = make_field(6, {{1, 1}, {3, 1}, kDog0Corner, kDog1Corner}, {}, {{{2, 1}, 10}});
    const auto [s, r] = step_once(f, {dig(kEast), dig(kWest), -1, -1});
    CHECK(r.actions == Plans{dig(kEast), dig(kWest), -1, -1});
    CHECK(s.scores == std::array<int, 2>{5, 5});
    CHECK(s.known.empty());
    CHECK(s.holes == std::vector<Cell>{{2, 1}});
}

TEST_CASE("samurai rules: a shared dig of odd gold rounds down and the game then runs to its step limit") {
    Field f = make_field(6, {{1, 1}, {3, 1}, kDog0Corner, kDog1Corner}, {}, {{{2, 1}, 7}}, {}, 5);
    GameState s = initial_state(f);
    play_step(f, s, {dig(kEast), dig(kWest), -1, -1});
    CHECK(s.scores == std::array<int, 2>{3, 3});
    CHECK(remaining_gold(s) == 0);
    CHECK_FALSE(game_over(f, s));  // Q4: the score sum never reaches the initial 7
    while (!game_over(f, s)) play_step(f, s, {-1, -1, -1, -1});
    CHECK(s.step == 5);
}

TEST_CASE("samurai rules: both samurai plugging one hole both succeed") {
    const Field f = make_field(6, {{1, 1}, {3, 1}, kDog0Corner, kDog1Corner}, {{2, 1}});
    const auto [s, r] = step_once(f, {plug(kEast), plug(kWest), -1, -1});
    CHECK(r.actions == Plans{plug(kEast), plug(kWest), -1, -1});
    CHECK(s.holes.empty());
}

TEST_CASE("samurai rules: a dog standing on known gold blocks the dig") {
    const Field f = make_field(6, {{1, 1}, kDog1Corner, {2, 1}, {5, 0}}, {}, {{{2, 1}, 8}});
    const auto [s, r] = step_once(f, {dig(kEast), -1, -1, -1});
    CHECK(r.actions == Plans{-1, -1, -1, -1});
    CHECK(s.agents[0].direction == 0);  // occupied at the start of the step: fails phase A
    CHECK(s.known.size() == 1);
}

TEST_CASE("samurai rules: a dog barks when it steps onto hidden gold, and only then") {
    // hidden: A, B (the dog's target), C. The bark keeps A, C in order and appends B to known.
    const Gold a{{5, 0}, 2}, b{{1, 5}, 4}, c{{3, 3}, 6}, k{{0, 3}, 8};
    const Field f = make_field(6, {{3, 2}, {4, 4}, {1, 4}, {4, 0}}, {}, {k}, {a, b, c});
    // Samurai 0 steps onto C: no bark.
    const auto [s, r] = step_once(f, {kNorth, kWest, kNorth, -1});
    CHECK(r.actions == Plans{kNorth, kWest, kNorth, -1});
    CHECK(s.hidden == std::vector<Gold>{a, c});
    CHECK(s.known == std::vector<Gold>{k, b});
    CHECK(s.scores == std::array<int, 2>{0, 0});
}

TEST_CASE("samurai rules: samurai stepping on hidden gold and a dog staying on it reveal nothing") {
    const Gold g1{{2, 2}, 4}, g2{{4, 4}, 6};
    const Field f = make_field(6, {{1, 2}, {0, 0}, {4, 4}, {5, 0}}, {}, {}, {g1, g2});
    const auto [s, r] = step_once(f, {kEast, -1, -1, -1});
    CHECK(r.actions[0] == kEast);
    CHECK(s.agents[0].cell == Cell{2, 2});
    CHECK(s.hidden == std::vector<Gold>{g1, g2});
    CHECK(s.known.empty());
}

TEST_CASE("samurai rules: dug gold and plugged holes leave by swap-with-last") {
    const Gold a{{2, 1}, 2}, b{{4, 4}, 4}, c{{5, 5}, 6};
    const Field f = make_field(6, {{1, 1}, {3, 3}, {0, 5}, {5, 0}}, {{2, 3}, {0, 0}, {4, 0}}, {}, {a, b, c});
    const auto [s, r] = step_once(f, {dig(kEast), plug(kWest), -1, -1});
    CHECK(r.actions == Plans{dig(kEast), plug(kWest), -1, -1});
    CHECK(s.hidden == std::vector<Gold>{c, b});
    // Agent order: samurai 0's new hole (2,1) is appended first, then samurai 1's plug of (2,3)
    // moves that last hole into the gap.
    CHECK(s.holes == std::vector<Cell>{{2, 1}, {0, 0}, {4, 0}});
    CHECK(s.scores == std::array<int, 2>{2, 0});
}

TEST_CASE("samurai rules: digging an empty cell makes a hole and scores nothing") {
    const Field f = make_field(6, {{1, 1}, {4, 4}, kDog0Corner, kDog1Corner});
    const auto [s, r] = step_once(f, {dig(kNorth), -1, -1, -1});
    CHECK(r.actions[0] == dig(kNorth));
    CHECK(s.holes == std::vector<Cell>{{1, 2}});
    CHECK(s.scores == std::array<int, 2>{0, 0});
}

TEST_CASE("samurai rules: dogs sense hidden gold in the 8 cells around them, ordered by direction") {
    const Gold own{{2, 2}, 2}, d0{{2, 3}, 4}, d7{{3, 3}, 6}, d2{{1, 2}, 8}, far{{4, 4}, 10}, d5{{3, 1}, 12};
    const Gold known{{3, 2}, 14};
    const Field f = make_field(6, {{0, 0}, {5, 5}, {2, 2}, {5, 0}}, {}, {known}, {own, d0, d7, d2, far, d5});
    const GameState s = initial_state(f);
    CHECK(sensed_gold(s, f.size, 2) == std::vector<Gold>{d0, d2, d5, d7});
    CHECK(sensed_gold(s, f.size, 3).empty());
    CHECK(sensed_gold(s, f.size, 0).empty());  // samurai sense nothing
    const Field g = make_field(6, {{1, 2}, {5, 5}, {2, 2}, {5, 0}}, {}, {}, {d2});
    CHECK(sensed_gold(initial_state(g), g.size, 0).empty());
}

TEST_CASE("samurai rules: the game ends when all gold is dug or after the last step") {
    const Field f = make_field(6, {{1, 1}, {4, 4}, kDog0Corner, kDog1Corner}, {}, {{{2, 1}, 4}}, {{{4, 3}, 6}}, 10);
    GameState s = initial_state(f);
    CHECK_FALSE(game_over(f, s));
    play_step(f, s, {dig(kEast), dig(kSouth), -1, -1});
    CHECK(s.scores == std::array<int, 2>{4, 6});
    CHECK(game_over(f, s));
    CHECK(s.step == 1);

    const Field empty = make_field(6, {{1, 1}, {4, 4}, kDog0Corner, kDog1Corner}, {}, {}, {}, 10);
    CHECK(game_over(empty, initial_state(empty)));  // no gold at all: zero steps
    const Field zero_steps = make_field(6, {{1, 1}, {4, 4}, kDog0Corner, kDog1Corner}, {}, {{{2, 1}, 4}}, {}, 0);
    CHECK(game_over(zero_steps, initial_state(zero_steps)));
}

}  // namespace arb::samurai
