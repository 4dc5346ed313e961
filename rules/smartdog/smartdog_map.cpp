// Map tiles (smartdog.md 2): an optional JSON line of option overrides, then the rows of one
// player's tile. Every reader error is one line naming the file.
#include <algorithm>
#include <fstream>
#include <sstream>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "core/did_you_mean.hpp"
#include "core/user_error.hpp"
#include "rules/smartdog/smartdog_map.hpp"

namespace arb::smartdog {
namespace {

constexpr std::size_t kMaxMapBytes = 1 << 20;

std::string trim(std::string_view s) {
    const auto first = s.find_first_not_of(" \t\r");
    if (first == std::string_view::npos) return "";
    const auto last = s.find_last_not_of(" \t\r");
    return std::string(s.substr(first, last - first + 1));
}

int option_value(const nlohmann::json& value, const std::string& key, const std::string& origin) {
    // The original's config quotes its numbers; map files do not. Both are accepted (ruling 19).
    long long v = 0;
    if (value.is_number_integer()) {
        v = value.get<long long>();
    } else if (value.is_string()) {
        const std::string text = value.get<std::string>();
        std::size_t used = 0;
        try {
            v = std::stoll(text, &used);
        } catch (const std::exception&) {
            used = 0;
        }
        if (used == 0 || used != text.size()) throw UserError(origin + ": option " + key + " is not an integer");
    } else {
        throw UserError(origin + ": option " + key + " is not an integer");
    }
    if (v < 0 || v > 100000000) throw UserError(origin + ": option " + key + " is out of range");
    return static_cast<int>(v);
}

void apply_overrides(const std::string& line, Params& p, const std::string& origin) {
    nlohmann::json j;
    try {
        j = nlohmann::json::parse(line);
    } catch (const std::exception&) {
        throw UserError(origin + ": the option line is not valid JSON");
    }
    if (!j.is_object()) throw UserError(origin + ": the option line is not a JSON object");
    for (const auto& [key, value] : j.items()) {
        int* target = key == "waitForTurn"       ? &p.wait_for_turn
                      : key == "dogVisibilityR"  ? &p.visibility_r
                      : key == "dogBarkingR"     ? &p.barking_r
                      : key == "sheepStandBy"    ? &p.sheep_stand_by
                      : key == "sheepScaryTurns" ? &p.sheep_scary_turns
                      : key == "turnsLimit"      ? &p.turns_limit
                      : key == "dogScaryTurns"   ? &p.dog_scary_turns
                                                 : nullptr;
        if (!target) throw UserError(origin + ": unknown option '" + key + "'");
        *target = option_value(value, key, origin);
    }
}

}  // namespace

Tile parse_tile(std::string_view text, const std::string& origin) {
    Tile tile;
    tile.origin = origin;
    std::istringstream in{std::string(text)};
    std::string raw;
    bool first = true;
    int line_number = 0, option_line = 0;
    while (std::getline(in, raw)) {
        ++line_number;
        const std::string line = trim(raw);
        const std::string where = origin + ":" + std::to_string(line_number);
        if (line.empty()) continue;
        if (first && line.front() == '{') {
            apply_overrides(line, tile.params, where);
            option_line = line_number;
            first = false;
            continue;
        }
        first = false;
        for (char c : line) {
            if (std::string_view(".#^-@*o").find(c) == std::string_view::npos) {
                throw UserError(where + ": unknown map character '" + std::string(1, c) + "' (a tile has . # ^ - @ * o)");
            }
        }
        if (!tile.rows.empty() && line.size() != tile.rows.front().size()) {
            throw UserError(where + ": row " + std::to_string(tile.rows.size() + 1) + " has " + std::to_string(line.size()) +
                            " cells, expected " + std::to_string(tile.rows.front().size()) + " (a tile is a rectangle)");
        }
        if (line.size() > static_cast<std::size_t>(kMaxBoardSide) || tile.rows.size() >= static_cast<std::size_t>(kMaxBoardSide)) {
            throw UserError(where + ": the tile is larger than the seed's board of at most 1000 x 1000 cells");
        }
        tile.rows.push_back(line);
        tile.row_lines.push_back(line_number);
    }
    if (tile.rows.empty()) throw UserError(origin + ": the map has no rows");
    tile.height = static_cast<int>(tile.rows.size());
    tile.width = static_cast<int>(tile.rows.front().size());
    const Params& p = tile.params;
    const std::string where = origin + ":" + std::to_string(option_line > 0 ? option_line : tile.row_lines.front());
    // The seed: dogBarkingR "is less than or equal to dogVisibilityR" (ruling 20).
    if (p.barking_r > p.visibility_r) throw UserError(where + ": dogBarkingR exceeds dogVisibilityR; the seed: dogBarkingR <= dogVisibilityR");
    if (p.turns_limit < 1) throw UserError(where + ": turnsLimit must be at least 1 (turns are numbered from 1 to turnsLimit)");
    if (p.sheep_scary_turns < 1) throw UserError(where + ": sheepScaryTurns must be at least 1 (it counts the turn of the scare)");
    if (p.visibility_r > kMaxBoardSide) throw UserError(where + ": dogVisibilityR is larger than any board");
    return tile;
}

namespace {

std::string rows_span(const Tile& tile) {
    return tile.origin + ":" + std::to_string(tile.row_lines.front()) + "-" + std::to_string(tile.row_lines.back());
}

// The seed: "a pen always has a rectangular shape; a map may have more than one pen". Each pen
// (cells joined side by side) must fill the rectangle that bounds it.
void check_pens(const Tile& tile) {
    auto pen = [&](int x, int y) { const char c = tile.rows[y][x]; return c == '-' || c == 'o'; };
    std::vector<std::vector<bool>> seen(tile.height, std::vector<bool>(tile.width, false));
    bool any = false;
    for (int y0 = 0; y0 < tile.height; ++y0) {
        for (int x0 = 0; x0 < tile.width; ++x0) {
            if (!pen(x0, y0) || seen[y0][x0]) continue;
            any = true;
            int left = x0, right = x0, top = y0, bottom = y0, cells = 0;
            std::vector<std::pair<int, int>> todo{{x0, y0}};
            seen[y0][x0] = true;
            while (!todo.empty()) {
                const auto [x, y] = todo.back();
                todo.pop_back();
                ++cells;
                left = std::min(left, x), right = std::max(right, x), top = std::min(top, y), bottom = std::max(bottom, y);
                for (const auto& [nx, ny] : {std::pair{x - 1, y}, {x + 1, y}, {x, y - 1}, {x, y + 1}}) {
                    if (nx < 0 || ny < 0 || nx >= tile.width || ny >= tile.height || seen[ny][nx] || !pen(nx, ny)) continue;
                    seen[ny][nx] = true;
                    todo.push_back({nx, ny});
                }
            }
            if (cells == (right - left + 1) * (bottom - top + 1)) continue;
            for (int y = top; y <= bottom; ++y) {
                for (int x = left; x <= right; ++x) {
                    if (pen(x, y)) continue;
                    throw UserError(fmt::format("{}:{}: the pen that starts in row {} at column {} is not a rectangle "
                                                "(column {} of this row is not pen); the seed: a pen is always rectangular",
                                                tile.origin, tile.row_lines[y], y0 + 1, x0 + 1, x + 1));
                }
            }
        }
    }
    if (!any) {
        throw UserError(rows_span(tile) + ": no pen ('-' or 'o'); the seed: each player gathers sheep in a pen of its own");
    }
}

}  // namespace

void check_seed_bounds(const Tile& tile, int players) {
    check_board_size(tile, players);
    // Every player's tile is a copy of this one: its dogs and sheep are each player's.
    int dogs = 0, sheep = 0;
    for (const auto& row : tile.rows) {
        dogs += static_cast<int>(std::count(row.begin(), row.end(), '@'));
        sheep += static_cast<int>(std::count(row.begin(), row.end(), '*') + std::count(row.begin(), row.end(), 'o'));
    }
    if (dogs == 0) throw UserError(rows_span(tile) + ": no dog ('@'); the seed: dogs, from 1 per player");
    if (sheep == 0) throw UserError(rows_span(tile) + ": no sheep ('*' or 'o'); the seed: sheep, from 1 per player");
    check_pens(tile);
}

Tile read_tile(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    if (!in) throw UserError("cannot read map file '" + path + "': " + unreadable_reason(path));
    std::string text(kMaxMapBytes + 1, '\0');
    in.read(text.data(), static_cast<std::streamsize>(text.size()));
    text.resize(static_cast<std::size_t>(in.gcount()));
    if (text.size() > kMaxMapBytes) throw UserError(path + ": the map is larger than 1 MiB");
    return parse_tile(text, path);
}

}  // namespace arb::smartdog
