// What the live page's file costs a tournament per match: a match function that plays nothing,
// with and without with_live_files (the file written before it, removed after), N times each,
// alternating in blocks. Prints microseconds per match for both and the difference, to set
// against a match's own time (a 400-match demo tournament at -j2: tens of ms a match).
//
//   build/release/bench/bench_live_files [MATCHES=400] [REPEATS=5]   (run where the results go)
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <vector>

#include "arbiter/tournament/live_matches.hpp"

using namespace arb;
using Clock = std::chrono::steady_clock;

int main(int argc, char** argv) {
    const int matches = argc > 1 ? std::atoi(argv[1]) : 400;
    const int repeats = argc > 2 ? std::atoi(argv[2]) : 5;
    // In the current folder: the file system a tournament's results go to.
    const auto root = std::filesystem::current_path() / "bench-live-files";
    std::filesystem::create_directories(root);
    MatchRequest request;
    request.game = "planowanie";
    for (int i = 0; i < 4; ++i) {
        BotSpec bot;
        bot.name = "bot-" + std::to_string(i);
        request.bots.push_back(bot);
    }
    const tournament::MatchFunction nothing = [](const MatchRequest&) { return MatchRecord{}; };
    const tournament::MatchFunction live = tournament::with_live_files(nothing, tournament::live_folder(root));
    auto time = [&](const tournament::MatchFunction& play) {
        const auto t0 = Clock::now();
        for (int m = 0; m < matches; ++m) {
            request.transcript_path = root / ("r0-g" + std::to_string(m) + "-s0") / "transcript.txt";
            play(request);
        }
        return std::chrono::duration<double, std::micro>(Clock::now() - t0).count() / matches;
    };
    std::vector<double> plain, with;
    for (int r = 0; r < repeats; ++r) {
        plain.push_back(time(nothing));
        with.push_back(time(live));
    }
    std::sort(plain.begin(), plain.end());
    std::sort(with.begin(), with.end());
    const double p = plain[plain.size() / 2], w = with[with.size() / 2];
    std::printf("per match, median of %d x %d: without %.2f us, with the live file %.2f us: +%.2f us\n", repeats,
                matches, p, w, w - p);
    std::filesystem::remove_all(root);
}
