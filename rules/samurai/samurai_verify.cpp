// `arbiter verify samurai FILE`: a recorded game's plans replayed through our engine.
#include "rules/samurai/samurai_verify.hpp"

#include <array>
#include <string>

#include <fmt/format.h>

namespace arb::samurai {
namespace {

template <class T, std::size_t N>
std::string list_text(const std::array<T, N>& values) {
    std::string out = "[";
    for (std::size_t i = 0; i < N; ++i) out += (i ? "," : "") + std::to_string(values[i]);
    return out + "]";
}

std::string agents_text(const std::array<Agent, kAgents>& agents) {
    std::string out = "[";
    for (int a = 0; a < kAgents; ++a) {
        out += fmt::format("{}({},{})d{}", a ? " " : "", agents[a].cell.x, agents[a].cell.y, agents[a].direction);
    }
    return out + "]";
}

}  // namespace

VerifyOutcome verify_game_log(const GameLog& log) {
    VerifyOutcome outcome;
    GameState state = initial_state(log.field);
    auto differ = [&](int step, std::string what) {
        outcome.ok = false;
        outcome.first_difference = fmt::format("step {}: {}", step, what);
        return outcome;
    };
    for (const LoggedPlay& play : log.plays) {
        const int step = state.step;
        if (game_over(log.field, state)) {
            return differ(step, fmt::format("the log goes on but the game is over (scores {})", list_text(state.scores)));
        }
        if (play.step != step) return differ(step, fmt::format("field 'step' differs: log {}, engine {}", play.step, step));
        const StepRecord r = play_step(log.field, state, play.plans);
        if (r.actions != play.actions) {
            return differ(step, fmt::format("field 'actions' differs: log {}, engine {}", list_text(play.actions),
                                            list_text(r.actions)));
        }
        std::array<Agent, kAgents> engine_agents = r.agents;
        if (!play.directions_logged) {
            for (int a = 0; a < kAgents; ++a) engine_agents[a].direction = play.agents[a].direction;
        }
        if (engine_agents != play.agents) {
            return differ(step, fmt::format("field 'agents' differs: log {}, engine {}", agents_text(play.agents),
                                            agents_text(engine_agents)));
        }
        if (r.scores != play.scores) {
            return differ(step, fmt::format("field 'scores' differs: log {}, engine {}", list_text(play.scores),
                                            list_text(r.scores)));
        }
        outcome.steps = state.step;
    }
    if (!game_over(log.field, state)) {
        return differ(state.step, fmt::format("the log ends but the game goes on (scores {}, {} of {} steps)",
                                              list_text(state.scores), state.step, log.field.steps));
    }
    outcome.ok = true;
    return outcome;
}

}  // namespace arb::samurai
