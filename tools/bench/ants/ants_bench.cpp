// Ants engine benchmark (tools/bench/ants/README.md):
//   engine   — replays the recorded orders and food of each replay through our engine, building
//              every live bot's state text each turn (what the original's resim --render measures),
//              no processes; prints turns/s (median of --runs runs) and the turn-0 setup time.
//   maps     — for every .map argument: the turn-0 cost of a fresh game with the symmetric food
//              placer (symmetry search over all orientations, food sets, starting food).
#include <algorithm>
#include <charconv>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <span>
#include <string>
#include <vector>

#include <ctime>

#include "rules/ants/ants_replay.hpp"

namespace {

using Clock = std::chrono::steady_clock;

// CPU time of this process: the machine is shared, so wall time would count other jobs.
double cpu_seconds() {
    timespec ts{};
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return static_cast<double>(ts.tv_sec) + static_cast<double>(ts.tv_nsec) * 1e-9;
}

struct RunTimes {
    double setup_s = 0;
    double turns_s = 0;
    double turns_cpu_s = 0;
    int turns = 0;
    std::size_t text_bytes = 0;
    std::size_t rejected = 0;   // recorded orders our engine refused (must be 0)
    std::vector<int> scores;    // final scores (must equal the recorded ones)
};


// The recorded orders of one turn: which ant moves where, by the replay's ant numbering.
struct RecordedOrder { int ant; int owner; char dir; };

std::vector<std::vector<RecordedOrder>> orders_by_turn(const arb::ants::RecordedGame& game, int last_turn) {
    std::vector<std::vector<RecordedOrder>> out(static_cast<std::size_t>(last_turn) + 1);
    int index = 0;
    for (const auto& a : game.replaydata.at("ants")) {
        const int start = a.at(2).get<int>(), owner = a.at(4).get<int>();
        const auto orders = a.at(5).get<std::string>();
        for (std::size_t k = 0; k < orders.size(); ++k) {
            const int turn = start + 1 + static_cast<int>(k);
            if (orders[k] != '-' && turn <= last_turn) out[turn].push_back({index, owner, orders[k]});
        }
        ++index;
    }
    return out;
}

RunTimes replay_once(const arb::ants::RecordedGame& game) {
    RunTimes t;
    const int last_turn = game.meta.value("game_length", game.params.turns);
    const auto recorded = orders_by_turn(game, last_turn);

    const auto t0 = Clock::now();
    arb::ants::AntsEngine engine(game.map, game.params, arb::ants::recorded_food(game),
                                 arb::ants::recorded_spawn_key(game));
    engine.start_game();
    const auto t1 = Clock::now();
    const double c1 = cpu_seconds();
    // Each bot's order lines, as a table hands them over: one string per line. The strings
    // are reused from turn to turn, as a bot's reply buffer would be.
    std::vector<std::vector<std::string>> lines(game.players);
    std::vector<std::size_t> line_count(game.players);
    arb::ants::OrderVerdicts verdicts;
    for (int turn = 1; turn <= last_turn; ++turn) {
        for (int p = 0; p < game.players; ++p)
            if (engine.is_alive(p)) t.text_bytes += engine.player_state_text(p).size();
        engine.start_turn();
        std::fill(line_count.begin(), line_count.end(), 0);
        for (const RecordedOrder& order : recorded[turn]) {
            const int cell = engine.ants()[order.ant].cell;
            auto& player_lines = lines[order.owner];
            if (line_count[order.owner] == player_lines.size()) player_lines.emplace_back();
            // "o ROW COL D": each number has 12 bytes of room, so the separators always fit.
            char buf[32] = {'o', ' '};
            char* q = std::to_chars(buf + 2, buf + 14, engine.row_of(cell)).ptr;
            *q++ = ' ';
            q = std::to_chars(q, q + 12, engine.col_of(cell)).ptr;
            *q++ = ' ';
            *q++ = order.dir;
            player_lines[line_count[order.owner]++].assign(buf, q);
        }
        for (int p = 0; p < game.players; ++p)
            if (engine.is_alive(p)) {
                engine.do_moves(p, std::span<const std::string>(lines[p].data(), line_count[p]), verdicts);
                t.rejected += verdicts.invalid.size() + verdicts.ignored.size();
            }
        engine.finish_turn();
        ++t.turns;
        if (engine.game_over()) break;
    }
    engine.finish_game();
    const auto t2 = Clock::now();
    t.turns_cpu_s = cpu_seconds() - c1;
    t.setup_s = std::chrono::duration<double>(t1 - t0).count();
    t.turns_s = std::chrono::duration<double>(t2 - t1).count();
    t.scores = engine.scores();
    return t;
}

double median(std::vector<double> v) {
    std::sort(v.begin(), v.end());
    return v.empty() ? 0 : v[v.size() / 2];
}

}  // namespace

int main(int argc, char** argv) {
    int runs = 11;
    std::vector<std::filesystem::path> files;
    for (int i = 1; i < argc; ++i) {
        const std::string arg = argv[i];
        if (arg == "--runs" && i + 1 < argc) runs = std::max(1, std::stoi(argv[++i]));
        else files.emplace_back(arg);
    }
    std::vector<std::filesystem::path> maps;
    std::erase_if(files, [&](const std::filesystem::path& f) {
        if (f.extension() != ".map") return false;
        maps.push_back(f);
        return true;
    });
    if (files.empty() && maps.empty()) {
        std::fprintf(stderr, "usage: ants_bench [--runs N] REPLAY.json...\n");
        return 2;
    }
    std::printf("%-44s %6s %10s %10s %10s %9s\n", "replay", "turns", "turns/cpu-s", "turns/s", "cpu us/turn",
                "setup ms");
    for (const auto& f : files) {
        const auto game = arb::ants::load_recorded_game(f);
        std::vector<double> per_turn, per_turn_cpu, setup;
        int turns = 0;
        for (int r = 0; r < runs; ++r) {
            const RunTimes t = replay_once(game);
            // A benchmark of a game that went differently would measure the wrong thing.
            const auto recorded_scores = game.meta.value("score", std::vector<int>{});
            if (t.rejected != 0 || (!recorded_scores.empty() && t.scores != recorded_scores)) {
                std::fprintf(stderr, "ants_bench: %s did not replay as recorded (%zu orders refused)\n",
                             f.string().c_str(), t.rejected);
                return 1;
            }
            turns = t.turns;
            per_turn.push_back(t.turns_s / std::max(1, t.turns));
            per_turn_cpu.push_back(t.turns_cpu_s / std::max(1, t.turns));
            setup.push_back(t.setup_s);
        }
        const double m = median(per_turn), mc = median(per_turn_cpu);
        std::printf("%-44.44s %6d %10.0f %10.0f %10.2f %9.3f\n", f.filename().string().c_str(), turns, 1.0 / mc,
                    1.0 / m, mc * 1e6, median(setup) * 1e3);
    }
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
    return 0;
}
