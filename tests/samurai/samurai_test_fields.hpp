#pragma once
// Small hand-made fields for SamurAI rule cases.
#include <initializer_list>

#include "rules/samurai/samurai_engine.hpp"

namespace arb::samurai::testing {

// Agents at the given cells (samurai 0, samurai 1, dog 0, dog 1), facing direction 0.
inline Field make_field(int size, std::initializer_list<Cell> agents, std::initializer_list<Cell> holes = {},
                        std::initializer_list<Gold> known = {}, std::initializer_list<Gold> hidden = {},
                        int steps = 100) {
    Field f;
    f.size = size;
    f.steps = steps;
    f.think_time_ms = 10000;
    int a = 0;
    for (const Cell c : agents) f.agents[a++] = Agent{c, 0};
    f.holes = holes;
    f.known = known;
    f.hidden = hidden;
    return f;
}

// Plays one step of raw plans from the field's initial state.
struct OneStep {
    GameState state;
    StepRecord record;
};
inline OneStep step_once(const Field& field, std::array<std::int64_t, kAgents> plans) {
    OneStep out{initial_state(field), {}};
    out.record = play_step(field, out.state, plans);
    return out;
}

}  // namespace arb::samurai::testing
