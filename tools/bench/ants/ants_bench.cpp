// Ants engine benchmark (tools/bench/ants/README.md):
//   engine   — replays each recorded game through our engine: food, spawn tie-breaks and the
//              bot-list shuffle from the recorded engine seed (level C; --recorded-food: the
//              recorded food and spawns instead), the recorded orders as order lines, crashes,
//              timeouts and invalid-order put-outs at their turns; every live bot's state text is
//              built each turn; no processes. Prints CPU µs per turn (median of --runs runs) and
//              the turn-0 set-up. Exits 1, naming the replay and the first difference, unless
//              every run ends in exactly the recorded game (tools/bench/ants/README.md).
//   maps     — for every .map argument: the turn-0 cost of a fresh game with the symmetric food
//              placer (symmetry search over all orientations, food sets, starting food).
#include <algorithm>
#include <charconv>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <string>
#include <vector>

#include <ctime>

#include "core/user_error.hpp"
#include "rules/ants/ants_replay.hpp"
#include "rules/ants/ants_verify.hpp"

namespace {

using Clock = std::chrono::steady_clock;

// CPU time of this process: the machine is shared, so wall time would count other jobs.
double cpu_seconds() {
    timespec ts{};
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return static_cast<double>(ts.tv_sec) + static_cast<double>(ts.tv_nsec) * 1e-9;
}

struct RunTimes {
    double setup_s = 0;       // CPU: engine set-up and turn 0 (food parameters, symmetry, food)
    double turns_cpu_s = 0;   // CPU: turns 1..end
    double turns_wall_s = 0;
    int turns = 0;
    std::size_t text_bytes = 0;
};

// One replay of the recording through the engine, timed. Every live bot's state text is built
// before each turn, as a referee sends it. The replay applies everything the recording says and
// checks the end state against it; `outcome` says whether it did.
RunTimes replay_once(const arb::ants::RecordedGame& game, bool seed_exact, arb::VerifyOutcome& outcome) {
    RunTimes t;
    double c0 = 0, c1 = 0;
    Clock::time_point w1;
    arb::ants::ReplayHooks hooks;
    hooks.compare_each_turn = false;
    hooks.setup_begins = [&] { c0 = cpu_seconds(); };
    hooks.started = [&](arb::ants::AntsEngine&) {
        c1 = cpu_seconds();
        w1 = Clock::now();
    };
    hooks.before_turn = [&](arb::ants::AntsEngine& engine) {
        for (int p = 0; p < engine.players(); ++p)
            if (engine.is_alive(p)) t.text_bytes += engine.player_state_text(p).size();
    };
    hooks.finished = [&](arb::ants::AntsEngine& engine) {
        t.turns_cpu_s = cpu_seconds() - c1;
        t.turns_wall_s = std::chrono::duration<double>(Clock::now() - w1).count();
        t.turns = engine.turn();
    };
    outcome = arb::ants::verify_recorded_game(game, seed_exact, hooks);
    t.setup_s = c1 - c0;
    return t;
}

double median(std::vector<double> v) {
    std::sort(v.begin(), v.end());
    return v.empty() ? 0 : v[v.size() / 2];
}

}  // namespace

// Replays every file; false (after a line naming the replay and the first difference) as soon
// as one does not give the recorded game, since its figures would time another game.
bool bench_replays(const std::vector<std::filesystem::path>& files, int runs, bool seed_exact, bool machine) {
    if (!machine)
        std::printf("%-52s %6s %11s %11s %9s\n", "replay", "turns", "turns/cpu-s", "cpu us/turn", "setup ms");
    for (const auto& f : files) {
        const auto game = arb::ants::load_recorded_game(f);
        // Once with the comparison after every turn, for the first difference if there is one.
        arb::VerifyOutcome outcome = arb::ants::verify_recorded_game(game, seed_exact);
        std::vector<double> per_turn, setup;
        int turns = 0;
        for (int r = 0; r < runs && outcome.ok; ++r) {
            const RunTimes t = replay_once(game, seed_exact, outcome);
            turns = t.turns;
            per_turn.push_back(t.turns_cpu_s / std::max(1, t.turns));
            setup.push_back(t.setup_s);
        }
        if (!outcome.ok) {
            std::fprintf(stderr, "ants_bench: %s does not replay as recorded: %s\n", f.string().c_str(),
                         outcome.first_difference.c_str());
            return false;
        }
        const double m = median(per_turn);
        if (machine)
            std::printf("replay=%s turns=%d turn_cpu_us=%.4f setup_cpu_ms=%.4f\n", f.filename().string().c_str(), turns,
                        m * 1e6, median(setup) * 1e3);
        else
            std::printf("%-52.52s %6d %11.0f %11.2f %9.3f\n", f.filename().string().c_str(), turns, 1.0 / m, m * 1e6,
                        median(setup) * 1e3);
    }
    return true;
}

// Turn-0 cost of a fresh game on each map with the symmetric food placer.
void bench_maps(const std::vector<std::filesystem::path>& maps, int runs) {
    if (!maps.empty()) std::printf("\n%-44s %6s %8s %14s\n", "map (symmetric food setup)", "sets", "food", "setup ms (cpu)");
    for (const auto& f : maps) {
        const auto map = arb::ants::load_map_file(f.string());
        arb::ants::AntsParams params;
        params.food_rate = 10;
        params.food_turn = 22;
        params.food_start = 78;
        params.food_visible = 4;
        std::vector<double> times;
        std::size_t sets = 0, food = 0;
        for (int r = 0; r < runs; ++r) {
            const double c0 = cpu_seconds();
            auto placer = std::make_unique<arb::ants::SymmetricFood>(42);
            auto* raw = placer.get();
            arb::ants::AntsEngine engine(map, params, std::move(placer), nullptr);
            engine.start_game();
            times.push_back(cpu_seconds() - c0);
            sets = raw->set_count();
            food = engine.food().size();
        }
        std::printf("%-44.44s %6zu %8zu %14.3f\n", f.filename().string().c_str(), sets, food, median(times) * 1e3);
    }
}

int usage() {
    std::fprintf(stderr,
                 "usage: ants_bench [--runs N] [--recorded-food] [--machine] REPLAY.json... [MAP.map...]\n");
    return 2;
}

int main(int argc, char** argv) {
    int runs = 11;
    bool seed_exact = true, machine = false;
    std::vector<std::filesystem::path> files;
    for (int i = 1; i < argc; ++i) {
        const std::string arg = argv[i];
        if (arg == "--runs" && i + 1 < argc) {
            const std::string n = argv[++i];
            const auto [end, ec] = std::from_chars(n.data(), n.data() + n.size(), runs);
            if (ec != std::errc() || end != n.data() + n.size() || runs < 1 || runs > 100000) {
                std::fprintf(stderr, "ants_bench: --runs must be an integer from 1 to 100000, not '%s'\n", n.c_str());
                return 2;
            }
        } else if (arg == "--recorded-food") {
            seed_exact = false;
        } else if (arg == "--machine") {
            machine = true;
        } else if (arg.starts_with("-")) {
            return usage();
        } else {
            files.emplace_back(arg);
        }
    }
    std::vector<std::filesystem::path> maps;
    std::erase_if(files, [&](const std::filesystem::path& f) {
        if (f.extension() != ".map") return false;
        maps.push_back(f);
        return true;
    });
    if (files.empty() && maps.empty()) return usage();
    try {
        if (!bench_replays(files, runs, seed_exact, machine)) return 1;
        bench_maps(maps, runs);
    } catch (const arb::UserError& e) {
        std::fprintf(stderr, "ants_bench: %s\n", e.what());
        return 2;
    }
    return 0;
}
