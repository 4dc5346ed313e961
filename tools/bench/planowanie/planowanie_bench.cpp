// Planowanie benchmarks (figures go to docs/benchmarks/planowanie.md).
//
//   planowanie_bench strength [DEAL_SETS]
//       In-process (no processes): the heuristic sample bot against three random ones, every deal
//       set played in all 4 cyclic rotations. Prints total scores and pairwise results.
//   planowanie_bench matches N BOTS_DIR [FIRST_SEED]
//       N full 13-deal 4-player matches of the C++ random bot through run_match (real processes).
//       Prints wall time and arbiter CPU (this process only, RUSAGE_SELF) per match, medians, and
//       matches per second. Run two at once for concurrency 2 (see run_bench.sh).
#include <fmt/format.h>
#include <sys/resource.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <iostream>
#include <string>
#include <vector>

#include "arbiter/match/match_runner.hpp"
#include "rules/planowanie/planowanie_game.hpp"
#include "rules/planowanie/planowanie_referee.hpp"
#include "tools/bots/planowanie/in_process_bots.hpp"

using namespace arb;

namespace {

double cpu_self_s() {
    rusage usage{};
    getrusage(RUSAGE_SELF, &usage);
    auto seconds = [](const timeval& t) { return static_cast<double>(t.tv_sec) + t.tv_usec / 1e6; };
    return seconds(usage.ru_utime) + seconds(usage.ru_stime);
}

double median(std::vector<double> values) {
    if (values.empty()) return 0;
    std::sort(values.begin(), values.end());
    const std::size_t mid = values.size() / 2;
    return values.size() % 2 ? values[mid] : (values[mid - 1] + values[mid]) / 2;
}

int strength(int deal_sets) {
    // Lineup: 0 = heuristic, 1..3 = random with different seeds. Rotation r puts bot (i + r) % 4 in seat i.
    std::vector<double> total(4, 0);
    int wins = 0, draws = 0, losses = 0, matches = 0, faults = 0;
    for (int set = 0; set < deal_sets; ++set) {
        for (int r = 0; r < 4; ++r) {
            std::vector<ScriptedTable::Seat> seats;
            std::vector<int> bot_at(4);
            for (int seat = 0; seat < 4; ++seat) {
                const int bot = (seat + r) % 4;
                bot_at[seat] = bot;
                ScriptedBot play =
                    bot == 0 ? planowanie_test::heuristic_bot()
                             : planowanie_test::random_bot(static_cast<std::uint64_t>(1000 * set + bot));
                seats.push_back({SeatInfo{bot, "bot" + std::to_string(bot), "p" + std::to_string(seat)}, play,
                                 Millis{180000}});
            }
            ScriptedTable table(std::move(seats));
            const RefereeResult result = planowanie::run_referee(
                planowanie::RefereeSettings{.config = planowanie::Config::tournament(),
                                            .deal_seed = static_cast<std::uint64_t>(50000 + set),
                                            .send_quit = true,
                                            .log_path = {},
                                            .live_replay = {}},
                table);
            ++matches;
            if (result.end_reason != "completed") ++faults;
            int heuristic_seat = 0;
            for (int seat = 0; seat < 4; ++seat) {
                total[bot_at[seat]] += result.participants[seat].score;
                if (bot_at[seat] == 0) heuristic_seat = seat;
            }
            const double mine = result.participants[heuristic_seat].score;
            for (int seat = 0; seat < 4; ++seat) {
                if (seat == heuristic_seat) continue;
                const double other = result.participants[seat].score;
                (mine > other ? wins : mine == other ? draws : losses)++;
            }
        }
    }
    std::cout << fmt::format("{} matches ({} deal sets x 4 rotations), {} ended by a fault\n", matches,
                             deal_sets, faults);
    std::cout << fmt::format("mean score per match: heuristic {:.1f}, random {:.1f} / {:.1f} / {:.1f}\n",
                             total[0] / matches, total[1] / matches, total[2] / matches, total[3] / matches);
    std::cout << fmt::format(
        "heuristic vs each random, per match: {} wins, {} draws, {} losses ({:.1f}% wins)\n", wins, draws,
        losses, 100.0 * wins / (wins + draws + losses));
    return 0;
}

int matches(int count, const std::string& bots_dir, std::uint64_t first_seed) {
    const GameDescriptor game = planowanie::describe_game();
    std::vector<double> walls, cpus;
    const auto start = std::chrono::steady_clock::now();
    for (int i = 0; i < count; ++i) {
        MatchRequest request;
        request.game = game.name;
        for (int b = 0; b < 4; ++b) {
            request.bots.push_back(
                parse_bot_spec(fmt::format("name=r{} cmd=\"{}/random_bot {}\"", b, bots_dir, b + 1)));
        }
        request.seed = first_seed + static_cast<std::uint64_t>(i);
        request.options = GameOptions(game.options, {});
        const double cpu_before = cpu_self_s();
        const auto t0 = std::chrono::steady_clock::now();
        const MatchRecord record = run_match(game, request);
        walls.push_back(std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
        cpus.push_back(cpu_self_s() - cpu_before);
        if (record.end_reason != "completed") std::cerr << "match " << i << ": " << record.end_reason << "\n";
    }
    const double elapsed = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    std::cout << fmt::format(
        "{} matches in {:.2f} s: median wall {:.3f} s, median arbiter CPU {:.3f} s, {:.2f} matches/s\n",
        count, elapsed, median(walls), median(cpus), count / elapsed);
    return 0;
}

}  // namespace

int main(int argc, char** argv) {
    const std::string mode = argc > 1 ? argv[1] : "";
    try {
        if (mode == "strength") return strength(argc > 2 ? std::atoi(argv[2]) : 10);
        if (mode == "matches" && argc > 3) {
            return matches(std::atoi(argv[2]), argv[3], argc > 4 ? std::strtoull(argv[4], nullptr, 10) : 1);
        }
    } catch (const std::exception& e) {
        std::cerr << "planowanie_bench: " << e.what() << "\n";
        return 2;
    }
    std::cerr << "usage: planowanie_bench strength [DEAL_SETS] | matches N BOTS_DIR [FIRST_SEED]\n";
    return 2;
}
