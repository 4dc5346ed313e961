// A smart-dog bot that moves every dog in a random direction and sometimes barks: the baseline
// the sample herder must beat. Seeded from its player id, so it plays the same way every time.
#include <random>

#include "smartdog_bot.hpp"

int main() {
    std::mt19937 rng(12345);
    bool seeded = false;
    return smartdog_bot::run([&](const smartdog_bot::Game& g) {
        if (!seeded) {
            rng.seed(static_cast<unsigned>(1000 + g.you));
            seeded = true;
        }
        static const char* dirs[] = {"up", "down", "left", "right"};
        std::vector<std::string> out;
        for (const auto& o : g.objs) {
            if (o.type != "Dog" || o.owner != g.you) continue;
            out.push_back("do " + std::to_string(o.id) + " move " + dirs[rng() % 4]);
            if (rng() % 4 == 0) out.push_back("do " + std::to_string(o.id) + " bark");
        }
        return out;
    });
}
