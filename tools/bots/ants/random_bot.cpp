// Ants sample bot: every ant steps in a random passable direction, never onto another own ant.
#include "ants_bot.hpp"

int main() {
    return ants_bot::run([](const ants_bot::State& s, ants_bot::Random& random) {
        ants_bot::MovePlanner plan(s);
        for (const auto& ant : s.my_ants) {
            plan.wander(ant, random);
        }
        return plan.orders;
    });
}
