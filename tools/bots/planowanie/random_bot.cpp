// A Planowanie bot that plays legal moves at random.
// Usage: planowanie_random_bot [SEED]   (default seed 2009)
#include <cstdlib>

#include "random_strategy.hpp"

int main(int argc, char** argv) {
    const std::uint64_t seed = argc > 1 ? std::strtoull(argv[1], nullptr, 10) : 2009;
    planowanie_bot::RandomStrategy strategy(seed);
    return planowanie_bot::run(strategy);
}
