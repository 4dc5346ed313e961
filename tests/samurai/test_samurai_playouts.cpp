// Random fields and random plans (many invalid and conflicting), checking the rules'
// invariants after every step, and that every game's log verifies and reproduces.
#include <doctest/doctest.h>

#include <set>

#include "core/rng.hpp"
#include "rules/samurai/samurai_replay.hpp"
#include "rules/samurai/samurai_verify.hpp"
#include "tests/test_repeats.hpp"

namespace arb::samurai {
namespace {

// A random field in the spirit of the official editor (samurai.md 5.1): distinct cells for
// agents, holes and gold; even amounts. Small sizes give many conflicts.
Field random_field(Rng& rng) {
    Field f;
    f.size = static_cast<int>(rng.between(3, 8));
    f.steps = static_cast<int>(rng.between(20, 100));
    f.think_time_ms = 10000;
    std::vector<Cell> free;
    for (int x = 0; x < f.size; ++x)
        for (int y = 0; y < f.size; ++y) free.push_back({x, y});
    rng.shuffle(std::span<Cell>(free));
    std::size_t next = 0;
    for (int a = 0; a < kAgents; ++a) {
        const int d = static_cast<int>(rng.below(8));
        f.agents[a] = {free[next++], is_samurai(a) ? d & 6 : d};
    }
    const std::size_t rest = free.size() - next;
    const std::size_t holes = rest * rng.between(0, 25) / 100, known = rest * rng.between(0, 15) / 100,
                      hidden = rest * rng.between(5, 30) / 100;
    for (std::size_t i = 0; i < holes; ++i) f.holes.push_back(free[next++]);
    for (std::size_t i = 0; i < known; ++i) f.known.push_back({free[next++], 2 * static_cast<int>(rng.between(1, 10))});
    for (std::size_t i = 0; i < hidden && next < free.size(); ++i) {
        f.hidden.push_back({free[next++], 2 * static_cast<int>(rng.between(1, 10))});
    }
    return f;
}

// Mostly plausible plans, some invalid ones, some wild values.
std::int64_t random_plan(Rng& rng, int agent) {
    const std::uint64_t kind = rng.below(20);
    if (kind == 0) return rng.between(-1000, 1000);
    if (kind <= 2) return rng.between(-3, 27);
    if (kind <= 4) return -1;
    if (!is_samurai(agent)) return rng.between(0, 7);
    return 2 * rng.between(0, 11);  // even 0..22: moves, digs, plugs
}

std::set<std::pair<int, int>> cells_of(const std::vector<Cell>& cells) {
    std::set<std::pair<int, int>> out;
    for (const auto& c : cells) out.insert({c.x, c.y});
    return out;
}

void check_invariants(const Field& f, const GameState& before, const GameState& after, const StepRecord& r,
                      const std::array<std::int64_t, kAgents>& raw) {
    const auto holes = cells_of(after.holes);
    REQUIRE(holes.size() == after.holes.size());  // no duplicate holes
    std::set<std::pair<int, int>> agent_cells, gold_cells;
    for (int a = 0; a < kAgents; ++a) {
        const Agent& ag = after.agents[a];
        CHECK(ag.cell.x >= 0);
        CHECK(ag.cell.y >= 0);
        CHECK(ag.cell.x < f.size);
        CHECK(ag.cell.y < f.size);
        agent_cells.insert({ag.cell.x, ag.cell.y});
        CHECK(holes.count({ag.cell.x, ag.cell.y}) == 0);  // nobody stands in a hole
        CHECK(r.plans[a] == recorded_plan(a, raw[a]));
        CHECK((r.actions[a] == kStay || r.actions[a] == r.plans[a]));
        const int act = r.actions[a];
        const Cell from = before.agents[a].cell;
        if (act >= 0 && act < kFirstDig) {
            CHECK(ag.cell == Cell{from.x + kDirectionOffsets[act][0], from.y + kDirectionOffsets[act][1]});
        } else {
            CHECK(ag.cell == from);
        }
        if (r.plans[a] == kStay) CHECK(ag.direction == before.agents[a].direction);
        if (act != kStay) CHECK(ag.direction == act % 8);
        if (is_samurai(a)) CHECK(ag.direction % 2 == 0);
        if (!is_samurai(a)) CHECK(act < kFirstDig);
    }
    CHECK(agent_cells.size() == kAgents);  // never two agents in one cell
    for (const auto& g : after.known) gold_cells.insert({g.cell.x, g.cell.y});
    for (const auto& g : after.hidden) gold_cells.insert({g.cell.x, g.cell.y});
    CHECK(gold_cells.size() == after.known.size() + after.hidden.size());
    for (const auto& c : gold_cells) CHECK(holes.count(c) == 0);  // gold is never in a hole
    CHECK(after.scores[0] >= before.scores[0]);
    CHECK(after.scores[1] >= before.scores[1]);
    CHECK(after.scores[0] + after.scores[1] + remaining_gold(after) == total_gold(f));  // even amounts
    CHECK(after.known.size() + after.hidden.size() <= before.known.size() + before.hidden.size());
    CHECK(after.step == before.step + 1);
}

GameLog play_random_game(const Field& f, Rng& rng, bool check) {
    GameLog log{f, {}};
    GameState state = initial_state(f);
    while (!game_over(f, state)) {
        std::array<std::int64_t, kAgents> plans{};
        for (int a = 0; a < kAgents; ++a) plans[a] = random_plan(rng, a);
        const GameState before = state;
        const StepRecord r = play_step(f, state, plans);
        if (check) check_invariants(f, before, state, r, plans);
        log.plays.push_back(to_logged_play(r, {0, 0, 0, 0}));
    }
    return log;
}

}  // namespace

TEST_CASE("samurai playouts: random plans on random fields keep the rules' invariants") {
    int steps = 0, dug_out = 0, finished_early = 0;
    for (std::uint64_t game = 0; game < 300; ++game) {
        Rng rng(derive_seed(2019, {game}));
        const Field f = random_field(rng);
        const GameLog log = play_random_game(f, rng, true);
        steps += static_cast<int>(log.plays.size());
        if (!log.plays.empty()) dug_out += log.plays.back().scores[0] + log.plays.back().scores[1];
        if (static_cast<int>(log.plays.size()) < f.steps) ++finished_early;
    }
    // The plans must actually exercise the rules, not stand still.
    CHECK(steps > 10000);
    CHECK(dug_out > 1000);
    CHECK(finished_early > 0);
}

TEST_CASE("samurai playouts: every random game's log verifies, round-trips and reproduces") {
    for (std::uint64_t game = 0; game < 100 / arb::testing::kRepeatDivisor; ++game) {
        Rng rng(derive_seed(7, {game}));
        const Field f = random_field(rng);
        Rng plans_a(derive_seed(8, {game})), plans_b(derive_seed(8, {game}));
        const GameLog log = play_random_game(f, plans_a, false);
        const std::string text = game_log_json(log);
        CHECK(text == game_log_json(play_random_game(f, plans_b, false)));  // same seed, same bytes
        const GameLog parsed = parse_game_log(text, "random");
        CHECK(parsed.field == f);
        CHECK(game_log_json(parsed) == text);
        const VerifyOutcome v = verify_game_log(parsed);
        CHECK_MESSAGE(v.ok, v.first_difference);
        CHECK(v.steps == static_cast<int>(log.plays.size()));
    }
}

}  // namespace arb::samurai
