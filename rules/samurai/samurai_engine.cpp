#include "rules/samurai/samurai_engine.hpp"

#include <algorithm>

namespace arb::samurai {
namespace {

bool inside(Cell c, int size) { return c.x >= 0 && c.y >= 0 && c.x < size && c.y < size; }

Cell neighbour(Cell c, int direction) {
    return {c.x + kDirectionOffsets[direction][0], c.y + kDirectionOffsets[direction][1]};
}

template <class List, class Pred>
std::optional<std::size_t> index_of(const List& list, Pred pred) {
    for (std::size_t i = 0; i < list.size(); ++i) {
        if (pred(list[i])) return i;
    }
    return std::nullopt;
}

std::optional<std::size_t> hole_at(const std::vector<Cell>& holes, Cell c) {
    return index_of(holes, [&](const Cell& h) { return h == c; });
}

std::optional<std::size_t> gold_at(const std::vector<Gold>& golds, Cell c) {
    return index_of(golds, [&](const Gold& g) { return g.cell == c; });
}

// The manager removes dug gold and plugged holes by moving the last element into the gap (Q3).
template <class T>
void swap_remove(std::vector<T>& list, std::size_t index) {
    list[index] = list.back();
    list.pop_back();
}

bool occupied(const std::array<Agent, kAgents>& agents, Cell c, int except = -1) {
    for (int a = 0; a < kAgents; ++a) {
        if (a != except && agents[a].cell == c) return true;
    }
    return false;
}

bool is_move(int action) { return action >= 0 && action < kFirstDig; }
bool is_dig(int action) { return action >= kFirstDig && action < kFirstPlug; }
bool is_plug(int action) { return action >= kFirstPlug && action < kPlanLimit; }

}  // namespace

GameState initial_state(const Field& field) {
    GameState state;
    state.agents = field.agents;
    state.holes = field.holes;
    state.known = field.known;
    state.hidden = field.hidden;
    return state;
}

int total_gold(const Field& field) {
    int total = 0;
    for (const auto& g : field.known) total += g.amount;
    for (const auto& g : field.hidden) total += g.amount;
    return total;
}

int remaining_gold(const GameState& state) {
    int total = 0;
    for (const auto& g : state.known) total += g.amount;
    for (const auto& g : state.hidden) total += g.amount;
    return total;
}

bool game_over(const Field& field, const GameState& state) {
    // samurai.md 2.4 / Q4: the manager compares the score sum with the initial total, so a game
    // in which odd gold was ever halved runs to the step limit.
    return state.step >= field.steps || state.scores[0] + state.scores[1] == total_gold(field);
}

int recorded_plan(int agent, std::int64_t raw_plan) {
    if (raw_plan == kStay) return kStay;
    if (is_samurai(agent)) {
        const bool valid = raw_plan >= 0 && raw_plan < kPlanLimit && raw_plan % 2 == 0;
        return valid ? static_cast<int>(raw_plan) : kStay;
    }
    return raw_plan >= 0 && raw_plan < kFirstDig ? static_cast<int>(raw_plan) : kStay;
}

StepRecord play_step(const Field& field, GameState& state, const std::array<std::int64_t, kAgents>& raw_plans) {
    StepRecord record;
    record.step = state.step;
    const std::array<Agent, kAgents> start = state.agents;

    Plans actions{kStay, kStay, kStay, kStay};
    std::array<Cell, kAgents> targets{};
    std::array<std::optional<Cell>, 2> dug{};  // samurai dig targets that passed phase A

    // Phase A (samurai.md 2.2): each plan on its own against the start-of-step state. Invalid
    // plans are -1 before the tests; samurai.md 2.5 checked that this gives the manager's
    // trajectory, which runs them through the tests and fails them there.
    for (int a = 0; a < kAgents; ++a) {
        const int plan = recorded_plan(a, raw_plans[a]);
        record.plans[a] = plan;
        if (plan == kStay) continue;
        const int direction = plan % 8;
        const Cell target = neighbour(start[a].cell, direction);
        if (!inside(target, field.size)) continue;                    // test 2: off the field
        if (occupied(start, target)) continue;                        // test 3: no following, no swaps
        const bool hole = hole_at(state.holes, target).has_value();
        if (plan < kFirstPlug && hole) continue;                      // test 5: move or dig into a hole
        if (is_plug(plan) && !hole) continue;                         // test 6: plug without a hole
        if (is_dig(plan)) dug[a] = target;
        actions[a] = plan;
        targets[a] = target;
        state.agents[a].direction = direction;  // Q2: turns even if phase B or C cancels it
    }

    // Phase B: moves aimed at the same cell all fail; only phase-A survivors take part.
    Plans after_conflicts = actions;
    for (int a = 0; a < kAgents; ++a) {
        if (!is_move(actions[a])) continue;
        for (int b = 0; b < kAgents; ++b) {
            if (b != a && is_move(actions[b]) && targets[b] == targets[a]) after_conflicts[a] = kStay;
        }
    }
    actions = after_conflicts;
    for (int a = 0; a < kAgents; ++a) {
        if (is_move(actions[a])) state.agents[a].cell = targets[a];
    }

    // Phase C: effects in agent order.
    for (int a = 0; a < kAgents; ++a) {
        const int action = actions[a];
        if (action == kStay) continue;
        const Cell target = targets[a];
        if (is_move(action)) {
            // A dog that steps onto hidden gold barks: the gold becomes known, stays buried.
            if (is_samurai(a)) continue;
            if (const auto g = gold_at(state.hidden, target)) {
                const Gold barked = state.hidden[*g];
                state.hidden.erase(state.hidden.begin() + static_cast<std::ptrdiff_t>(*g));
                state.known.push_back(barked);
            }
            continue;
        }
        // Digging or plugging a cell another agent has just moved into fails.
        if (occupied(state.agents, target, a)) {
            actions[a] = kStay;
            continue;
        }
        if (is_dig(action)) {
            // Known or hidden gold is dug out (no bark needed). When both samurai dug this cell,
            // each team gets half; the second digger then finds neither gold nor a new hole.
            std::vector<Gold>* list = &state.known;
            auto g = gold_at(state.known, target);
            if (!g) {
                list = &state.hidden;
                g = gold_at(state.hidden, target);
            }
            if (g) {
                const int amount = (*list)[*g].amount;
                if (dug[0] && dug[1] && *dug[0] == *dug[1]) {
                    state.scores[0] += amount / 2;
                    state.scores[1] += amount / 2;
                } else {
                    state.scores[team_of(a)] += amount;
                }
                swap_remove(*list, *g);
            }
            if (!hole_at(state.holes, target)) state.holes.push_back(target);
        } else {
            // Plug: a second plug of the same hole finds nothing and still counts as done.
            if (const auto h = hole_at(state.holes, target)) swap_remove(state.holes, *h);
        }
    }

    state.last_plans = record.plans;
    state.last_actions = actions;
    ++state.step;
    record.actions = actions;
    record.agents = state.agents;
    record.scores = state.scores;
    return record;
}

std::vector<Gold> sensed_gold(const GameState& state, int size, int agent) {
    std::vector<Gold> sensed;
    if (is_samurai(agent)) return sensed;
    for (int d = 0; d < 8; ++d) {
        const Cell c = neighbour(state.agents[agent].cell, d);
        if (!inside(c, size)) continue;
        if (const auto g = gold_at(state.hidden, c)) sensed.push_back(state.hidden[*g]);
    }
    return sensed;
}

}  // namespace arb::samurai
