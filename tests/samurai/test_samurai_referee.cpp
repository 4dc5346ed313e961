// The referee over an in-process table: two games with positions swapped, the state text,
// think time, and misbehaving agents (crash, timeout, garbage).
#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>

#include "core/table/scripted_table.hpp"
#include "rules/samurai/samurai_game.hpp"
#include "rules/samurai/samurai_protocol.hpp"
#include "rules/samurai/samurai_referee.hpp"
#include "rules/samurai/samurai_verify.hpp"
#include "tests/test_scratch.hpp"

namespace arb::samurai {
namespace {

const std::filesystem::path kFields = std::filesystem::path(ARBITER_SHARED_DIR) / "data" / "samurai" / "fields";

// The 13 lines of a state message, as numbers.
struct Seen {
    int id = 0, size = 0, step = 0;
    std::vector<Cell> holes;
    std::vector<Gold> known, sensed;
    std::array<Cell, kAgents> agents{};
};

Seen parse_message(std::string_view text) {
    std::istringstream in{std::string(text)};
    Seen s;
    int max_steps = 0, n = 0;
    in >> s.id >> s.size >> s.step >> max_steps >> n;
    s.holes.resize(n);
    for (auto& h : s.holes) in >> h.x >> h.y;
    in >> n;
    s.known.resize(n);
    for (auto& g : s.known) in >> g.cell.x >> g.cell.y >> g.amount;
    in >> n;
    s.sensed.resize(n);
    for (auto& g : s.sensed) in >> g.cell.x >> g.cell.y >> g.amount;
    for (auto& a : s.agents) in >> a.x >> a.y;
    return s;
}

// A simple deterministic player: samurai dig adjacent known gold or walk toward the nearest;
// dogs step onto sensed gold (a bark) or wander.
std::string greedy_plan(const Seen& s) {
    const Cell me = s.agents[s.id];
    if (is_samurai(s.id)) {
        const Gold* best = nullptr;
        int best_distance = 1 << 20;
        for (const auto& g : s.known) {
            const int d = std::abs(g.cell.x - me.x) + std::abs(g.cell.y - me.y);
            if (d > 0 && d < best_distance) best = &g, best_distance = d;
        }
        if (!best) return "-1\n";
        const int dx = best->cell.x - me.x, dy = best->cell.y - me.y;
        const int dir = dx > 0 ? 6 : dx < 0 ? 2 : dy > 0 ? 0 : 4;
        return std::to_string(best_distance == 1 ? kFirstDig + dir : dir) + "\n";
    }
    for (int d = 0; d < 8; ++d) {
        for (const auto& g : s.sensed) {
            if (g.cell == Cell{me.x + kDirectionOffsets[d][0], me.y + kDirectionOffsets[d][1]}) {
                return std::to_string(d) + "\n";
            }
        }
    }
    return std::to_string((s.step * 3 + s.id) % 8) + "\n";
}

struct Fixture {
    std::filesystem::path dir;
    MatchRequest request;

    explicit Fixture(const std::string& field_name) {
        dir = arb::testing::fresh_scratch("samurai-referee-" + field_name);
        request.game = "samurai";
        request.options = GameOptions(describe_game().options, {{"field", (kFields / (field_name + ".dighere")).string()}});
        request.replay_path = dir / "match.dighere";
    }
    ~Fixture() { std::filesystem::remove_all(dir); }
};

using Behaviour = std::function<ScriptedAnswer(const Seen&)>;

// Plays greedily but gives `answer` at step `step` instead of a plan.
Behaviour greedy_except_at(int step, ScriptedAnswer answer) {
    return [step, answer](const Seen& s) { return s.step == step ? answer : ScriptedAnswer::text(greedy_plan(s)); };
}

ScriptedTable make_table(std::map<int, Behaviour> special = {}, Millis budget = Millis(10000)) {
    std::vector<ScriptedTable::Seat> seats;
    for (int seat = 0; seat < kSeatsPerMatch; ++seat) {
        const int game = seat / kAgents, agent = seat % kAgents;
        Behaviour behaviour = [](const Seen& s) { return ScriptedAnswer::text(greedy_plan(s)); };
        if (special.count(seat)) behaviour = special[seat];
        seats.push_back({SeatInfo{bot_of_agent(game, agent), bot_of_agent(game, agent) ? "B" : "A", "s"},
                         [behaviour](std::string_view text) { return behaviour(parse_message(text)); }, budget});
    }
    return ScriptedTable(std::move(seats));
}

// Requests sent to one seat, in order.
std::vector<std::string> requests_to(const ScriptedTable& table, int seat) {
    std::vector<std::string> out;
    const std::string prefix = std::to_string(seat) + "> ";
    for (const auto& line : table.transcript()) {
        if (line.rfind(prefix, 0) == 0) out.push_back(line.substr(prefix.size()));
    }
    return out;
}

}  // namespace

TEST_CASE("samurai referee: a match is two games on one field with positions swapped, gold summed") {
    Fixture fx("sample");
    ScriptedTable table = make_table();
    const RefereeResult result = referee_match(fx.request, table);

    const GameLog game1 = read_game_log(fx.dir / "match.dighere");
    const GameLog game2 = read_game_log(fx.dir / "match-game2.dighere");
    const Field field = read_game_log(kFields / "sample.dighere").field;
    CHECK(game1.field == field);
    CHECK(game2.field == field);
    for (const GameLog* log : {&game1, &game2}) {
        const VerifyOutcome v = verify_game_log(*log);
        CHECK_MESSAGE(v.ok, v.first_difference);
    }
    const auto& s1 = game1.plays.back().scores;
    const auto& s2 = game2.plays.back().scores;
    REQUIRE(result.participants.size() == 2);
    CHECK(result.participants[0].score == s1[0] + s2[1]);
    CHECK(result.participants[1].score == s1[1] + s2[0]);
    CHECK(result.participants[0].score + result.participants[1].score > 0);
    CHECK(result.turns == static_cast<int>(game1.plays.size() + game2.plays.size()));
    CHECK(result.pairs.size() == 1);
    CHECK(result.participants[0].status == SeatStatus::ok);
    CHECK(result.participants[0].detail.empty());

    // Every seat is told its agent id on line 1; game 2's seats are first asked after game 1.
    for (int seat = 0; seat < kSeatsPerMatch; ++seat) {
        const auto sent = requests_to(table, seat);
        const auto& plays = seat < kAgents ? game1.plays : game2.plays;
        CHECK(sent.size() == plays.size());
        for (const auto& text : sent) CHECK(parse_message(text).id == seat % kAgents);
    }
    const auto& t = table.transcript();
    std::size_t last_game1 = 0, first_game2 = t.size();
    for (std::size_t i = 0; i < t.size(); ++i) {
        const char c = t[i][0];
        if (c >= '0' && c <= '3') last_game1 = i;
        if (c >= '4' && c <= '7') first_game2 = std::min(first_game2, i);
    }
    CHECK(last_game1 < first_game2);
    // Game 1's seats are stopped when it ends.
    for (int seat = 0; seat < kSeatsPerMatch; ++seat) CHECK(table.status(seat) == SeatStatus::killed);
}

TEST_CASE("samurai referee: each step sends the rules.html state text with the seat's think time") {
    Fixture fx("sample");
    ScriptedTable table = make_table({}, Millis(60000));
    referee_match(fx.request, table);
    const Field field = read_game_log(kFields / "sample.dighere").field;
    const GameState start = initial_state(field);
    for (int agent = 0; agent < kAgents; ++agent) {
        CHECK(requests_to(table, agent).at(0) == state_message(field, start, agent, 60000));
        CHECK(requests_to(table, 4 + agent).at(0) == state_message(field, start, agent, 60000));
    }
    // The state after step 0 of game 1, as the engine computes it from the logged plans.
    const GameLog game1 = read_game_log(fx.dir / "match.dighere");
    GameState after = start;
    play_step(field, after, game1.plays[0].plans);
    CHECK(requests_to(table, 3).at(1) == state_message(field, after, 3, 60000));
}

TEST_CASE("samurai referee: a crashed agent stays for the rest of its game, the other game is unaffected") {
    Fixture fx("mm11");
    ScriptedTable table = make_table({{0, greedy_except_at(5, ScriptedAnswer::crash())}});
    const RefereeResult result = referee_match(fx.request, table);
    CHECK(requests_to(table, 0).size() == 6);  // steps 0..5, never asked again
    const GameLog game1 = read_game_log(fx.dir / "match.dighere");
    REQUIRE(game1.plays.size() > 6);
    for (std::size_t k = 5; k < game1.plays.size(); ++k) {
        CHECK(game1.plays[k].plans[0] == -1);
        CHECK(game1.plays[k].time_left[0] == 0);
    }
    CHECK(result.participants[0].status == SeatStatus::crashed);
    CHECK(result.participants[0].detail == "game 1 samurai: crashed at step 5");
    CHECK(result.participants[1].status == SeatStatus::ok);
    CHECK(verify_game_log(game1).ok);
    const GameLog game2 = read_game_log(fx.dir / "match-game2.dighere");
    CHECK(requests_to(table, 4).size() == game2.plays.size());
}

TEST_CASE("samurai referee: a timed-out dog stays for the rest of its game") {
    Fixture fx("mm11");
    // Seat 7 is agent 3 of game 2: bot 0's dog there.
    ScriptedTable table = make_table({{7, greedy_except_at(2, ScriptedAnswer::timeout())}});
    const RefereeResult result = referee_match(fx.request, table);
    CHECK(requests_to(table, 7).size() == 3);
    CHECK(result.participants[0].status == SeatStatus::timeout);
    CHECK(result.participants[0].detail == "game 2 dog: timeout at step 2");
    const GameLog game2 = read_game_log(fx.dir / "match-game2.dighere");
    for (std::size_t k = 2; k < game2.plays.size(); ++k) CHECK(game2.plays[k].actions[3] == -1);
}

TEST_CASE("samurai referee: garbage and out-of-range replies are invalid plans, the agent plays on") {
    Fixture fx("sample");
    ScriptedTable table = make_table({{1, [](const Seen& s) {
                                           switch (s.step) {
                                               case 0: return ScriptedAnswer::text("abc\n");
                                               case 1: return ScriptedAnswer::text("3 4\n");
                                               case 2: return ScriptedAnswer::text("99999999999999999999999\n");
                                               case 3: return ScriptedAnswer::text("7\n");  // odd: invalid
                                               case 4: return ScriptedAnswer::text("\n  +4 \n");
                                               default: return ScriptedAnswer::text(greedy_plan(s));
                                           }
                                       }}});
    const RefereeResult result = referee_match(fx.request, table);
    const GameLog game1 = read_game_log(fx.dir / "match.dighere");
    for (int k = 0; k < 4; ++k) {
        CHECK(game1.plays[k].plans[1] == -1);
        CHECK(game1.plays[k].actions[1] == -1);
    }
    CHECK(game1.plays[4].plans[1] == 4);  // blank lines are skipped, blanks and '+' allowed
    CHECK(requests_to(table, 1).size() == game1.plays.size());
    CHECK(result.participants[1].status == SeatStatus::ok);
    CHECK(result.participants[1].detail == "3 unparsable replies (played as -1)");
    CHECK(verify_game_log(game1).ok);
}

TEST_CASE("samurai referee: the same bots on the same field give the same logs") {
    Fixture a("kk-field-3"), b("kk-field-3");
    b.request.replay_path = b.dir / "again.dighere";
    std::filesystem::create_directories(b.dir);
    ScriptedTable t1 = make_table(), t2 = make_table();
    const RefereeResult r1 = referee_match(a.request, t1);
    const RefereeResult r2 = referee_match(b.request, t2);
    CHECK(r1.participants == r2.participants);
    const auto slurp = [](const std::filesystem::path& p) {
        std::ifstream in(p);
        std::ostringstream s;
        s << in.rdbuf();
        return s.str();
    };
    CHECK(slurp(a.dir / "match.dighere") == slurp(b.dir / "again.dighere"));
    CHECK(slurp(a.dir / "match-game2.dighere") == slurp(b.dir / "again-game2.dighere"));
}

TEST_CASE("samurai referee: the plan has 8 seats with the field's think time as each budget") {
    Fixture fx("sample");
    const auto seats = plan_match(fx.request);
    REQUIRE(seats.size() == 8);
    for (int s = 0; s < 8; ++s) {
        CHECK(seats[s].bot == bot_of_agent(s / 4, s % 4));
        CHECK(seats[s].time.total_budget == Millis(60000));
        CHECK_FALSE(seats[s].time.per_request.has_value());
        CHECK(seats[s].extra_args.empty());
    }
    CHECK(seats[0].label == "g1-agent0-samurai");
    CHECK(seats[7].label == "g2-agent3-dog");
    CHECK(seats[4].bot == 1);
    fx.request.options = GameOptions(describe_game().options,
                                     {{"field", (kFields / "sample.dighere").string()}, {"think-time", "250"}});
    CHECK(plan_match(fx.request)[3].time.total_budget == Millis(250));
    CHECK(game_log_path("out/x.dighere", 1) == std::filesystem::path("out/x-game2.dighere"));
    CHECK(game_log_path("x.dighere", 0) == std::filesystem::path("x.dighere"));
}

}  // namespace arb::samurai
