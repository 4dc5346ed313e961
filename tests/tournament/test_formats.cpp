// Round planners: the seed-000 group format and round-robin / gauntlet schedules.
#include <doctest/doctest.h>

#include <map>
#include <set>

#include "core/user_error.hpp"
#include "arbiter/tournament/formats.hpp"

using namespace arb::tournament;

namespace {

TournamentConfig groups_config(int bots, int house) {
    TournamentConfig c;
    c.name = "t";
    c.game = "planowanie";
    c.seed = 2009;
    c.rounds = 20;
    c.random_rounds = 10;
    for (int i = 0; i < bots; ++i) c.bots.push_back(arb::parse_bot_spec("name=b" + std::to_string(i) + " cmd=/bin/true"));
    for (int i = 0; i < house; ++i) c.house_bots.push_back(arb::parse_bot_spec("name=h" + std::to_string(i) + " cmd=/bin/true"));
    validate(c, 2, 4);
    return c;
}

History empty_history(const RoundPlanner& p) {
    History h;
    h.participants = p.participants();
    for (const auto& name : h.participants) h.results.player_index(name);
    h.meetings.assign(h.participants.size() * h.participants.size(), 0.0);
    return h;
}

RatingModel never_called(const History&) {
    FAIL("a random round must not fit ratings");
    return {};
}

}  // namespace

TEST_CASE("groups of four with house bots, all four rotations, one deal set per round") {
    const TournamentConfig c = groups_config(6, 3);
    auto planner = make_planner(c, never_called);
    REQUIRE(planner->participants().size() == 8);  // 6 bots + 2 of the 3 house bots
    CHECK(planner->participants()[6] == "h0");
    CHECK(planner->participants()[7] == "h1");
    CHECK(planner->matches_in_round(0) == 8);

    const Round round = planner->plan(3, empty_history(*planner));
    REQUIRE(round.matches.size() == 8);
    std::map<std::string, std::set<int>> seats_of;
    std::set<std::string> keys;
    for (const auto& m : round.matches) {
        CHECK(m.deal_set == round.matches.front().deal_set);
        CHECK(m.bots.size() == 4);
        for (int s = 0; s < 4; ++s) seats_of[m.bots[s]].insert(s);
        keys.insert(m.key);
    }
    CHECK(keys.size() == 8);
    // Every participant sits once in every seat (seed: "każdy gracz grał dokładnie raz z numerami od 0 do 3").
    CHECK(seats_of.size() == 8);
    for (const auto& [bot, seats] : seats_of) CHECK(seats.size() == 4);
    // The rotations of a group keep who sits after whom.
    for (const auto& m : round.matches) {
        const auto& base = round.matches[m.group * 4].bots;
        for (int s = 0; s < 4; ++s) CHECK(m.bots[s] == base[(s + m.seating) % 4]);
    }
    // Different rounds: another deal set; planning is a pure function of (seed, round).
    const Round again = planner->plan(3, empty_history(*planner));
    CHECK(again.matches == round.matches);
    CHECK(planner->plan(4, empty_history(*planner)).matches.front().deal_set != round.matches.front().deal_set);
}

TEST_CASE("later rounds are grouped by the fitted model, anchors from the top") {
    TournamentConfig c = groups_config(8, 0);
    c.vary_cyclic_order = false;
    int fits = 0;
    auto planner = make_planner(c, [&](const History& h) {
        ++fits;
        RatingModel m;
        m.players = h.participants;
        const std::size_t n = m.players.size();
        for (std::size_t i = 0; i < n; ++i) m.elo.push_back(10.0 * i);  // b7 best
        m.covariance.assign(n * n, 0.0);
        for (std::size_t i = 0; i < n; ++i) m.covariance[i * n + i] = 2500;
        return m;
    });
    CHECK(planner->independent(9));
    CHECK_FALSE(planner->independent(10));
    History h = empty_history(*planner);
    h.results.add_game(0, 1, arb::rating::Outcome::draw);
    const Round round = planner->plan(10, h);
    CHECK(fits == 1);
    REQUIRE(round.matches.size() == 8);
    // Fixed cyclic order (members sorted): the top bot's group is the first, it holds b7.
    const auto& first = round.matches[0].bots;
    CHECK(std::find(first.begin(), first.end(), "b7") != first.end());
}

TEST_CASE("round-robin plays every set in every seat arrangement, gauntlet only challengers") {
    TournamentConfig c;
    c.name = "rr";
    c.game = "g";
    c.format = Format::round_robin;
    c.rounds = 1;
    c.players = 2;
    c.seating = Seating::permutations;
    for (int i = 0; i < 5; ++i) c.bots.push_back(arb::parse_bot_spec("name=b" + std::to_string(i) + " cmd=/bin/true"));
    validate(c, 2, 2);
    auto rr = make_planner(c, never_called);
    const Round round = rr->plan(0, empty_history(*rr));
    CHECK(round.matches.size() == 20);  // C(5,2) pairs x 2 seat orders
    std::set<std::pair<std::string, std::string>> ordered;
    for (const auto& m : round.matches) ordered.insert({m.bots[0], m.bots[1]});
    CHECK(ordered.size() == 20);

    c.all_seatings = false;
    CHECK(make_planner(c, never_called)->plan(0, empty_history(*rr)).matches.size() == 10);

    c.format = Format::gauntlet;
    c.all_seatings = true;
    c.challengers = {"b4"};
    validate(c, 2, 2);
    auto gauntlet = make_planner(c, never_called);
    const Round g = gauntlet->plan(0, empty_history(*gauntlet));
    CHECK(g.matches.size() == 8);  // 4 opponents x 2 seat orders
    for (const auto& m : g.matches) CHECK((m.bots[0] == "b4" || m.bots[1] == "b4"));
}

TEST_CASE("seat arrangements: rotations and permutations") {
    CHECK(seat_arrangements(3, Seating::rotations) == std::vector<std::vector<int>>{{0, 1, 2}, {1, 2, 0}, {2, 0, 1}});
    CHECK(seat_arrangements(3, Seating::permutations).size() == 6);
}

TEST_CASE("validation names the problem") {
    TournamentConfig c;
    c.name = "t";
    c.game = "planowanie";
    c.rounds = 3;
    for (int i = 0; i < 5; ++i) c.bots.push_back(arb::parse_bot_spec("name=b" + std::to_string(i) + " cmd=/bin/true"));
    const TournamentConfig unvalidated = c;
    CHECK_THROWS_WITH_AS(validate(c, 2, 4),
                         "5 bots need 3 house bot(s) to fill groups of 4; there are 0 (add --house-bot, or play "
                         "--pairing round-robin --players 2)",
                         arb::UserError);
    // Two bots, no pairing asked for: too few for a group, so a round-robin of two-player matches.
    TournamentConfig two = unvalidated;
    two.bots.resize(2);
    validate(two, 2, 4);
    CHECK(two.format == Format::round_robin);
    CHECK(two.players == 2);
    // The same with groups asked for: refused, naming the flags that would work.
    TournamentConfig asked = unvalidated;
    asked.bots.resize(2);
    asked.pairing_given = true;
    CHECK_THROWS_WITH_AS(validate(asked, 2, 4),
                         "2 bots need 2 house bot(s) to fill groups of 4; there are 0 (add --house-bot, or play "
                         "--pairing round-robin --players 2)",
                         arb::UserError);
    TournamentConfig d = c;
    d.rounds.reset();
    d.house_bots = {arb::parse_bot_spec("name=h cmd=/bin/true")};
    CHECK_THROWS_AS(validate(d, 2, 4), arb::UserError);
}
