// Ants test bot: never moves (answers "go" every turn). Used by the whole-game benchmark.
#include "ants_bot.hpp"

int main() {
    return ants_bot::run([](const ants_bot::State&, ants_bot::Random&) { return std::vector<ants_bot::Order>{}; });
}
