// Ants sample bot: every ant steps in a random passable direction, never onto another own ant.
#include "ants_bot.hpp"

int main() {
    return ants_bot::run([](const ants_bot::State& s, ants_bot::Random& random) {
        ants_bot::MovePlanner plan(s);
        for (const auto& ant : s.my_ants) {
            const int first = random.below(4);
            for (int i = 0; i < 4; ++i) {
                const char d = ants_bot::kDirs[(first + i) % 4];
                if (plan.can_move(ant, d)) {
                    plan.move(ant, d);
                    break;
                }
            }
        }
        return plan.orders;
    });
}
