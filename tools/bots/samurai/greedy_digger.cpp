// SamurAI Dig Here sample player "greedy digger".
// Samurai: walks the shortest path to the nearest known gold it can reach and digs it; with no
// known gold it follows its own dog, which is where gold gets found.
// Dog: steps onto sensed hidden gold (the bark makes it known) nearest its samurai; otherwise it
// sweeps the field, preferring cells it has visited least. Deterministic: no randomness.
#include <map>

#include "samurai_bot.hpp"

using namespace samurai_bot;

namespace {

int samurai_plan(const State& s) {
    const Paths paths = shortest_paths(s, s.me(), kSamuraiDirections);
    int best_cost = 1 << 30, best_plan = kStay;
    for (const auto& g : s.known) {
        if (s.agent_at(g.cell)) continue;  // a dog sitting on gold blocks the dig
        // Dig from a neighbour of the gold: cost = steps to that neighbour.
        for (const int d : kSamuraiDirections) {
            const Cell stand = step(g.cell, d);
            const int toward_gold = (d + 4) % 8;
            int cost = -1, plan = kStay;
            if (stand == s.me()) {
                cost = 0;
                plan = kDig + toward_gold;
            } else if (s.inside(stand) && paths.at(stand) > 0) {
                cost = paths.at(stand);
                plan = paths.first_step(stand);
            }
            // Prefer near gold, then big gold.
            if (cost >= 0 && cost * 64 - g.amount < best_cost) best_cost = cost * 64 - g.amount, best_plan = plan;
        }
    }
    if (best_plan != kStay) return best_plan;
    const Cell dog = s.agents[s.id + 2];
    int best_distance = 1 << 30;
    for (const int d : kSamuraiDirections) {
        const Cell n = step(s.me(), d);
        if (!s.open(n)) continue;
        const int distance = std::abs(n.x - dog.x) + std::abs(n.y - dog.y);
        if (distance >= 2 && distance < best_distance) best_distance = distance, best_plan = d;
    }
    return best_plan;
}

std::map<std::pair<int, int>, int> visits;  // the dog's memory across steps

int dog_plan(const State& s) {
    const Cell samurai = s.agents[s.id - 2];
    int best = kStay, best_distance = 1 << 30;
    for (const auto& g : s.sensed) {
        for (int d = 0; d < 8; ++d) {
            if (!(step(s.me(), d) == g.cell) || !s.open(g.cell)) continue;
            const int distance = std::abs(g.cell.x - samurai.x) + std::abs(g.cell.y - samurai.y);
            if (distance < best_distance) best_distance = distance, best = d;
        }
    }
    if (best != kStay) return best;
    ++visits[{s.me().x, s.me().y}];
    int fewest = 1 << 30;
    for (int i = 0; i < 8; ++i) {
        const int d = (i + s.step) % 8;  // rotate the tie-break so the dog does not oscillate
        const Cell n = step(s.me(), d);
        if (!s.open(n)) continue;
        const int seen = visits[{n.x, n.y}];
        if (seen < fewest) fewest = seen, best = d;
    }
    return best;
}

}  // namespace

int main() {
    return run([](const State& s) { return s.samurai() ? samurai_plan(s) : dog_plan(s); });
}
