#pragma once
// In-process Planowanie bots for referee tests and benchmarks: the sample bots' own code
// behind a ScriptedTable seat, with optional faults injected on chosen commands.
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

#include "core/table/scripted_table.hpp"
#include "tools/bots/planowanie/heuristic_strategy.hpp"
#include "tools/bots/planowanie/random_strategy.hpp"

namespace planowanie_test {

// Called before the bot answers; returns an answer to use instead, or nothing to answer normally.
// `deal` is the bot's deal index when the command arrives (0-based; -1 before the first set_cards,
// so a set_cards command sees the previous deal's index).
using Fault = std::function<std::optional<arb::ScriptedAnswer>(std::string_view command, int deal,
                                                               const planowanie_bot::Game& game)>;

inline arb::ScriptedBot scripted_bot(std::shared_ptr<planowanie_bot::Strategy> strategy, Fault fault = {}) {
    auto game = std::make_shared<planowanie_bot::Game>();
    return [game, strategy, fault](std::string_view request) {
        std::string output;
        std::size_t start = 0;
        while (start < request.size()) {
            auto end = request.find('\n', start);
            if (end == std::string_view::npos) end = request.size();
            const std::string line(request.substr(start, end - start));
            start = end + 1;
            if (fault) {
                if (auto answer = fault(line, game->deal, *game)) return *answer;
            }
            bool quit = false;
            if (auto reply = planowanie_bot::respond(*game, *strategy, line, quit)) output += *reply + "\n\n";
        }
        return arb::ScriptedAnswer::text(output);
    };
}

inline arb::ScriptedBot random_bot(std::uint64_t seed, Fault fault = {}) {
    return scripted_bot(std::make_shared<planowanie_bot::RandomStrategy>(seed), std::move(fault));
}

inline arb::ScriptedBot heuristic_bot(Fault fault = {}) {
    return scripted_bot(std::make_shared<planowanie_bot::HeuristicStrategy>(), std::move(fault));
}

inline bool starts_with(std::string_view text, std::string_view prefix) {
    return text.substr(0, prefix.size()) == prefix;
}

}  // namespace planowanie_test
