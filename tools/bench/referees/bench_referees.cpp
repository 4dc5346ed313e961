// A game's referee over in-process seats (core/table/scripted_table.hpp): the referee's own work,
// asking, reading replies, mapping faults, applying turns, with no process and no pipe. The
// seats answer from the text they are sent, deterministically, so the same arguments run the
// same instructions (tools/bench/compare_instructions.sh counts them).
//
//   bench_referees samurai MATCHES     SamurAI on cc-cavebare: plans drawn from the state text
//   bench_referees ants MATCHES        Ants on maze_04p_01, at most 300 turns: each ant steps
//                                      north (the games end at about turn 150, "food not being
//                                      gathered")
//
// Prints matches, turns and wall time per match; with BENCH_REFEREES_VERBOSE=1 in the
// environment also each match's turns and end reason. Uses only the game descriptors, so the same
// file builds against older trees of the project.
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "core/table/scripted_table.hpp"
#include "rules/registry.hpp"

namespace {

using namespace arb;

std::uint64_t mix(std::string_view text) {  // FNV-1a: a plan that follows the state
    std::uint64_t h = 1469598103934665603ull;
    for (const char c : text) h = (h ^ static_cast<unsigned char>(c)) * 1099511628211ull;
    return h;
}

ScriptedAnswer samurai_bot(std::string_view state) {
    const bool dog = !state.empty() && (state[0] == '2' || state[0] == '3');
    const std::uint64_t h = mix(state);
    const long plan = dog ? static_cast<long>(h % 9) - 1 : static_cast<long>(h % 13) * 2 - 2;
    return ScriptedAnswer::text(std::to_string(plan < -1 ? -1 : plan) + "\n");
}

// Every own ant ("a ROW COL 0") steps north; the setup block is answered with "go" alone.
ScriptedAnswer ants_bot(std::string_view state) {
    std::string out;
    std::size_t at = 0;
    while (at < state.size()) {
        std::size_t end = state.find('\n', at);
        if (end == std::string_view::npos) end = state.size();
        const std::string_view line = state.substr(at, end - at);
        if (line.size() > 4 && line[0] == 'a' && line[1] == ' ' && line.substr(line.size() - 2) == " 0") {
            out += "o ";
            out += line.substr(2, line.size() - 4);
            out += " N\n";
        }
        at = end + 1;
    }
    return ScriptedAnswer::text(out + "go\n");
}

int play(const std::string& game, int matches) {
    const GameDescriptor& descriptor = find_game(game);
    const std::string data = ARBITER_SHARED_DIR "/data/";
    std::map<std::string, std::string> given;
    int bots = 2;
    if (game == "samurai") {
        given["field"] = data + "samurai/fields/cc-cavebare.dighere";
    } else if (game == "ants") {
        given["map"] = data + "ants/maps/maze_04p_01.map";
        given["turns"] = "300";
        bots = 4;
    } else {
        std::fprintf(stderr, "bench_referees: no scripted bots for '%s' (samurai, ants)\n", game.c_str());
        return 2;
    }
    long turns = 0;
    const auto start = std::chrono::steady_clock::now();
    for (int m = 0; m < matches; ++m) {
        MatchRequest request;
        request.game = game;
        request.seed = 1000 + static_cast<std::uint64_t>(m);
        request.options = GameOptions(descriptor.options, given);
        request.bots.resize(static_cast<std::size_t>(bots));
        std::vector<ScriptedTable::Seat> seats;
        for (const SeatPlan& plan : descriptor.plan(request)) {
            ScriptedBot bot = game == "samurai" ? ScriptedBot(samurai_bot) : ScriptedBot(ants_bot);
            seats.push_back({SeatInfo{plan.bot, "bot" + std::to_string(plan.bot), plan.label}, bot, Millis{60000}});
        }
        ScriptedTable table(std::move(seats));
        const RefereeResult result = descriptor.referee(request, table);
        if (std::getenv("BENCH_REFEREES_VERBOSE")) std::printf("match %d: %d turns, %s\n", m, result.turns, result.end_reason.c_str());
        turns += result.turns;
    }
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    std::printf("%s: %d matches, %ld turns, %.3f ms per match\n", game.c_str(), matches, turns,
                1000.0 * seconds / matches);
    return 0;
}

}  // namespace

int main(int argc, char** argv) {
    if (argc != 3 || std::atoi(argv[2]) <= 0) {
        std::fprintf(stderr, "usage: bench_referees samurai|ants MATCHES\n");
        return 2;
    }
    try {
        return play(argv[1], std::atoi(argv[2]));
    } catch (const std::exception& e) {
        std::fprintf(stderr, "bench_referees: %s\n", e.what());
        return 2;
    }
}
