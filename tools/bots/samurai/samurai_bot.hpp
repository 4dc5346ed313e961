#pragma once
// Shared by the SamurAI Dig Here sample players: the 13-line game state of rules.html
// ("Game State Information"), the stdin/stdout loop, and grid helpers. Standard library only,
// so a contestant can copy a player out of the tree.
#include <array>
#include <cstdlib>
#include <deque>
#include <functional>
#include <iostream>
#include <optional>
#include <vector>

namespace samurai_bot {

struct Cell {
    int x = 0, y = 0;
    bool operator==(const Cell&) const = default;
};
struct Gold {
    Cell cell;
    int amount = 0;
};

// (dx, dy) of directions 0..7: 0 = +y, then clockwise (rules.html "Designated Cells").
inline constexpr std::array<std::array<int, 2>, 8> kOffsets = {
    {{0, 1}, {-1, 1}, {-1, 0}, {-1, -1}, {0, -1}, {1, -1}, {1, 0}, {1, 1}}};
inline constexpr int kStay = -1, kDig = 8, kPlug = 16;

inline Cell step(Cell c, int d) { return {c.x + kOffsets[d][0], c.y + kOffsets[d][1]}; }

struct State {
    int id = 0;  // 0/1 samurai, 2/3 dogs; team = id % 2
    int size = 0, step = 0, max_steps = 0;
    std::vector<Cell> holes;
    std::vector<Gold> known, sensed;
    std::array<Cell, 4> agents{};
    std::array<int, 4> plans{}, actions{};
    std::array<int, 2> scores{};
    int remaining = 0;
    long long time_left_ms = 0;

    bool samurai() const { return id < 2; }
    Cell me() const { return agents[id]; }
    bool inside(Cell c) const { return c.x >= 0 && c.y >= 0 && c.x < size && c.y < size; }
    bool hole(Cell c) const {
        for (const auto& h : holes) if (h == c) return true;
        return false;
    }
    bool agent_at(Cell c) const {
        for (const auto& a : agents) if (a == c) return true;
        return false;
    }
    // A cell an agent may step into this step.
    bool open(Cell c) const { return inside(c) && !hole(c) && !agent_at(c); }
};

// Reads one state; false at end of input.
inline bool read_state(std::istream& in, State& s) {
    int n = 0;
    if (!(in >> s.id >> s.size >> s.step >> s.max_steps >> n)) return false;
    s.holes.assign(n, {});
    for (auto& h : s.holes) in >> h.x >> h.y;
    in >> n;
    s.known.assign(n, {});
    for (auto& g : s.known) in >> g.cell.x >> g.cell.y >> g.amount;
    in >> n;
    s.sensed.assign(n, {});
    for (auto& g : s.sensed) in >> g.cell.x >> g.cell.y >> g.amount;
    for (auto& a : s.agents) in >> a.x >> a.y;
    for (auto& p : s.plans) in >> p;
    for (auto& a : s.actions) in >> a;
    in >> s.scores[0] >> s.scores[1] >> s.remaining >> s.time_left_ms;
    return static_cast<bool>(in);
}

// The player loop: one plan per state, one line each, flushed.
inline int run(const std::function<int(const State&)>& decide) {
    std::ios::sync_with_stdio(false);
    State s;
    while (read_state(std::cin, s)) std::cout << decide(s) << std::endl;
    return 0;
}

// Breadth-first distances over open cells from `from` with the given directions; first[c] is
// the direction of the first step on a shortest path to c (-1 for `from`, unreachable = -2).
struct Paths {
    std::vector<int> distance, first;
    int size = 0;
    int at(Cell c) const { return distance[c.y * size + c.x]; }
    int first_step(Cell c) const { return first[c.y * size + c.x]; }
};

inline Paths shortest_paths(const State& s, Cell from, const std::vector<int>& directions) {
    Paths p{std::vector<int>(s.size * s.size, -1), std::vector<int>(s.size * s.size, -2), s.size};
    std::deque<Cell> queue{from};
    p.distance[from.y * s.size + from.x] = 0;
    p.first[from.y * s.size + from.x] = -1;
    while (!queue.empty()) {
        const Cell c = queue.front();
        queue.pop_front();
        for (const int d : directions) {
            const Cell n = step(c, d);
            if (!s.open(n) || p.at(n) >= 0) continue;
            p.distance[n.y * s.size + n.x] = p.at(c) + 1;
            p.first[n.y * s.size + n.x] = c == from ? d : p.first_step(c);
            queue.push_back(n);
        }
    }
    return p;
}

inline const std::vector<int> kSamuraiDirections{0, 2, 4, 6};
inline const std::vector<int> kDogDirections{0, 1, 2, 3, 4, 5, 6, 7};

}  // namespace samurai_bot
