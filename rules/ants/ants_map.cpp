#include "rules/ants/ants_map.hpp"

#include <charconv>
#include <fstream>
#include <map>
#include <sstream>

#include <fmt/format.h>

#include "core/did_you_mean.hpp"
#include "core/json_text.hpp"
#include "core/user_error.hpp"

namespace arb::ants {
namespace {

std::string_view trim(std::string_view s) {
    while (!s.empty() && (s.front() == ' ' || s.front() == '\t' || s.front() == '\r')) s.remove_prefix(1);
    while (!s.empty() && (s.back() == ' ' || s.back() == '\t' || s.back() == '\r')) s.remove_suffix(1);
    return s;
}

int parse_int(std::string_view value, const std::string& where) {
    value = trim(value);
    int out = 0;
    auto [ptr, ec] = std::from_chars(value.data(), value.data() + value.size(), out);
    if (ec != std::errc{} || ptr != value.data() + value.size())
        throw UserError(where + ": expected an integer, got '" + std::string(value) + "'");
    return out;
}

}  // namespace

AntsMap parse_map(std::string_view text, const std::string& source) {
    AntsMap map;
    int row = 0;
    bool saw_map_line = false;
    // Hills grouped by owner in order of the owner's first appearance (a Python dict of lists).
    std::vector<int> owner_order;
    std::map<int, std::vector<HillSpec>> hills_by_owner;
    std::vector<int> ant_owner_order;
    std::map<int, std::vector<HillSpec>> ants_by_owner;
    std::size_t line_no = 0;
    while (!text.empty()) {
        auto nl = text.find('\n');
        std::string_view raw = text.substr(0, nl);
        text = nl == std::string_view::npos ? std::string_view{} : text.substr(nl + 1);
        ++line_no;
        std::string_view line = trim(raw);
        if (line.empty() || line.front() == '#') continue;
        const std::string where = source + " line " + std::to_string(line_no);
        auto space = line.find(' ');
        if (space == std::string_view::npos) throw UserError(where + ": expected 'key value'");
        std::string key(line.substr(0, space));
        for (auto& c : key) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
        std::string_view value = line.substr(space + 1);
        if (saw_map_line && (key == "rows" || key == "cols" || key == "players")) {
            throw UserError(where + ": '" + key + "' after the map lines");  // the grid is already sized
        }
        if (key == "rows" || key == "cols") {
            const int side = parse_int(value, where);
            if (side < 1 || side > kMaxMapSide)
                throw UserError(fmt::format("{}: {} {}, must be from 1 to {}", where, side, key, kMaxMapSide));
            (key == "rows" ? map.rows : map.cols) = side;
        } else if (key == "players") {
            map.players = parse_int(value, where);
            if (map.players < 2 || map.players > 10)
                throw UserError(where + ": player count must be between 2 and 10");
        } else if (key == "m") {
            if (!saw_map_line) {
                if (map.players == 0) throw UserError(where + ": 'players' expected before map lines");
                if (map.rows <= 0 || map.cols <= 0)
                    throw UserError(where + ": 'rows' and 'cols' expected before map lines");
                map.water.assign(static_cast<std::size_t>(map.rows) * map.cols, 0);
                saw_map_line = true;
            }
            if (static_cast<int>(value.size()) != map.cols)
                throw UserError(where + ": row " + std::to_string(row) + " has " +
                                std::to_string(value.size()) + " cols, expected " + std::to_string(map.cols));
            if (row >= map.rows) throw UserError(where + ": more map rows than 'rows " + std::to_string(map.rows) + "'");
            for (int col = 0; col < map.cols; ++col) {
                const char c = value[col];
                int hill_owner = -1;
                int ant_owner = -1;  // ants and food only matter in scenario games
                if (c >= 'a' && c < 'a' + map.players) {
                    ant_owner = c - 'a';
                } else if (c >= '0' && c < '0' + map.players) {
                    hill_owner = c - '0';
                } else if (c >= 'A' && c < 'A' + map.players) {
                    hill_owner = ant_owner = c - 'A';
                } else if (c == '%') {
                    map.water[static_cast<std::size_t>(row) * map.cols + col] = 1;
                } else if (c == '*') {
                    map.scenario_food.push_back(row * map.cols + col);
                } else if (c != '.') {
                    throw UserError(where + ": invalid character in map: '" + std::string(1, c) + "'");
                }
                if (ant_owner >= 0) {
                    if (!ants_by_owner.contains(ant_owner)) ant_owner_order.push_back(ant_owner);
                    ants_by_owner[ant_owner].push_back({row, col, ant_owner});
                }
                if (hill_owner >= 0) {
                    if (!hills_by_owner.contains(hill_owner)) owner_order.push_back(hill_owner);
                    hills_by_owner[hill_owner].push_back({row, col, hill_owner});
                }
            }
            ++row;
        }
        // score, hive and unknown keys are ignored, as the original does for normal games
    }
    if (!saw_map_line) throw UserError(source + ": no map lines ('m ...')");
    if (row != map.rows)
        throw UserError(source + ": expected " + std::to_string(map.rows) + " map rows, got " + std::to_string(row));
    for (int owner : owner_order)
        for (const auto& hill : hills_by_owner[owner]) map.hills.push_back(hill);
    for (int owner : ant_owner_order)
        for (const auto& ant : ants_by_owner[owner]) map.scenario_ants.push_back(ant);
    return map;
}

AntsMap load_map_file(const std::string& path) {
    if (!std::ifstream(path, std::ios::binary))
        throw UserError("cannot read map file '" + path + "': " + unreadable_reason(path));
    return parse_map(read_text_file(path, kMaxMapBytes), path);
}

}  // namespace arb::ants
