// SamurAI Dig Here sample player "random": a uniformly random plan among those that are not
// obviously inoperable at the start of the step (samurai: move, dig or plug; dog: move).
//   random_player [--seed N] [--crash-at STEP] [--hang-at STEP] [--garbage-at STEP]
// The seed (default 1) is mixed with the agent id, so the same seed gives the same play.
// The --*-at options make it misbehave at a step, for testing arbiters: exit without an answer,
// never answer, or answer text that is not a plan.
#include <chrono>
#include <cstdint>
#include <cstring>
#include <string>
#include <thread>

#include "samurai_bot.hpp"

using namespace samurai_bot;

namespace {

// splitmix64: small, and the same on every platform.
struct Random {
    std::uint64_t state;
    std::uint64_t next() {
        std::uint64_t z = (state += 0x9e3779b97f4a7c15ULL);
        z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
        z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
        return z ^ (z >> 31);
    }
};

struct Options {
    std::uint64_t seed = 1;
    int crash_at = -1, hang_at = -1, garbage_at = -1;
};

std::vector<int> candidate_plans(const State& s) {
    std::vector<int> plans{kStay};
    for (const int d : s.samurai() ? kSamuraiDirections : kDogDirections) {
        const Cell n = step(s.me(), d);
        if (!s.inside(n) || s.agent_at(n)) continue;
        if (!s.hole(n)) plans.push_back(d);
        if (!s.samurai()) continue;
        plans.push_back(s.hole(n) ? kPlug + d : kDig + d);
    }
    return plans;
}

}  // namespace

int main(int argc, char** argv) {
    Options o;
    for (int i = 1; i + 1 < argc; i += 2) {
        const long long v = std::stoll(argv[i + 1]);
        if (!std::strcmp(argv[i], "--seed")) o.seed = static_cast<std::uint64_t>(v);
        else if (!std::strcmp(argv[i], "--crash-at")) o.crash_at = static_cast<int>(v);
        else if (!std::strcmp(argv[i], "--hang-at")) o.hang_at = static_cast<int>(v);
        else if (!std::strcmp(argv[i], "--garbage-at")) o.garbage_at = static_cast<int>(v);
    }
    std::ios::sync_with_stdio(false);
    std::optional<Random> random;
    State s;
    while (read_state(std::cin, s)) {
        if (!random) random = Random{o.seed * 4 + static_cast<std::uint64_t>(s.id)};
        if (s.step == o.crash_at) return 3;
        if (s.step == o.hang_at) std::this_thread::sleep_for(std::chrono::hours(1));
        if (s.step == o.garbage_at) {
            std::cout << "dig over there" << std::endl;
            continue;
        }
        const std::vector<int> plans = candidate_plans(s);
        std::cout << plans[random->next() % plans.size()] << std::endl;
    }
    return 0;
}
