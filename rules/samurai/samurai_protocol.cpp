#include "rules/samurai/samurai_protocol.hpp"

#include <charconv>

namespace arb::samurai {

std::string state_message(const Field& field, const GameState& state, int agent, std::int64_t think_time_left_ms) {
    // rules.html "Game State Information": 13 lines, lists prefixed by their length.
    std::string out;
    out.reserve(256 + 8 * (state.holes.size() + state.known.size() + state.hidden.size()));
    auto number = [&out](std::int64_t n, char after) {
        char buffer[24];
        const auto end = std::to_chars(buffer, buffer + sizeof buffer, n).ptr;
        out.append(buffer, end);
        out.push_back(after);
    };
    auto golds = [&](const std::vector<Gold>& list) {
        number(static_cast<std::int64_t>(list.size()), list.empty() ? '\n' : ' ');
        for (std::size_t i = 0; i < list.size(); ++i) {
            number(list[i].cell.x, ' ');
            number(list[i].cell.y, ' ');
            number(list[i].amount, i + 1 == list.size() ? '\n' : ' ');
        }
    };
    number(agent, '\n');
    number(field.size, '\n');
    number(state.step, '\n');
    number(field.steps, '\n');
    number(static_cast<std::int64_t>(state.holes.size()), state.holes.empty() ? '\n' : ' ');
    for (std::size_t i = 0; i < state.holes.size(); ++i) {
        number(state.holes[i].x, ' ');
        number(state.holes[i].y, i + 1 == state.holes.size() ? '\n' : ' ');
    }
    golds(state.known);
    golds(sensed_gold(state, field.size, agent));
    for (int a = 0; a < kAgents; ++a) {
        number(state.agents[a].cell.x, ' ');
        number(state.agents[a].cell.y, a + 1 == kAgents ? '\n' : ' ');
    }
    for (int a = 0; a < kAgents; ++a) number(state.last_plans[a], a + 1 == kAgents ? '\n' : ' ');
    for (int a = 0; a < kAgents; ++a) number(state.last_actions[a], a + 1 == kAgents ? '\n' : ' ');
    number(state.scores[0], ' ');
    number(state.scores[1], '\n');
    number(remaining_gold(state), '\n');
    number(think_time_left_ms, '\n');
    return out;
}

std::optional<std::int64_t> parse_plan(std::string_view line) {
    while (!line.empty() && (line.front() == ' ' || line.front() == '\t')) line.remove_prefix(1);
    while (!line.empty() && (line.back() == ' ' || line.back() == '\t')) line.remove_suffix(1);
    if (!line.empty() && line.front() == '+') line.remove_prefix(1);
    std::int64_t value = 0;
    const auto [end, error] = std::from_chars(line.data(), line.data() + line.size(), value);
    if (error != std::errc() || end != line.data() + line.size() || line.empty()) return std::nullopt;
    return value;
}

}  // namespace arb::samurai
