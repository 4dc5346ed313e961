// A smart-dog sample bot that herds: each dog takes the nearest sheep outside its own pen that
// no other dog of ours has taken, goes to the cell behind it (on the side away from the pen)
// and barks when the sheep lies between it and the pen, so the sheep runs toward the pen.
#include <algorithm>
#include <cstdlib>
#include <deque>
#include <optional>
#include <set>

#include "smartdog_bot.hpp"

namespace {

using smartdog_bot::Game;
using smartdog_bot::Obj;

struct Step {
    int dx, dy;
    const char* name;
};
constexpr Step kUp{0, -1, "up"}, kDown{0, 1, "down"}, kLeft{-1, 0, "left"}, kRight{1, 0, "right"};

// The way from (ax, ay) to (bx, by) along the longer axis; vertical on a tie.
Step direction(const Game& g, int ax, int ay, int bx, int by) {
    const int dx = g.delta(ax, bx, g.cols), dy = g.delta(ay, by, g.rows);
    if (std::abs(dx) > std::abs(dy)) return dx > 0 ? kRight : kLeft;
    return dy > 0 ? kDown : kUp;
}

// The nearest cell of our pen from (x, y), by a flood fill over walkable cells (8 neighbours).
std::optional<std::pair<int, int>> nearest_pen(const Game& g, int x, int y) {
    std::vector<char> seen(static_cast<std::size_t>(g.rows * g.cols), 0);
    std::deque<std::pair<int, int>> queue{{x, y}};
    seen[static_cast<std::size_t>(y * g.cols + x)] = 1;
    while (!queue.empty()) {
        const auto [cx, cy] = queue.front();
        queue.pop_front();
        if (g.own_pen(cx, cy)) return std::make_pair(cx, cy);
        for (int dx = -1; dx <= 1; ++dx) {
            for (int dy = -1; dy <= 1; ++dy) {
                const int nx = g.wx(cx + dx), ny = g.wy(cy + dy);
                auto& s = seen[static_cast<std::size_t>(ny * g.cols + nx)];
                if (s || !g.walkable(nx, ny)) continue;
                s = 1;
                queue.emplace_back(nx, ny);
            }
        }
    }
    return std::nullopt;
}

std::vector<std::string> decide(const Game& g) {
    std::vector<std::string> out;
    std::set<std::pair<int, int>> taken;
    for (const auto& dog : g.objs) {
        if (dog.type != "Dog" || dog.owner != g.you) continue;
        const std::string id = std::to_string(dog.id);
        std::vector<const Obj*> sheep;
        for (const auto& o : g.objs) {
            if (o.type == "Sheep" && !g.own_pen(o.x, o.y) && !taken.count({o.x, o.y})) sheep.push_back(&o);
        }
        std::stable_sort(sheep.begin(), sheep.end(), [&](const Obj* a, const Obj* b) {
            return g.dist2(dog.x, dog.y, a->x, a->y) < g.dist2(dog.x, dog.y, b->x, b->y);
        });
        for (const Obj* s : sheep) {
            const auto pen = nearest_pen(g, s->x, s->y);
            if (!pen) continue;
            const Step push = direction(g, s->x, s->y, pen->first, pen->second);
            const int bx = g.wx(s->x - push.dx), by = g.wy(s->y - push.dy);
            if (!g.walkable(bx, by)) continue;
            taken.insert({s->x, s->y});
            const Step to_sheep = direction(g, dog.x, dog.y, s->x, s->y);
            if (to_sheep.name == push.name && g.dist2(dog.x, dog.y, s->x, s->y) <= g.bark_r * g.bark_r) {
                out.push_back("do " + id + " bark");
                break;
            }
            const Step head = direction(g, dog.x, dog.y, bx, by);
            const Step side_a = head.dx == 0 ? kLeft : kUp, side_b = head.dx == 0 ? kRight : kDown;
            bool moved = false;
            for (const Step& st : {head, side_a, side_b}) {
                const int nx = dog.x + st.dx, ny = dog.y + st.dy;
                if (g.walkable(nx, ny) && !g.occupied(nx, ny)) {
                    out.push_back("do " + id + " move " + st.name);
                    moved = true;
                    break;
                }
            }
            if (!moved) out.push_back("do " + id + " bark");
            break;
        }
    }
    return out;
}

}  // namespace

int main() { return smartdog_bot::run(decide); }
