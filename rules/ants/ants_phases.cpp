// The Ants turn phases other than battle and the end-of-game bookkeeping: new ants, razing
// (ants.md 3.4), spawning (3.5), gathering (3.6), food (3.7), score and hive histories,
// incremental vision and player renumbering (3.8).
#include "rules/ants/ants_engine.hpp"

#include <algorithm>
#include <bit>
#include <climits>
#include <cstdint>
#include <utility>
#include <vector>

#include "rules/ants/ants_engine_internal.hpp"

namespace arb::ants {
using engine_detail::kHillPoints;
using engine_detail::kRazePoints;

void AntsEngine::add_ant(int hill_index) {
    Hill& hill = hills_[hill_index];
    place_ant(hill.cell, hill.owner);
    hill.last_touched = turn_;
}

// A new ant on square c (all per-ant arrays grow together). Scenario ants come straight from
// here, without touching any hill; spawned ants through add_ant.
void AntsEngine::place_ant(int c, int owner) {
    Ant ant;
    ant.initial_cell = ant.cell = ant.prev_cell = c;
    ant.owner = owner;
    ant.spawn_turn = turn_;
    const int index = static_cast<int>(ants_.size());
    ant_owner_.push_back(static_cast<std::int8_t>(ant.owner));
    ant_cell_.push_back(ant.cell);
    ants_.push_back(std::move(ant));
    order_dir_.push_back(0);
    ant_at_[c] = index;
    live_.push_back(index);
    ++ant_count_[owner];
}

// ants.md 3.4
void AntsEngine::do_raze_hills() {
    for (auto& hill : hills_) {
        const int a = ant_at_[hill.cell];
        if (a < 0) continue;
        const int owner = ants_[a].owner;
        if (owner == hill.owner) {
            hill.last_touched = turn_;
        } else if (hill.standing()) {
            hill.end_turn = turn_;
            hill.killed_by = owner;
            score_[owner] += kHillPoints;
            if (!hill.raze_points) {
                hill.raze_points = true;
                score_[hill.owner] += kRazePoints;
            }
            cutoff_turns_ = 0;
        }
    }
}

// ants.md 3.5: least recently touched hill first, ties by the spawn key; crashed players too.
void AntsEngine::do_spawn() {
    std::vector<std::pair<std::pair<int, double>, int>> order;
    for (int p = 0; p < players_; ++p) {
        order.clear();
        for (int h = 0; h < static_cast<int>(hills_.size()); ++h) {
            const Hill& hill = hills_[h];
            if (hill.owner != p || !hill.standing()) continue;
            order.push_back({{hill.last_touched, spawn_key_ ? spawn_key_(*this, h) : 0.0}, h});
        }
        std::stable_sort(order.begin(), order.end(),
                         [](const auto& x, const auto& y) { return x.first < y.first; });
        for (const auto& [key, h] : order) {
            if (hive_[p] > 0 && ant_at_[hills_[h].cell] < 0) {
                --hive_[p];
                add_ant(h);
            }
        }
    }
}

// ants.md 3.6. Each food square looks for ants within spawnradius2; walking the ants' discs
// instead finds the same (food, owner) pairs, and ants are usually fewer than food.
void AntsEngine::do_gather() {
    if (gather_owners_.size() < food_.size()) gather_owners_.resize(food_.size(), 0);
    gathered_.clear();
    for (int a : live_) {
        const unsigned bit = 1u << ant_owner_[a];
        for_offsets(ant_cell_[a], spawn_offsets_, [&](int v) {
            const int f = food_at_[v];
            if (f < 0) return;
            if (gather_owners_[f] == 0) gathered_.push_back(f);
            gather_owners_[f] |= bit;
        });
    }
    if (gathered_.empty()) return;
    for (int f : gathered_) {
        Food& food = food_[f];
        const unsigned owners = gather_owners_[f];
        gather_owners_[f] = 0;
        food.end_turn = turn_;
        food_at_[food.cell] = -1;
        if (std::popcount(owners) == 1) {
            food.owner = std::countr_zero(owners);
            ++hive_[food.owner];
        }
    }
    std::erase_if(live_food_, [&](int f) { return food_[f].end_turn >= 0; });
    std::erase_if(food_cells_, [&](int c) { return food_at_[c] < 0; });
}

// ants.md 3.7: the accumulator gains food_rate * players / food_turn per turn.
void AntsEngine::do_food() {
    food_extra_num_ += static_cast<std::int64_t>(params_.food_rate) * players_;
    const int food_now = static_cast<int>(food_extra_num_ / params_.food_turn);
    const int left_over = food_source_ ? food_source_->place(*this, food_now) : food_now;
    food_extra_num_ -= static_cast<std::int64_t>(food_now - left_over) * params_.food_turn;
}

bool AntsEngine::is_free_land(int c) const { return !water_[c] && ant_at_[c] < 0 && food_at_[c] < 0; }

bool AntsEngine::add_food(int c) {
    if (!is_free_land(c)) return false;
    Food food;
    food.cell = c;
    food.start_turn = turn_;
    food_at_[c] = static_cast<int>(food_.size());
    live_food_.push_back(food_at_[c]);
    food_cells_.insert(std::lower_bound(food_cells_.begin(), food_cells_.end(), c), c);
    food_.push_back(food);
    state_dirty_ = true;
    return true;
}

void AntsEngine::add_pending_food(int c) {
    if (pending_count_[c]++ == 0) pending_order_.push_back(c);
}

// A Python dict walked in insertion order: a location leaves the queue when its count hits 0.
void AntsEngine::place_pending_food() {
    std::size_t kept = 0;
    for (std::size_t i = 0; i < pending_order_.size(); ++i) {
        const int c = pending_order_[i];
        if (is_free_land(c)) {
            add_food(c);
            if (--pending_count_[c] == 0) continue;
        }
        pending_order_[kept++] = c;
    }
    pending_order_.resize(kept);
}

// ants.md 3.8: live players append; dead players' histories only grow when the value changes.
void AntsEngine::record_histories() {
    auto record = [&](std::vector<int>& history, int value, bool alive) {
        if (alive) {
            history.push_back(value);
        } else if (value != history.back()) {
            const int last = history.back();
            while (static_cast<int>(history.size()) < turn_) history.push_back(last);
            history.push_back(value);
        }
    };
    for (int p = 0; p < players_; ++p) {
        const bool alive = is_alive(p);
        record(score_history_[p], score_[p], alive);
        record(hive_history_[p], hive_[p], alive);
    }
}

void AntsEngine::stamp_offsets(int player, int c, const std::vector<Offset>& offsets, int delta) {
    auto& vision = vision_[player];
    if (delta < 0) {
        for_offsets(c, offsets, [&](int v) { --vision[v]; });
        return;
    }
    // Only water is reported once when first seen, so only water needs a "seen" mark.
    auto& unseen_water = unseen_water_[player];
    for_offsets(c, offsets, [&](int v) {
        ++vision[v];
        if (unseen_water[v]) {
            unseen_water[v] = 0;
            revealed_water_[player].push_back(v);
        }
    });
}

void AntsEngine::stamp_vision(int player, int c, int delta) { stamp_offsets(player, c, view_offsets_, delta); }

namespace {
int direction_index(char d) { return d == 'n' ? 0 : d == 'e' ? 1 : d == 's' ? 2 : 3; }
}  // namespace

// Incremental vision (as the original's update_vision), equivalent to the union of discs
// around live ants: a moved ant only takes away the trailing edge of its disc and adds the
// leading edge. The order of these updates does not matter: a removal only undoes a count an
// ant made before, so a square counted 0 -> 1 here is visible at the end of the pass.
void AntsEngine::update_vision() {
    for (int a : killed_ants_) stamp_vision(ant_owner_[a], ants_[a].prev_cell, -1);
    // order_dir_ still holds the move each live ant made this turn (0: none); an ant spawned
    // this turn (or placed at the start) has no previous disc.
    for (int a : live_) {
        if (a >= first_new_ant_) {
            stamp_vision(ant_owner_[a], ant_cell_[a], +1);
        } else if (order_dir_[a] != 0) {
            const int d = direction_index(order_dir_[a]);
            stamp_offsets(ant_owner_[a], ant_cell_[a], view_leave_[d], -1);
            stamp_offsets(ant_owner_[a], ant_cell_[a], view_enter_[d], +1);
        }
    }
    for (auto& w : revealed_water_) std::sort(w.begin(), w.end());
}

// ants.md section 2, "Player renumbering": owners of visible ants get the next number in the
// row-major order of their first visible square.
void AntsEngine::update_revealed_owners() {
    std::vector<int> first_seen(players_);
    for (int p = 0; p < players_; ++p) {
        auto& sw = switch_[p];
        if (std::find(sw.begin(), sw.end(), -1) == sw.end()) continue;
        std::fill(first_seen.begin(), first_seen.end(), INT_MAX);
        for (int a : live_) {
            const int owner = ant_owner_[a], c = ant_cell_[a];
            if (sw[owner] < 0 && vision_[p][c] > 0) first_seen[owner] = std::min(first_seen[owner], c);
        }
        std::vector<int> owners;
        for (int o = 0; o < players_; ++o)
            if (first_seen[o] != INT_MAX) owners.push_back(o);
        std::sort(owners.begin(), owners.end(), [&](int x, int y) { return first_seen[x] < first_seen[y]; });
        int next = static_cast<int>(std::count_if(sw.begin(), sw.end(), [](int v) { return v >= 0; }));
        for (int o : owners) sw[o] = next++;
    }
}

}  // namespace arb::ants
