// The board, the dogs' commands and the per-turn steps (smartdog.md 2-8).
#include "rules/smartdog/smartdog_engine.hpp"

#include <array>
#include <cstdlib>

#include <fmt/format.h>

#include "core/user_error.hpp"

namespace arb::smartdog {
namespace {

// Tile layouts per player count (smartdog.md 2): k = player k's tile, 0 = an empty grass tile.
const std::vector<std::vector<int>>& layout(int players) {
    static const std::array<std::vector<std::vector<int>>, 4> layouts = {{
        {{1}},
        {{1, 2}},
        {{1, 0, 0}, {0, 2, 0}, {0, 0, 3}},
        {{1, 0, 3, 0}, {0, 2, 0, 4}},
    }};
    return layouts.at(static_cast<std::size_t>(players - 1));
}

int step_x(Dir d) { return d == Dir::left ? -1 : d == Dir::right ? 1 : 0; }
int step_y(Dir d) { return d == Dir::up ? -1 : d == Dir::down ? 1 : 0; }

}  // namespace

void check_board_size(const Tile& tile, int players) {
    if (players < 1 || players > 4) throw UserError("smart-dog is played by 1 to 4 players");
    const auto& grid = layout(players);
    const auto across = static_cast<int>(grid.front().size()), down = static_cast<int>(grid.size());
    const int width = across * tile.width, height = down * tile.height;
    if (width >= kMinBoardSide && width <= kMaxBoardSide && height >= kMinBoardSide && height <= kMaxBoardSide) return;
    const int line = tile.row_lines.empty() ? 1 : tile.row_lines.front();
    throw UserError(fmt::format("{}:{}: a {}-player board is {} x {} tiles of {} x {} cells, {} x {}; the seed allows "
                                "{}..{} cells a side",
                                tile.origin.empty() ? "map" : tile.origin, line, players, across, down, tile.width,
                                tile.height, width, height, kMinBoardSide, kMaxBoardSide));
}

const char* dir_name(Dir d) {
    switch (d) {
        case Dir::up: return "up";
        case Dir::down: return "down";
        case Dir::left: return "left";
        case Dir::right: return "right";
    }
    return "?";
}

std::optional<Dir> parse_dir(std::string_view text) {
    if (text == "up") return Dir::up;
    if (text == "down") return Dir::down;
    if (text == "left") return Dir::left;
    if (text == "right") return Dir::right;
    return std::nullopt;
}

Engine::Engine(const Tile& tile, int players) : params_(tile.params), players_(players) {
    if (players < 1 || players > 4) throw UserError("smart-dog is played by 1 to 4 players");
    check_board_size(tile, players);
    const auto& grid = layout(players);
    width_ = static_cast<int>(grid.front().size()) * tile.width;
    height_ = static_cast<int>(grid.size()) * tile.height;
    land_.assign(static_cast<std::size_t>(width_ * height_), kGrass);
    occupant_.assign(land_.size(), kEmpty);
    territories_.resize(static_cast<std::size_t>(players));
    // Object ids come from one counter that also numbers the landscape cells; the three shared
    // landscape kinds and one pen per player come first (smartdog.md 2).
    int next_id = 4 + players;
    for (std::size_t ty = 0; ty < grid.size(); ++ty) {
        for (std::size_t tx = 0; tx < grid[ty].size(); ++tx) {
            const int owner = grid[ty][tx];
            const int x0 = static_cast<int>(tx) * tile.width;
            const int y0 = static_cast<int>(ty) * tile.height;
            if (owner > 0 && owner <= players) {
                territories_[static_cast<std::size_t>(owner - 1)] = {x0, y0, x0 + tile.width - 1, y0 + tile.height - 1};
            }
            for (int dy = 0; dy < tile.height; ++dy) {
                for (int dx = 0; dx < tile.width; ++dx) {
                    const char ch = owner > 0 ? tile.rows[static_cast<std::size_t>(dy)][static_cast<std::size_t>(dx)] : '.';
                    const int c = cell(x0 + dx, y0 + dy);
                    if (ch == '@') {
                        occupant_[static_cast<std::size_t>(c)] = static_cast<int>(dogs_.size());
                        Dog dog;
                        dog.id = next_id++;
                        dog.owner = owner;
                        dog.x = x0 + dx;
                        dog.y = y0 + dy;
                        dogs_.push_back(dog);
                    } else if (ch == '*' || ch == 'o') {
                        occupant_[static_cast<std::size_t>(c)] = sheep_code(static_cast<int>(sheep_.size()));
                        Sheep s;
                        s.x = x0 + dx;
                        s.y = y0 + dy;
                        sheep_.push_back(s);
                        next_id++;
                    }
                    ++next_id;  // the landscape cell
                    land_[static_cast<std::size_t>(c)] = ch == '#'                ? kWall
                                                         : ch == '^'              ? kTree
                                                         : (ch == '-' || ch == 'o') ? static_cast<std::int8_t>(kPenBase + owner)
                                                                                    : kGrass;
                }
            }
        }
    }
    for (const auto& row : tile.rows) {
        for (char ch : row) {
            sheep_per_tile_ += ch == '*' || ch == 'o';
            initial_in_pen_ += ch == 'o';
        }
    }
}

std::vector<std::string> Engine::landscape_rows() const {
    std::vector<std::string> rows(static_cast<std::size_t>(height_), std::string(static_cast<std::size_t>(width_), '.'));
    for (int y = 0; y < height_; ++y) {
        for (int x = 0; x < width_; ++x) {
            const int l = land_[static_cast<std::size_t>(cell(x, y))];
            rows[static_cast<std::size_t>(y)][static_cast<std::size_t>(x)] =
                l == kWall ? '#' : l == kTree ? '^' : l >= kPenBase ? static_cast<char>('0' + l - kPenBase) : '.';
        }
    }
    return rows;
}

// The shortest wrapped offset from `from` to `to`; at exactly half the board the original
// picks the way round opposite to the plain difference (map2d.js getDelta).
int Engine::delta(int from, int to, int size) const {
    const int plain = to - from;
    const int round = to > from ? -(from + size - to) : to + size - from;
    return std::abs(plain) < std::abs(round) ? plain : round;
}

int Engine::distance2(int x1, int y1, int x2, int y2) const {
    const int dx = delta(x1, x2, width_);
    const int dy = delta(y1, y2, height_);
    return dx * dx + dy * dy;
}

bool Engine::walkable_free(int c) const {
    const auto i = static_cast<std::size_t>(c);
    return occupant_[i] == kEmpty && land_[i] != kWall && land_[i] != kTree;
}

void Engine::begin_turn() {
    ++turn_;
    for (auto& s : sheep_) {
        if (s.scared) {
            if (--s.fear <= 0) {
                s.scared = false;
                s.chain.clear();
            }
        }
        s.moved = false;
    }
    for (auto& d : dogs_) d.moved = false;
}

bool Engine::sheep_due(const Sheep& s) const {
    if (is_pen(cell(s.x, s.y))) return false;  // any pen, own or enemy (smartdog.md 6.2)
    return turn_ % (params_.sheep_stand_by + 1) == params_.sheep_stand_by;
}

std::vector<std::string> Engine::snapshot(int player) const {
    std::vector<std::string> out;
    std::vector<bool> seen(land_.size(), false);
    auto dog_fields = [](const Dog& d) {
        std::string f = "\"id\":" + std::to_string(d.id) + ",\"type\":\"Dog\",\"x\":" + std::to_string(d.x) +
                        ",\"y\":" + std::to_string(d.y) + ",\"owner\":" + std::to_string(d.owner) + ",\"action\":\"" +
                        (d.scared > 0 ? (d.only_silence ? "indignant" : "panic") : "move") + "\"";
        if (d.barking) f += ",\"voice\":\"barking\"";
        return f;
    };
    const int r = params_.visibility_r;
    for (const auto& own : dogs_) {
        if (own.owner != player) continue;
        // Column by column, top to bottom (map2d.js getArea).
        for (int dx = -r; dx <= r; ++dx) {
            for (int dy = -r; dy <= r; ++dy) {
                const int x = wrap_x(own.x + dx), y = wrap_y(own.y + dy);
                if (distance2(own.x, own.y, x, y) > r * r) continue;
                const auto c = static_cast<std::size_t>(cell(x, y));
                const int who = occupant_[c];
                if (who == kEmpty || seen[c]) continue;
                seen[c] = true;
                if (who >= 0) {
                    out.push_back(dog_fields(dogs_[static_cast<std::size_t>(who)]));
                } else {
                    const Sheep& s = sheep_[static_cast<std::size_t>(-2 - who)];
                    out.push_back("\"type\":\"Sheep\",\"x\":" + std::to_string(s.x) + ",\"y\":" + std::to_string(s.y) +
                                  ",\"action\":\"" + (s.scared ? "panic" : sheep_due(s) ? "move" : "standBy") +
                                  "\",\"direction\":\"" + dir_name(s.dir) + "\"");
                }
            }
        }
    }
    // Every dog that barked last turn is heard anywhere; unseen ones without who it is.
    for (const auto& d : dogs_) {
        if (d.barking && !seen[static_cast<std::size_t>(cell(d.x, d.y))]) {
            out.push_back("\"voice\":\"barking\",\"x\":" + std::to_string(d.x) + ",\"y\":" + std::to_string(d.y));
        }
    }
    return out;
}

Dog* Engine::own_dog(int player, const std::string& id) {
    for (auto& d : dogs_) {
        if (d.owner == player && std::to_string(d.id) == id) return &d;
    }
    return nullptr;
}

std::string Engine::command(int player, const std::vector<std::string>& words) {
    // words: the `do` argument split on single spaces: id, command, arguments (player.js).
    const std::string id = words.empty() ? "" : words[0];
    const std::string cmd = words.size() > 1 ? words[1] : "undefined";
    if (cmd == "move") return move(player, id, words.size() > 2 ? words[2] : "undefined");
    if (cmd == "bark") return bark(player, id);
    return "Unknown command - " + cmd + ", only the following are allowed: move,bark";
}

std::string Engine::move(int player, const std::string& id, const std::string& direction) {
    const auto dir = parse_dir(direction);
    if (!dir) return id + " Unexpected direction '" + direction + "', one of the following expected: up,down,left,right";
    Dog* dog = own_dog(player, id);
    if (!dog) return id + " Unknown id";
    if (dog->moved) return id + " Dog already moved this turn";
    if (dog->scared > 0 && !dog->only_silence) return id + " Cannot move - scared :(";
    const int nx = wrap_x(dog->x + step_x(*dir)), ny = wrap_y(dog->y + step_y(*dir));
    const int target = cell(nx, ny);
    if (!walkable_free(target)) {
        return id + " Cannot move to " + std::to_string(nx) + ", " + std::to_string(ny) +
               " - there is a non traversable landscape or another object";
    }
    const int index = occupant_[static_cast<std::size_t>(cell(dog->x, dog->y))];
    occupant_[static_cast<std::size_t>(cell(dog->x, dog->y))] = kEmpty;
    occupant_[static_cast<std::size_t>(target)] = index;
    dog->x = nx;
    dog->y = ny;
    dog->moved = true;
    return "";
}

std::string Engine::bark(int player, const std::string& id) {
    Dog* dog = own_dog(player, id);
    if (!dog) return id + " Unknown id";
    if (dog->just_barked) return id + " Dog with already barked this turn";
    if (dog->scared > 0) return id + " Cannot bark because fighted by another dog";
    dog->just_barked = true;
    dog->barking = true;
    do_bark(static_cast<int>(dog - dogs_.data()));
    return "";
}

// A bark acts at once from where the dog stands (smartdog.md 5.2, 6.4).
void Engine::do_bark(int dog_index) {
    const Dog barker = dogs_[static_cast<std::size_t>(dog_index)];
    const int r2 = params_.barking_r * params_.barking_r;
    for (auto& s : sheep_) {
        if (distance2(s.x, s.y, barker.x, barker.y) > r2) continue;
        s.scared = true;
        s.chain.clear();
        s.fear = params_.sheep_scary_turns;
        // Away from the dog along the longer axis; vertical on a tie (map2d.js getDirection).
        const int dx = delta(barker.x, s.x, width_), dy = delta(barker.y, s.y, height_);
        if (std::abs(dx) > std::abs(dy)) {
            s.dir = dx > 0 ? Dir::right : Dir::left;
        } else {
            s.dir = dy > 0 ? Dir::down : Dir::up;
        }
    }
    for (std::size_t i = 0; i < dogs_.size(); ++i) {
        Dog& d = dogs_[i];
        if (static_cast<int>(i) == dog_index || distance2(d.x, d.y, barker.x, barker.y) > r2) continue;
        if (d.owner == barker.owner) {
            d.ally_barked = true;
        } else {
            d.just_became_scared = true;
            d.only_silence = territories_[static_cast<std::size_t>(d.owner - 1)].contains(barker.x, barker.y);
        }
    }
}

double Engine::score(int player) const {
    int on_pen = 0;
    for (const auto& s : sheep_) on_pen += land_[static_cast<std::size_t>(cell(s.x, s.y))] == kPenBase + player;
    const int ini = initial_in_pen_;
    if (on_pen == ini) return 0;
    if (on_pen < ini) return -10 * (static_cast<double>(ini - on_pen) / ini);
    return 10.0 * on_pen / sheep_per_tile_;
}

int Engine::winner(const std::vector<bool>& eliminated) const {
    double best = -10;
    int winner = 0;
    for (int p = 1; p <= players_; ++p) {
        if (static_cast<std::size_t>(p - 1) < eliminated.size() && eliminated[static_cast<std::size_t>(p - 1)]) continue;
        const double s = score(p);
        if (s > best) {
            best = s;
            winner = p;
        }
    }
    return winner;
}

}  // namespace arb::smartdog
