// A Planowanie bot with simple declaring and playing rules (see heuristic_strategy.hpp).
#include "heuristic_strategy.hpp"

int main() {
    planowanie_bot::HeuristicStrategy strategy;
    return planowanie_bot::run(strategy);
}
