// Steps per second of the SamurAI engine alone, on the 63 official fields:
//   bench_samurai_engine [games-per-field=200] [runs=5]
// Each run plays games-per-field games with seeded random plans (the playout mix of the tests)
// on every field, then (a) the same games with the four state messages a referee sends per
// step, and (b) verify of the official logs. Prints the median over the runs.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <vector>

#include "core/rng.hpp"
#include "rules/samurai/samurai_protocol.hpp"
#include "rules/samurai/samurai_replay.hpp"
#include "rules/samurai/samurai_verify.hpp"

using namespace arb;
using namespace arb::samurai;

namespace {

std::int64_t random_plan(Rng& rng, int agent) {
    const std::uint64_t kind = rng.below(20);
    if (kind == 0) return rng.between(-3, 27);
    if (kind <= 2) return -1;
    return is_samurai(agent) ? 2 * rng.between(0, 11) : rng.between(0, 7);
}

struct RunResult {
    double steps_per_s = 0;
    double steps_with_messages_per_s = 0;
    double verify_steps_per_s = 0;
    long long steps = 0;
};

RunResult run_once(const std::vector<Field>& fields, const std::vector<GameLog>& logs, int games, std::uint64_t seed) {
    RunResult out;
    std::size_t sink = 0;
    for (int with_messages = 0; with_messages < 2; ++with_messages) {
        long long steps = 0;
        const auto start = std::chrono::steady_clock::now();
        for (std::size_t f = 0; f < fields.size(); ++f) {
            for (int g = 0; g < games; ++g) {
                Rng rng(derive_seed(seed, {f, static_cast<std::uint64_t>(g)}));
                const Field& field = fields[f];
                GameState state = initial_state(field);
                while (!game_over(field, state)) {
                    if (with_messages) {
                        for (int a = 0; a < kAgents; ++a) sink += state_message(field, state, a, 10000).size();
                    }
                    std::array<std::int64_t, kAgents> plans{};
                    for (int a = 0; a < kAgents; ++a) plans[a] = random_plan(rng, a);
                    sink += static_cast<std::size_t>(play_step(field, state, plans).scores[0]);
                    ++steps;
                }
            }
        }
        const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
        (with_messages ? out.steps_with_messages_per_s : out.steps_per_s) = static_cast<double>(steps) / s;
        out.steps = steps;
    }
    long long verified = 0;
    const auto start = std::chrono::steady_clock::now();
    for (int rep = 0; rep < 200; ++rep) {
        for (const auto& log : logs) verified += verify_game_log(log).steps;
    }
    out.verify_steps_per_s = static_cast<double>(verified) /
                             std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    if (sink == 42) std::puts("");  // keep the work observable
    return out;
}

double median(std::vector<double> v) {
    std::sort(v.begin(), v.end());
    return v[v.size() / 2];
}

}  // namespace

int main(int argc, char** argv) {
    const int games = argc > 1 ? std::atoi(argv[1]) : 200;
    const int runs = argc > 2 ? std::atoi(argv[2]) : 5;
    const std::filesystem::path data = std::filesystem::path(ARBITER_SHARED_DIR) / "data" / "samurai";
    std::vector<Field> fields;
    for (const auto& e : std::filesystem::directory_iterator(data / "fields")) fields.push_back(read_game_log(e.path()).field);
    std::vector<GameLog> logs;
    for (const auto& e : std::filesystem::directory_iterator(data / "logs")) logs.push_back(read_game_log(e.path()));

    std::vector<double> plain, messages, verify;
    long long steps = 0;
    for (int r = 0; r < runs; ++r) {
        const RunResult res = run_once(fields, logs, games, static_cast<std::uint64_t>(r) + 1);
        plain.push_back(res.steps_per_s);
        messages.push_back(res.steps_with_messages_per_s);
        verify.push_back(res.verify_steps_per_s);
        steps = res.steps;
        std::printf("run %d: %lld steps, %.0f steps/s, %.0f steps/s with 4 state messages, %.0f verify steps/s\n", r + 1,
                    res.steps, res.steps_per_s, res.steps_with_messages_per_s, res.verify_steps_per_s);
    }
    std::printf("median of %d runs (%zu fields x %d games, %lld steps per run):\n", runs, fields.size(), games, steps);
    std::printf("  engine step:                 %.0f steps/s\n", median(plain));
    std::printf("  step + 4 state messages:     %.0f steps/s\n", median(messages));
    std::printf("  verify of the official logs: %.0f steps/s\n", median(verify));
    return 0;
}
