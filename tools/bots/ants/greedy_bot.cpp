// Ants sample bot, greedy food gatherer: every ant walks down the distance field of the visible
// food (breadth-first over known land); ants with no food in reach explore at random, and ants
// standing on an own hill step off so new ants can spawn.
#include "ants_bot.hpp"

int main() {
    return ants_bot::run([](const ants_bot::State& s, ants_bot::Random& random) {
        ants_bot::MovePlanner plan(s);
        const auto to_food = ants_bot::distance_field(s, s.food, 40);
        for (const auto& ant : s.my_ants) {
            if (plan.descend(ant, to_food)) continue;
            plan.wander(ant, random);
        }
        return plan.orders;
    });
}
