// Ants sample bot, hunter: ants go for enemy hills first, then enemy ants, then food (each by
// breadth-first distance over known land), and explore at random when nothing is in reach.
#include "ants_bot.hpp"

int main() {
    return ants_bot::run([](const ants_bot::State& s, ants_bot::Random& random) {
        ants_bot::MovePlanner plan(s);
        const auto to_hills = ants_bot::distance_field(s, s.enemy_hills, 60);
        const auto to_enemies = ants_bot::distance_field(s, s.enemy_ants, 20);
        const auto to_food = ants_bot::distance_field(s, s.food, 30);
        for (const auto& ant : s.my_ants) {
            if (plan.descend(ant, to_hills) || plan.descend(ant, to_enemies) || plan.descend(ant, to_food)) continue;
            plan.wander(ant, random);
        }
        return plan.orders;
    });
}
