// smart-dog engine turns per second, alone (no bots, no wire): 4 players on a map, every dog
// moving in a random direction and barking one turn in four, every player's snapshot built each
// turn as the server does. Run by hand; see docs/benchmarks/smartdog.md.
//   bench_smartdog_engine TURNS RUNS MAP...
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "core/rng.hpp"
#include "rules/smartdog/smartdog_engine.hpp"
#include "rules/smartdog/smartdog_map.hpp"

using namespace arb::smartdog;

int main(int argc, char** argv) {
    if (argc < 4) {
        std::fprintf(stderr, "usage: bench_smartdog_engine TURNS RUNS MAP...\n");
        return 2;
    }
    const int turns = std::atoi(argv[1]);
    const int runs = std::atoi(argv[2]);
    static const char* dirs[] = {"up", "down", "left", "right"};
    for (int m = 3; m < argc; ++m) {
        Tile tile = read_tile(argv[m]);
        tile.params.turns_limit = 1 << 30;
        std::vector<double> rates;
        std::size_t objects = 0;
        for (int r = 0; r < runs; ++r) {
            Engine e(tile, 4);
            arb::Rng rng(static_cast<std::uint64_t>(r + 1));
            const auto start = std::chrono::steady_clock::now();
            for (int t = 0; t < turns; ++t) {
                e.begin_turn();
                for (int p = 1; p <= 4; ++p) objects += e.snapshot(p).size();
                for (std::size_t d = 0; d < e.dogs().size(); ++d) {
                    const Dog dog = e.dogs()[d];
                    const std::string id = std::to_string(dog.id);
                    e.move(dog.owner, id, dirs[rng.below(4)]);
                    if (rng.below(4) == 0) e.bark(dog.owner, id);
                }
                e.end_turn();
            }
            const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
            rates.push_back(turns / s);
        }
        std::sort(rates.begin(), rates.end());
        const Engine shape(tile, 4);
        std::printf("%-24s board %dx%d, %zu dogs, %zu sheep: %.0f turns/s (median of %d runs of %d turns; %zu objects seen)\n",
                    std::string(argv[m]).substr(std::string(argv[m]).rfind('/') + 1).c_str(), shape.width(), shape.height(),
                    shape.dogs().size(), shape.sheep().size(), rates[rates.size() / 2], runs, turns, objects);
    }
    return 0;
}
