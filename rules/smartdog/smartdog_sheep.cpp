// The after-turn: sheep movement with nudging, fear spreading, dogs' fear counters
// (smartdog.md 4 step 4, 5.3, 6.3-6.5). Every loop runs in creation order.
#include <algorithm>
#include <array>

#include "rules/smartdog/smartdog_engine.hpp"

namespace arb::smartdog {
namespace {

int step_x(Dir d) { return d == Dir::left ? -1 : d == Dir::right ? 1 : 0; }
int step_y(Dir d) { return d == Dir::up ? -1 : d == Dir::down ? 1 : 0; }

// A calm sheep that cannot go on tries to turn left, then right, then back, relative to its
// heading (smartdog.md 6.3).
std::array<Dir, 4> walk_order(Dir d) {
    switch (d) {
        case Dir::down: return {Dir::down, Dir::right, Dir::left, Dir::up};
        case Dir::up: return {Dir::up, Dir::left, Dir::right, Dir::down};
        case Dir::left: return {Dir::left, Dir::down, Dir::up, Dir::right};
        case Dir::right: return {Dir::right, Dir::up, Dir::down, Dir::left};
    }
    return {d, d, d, d};
}

}  // namespace

void Engine::place(int s, int x, int y) {
    Sheep& sheep = sheep_[static_cast<std::size_t>(s)];
    occupant_[static_cast<std::size_t>(cell(sheep.x, sheep.y))] = kEmpty;
    sheep.x = wrap_x(x);
    sheep.y = wrap_y(y);
    occupant_[static_cast<std::size_t>(cell(sheep.x, sheep.y))] = sheep_code(s);
}

// One step; a sheep in the way is first asked to move (once), which is how a flock moves as a
// block whatever the processing order.
bool Engine::try_step(int s, Dir d, bool may_push) {
    const Sheep& sheep = sheep_[static_cast<std::size_t>(s)];
    const int tx = sheep.x + step_x(d), ty = sheep.y + step_y(d);
    const int c = cell(tx, ty);
    const int who = occupant_[static_cast<std::size_t>(c)];
    if (walkable_free(c)) {
        place(s, tx, ty);
        return true;
    }
    if (who < kEmpty && may_push) {
        nudge(-2 - who);
        return try_step(s, d, false);
    }
    return false;
}

void Engine::nudge(int s) {
    Sheep& sheep = sheep_[static_cast<std::size_t>(s)];
    if (sheep.nudged) return;  // already being nudged further up: breaks cycles
    sheep.nudged = true;
    fear_check(s);
    move_sheep(s, true);
    sheep_[static_cast<std::size_t>(s)].nudged = false;
}

void Engine::move_sheep(int s, bool preliminary) {
    Sheep& sheep = sheep_[static_cast<std::size_t>(s)];
    if (sheep.moved) return;
    sheep.moved = !preliminary;  // a normal move is used up even when it fails
    if (sheep.scared) {
        if (try_step(s, sheep.dir, true)) sheep_[static_cast<std::size_t>(s)].moved = true;
        return;
    }
    if (!sheep_due(sheep)) return;
    for (Dir d : walk_order(sheep.dir)) {
        if (try_step(s, d, true)) {
            Sheep& moved = sheep_[static_cast<std::size_t>(s)];
            moved.dir = d;
            moved.moved = true;
            return;
        }
    }
}

// Catch fear from the first scared neighbour, scanning column by column (smartdog.md 6.5).
void Engine::fear_check(int s) {
    const Sheep& sheep = sheep_[static_cast<std::size_t>(s)];
    int source = -1;
    for (int dx = -1; dx <= 1 && source < 0; ++dx) {
        for (int dy = -1; dy <= 1; ++dy) {
            const int who = occupant_[static_cast<std::size_t>(cell(sheep.x + dx, sheep.y + dy))];
            if (who >= kEmpty || -2 - who == s) continue;
            if (sheep_[static_cast<std::size_t>(-2 - who)].scared) {
                source = -2 - who;
                break;
            }
        }
    }
    if (source < 0 || sheep.scared) return;  // only a dog can re-scare a scared sheep
    const Sheep& from = sheep_[static_cast<std::size_t>(source)];
    if (std::find(from.chain.begin(), from.chain.end(), s) != from.chain.end() || source == s) return;
    std::vector<int> chain = from.chain;
    chain.push_back(source);
    Sheep& target = sheep_[static_cast<std::size_t>(s)];
    target.scared = true;
    target.chain = std::move(chain);
    target.fear = params_.sheep_scary_turns;
    target.dir = from.dir;
}

bool Engine::end_turn() {
    const auto count = static_cast<int>(sheep_.size());
    for (int s = 0; s < count; ++s) {
        if (sheep_[static_cast<std::size_t>(s)].scared) move_sheep(s, false);
    }
    for (int s = 0; s < count; ++s) move_sheep(s, false);
    for (int s = 0; s < count; ++s) fear_check(s);
    if (turn_ >= params_.turns_limit - 1) over_ = true;
    for (auto& d : dogs_) {
        if (d.scared > 0) --d.scared;
        if (d.ally_barked) d.scared = 0;
        d.barking = d.just_barked;
        d.just_barked = false;
        d.ally_barked = false;
        if (d.just_became_scared) {
            d.scared = params_.dog_scary_turns;  // an enemy bark beats an ally bark
            d.just_became_scared = false;
        }
    }
    return over_;
}

}  // namespace arb::smartdog
