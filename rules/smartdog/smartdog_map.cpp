// Map tiles (smartdog.md 2): an optional JSON line of option overrides, then the rows of one
// player's tile. Every reader error is one line naming the file.
#include <fstream>
#include <sstream>

#include <nlohmann/json.hpp>

#include "core/user_error.hpp"
#include "rules/smartdog/smartdog_engine.hpp"

namespace arb::smartdog {
namespace {

constexpr std::size_t kMaxMapBytes = 1 << 20;
constexpr int kMaxBoardSide = 1000;  // ruling 21: 2..1000 cells on both board sides

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
    std::istringstream in{std::string(text)};
    std::string raw;
    bool first = true;
    while (std::getline(in, raw)) {
        const std::string line = trim(raw);
        if (line.empty()) continue;
        if (first && line.front() == '{') {
            apply_overrides(line, tile.params, origin);
            first = false;
            continue;
        }
        first = false;
        for (char c : line) {
            if (std::string_view(".#^-@*o").find(c) == std::string_view::npos) {
                throw UserError(origin + ": unknown map character '" + std::string(1, c) + "'");
            }
        }
        if (!tile.rows.empty() && line.size() != tile.rows.front().size()) {
            throw UserError(origin + ": row " + std::to_string(tile.rows.size() + 1) + " has " +
                            std::to_string(line.size()) + " cells, expected " +
                            std::to_string(tile.rows.front().size()));
        }
        tile.rows.push_back(line);
    }
    if (tile.rows.empty()) throw UserError(origin + ": the map has no rows");
    tile.height = static_cast<int>(tile.rows.size());
    tile.width = static_cast<int>(tile.rows.front().size());
    // The 4-player layout is 2 x 4 tiles, the 3-player one 3 x 3: every layout must fit.
    if (tile.width < 2 || tile.height < 2 || tile.width * 4 > kMaxBoardSide || tile.height * 3 > kMaxBoardSide) {
        throw UserError(origin + ": a tile must be 2..250 cells wide and 2..333 high");
    }
    const Params& p = tile.params;
    if (p.barking_r > p.visibility_r) throw UserError(origin + ": dogBarkingR exceeds dogVisibilityR");  // ruling 20
    if (p.turns_limit < 1) throw UserError(origin + ": turnsLimit must be at least 1");
    if (p.sheep_scary_turns < 1) throw UserError(origin + ": sheepScaryTurns must be at least 1");
    if (p.visibility_r > kMaxBoardSide) throw UserError(origin + ": dogVisibilityR is too large");
    return tile;
}

Tile read_tile(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    if (!in) throw UserError("cannot read map " + path);
    std::string text(kMaxMapBytes + 1, '\0');
    in.read(text.data(), static_cast<std::streamsize>(text.size()));
    text.resize(static_cast<std::size_t>(in.gcount()));
    if (text.size() > kMaxMapBytes) throw UserError(path + ": the map is larger than 1 MiB");
    return parse_tile(text, path);
}

}  // namespace arb::smartdog
