#pragma once
// A minimal Ants bot kit (protocol of the AI Challenge 2011, as the original starter kits speak
// it): reads the turn-0 parameters, keeps the water it has been shown, collects each turn's
// visible ants, food and hills, and asks a strategy for orders. Standard library only.
#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <iostream>
#include <sstream>
#include <string>
#include <vector>

namespace ants_bot {

struct Loc {
    int row = 0, col = 0;
    friend bool operator==(const Loc&, const Loc&) = default;
};

struct Order {
    Loc from;
    char dir;
};

// Small deterministic generator (splitmix64) seeded from player_seed.
class Random {
public:
    explicit Random(std::uint64_t seed = 1) : state_(seed) {}
    std::uint64_t next() {
        std::uint64_t z = (state_ += 0x9e3779b97f4a7c15ULL);
        z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
        z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
        return z ^ (z >> 31);
    }
    int below(int n) { return static_cast<int>(next() % static_cast<std::uint64_t>(n)); }

private:
    std::uint64_t state_;
};

inline constexpr char kDirs[4] = {'n', 'e', 's', 'w'};

struct State {
    int rows = 0, cols = 0, turn = 0, turns = 0;
    int viewradius2 = 77, attackradius2 = 5, spawnradius2 = 1;
    std::int64_t player_seed = 0;
    std::vector<char> water;  // rows*cols, persistent (water is sent once)
    std::vector<Loc> my_ants, enemy_ants, food, my_hills, enemy_hills;

    int index(Loc l) const { return l.row * cols + l.col; }
    Loc step(Loc l, char d) const {
        switch (d) {
            case 'n': l.row = (l.row + rows - 1) % rows; break;
            case 's': l.row = (l.row + 1) % rows; break;
            case 'w': l.col = (l.col + cols - 1) % cols; break;
            default: l.col = (l.col + 1) % cols; break;
        }
        return l;
    }
    bool passable(Loc l) const { return !water[static_cast<std::size_t>(index(l))]; }
    // Squared distance on the torus.
    int distance2(Loc a, Loc b) const {
        int dr = std::abs(a.row - b.row), dc = std::abs(a.col - b.col);
        dr = std::min(dr, rows - dr);
        dc = std::min(dc, cols - dc);
        return dr * dr + dc * dc;
    }
};

// Breadth-first distances over non-water squares from every source (-1 = unreachable).
inline std::vector<int> distance_field(const State& s, const std::vector<Loc>& sources, int limit) {
    std::vector<int> dist(static_cast<std::size_t>(s.rows) * s.cols, -1);
    std::vector<Loc> frontier;
    for (const Loc& l : sources) {
        if (dist[static_cast<std::size_t>(s.index(l))] < 0) {
            dist[static_cast<std::size_t>(s.index(l))] = 0;
            frontier.push_back(l);
        }
    }
    for (std::size_t head = 0; head < frontier.size(); ++head) {
        const Loc l = frontier[head];
        const int d = dist[static_cast<std::size_t>(s.index(l))];
        if (d >= limit) continue;
        for (char dir : kDirs) {
            const Loc n = s.step(l, dir);
            auto& slot = dist[static_cast<std::size_t>(s.index(n))];
            if (slot < 0 && s.passable(n)) {
                slot = d + 1;
                frontier.push_back(n);
            }
        }
    }
    return dist;
}

// Tracks own destinations so no two own ants end on one square (they would both die).
class MovePlanner {
public:
    explicit MovePlanner(const State& s) : s_(s), taken_(static_cast<std::size_t>(s.rows) * s.cols, 0) {
        for (const Loc& a : s.my_ants) taken_[static_cast<std::size_t>(s.index(a))] = 1;
        for (const Loc& f : s.food) taken_[static_cast<std::size_t>(s.index(f))] = 1;  // moves onto food are blocked
    }
    bool can_move(Loc from, char d) const {
        const Loc to = s_.step(from, d);
        return s_.passable(to) && !taken_[static_cast<std::size_t>(s_.index(to))];
    }
    void move(Loc from, char d) {
        taken_[static_cast<std::size_t>(s_.index(from))] = 0;
        taken_[static_cast<std::size_t>(s_.index(s_.step(from, d)))] = 1;
        orders.push_back({from, d});
    }
    // Steps down the distance field if a free neighbour is closer; false if none is.
    bool descend(Loc from, const std::vector<int>& field) {
        const int here = field[static_cast<std::size_t>(s_.index(from))];
        if (here <= 0) return false;
        for (char d : kDirs) {
            const int there = field[static_cast<std::size_t>(s_.index(s_.step(from, d)))];
            if (there >= 0 && there < here && can_move(from, d)) {
                move(from, d);
                return true;
            }
        }
        return false;
    }
    // Steps to the first free neighbour, starting from a random direction; false if none is free.
    bool wander(Loc from, Random& random) {
        const int first = random.below(4);
        for (int i = 0; i < 4; ++i) {
            const char d = kDirs[(first + i) % 4];
            if (can_move(from, d)) {
                move(from, d);
                return true;
            }
        }
        return false;
    }
    std::vector<Order> orders;

private:
    const State& s_;
    std::vector<char> taken_;
};

// Runs the protocol loop until the end message; `strategy(state, random)` returns the orders.
template <class Strategy>
int run(Strategy strategy) {
    std::ios::sync_with_stdio(false);
    State s;
    Random random;
    std::string line;
    bool ending = false;
    while (std::getline(std::cin, line)) {
        if (!line.empty() && line.back() == '\r') line.pop_back();
        std::istringstream in(line);
        std::string key;
        in >> key;
        if (key == "turn") {
            in >> s.turn;
            s.my_ants.clear();
            s.enemy_ants.clear();
            s.food.clear();
            s.my_hills.clear();
            s.enemy_hills.clear();
        } else if (key == "end") {
            ending = true;
        } else if (key == "rows") {
            in >> s.rows;
        } else if (key == "cols") {
            in >> s.cols;
        } else if (key == "turns") {
            in >> s.turns;
        } else if (key == "viewradius2") {
            in >> s.viewradius2;
        } else if (key == "attackradius2") {
            in >> s.attackradius2;
        } else if (key == "spawnradius2") {
            in >> s.spawnradius2;
        } else if (key == "player_seed") {
            in >> s.player_seed;
        } else if (key == "ready") {
            s.water.assign(static_cast<std::size_t>(s.rows) * s.cols, 0);
            random = Random(static_cast<std::uint64_t>(s.player_seed));
            std::cout << "go" << std::endl;
        } else if (key == "w" || key == "f" || key == "a" || key == "h") {
            Loc l;
            int owner = 0;
            in >> l.row >> l.col >> owner;
            if (key == "w") s.water[static_cast<std::size_t>(s.index(l))] = 1;
            else if (key == "f") s.food.push_back(l);
            else if (key == "a") (owner == 0 ? s.my_ants : s.enemy_ants).push_back(l);
            else (owner == 0 ? s.my_hills : s.enemy_hills).push_back(l);
        } else if (key == "go") {
            if (ending) return 0;
            for (const Order& o : strategy(s, random)) std::cout << "o " << o.from.row << ' ' << o.from.col << ' ' << o.dir << '\n';
            std::cout << "go" << std::endl;
        }
    }
    return 0;
}

}  // namespace ants_bot
